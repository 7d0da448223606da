/*
 * lab02.cu - the first GPU reduction: neighbored pairing and warp divergence.
 *
 *   make lab02 && ./lab02            both kernels at n = 2^24, block 512
 *   ./lab02 --explain                which threads and warps work at each step (no GPU needed)
 *   ./lab02 -n 1000003 -b 128 --csv  any n from 1, any block 32..1024
 *   ./lab02 --exercises              your exercises (exercises.cuh) beside their rows
 *   ./lab02 --finish device          the total finished on the GPU: each kernel relaunched
 *                                    on its own partial sums until one value remains (PMPP)
 *
 * The kernels (common/kernels/reduce_neighbored.cuh, since lab03 shows them
 * too) are the book's (Cheng et al., ch. 3); their launches are below:
 *   1 reduceNeighbored      tid % (2*stride) == 0 picks the working threads:
 *                           they are spread over every warp (divergence)
 *   2 reduceNeighboredLess  index = 2*stride*tid: the same additions, done by
 *                           the first threads, so whole warps fall idle
 * Each reduces its block's slice in place in global memory and leaves one
 * partial sum per block; the host adds the partial sums, as the book does.
 * The harness (common/reduce.cu) makes the input, pads it with zeros to whole
 * blocks, checks every result exactly, and times the first pass (CUDA events,
 * L2 flushed, input restored outside the timing) and the whole reduction.
 * The student's exercises are in exercises.cuh (solutions/ with SOLUTIONS=1),
 * compiled in exercises.cu with their table:
 *   reduceNeighboredMask       write it: the mask (tid & (2*stride - 1)) for
 *                              the remainder; how much of the gap is the %?
 *   reduceNeighboredEarlyExit  fix it: the book's if (idx >= n) return;
 *   reduceNeighboredLessOut    fix it: the partial sum written to g_odata[tid]
 * Chapter: docs/lab02.md.
 */
#include "workbook.h"
#include "kernels/reduce_neighbored.cuh"
#include "kernels/explain_tree.cuh" /* --explain */
#include "exercises.h" /* the exercise table (exercises.cu) */

#include <stdlib.h>

/* The table of kernels: the rows of ./lab02, --list and -k. The kernels,
 * their launches (grid blocks of block threads, one partial sum per block)
 * and their rows are in kernels/reduce_neighbored.cuh; the lessons are
 * lab02's. */
static const wb_reduce_kernel kernels[] = {
    NEIGHBORED_ROW("tid % (2*stride) == 0 picks the workers: every warp stays busy while fewer of "
                   "its threads work"),
    NEIGHBORED_LESS_ROW("index = 2*stride*tid: the same additions packed into the first warps, the "
                        "rest fall idle"),
};

/* The exercises' table and their WB_TODO() flag are exercises.cu's. */
static const wb_lab lab = WB_RELAUNCHING_LAB_APART(
    lab02_exercises_todo_take, "lab02", "neighbored pairing in global memory and warp divergence",
    NULL, NULL, kernels, lab02_exercises, "lab02_neighbored/exercises.cuh");

/* The same two kernels as the explainer sees them (same order as kernels[]). */
static const tree_kernel explained[] = {
    EXPLAIN_NEIGHBORED,
    EXPLAIN_NEIGHBORED_LESS,
};

static void explain(const wb_args *a)
{
    int status = explain_tree(
        "lab02", explained, (int)(sizeof explained / sizeof explained[0]), a,
        "What to notice: both kernels make the same additions in the same number of steps. In\n"
        "reduceNeighbored the working threads are spread over the whole block, so every warp\n"
        "stays active until the stride reaches 32, doing less and less useful work (its idle\n"
        "lanes wait: divergence). reduceNeighboredLess packs the same work into the first\n"
        "threads, so after the first step whole warps skip the step's loads, add and store:\n"
        "compare the warp-steps and load requests above, at -b 512 above all. Divergence is\n"
        "not the whole gap on the GPU (./lab02), though: reduceNeighbored also computes\n"
        "tid % (2*stride), a sequence of instructions, in every warp at every step. Your\n"
        "reduceNeighboredMask (the same working threads, a mask instead of the %) runs\n"
        "between the two in ./lab02 --exercises: its row shows how much of the gap is the %.\n"
        "And reduceNeighboredLess loads as many sectors as reduceNeighbored: its threads'\n"
        "elements lie 2*stride apart. lab03's interleaved pairing fixes that.");
    if (status != WB_EXIT_OK)
        exit(status);
}

static const wb_program program = WB_REDUCTION_PROGRAM(lab, .explain = explain);

int main(int argc, char **argv) { return wb_reduce_main(&program, argc, argv); }
