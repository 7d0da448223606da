# tests/gpu_lab03.sh - lab03 (interleaved pairing, beside lab02's two kernels)
# on a GPU. POSIX sh, run from the repository root after `make lab03`;
# tests/run calls it where a device exists.
#
# Exact at edge and odd sizes for every block 32..1024 (all three kernels
# in each run), each kernel alone with -k, bad input (exit 2, one line), --list, -h,
# --explain, --json, and exit 3 with a message when no device is visible.
. tests/lib.sh

LAB=./lab03
ROWS=3 # kernels in lab03's table
KERNELS="reduceNeighbored reduceNeighboredLess reduceInterleaved"

if [ ! -x $LAB ]; then
    notok lab03-built "$LAB is missing: run make lab03"
    exit 1
fi

# every n that trips a bounds or padding mistake, at every block size
for n in 1 2 3 31 32 33 1023 1024 1025 1000003 16777216; do
    for b in 32 64 128 256 512 1024; do
        expect_csv_pass "lab03 n=$n b=$b" $ROWS $LAB -n $n -b $b --csv -r 2
    done
done

# each kernel alone (-k), at an odd size and the smallest block
for k in $KERNELS; do
    expect_csv_pass "lab03 -k $k" 1 $LAB -k $k -n 100003 -b 32 --csv -r 2
done
expect_csv_pass "lab03 -k two" 2 $LAB -k reduceInterleaved,reduceNeighbored -n 4097 --csv -r 2

# bad input: exit 2, one line on stderr, nothing on stdout
expect_usage "lab03 -n 0" $LAB -n 0
expect_usage "lab03 -n past the int range" $LAB -n 4G
expect_usage "lab03 -n abc" $LAB -n abc
expect_usage "lab03 -b 48" $LAB -b 48
expect_usage "lab03 -b 16" $LAB -b 16
expect_usage "lab03 -b 2048" $LAB -b 2048
expect_usage "lab03 -k nope" $LAB -k nope
expect_usage "lab03 --bogus" $LAB --bogus

# the modes that need no device
expect_status 0 "lab03 --list" $LAB --list
for k in $KERNELS; do
    expect_grep "lab03 --list names $k" "^$k " "$OUTF"
done
expect_status 0 "lab03 -h" $LAB -h
expect_grep "lab03 -h shows usage" "^usage: ./lab03" "$OUTF"
expect_status 0 "lab03 --explain" $LAB --explain
expect_grep "lab03 --explain draws the threads" "^ +1  #\.#\.#\." "$OUTF"
expect_grep "lab03 --explain draws the interleaved steps" "^ +32  #{32} \.{32}" "$OUTF"
if grep -q WRONG "$OUTF"; then notok "lab03 --explain simulation" "$(grep WRONG "$OUTF" | head -c 300)"
elif [ "$(grep -c ': correct$' "$OUTF")" -ne $ROWS ]; then notok "lab03 --explain simulation" "not every kernel ends correct"
else ok "lab03 --explain simulation"; fi
# the counts per block of 512 match what ncu measured on an H100 (docs/lab03.md):
# load requests and sectors times the grid (32768 blocks at n = 2^24)
expect_grep "lab03 --explain counts reduceNeighbored at -b 512" "^  reduceNeighbored +95 +511 +191 +511" "$OUTF"
expect_grep "lab03 --explain counts reduceNeighboredLess at -b 512" "^  reduceNeighboredLess +20 +511 +41 +511" "$OUTF"
expect_grep "lab03 --explain counts reduceInterleaved at -b 512" "^  reduceInterleaved +20 +511 +41 +133" "$OUTF"
expect_status 0 "lab03 --explain -b 32" $LAB --explain -b 32
expect_grep "lab03 --explain -b 32 draws one warp" "1 of 1" "$OUTF"
expect_status 0 "lab03 --explain on a CPU-only machine" env CUDA_VISIBLE_DEVICES= $LAB --explain

# --json carries the same verdict
expect_status 0 "lab03 --json" $LAB --json -n 1000003 -r 2
expect_grep "lab03 --json passes" '"status": "PASS"' "$OUTF"
expect_grep "lab03 --json has every row" "\"passed\": $ROWS," "$OUTF"
if command -v python3 >/dev/null 2>&1; then
    if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "lab03 --json parses"
    else notok "lab03 --json parses" "python3 -m json.tool refuses it"; fi
fi

# the default table: PASS on every row
expect_status 0 "lab03 default table" $LAB -r 5
expect_grep "lab03 table has reduceInterleaved" "^reduceInterleaved .*PASS" "$OUTF"

# no visible device: exit 3 and say so
expect_status 3 "lab03 without a device" env CUDA_VISIBLE_DEVICES= $LAB -n 1000
expect_grep "lab03 without a device says so" "no usable CUDA device" "$ERRF"
