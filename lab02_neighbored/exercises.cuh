/*
 * exercises.cuh - YOUR exercises for lab02 (neighbored pairing). This is the file you edit.
 *
 *   make lab02 && ./lab02 --exercises     each exercise's row right under the row of the
 *                                         kernel it is measured against: todo, PASS or FAIL
 *   ./lab02 -k reduceNeighboredMask       one exercise (and its reference row)
 *   ./lab02 --exercises -n 1000003 -b 128 other sizes and blocks: a correct kernel passes them all
 *
 * Two kinds of exercise:
 *   write it  a stub whose body is WB_TODO(). Until you delete that line the
 *             row says `todo` (not run, not timed). Then it is checked exactly
 *             against the CPU sum like every kernel, and timed the same way.
 *   fix it    a kernel as a well-known version has it, bug included. As
 *             shipped it FAILs: find the bug, fix it, and the row says PASS.
 * --exercises runs at n = 16777213 (2^24 - 3) unless you give -n: that length
 * is no multiple of any block, so the last block is a partial one and a
 * mistake at the end of the input shows.
 *
 * The contract is the one of common/kernels/reduce_neighbored.cuh: g_idata
 * holds the n inputs, then zeros up to gridDim.x * blockDim.x, except where
 * an exercise says otherwise; block b works in place on its slice of
 * blockDim.x ints and writes its partial sum to g_odata[b]; the host adds
 * the partial sums.
 * blockDim.x is a power of two from 32 to 1024. Before each kernel runs, the
 * harness fills g_odata with poison, so a partial sum nobody writes shows.
 *
 * Handing in: `make handin NAME=yourname` writes the CSV of every lab's
 * --exercises run. The chapter's Exercises section: docs/lab02.md.
 */
#ifndef LAB02_EXERCISES_CUH
#define LAB02_EXERCISES_CUH

#include "workbook.h"

/* -------------------------------------------------------------------------- */
/* Exercise 1 (write it): reduceNeighboredMask                                */
/* -------------------------------------------------------------------------- */
/*
 * reduceNeighbored with one change: pick the working threads with a mask,
 *     (tid & (2 * stride - 1)) == 0
 * instead of the remainder tid % (2 * stride). The same threads work at
 * every step (2 * stride is a power of two: why are the two tests then
 * equal?), so the warps diverge exactly as in reduceNeighbored; only the
 * instructions of the test change. A remainder by a variable has no single
 * GPU instruction: it becomes a sequence of them, run by every warp at every
 * step. The mask is one AND.
 *
 * Predict first: reduceNeighboredLess is about 1.8x faster than
 * reduceNeighbored at -b 512 on an H100 (./lab02 shows yours). How much of
 * that do you expect from the mask alone? Then run ./lab02 --exercises: your
 * row (its speedup is against reduceNeighbored) sits between reduceNeighbored
 * and reduceNeighboredLess.
 * What is left between your row and reduceNeighboredLess is what the
 * divergence costs. Which of the two did you credit with the 1.8x?
 *
 * Hint: copy reduceNeighbored from common/kernels/reduce_neighbored.cuh and
 * change one line.
 * To see why, count instructions: ncu's smsp__inst_executed.sum of the three
 * kernels (docs/lab02.md, "Profile it").
 *
 * Measured against reduceNeighbored. PASS: the exact sum at every n and block.
 * Speed to aim for: at least 1.2x reduceNeighbored.
 */
__global__ void reduceNeighboredMask(int *g_idata, int *g_odata, unsigned int n)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 2 (fix it): reduceNeighboredEarlyExit                             */
/* -------------------------------------------------------------------------- */
/*
 * reduceNeighbored as the book prints it, with its `if (idx >= n) return;`.
 * In this exercise the slots after the n inputs are NOT zeros (the harness
 * fills them with 0x55555555), so the kernel must look at n itself and read
 * nothing at or past it. As shipped the row FAILs: at n = 16777213 the last
 * block holds blockDim.x - 3 inputs, whatever the block. Which threads of
 * that block return, and which of the threads that stay still read a slot
 * past n? Work it out for the last block of -b 32 on paper.
 *
 * Two things to fix, and both matter:
 *  - The reads. Which global element does a working thread read at step
 *    `stride`? Add it only when it is below n; then the slots past n are
 *    never read, whatever they hold.
 *  - The early return. Delete it, and let every thread run the whole loop.
 *    A thread that returns never reaches the __syncthreads() that the other
 *    threads of its block wait at. CUDA C++ allows __syncthreads() only
 *    where every thread of the block reaches it; elsewhere the behaviour is
 *    undefined. Today's GPUs release a barrier that waits only on threads
 *    that have exited, so with the reads fixed the row PASSes even with the
 *    return still in. That is the hardware being kind, not a promise: the
 *    compiler may move code across a barrier it takes every thread to
 *    reach, and the day someone adds work after the loop that every thread
 *    must do (a second barrier, a store of each thread's slot, lab05's
 *    shared-memory tree), the threads that left silently skip it. No test
 *    run shows this bug (compute-sanitizer's synccheck reports nothing
 *    either); reading the code does. Take the return out.
 *
 * Measured against reduceNeighbored. PASS: the exact sum at every n and
 * block, from the inputs alone (nothing past n read). Speed to aim for: at
 * least 0.9x reduceNeighbored (the test on n costs a little at every step).
 */
__global__ void reduceNeighboredEarlyExit(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    /* boundary check */
    if (idx >= n)
        return;

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* -------------------------------------------------------------------------- */
/* Exercise 3 (fix it): reduceNeighboredLessOut                               */
/* -------------------------------------------------------------------------- */
/*
 * reduceNeighboredLess with a slip that copies of it carry. The tree is
 * right; look at where the block's result goes. As shipped the row FAILs
 * ("block 1 never wrote its result"): before each run the harness fills
 * g_odata with poison, so a partial sum that no block writes cannot pass
 * on what an earlier kernel left there.
 *
 * Then explain: why does the shipped kernel PASS with -n 100 -b 128? How
 * many blocks write, to where, and in which order?
 *
 * Measured against reduceNeighboredLess. PASS: the exact sum at every n and
 * block. Speed to aim for: that of reduceNeighboredLess.
 */
__global__ void reduceNeighboredLessOut(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    (void)n; /* the input is zero-padded to whole blocks */

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[tid] = idata[0];
}

#endif /* LAB02_EXERCISES_CUH */
