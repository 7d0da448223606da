/*
 * atomiclab.cu - a reduction lab of its own, the second example of
 * docs/maintainers.md (tests/tools/newlab.sh builds it as a new lab by the
 * guide, beside the scan lab): every thread adds its element to one total
 * with atomicAdd. One pass, no tree, int only. Its exercise is in
 * exercises.cuh beside it (tests/example/atomiclab_exercises.cuh here).
 */
#include "workbook.h"
#include "exercises.cuh" /* reduceSmemAtomic, the student's */

/* Each thread's element into g_odata[0]; the elements past n are not read. */
__global__ void reduceAtomicAll(const int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&g_odata[0], g_idata[i]);
}

/* The harness poisons the output before every run, it does not zero it: a
 * kernel that adds into it must clear it first, here before the launch. */
static void launch_reduceAtomicAll(void *data, void *partial, unsigned n, unsigned grid, unsigned block,
                                   wb_type)
{
    CHECK(cudaMemsetAsync(partial, 0, sizeof(int)));
    reduceAtomicAll<<<grid, block>>>((const int *)data, (int *)partial, n);
    CHECK_LAUNCH("reduceAtomicAll");
}

/* int only (.types left 0): the float and double bounds assume per-block
 * trees, and one chain of n atomic additions is none. */
static const wb_reduce_kernel kernels[] = {
    WB_KERNEL("reduceAtomicAll", "every element added to one total with atomicAdd: one pass, no tree",
              launch_reduceAtomicAll, .per_thread = 1, .one_pass = 1, .guards_n = 1),
};
static const wb_reduce_kernel exercises[] = {
    WB_EXERCISE(reduceSmemAtomic, "write", "reduceAtomicAll",
                "each block's sum with atomicAdd on a shared total, then one partial sum a block",
                .per_thread = 1, .guards_n = 1),
};

static const wb_lab lab = WB_REDUCTION_LAB("atomiclab", "atomicAdd: one total, no tree", NULL, NULL, kernels,
                                           WB_TABLE(exercises), "tests/example/atomiclab_exercises.cuh");
static const wb_program program = WB_REDUCTION_PROGRAM(lab);

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
