/*
 * block_sum.cuh - the sums inside one block that lab05's kernels share: a
 * warp's by shuffles, a block's by shuffles, and the 1D shared-memory tree.
 *
 * Only __device__ __forceinline__ functions: any file may include it. A
 * block may be 1D or 2D: its threads are numbered
 * tid = threadIdx.x + blockDim.x * threadIdx.y, as CUDA numbers them into
 * warps, so the 32 lanes of a warp are 32 neighbouring tids. Every block
 * has a power-of-two count of threads from 32 to 1024.
 */
#ifndef BLOCK_SUM_CUH
#define BLOCK_SUM_CUH

/* The thread's number in its block, and the block's count of threads. */
__device__ __forceinline__ unsigned int flatTid(void) { return threadIdx.x + blockDim.x * threadIdx.y; }
__device__ __forceinline__ unsigned int blockThreads(void) { return blockDim.x * blockDim.y; }

/* The sum of `v` over the 32 lanes of a warp, in every lane: the butterfly.
 * Lane i adds lane i^16's value, then i^8's, ... (all 32 lanes present).
 * Every lane makes the same additions in the same order, so even a float
 * sum comes out the same in every lane and on every run. T: int, float or
 * double. */
template <typename T>
__device__ __forceinline__ T warpReduce(T v)
{
    v += __shfl_xor_sync(0xffffffffu, v, 16);
    v += __shfl_xor_sync(0xffffffffu, v, 8);
    v += __shfl_xor_sync(0xffffffffu, v, 4);
    v += __shfl_xor_sync(0xffffffffu, v, 2);
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    return v;
}

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

#endif /* BLOCK_SUM_CUH */
