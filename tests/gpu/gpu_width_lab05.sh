#!/bin/sh
# tests/gpu/gpu_width_lab05.sh - lab05's and lab05-finish's outputs fit in 100
# columns: tests/gpu/gpu_width.sh's checks for them, and lab05's --sweep (run
# beside gpu_width.sh by tests/run, to share the GPU's time). One whole sweep
# (2^10 .. 2^28) at -b 32, its widest grids; a short one at the default block
# with the exercises (the same without them: gpu_lab05.sh's sweep table).
# POSIX sh.
# gpu-memory: 2560 MiB (tests/run: n = 335544320 ints (gpu_width.sh) and the working copy)
cd "$(dirname "$0")/../.." || exit 2
WIDTH_LABS="lab05 lab05-finish" . tests/gpu/gpu_width.sh
if [ -x ./lab05 ]; then
    gpu_room "lab05 --sweep -b 32 fits" 2048 &&
        expect_width "lab05 --sweep -b 32 fits (2^10 .. 2^28)" ./lab05 --sweep -b 32 -r 1
    expect_width "lab05 --exercises --sweep fits" ./lab05 --exercises --sweep -n 2^20 -r 1
fi
[ -x ./lab05-finish ] && gpu_room "lab05-finish -n 2^28 fits" 2048 &&
    expect_width "lab05-finish -n 2^28 fits" ./lab05-finish -n 2^28 -r 1
