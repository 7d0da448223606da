# tests/gpu_lab05.sh - lab05 (shared memory, shuffles, CUB) on a GPU. POSIX
# sh, run from the repository root after `make lab05`; tests/run calls it
# where a device exists.
#
# Exact for every kernel (CUB's row too) at every block 32..1024 and
# n = 1..9, around 16, 32, 1024, the unroll-4 tails (4*block), reduceModern's
# tile (16*block ints), one int4 per thread of its full grid, and one whole
# pass of the full grid over tiles, +-1 (measured from the grid the program
# reports), 1000003 and 2^24; each kernel alone with -k; other seeds; bad
# input (exit 2, one line); --list, -h, --explain, --json, the table, and a
# short --sweep.
. tests/lib.sh

LAB=./lab05
ROWS=7 # kernels in lab05's table, CUB's row included
KERNELS="reduceGmem reduceSmem reduceSmemUnroll4 reduceSmemUnroll4Dyn reduceShfl reduceModern cub::DeviceReduce::Sum"
BLOCKS="32 64 128 256 512 1024"
UNROLL=4 # MODERN_UNROLL: int4 loads per thread per tile of reduceModern

if [ ! -x $LAB ]; then
    notok lab05-built "$LAB is missing: run make lab05"
    exit 1
fi

# reduceModern's grid at block $1 when the input is large, as ints: one int4
# for every thread of the full grid
sweep_ints() {
    $LAB -k reduceModern -n 64M -b "$1" --csv -r 1 2>/dev/null |
        awk -F, -v b="$1" 'NR == 2 { print $7 * b * 4 }'
}

for b in $BLOCKS; do
    w=$(sweep_ints "$b")
    case "$w" in
    '' | *[!0-9]*)
        notok "lab05 grid of reduceModern at b=$b" "could not read it from a --csv run"
        w=1081344 ;;
    *) ok "lab05 grid of reduceModern at b=$b: $w ints for one int4 per thread" ;;
    esac
    t=$((w * UNROLL)) # one pass of the full grid over tiles
    for n in 1 2 3 4 5 7 8 9 15 16 17 31 32 33 1023 1024 1025 \
        $((b * 4 - 1)) $((b * 4)) $((b * 4 + 1)) $((b * 16 - 1)) $((b * 16 + 1)) \
        $((w - 1)) $((w + 1)) $((w + 4)) $((t - 1)) $((t + 1)) $((2 * t + 3)) \
        1000003 16777216; do
        expect_csv_pass "lab05 n=$n b=$b" $ROWS $LAB -n $n -b $b --csv -r 2
    done
done

# each kernel alone (-k), at an odd size and the smallest and largest block
for k in $KERNELS; do
    expect_csv_pass "lab05 -k $k b=32" 1 $LAB -k $k -n 100003 -b 32 --csv -r 2
    expect_csv_pass "lab05 -k $k b=1024" 1 $LAB -k $k -n 100003 -b 1024 --csv -r 2
done
expect_csv_pass "lab05 -k two" 2 $LAB -k reduceModern,reduceSmem -n 4097 -b 64 --csv -r 2
# other inputs: the seed changes every value
for s in 2 12345; do
    expect_csv_pass "lab05 --seed $s" $ROWS $LAB --seed $s -n 777777 --csv -r 2
done
# the largest values the input rule allows at a length that is not a power of two
expect_csv_pass "lab05 n=2^27+5" $ROWS $LAB -n 134217733 --csv -r 1

# the default table: one PASS per kernel, the summary, and the line against CUB
run $LAB -r 3
if [ "$STATUS" -eq 0 ] && [ "$(grep -c ' PASS$' "$OUTF")" -eq $ROWS ] && grep -q '^lab05: PASS - 7 of 7 kernels verified' "$OUTF"; then
    ok "lab05 table: 7 PASS rows and the summary"
else
    notok "lab05 table" "exit $STATUS: $(tail -n 5 "$OUTF")"
fi
expect_grep "lab05 table shows the ceiling" '^ceiling  [0-9]+ GB/s: device-to-device' "$OUTF"
if tail -n 1 "$OUTF" | grep -q '^lab05: PASS - 7 of 7 kernels verified'; then ok "lab05 table ends with the summary line"
else notok "lab05 table ends with the summary line" "last line: $(tail -n 1 "$OUTF")"; fi
expect_grep "lab05 table compares one pass with CUB" '^  n = +16777216  reduceModern [0-9.]+ ms, cub::DeviceReduce::Sum [0-9.]+ ms: [0-9.]+x$' "$OUTF"

