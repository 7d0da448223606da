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

# every n that trips a bounds or padding mistake, at every block size; -k;
# bad input; --list, -h, --json, the default table, no device (tests/lib.sh)
reduction_lab_checks lab03 $ROWS "$KERNELS" "1 2 3 31 32 33 1023 1024 1025 1000003 16777216"
expect_csv_pass "lab03 -k two" 2 $LAB -k reduceInterleaved,reduceNeighbored -n 4097 --csv -r 2

# --explain: the lecture mode, computed on the CPU
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

