# tests/gpu/gpu_lab03.sh - lab03 (interleaved pairing, beside lab02's two kernels,
# and gpuRecursiveReduce, lab01's recursion on the GPU) on a GPU. POSIX sh,
# run from the repository root after `make lab03`; tests/run calls it where a
# device exists.
#
# Exact at edge and odd sizes for every block 32..1024 and both finishes
# (all four kernels, one --check run), one kernel alone with -k, bad input
# (exit 2, one line), --list, -h, --explain, --json, and exit 3 with a
# message when no device is visible. gpuRecursiveReduce also at lengths with
# more than 24 levels (2^25 + 1, 2^28 - 1: each level a grid launched by the
# one before it), and its launch count under the table.
# The exercises (lab03_interleaved/exercises.cuh, three to write, one to fix):
# as shipped the write-its are todo and gpuRecursiveReduceNosync FAILs; the
# solutions (build/solutions/lab03) pass at odd and edge sizes at every block
# and both finishes, and reduceInterleavedGridStride runs on a grid sized to
# the GPU. Their speed is tests/gpu/gpu_speed.sh's.
# gpu-memory: 2048 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

lab_suite lab03 # LAB, KERNELS
ROWS=4 # kernels in lab03's table
BLOCKS="32 64 128 256 512 1024"

# every n that trips a bounds or padding mistake, at every block size and
# both finishes; -k; bad input; --list, -h, --json, the default table, no
# device (tests/lib.sh)
reduction_lab_checks lab03 $ROWS "$KERNELS" "1 2 3 31 32 33 1023 1024 1025 1000003 16777213 16777216" host,device

# -k with two kernels, and gpuRecursiveReduce: one grid per level, each
# launched from the device by the one before it. At odd lengths with more
# than 24 levels (24 is the device runtime's limit on nesting depth: a chain
# of tail launches must not count as nesting; 2^28 - 1 ints: 1 GiB, and its
# working copy), and its first grid: a thread per pair (one --check run)
rn="4097 1000003 33554433"
gpu_room "lab03 gpuRecursiveReduce n=268435455" 2048 && rn="$rn 268435455"
check_cross "lab03 -k reduceInterleaved,gpuRecursiveReduce" "reduceInterleaved gpuRecursiveReduce" \
    $LAB --check -k reduceInterleaved,gpuRecursiveReduce -n "$(commas "$rn")" -b 256
if [ "$STATUS" -eq 0 ] && awk -F, '$2 == "gpuRecursiveReduce" && $4 == 1000003 && $6 == 1954 { f = 1 } END { exit !f }' "$OUTF"; then
    ok "lab03 gpuRecursiveReduce: its first grid has a thread per pair (1954 blocks of 256 at n = 1000003)"
else
    notok "lab03 gpuRecursiveReduce's first grid" "exit $STATUS; $(awk -F, '$4 == 1000003 { print $2 "," $6 }' "$OUTF" | tr '\n' ' ')"
fi
# the default table (reduction_lab_checks' run) counts its launches under it
if grep -q "^gpuRecursiveReduce at n = 16777216: 24 grids, one per level" "$TMPD/lab03.table" &&
        grep -q "book's per-block recursion: 262145 grids" "$TMPD/lab03.table"; then
    ok "lab03 counts gpuRecursiveReduce's launches under the table (24; the book's 262145)"
else
    notok "lab03 gpuRecursiveReduce's launch count" "$(grep -i grids "$TMPD/lab03.table" | head -c 300)"
fi

# --explain: the lecture mode, computed on the CPU
expect_status 0 "lab03 --explain" $LAB --explain
expect_grep "lab03 --explain draws the threads" "^ +1  #\.#\.#\." "$OUTF"
expect_grep "lab03 --explain draws the interleaved steps" "^ +32  #{32} \.{32}" "$OUTF"
explain_correct lab03 $ROWS
expect_grep "lab03 --explain traces the recursion level by level" "^  level  5  len  2  pairs  1  -> 136$" "$OUTF"
expect_grep "lab03 --explain counts the recursion's grids" "^24 grids \(23 from the device\), one per level" "$OUTF"
# the counts per block of 512 match what ncu measured on an H100 (docs/lab03.md):
# load requests and sectors times the grid (32768 blocks at n = 2^24)
expect_grep "lab03 --explain counts reduceNeighbored at -b 512" "^  reduceNeighbored +95 +511 +191 +511" "$OUTF"
expect_grep "lab03 --explain counts reduceNeighboredLess at -b 512" "^  reduceNeighboredLess +20 +511 +41 +511" "$OUTF"
expect_grep "lab03 --explain counts reduceInterleaved at -b 512" "^  reduceInterleaved +20 +511 +41 +133" "$OUTF"
expect_status 0 "lab03 --explain -k gpuRecursiveReduce -n 1000003 -b 32" \
    $LAB --explain -k gpuRecursiveReduce -n 1000003 -b 32
