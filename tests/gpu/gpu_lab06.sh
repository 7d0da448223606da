#!/bin/sh
# tests/gpu/gpu_lab06.sh - lab06 (transpose) on a GPU: odd and rectangular shapes,
# every block shape the command line accepts, exact (bitwise) checks of every
# kernel (--check runs), and bad input. Run from anywhere; needs ./lab06 (make lab06).
# The exercises: tests/gpu/gpu_lab06_exercises.sh, a suite of its own that
# tests/run runs beside this one (each lab06 run starts CUDA, and one suite is
# one process after another).
# gpu-memory: 512 MiB (tests/run: 8192x4096 in and out, and compute-sanitizer's own)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

lab_suite lab06 # LAB, KERNELS: the kernels in lab06's table
L=$LAB
ROWS=$(echo $KERNELS | wc -w)

# the command line alone (no GPU needed for these)
expect_status 0 "lab06 -h" $L -h
expect_status 0 "lab06 --list" $L --list
expect_status 0 "lab06 --explain" $L --explain
expect_status 0 "lab06 --explain -n 33x17 -b 32x8" $L --explain -n 33x17 -b 32x8
expect_usage "lab06 -n 0x5" $L -n 0x5
expect_usage "lab06 -n 12x" $L -n 12x
expect_usage "lab06 -n x12" $L -n x12
expect_usage "lab06 -n 65536x65536 (over 2^31 elements)" $L -n 65536x65536
expect_usage "lab06 -b 16x128" $L -b 16x128
expect_usage "lab06 -b 3x32" $L -b 3x32
expect_usage "lab06 -b 4x4" $L -b 4x4
expect_usage "lab06 -b 32" $L -b 32
expect_usage "lab06 -k nosuch" $L -k nosuch
expect_usage "lab06 -n 16x70000 -b 32x1 (grid.y over 65535)" $L -n 16x70000 -b 32x1
expect_usage "lab06 -n 1x2000000 (grid.y over 65535)" $L -n 1x2000000
expect_usage "lab06 -n 1x1,2x2 without --check" $L -n 1x1,2x2
expect_usage "lab06 --check -n 33x17,1x2000000 (grid.y over 65535)" $L --check -n 33x17,1x2000000
expect_usage "lab06 --check --type float" $L --check --type float

# odd and rectangular shapes, default block; sides that are multiples of 4 but
# not of the tile (transposeSmemFloat4's float4 path, partial tiles both ways)
check_cross "lab06" "$KERNELS" $L --check -n 1x1,1x1000,1000x1,33x17,17x33,2049x2047,8192x4096,4x4,68x132,1028x36
# --nx/--ny and a square given as one number
expect_csv_pass "lab06 --nx 100 --ny 3" "$ROWS" $L --nx 100 --ny 3 --csv -r 2
expect_csv_pass "lab06 -n 129" "$ROWS" $L -n 129 --csv -r 2

# every block shape the parser accepts (W, H powers of two, 32 <= W*H <= 1024),
# on a small odd matrix and on one larger than every block in both directions
shapes=
for w in 1 2 4 8 16 32 64 128 256 512 1024; do
    for h in 1 2 4 8 16 32 64 128 256 512 1024; do
        t=$((w * h))
        [ $t -lt 32 ] || [ $t -gt 1024 ] && continue
        shapes="$shapes ${w}x$h"
    done
done
check_cross "lab06" "$KERNELS" $L --check -n 33x17,2049x1031 -b "$(commas "$shapes")"

# the table: a verdict line and the banner's build note
run $L -n 300x200 -r 2
if [ "$STATUS" -eq 0 ]; then ok "lab06 table exits 0"; else notok "lab06 table exits 0" "exit $STATUS"; fi
expect_grep "lab06 table says PASS" '^lab06: PASS' "$OUTF"
expect_grep "lab06 banner names the loads" '^build +loads: ' "$OUTF"
check_width "lab06 table fits 100 columns" "$OUTF"
if tail -n 1 "$OUTF" | grep -Eq '^exercises: [0-3] of 3 done.* \(lab06_transpose/exercises.cuh; run ./lab06 --exercises\)$'
then ok "lab06 table ends with the exercises line"
else notok "lab06 table ends with the exercises line" "last line: $(tail -n 1 "$OUTF")"; fi
# as shipped (the exercises: gpu_lab06_exercises.sh), the closing line counts 1 todo and 2 failing
if ! built_with_solutions $L && ! edited_exercise_file lab06_transpose/exercises.cuh >/dev/null; then
    if tail -n 1 "$OUTF" |
        grep -q '^exercises: 0 of 3 done, 1 todo, 2 failing (lab06_transpose/exercises.cuh; run ./lab06 --exercises)$'
    then ok "lab06 plain run as shipped: exit 0, exercises: 0 of 3 done, 1 todo, 2 failing"
    else notok "lab06 plain run as shipped" "last line: $(tail -n 1 "$OUTF")"; fi
fi
# JSON carries the same rows
run $L -n 300x200 -r 2 --json
if [ "$STATUS" -eq 0 ] && grep -q '"status": "PASS"' "$OUTF"; then ok "lab06 --json"
else notok "lab06 --json" "exit $STATUS"; fi
