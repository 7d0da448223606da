/*
 * bad_reduce.cu - the reduction runner (common/reduce.cu) against three
 * broken kernels: one that writes nothing, one that writes half its partial
 * sums, one that writes one past its last. Each row must FAIL in every
 * configuration (tests/gpu/gpu_harness.sh): a runner that stops poisoning
 * or checks less than it should turns the suite red.
 */
#include "workbook.h"

/* The right partial sum of this block's slice, by thread 0 (slow, plain). */
__device__ int slice_sum(const int *in, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x, end = i + blockDim.x < n ? i + blockDim.x : n;
    int s = 0;
    for (; i < end; ++i)
        s += in[i];
    return s;
}

__global__ void writesNothing(int *in, int *out, unsigned n) {}

__global__ void writesHalf(int *in, int *out, unsigned n)
{
    if (threadIdx.x == 0 && blockIdx.x < gridDim.x / 2)
        out[blockIdx.x] = slice_sum(in, n);
}

__global__ void writesPast(int *in, int *out, unsigned n)
{
    if (threadIdx.x == 0)
        out[blockIdx.x] = slice_sum(in, n);
    if (threadIdx.x == 0 && blockIdx.x == gridDim.x - 1)
        out[gridDim.x] = 0;
}

static const wb_reduce_kernel kernels[] = {
    WB_KERNEL("writesNothing", "writes no partial sum", WB_INT_LAUNCH(writesNothing), .per_thread = 1),
    WB_KERNEL("writesHalf", "writes the first half of its partial sums", WB_INT_LAUNCH(writesHalf),
              .per_thread = 1),
    WB_KERNEL("writesPast", "writes its partial sums and one more after them", WB_INT_LAUNCH(writesPast),
              .per_thread = 1),
};

static const wb_lab lab = WB_RELAUNCHING_LAB("bad_reduce", "the reduction runner's broken kernels", NULL, NULL,
                                             kernels, WB_NO_EXERCISES, "");

static const wb_program program = WB_REDUCTION_PROGRAM(lab);

int main(int argc, char **argv) { return wb_reduce_main(&program, argc, argv); }
