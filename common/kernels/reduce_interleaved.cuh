/*
 * kernels/reduce_interleaved.cuh - lab03's kernel: interleaved pairing in global
 * memory. lab03 teaches it; lab04 starts its ladder from it, so it lives here.
 *
 * reduceInterleaved (Cheng et al., Professional CUDA C Programming, ch. 3):
 * the stride starts at half the block and halves each step; thread tid adds
 * idata[tid + stride] into idata[tid]. The working threads are always the
 * first `stride` ones (whole warps, no divergence until stride < 32), and a
 * warp's loads and stores touch consecutive ints (coalesced).
 *
 * Contract (the harness of common/reduce.cu, see wb_reduce_launch):
 *   g_idata holds the input followed by zeros up to gridDim.x * blockDim.x,
 *   so every block reads whole; the block's partial sum goes to
 *   g_odata[blockIdx.x]; g_idata is overwritten (the harness restores it).
 *   blockDim.x is a power of two (32..1024).
 *
 * Below the kernel: its launcher and its row of a lab's table
 * (INTERLEAVED_ROW), which lab03 and lab04 share; the lesson a row prints
 * is the lab's own.
 */
#ifndef REDUCE_INTERLEAVED_CUH
#define REDUCE_INTERLEAVED_CUH

#include "reduce.h" /* WB_KERNEL, WB_REDUCE_LAUNCHER_T */

/* Interleaved pair implementation with less divergence */
template <typename T>
__global__ void reduceInterleaved(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    /* this block's slice of the input */
    T *idata = g_idata + blockIdx.x * blockDim.x;

    /* differs from the book: no `if (idx >= n) return;` - a thread that left
     * would skip the __syncthreads() below; the input is zero-padded instead */
    (void)n;

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* The launch (as lab02's are written out): one first pass, one partial
 * sum per block, in the run's element type. */
WB_REDUCE_LAUNCHER_T(reduceInterleaved, 0)

/* Its row of a lab's table, the lesson the lab's: in place, one element
 * per thread, any block of 32..1024, every element type. */
#define INTERLEAVED_ROW(lesson)                                                                    \
    WB_KERNEL("reduceInterleaved", lesson, launch_reduceInterleaved, .per_thread = 1,             \
              .in_place = 1, .types = WB_ALL_TYPES)

#endif /* REDUCE_INTERLEAVED_CUH */
