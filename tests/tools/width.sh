#!/bin/sh
# tests/tools/width.sh - everything a lab prints without a GPU fits in 100 columns,
# the width a projector with a large font shows whole: -h, --list and
# --explain of every lab built here (at the default block and at every block
# -b allows), lab01's default run, --exercises, --trace and --explain at the
# longest -n they take; bad input in every lab (one line, exit 2, at most
# 100 columns, the longest values and names included). Then tools/chart's
# runs-side-by-side chart (lab06 built with DLCM=ca and DLCM=cg) on two
# fixture CSVs. No GPU needed; a GPU lab not built here is skipped. POSIX sh.
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
for l in $(lab_list device gpu); do
    if [ ! -x "./$l" ]; then skip "$l width" "./$l not built (no nvcc?)"; continue; fi
    for f in -h --list --capabilities --dry-run; do expect_width "$l $f fits" ./$l $f; done
    offers ./$l explain || continue
    expect_width "$l --explain fits" ./$l --explain
    if ./$l -h | grep -q '^usage: [^ ]* \[-n NXxNY'; then
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

# ---- bad input: one line on stderr, exit 2, at most 100 columns -----------------
# Each lab refuses these before it looks for a device (so they need no GPU),
# and says in one line what was wrong and what it takes; a value or a name
# too long for the line is quoted short. LONG is longer than any line allows.
LONG=reduceNeighboredLessAndLessAndLessAndLessAndLessAndLessAndLessAndLessAndLessAndLessAndLessAndLess
NUM=1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111
# bad_input NAME CMD...: expect_usage, then check_width on its one line
bad_input() {
    bad_name=$1; shift
    bad_said=$(expect_usage "$bad_name" "$@")
    case $bad_said in
        ok*) check_width "$bad_name: one line, exit 2, within 100 columns" "$ERRF" ;;
        *) echo "$bad_said" ;;
    esac
}
# every lab's options (lab01 and lab05-finish: the longest lab names)
BAD_ALL="-n|-n 0|-n x|-n 4G|-n $NUM|-n 1,2|-n 1${NUM}x1|-k nosuch|-k $LONG|-k a,,$LONG|-r 0|-r $NUM
--seed x|--seed -1|--seed $NUM|--type x|--type $LONG|--values x|--values $LONG|--values uniform
--finish|--finish x|--finish $LONG|--csv --json|--check --json|--check --explain|--check -n 1,,2
--check -n 1,$NUM|--check --type int,x|--check --seed 1,x|--check --finish host,x|--bogus|--$LONG
$LONG|$NUM|--exercises --type x"
# the reduction labs' blocks
BAD_LENGTH="-b 7|-b 48|-b 2048|-b $NUM|-b 32,64|--check -b 32,48|--check -b 32,,64|--check -b 32,$NUM"
# lab06 and lab05's matrix mode
BAD_MATRIX="-n 10x|-n 5x|-n x5|-n 0x5|-n 100000x100000|-n ${NUM}x1|--nx 0|--ny $NUM|--nx 5x|-b 7
-b 16x128|-b 3x32|-b ${NUM}x1|-b 32x8,16x16|--check -n 5x5,6x6 --nx 5|--check -n 5x5,,6x6|-k nosuch
-k $LONG|--type float|--finish host"
old_ifs=$IFS
set -f
for l in $(lab_list); do
    if [ ! -x "./$l" ]; then skip "$l bad input" "./$l not built"; continue; fi
    # the cases each lab takes, from what it offers (--capabilities) and its
    # shape and blocks (-h); lab06's own kernels' limits by name
    ./$l -h >"$TMPD/h"
    if grep -q '^usage: [^ ]* \[-n NXxNY' "$TMPD/h"; then
        cases="$BAD_MATRIX|-n 1,2|-r 0|--seed x|--csv --json|--bogus|--$LONG|$LONG|--explain -n 0"
    elif ! grep -q '^  -b ' "$TMPD/h"; then
        cases="$BAD_ALL|-b 32"
        offers ./$l trace && cases="$cases|--trace -n 65|--trace --type float"
        offers ./$l explain && cases="$cases|--explain -n 100000"
    else
        cases="$BAD_ALL|$BAD_LENGTH|--dry-run -b 7"
    fi
    offers ./$l latency && cases="$cases|--latency --check|--latency --csv --json"
    offers ./$l sweep && cases="$cases|--sweep -n 5|--sweep -n 1023|--sweep --check"
    offers ./$l matrix && cases="$cases|-n 5x5 --sweep|-n 5x5 -k $LONG|-n 5x5 -b 7|-n 5x5 --type x
-n 5x5 --finish x|-n ${NUM}x5|-n 5x5,6x6|-n 4x4 --exercises --type float"
    [ $l = lab06 ] && cases="$cases|-n 16x70000 -b 32x1|-n 16x16777216 -k transposeSmemPad
-n 127x16777216 -b 32x1 -k transposeUnroll4Row+ldcg"
    offers ./$l explain || cases="$cases|--explain"
    offers ./$l exercises || cases="$cases|--exercises"
    IFS='|
'
    for c in $cases; do
        IFS=$old_ifs
        # shellcheck disable=SC2086
        bad_input "$l $(echo "$c" | cut -c1-40)" ./$l $c
    done
    IFS=$old_ifs
done
set +f

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

# make profile's table and legend (tools/profile.awk) on a recorded lab02 set
# of nine columns: every line fits, the labels over two lines
run awk -f tools/profile.awk tests/fixtures/profile/lab02.set tests/fixtures/profile/lab02-all.csv
wide=$(awk 'length > 100' "$OUTF" | head -n 1)
if [ "$STATUS" -eq 0 ] && [ -z "$wide" ] && grep -q '^reduceNeighboredLess  ' "$OUTF"; then
    ok "make profile's table of nine columns fits 100 columns"
else
    notok "make profile's table fits" "exit $STATUS: ${wide:-no row}"
fi
