/*
 * lab03.cu - interleaved pairing: contiguous working threads, coalesced access.
 *
 *   make lab03 && ./lab03            four kernels at n = 2^24, block 512
 *   ./lab03 --explain                threads, warps and sectors at each step (no GPU needed)
 *   ./lab03 -k reduceInterleaved -n 1000003 -b 128 --csv
 *   ./lab03 --exercises              your exercises (exercises.cuh) beside their rows
 *   ./lab03 -k reduceInterleaved,gpuRecursiveReduce --explain   the recursion, level by level
 *
 * The kernels, side by side (Cheng et al., ch. 3):
 *   1 reduceNeighbored      lab02: tid % (2*stride) == 0 (divergent warps)
 *   2 reduceNeighboredLess  lab02: index = 2*stride*tid (packed threads, but
 *                           their elements are 2*stride apart)
 *   3 reduceInterleaved     stride = blockDim.x/2, then halving: thread tid
 *                           adds idata[tid + stride] into idata[tid]; the
 *                           working threads AND their elements are contiguous
 *   4 gpuRecursiveReduce    (reduce_recursive.cuh) lab01's recursion on the
 *                           GPU: one grid per level of the interleaved
 *                           pairing over the whole array, each level
 *                           launching the next from the device (dynamic
 *                           parallelism, a tail launch); the sum, no partials
 * The first three are in common/kernels/ (lab02 teaches the first two, lab04
 * starts from the third); the fourth is this folder's. Each of the first three reduces its block's slice in place in global memory and
 * leaves one partial sum per block; the host adds the partial sums, as the
 * book does. The speedups are against the first row, reduceNeighbored (an
 * exercise's against the row it is measured against). The student's
 * exercises are in exercises.cuh (solutions/ with SOLUTIONS=1), compiled in
 * exercises.cu with their table:
 *   reduceInterleaved2           write it: two elements per thread, then the tree
 *   reduceInterleavedAnyN        write it: no zero padding: every read checks n
 *   reduceInterleavedGridStride  write it: a grid sized to the GPU, a grid-stride loop
 *   gpuRecursiveReduceNosync     fix it: a recursion ported from CUDA 11 by
 *                                deleting the device-side wait
 * Device-side launches need relocatable device code: the Makefile builds this
 * lab (alone) with -rdc=true and links it with the device runtime, cudadevrt.
 * `make lab03 NOCDP=1` (make sanitize does, into build/nocdp/) builds it
 * without, for the sanitizer tools that refuse a program able to launch from
 * the device: -DWB_NO_CDP leaves out the two recursive kernels.
 * Chapter: docs/lab03.md.
 */
#include "workbook.h"
#include "kernels/reduce_neighbored.cuh"
#include "kernels/reduce_interleaved.cuh"
#include "kernels/explain_tree.cuh" /* --explain */
#include "reduce_recursive.cuh"
#include "exercises.h" /* the exercise table (exercises.cu) */

#include <stdlib.h>
#include <string.h>

/* The table of kernels: the rows of ./lab03, --list and -k. The first three
 * (their launches and rows: kernels/reduce_neighbored.cuh and
 * reduce_interleaved.cuh) reduce their block's slice in place, one element
 * per thread, any block of 32..1024, every element type. */
static const wb_reduce_kernel kernels[] = {
    NEIGHBORED_ROW("lab02's first kernel: tid % (2*stride) == 0, divergent warps"),
    NEIGHBORED_LESS_ROW("lab02's second: packed threads, but their elements lie 2*stride apart"),
    INTERLEAVED_ROW("stride halving from blockDim.x/2: contiguous threads on contiguous elements "
                    "(coalesced)"),
#ifndef WB_NO_CDP /* built without dynamic parallelism (make sanitize, NOCDP=1): left out */
    /* one thread per pair (per_thread 2), the sum in partial[0] (one_pass),
     * nothing past n read (guards_n: the padding is poisoned to prove it),
     * one pairwise tree over the whole input (pairwise: its error bound) */
    WB_KERNEL("gpuRecursiveReduce",
              "lab01's recursion on the GPU: a grid per level, each launching the next (tail "
              "launch)",
              launch_gpuRecursiveReduce, .per_thread = 2, .in_place = 1, .one_pass = 1,
              .guards_n = 1, .types = WB_ALL_TYPES, .pairwise = 1),
#endif
};

/* The exercises' table and their WB_TODO() flag are exercises.cu's. */
static const wb_lab lab = WB_RELAUNCHING_LAB_APART(
    lab03_exercises_todo_take, "lab03",
    "interleaved pairing in global memory: fewer warps and coalesced access", NULL, NULL, kernels,
    lab03_exercises, "lab03_interleaved/exercises.cuh");

/* The first three kernels as the tree explainer sees them (same order as
 * kernels[]; gpuRecursiveReduce, the fourth, has its own lecture below). */
static const tree_kernel explained[] = {
    EXPLAIN_NEIGHBORED,
    EXPLAIN_NEIGHBORED_LESS,
    EXPLAIN_INTERLEAVED,
};
#define EXPLAINED_TREES ((int)(sizeof explained / sizeof explained[0]))
#define RECURSIVE_ROW 3 /* gpuRecursiveReduce's index in kernels[] */
#define RECURSIVE_TRACE_N 17 /* the array drawn, as lab01's --trace */

