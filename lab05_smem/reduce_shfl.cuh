/*
 * reduce_shfl.cuh - lab05's shuffle kernel, reduceShfl (Cheng et al.,
 * ch. 5): inside a warp the 32 lanes trade registers with __shfl_xor_sync
 * (no shared memory, no barrier); one word per warp goes through shared
 * memory, and the first warp shuffles those: one __syncthreads() per block
 * instead of one per step of the tree. Header-only, so its launcher is
 * static.
 */
#ifndef REDUCE_SHFL_CUH
#define REDUCE_SHFL_CUH

#include "workbook.h"
#include "reduce_smem.cuh" /* sumFourGuarded */
#include "kernels/block.cuh" /* blockReduceShfl */

/* 5. Four elements per thread (as reduceSmemUnroll4), then the shuffle tree. */
template <typename T>
__global__ void reduceShfl(T *g_idata, T *g_odata, unsigned int n)
{
    __shared__ T warp_sums[32]; /* one per warp: at most 1024 / 32 */
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;

    /* differs from the book: the book's reduceShfl adds one element per
     * thread; four here, so that its row differs from reduceSmemUnroll4's
     * only in the tree */
    T sum = sumFourGuarded(g_idata, idx, n);

    sum = blockReduceShfl(sum, warp_sums);
    if (threadIdx.x == 0)
        g_odata[blockIdx.x] = sum;
}

WB_REDUCE_LAUNCHER_T(reduceShfl, 0)

#endif /* REDUCE_SHFL_CUH */
