#!/bin/sh
# tests/gpu_width.sh - every GPU lab's output fits in 100 columns (needs a
# CUDA device; tests/run runs it with the other gpu_*.sh): the default run of
# each lab and of lab05-finish, at the smallest and largest block, with
# --exercises (the student's build, and the solutions' where built), lab05's
# --sweep, lab04's --latency, and the commands whose output the chapters
# paste (tools/snapshots.sh lists them). What runs without a GPU (-h, --list,
# --explain, lab01) is tests/width.sh's. POSIX sh.
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

for l in lab02 lab03 lab04 lab05 lab05-finish lab06; do
    if [ ! -x "./$l" ]; then notok "$l width" "./$l not built"; continue; fi
    expect_width "$l default run fits 100 columns" ./$l
    if [ "$l" = lab06 ]; then
        for b in 32x1 1x32 32x32; do expect_width "lab06 -b $b fits" ./lab06 -b $b -r 5; done
        expect_width "lab06 -n 8192 fits" ./lab06 -n 8192 -r 5
        expect_width "lab06 -n 3000x5000 fits" ./lab06 -n 3000x5000 -r 5
    else
        for b in 32 1024; do expect_width "$l -b $b fits" ./$l -b $b -r 5; done
        expect_width "$l -n 1G -b 32 fits (a grid of 8 digits)" ./$l -n 1G -b 32 -r 2
    fi
    [ "$l" = lab05-finish ] || expect_width "$l --exercises fits" ./$l --exercises -r 5
    if [ -x "build/solutions/$l" ] && [ "$l" != lab05-finish ]; then
        expect_width "$l --exercises (solutions) fits" "build/solutions/$l" --exercises -r 5
    fi
done
if [ -x ./lab05 ]; then
    expect_width "lab05 --sweep fits" ./lab05 --sweep -r 5
    expect_width "lab05 --sweep -b 32 fits" ./lab05 --sweep -b 32 -r 3
    expect_width "lab05 --exercises --sweep fits" ./lab05 --exercises --sweep -n 2^20 -r 3
fi
[ -x ./lab04 ] && expect_width "lab04 --latency fits" ./lab04 --latency
# the chapters' pasted commands (tools/snapshots.sh)
[ -x ./lab02 ] && expect_width "lab02 -b 128 fits" ./lab02 -b 128 -r 5
[ -x ./lab03 ] && for n in 1M 2^28; do expect_width "lab03 -n $n fits" ./lab03 -n $n -r 5; done
[ -x ./lab04 ] && for n in 2^28 2^20; do expect_width "lab04 -n $n fits" ./lab04 -n $n -r 5; done
[ -x ./lab05-finish ] && expect_width "lab05-finish -n 2^28 fits" ./lab05-finish -n 2^28 -r 5
