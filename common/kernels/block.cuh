/*
 * kernels/block.cuh - the sum of a value over one block: by shuffles
 * (each warp's sum, then one warp adds the warps' sums), and the 1D
 * shared-memory tree. lab05 teaches both; its kernels, lab05-finish's and
 * the matrix mode's use these, and so does lab04's --latency instrument.
 *
 *   flatTid, blockThreads   a thread's number in its block, the block's count
 *   blockReduceShfl         the block's sum in thread 0, by shuffles
 *   blockSumToThread0       the same, its last step one thread's fixed tree
 *   sharedTreeSum           the tree on one value per thread in shared memory
 *
 * Only __device__ __forceinline__ functions: any file may include it. A
 * block may be 1D or 2D: its threads are numbered
 * tid = threadIdx.x + blockDim.x * threadIdx.y, as CUDA numbers them into
 * warps, so the 32 lanes of a warp are 32 neighbouring tids. Every block
 * has a power-of-two count of threads from 32 to 1024.
 */
#ifndef BLOCK_CUH
#define BLOCK_CUH

#include "warp.cuh" /* warpReduce, warpSumModern */

/* The thread's number in its block, and the block's count of threads. */
__device__ __forceinline__ unsigned int flatTid(void) { return threadIdx.x + blockDim.x * threadIdx.y; }
__device__ __forceinline__ unsigned int blockThreads(void) { return blockDim.x * blockDim.y; }

/*
 * The sum of `v` over the whole block, valid in thread 0. Every thread must
 * call it (a barrier is inside). `warp_sums` holds one value per warp (32).
 */
template <typename T>
__device__ __forceinline__ T blockReduceShfl(T v, T *warp_sums)
{
    unsigned int tid = flatTid(), lane = tid % 32, warp = tid / 32;
    v = warpReduce(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    /* differs from the book: the number of warps is the block's threads / 32,
     * not a compile-time SMEMDIM that is right for one block size only */
    if (warp == 0) {
        v = lane < blockThreads() / 32 ? warp_sums[lane] : (T)0;
        v = warpReduce(v);
    }
    return v;
}

/*
 * The 1D tree on s_block[0..blockThreads()), one value per thread already
 * stored and a __syncthreads() after the stores: thread tid adds
 * s_block[tid + i] for i = half the block, a quarter, ... 1, a barrier after
 * each step. Every thread must call it; the sum is then in s_block[0].
 */
template <typename T>
__device__ __forceinline__ void sharedTreeSum(T *s_block, unsigned int tid)
{
    for (unsigned int i = blockThreads() / 2; i != 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + i];
        __syncthreads();
    }
}

/* The sum of `v` over the whole block, valid in thread 0, for a block
 * whose sum is the answer (reduceModernSmall): the warps' sums
 * (warpSumModern), then thread 0 adds the 32 slots itself in one
 * fixed tree (slot i + 16 into slot i, then i + 8, ... as warpReduce does),
 * the slots of warps the block does not have set to 0. Reading 32 words of
 * shared memory and 31 independent-in-pairs additions in one thread is
 * shorter than warp 0's five dependent shuffles, and nothing else waits for
 * it. Every thread must call it (a barrier is inside). */
template <typename T>
__device__ __forceinline__ T blockSumToThread0(T v, T *warp_sums)
{
    unsigned int tid = flatTid(), lane = tid % 32, warp = tid / 32;
    v = warpSumModern(v);
    if (lane == 0)
        warp_sums[warp] = v;
    if (warp == 0 && lane >= blockThreads() / 32)
        warp_sums[lane] = 0; /* no such warp */
    __syncthreads();
    if (tid == 0) {
        T s[16];
        /* constant trip counts: s stays in registers */
#pragma unroll
        for (int i = 0; i < 16; ++i)
            s[i] = warp_sums[i] + warp_sums[i + 16];
#pragma unroll
        for (int i = 0; i < 8; ++i)
            s[i] += s[i + 8];
#pragma unroll
        for (int i = 0; i < 4; ++i)
            s[i] += s[i + 4];
        v = (s[0] + s[2]) + (s[1] + s[3]);
    }
    return v;
}

#endif /* BLOCK_CUH */
