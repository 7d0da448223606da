#!/bin/sh
# sass_sums.sh [MAKEVARS...] - one line per kernel of every nvcc object that
# `make test-build` compiles: "kernel md5 of its SASS bytes (.text.<kernel> of an
# sm_90 cubin)", sorted. Needs no GPU and no cuobjdump: the compile lines come
# from `make -Bn V=1`, with -c -o X.o turned into -cubin. Run it before and after
# a change, then diff the two outputs: any line that differs is a kernel whose
# machine code changed. Extra make variables (SOLUTIONS=1, NOCDP=1, DLCM=cg) pass on.
set -e
out=$(mktemp -d)
make -Bn CUDA_ARCH=90 V=1 "$@" test-build all 2>/dev/null | grep -E '^nvcc .* -c -o [^ ]+\.o ' |
sed -e 's/-gencode arch=compute_90,code=\[sm_90,compute_90\]/-arch=sm_90/' -e 's/-MMD -MP//' |
while read -r line; do
    obj=$(printf '%s\n' "$line" | sed -e 's/.* -o \([^ ]*\)\.o .*/\1/' | tr / _)
    cmd=$(printf '%s\n' "$line" | sed -e "s| -c -o [^ ]*\.o | -cubin -o $out/$obj.cubin |")
    sh -c "$cmd" || { echo "sass_sums: failed: $cmd" >&2; exit 1; }
done
for c in "$out"/*.cubin; do
    readelf -W -S "$c" 2>/dev/null | sed -n 's/.*\] \.text\.\([^ ]*\) .*/\1/p' | while read -r k; do
        printf '%s %s\n' "$k" "$(readelf -W -x ".text.$k" "$c" 2>/dev/null | tail -n +3 | md5sum | cut -c1-12)"
    done
done | sort
rm -rf "$out"
