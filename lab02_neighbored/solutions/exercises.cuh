/*
 * solutions/exercises.cuh - the instructor's solutions to lab02's exercises,
 * in the shape of the student's exercises.cuh (same names, same contracts).
 * `make lab02 SOLUTIONS=1` builds the lab with this file instead; a run's
 * CSV then says `+solutions` in its build column. Not in the students' copy
 * (make handout).
 */
#ifndef LAB02_EXERCISES_CUH
#define LAB02_EXERCISES_CUH

#include "workbook.h"

/* Exercise 1 (write it): the mask picks the same threads as the remainder,
 * because 2*stride is a power of two: x % 2^k == x & (2^k - 1). The same
 * warps diverge; the remainder's instruction sequence becomes one AND. */
__global__ void reduceNeighboredMask(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    (void)n; /* the input is zero-padded to whole blocks */

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid & (2 * stride - 1)) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Exercise 2 (fix it): no early return, so every thread reaches every
 * __syncthreads(); and a thread adds its neighbour only when the neighbour
 * is below n. A slot past n is then never read: a thread whose idx is past n
 * never works (idx + stride >= n), and a working thread reads only a slot
 * below n, which itself only ever added slots below n. Thread 0's idx is
 * below n in every block, so idata[0] holds the sum of the block's inputs. */
__global__ void reduceNeighboredEarlyExit(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && idx + stride < n)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Exercise 3 (fix it): each block writes its own slot, g_odata[blockIdx.x].
 * With g_odata[tid] (tid is 0 there) every block writes slot 0, the last
 * one to finish wins, and slots 1..grid-1 keep what they held: here the
 * harness's poison. With one block (n <= blockDim.x) the two are the same,
 * which is why the bug hides in small tests. */
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
        g_odata[blockIdx.x] = idata[0];
}

#endif /* LAB02_EXERCISES_CUH */