/* The launches gpuRecursiveReduce makes at n and block, level by level, and
 * the book's per-block recursion's count beside it. */
static void print_recursive_launches(unsigned n, unsigned block)
{
    unsigned len = n, level = 0;
    int col = 0;
    printf("At n = %u and -b %u, the blocks of each level's grid (one thread per pair):\n ", n, block);
    for (;;) {
        char item[24];
        int w = snprintf(item, sizeof item, " %u", recursive_level_grid(len, block));
        if (col + w > 96) {
            printf("\n ");
            col = 0;
        }
        printf("%s", item);
        col += w;
        ++level;
        if (len <= 2)
            break;
        len = (len + 1) / 2;
    }
    printf("\n%u grids (%u from the device), one per level. The book's nestedReduce recurses inside\n"
           "each block instead: thread 0 of each of the %lld blocks launches a one-block child on half\n"
           "its slice, down to 2 threads, %llu grids in all. Each launch costs a fixed time that\n"
           "no parallel work hides: that count is why the book's version is so slow.\n",
           recursive_grids(n), recursive_grids(n) - 1, wb_ceil_div(n, block), book_nested_grids(n, block));
}

/* lab01's --trace, as gpuRecursiveReduce's grids do it: the array after each
 * level (element i starts as i), checked against the sum. */
static int explain_recursive(const wb_args *a)
{
    int v[RECURSIVE_TRACE_N], i, ok;
    unsigned len = RECURSIVE_TRACE_N, level = 0;
    for (i = 0; i < RECURSIVE_TRACE_N; ++i)
        v[i] = i;
    printf("gpuRecursiveReduce --explain: lab01's interleaved recursion, one grid per level. With\n"
           "half = ceil(len/2), thread i adds element i + half into element i (i + half < len); thread 0\n"
           "of block 0 then launches the grid of the next level, on the first half elements, into\n"
           "cudaStreamTailLaunch: it starts when every block of this grid has finished. The level of\n"
           "len = 2 writes the sum to partial[0]. %d ints, element i starts as i:\n",
           RECURSIVE_TRACE_N);
    while (len > 1) {
        unsigned half = (len + 1) / 2, j;
        for (j = 0; j + half < len; ++j)
            v[j] += v[j + half];
        printf("  level %2u  len %2u  pairs %2u  ->", ++level, len, len - half);
        for (j = 0; j < half; ++j)
            printf(" %d", v[j]);
        printf("\n");
        len = half;
    }
    ok = v[0] == RECURSIVE_TRACE_N * (RECURSIVE_TRACE_N - 1) / 2;
    printf("  sum %d: %s\n\n", v[0], ok ? "correct" : "WRONG");
    print_recursive_launches((unsigned)a->n, (unsigned)a->block_x);
    return ok;
}

static void explain(const wb_args *a)
{
    int status = WB_EXIT_OK, i, trees = 0;
    for (i = 0; i < EXPLAINED_TREES; ++i)
        trees = trees || a->selected[i];
    if (trees)
        status = explain_tree(
            "lab03", explained, EXPLAINED_TREES, a,
            "What to notice: reduceNeighboredLess and reduceInterleaved keep the same few warps\n"
            "active and make the same load requests, but reduceNeighboredLess's working threads\n"
            "touch elements 2*stride apart, so one warp's load spreads over many sectors (up to 32\n"
            "in a block of 512), most of each sector unused. reduceInterleaved's working threads\n"
            "read consecutive ints: 4 sectors for a full warp, and far fewer sectors in all (about\n"
            "a quarter at -b 512). Same additions, same warps, less memory traffic: that is why\n"
            "reduceInterleaved is the fastest of the three (./lab03).");
    if (a->selected[RECURSIVE_ROW]) {
        if (trees)
            printf("\n");
        if (!explain_recursive(a) && status == WB_EXIT_OK)
            status = WB_EXIT_WRONG;
    }
    if (status != WB_EXIT_OK)
        exit(status);
}

/* Under the table: how many grids gpuRecursiveReduce launched (its time is
 * mostly their count), beside the book's per-block recursion. */
static void recursive_notes(const wb_report *r, FILE *out)
{
    int i;
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        if (strcmp(w->kernel, "gpuRecursiveReduce") != 0 || w->todo)
            continue;
        fprintf(out, "gpuRecursiveReduce at n = %lld: %u grids, one per level, each launched by the one\n"
                     "before it (a tail launch); the book's per-block recursion: %llu grids (--explain).\n\n",
                w->n, recursive_grids((unsigned)w->n), book_nested_grids((unsigned)w->n, w->block_x));
    }
}

/* gpuRecursiveReduce has no first pass of its own: its row times the whole recursion */
static const wb_program program = WB_REDUCTION_PROGRAM(
    lab, .explain = explain,
    .timed = "the kernel's first pass alone (CUDA events), one partial sum per block; gpuRecursiveReduce: "
             "its whole recursion, every level, to one number");

int main(int argc, char **argv)
{
    wb_run run;
    int status = wb_main_rows(&program, argc, argv, &run);
    if (status >= 0)
        return status;
    wb_reduce_notes(&run);
    recursive_notes(run.r, wb_report_notes(run.r));
    return wb_main_end(&run);
}
