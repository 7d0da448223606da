#!/bin/sh
# tests/gpu/gpu_lab06_exercises.sh - lab06's exercises (lab06_transpose/exercises.cuh)
# on a GPU, a suite of its own beside gpu_lab06.sh (the shipped kernels). As
# shipped, the write-it row is todo and the two fix-it rows FAIL at the
# exercise shape (3000x5000) on every run, each right under its reference row
# (under compute-sanitizer: gpu_lab06_sanitize.sh); the solutions
# (build/solutions/lab06) pass at odd, rectangular and square shapes beside
# every kind of block (their speed: tests/gpu/gpu_speed.sh). A kernel right on
# its first launch only (built here from a file in $TMPD) FAILs: the output
# after the timed repetitions is checked too. Run from anywhere; needs ./lab06.
# gpu-memory: 512 MiB (tests/run: 8192x4096 in and out)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

lab_suite lab06 # LAB, KERNELS: the kernels in lab06's table
L=$LAB
# the exercises (--list), and -k that runs them alone
EX_WRITE=$(list_names $L write)
EX_FIX=$(list_names $L fix)
EX_ONLY="-k $(commas "$EX_WRITE $EX_FIX")"

# ---- the exercises ------------------------------------------------------------
EX=lab06_transpose/exercises.cuh
expect_status 0 "lab06 --list with the exercises" $L --list
expect_grep "lab06 --list names the exercise file" '^exercises in lab06_transpose/exercises.cuh ' "$OUTF"
for x in $EX_WRITE $EX_FIX; do
    expect_grep "lab06 --list names $x" "^$x " "$OUTF"
done
expect_usage "lab06 -k transposeSmemRect -n 16x2000000 (its own block: grid.y over 65535)" \
    $L -k transposeSmemRect -n 16x2000000

# csv_exercise_order FILE: each exercise row right under its reference row
# (the last kernel row above it is the one it names in `against`); prints why not
csv_exercise_order() {
    awk -F, 'NR == 1 { next }
        $23 == "kernel" { last = $3; next }
        $24 != last { print $3 " (against " $24 ") sits under " last; exit }' "$1"
}

# as shipped, the solutions, and the speed of transposeSmem32x8 (tests/lib.sh).
# The exercise kernels keep their own blocks, so -b changes only the
# reference rows; every shipped kernel at every block is checked above.
exercise_checks lab06 \
    "-n 1x1,1x7,7x1,33x65,2000x3000,3000x2000,1024x1024 -b 16x16,32x8,8x32,32x32,1024x1,1x1024 $EX_ONLY|-b 32x8|-n 5000x3000 $EX_ONLY|-n 8192x4096|--seed 7 -n 129x129"

# as shipped, in detail: the rows' order and kinds, the fix-its FAIL at the
# exercise shape on every run (not by chance: Rect drops whole tiles, NoSync
# reads rows of the tile that no thread has loaded yet), the plain run's line
if built_with_solutions $L; then
    skip "lab06 exercises as shipped, in detail" "$L was built with SOLUTIONS=1"
elif why=$(edited_exercise_file "$EX"); then
    skip "lab06 exercises as shipped, in detail" "$why"
