#!/bin/sh
# tests/gpu/gpu_types.sh - the first half of tests/gpu/types.sh's labs in float
# and double on a GPU (gpu_types_half2.sh: the second half, a suite of its own
# that tests/run runs beside this one). POSIX sh, from the repository root.
# gpu-memory: 256 MiB (tests/run: the most GPU memory one run takes, its data)
WB_TYPES_HALF=1 exec sh "$(dirname "$0")/types.sh"
