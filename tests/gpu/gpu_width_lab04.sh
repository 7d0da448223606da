#!/bin/sh
# tests/gpu/gpu_width_lab04.sh - lab04's and lab06's outputs fit in 100
# columns: tests/gpu/gpu_width.sh's checks for them (run beside it by
# tests/run, to share the GPU's time). POSIX sh.
# gpu-memory: 2560 MiB (tests/run: n = 335544320 ints and the working copy)
cd "$(dirname "$0")/../.." || exit 2
WIDTH_LABS="lab04 lab06" . tests/gpu/gpu_width.sh
