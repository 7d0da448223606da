# tests/gpu/gpu_lab02.sh - lab02 (neighbored pairing) on a GPU. POSIX sh, run from
# the repository root after `make lab02`; tests/run calls it where a device exists.
#
# Exact at edge and odd sizes for every block 32..1024, finished on the host
# and on the device (both kernels, one --check run), one kernel alone with
# -k and both, bad input (exit 2, one line), --list, -h, --explain, --json, the default
# table, and exit 3 with a message when no device is visible. The exercises
# (lab02_neighbored/exercises.cuh): as shipped, the write-it row is todo and
# the two fix-it rows FAIL at the exercise size at every block; the solutions
# (build/solutions/lab02) pass at odd and edge sizes, every block and both
# finishes. Their speed is tests/gpu/gpu_speed.sh's.
# gpu-memory: 128 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

lab_suite lab02 # LAB, KERNELS
ROWS=2 # kernels in lab02's table
BLOCKS="32 64 128 256 512 1024"

# every n that trips a bounds or padding mistake, at every block size and
# both finishes; -k; bad input; --list, -h, --json, the default table, no
# device (tests/lib.sh)
reduction_lab_checks lab02 $ROWS "$KERNELS" "1 2 3 31 32 33 1023 1024 1025 1000003 16777213 16777216" host,device
check_cross "lab02 -k both" "reduceNeighboredLess reduceNeighbored" \
    $LAB --check -k reduceNeighboredLess,reduceNeighbored -n 4097

# --explain: the lecture mode, computed on the CPU
expect_status 0 "lab02 --explain" $LAB --explain
expect_grep "lab02 --explain draws the threads" "^ +1  #\.#\.#\." "$OUTF"
explain_correct lab02 $ROWS
# the counts per block of 512 match what ncu measured on an H100 (docs/lab02.md):
# load requests and sectors times the grid (32768 blocks at n = 2^24)
expect_grep "lab02 --explain counts reduceNeighbored at -b 512" "^  reduceNeighbored +95 +511 +191 +511" "$OUTF"
expect_grep "lab02 --explain counts reduceNeighboredLess at -b 512" "^  reduceNeighboredLess +20 +511 +41 +511" "$OUTF"
expect_status 0 "lab02 --explain -b 32" $LAB --explain -b 32
expect_grep "lab02 --explain -b 32 draws one warp" "1 of 1" "$OUTF"
expect_status 0 "lab02 --explain on a CPU-only machine" env CUDA_VISIBLE_DEVICES= $LAB --explain

# the exercises: as shipped (todo, FAIL, FAIL; a plain run ends with the
# exercises line), and the solutions at odd and edge sizes at every block
# and both finishes (tests/lib.sh)
exercise_checks lab02 "-n 1,2,3,31,33,1000003,16777213,16777216 -b $(commas "$BLOCKS") --finish host,device"

# each fix-it FAILs as shipped at the exercise size at every block, not by
# chance: the last block reads past n (EarlyExit), every block writes slot 0
# (LessOut); the reference rows still PASS
fixits_fail lab02 "$BLOCKS" 16777213

# --finish device: the finish column, the table's note, --json, the
# exercises' verdicts (tests/lib.sh), and the launches at -b 32: five at 2^24 - 3
device_finish_checks lab02 $ROWS \
    "3 launches per reduction at n = 16777216, block 512 (grids 32768, 64, 1): reduceNeighbored,"
run $LAB --finish device -n 16777213 -b 32 -r 1
expect_grep "lab02 --finish device at -b 32: 5 launches" \
    "5 launches per reduction at n = 16777213, block 32 \(grids 524288, 16384, 512, 16, 1\)" "$OUTF"
