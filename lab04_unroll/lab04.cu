/*
 * lab04 - unrolling the reduction: more loads in flight, fewer barriers.
 *
 * Build and run:
 *     make lab04 && ./lab04              the table at n = 2^24, block 512
 *     ./lab04 --explain                  what one block does in each kernel (CPU only;
 *                                        explain.cu)
 *     ./lab04 --latency                  DRAM latency idle and under load: Little's law
 *                                        (latency.cu)
 *     ./lab04 -b 128 -n 1000003 --csv    another block and size, machine-readable
 *     ./lab04 --finish device            the total finished on the GPU: each kernel relaunched
 *                                        on its own partial sums until one value remains (PMPP)
 *
 * The kernels, in the order of the table (Cheng et al., Professional CUDA C
 * Programming, ch. 3); the kernels themselves are in reduce_unroll.cuh:
 *   reduceInterleaved           lab03's kernel (common/kernels/), the baseline
 *   reduceUnrolling2/4/8        each thread first adds 2, 4 or 8 elements
 *   reduceUnrollWarps8          + the last warp unrolled (__syncwarp, no barrier)
 *   reduceCompleteUnrollWarps8  + the whole tree written out
 *   reduceCompleteUnroll<B>     + the block size a template argument
 *
 * Every kernel is checked exactly against the CPU sum on every run; the exit
 * status is the verdict. The chapter is docs/lab04.md; --latency's is
 * docs/lab04-latency.md.
 */
#include "workbook.h"
#include "kernels/reduce_interleaved.cuh" /* lab03's kernel, the baseline */
#include "reduce_unroll.cuh"
#include "lab04.cuh" /* --explain, --latency */
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

/* The first pass of lab03's kernel, the baseline (lab03.cu launches it too). */
WB_REDUCE_LAUNCHER_T(reduceInterleaved, 0)

/* The table of kernels: the rows of ./lab04, --list and -k (and the rows of
 * --explain and --latency). Each reduces its block's slice in place
 * (in_place: the input is restored before every run), per_thread elements
 * per thread first, at any block of 32..1024, in every element type. */
static const wb_reduce_kernel kernels[] = {
    WB_KERNEL("reduceInterleaved",
              "lab03's interleaved tree, one element per thread: the baseline",
              launch_reduceInterleaved, .per_thread = 1, .in_place = 1, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceUnrolling2",
              "each thread first adds 2 elements a block apart: half the blocks, 2 loads in flight",
              launch_reduceUnrolling2, .per_thread = 2, .in_place = 1, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceUnrolling4",
              "4 elements per thread: 4 independent loads in flight per thread",
              launch_reduceUnrolling4, .per_thread = 4, .in_place = 1, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceUnrolling8",
              "8 elements per thread: enough bytes in flight to approach the DRAM ceiling",
              launch_reduceUnrolling8, .per_thread = 8, .in_place = 1, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceUnrollWarps8",
              "+ the last warp unrolled: 6 steps with __syncwarp() instead of __syncthreads()",
              launch_reduceUnrollWarps8, .per_thread = 8, .in_place = 1, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceCompleteUnrollWarps8",
              "+ the whole in-block tree written out: no loop counter, no loop branch",
              launch_reduceCompleteUnrollWarps8, .per_thread = 8, .in_place = 1,
              .types = WB_ALL_TYPES),
    WB_KERNEL("reduceCompleteUnroll",
              "+ the block size a template argument: unused steps vanish at compile time",
              launch_reduceCompleteUnroll, .per_thread = 8, .in_place = 1, .types = WB_ALL_TYPES),
};

/* ---------------------------------------------------------------------- */
/* The exercises (exercises.cuh): a grid, a launcher, their table          */
/* ---------------------------------------------------------------------- */
/* the student's grid, launched with the shipped reduceUnrolling8 */
static unsigned grid_unrolling8Grid(unsigned n, unsigned block, const wb_gpu *g, wb_type type)
{
    (void)g;
    (void)type; /* an exercise: int only */
    return grid_reduceUnrolling8Grid(n, block);
}

static void launch_reduceUnrolling8Grid(void *data, void *partial, unsigned n, unsigned grid,
                                        unsigned block, wb_type type)
{
    (void)type; /* an exercise: int only */
    if (grid == 0) /* the book's grid for n < 8 * block: nothing is launched, nothing summed */
        return;
    reduceUnrolling8<<<grid, block>>>((int *)data, (int *)partial, n);
    CHECK_LAUNCH("reduceUnrolling8 with the grid of grid_reduceUnrolling8Grid");
}

/* Each row: the task, write it or fix it, and the shipped row it is
 * measured against; int only (no .types). guards_n: the slots after the n
 * ints hold poison, not zeros, so a kernel that reads past n fails. */
static const wb_reduce_kernel exercises[] = {
    WB_EXERCISE(reduceUnrolling16, "write", "reduceUnrolling8",
                "16 elements per thread: are 16 loads in flight faster than 8?",
                .per_thread = 16, .in_place = 1),
    /* the shipped kernel with the student's grid: its own launch */
    {.info = {.name = "reduceUnrolling8Grid",
              .lesson = "n/block/8 blocks, the book's grid for reduceUnrolling8 as often copied: what is lost?",
              .kind = "fix", .against = "reduceUnrolling8"},
     .launch = launch_reduceUnrolling8Grid, .min_block = 32, .max_block = 1024, .per_thread = 8,
     .in_place = 1, .grid_for = grid_unrolling8Grid},
    WB_EXERCISE(reduceUnrolling4Tail, "fix", "reduceUnrolling4",
                "the book's reduceUnrolling4 when nothing past n is zero",
                .per_thread = 4, .in_place = 1, .guards_n = 1),
};

static const wb_lab lab = WB_RELAUNCHING_LAB(
    "lab04", "unrolling the reduction: more loads in flight, fewer barriers",
    "--latency", "the DRAM latency idle and under load, and the bytes in flight it takes", kernels,
    WB_TABLE(exercises), "lab04_unroll/exercises.cuh");

#define KERNELS ((int)(sizeof kernels / sizeof kernels[0]))

/* --explain: explain.cu, on this table */
static void explain(const wb_args *a)
{
    lab04_explain(a, kernels, KERNELS);
}

/* --latency: latency.cu, on this table */
static int latency(const wb_args *a)
{
    return lab04_latency(a, kernels, KERNELS);
}

/* --latency is this lab's own mode; -h, --list, --explain and every error
 * go the usual way */
static const wb_program program =
    WB_REDUCTION_PROGRAM(lab, .explain = explain, .mode = WB_MODE_OWN, .own_mode = latency);

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
