#!/bin/sh
# tests/tools/layers.sh [DIR] - common/ as layers, checked (POSIX sh, no build
# and no GPU needed). LAYERS below lists every file of common/, bottom layer
# first; a file may include only files of its own layer or below. Fails when:
#   - a file of common/ is in no layer, or a layer names a file that is gone;
#   - a file includes one of a layer above it, or includes workbook.h (the
#     labs' one header: nothing in common/ includes it);
#   - a function is declared in a header of another layer than the file
#     that defines it;
#   - a file calls a function defined a layer above it, or two files call
#     each other (tests/tools/callgraph.sh: a circle);
#   - a file of common/ is over 600 lines;
#   - docs/maintainers.md does not state the hops as tests/tools/hops.sh
#     counts them (the callbacks, the call sites through a pointer).
# DIR is the tree to check (default: this one; the failure trials run it on
# a scratch copy). docs/maintainers.md says what each layer holds.
. tests/lib.sh
here=$(pwd)
dir=${1:-.}

# layer  files (a .c or .cu file sits in the layer of the header it implements)
cat >"$TMPD/layers" <<'EOF'
1  base.h base.c
2  text.h text.c
3  types.def types.h types.c
4  numbers.h numbers.c
5  todo.h lab.h lab.c
6  args.h args.c usage.h usage.c
7  report.h report.c table.c report_data.c csv_columns.h
8  check.h check.c
9  device.h cpu_device.c gpu.h gpu.cu no_device.h policy.h
10 program.h main.c trace.h
11 reduce.h reduce.cu reduce_pass.h reduce_pass.cu
12 kernels/warp.cuh kernels/block.cuh kernels/reduce_neighbored.cuh kernels/reduce_interleaved.cuh kernels/explain_tree.cuh
13 workbook.h
EOF
awk '{ for (i = 2; i <= NF; i++) print $i, $1 }' "$TMPD/layers" | sort >"$TMPD/layer_of"
layer_of() { awk -v f="$1" '$1 == f { print $2 }' "$TMPD/layer_of"; }

(cd "$dir/common" && find . -type f | sed 's|^\./||' | sort) >"$TMPD/files"
bad=0
missing=$(awk 'NR == FNR { in_layers[$1] = 1; next } !($1 in in_layers)' "$TMPD/layer_of" "$TMPD/files")
gone=$(awk 'NR == FNR { here[$1] = 1; next } !($1 in here) { print $1 }' "$TMPD/files" "$TMPD/layer_of")
if [ -n "$missing$gone" ]; then
    notok "layers: every file of common/ in one layer" \
        "$(echo "$missing" | sed '/^$/d; s/$/ is in no layer/' | tr '\n' ';')$(echo "$gone" | sed '/^$/d; s/$/ is gone/' | tr '\n' ';') (LAYERS in tests/tools/layers.sh)"
else
    ok "layers: every file of common/ in one layer"
fi

# includes: "F X" for each #include "X" of F, X as the compiler finds it
# (beside F first, then common/)
while read -r f; do
    sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$dir/common/$f" | while read -r x; do
        d=$(dirname "$f")
        if [ "$d" != . ] && [ -f "$dir/common/$d/$x" ]; then echo "$f $d/$x"; else echo "$f $x"; fi
    done
