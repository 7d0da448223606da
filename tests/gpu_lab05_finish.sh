# tests/gpu_lab05_finish.sh - lab05-finish (four finishes of a one-pass
# reduction, against CUB) on a GPU. POSIX sh, run from the repository root
# after `make lab05-finish`; tests/run calls it where a device exists.
#
# Exact for every finish at every block 32..1024 and n = 1, 3, 4, 5, 1000003;
# around one full grid of tiles at 2^20 and at 2^24; each kernel alone with -k;
# bad input (exit 2); --list, -h, --explain; the table ends with the summary.
. tests/lib.sh

LAB=./lab05-finish
ROWS=5
KERNELS="modernPartials reduceModern modernMemsetAtomic modernFlagAtomic cub::DeviceReduce::Sum"

if [ ! -x $LAB ]; then
    notok lab05-finish-built "$LAB is missing: run make lab05-finish"
    exit 1
fi

expect_usage "lab05-finish -b 48" $LAB -b 48
expect_usage "lab05-finish -b 2048" $LAB -b 2048
expect_usage "lab05-finish -k nope" $LAB -k nope
expect_usage "lab05-finish -n 0" $LAB -n 0
expect_usage "lab05-finish --bogus" $LAB --bogus
expect_usage "lab05-finish --sweep (lab05's flag, not this one's)" $LAB --sweep

expect_status 0 "lab05-finish --list" $LAB --list
if [ "$(wc -l <"$OUTF")" -eq $ROWS ]; then ok "lab05-finish --list has $ROWS lines"
else notok "lab05-finish --list has $ROWS lines" "$(wc -l <"$OUTF") lines"; fi
for k in $KERNELS; do
    expect_grep "lab05-finish --list names $k" "^$k " "$OUTF"
done
expect_status 0 "lab05-finish -h" $LAB -h
expect_grep "lab05-finish -h shows usage" "^usage: ./lab05-finish" "$OUTF"
expect_status 0 "lab05-finish --explain" $LAB --explain
expect_grep "lab05-finish --explain walks through the flag finish" "^  modernFlagAtomic " "$OUTF"

# exact at every block, for tiny lengths, tails of the int4 loads and an odd million
for b in 32 64 128 256 512 1024; do
    for n in 1 3 4 5 1000003; do
        expect_csv_pass "lab05-finish -b $b -n $n" $ROWS $LAB -b $b -n $n --csv -r 2
    done
done
# one full grid of tiles at 2^20 (block 512: 128 tiles), and the lengths
# just around it; a large length where the grid loops over tiles
for n in 1048575 1048576 1048579 16777216; do
    expect_csv_pass "lab05-finish -n $n" $ROWS $LAB -n $n --csv -r 2
done
for k in $KERNELS; do
    expect_csv_pass "lab05-finish -k $k alone" 1 $LAB -k "$k" -n 777777 --csv -r 2
done

# the table: one PASS per kernel, the notes, and the summary as the last line
run $LAB -r 20
if [ "$STATUS" -eq 0 ] && [ "$(grep -c ' PASS$' "$OUTF")" -eq $ROWS ]; then ok "lab05-finish table: $ROWS PASS rows"
else notok "lab05-finish table" "exit $STATUS: $(tail -n 5 "$OUTF")"; fi
expect_grep "lab05-finish notes compare with CUB" '^  modernFlagAtomic +[0-9.]+ ms, [+-][0-9.]+ ms over the floor, [0-9.]+x cub::DeviceReduce::Sum$' "$OUTF"
if tail -n 1 "$OUTF" | grep -q '^lab05-finish: PASS - 5 of 5 kernels verified'; then ok "lab05-finish table ends with the summary line"
else notok "lab05-finish table ends with the summary line" "last line: $(tail -n 1 "$OUTF")"; fi
