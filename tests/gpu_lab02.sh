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

# every n that trips a bounds or padding mistake, at every block size; -k;
# bad input; --list, -h, --json, the default table, no device (tests/lib.sh)
reduction_lab_checks lab02 $ROWS "$KERNELS" "1 2 3 31 32 33 1023 1024 1025 1000003 16777216"
expect_csv_pass "lab02 -k both" 2 $LAB -k reduceNeighboredLess,reduceNeighbored -n 4097 --csv -r 2

# --explain: the lecture mode, computed on the CPU
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