done <"$TMPD/files" >"$TMPD/includes"
ups=$(awk 'NR == FNR { L[$1] = $2; next }
    $2 == "workbook.h" { print $1 " includes workbook.h, the labs'"'"' header"; next }
    !($2 in L) { print $1 " includes " $2 ", which is in no layer"; next }
    ($1 in L) && L[$2] + 0 > L[$1] + 0 { print $1 " (layer " L[$1] ") includes " $2 ", a layer above it (" L[$2] ")" }' \
    "$TMPD/layer_of" "$TMPD/includes")
if [ -n "$ups" ]; then notok "layers: each file includes its own layer or below" "$(echo "$ups" | tr '\n' ';')"
else ok "layers: each file includes its own layer or below ($(wc -l <"$TMPD/includes" | tr -d ' ') includes)"; fi

# calls: tests/tools/callgraph.sh's file-to-file edges
sh "$here/tests/tools/callgraph.sh" "$dir" >"$TMPD/calls" 2>"$TMPD/calls.err"
if [ -s "$TMPD/calls.err" ] || [ ! -s "$TMPD/calls" ]; then
    notok "layers: the call graph" "callgraph.sh found no calls: $(head -c 200 "$TMPD/calls.err")"
else
    circles=$(awk '{ e[$1 " " $3] = 1 } END { for (k in e) { split(k, p, " "); if ((p[2] " " p[1]) in e && p[1] < p[2]) print p[1] " and " p[2] " call each other" } }' "$TMPD/calls")
    calls_up=$(awk 'NR == FNR { L["common/" $1] = $2; next }
        L[$3] + 0 > L[$1] + 0 { f = $0; sub(/^[^(]*/, "", f); print $1 " (layer " L[$1] ") calls " $3 " (layer " L[$3] "): " f }' "$TMPD/layer_of" "$TMPD/calls")
    if [ -n "$circles$calls_up" ]; then notok "layers: calls go down, no circle" "$(printf '%s\n%s' "$circles" "$calls_up" | sed '/^$/d' | tr '\n' ';')"
    else ok "layers: calls go down, no circle ($(wc -l <"$TMPD/calls" | tr -d ' ') file-to-file edges)"; fi
fi

# declared where defined: each wb_ function that a .c or .cu file defines is
# declared (a line at column 0 naming it) only in headers of that file's layer
for f in "$dir"/common/*.c "$dir"/common/*.cu; do
    grep -oE '^[a-z][^;]*\bwb_[a-z0-9_]+\(' "$f" | grep -oE 'wb_[a-z0-9_]+\($' | tr -d '(' | sed "s|^|${f##*/} |"
done | sort -u >"$TMPD/defs"
misplaced=$(while read -r f fn; do
    for h in $(cd "$dir/common" && grep -lE "^[a-z][^(]*[ *]$fn\(" *.h kernels/*.cuh 2>/dev/null); do
        echo "$f $fn $h"
    done
done <"$TMPD/defs" | awk 'NR == FNR { L[$1] = $2; next } L[$1] != L[$3] { print $2 " is defined in " $1 " (layer " L[$1] ") but declared in " $3 " (layer " L[$3] ")" }' "$TMPD/layer_of" -)
if [ -n "$misplaced" ]; then notok "layers: declared in the layer that defines it" "$(echo "$misplaced" | tr '\n' ';')"
else ok "layers: declared in the layer that defines it ($(wc -l <"$TMPD/defs" | tr -d ' ') functions)"; fi

long=$(cd "$dir/common" && while read -r f; do wc -l <"$f" | awk -v f="$f" '$1 > 600 { print f " has " $1 " lines" }'; done <"$TMPD/files")
if [ -n "$long" ]; then notok "layers: no file of common/ over 600 lines" "$(echo "$long" | tr '\n' ';')"
else ok "layers: no file of common/ over 600 lines"; fi

# hops: the callbacks and the call sites through a pointer, as
# docs/maintainers.md states them (each line of tests/tools/hops.sh there)
sh "$here/tests/tools/hops.sh" "$dir" >"$TMPD/hops"
stale=$(while read -r line; do grep -qxF "$line" "$here/docs/maintainers.md" || echo "$line"; done <"$TMPD/hops")
if [ -n "$stale" ]; then notok "layers: the hops as docs/maintainers.md states them" \
    "not in docs/maintainers.md: $(echo "$stale" | tr '\n' ';') (sh tests/tools/hops.sh)"
else ok "layers: the hops as docs/maintainers.md states them ($(cut -d: -f1 "$TMPD/hops" | tr '\n' ';'))"; fi
