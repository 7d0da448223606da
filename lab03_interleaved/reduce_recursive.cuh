/*
 * reduce_recursive.cuh - lab03's recursion on the GPU: lab01's recursive
 * interleaved reduction, one level per grid, each level launching the next
 * from the device (dynamic parallelism, CUDA 12 and later).
 *
 * lab01's reduce_recursive_interleaved(a, n) does one level (with
 * half = ceil(n/2), element i adds element i + half for i + half < n) and
 * calls itself on the first half elements until one is left. Here a level
 * is a grid, one thread per pair, and the "call itself" is a kernel launch
 * made by one thread of that grid: gpuRecursiveReduce launches
 * gpuRecursiveReduce.
 *
 * Differs from the book (Cheng et al., ch. 3, nestedReduce.cu): the book's
 * gpuRecursiveReduce recurses inside each block (thread 0 of every block
 * launches a one-block child on half its slice) and then waits for it with
 * cudaDeviceSynchronize() in device code. CUDA 12 removed that call (it does
 * not compile for the device any more; on compute capability 9.0 and up the
 * old interface does not exist at all). A grid cannot wait for its child;
 * what it can do is launch the child into cudaStreamTailLaunch, which starts
 * it only once the whole launching grid, every block of it, has finished,
 * and lets it see every write that grid made. So the levels here span the
 * whole array (the tail launch waits for all blocks, which a per-block
 * recursion would not need), and whatever the book did after the wait is
 * done by the child: the last level writes the sum.
 *
 * Launches: one grid per level, ceil(log2 n) of them for n >= 2 (24 at
 * n = 2^24), each one launched by the one before it. The book's per-block
 * version launches 1 + blocks x (log2(block) - 1) grids (262145 at n = 2^24,
 * block 512). recursive_grids() and book_nested_grids() below count them.
 *
 * Contract (the harness of common/reduce.cu, see wb_reduce_launch): any
 * n >= 1; the harness's grid is ceil(n / (2 * block)) (per_thread 2: one
 * thread per pair); g_idata[0..n) is overwritten (in place), nothing at or
 * past n is read (guards_n: the harness poisons the padding to prove it);
 * the sum goes to g_odata[0] (one_pass: no partial sums for the host).
 * blockDim.x is any power of two from 32 to 1024. Built with -rdc=true and
 * linked with the device runtime (cudadevrt): the Makefile does it for
 * lab03 alone.
 */
#ifndef REDUCE_RECURSIVE_CUH
#define REDUCE_RECURSIVE_CUH

#include "workbook.h"

#include <stdio.h>

/* The grid of one level of n live elements: one thread per pair, at least
 * one block (the last level, n = 1, still needs a thread to write the sum). */
__host__ __device__ static inline unsigned int recursive_level_grid(unsigned int n, unsigned int block)
{
    unsigned int pairs = n / 2; /* n - ceil(n/2) */
    return pairs > 0 ? (pairs + block - 1) / block : 1;
}

#ifndef WB_NO_CDP /* make sanitize's build without dynamic parallelism (NOCDP=1) leaves it out */
/* One level of lab01's interleaved recursion on g_idata[0..n), then the next
 * level as a tail launch; the last level writes the sum to g_odata[0]. */
template <typename T>
__global__ void gpuRecursiveReduce(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int half = (n + 1) / 2; /* live elements after this level */

    /* stop condition: one element, the sum (n = 1 only at the very start) */
    if (n == 1) {
        if (i == 0)
            g_odata[0] = g_idata[0];
        return;
    }

    /* in place reduction: the middle element of an odd n waits for the next
     * level, as in lab01. No __syncthreads(): nothing in this grid reads what
     * another thread wrote; the next level is a new grid. */
    if (i + half < n)
        g_idata[i] += g_idata[i + half];

    if (i != 0)
        return;
    if (half == 1) { /* n == 2: thread 0 added the last pair itself */
        g_odata[0] = g_idata[0];
        return;
    }
    /* differs from the book: one child grid for the whole next level, launched
     * once (by thread 0 of block 0) into the tail stream, which starts it when
     * every block of this grid has finished, instead of one child per block
     * and a device-side cudaDeviceSynchronize() (gone since CUDA 12) */
    gpuRecursiveReduce<<<recursive_level_grid(half, blockDim.x), blockDim.x, 0, cudaStreamTailLaunch>>>(
        g_idata, g_odata, half);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { /* the next level would never run: stop the whole launch */
        printf("gpuRecursiveReduce: the device-side launch of the level of n = %u failed: %s\n", half,
               cudaGetErrorString(err));
        __trap();
    }
}

/* One reduction: the first level, from the host, in the run's element type;
 * the others follow on the device. */
WB_REDUCE_LAUNCHER_T(gpuRecursiveReduce, 0)
#endif /* WB_NO_CDP */

/* The grids gpuRecursiveReduce launches for n elements, its first included:
 * one per level of lab01's recursion (n = 1: the one grid that copies it). */
static inline unsigned recursive_grids(unsigned n)
{
    unsigned grids = 1;
    while (n > 2) {
        n = (n + 1) / 2;
        ++grids;
    }
    return grids;
}

/* The grids the book's per-block nested reduction (gpuRecursiveReduce of
 * nestedReduce.cu) launches at the same n and block: the host's grid, then
 * in every block a chain of one-block children of block/2, block/4, ..., 2
 * threads: blocks x (log2(block) - 1) device launches. */
static inline unsigned long long book_nested_grids(unsigned n, unsigned block)
{
    unsigned long long blocks = (unsigned long long)wb_ceil_div(n, block);
    unsigned levels = 0, b;
    for (b = block; b > 2; b /= 2)
        ++levels;
    return 1 + blocks * levels;
}

#endif /* REDUCE_RECURSIVE_CUH */
