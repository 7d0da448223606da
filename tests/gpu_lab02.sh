# tests/gpu_lab02.sh - lab02 (neighbored pairing) on a GPU. POSIX sh, run from
# the repository root after `make lab02`; tests/run calls it where a device exists.
#
# Exact at edge and odd sizes for every block 32..1024 (both kernels in each
# run), each kernel alone with -k, bad input (exit 2, one line), --list, -h,
# --explain, --json, and exit 3 with a message when no device is visible.
. tests/lib.sh

LAB=./lab02
ROWS=2 # kernels in lab02's table
KERNELS="reduceNeighbored reduceNeighboredLess"

if [ ! -x $LAB ]; then
    notok lab02-built "$LAB is missing: run make lab02"
    exit 1
fi

# every n that trips a bounds or padding mistake, at every block size
for n in 1 2 3 31 32 33 1023 1024 1025 1000003 16777216; do
    for b in 32 64 128 256 512 1024; do
        expect_csv_pass "lab02 n=$n b=$b" $ROWS $LAB -n $n -b $b --csv -r 2
    done
done

# each kernel alone (-k), at an odd size and the smallest block
for k in $KERNELS; do
    expect_csv_pass "lab02 -k $k" 1 $LAB -k $k -n 100003 -b 32 --csv -r 2
done
expect_csv_pass "lab02 -k both" 2 $LAB -k reduceNeighboredLess,reduceNeighbored -n 4097 --csv -r 2

# bad input: exit 2, one line on stderr, nothing on stdout
expect_usage "lab02 -n 0" $LAB -n 0
expect_usage "lab02 -n past the int range" $LAB -n 4G
expect_usage "lab02 -n abc" $LAB -n abc
expect_usage "lab02 -b 48" $LAB -b 48
expect_usage "lab02 -b 16" $LAB -b 16
expect_usage "lab02 -b 2048" $LAB -b 2048
expect_usage "lab02 -k nope" $LAB -k nope
expect_usage "lab02 --bogus" $LAB --bogus

# the modes that need no device
expect_status 0 "lab02 --list" $LAB --list
for k in $KERNELS; do
    expect_grep "lab02 --list names $k" "^$k " "$OUTF"
done
expect_status 0 "lab02 -h" $LAB -h
expect_grep "lab02 -h shows usage" "^usage: ./lab02" "$OUTF"
expect_status 0 "lab02 --explain" $LAB --explain
expect_grep "lab02 --explain draws the threads" "^ +1  #\.#\.#\." "$OUTF"
if grep -q WRONG "$OUTF"; then notok "lab02 --explain simulation" "$(grep WRONG "$OUTF" | head -c 300)"
elif [ "$(grep -c ': correct$' "$OUTF")" -ne $ROWS ]; then notok "lab02 --explain simulation" "not every kernel ends correct"
else ok "lab02 --explain simulation"; fi
# the counts per block of 512 match what ncu measured on an H100 (docs/lab02.md):
# load requests and sectors times the grid (32768 blocks at n = 2^24)
expect_grep "lab02 --explain counts reduceNeighbored at -b 512" "^  reduceNeighbored +95 +511 +191 +511" "$OUTF"
expect_grep "lab02 --explain counts reduceNeighboredLess at -b 512" "^  reduceNeighboredLess +20 +511 +41 +511" "$OUTF"
expect_status 0 "lab02 --explain -b 32" $LAB --explain -b 32
expect_grep "lab02 --explain -b 32 draws one warp" "1 of 1" "$OUTF"
expect_status 0 "lab02 --explain on a CPU-only machine" env CUDA_VISIBLE_DEVICES= $LAB --explain

# --json carries the same verdict
expect_status 0 "lab02 --json" $LAB --json -n 1000003 -r 2
expect_grep "lab02 --json passes" '"status": "PASS"' "$OUTF"
expect_grep "lab02 --json has every row" "\"passed\": $ROWS," "$OUTF"
if command -v python3 >/dev/null 2>&1; then
    if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "lab02 --json parses"
    else notok "lab02 --json parses" "python3 -m json.tool refuses it"; fi
fi

# the default table: PASS on every row
expect_status 0 "lab02 default table" $LAB -r 5
expect_grep "lab02 table has reduceNeighboredLess" "^reduceNeighboredLess .*PASS" "$OUTF"

# no visible device: exit 3 and say so
expect_status 3 "lab02 without a device" env CUDA_VISIBLE_DEVICES= $LAB -n 1000
expect_grep "lab02 without a device says so" "no usable CUDA device" "$ERRF"
