#!/bin/sh
# tests/gpu_lab06.sh - lab06 (transpose) on a GPU: odd and rectangular shapes,
# every block shape the command line accepts, exact (bitwise) checks of every
# kernel, and bad input. Run from anywhere; needs ./lab06 (make lab06).
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

L=./lab06
if [ ! -x "$L" ]; then
    notok "lab06 built" "./lab06 is missing: run make lab06"
    exit 1
fi
ROWS=$($L --list | wc -l | tr -d ' ')

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

# odd and rectangular shapes, default block
for s in 1x1 1x1000 1000x1 33x17 17x33 2049x2047 8192x4096; do
    expect_csv_pass "lab06 -n $s" "$ROWS" $L -n $s --csv -r 2
done
# --nx/--ny and a square given as one number
expect_csv_pass "lab06 --nx 100 --ny 3" "$ROWS" $L --nx 100 --ny 3 --csv -r 2
expect_csv_pass "lab06 -n 129" "$ROWS" $L -n 129 --csv -r 2

# every block shape the parser accepts (W, H powers of two, 32 <= W*H <= 1024),
# on a small odd matrix and on one larger than every block in both directions
for w in 1 2 4 8 16 32 64 128 256 512 1024; do
    for h in 1 2 4 8 16 32 64 128 256 512 1024; do
        t=$((w * h))
        [ $t -lt 32 ] || [ $t -gt 1024 ] && continue
        expect_csv_pass "lab06 -n 33x17 -b ${w}x$h" "$ROWS" $L -n 33x17 -b ${w}x$h --csv -r 2
        expect_csv_pass "lab06 -n 2049x1031 -b ${w}x$h" "$ROWS" $L -n 2049x1031 -b ${w}x$h --csv -r 2
    done
done

# the table: a verdict line and the banner's build note
run $L -n 300x200 -r 2
if [ "$STATUS" -eq 0 ]; then ok "lab06 table exits 0"; else notok "lab06 table exits 0" "exit $STATUS"; fi
expect_grep "lab06 table says PASS" '^lab06: PASS' "$OUTF"
expect_grep "lab06 banner names the loads" '^build +loads: ' "$OUTF"
# JSON carries the same rows
run $L -n 300x200 -r 2 --json
if [ "$STATUS" -eq 0 ] && grep -q '"status": "PASS"' "$OUTF"; then ok "lab06 --json"
else notok "lab06 --json" "exit $STATUS"; fi
