/*
 * solutions/exercises.cuh - the instructor's solutions to lab03's exercises,
 * in the shape of the student's exercises.cuh (same names, same contracts).
 * `make lab03 SOLUTIONS=1` builds the lab with this file instead; a run's
 * CSV then says `+solutions` in its build column. Not in the students' copy
 * (make handout).
 */
#ifndef LAB03_EXERCISES_CUH
#define LAB03_EXERCISES_CUH

#include "workbook.h"

/* Exercise 1 (write it): two coalesced loads per thread, a block apart, then
 * reduceInterleaved's tree on the first half of the slice. A thread whose
 * second element is past n keeps its first alone (the zero padding covers
 * the rest of the slice, which the tree never reads anyway). */
__global__ void reduceInterleaved2(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 2;

    if (idx + blockDim.x < n)
        g_idata[idx] += g_idata[idx + blockDim.x];
    __syncthreads(); /* the tree reads the slots the other threads just wrote */

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Exercise 2 (write it): every thread runs every step and reaches every
 * barrier; a read is guarded instead. Thread tid reads global element
 * idx + stride; it adds it only when that is below n. By induction a slot
 * j < 2*stride holds the sum of the inputs among j, j + 2*stride, ... of the
 * slice, and a slot past n is never read: a thread whose own idx is past n
 * never adds (idx + stride >= n), so its poisoned slot stays untouched, and
 * the slot a thread reads is below n. Thread 0's idx is below n in every
 * block. */
__global__ void reduceInterleavedAnyN(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride && idx + stride < n)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Exercise 3 (write it): a grid-stride loop, then the interleaved tree in
 * place. Thread t = blockIdx.x * blockDim.x + tid reads elements t, t + G,
 * t + 2G, ... (G = gridDim.x * blockDim.x): element t, for t < G, is read by
 * thread t alone, first, so once thread t has its sum, slot t is free and
 * no thread of any block will read it again. The tree then touches only its
 * own block's slots, after a barrier. A thread with no element (t >= n: only
 * when the grid is ceil(n / blockDim.x)) writes 0 into its slot, which lies
 * inside the padded buffer. i never wraps: when G is large enough to reach
 * past n, n is small (the grid is a few thousand blocks at most). */
__global__ void reduceInterleavedGridStride(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int grid_threads = gridDim.x * blockDim.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    int sum = 0;
    for (unsigned int i = t; i < n; i += grid_threads)
        sum += g_idata[i]; /* a warp reads 32 consecutive ints per turn */
    idata[tid] = sum;      /* slot t: read by this thread alone, already */
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Exercise 4 (fix it): the port added the odd element to g_odata[0] right
 * after launching the child into the tail stream, where CUDA 11 had waited
 * for the child. The tail launch runs the child only after this whole grid
 * has finished, so that addition came first, and the child's chain (its
 * last level writes g_odata[0] = g_idata[0]) overwrote it: every odd level
 * lost its last element (it FAILs wherever some level is odd, and passes at
 * powers of two). The fix folds the odd element into the data before the
 * launch, in g_idata[0]: thread 0 is the only thread that touches
 * g_idata[0] at this level (every thread reads i + istride >= 1) and
 * g_idata[n - 1] = g_idata[2 * istride] (no pair reaches it), and what it
 * writes before the launch, the child sees. Nothing is left to do after the
 * launch: with a tail launch the parent never waits, so the work after the
 * wait goes before the launch or into the child. */
#ifndef WB_NO_CDP /* make sanitize also builds lab03 without dynamic parallelism (NOCDP=1) for
                   * racecheck, synccheck and initcheck, which cannot follow a launch from the
                   * device: this kernel is left out of that build */
__global__ void gpuRecursiveReduceNosync(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int istride = n / 2; /* the book's pairing: i with i + n/2 */

    /* stop condition */
    if (n == 1) {
        if (i == 0)
            g_odata[0] = g_idata[0];
        return;
    }

    /* in place reduction: the pairs (i, i + istride) */
    if (i < istride)
        g_idata[i] += g_idata[i + istride];

    if (i == 0) {
        unsigned int grid = (istride / 2 + blockDim.x - 1) / blockDim.x;
        if (n % 2 == 1) /* the odd one out joins element 0 before the child reads it */
            g_idata[0] += g_idata[n - 1];
        gpuRecursiveReduceNosync<<<grid > 0 ? grid : 1, blockDim.x, 0, cudaStreamTailLaunch>>>(
            g_idata, g_odata, istride);
    }
}
#endif /* WB_NO_CDP */

#endif /* LAB03_EXERCISES_CUH */
