/*
 * exercises.cuh - YOUR exercises for lab04 (unrolling). This is the file you edit.
 *
 *   make lab04 && ./lab04 --exercises     each exercise's row right under the row of the
 *                                         kernel it is measured against: todo, PASS or FAIL
 *   ./lab04 -k reduceUnrolling16          one exercise (and its reference row)
 *   make sanitize                         compute-sanitizer on the lab (docs/lab04.md)
 *
 * Two kinds of exercise:
 *   write it  a stub whose body is WB_TODO(). Until you delete that line the
 *             row says `todo` (not run, not timed). Then it is checked exactly
 *             against the CPU sum like every kernel, and timed the same way.
 *   fix it    a kernel (or the host code that launches it) as a well-known
 *             version has it, bug included. As shipped it FAILs: find the bug,
 *             fix it, and the row says PASS.
 * --exercises runs at n = 16777213 (2^24 - 3) unless you give -n: that length
 * is no multiple of any block or unroll factor, so a dropped tail shows.
 * Test other sizes and blocks too (-n 1000003 -b 128, -n 5 -b 32, ...): a
 * correct kernel passes them all.
 *
 * The contract is the one of reduce_unroll.cuh: g_idata holds the n inputs,
 * then zeros up to gridDim.x * blockDim.x * U (U: the kernel's unroll
 * factor), except where an exercise says otherwise; block b works in place on
 * its slice and writes its partial sum to g_odata[b]; the host adds the
 * partial sums. blockDim.x is a power of two from 32 to 1024.
 *
 * Handing in: `make handin NAME=yourname` writes the CSV of every lab's
 * --exercises run. The chapter's Exercises section: docs/lab04.md.
 */
#ifndef LAB04_EXERCISES_CUH
#define LAB04_EXERCISES_CUH

#include "workbook.h"

/* -------------------------------------------------------------------------- */
/* Exercise 1 (write it): reduceUnrolling16                                   */
/* -------------------------------------------------------------------------- */
/*
 * Each thread first adds 16 elements, one block-width apart, then the block
 * runs the in-place tree of reduceUnrolling8. The grid is
 * ceil(n / (16 * blockDim.x)); the last block may be partial, so add only the
 * elements below n (the zero padding covers the slots the tree reads).
 *
 * Hint: start from reduceUnrolling8 in reduce_unroll.cuh. Keep the 16 loads
 * independent (16 registers, then one sum) so that all of them are in flight
 * at once. Is 16 faster than 8? ./lab04 --latency says how many bytes must be
 * in flight to fill this GPU's memory system; work out what 8 already gives.
 *
 * Measured against reduceUnrolling8. PASS: the exact sum at every n and block.
 * Graded: PASS, and at least 0.95x reduceUnrolling8's speed in the same run.
 */
__global__ void reduceUnrolling16(int *g_idata, int *g_odata, unsigned int n)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 2 (fix it): reduceUnrolling8Grid                                  */
/* -------------------------------------------------------------------------- */
/*
 * n / block / 8 blocks: the grid of the book's host code for reduceUnrolling8
 * as it is often copied (the book itself divides a grid of ceil(n / block)
 * blocks by 8). The kernel is reduceUnrolling8 itself (reduce_unroll.cuh,
 * which is correct); only the grid below is yours. As shipped the row FAILs:
 * find which elements no block ever reads, and fix the grid (host code,
 * plain C).
 *
 * Measured against reduceUnrolling8. PASS: the exact sum at every n and block.
 * Graded: PASS, and at least 0.95x reduceUnrolling8's speed in the same run.
 */
static unsigned grid_reduceUnrolling8Grid(unsigned n, unsigned block)
{
    return n / block / 8;
}

/* -------------------------------------------------------------------------- */
/* Exercise 3 (fix it): reduceUnrolling4Tail                                  */
/* -------------------------------------------------------------------------- */
/*
 * reduceUnrolling4 as the book writes it. In this exercise the slots after
 * the n inputs are NOT zeros (the harness fills them with 0x55555555): the
 * kernel must look at n itself and read nothing past it. As shipped the row
 * FAILs. Which threads skip their first phase, and what do their slots still
 * hold when the tree adds them?
 *
 * The grid is the harness's, as for reduceUnrolling4: ceil(n / (4 * blockDim.x))
 * blocks, so the last block may hold fewer than 4 * blockDim.x elements.
 *
 * Measured against reduceUnrolling4. PASS: the exact sum at every n and block.
 * Graded: PASS, and at least 0.95x reduceUnrolling4's speed in the same run.
 */
__global__ void reduceUnrolling4Tail(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 4;

    if (idx + 3 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4;
    }
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

#endif /* LAB04_EXERCISES_CUH */
