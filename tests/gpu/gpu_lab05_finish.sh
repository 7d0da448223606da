# tests/gpu/gpu_lab05_finish.sh - lab05-finish (four finishes of a one-pass
# reduction, against CUB) on a GPU. POSIX sh, run from the repository root
# after `make lab05-finish`; tests/run calls it where a device exists.
#
# The checks every reduction lab gets (tests/lib.sh reduction_lab_checks:
# every block 32..1024 at n = 1, 3, 4, 5, 1000003, around one full grid of
# tiles at 2^20, and at 2^24, in one --check run; one kernel alone, bad
# input, --list, -h, --json, exit 3 without a device), then: --explain; the
# notes under the table and the summary as the last line.
# gpu-memory: 128 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

lab_suite lab05-finish # LAB, KERNELS
ROWS=5

reduction_lab_checks lab05-finish $ROWS "$KERNELS" "1 3 4 5 1000003 1048575 1048576 1048579 16777216"

expect_usage "lab05-finish --sweep (lab05's flag, not this one's)" $LAB --sweep
expect_status 0 "lab05-finish --list" $LAB --list
join_wrapped "$OUTF"
if [ "$(wc -l <"$OUTF")" -eq $ROWS ]; then ok "lab05-finish --list has $ROWS lines"
else notok "lab05-finish --list has $ROWS lines" "$(wc -l <"$OUTF") lines"; fi
expect_status 0 "lab05-finish --explain" $LAB --explain
expect_grep "lab05-finish --explain walks through the flag finish" "^  modernFlagAtomic " "$OUTF"

# the table: one PASS per kernel, the notes, and the summary as the last line
cp "$TMPD/lab05-finish.table" "$OUTF" # reduction_lab_checks' default table
if [ "$(grep -c ' PASS$' "$OUTF")" -eq $ROWS ]; then ok "lab05-finish table: $ROWS PASS rows"
else notok "lab05-finish table" "exit $STATUS: $(tail -n 5 "$OUTF")"; fi
expect_grep "lab05-finish notes compare with CUB" '^  modernFlagAtomic +[0-9.]+ ms, [+-][0-9.]+ ms over the floor, [0-9.]+x cub::DeviceReduce::Sum$' "$OUTF"
if tail -n 1 "$OUTF" | grep -q "^lab05-finish: PASS - $ROWS of $ROWS kernels verified"; then ok "lab05-finish table ends with the summary line"
else notok "lab05-finish table ends with the summary line" "last line: $(tail -n 1 "$OUTF")"; fi
