#!/bin/sh
# tools/trace/trace.sh - trace one launch of one kernel on the GPU and draw it.
#
#   sh tools/trace/trace.sh BINARY KERNEL [N] [B] [-v] [-B BLOCK] [--svg FILE]
#   sh tools/trace/trace.sh --preflight [LAB]    only the checks below (make trace runs them first)
#
# `make trace LAB=lab02 KERNEL=reduceNeighbored [N=64] [B=32]` calls it. It
# builds the trace's injection library (build/trace/: the Compute Sanitizer
# API's patches, trace_patch.cu, and trace_inject.c) and its drawing
# program (trace_draw.c and its parts, draw_*.c), then runs
#     BINARY --check -k KERNEL -n N [-b B]
# with CUDA_INJECTION64_PATH set: --check verifies the kernel once (the
# launch traced) and runs it again (not traced). Then it draws the record
# (trace_draw.c) and prints the kernel's verdict and the seconds it took.
# N defaults to 64 (lab06 and a matrix mode's kernel: 64x64), B to 32 (a
# matrix: the lab's own block). A kernel that N does not launch (a launcher
# that runs another kernel on small inputs) is traced, when no N was given,
# at the first size 4x larger each step that launches it: the output says
# which.
# -v, -B and --svg go to the drawing program: values in the tree, the block
# drawn, and the tree as an SVG picture too (for the chapters and slides).
#
# Exit status: 0 drawn and the kernel PASSed; 1 drawn, the kernel FAILed (or
# is not written yet); 2 bad arguments; 3 no trace: no GPU, no Sanitizer API
# in the toolkit, a lab built with dynamic parallelism, no such kernel
# launched, or an incomplete record (one line on stderr says which).
# Environment: NVCC (nvcc), TRACE_CC (gcc), CUDA_SANITIZER_DIR (the compute-sanitizer folder),
# WB_TRACE_OUTDIR (where the library, the drawing program and the records go: build/trace),
# WB_TRACE_MAX (entries the device buffer holds), WB_TRACE_SHARED_VALUES=0, GPU_CC (the
# device's compute capability as make found it, sh tools/gpu.sh cc: given, the device is
# not asked again; each question starts CUDA, which takes a while).
CALLER_DIR=$PWD # --svg FILE is relative to where the trace was asked for
cd "$(dirname "$0")/../.." || exit 2
NVCC=${NVCC:-nvcc}
OUTDIR=${WB_TRACE_OUTDIR:-build/trace} # (tests/trace.sh gives a folder of its own, with stand-ins)
case $OUTDIR in /*) OUTABS=$OUTDIR ;; *) OUTABS=$PWD/$OUTDIR ;; esac

# sanitizer_dir: the toolkit's compute-sanitizer folder, or nothing
sanitizer_dir() {
    for d in "${CUDA_SANITIZER_DIR:-}" \
        "$(dirname "$(dirname "$(readlink -f "$(command -v "$NVCC" 2>/dev/null)" 2>/dev/null)")" 2>/dev/null)/compute-sanitizer" \
        "${CUDA_HOME:-/usr/local/cuda}/compute-sanitizer" /usr/local/cuda/compute-sanitizer; do
        if [ -n "$d" ] && [ -f "$d/include/sanitizer.h" ] && [ -f "$d/libsanitizer-public.so" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

# preflight [LAB]: a GPU (GPU_CC: make found one), and the Sanitizer API in
# the toolkit; else one line, exit 3
preflight() {
    if [ -z "${GPU_CC:-}" ] && ! NVCC="$NVCC" sh tools/gpu.sh count >/dev/null 2>&1; then
        echo "trace: no usable CUDA device here (sh tools/gpu.sh count): the trace runs the kernel on a GPU" >&2
        exit 3
    fi
    if ! SAN=$(sanitizer_dir); then
        echo "trace: the trace is built on the Compute Sanitizer API, which this CUDA toolkit lacks" >&2
        exit 3
    fi
}

if [ "${1:-}" = --preflight ]; then
    preflight
    exit 0
fi
if [ $# -lt 2 ]; then
    echo "usage: sh tools/trace/trace.sh BINARY KERNEL [N] [B] [-v] [-B BLOCK] [--svg FILE]" >&2
    exit 2
fi
BINARY=$1; KERNEL=$2; N=${3:-}; B=${4:-}
shift 2; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
LAB=$(basename "$BINARY")
preflight
if [ ! -x "$BINARY" ]; then
    echo "trace: $BINARY is not built (make $LAB)" >&2
    exit 2
fi
# lab03's gpuRecursiveReduce launches kernels from the device: the Sanitizer
# API does not patch such a program; its build without them (NOCDP=1) is fine
if [ "$LAB" = lab03 ] && ! grep -q '+nocdp' "$BINARY" 2>/dev/null; then
    echo "trace: $LAB uses dynamic parallelism, which the trace cannot patch; try make trace LAB=lab03" >&2
    exit 3
fi
# the default size: a matrix for lab06 and for a kernel of a lab's matrix
# mode (lab05 -n NXxNY: its kernels are in `-n 1x1 --list --csv` alone), at
# the lab's own block; else 64 elements in blocks of 32
N_GIVEN=$N
in_list() { "$BINARY" "$@" --list --csv 2>/dev/null | awk -F, -v k="$KERNEL" 'NR > 1 && $1 == k { f = 1 } END { exit !f }'; }
matrix=0
case $LAB:$N in lab06*:* | *:*x* | *:*X*) matrix=1 ;; esac
[ $matrix -eq 0 ] && [ -z "$N" ] && ! in_list && in_list -n 1x1 && matrix=1
if [ $matrix -eq 1 ]; then N=${N:-64x64}; else N=${N:-64}; B=${B:-32}; fi

# the library, its patches and the drawing program, rebuilt when a source is newer
mkdir -p "$OUTDIR" || exit 2
CC_GPU=${GPU_CC:-$(NVCC="$NVCC" sh tools/gpu.sh cc 2>/dev/null)}
newer() { # newer TARGET SOURCES...: TARGET is missing or older than a source
    t=$1; shift
    [ -f "$t" ] || return 0
    for s in "$@"; do [ "$s" -nt "$t" ] && return 0; done
    return 1
}
T=tools/trace
if newer "$OUTDIR/wbtrace_patch.sm_$CC_GPU.fatbin" $T/trace_patch.cu $T/wbtrace.h; then
    # the barrier callback takes a flags argument in newer toolkits
    bflags=
    grep -Eq 'SanitizerCallbackBarrier\)\(.*threadCount, *uint32_t flags\)' "$SAN/include/sanitizer_patching.h" &&
        bflags=-DWBT_BARRIER_FLAGS
    "$NVCC" --fatbin --compile-as-tools-patch -gencode "arch=compute_$CC_GPU,code=sm_$CC_GPU" $bflags \
        -I"$SAN/include" -o "$OUTDIR/wbtrace_patch.sm_$CC_GPU.fatbin" $T/trace_patch.cu || {
        echo "trace: building the patches (tools/trace/trace_patch.cu) failed" >&2; exit 3; }
fi
CUDA_INC=$(dirname "$(dirname "$(readlink -f "$(command -v "$NVCC")")")")/include
if newer "$OUTDIR/libwbtrace.so" $T/trace_inject.c $T/wbtrace.h; then
    ${TRACE_CC:-gcc} -O2 -std=c11 -fPIC -shared -I"$SAN/include" -I"$CUDA_INC" -o "$OUTDIR/libwbtrace.so" \
        $T/trace_inject.c -L"$SAN" -lsanitizer-public || {
        echo "trace: building the injection library (tools/trace/trace_inject.c) failed" >&2; exit 3; }
fi
if newer "$OUTDIR/trace_draw" $T/trace_draw.c $T/draw.h $T/draw_*.c; then
    ${TRACE_CC:-gcc} -O2 -std=c11 -Wall -o "$OUTDIR/trace_draw" $T/trace_draw.c $T/draw_*.c || {
        echo "trace: building tools/trace/trace_draw.c failed" >&2; exit 3; }
fi

# The library path of the traced run: the Sanitizer API's folder (the
# library needs libsanitizer-public.so; without it nothing is traced), and of
# the caller's LD_LIBRARY_PATH only the folders of the driver (libcuda.so.1),
# so that no other C++ runtime comes into the Sanitizer API's libraries.
driver_dirs=
old_ifs=$IFS; IFS=:
for d in ${LD_LIBRARY_PATH:-}; do
    [ -n "$d" ] && [ -e "$d/libcuda.so.1" ] && driver_dirs="$driver_dirs:$d"
done
IFS=$old_ifs

REC=$OUTDIR/$LAB.$(echo "$KERNEL" | tr -c 'A-Za-z0-9_\n' '_').trace
# traced_run LIBRARY_PATH: the binary's --check run under the trace
traced_run() {
    rm -f "$REC" "$REC.csv" "$REC.err"
    env CUDA_INJECTION64_PATH="$OUTABS/libwbtrace.so" LD_LIBRARY_PATH="$1" \
        WB_TRACE_KERNEL="${TRACE_AS:-$KERNEL}" WB_TRACE_OUT="$REC" \
        WB_TRACE_PATCHES="$OUTABS/wbtrace_patch.sm_$CC_GPU.fatbin" \
        "$BINARY" --check -k "$KERNEL" -n "$N" ${B:+-b "$B"} >"$REC.csv" 2>"$REC.err"
}
t0=$(date +%s.%N)
traced_run "$SAN$driver_dirs"
st=$?
# A kernel the default size does not launch (a launcher that runs another
# kernel on small inputs: lab05's reduceModern runs reduceModernSmall at
# n = 64): without -n, the next larger sizes, 4x each, until one launches it;
# the drawing then says which size that was
size_note=
if [ -z "$N_GIVEN" ] && [ $st -ne 2 ] && grep -q '^status not-launched' "$REC" 2>/dev/null &&
    grep -q '^launched ' "$REC"; then
    first=$N
    other=$(sed -n 's/^launched //p' "$REC")
    if [ $matrix -eq 1 ]; then sizes="128x128 256x256 512x512 1024x1024"
    else sizes="256 1024 4096 16384 65536 262144 1048576"; fi
    for N in $sizes; do
        traced_run "$SAN$driver_dirs"
        st=$?
        [ $st -eq 2 ] && break
        grep -q '^status not-launched' "$REC" 2>/dev/null || break
    done
    if grep -q '^status not-launched' "$REC" 2>/dev/null; then
        N=$first
        # no size launches a kernel of the row's name: the row's launcher runs
        # kernels of other names (lab05's reduce2DModern runs reduceModern,
        # colSumCoalesced colSumPartial then colSumChunks). -k ran that row
        # alone, so what it launched is the row's: the first of them is traced
        TRACE_AS=${other%% *}
        traced_run "$SAN$driver_dirs"
        st=$?
        if grep -q '^status traced' "$REC" 2>/dev/null; then
            size_note="  row $KERNEL runs $(echo "$other" | cut -c 1-40), no kernel of its name: traced $TRACE_AS"
        else
            TRACE_AS=
            traced_run "$SAN$driver_dirs" # the first size's record again: its message names what ran
            st=$?
        fi
    else
        size_note="  -n $first does not launch $KERNEL (it launched $(echo "$other" | cut -c 1-50));
  traced at -n $N, the first size (4x larger each step) that launches it"
    fi
fi
t1=$(date +%s.%N)
if [ $st -eq 2 ]; then
    cat "$REC.err" >&2
    exit 2
fi
if [ ! -s "$REC" ]; then
    echo "trace: $LAB wrote no record (exit $st): $(grep -v '^wbtrace' "$REC.err" | head -n 1 | cut -c 1-50)" >&2
    exit 3
fi
if [ $st -gt 128 ] && ! grep -q '^status traced' "$REC"; then
    echo "trace: $LAB died of signal $((st - 128)) before the kernel was recorded (see $REC.err)" >&2
    exit 3
fi
# the kernel's name as the source spells it, where c++filt is at hand
if command -v c++filt >/dev/null 2>&1 && grep -q '^name _Z' "$REC"; then
    demangled=$(sed -n 's/^name //p' "$REC" | c++filt)
    awk -v d="$demangled" '/^name / && !done { print "name " d; done = 1; next } { print }' "$REC" >"$REC.tmp" &&
        mv "$REC.tmp" "$REC"
fi
# the drawing's options, an --svg file made relative to the caller's folder
n_opts=$#
while [ $n_opts -gt 0 ]; do
    a=$1; shift; n_opts=$((n_opts - 1))
    if [ "$a" = --svg ] && [ $n_opts -gt 0 ]; then
        f=$1; shift; n_opts=$((n_opts - 1))
        case $f in /*) ;; *) f=$CALLER_DIR/$f ;; esac
        set -- "$@" --svg "$f"
    else
        set -- "$@" "$a"
    fi
done
[ -n "$size_note" ] && echo "$size_note"
"$OUTDIR/trace_draw" "$@" "$REC"
dst=$?
[ $dst -eq 0 ] || exit 3
[ $st -gt 128 ] && echo "  (the program ended with signal $((st - 128)) after the record was written; stderr: $REC.err)"
verdict=$(awk -F, -v k="$KERNEL" 'NR > 1 && $2 == k { v = $11 } END { print v }' "$REC.csv")
echo "  verdict of $KERNEL on this input (-n $N${B:+ -b $B}): ${verdict:-none}; traced in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
echo "  record: $REC"
case $verdict in
    PASS) exit 0 ;;
    *) exit 1 ;;
esac
