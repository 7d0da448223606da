#!/bin/sh
# tests/gpu/gpu_width.sh - every GPU lab's output fits in 100 columns (needs a
# CUDA device; tests/run runs it with the other gpu_*.sh). Its labs are
# WIDTH_LABS (lab02 and lab03 here; gpu_width_lab04.sh and gpu_width_lab05.sh
# beside it take the others, to share the GPU's time). The default run of
# each reduction lab is checked where its suite makes it (tests/lib.sh
# reduction_lab_checks); here: lab06's default run, the smallest and largest
# block (the smallest with a grid of 8 digits, the widest numbers; at the
# default n where that does not fit), --exercises (the student's build, and the
# solutions' where built), and the commands whose output the chapters paste
# (tools/snapshots.sh lists them; lab03's and lab04's -n 2^28 are the 8-digit
# grid's class: a larger n, wider numbers). One repetition each: the layout,
# not the times, is checked. lab04's --latency is gpu_lab04.sh's; what runs
# without a GPU (-h, --list, --explain, lab01) is tests/tools/width.sh's. POSIX sh.
# gpu-memory: 2560 MiB (tests/run: n = 335544320 ints and the working copy)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

# (without WIDTH_LABS: the GPU labs that no gpu_width_*.sh beside it takes)
taken=$(sed -n 's/^WIDTH_LABS="\([^"]*\)".*/\1/p' tests/gpu/gpu_width_*.sh)
for l in ${WIDTH_LABS:-$(lab_list device gpu | grep -vxF "$(printf '%s\n' $taken)")}; do
    if [ ! -x "./$l" ]; then notok "$l width" "./$l not built"; continue; fi
    case $l in
    lab06)
        expect_width "lab06 default run fits 100 columns" ./lab06 -r 1
        for b in 32x1 1x32 32x32; do expect_width "lab06 -b $b fits" ./lab06 -b $b -r 1; done
        expect_width "lab06 -n 8192 fits" ./lab06 -n 8192 -r 1
        expect_width "lab06 -n 3000x5000 fits" ./lab06 -n 3000x5000 -r 1 ;;
    *)
        expect_width "$l -b 1024 fits" ./$l -b 1024 -r 1
        # the smallest block: 335544320 / 32, a grid of 10485760 blocks, 8
        # digits (the default n's wider too); where that does not fit, the default n
        if gpu_room "$l -n 335544320 -b 32 fits" 2560; then
            expect_width "$l -n 335544320 -b 32 fits (a grid of 8 digits)" ./$l -n 335544320 -b 32 -r 1
        else expect_width "$l -b 32 fits" ./$l -b 32 -r 1; fi ;;
    esac
    [ -n "$(lab_get $l part-of)" ] || expect_width "$l --exercises fits" ./$l --exercises -r 1
    if [ -x "build/solutions/$l" ] && [ -z "$(lab_get $l part-of)" ]; then
        expect_width "$l --exercises (solutions) fits" "build/solutions/$l" --exercises -r 1
    fi
    # the chapters' pasted commands (tools/snapshots.sh); lab05's are gpu_width_lab05.sh's
    case $l in
        lab02) expect_width "lab02 -b 128 fits" ./lab02 -b 128 -r 1 ;;
        lab03) expect_width "lab03 -n 1M fits" ./lab03 -n 1M -r 1 ;;
        lab04) expect_width "lab04 -n 2^20 fits" ./lab04 -n 2^20 -r 1 ;;
    esac
done
