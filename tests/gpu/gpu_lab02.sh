# tests/gpu/gpu_lab02.sh - lab02 (neighbored pairing) on a GPU. POSIX sh, run from
# the repository root after `make lab02`; tests/run calls it where a device exists.
#
# Exact at edge and odd sizes for every block 32..1024, finished on the host
# and on the device (both kernels, one --check run), each kernel alone with
# -k, bad input (exit 2, one line), --list, -h, --explain, --json, the default
# table, and exit 3 with a message when no device is visible. The exercises
# (lab02_neighbored/exercises.cuh): as shipped, the write-it row is todo and
# the two fix-it rows FAIL at the exercise size at every block; the solutions
# (build/solutions/lab02) pass at odd and edge sizes, every block and both
# finishes. Their speed is tests/gpu/gpu_speed.sh's.
. tests/lib.sh

LAB=./lab02
ROWS=2 # kernels in lab02's table
BLOCKS="32 64 128 256 512 1024"
EX_FIX="reduceNeighboredEarlyExit reduceNeighboredLessOut"

if [ ! -x $LAB ]; then
    notok lab02-built "$LAB is missing: run make lab02"
    exit 1
fi
KERNELS=$(list_kernels $LAB)

# every n that trips a bounds or padding mistake, at every block size and
# both finishes; -k; bad input; --list, -h, --json, the default table, no
# device (tests/lib.sh)
reduction_lab_checks lab02 $ROWS "$KERNELS" "1 2 3 31 32 33 1023 1024 1025 1000003 16777213 16777216" host,device
check_cross "lab02 -k both" "reduceNeighboredLess reduceNeighbored" \
    $LAB --check -k reduceNeighboredLess,reduceNeighbored -n 4097

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

# the exercises: as shipped (todo, FAIL, FAIL; a plain run ends with the
# exercises line), and the solutions at odd and edge sizes at every block
# and both finishes (tests/lib.sh)
exercise_checks lab02 "reduceNeighboredMask" "$EX_FIX" \
    "-n 1,2,3,31,33,1000003,16777213,16777216 -b $(commas "$BLOCKS") --finish host,device"

# each fix-it FAILs as shipped at the exercise size at every block, not by
# chance: the last block reads past n (EarlyExit), every block writes slot 0
# (LessOut); the reference rows still PASS
if built_with_solutions $LAB; then
    skip "lab02 fix-its FAIL at every block" "$LAB was built with SOLUTIONS=1"
else
    run $LAB --check -k reduceNeighboredEarlyExit,reduceNeighboredLessOut -b "$(commas "$BLOCKS")"
    fst=$STATUS
    for b in $BLOCKS; do
        check=$(awk -F, -v b=$b '
            NR == 1 || $5 != b { next }
            msg == "" && $3 == "fix" && $11 != "FAIL" { msg = $2 " says " $11 }
            msg == "" && $3 == "kernel" && $11 != "PASS" { msg = $2 " says " $11 }
            $3 == "fix" { fixes++; if ($4 != 16777213) msg = $2 " ran at n = " $4 }
            END { if (msg == "" && fixes != 2) msg = fixes + 0 " fix-it rows, expected 2"; if (msg != "") print msg }' "$OUTF")
        if [ "$fst" -ne 1 ]; then notok "lab02 fix-its FAIL as shipped at -b $b" "exit $fst, expected 1"
        elif [ -n "$check" ]; then notok "lab02 fix-its FAIL as shipped at -b $b" "$check"
        else ok "lab02 fix-its FAIL as shipped at -b $b (n = 16777213)"; fi
    done
fi

# --finish device: the finish column, the table's note, --json, the
# exercises' verdicts (tests/lib.sh), and the launches at -b 32: five at 2^24 - 3
device_finish_checks lab02 $ROWS \
    "3 launches per reduction at n = 16777216, block 512 (grids 32768, 64, 1): reduceNeighbored,"
run $LAB --finish device -n 16777213 -b 32 -r 1
expect_grep "lab02 --finish device at -b 32: 5 launches" \
    "5 launches per reduction at n = 16777213, block 32 \(grids 524288, 16384, 512, 16, 1\)" "$OUTF"
