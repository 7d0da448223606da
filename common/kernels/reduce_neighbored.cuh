/*
 * kernels/reduce_neighbored.cuh - lab02's kernels: neighbored pairing in global
 * memory. lab02 teaches them and launches them (lab02.cu writes its launches
 * out); lab03 runs them beside its interleaved pairing, so they live here.
 *
 * Both kernels come from Cheng et al., Professional CUDA C Programming, ch. 3.
 * Each block reduces its own slice of the input in place, in log2(blockDim.x)
 * steps; at step `stride` (1, 2, 4, ...) an element adds its neighbour
 * `stride` places to the right.
 *
 *   reduceNeighbored      thread tid works when tid % (2*stride) == 0: every
 *                         warp keeps a few working threads, so every warp
 *                         stays busy (divergence) while fewer and fewer of
 *                         its threads do anything.
 *   reduceNeighboredLess  thread tid works on element index = 2*stride*tid:
 *                         the same additions, done by the first threads of
 *                         the block, so the idle warps have nothing to do.
 *
 * Contract (the harness of common/reduce.cu, see wb_reduce_launch):
 *   g_idata holds the input followed by zeros up to gridDim.x * blockDim.x,
 *   so every block reads whole; the block's partial sum goes to
 *   g_odata[blockIdx.x]; g_idata is overwritten (the harness restores it);
 *   the host adds the partial sums. blockDim.x is a power of two (32..1024).
 *
 * Below the kernels: their launchers and their rows of a lab's table
 * (NEIGHBORED_ROW, NEIGHBORED_LESS_ROW), which lab02 and lab03 share; the
 * lesson a row prints is the lab's own.
 */
#ifndef REDUCE_NEIGHBORED_CUH
#define REDUCE_NEIGHBORED_CUH

#include "reduce.h" /* WB_KERNEL, wb_with_type, CHECK_LAUNCH */

/* Neighbored pair implementation with divergence */
template <typename T>
__global__ void reduceNeighbored(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    /* this block's slice of the input */
    T *idata = g_idata + blockIdx.x * blockDim.x;

    /* differs from the book: no `if (idx >= n) return;` - a thread that left
     * would skip the __syncthreads() below; the input is zero-padded instead */
    (void)n;

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        /* the working threads: 0, 2, 4, ... then 0, 4, 8, ... - spread over every warp */
        if ((tid % (2 * stride)) == 0)
            idata[tid] += idata[tid + stride];
        /* every thread of the block waits here before the next step */
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Neighbored pair implementation with less divergence */
template <typename T>
__global__ void reduceNeighboredLess(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    T *idata = g_idata + blockIdx.x * blockDim.x;

    /* differs from the book: no `if (idx >= n) return;` (see reduceNeighbored) */
    (void)n;

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        /* thread tid takes the tid-th pair of this step: the working threads
         * are 0, 1, 2, ... packed into the first warps */
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            idata[index] += idata[index + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* The launches: grid blocks of block threads, one partial sum per block.
 * wb_with_type turns the run's element type (--type int, float or double)
 * into T: data and partial hold elements of that type. CHECK_LAUNCH reports
 * a launch that failed. */
static inline void launch_reduceNeighbored(void *data, void *partial, unsigned n, unsigned grid,
                                           unsigned block, wb_type type)
{
    wb_with_type(type, [&](auto z) { /* z: a value of the type, T its C type */
        using T = decltype(z);
        reduceNeighbored<<<grid, block>>>((T *)data, (T *)partial, n);
    });
    CHECK_LAUNCH("reduceNeighbored");
}

static inline void launch_reduceNeighboredLess(void *data, void *partial, unsigned n,
                                               unsigned grid, unsigned block, wb_type type)
{
    wb_with_type(type, [&](auto z) {
        using T = decltype(z);
        reduceNeighboredLess<<<grid, block>>>((T *)data, (T *)partial, n);
    });
    CHECK_LAUNCH("reduceNeighboredLess");
}

/* Their rows of a lab's table, the lesson the lab's: each reduces its
 * block's slice in place (in_place: the harness restores the input before
 * every run), one element per thread, at any block of 32..1024, in every
 * element type. */
#define NEIGHBORED_ROW(lesson)                                                                     \
    WB_KERNEL("reduceNeighbored", lesson, launch_reduceNeighbored, .per_thread = 1,               \
              .in_place = 1, .types = WB_ALL_TYPES)
#define NEIGHBORED_LESS_ROW(lesson)                                                                \
    WB_KERNEL("reduceNeighboredLess", lesson, launch_reduceNeighboredLess, .per_thread = 1,       \
              .in_place = 1, .types = WB_ALL_TYPES)

#endif /* REDUCE_NEIGHBORED_CUH */
