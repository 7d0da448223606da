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
#include "exercises.h" /* the exercise table (exercises.cu) */

#include <stdio.h>
#include <stdlib.h>

/* -------------------------------------------------------------------------- */
/* The launchers: one first pass each, one partial sum per block, in the     */
/* run's element type                                                         */
/* -------------------------------------------------------------------------- */
/* (the baseline, lab03's kernel: its launcher and row are
 * kernels/reduce_interleaved.cuh's) */
WB_REDUCE_LAUNCHER_T(reduceUnrolling2, 0)
WB_REDUCE_LAUNCHER_T(reduceUnrolling4, 0)
WB_REDUCE_LAUNCHER_T(reduceUnrolling8, 0)
WB_REDUCE_LAUNCHER_T(reduceUnrollWarps8, 0)
WB_REDUCE_LAUNCHER_T(reduceCompleteUnrollWarps8, 0)

/* A template needs its argument at compile time: one instance per block size
 * (and per element type: wb_with_type gives T).
 * differs from the book: the book's switch stops at 64, so a block of 32
 * launched nothing and "passed" on whatever the partial sums held before. */
static void launch_reduceCompleteUnroll(void *data, void *partial, unsigned n, unsigned grid,
                                        unsigned block, wb_type type)
{
    wb_with_type(type, [&](auto z) {
        using T = decltype(z);
        T *in = (T *)data, *out = (T *)partial;
        switch (block) {
        case 1024: reduceCompleteUnroll<1024><<<grid, block>>>(in, out, n); break;
        case 512:  reduceCompleteUnroll<512><<<grid, block>>>(in, out, n); break;
        case 256:  reduceCompleteUnroll<256><<<grid, block>>>(in, out, n); break;
        case 128:  reduceCompleteUnroll<128><<<grid, block>>>(in, out, n); break;
        case 64:   reduceCompleteUnroll<64><<<grid, block>>>(in, out, n); break;
        case 32:   reduceCompleteUnroll<32><<<grid, block>>>(in, out, n); break;
        default:
            /* the command line lets no other block through; say so if one comes */
            fprintf(stderr, "lab04: reduceCompleteUnroll has no instance for -b %u; give a power of "
                            "two from 32 to 1024\n", block);
            exit(WB_EXIT_USAGE);
        }
    });
    CHECK_LAUNCH("reduceCompleteUnroll");
}

/* The table of kernels: the rows of ./lab04, --list and -k (and the rows of
 * --explain and --latency). Each reduces its block's slice in place
 * (in_place: the input is restored before every run), per_thread elements
 * per thread first, at any block of 32..1024, in every element type. */
static const wb_reduce_kernel kernels[] = {
    INTERLEAVED_ROW("lab03's interleaved tree, one element per thread: the baseline"),
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

/* The exercises' table and their WB_TODO() flag are exercises.cu's. */
static const wb_lab lab = WB_RELAUNCHING_LAB_APART(
    lab04_exercises_todo_take, "lab04", "unrolling the reduction: more loads in flight, fewer barriers",
    "--latency", "the DRAM latency idle and under load, and the bytes in flight it takes", kernels,
    lab04_exercises, "lab04_unroll/exercises.cuh");

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

int main(int argc, char **argv) { return wb_reduce_main(&program, argc, argv); }
