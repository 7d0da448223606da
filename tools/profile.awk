# tools/profile.awk - the table of tools/profile.sh (POSIX awk).
#
#   awk -f tools/profile.awk SET ALL
#
# SET: the columns, one per line: label|metric|divide-by metric|scale|what it shows
# ALL: ncu --csv --page raw --print-units base output of each kernel's run, each
#      line prefixed by "NAME<tab>" (the lab's name for the kernel), each run's
#      header line by "@@header<tab>".
# Prints one row per profiled kernel (its first launch) and one column per label (the label
# over two lines, so the table fits in 100 columns), then
# the legend (every line within 100 columns). A metric missing from ncu's output prints as "-".

function csvsplit(line, out,    n, i, c, f, inq, len) {
    n = 0; f = ""; inq = 0; len = length(line)
    for (i = 1; i <= len; i++) {
        c = substr(line, i, 1)
        if (inq) {
            if (c == "\"") {
                if (substr(line, i + 1, 1) == "\"") { f = f "\""; i++ }
                else inq = 0
            } else f = f c
        } else if (c == "\"") inq = 1
        else if (c == ",") { out[++n] = f; f = "" }
        else f = f c
    }
    out[++n] = f
    return n
}

# "void transposeSmemTile<32, 8, 1>(float *, const float *, int, int)" -> "transposeSmemTile<32,8,1>";
# namespaces dropped, long template argument lists shortened to <...>
function short_name(s,    base, targs, lt) {
    sub(/^void /, "", s)
    sub(/\(.*$/, "", s)
    gsub(/ /, "", s)
    lt = index(s, "<")
    base = lt ? substr(s, 1, lt - 1) : s
    targs = lt ? substr(s, lt) : ""
    sub(/.*::/, "", base)
    if (length(targs) > 16) targs = "<...>"
    return base targs
}

function value(name,    v) {
    if (!(name in COL)) return ""
    v = F[COL[name]]
    gsub(/,/, "", v)                   # thousands separators
    if (v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) return ""
    return v + 0
}

function show(v) {
    if (v == "") return "-"
    if (v == 0) return "0"
    if (v >= 1000000) return sprintf("%.3g", v)
    if (v >= 100) return sprintf("%.0f", v)
    if (v >= 10) return sprintf("%.1f", v)
    return sprintf("%.2f", v)
}

FNR == NR {
    split($0, s, "|")
    nc++
    LABEL[nc] = s[1]; MET[nc] = s[2]; DIV[nc] = s[3]; SCALE[nc] = (s[4] == "" ? 1 : s[4] + 0); WHAT[nc] = s[5]
    next
}

{
    tab = index($0, "\t")
    if (!tab) next
    tag = substr($0, 1, tab - 1)
    rest = substr($0, tab + 1)
    sub(/\r$/, "", rest)
    if (tag == "@@header") {
        for (k in COL) delete COL[k]
        nh = csvsplit(rest, H)
        for (i = 1; i <= nh; i++) COL[H[i]] = i
        next
    }
    n = csvsplit(rest, F)
    if (!("ID" in COL) || F[COL["ID"]] == "" || F[COL["ID"]] !~ /^[0-9]+$/) next   # the units row
    fn = ("Kernel Name" in COL) ? short_name(F[COL["Kernel Name"]]) : "?"
    if ((tag SUBSEP fn) in SEEN) next   # a second call of the same kernel (the library's, say)
    SEEN[tag, fn] = 1
    nr++
    KNAME[nr] = tag
    FUNC[nr] = fn
    PER[tag]++
    for (c = 1; c <= nc; c++) {
        v = value(MET[c])
        if (v != "" && DIV[c] != "") {
            d = value(DIV[c])
            v = (d == "" || d == 0) ? "" : v / d
        }
        if (v != "") v = v * SCALE[c]
        VAL[nr, c] = v
    }
}

END {
    if (nr == 0) { print "(no kernel was profiled)"; exit 0 }
    w = 6
    for (r = 1; r <= nr; r++) {
        ROWN[r] = (PER[KNAME[r]] > 1) ? KNAME[r] " [" FUNC[r] "]" : KNAME[r]
        if (length(ROWN[r]) > w) w = length(ROWN[r])
    }
    # each label in two lines (split at a blank), so that the columns stay
    # narrow: the table fits in 100 columns
    for (c = 1; c <= nc; c++) {
        split_label(LABEL[c], c)
        cw[c] = length(TOP[c]) > length(BOT[c]) ? length(TOP[c]) : length(BOT[c])
        if (cw[c] < 5) cw[c] = 5
        for (r = 1; r <= nr; r++) if (length(show(VAL[r, c])) > cw[c]) cw[c] = length(show(VAL[r, c]))
    }
    printf ("%-" w "s"), ""
    for (c = 1; c <= nc; c++) printf ("  %" cw[c] "s"), TOP[c]
    printf "\n"
    printf ("%-" w "s"), "kernel"
    for (c = 1; c <= nc; c++) printf ("  %" cw[c] "s"), BOT[c]
    printf "\n"
    for (r = 1; r <= nr; r++) {
        printf ("%-" w "s"), ROWN[r]
        for (c = 1; c <= nc; c++) printf ("  %" cw[c] "s"), show(VAL[r, c])
        printf "\n"
    }
    print ""
    # the legend: what each column shows, then its metric on a line of its own
    for (c = 1; c <= nc; c++) {
        printf "  %-12s %s\n", LABEL[c], WHAT[c]
        line = sprintf("  %-12s = %s%s", "", MET[c], (DIV[c] != "" ? " / " DIV[c] : ""))
        if (length(line) > 100) line = sprintf("  %-12s = %s\n  %-12s   / %s", "", MET[c], "", DIV[c])
        print line
    }
}

# TOP[c], BOT[c]: the label in two lines, split at the blank that makes the
# longer part shortest ("ld sect/req" -> "ld" over "sect/req"); a label of
# one word goes to the bottom line
function split_label(l, c,    i, best, a, b, m) {
    TOP[c] = ""; BOT[c] = l; best = length(l)
    for (i = 1; i <= length(l); i++) {
        if (substr(l, i, 1) != " ") continue
        a = substr(l, 1, i - 1); b = substr(l, i + 1)
        m = length(a) > length(b) ? length(a) : length(b)
        if (m < best) { best = m; TOP[c] = a; BOT[c] = b }
    }
}
