#!/bin/sh
# tests/tools/width.sh - everything a lab prints without a GPU fits in 100 columns,
# the width a projector with a large font shows whole: -h, --list and
# --explain of every lab built here (at the default block and at every block
# -b allows), lab01's default run, --exercises, --trace and --explain at the
# longest -n they take. Then tools/chart's runs-side-by-side chart (lab06
# built with DLCM=ca and DLCM=cg) on two fixture CSVs. No GPU needed; a GPU
# lab not built here is skipped. POSIX sh.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

# ---- lab01 (gcc alone) --------------------------------------------------------
if [ -x ./lab01 ]; then
    expect_width "lab01 fits 100 columns" ./lab01 -r 5
    expect_width "lab01 --exercises fits" ./lab01 --exercises -r 3
    for m in --trace --explain; do
        for n in 17 20 33 64; do
            expect_width "lab01 $m -n $n fits" ./lab01 $m -n $n
        done
    done
    for f in -h --list; do expect_width "lab01 $f fits" ./lab01 $f; done
else
    skip "lab01 width" "./lab01 not built"
fi

# ---- the GPU labs: what runs on the CPU -------------------------------------------
for l in lab02 lab03 lab04 lab05 lab05-finish lab06; do
    if [ ! -x "./$l" ]; then skip "$l width" "./$l not built (no nvcc?)"; continue; fi
    for f in -h --list --explain; do expect_width "$l $f fits" ./$l $f; done
    if [ "$l" = lab06 ]; then
        for b in 32x1 1x32 16x16 32x8 32x32 1024x1 1x1024; do
            expect_width "lab06 --explain -b $b fits" ./lab06 --explain -b $b
        done
        expect_width "lab06 --explain -n 33x17 -b 32x8 fits" ./lab06 --explain -n 33x17 -b 32x8
    else
        for b in 32 64 128 256 1024; do
            expect_width "$l --explain -b $b fits" ./$l --explain -b $b
        done
    fi
done

# ---- tools/chart: lab06's DLCM=ca and DLCM=cg runs in one chart -----------------
FX=tests/fixtures/h100
if [ ! -f "$FX/lab06-cg-solutions.csv" ]; then # a students' copy holds no solutions runs
    skip "chart: two runs side by side" "no $FX/lab06-cg-solutions.csv here (a students' copy)"
    exit 0
fi
run sh tools/chart -d 2026-01-01 -n "DLCM=ca against DLCM=cg" "$FX/lab06-solutions.csv" "$FX/lab06-cg-solutions.csv"
groups=$(grep -c 'font-family="DejaVu Sans Mono' "$OUTF")
bars=$(grep -c '<rect x="[0-9.]*" y="[0-9]*" width="[0-9.]*" height="15"' "$OUTF")
rows=$(awk 'END { print NR - 1 }' "$FX/lab06-cg-solutions.csv")
if [ "$STATUS" -eq 0 ] && [ "$groups" -eq "$rows" ] && [ "$bars" -eq $((2 * rows)) ] &&
    grep -q '>default build: n = 3000x5000, copy ceiling' "$OUTF" && grep -q '>dlcm=cg: n = 3000x5000' "$OUTF" &&
    grep -q '</svg>' "$OUTF"; then
    ok "chart: two runs side by side, a group per kernel ($rows), two bars each"
else
    notok "chart: two runs side by side" "exit $STATUS, $groups groups, $bars bars for $rows kernels: $(head -c 300 "$ERRF")"
fi
# a kernel only one run has gets a note, not a bar
W=$TMPD/chartw
mkdir -p "$W"
grep -v ',transposeSmemRect,' "$FX/lab06-cg-solutions.csv" >"$W/cg-less.csv"
run sh tools/chart -d 2026-01-01 "$FX/lab06-solutions.csv" "$W/cg-less.csv"
if [ "$STATUS" -eq 0 ] && [ "$(grep -c '(not in this run)' "$OUTF")" -eq 1 ]; then ok "chart: a kernel missing from one run is marked"
else notok "chart: a kernel missing from one run" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
run sh tools/chart -t lines "$FX/lab06-solutions.csv" "$FX/lab06-cg-solutions.csv"
if [ "$STATUS" -eq 1 ] && grep -q '^chart: -t lines draws one file' "$ERRF"; then ok "chart: -t lines refuses several files"
else notok "chart: -t lines with several files" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
