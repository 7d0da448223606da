#!/bin/sh
# tests/gpu/gpu_width.sh - every GPU lab's output fits in 100 columns (needs a
# CUDA device; tests/run runs it with the other gpu_*.sh, lab05's part as
# tests/gpu/gpu_width_lab05.sh beside it). The default run of
# each reduction lab is checked where its suite makes it (tests/lib.sh
# reduction_lab_checks); here: lab06's default run, the smallest and largest
# block, a grid of 8 digits, --exercises (the student's build, and the
# solutions' where built), lab05's --sweep, and the commands whose output the
# chapters paste (tools/snapshots.sh lists them). lab04's --latency is
# gpu_lab04.sh's; what runs without a GPU (-h, --list, --explain, lab01) is
# tests/tools/width.sh's. POSIX sh.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

for l in ${WIDTH_LABS:-lab02 lab03 lab04 lab06}; do
    if [ ! -x "./$l" ]; then notok "$l width" "./$l not built"; continue; fi
    if [ "$l" = lab06 ]; then
        expect_width "lab06 default run fits 100 columns" ./lab06 -r 2
        for b in 32x1 1x32 32x32; do expect_width "lab06 -b $b fits" ./lab06 -b $b -r 2; done
        expect_width "lab06 -n 8192 fits" ./lab06 -n 8192 -r 2
        expect_width "lab06 -n 3000x5000 fits" ./lab06 -n 3000x5000 -r 2
    else
        for b in 32 1024; do expect_width "$l -b $b fits" ./$l -b $b -r 2; done
        # 335544320 / 32: a grid of 10485760 blocks, 8 digits
        expect_width "$l -n 335544320 -b 32 fits (a grid of 8 digits)" ./$l -n 335544320 -b 32 -r 1
    fi
    [ "$l" = lab05-finish ] || expect_width "$l --exercises fits" ./$l --exercises -r 2
    if [ -x "build/solutions/$l" ] && [ "$l" != lab05-finish ]; then
        expect_width "$l --exercises (solutions) fits" "build/solutions/$l" --exercises -r 2
    fi
done
# the chapters' pasted commands (tools/snapshots.sh); lab05's are gpu_width_lab05.sh's
if [ -z "${WIDTH_LABS:-}" ]; then
    [ -x ./lab02 ] && expect_width "lab02 -b 128 fits" ./lab02 -b 128 -r 2
    [ -x ./lab03 ] && for n in 1M 2^28; do expect_width "lab03 -n $n fits" ./lab03 -n $n -r 2; done
    [ -x ./lab04 ] && for n in 2^28 2^20; do expect_width "lab04 -n $n fits" ./lab04 -n $n -r 2; done
fi
