# tests/gpu/gpu_lab05_sm75.sh - lab05's code for GPUs before compute
# capability 8.0 on the GPU at hand (POSIX sh, from the repository root):
# modern.cuh's __CUDA_ARCH__ < 800 path, the warp's int sum in five shuffles
# where 8.0 and later take one redux.sync. make test builds lab05 for sm_75
# alone into build/sm75/ (CUDA_ARCH=75); on a newer GPU the driver compiles
# its PTX at the first launch (the JIT: a run of its own here, beside the
# other suites). The kernels that take that path, exact under --check: the
# one-pass reductions at odd, edge and large sizes, the smallest, a middle
# and the largest block, in each type; the whole-matrix sum at odd shapes.
# gpu-memory: 256 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

S75=build/sm75/lab05
if [ ! -x $S75 ]; then
    skip "lab05 sm_75 code" "$S75 not built (make test builds it where a GPU is)"
    exit 0
fi
check_cross "lab05 sm_75 code" "reduceModern reduceAtomic" $S75 --check -k reduceModern,reduceAtomic \
    -n 1,5,33,1025,4097,100003,1000003,16777213 -b 32,128,1024 --type int,float,double
check_cross "lab05 sm_75 code, matrix" "reduce2DModern" $S75 --check -k reduce2DModern \
    -n 1x1,1023x1025,4097x3,8192x8192 -b 16x16,32x8
# the build is the sm_75 one (its CSV's build column)
run $S75 -k reduceModern -n 1000 -r 1 --csv
if [ "$STATUS" -eq 0 ] && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "build") c = i; next }
        $c == "sm_75" { f = 1 } END { exit !f }' "$OUTF"; then ok "lab05 sm_75 code: its build column says sm_75"
else notok "lab05 sm_75 code: its build column" "exit $STATUS; $(head -c 300 "$OUTF")"; fi
