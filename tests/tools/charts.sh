#!/bin/sh
# tests/tools/charts.sh - the kept charts are generated and current (POSIX sh,
# no GPU needed; tests/run runs it).
# - Every SVG of docs/results/<gpu>/ is what tools/chart draws from the CSV
#   files it records (its <desc>), and those files have not changed since:
#   sh tools/charts.sh --check (make charts redraws them). Held on a scratch
#   copy too: a changed CSV, a chart edited by hand and one with no record
#   each fail it.
# - A chart that a chapter shows (a link to results/<gpu>/NAME.svg) lacks no
#   kernel of that chapter's tables for the same lab: the rows of its pasted
#   `$ ./LAB ...` blocks (for lab05, a matrix chart against the -n NXxNY
#   blocks, the others against the rest) that are kernels of the lab (its
#   --list --csv). A kernel that the kept runs predate, until make snapshots
#   runs the set again on the GPU, is listed in tests/tools/charts.stale
#   (CHART KERNEL per line): a skip line names it, and a listed kernel the
#   chart has fails, so that the list keeps only what is missing.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

run sh tools/charts.sh --check
n=$(ls docs/results/*/*.svg 2>/dev/null | wc -l | tr -d ' ')
if [ "$STATUS" -eq 0 ]; then ok "every kept chart is drawn by tools/chart from its data, and current ($n charts)"
else
    while IFS= read -r l; do notok "chart ${l%%: *}" "${l#*: }"; done <"$OUTF"
fi

# the check fails where it should: a scratch copy of a chart and its data
S=$TMPD/charts/x
mkdir -p "$S"
cp docs/results/nvidia-h100-80gb-hbm3/lab02.csv docs/results/nvidia-h100-80gb-hbm3/lab02.svg "$S/"
expect_status 0 "tools/charts.sh --check: a copy is current" sh tools/charts.sh --check "$S"
sed '2s/,PASS$/,PASS /' docs/results/nvidia-h100-80gb-hbm3/lab02.csv >"$S/lab02.csv"
expect_status 1 "tools/charts.sh --check: a changed CSV fails" sh tools/charts.sh --check "$S"
expect_grep "tools/charts.sh --check: says the chart is older than its data" "older than its data: lab02.csv changed" "$OUTF"
expect_status 0 "tools/charts.sh redraws it" sh tools/charts.sh "$S"
expect_status 0 "tools/charts.sh --check: current again" sh tools/charts.sh --check "$S"
sed 's/ GB\/s (/ GB\/s  (/' "$S/lab02.svg" >"$S/e" && mv "$S/e" "$S/lab02.svg"
expect_status 1 "tools/charts.sh --check: a chart edited by hand fails" sh tools/charts.sh --check "$S"
expect_grep "tools/charts.sh --check: says so" "not what tools/chart draws from its data" "$OUTF"
grep -v '^data ' "$S/lab02.svg" >"$S/e" && mv "$S/e" "$S/lab02.svg"
expect_status 1 "tools/charts.sh --check: a chart with no record fails" sh tools/charts.sh --check "$S"

# each chart a chapter shows against that chapter's tables
STALE=tests/tools/charts.stale
: >"$TMPD/missing"
grep -o '](results/[a-z0-9-]*/lab[0-9][0-9][-a-z0-9]*\.svg)' docs/*.md /dev/null | sed 's/](results\//\t/; s/)$//' |
    sort -u >"$TMPD/shown"
while IFS='	' read -r page chart; do
    page=${page%:}
    svg=docs/results/$chart
    name=$(basename "$chart" .svg)
    lab=$(echo "$name" | sed 's/^\(lab[0-9][0-9]\).*/\1/')
    if [ ! -f "$svg" ]; then notok "$page shows $chart" "no such chart"; continue; fi
    if [ ! -x "./$lab" ]; then skip "$page: $chart against its tables" "./$lab not built"; continue; fi
    case $name in *matrix*) mode=matrix ;; *) mode=length ;; esac
    # the lab's kernels in this mode (lab06's one mode is a matrix's)
    if [ $mode = matrix ] && [ "$lab" != lab06 ]; then "./$lab" -n 1x1 --list --csv; else "./$lab" --list --csv; fi 2>/dev/null |
        awk -F, '$2 == "kernel" { print $1 }' >"$TMPD/kernels"
    # the rows of the chapter's tables of this lab and mode
    awk -v lab="$lab" -v mode="$mode" -v fixed="$([ "$lab" = lab06 ] && echo 1)" '
        NR == FNR { k[$1] = 1; next }
        /^```/ { inb = !inb; take = 0; next }
        inb && /^\$ / {
            take = ($2 == "./" lab)
            m = ($0 ~ / -n [0-9]+[xX][0-9]+/) ? "matrix" : "length"
            if (!fixed && m != mode) take = 0
            next
        }
        inb && take && ($1 in k) && !seen[$1]++ { print $1 }' "$TMPD/kernels" "$page" >"$TMPD/table"
    # the chart's kernels: those of the CSVs it was drawn from
    sed -n 's/^data \([^ ]*\) .*/\1/p' "$svg" | while read -r f; do
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kernel") c = i; next } { print $c }' \
            "$(dirname "$svg")/$f"
    done | sort -u >"$TMPD/drawn"
    nt=$(wc -l <"$TMPD/table" | tr -d ' ')
    miss=
    while read -r k; do
        grep -qxF -- "$k" "$TMPD/drawn" && continue
        if awk -v c="$chart" -v k="$k" '$1 == c && $2 == k { f = 1 } END { exit !f }' "$STALE" 2>/dev/null; then
            echo "$chart $k" >>"$TMPD/missing"
            skip "$page: $chart lacks $k" "the kept runs predate it ($STALE): make snapshots on the GPU"
        else miss="$miss $k"; fi
    done <"$TMPD/table"
    if [ "$nt" -eq 0 ]; then notok "$page: $chart against its tables" "no table of ./$lab ($mode) in $page"
    elif [ -z "$miss" ]; then ok "$page: $chart has every kernel of the chapter's $lab tables ($nt)"
    else notok "$page: $chart lacks kernels of the chapter's tables" "${miss# }: make snapshots runs the set again"; fi
done <"$TMPD/shown"
# every line of the stale list is a kernel still missing
if [ -f "$STALE" ]; then
    grep -v '^#' "$STALE" | awk 'NF >= 2 { print $1, $2 }' | while read -r c k; do
        grep -qxF "$c $k" "$TMPD/missing" ||
            notok "$STALE: $c $k" "the chart has it now, or no chapter shows it: drop the line"
    done
fi
