#!/bin/sh
# tools/gpu.sh - the GPU as CUDA sees it (POSIX sh): the one place the
# workbook's make rules, tests and tools ask about the device.
#
#   sh tools/gpu.sh count   the usable CUDA devices (0, the reason on stderr
#                           and exit 1 when none: no driver, a driver too old
#                           for the toolkit, CUDA_VISIBLE_DEVICES empty, ...)
#   sh tools/gpu.sh cc      device 0's compute capability without the dot: 90
#   sh tools/gpu.sh name    device 0's name: NVIDIA H200
#   sh tools/gpu.sh free    device 0's free memory in MiB
#   sh tools/gpu.sh total   device 0's memory in MiB
#   sh tools/gpu.sh summary "name, driver, cc": NVIDIA H200, 580.95.05, 9.0
#                           (the driver's version from its kernel module)
#   sh tools/gpu.sh slug NAME  a GPU's name as a folder's: nvidia-h200 (no
#                           device needed; unknown for an empty name): the
#                           folders of make results, make bench, calibrations
#
# Device 0 is the one every lab runs on: CUDA's own order, after
# CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER. The answer comes from a tiny
# program (tools/gpu_query.cu) built with $NVCC (default nvcc) into
# build/tools/gpu_query on first use; it runs no kernel, so one build serves
# every GPU. Without nvcc: count prints 0 and says why, exit 1. Exit 2 for a
# bad word; 1 for cc, name, free and total without a usable device.
cd "$(dirname "$0")/.." || exit 2
case ${1:-} in
    count | cc | name | free | total) ;;
    summary)
        name=$(sh "$0" name) || exit 1
        cc=$(sh "$0" cc) || exit 1
        driver=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9.]+$/) { print $i; exit } }' \
            /proc/driver/nvidia/version 2>/dev/null)
        echo "$name, ${driver:-unknown driver}, $(echo "$cc" | sed 's/.$/.&/')"
        exit 0 ;;
    slug)
        slug=$(printf '%s' "${2:-}" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9][^a-z0-9]*/-/g' -e 's/^-//' -e 's/-$//')
        echo "${slug:-unknown}"
        exit 0 ;;
    *) echo "usage: sh tools/gpu.sh count|cc|name|free|total|summary|slug NAME" >&2; exit 2 ;;
esac
Q=build/tools/gpu_query
if [ ! -x "$Q" ] || [ tools/gpu_query.cu -nt "$Q" ] || [ common/no_device.h -nt "$Q" ]; then
    nv=${NVCC:-nvcc}
    if ! command -v "$nv" >/dev/null 2>&1; then
        [ "$1" = count ] && echo 0
        echo "no usable CUDA device: $nv not found, so no device query (docs/setup.md)" >&2
        exit 1
    fi
    mkdir -p build/tools || exit 2
    # a name of its own, then one rename: callers that build at once never see half a file
    if ! "$nv" -O2 -Icommon -o "$Q.$$" tools/gpu_query.cu >"$Q.$$.log" 2>&1; then
        [ "$1" = count ] && echo 0
        echo "no usable CUDA device: the device query did not build: $(head -c 300 "$Q.$$.log")" >&2
        rm -f "$Q.$$" "$Q.$$.log"
        exit 1
    fi
    rm -f "$Q.$$.log"
    mv -f "$Q.$$" "$Q"
fi
exec "$Q" "$1"
