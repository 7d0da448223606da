/*
 * kernels/warp.cuh - the sum of a value over the 32 lanes of a warp, in
 * registers (shuffles, no shared memory, no barrier). lab05 teaches the
 * shuffle; its kernels, lab05-finish's and the matrix mode's sum their
 * warps with these, and lab04's --latency instrument through block.cuh.
 *
 *   warpReduce      the butterfly of __shfl_xor_sync: any element type
 *   warpSumModern   an int in one instruction (redux.sync) from compute
 *                   capability 8.0; float and double: warpReduce
 *
 * Only __device__ __forceinline__ functions: any file may include it. Every
 * lane of the warp must call them (the full mask).
 */
#ifndef WARP_CUH
#define WARP_CUH

/* The sum of `v` over the 32 lanes of a warp, in every lane: the butterfly.
 * Lane i adds lane i^16's value, then i^8's, ... (all 32 lanes present).
 * Every lane makes the same additions in the same order, so even a float
 * sum comes out the same in every lane and on every run. T: int, float,
 * double or unsigned long long. */
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

/* The sum of `v` over the 32 lanes of a warp, in every lane, for the
 * modern kernels: an int on a GPU of compute capability 8.0 or later in ONE
 * instruction (redux.sync, __reduce_add_sync) where warpReduce takes five
 * shuffles and five additions one after another; float and double have no
 * such instruction, and take warpReduce. */
__device__ __forceinline__ int warpSumModern(int v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_add_sync(0xffffffffu, v);
#else
    return warpReduce(v);
#endif
}
__device__ __forceinline__ float warpSumModern(float v) { return warpReduce(v); }
__device__ __forceinline__ double warpSumModern(double v) { return warpReduce(v); }

#endif /* WARP_CUH */