expect_grep "lab03 --explain -k gpuRecursiveReduce: its lecture alone" "^20 grids \(19 from the device\)" "$OUTF"
if grep -q "warp-steps" "$OUTF"; then notok "lab03 --explain -k gpuRecursiveReduce" "drew the trees of the unselected kernels"
else ok "lab03 --explain -k gpuRecursiveReduce draws no tree"; fi
expect_status 0 "lab03 --explain -b 32" $LAB --explain -b 32
expect_grep "lab03 --explain -b 32 draws one warp" "1 of 1" "$OUTF"
expect_status 0 "lab03 --explain on a CPU-only machine" env CUDA_VISIBLE_DEVICES= $LAB --explain

# the exercises: as shipped (three todo rows and gpuRecursiveReduceNosync's
# FAIL, exit 1; a plain run exits 0 and ends with the exercises line), and the
# solutions at odd and edge sizes at every block and both finishes (tests/lib.sh)
exercise_checks lab03 "-n 1,2,3,31,33,1000003,16777213,16777216 -b $(commas "$BLOCKS") --finish host,device"

# -k an exercise: its row (todo as shipped) right under reduceInterleaved's
run $LAB --check -k reduceInterleaved2
if [ "$STATUS" -eq 0 ] && awk -F, 'NR == 2 && $2 == "reduceInterleaved" && $11 == "PASS" { a = 1 }
        NR == 3 && $2 == "reduceInterleaved2" && $3 == "write" { b = 1 }
        END { exit !(a && b && NR == 3) }' "$OUTF"; then
    ok "lab03 -k reduceInterleaved2: its row under reduceInterleaved's"
else
    notok "lab03 -k reduceInterleaved2" "exit $STATUS; $(head -c 400 "$OUTF")"
fi

# reduceInterleavedGridStride's grid is sized to the GPU: fewer blocks than
# reduceInterleaved's n / block at the exercise size, and ceil(n / block)
# when n is small
if [ -x build/solutions/lab03 ]; then
    run build/solutions/lab03 --check -k reduceInterleavedGridStride -n 16777213,1000 -b 512,256
    grids=$(awk -F, '$2 ~ /^reduceInterleaved/ { printf "%s@%s/%s=%s ", $2, $4, $5, $6 }' "$OUTF")
    if [ "$STATUS" -eq 0 ] && awk -F, '$4 == 16777213 && $5 == 512 && $2 == "reduceInterleaved" { ref = $6 }
            $4 == 16777213 && $5 == 512 && $2 == "reduceInterleavedGridStride" { g = $6 }
            END { exit !(g + 0 > 0 && g + 0 < ref + 0) }' "$OUTF"; then
        ok "lab03 reduceInterleavedGridStride: a grid sized to the GPU ($(awk -F, '$2 == "reduceInterleavedGridStride" && $4 == 16777213 && $5 == 512 { print $6 }' "$OUTF") blocks)"
    else
        notok "lab03 reduceInterleavedGridStride's grid" "exit $STATUS; $grids"
    fi
    if [ "$STATUS" -eq 0 ] && awk -F, '$2 == "reduceInterleavedGridStride" && $4 == 1000 && $5 == 256 && $6 == 4 { f = 1 }
            END { exit !f }' "$OUTF"; then
        ok "lab03 reduceInterleavedGridStride: ceil(n / block) blocks at most"
    else
        notok "lab03 reduceInterleavedGridStride at n = 1000" "exit $STATUS; $grids"
    fi
else
    skip "lab03 reduceInterleavedGridStride's grid" "build/solutions/lab03 not built"
fi

# gpuRecursiveReduceNosync as shipped: PASSes at a power of two (every level
# even), FAILs at an odd n (the odd elements are added before the child runs,
# and its last level overwrites them), every time (three inputs, each run twice)
if built_with_solutions $LAB; then
    skip "lab03 gpuRecursiveReduceNosync as shipped" "$LAB was built with SOLUTIONS=1"
elif edited=$(edited_exercise_file lab03_interleaved/exercises.cuh); then
    skip "lab03 gpuRecursiveReduceNosync as shipped" "$edited"
else
    run $LAB --check -k gpuRecursiveReduceNosync -n 1000003,1048576 --seed 1,2,3
    fails=$(awk -F, '$2 == "gpuRecursiveReduceNosync" && $4 == 1000003 && $11 == "FAIL"' "$OUTF" | wc -l)
    passes=$(awk -F, '$2 == "gpuRecursiveReduceNosync" && $4 == 1048576 && $11 == "PASS"' "$OUTF" | wc -l)
    if [ $fails -eq 3 ] && [ $passes -eq 3 ] && [ "$STATUS" -eq 1 ]; then
        ok "lab03 gpuRecursiveReduceNosync as shipped: FAILs at n = 1000003 (3 of 3 inputs), PASSes at 2^20"
    else
        notok "lab03 gpuRecursiveReduceNosync as shipped" "$fails of 3 inputs FAIL at 1000003; $passes of 3 PASS at 2^20; exit $STATUS"
    fi
fi

# --finish device: the finish column, the table's note, --json, the
# exercises' verdicts (tests/lib.sh); n = 1 takes one launch
device_finish_checks lab03 $ROWS \
    "3 launches per reduction at n = 16777216, block 512 (grids 32768, 64, 1): reduceNeighbored,"
run $LAB --finish device -k reduceInterleaved -n 1 -r 1
expect_grep "lab03 --finish device at n = 1: 1 launch" \
    "1 launch per reduction at n = 1, block 512 \(grid 1\): reduceInterleaved" "$OUTF"