# --json carries the same verdict
expect_status 0 "lab05 --json" $LAB --json -n 1000003 -r 2
expect_grep "lab05 --json passes" '"status": "PASS"' "$OUTF"
expect_grep "lab05 --json has every row" "\"passed\": $ROWS," "$OUTF"
if command -v python3 >/dev/null 2>&1; then
    if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "lab05 --json parses"
    else notok "lab05 --json parses" "python3 -m json.tool rejects it"; fi
fi

# a short --sweep: 2^10, 2^12, 2^14 and then 20000 (not on the 4x ladder)
expect_csv_pass "lab05 --sweep -n 20000 --csv" $((ROWS * 4)) $LAB --sweep -n 20000 --csv -r 2
ns=$(awk -F, 'NR > 1 { print $4 }' "$OUTF" | sort -n | uniq | tr '\n' ' ')
if [ "$ns" = "1024 4096 16384 20000 " ]; then ok "lab05 --sweep sizes"
else notok "lab05 --sweep sizes" "n = $ns, expected 1024 4096 16384 20000"; fi
expect_status 0 "lab05 --sweep table" $LAB --sweep -n 2^20 -k reduceModern,cub::DeviceReduce::Sum -r 5
expect_grep "lab05 --sweep table has an n column" '^reduceModern +1048576 ' "$OUTF"
expect_grep "lab05 --sweep shows the bar at 2^20" '^  n = +1048576  reduceModern .* \(bar 1\.30x: (met|NOT met)\)$' "$OUTF"
if tail -n 1 "$OUTF" | grep -q '^lab05: PASS - 12 of 12 kernel runs verified'; then ok "lab05 --sweep table ends with the summary line"
else notok "lab05 --sweep table ends with the summary line" "last line: $(tail -n 1 "$OUTF")"; fi

# bad input: exit 2, one line on stderr, nothing on stdout
expect_usage "lab05 -n 0" $LAB -n 0
expect_usage "lab05 -n past the int range" $LAB -n 4G
expect_usage "lab05 -n abc" $LAB -n abc
expect_usage "lab05 -n -5" $LAB -n -5
expect_usage "lab05 -b 48" $LAB -b 48
expect_usage "lab05 -b 16" $LAB -b 16
expect_usage "lab05 -b 2048" $LAB -b 2048
expect_usage "lab05 -k nope" $LAB -k nope
expect_usage "lab05 -k empty name" $LAB -k reduceSmem,
expect_usage "lab05 -r 0" $LAB -r 0
expect_usage "lab05 --seed x" $LAB --seed x
expect_usage "lab05 --bogus" $LAB --bogus
expect_usage "lab05 --csv --json" $LAB --csv --json
expect_usage "lab05 --sweep -n 100" $LAB --sweep -n 100

# the modes that need no device
expect_status 0 "lab05 --list" $LAB --list
if [ "$(wc -l <"$OUTF")" -eq $ROWS ]; then ok "lab05 --list has $ROWS lines"
else notok "lab05 --list has $ROWS lines" "$(wc -l <"$OUTF") lines"; fi
for k in $KERNELS; do
    expect_grep "lab05 --list names $k" "^$k " "$OUTF"
done
expect_status 0 "lab05 -h" $LAB -h
expect_grep "lab05 -h shows usage" "^usage: ./lab05" "$OUTF"
expect_grep "lab05 -h names --sweep" "[-]-sweep" "$OUTF"
expect_status 0 "lab05 --explain" $LAB --explain
expect_grep "lab05 --explain shows the smem tree" "^  tid < 1: \+= smem\[tid\+1\] +[0-9]+( +\.){15}$" "$OUTF"
expect_grep "lab05 --explain: no conflict in the tree" "32 different banks: one pass, no conflict" "$OUTF"
expect_grep "lab05 --explain: conflicts in neighbored pairing" "2-way bank conflict: 2 passes" "$OUTF"
if awk '/^  offset 1 \(/ { found = 1; if (NF != 21) bad = 1; for (i = 6; i <= NF; ++i) if ($i != $6) bad = 1 }
        END { exit !(found && !bad) }' "$OUTF"; then ok "lab05 --explain: the butterfly ends with the sum in every lane"
else notok "lab05 --explain: the butterfly ends with the sum in every lane" "$(grep '^  offset 1 ' "$OUTF")"; fi
expect_grep "lab05 --explain: modern takes the tail" "tail int 212" "$OUTF"
expect_status 0 "lab05 --explain on a CPU-only machine" env CUDA_VISIBLE_DEVICES= $LAB --explain
