/*
 * exercises.cu - lab03's exercises, in the one file that compiles the
 * student's exercises.cuh (or, built with SOLUTIONS=1, the instructor's):
 * the grid of one of them, their table and the reader of the WB_TODO() flag
 * their kernels set (exercises.h). Only this file is compiled again when
 * exercises.cuh changes; like every file of lab03 it is built with -rdc=true
 * (the fourth exercise launches from the device) unless NOCDP=1.
 */
#include "workbook.h"
#include "exercises.h"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

/* The grid of reduceInterleavedGridStride: as many blocks as the GPU holds
 * at once (blocks per SM for this kernel and block, times the SMs: one
 * wave, every thread slot busy), but never more than ceil(n / block), so no
 * block is without elements. Without a device (g NULL) the n-sized grid. */
static unsigned grid_reduceInterleavedGridStride(unsigned n, unsigned block, const wb_gpu *g, wb_type type)
{
    unsigned long long need = (unsigned long long)wb_ceil_div(n, block), want;
    int per_sm = 0;
    (void)type; /* an exercise: int only */
    if (!g)
        return (unsigned)need;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduceInterleavedGridStride, (int)block, 0));
    if (per_sm < 1)
        per_sm = 1;
    want = (unsigned long long)per_sm * (unsigned)g->sm_count;
    return (unsigned)(want < need ? want : need);
}

/* Each row: the task, write it or fix it, and the shipped row it is
 * measured against; int only (no .types). guards_n: the slots after the n
 * ints hold poison, not zeros, so a kernel that reads past n fails. */
static const wb_reduce_kernel exercises[] = {
    WB_EXERCISE(reduceInterleaved2, "write", "reduceInterleaved",
                "each thread first adds 2 elements a block apart: half the blocks",
                .per_thread = 2, .in_place = 1),
    WB_EXERCISE(reduceInterleavedAnyN, "write", "reduceInterleaved",
                "nothing past n is zero: every read checks n, every thread syncs",
                .per_thread = 1, .in_place = 1, .guards_n = 1),
    WB_EXERCISE(reduceInterleavedGridStride, "write", "reduceInterleaved",
                "a grid sized to the GPU: a grid-stride loop, then the tree",
                .per_thread = 1, .in_place = 1, .grid_for = grid_reduceInterleavedGridStride,
                .guards_n = 1),
#ifndef WB_NO_CDP
    WB_EXERCISE(gpuRecursiveReduceNosync, "fix", "gpuRecursiveReduce",
                "a CUDA 11 recursion ported by deleting its wait: what runs first?",
                .per_thread = 2, .in_place = 1, .one_pass = 1, .guards_n = 1),
#endif
};

/* The table (exercises.h) */
extern const wb_table lab03_exercises = WB_TABLE(exercises);

/* The exercises' kernels are compiled here, so the WB_TODO() flag they set
 * is this file's. */
int lab03_exercises_todo_take(void)
{
    return WB_TODO_TAKE();
}