else
    run $L --exercises --csv -r 1
    order=$(csv_exercise_order "$OUTF")
    if [ -z "$order" ]; then ok "lab06 --exercises: each exercise right under its reference row"
    else notok "lab06 --exercises: each exercise right under its reference row" "$order"; fi
    check=$(awk -F, 'NR == 1 { next }
        $23 == "kernel" { if ($NF != "PASS") msg = msg " " $3 " says " $NF; next }
        { ex++; if ($5 != 3000 || $6 != 5000) msg = msg " " $3 " ran at " $5 "x" $6 }
        $3 == "transposeSmem32x8" && ($23 != "write" || $24 != "transposeSmemPad" || $NF != "todo" || $10 != 0 || $11 != "" || $8 != "32x8" || $7 != "94x157") {
            msg = msg " transposeSmem32x8: " $23 "," $24 ",block " $8 ",reps " $10 "," $NF }
        $3 == "transposeSmemRect" && ($23 != "fix" || $24 != "transposeSmemPad" || $NF != "FAIL" || $8 != "32x16" || $7 != "94x313") {
            msg = msg " transposeSmemRect: " $23 "," $24 ",grid " $7 ",block " $8 "," $NF }
        $3 == "transposeSmemNoSync" && ($23 != "fix" || $24 != "transposeSmem" || $NF != "FAIL" || $8 != "32x16" || $7 != "47x79") {
            msg = msg " transposeSmemNoSync: " $23 "," $24 ",grid " $7 ",block " $8 "," $NF }
        END { if (ex != 3) msg = msg " " ex + 0 " exercise rows, expected 3"; print msg }' "$OUTF")
    if [ "$STATUS" -eq 1 ] && [ -z "$check" ]; then
        ok "lab06 --exercises as shipped: 32x8 todo, Rect and NoSync FAIL at 3000x5000, every kernel PASS"
    else
        notok "lab06 --exercises as shipped" "exit $STATUS;$check"
    fi
    # the fix-its FAIL on every run, not by chance: five runs in a row, other seeds
    run $L --check --exercises -k transposeSmemRect,transposeSmemNoSync --seed 1,2,3,4,5
    fails=$(awk -F, '$3 == "fix" && $11 == "FAIL" { n[$10]++ } END { for (s in n) if (n[s] == 2) f++; print f + 0 }' "$OUTF")
    if [ "$STATUS" -eq 1 ] && [ "$fails" -eq 5 ]; then ok "lab06 fix-its FAIL as shipped on 5 of 5 runs"
    else notok "lab06 fix-its FAIL as shipped on every run" "only $fails of 5 runs had both FAIL"; fi
    # both fix-its at the exercise shape and others, in one --check run (exit
    # 1: FAIL rows); each check reads its kernel's row at its shape (fix_row)
    run $L --check -k transposeSmemRect,transposeSmemNoSync -n 3000x5000,1x33,64x64,300x200,5000x3000,3000x3000
    cp "$OUTF" "$TMPD/fixits"
    # fix_row NAME KERNEL SHAPE VERDICT [CHECK]: its row says VERDICT (and its
    # check column starts with CHECK, an ERE), its role is fix (kernel for
    # the reference row), the run exited 1
    fix_row() {
        if [ "$STATUS" -eq 1 ] && awk -F, -v k="$2" -v s="$3" -v v="$4" -v c="${5:-}" '$2 == k && $4 == s && $11 == v &&
                $3 == (k ~ /^transposeSmem(Rect|NoSync)$/ ? "fix" : "kernel") && (c == "" || $12 ~ "^" c) { f = 1 }
                END { exit !f }' "$TMPD/fixits"
        then ok "$1"
        else notok "$1" "exit $STATUS; $(awk -F, -v k="$2" -v s="$3" '$2 == k && $4 == s' "$TMPD/fixits" | head -c 300)"; fi
    }
    # what the FAIL says: Rect never writes columns 3000..4999 of out (whole tiles)
    fix_row "lab06 transposeSmemRect as shipped loses whole tiles" transposeSmemRect 3000x5000 FAIL \
        '6000000 of 15000000 wrong; first at row 0 col 3000: -?nan'
    # NoSync FAILs at any shape more than 32 rows tall, one tile too
    for s in 1x33 64x64 300x200 5000x3000; do
        fix_row "lab06 transposeSmemNoSync FAILs as shipped at $s" transposeSmemNoSync $s FAIL
    done
    # Rect's bounds lose tiles on a wide rectangle too, and hide on a square
    fix_row "lab06 transposeSmemRect FAILs as shipped at 5000x3000" transposeSmemRect 5000x3000 FAIL
    fix_row "lab06 transposeSmemRect as shipped PASSes on a square (the bug hides)" transposeSmemRect 3000x3000 PASS
    fix_row "lab06 transposeSmemRect's reference PASSes on the square" transposeSmemPad 3000x3000 PASS
    # (the plain run's closing line as shipped: gpu_lab06.sh, which runs the table)
    # the fix-its under compute-sanitizer: tests/gpu/gpu_lab06_sanitize.sh
fi

# the solutions: rows under their references, each with a block and grid of its own
if [ -x build/solutions/lab06 ]; then
    run build/solutions/lab06 --exercises -n 300x200 -b 8x32 --csv -r 2
    order=$(csv_exercise_order "$OUTF")
    if [ "$STATUS" -eq 0 ] && [ -z "$order" ] &&
        awk -F, '$3 == "transposeSmem32x8" && $7 == "10x7" && $8 == "32x8" && $NF == "PASS" { a = 1 }
                 $3 == "transposeSmemRect" && $7 == "10x13" && $8 == "32x16" && $NF == "PASS" { b = 1 }
                 $3 == "transposeSmemNoSync" && $7 == "5x4" && $8 == "32x16" && $NF == "PASS" { c = 1 }
                 END { exit !(a && b && c) }' "$OUTF"; then
        ok "lab06 solutions: rows under their references, each with its own block and grid"
    else
        notok "lab06 solutions: rows, blocks and grids" "exit $STATUS; $order $(awk -F, '$23 != "kernel" { print $3, $7, $8, $NF }' "$OUTF" | tr '\n' ';')"
    fi
else
    skip "lab06 solutions: rows, blocks and grids" "build/solutions/lab06 not built"
fi

# a kernel right on its first launch only must FAIL: the output after the
# timed repetitions is compared too. make test builds build/tests/lab06-first:
# lab06.cu with tests/harness/lab06_first.cuh for its exercises, whose
# transposeSmem32x8 writes element (0, 0) on its first launch only.
F=build/tests/lab06-first
if [ ! -x "$F" ]; then
    notok "lab06 catches a kernel right on its first launch only" "$F not built (make test builds it)"
else
    run "$F" --exercises -k transposeSmem32x8 -n 300x200 -r 3
    if [ "$STATUS" -eq 1 ] &&
        grep -Eq '^  transposeSmem32x8: timed repetition differed: 1 of 60000 wrong; first at row 0 col 0: -?nan' "$OUTF"
    then ok "lab06 catches a kernel right on its first launch only (timed repetition differed)"
    else notok "lab06 catches a kernel right on its first launch only" "exit $STATUS; $(grep -E 'transposeSmem32x8' "$OUTF" | head -c 300)"; fi
fi
