/*
 * lab03.cu - interleaved pairing: contiguous working threads, coalesced access.
 *
 *   make lab03 && ./lab03            three kernels at n = 2^24, block 512
 *   ./lab03 --explain                threads, warps and sectors at each step (no GPU needed)
 *   ./lab03 -k reduceInterleaved -n 1000003 -b 128 --csv
 *   ./lab03 --exercises              your exercises (exercises.cuh) beside their rows
 *
 * The kernels, side by side (Cheng et al., ch. 3):
 *   1 reduceNeighbored      lab02: tid % (2*stride) == 0 (divergent warps)
 *   2 reduceNeighboredLess  lab02: index = 2*stride*tid (packed threads, but
 *                           their elements are 2*stride apart)
 *   3 reduceInterleaved     stride = blockDim.x/2, then halving: thread tid
 *                           adds idata[tid + stride] into idata[tid]; the
 *                           working threads AND their elements are contiguous
 * lab02's kernels are included from lab02_neighbored/, not copied. Each kernel
 * reduces its block's slice in place in global memory and leaves one partial
 * sum per block; the host adds the partial sums, as the book does. The
 * speedups are against the first row, reduceNeighbored (an exercise's against
 * reduceInterleaved). The student's exercises are in exercises.cuh
 * (solutions/ with SOLUTIONS=1), all three "write it":
 *   reduceInterleaved2           two elements per thread, then the tree
 *   reduceInterleavedAnyN        no zero padding: every read checks n
 *   reduceInterleavedGridStride  a grid sized to the GPU, a grid-stride loop
 * Chapter: docs/lab03.md.
 */
#include "workbook.h"
#include "../lab02_neighbored/reduce_neighbored.cuh"
#include "../lab02_neighbored/explain_tree.cuh"
#include "reduce_interleaved.cuh"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

#include <stdlib.h>

/* name, lesson; launch; per_thread; min, max block; in_place; one_pass; grid_for */
static const wb_reduce_kernel kernels[] = {
    {{"reduceNeighbored", "lab02's first kernel: tid % (2*stride) == 0, divergent warps"},
     launch_reduceNeighbored, 1, 32, 1024, 1, 0, NULL},
    {{"reduceNeighboredLess", "lab02's second: packed threads, but their elements lie 2*stride apart"},
     launch_reduceNeighboredLess, 1, 32, 1024, 1, 0, NULL},
    {{"reduceInterleaved",
      "stride halving from blockDim.x/2: contiguous threads on contiguous elements (coalesced)"},
     launch_reduceInterleaved, 1, 32, 1024, 1, 0, NULL},
};

/* ---------------------------------------------------------------------- */
/* The exercises (exercises.cuh): launchers, a grid, and their table       */
/* ---------------------------------------------------------------------- */
WB_REDUCE_LAUNCHER(reduceInterleaved2)

WB_REDUCE_LAUNCHER(reduceInterleavedAnyN)

/* The grid of reduceInterleavedGridStride: as many blocks as the GPU holds
 * at once (blocks per SM for this kernel and block, times the SMs: one
 * wave, every thread slot busy), but never more than ceil(n / block), so no
 * block is without elements. Without a device (g NULL) the n-sized grid. */
static unsigned grid_reduceInterleavedGridStride(unsigned n, unsigned block, const wb_gpu *g)
{
    unsigned long long need = (unsigned long long)wb_ceil_div(n, block), want;
    int per_sm = 0;
    if (!g)
        return (unsigned)need;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduceInterleavedGridStride, (int)block, 0));
    if (per_sm < 1)
        per_sm = 1;
    want = (unsigned long long)per_sm * (unsigned)g->sm_count;
    return (unsigned)(want < need ? want : need);
}

WB_REDUCE_LAUNCHER(reduceInterleavedGridStride)

/* name, task, kind, against; launch; per_thread; min, max block; in_place; one_pass; grid_for; guards_n */
static const wb_reduce_kernel exercises[] = {
    {{"reduceInterleaved2", "each thread first adds 2 elements a block apart: half the blocks", "write",
      "reduceInterleaved"},
     launch_reduceInterleaved2, 2, 32, 1024, 1, 0, NULL, 0},
    {{"reduceInterleavedAnyN", "nothing past n is zero: every read checks n, every thread syncs", "write",
      "reduceInterleaved"},
     launch_reduceInterleavedAnyN, 1, 32, 1024, 1, 0, NULL, 1},
    {{"reduceInterleavedGridStride", "a grid sized to the GPU: a grid-stride loop, then the tree", "write",
      "reduceInterleaved"},
     launch_reduceInterleavedGridStride, 1, 32, 1024, 1, 0, grid_reduceInterleavedGridStride, 1},
};

static const wb_lab lab = WB_RELAUNCHING_LAB(
    "lab03", "interleaved pairing in global memory: fewer warps and coalesced access",
    NULL, NULL, kernels, WB_TABLE(exercises), "lab03_interleaved/exercises.cuh");

/* The same three kernels as the explainer sees them (same order as kernels[]). */
static const tree_kernel explained[] = {
    EXPLAIN_NEIGHBORED,
    EXPLAIN_NEIGHBORED_LESS,
    EXPLAIN_INTERLEAVED,
};

static void explain(const wb_args *a)
{
    int status = explain_tree(
        "lab03", explained, (int)(sizeof explained / sizeof explained[0]), a,
        "What to notice: reduceNeighboredLess and reduceInterleaved keep the same few warps\n"
        "active and make the same load requests, but reduceNeighboredLess's working threads\n"
        "touch elements 2*stride apart, so one warp's load spreads over many sectors (up to 32\n"
        "in a block of 512), most of each sector unused. reduceInterleaved's working threads\n"
        "read consecutive ints: 4 sectors for a full warp, and far fewer sectors in all (about\n"
        "a quarter at -b 512). Same additions, same warps, less memory traffic: that is why\n"
        "reduceInterleaved is the fastest of the three (./lab03).");
    if (status != WB_EXIT_OK)
        exit(status);
}

int main(int argc, char **argv)
{
    return wb_reduce_main(&lab, kernels, argc, argv, explain);
}
