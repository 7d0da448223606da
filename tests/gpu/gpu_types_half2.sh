#!/bin/sh
# tests/gpu/gpu_types_half2.sh - the second half of tests/gpu/types.sh's labs in
# float and double on a GPU, a suite of its own that tests/run runs beside the
# first half (gpu_types.sh). POSIX sh, from the repository root.
# gpu-memory: 256 MiB (tests/run: the most GPU memory one run takes, its data)
WB_TYPES_HALF=2 exec sh "$(dirname "$0")/types.sh"
