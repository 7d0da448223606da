# tests/gpu_lab03.sh - lab03 (interleaved pairing, beside lab02's two kernels)
# on a GPU. POSIX sh, run from the repository root after `make lab03`;
# tests/run calls it where a device exists.
#
# Exact at edge and odd sizes for every block 32..1024 (all three kernels
# in each run), each kernel alone with -k, bad input (exit 2, one line), --list, -h,
# --explain, --json, and exit 3 with a message when no device is visible.
# The exercises (lab03_interleaved/exercises.cuh, three to write): as shipped
# they are todo; the solutions (build/solutions/lab03) pass at odd and edge
# sizes at every block and reach their speed against reduceInterleaved, and
# reduceInterleavedGridStride runs on a grid sized to the GPU.
. tests/lib.sh

LAB=./lab03
ROWS=3 # kernels in lab03's table
KERNELS="reduceNeighbored reduceNeighboredLess reduceInterleaved"
BLOCKS="32 64 128 256 512 1024"
EX_WRITE="reduceInterleaved2 reduceInterleavedAnyN reduceInterleavedGridStride"

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

# the exercises: as shipped (three todo rows, exit 0; a plain run ends with
# the exercises line), and the solutions at odd and edge sizes at every
# block, with their speed at the exercise size (tests/lib.sh)
ex_args=
for n in 1 2 3 31 33 1000003 16777213 16777216; do
    for b in $BLOCKS; do ex_args="$ex_args|-n $n -b $b"; done
done
exercise_checks lab03 "$EX_WRITE" "" \
    "reduceInterleaved2=1.10 reduceInterleavedAnyN=0.90 reduceInterleavedGridStride=1.20" "${ex_args#|}"

# -k an exercise: its row (todo as shipped) right under reduceInterleaved's
run $LAB -k reduceInterleaved2 --csv -r 1
if [ "$STATUS" -eq 0 ] && awk -F, 'NR == 2 && $3 == "reduceInterleaved" && $NF == "PASS" { a = 1 }
        NR == 3 && $3 == "reduceInterleaved2" && $23 == "write" && $24 == "reduceInterleaved" { b = 1 }
        END { exit !(a && b && NR == 3) }' "$OUTF"; then
    ok "lab03 -k reduceInterleaved2: its row under reduceInterleaved's"
else
    notok "lab03 -k reduceInterleaved2" "exit $STATUS; $(head -c 400 "$OUTF")"
fi

# reduceInterleavedGridStride's grid is sized to the GPU: fewer blocks than
# reduceInterleaved's n / block at the exercise size, and ceil(n / block)
# when n is small
if [ -x build/solutions/lab03 ]; then
    run build/solutions/lab03 -k reduceInterleavedGridStride --csv -r 1
    if [ "$STATUS" -eq 0 ] && awk -F, '$3 == "reduceInterleaved" { ref = $7 } $3 == "reduceInterleavedGridStride" { g = $7 }
            END { exit !(g + 0 > 0 && g + 0 < ref + 0) }' "$OUTF"; then
        ok "lab03 reduceInterleavedGridStride: a grid sized to the GPU ($(awk -F, '$3 == "reduceInterleavedGridStride" { print $7 }' "$OUTF") blocks)"
    else
        notok "lab03 reduceInterleavedGridStride's grid" "exit $STATUS; $(cut -d, -f3,7 "$OUTF" | tr '\n' ' ')"
    fi
    run build/solutions/lab03 -k reduceInterleavedGridStride -n 1000 -b 256 --csv -r 1
    if [ "$STATUS" -eq 0 ] && awk -F, '$3 == "reduceInterleavedGridStride" && $7 == 4 { f = 1 } END { exit !f }' "$OUTF"; then
        ok "lab03 reduceInterleavedGridStride: ceil(n / block) blocks at most"
    else
        notok "lab03 reduceInterleavedGridStride at n = 1000" "exit $STATUS; $(cut -d, -f3,7 "$OUTF" | tr '\n' ' ')"
    fi
else
    skip "lab03 reduceInterleavedGridStride's grid" "build/solutions/lab03 not built"
fi

# --finish device: each kernel relaunched on its own partial sums until one
# value remains (tests/lib.sh); n = 1 takes one launch
lab03_finish_device() {
    device_finish_checks lab03 $ROWS \
        "3 launches per reduction at n = 16777216, block 512 (grids 32768, 64, 1): reduceNeighbored,"
    run $LAB --finish device -k reduceInterleaved -n 1 -r 1
    expect_grep "lab03 --finish device at n = 1: 1 launch" \
        "1 launch per reduction at n = 1, block 512 \(grid 1\): reduceInterleaved" "$OUTF"
}
lab03_finish_device
