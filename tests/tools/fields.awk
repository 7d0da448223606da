# fields.awk - the fields and callbacks (function pointers) of each struct typedef in
# common/'s headers. Usage: awk -f tests/tools/fields.awk common/*.h common/*.h (the
# files twice: the first pass learns the function-pointer typedefs, wb_work_fn,
# wb_reduce_launch). docs/maintainers.md says how the hops of a row are counted.
FNR == 1 { pass += FILENAME == first || !first; if (!first) first = FILENAME }
pass == 1 && /typedef .*\(\*[a-z_]+\)\(/ { t = $0; sub(/.*\(\*/, "", t); sub(/\).*/, "", t); fp[t] = 1; next }
pass == 1 { next }
/^typedef struct/ { on = 1; depth = 0; body = "" }
on { body = body " " $0; depth += gsub(/\{/, "{"); depth -= gsub(/\}/, "}")
     if (depth == 0 && /\}/) { on = 0; name = $0; sub(/.*\}[ ]*/, "", name); sub(/;.*/, "", name)
        b = body; gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", b); sub(/^[^{]*\{/, "", b); sub(/\}[^}]*$/, "", b)
        n = split(b, decl, ";"); f = 0; cb = 0
        for (i = 1; i < n; ++i) { d = decl[i]; sub(/^[ \t]+/, "", d); split(d, w, /[ \t]+/)
            if (d ~ /\(\*/) { cb++; f++; continue }
            c = gsub(/,/, ",", d); f += c + 1; if ((w[1] in fp) || (w[2] in fp)) cb += c + 1 }
        if (cb) printf "%-18s %-18s %2d fields, %d callbacks\n", FILENAME, name, f, cb } }
