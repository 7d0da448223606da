/*
 * solutions/exercises.cuh - the instructor's solutions to lab05's exercises,
 * in the shape of the student's exercises.cuh (same names, same contracts).
 * `make lab05 SOLUTIONS=1` builds the lab with this file instead; a run's
 * CSV then says `+solutions` in its build column. Not in the students' copy
 * (make handout).
 */
#ifndef LAB05_EXERCISES_CUH
#define LAB05_EXERCISES_CUH

#include "workbook.h"
#include "reduce_smem.cuh" /* SMEM_MAX_BLOCK */
#include "kernels/block.cuh"

#include <limits.h>

/* Exercise 1 (write it): reduceSmem's tree down to 64 values, then the last
 * warp in registers. Each lane adds its two values, and five shuffles add the
 * 32 registers: no shared memory, no __syncwarp() (a shuffle is itself a
 * warp-wide exchange). The same with cooperative groups (with their two
 * headers included, and namespace cg = cooperative_groups):
 *     cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
 *     v = cg::reduce(warp, v, cg::plus<int>());
 * (which, like __reduce_add_sync(0xffffffff, v), is one instruction on
 * cc 8.0 and up, and shuffles before). */
__global__ void reduceSmemShfl(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[SMEM_MAX_BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    smem[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();

    if (blockDim.x >= 1024 && tid < 512)
        smem[tid] += smem[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256)
        smem[tid] += smem[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128)
        smem[tid] += smem[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64)
        smem[tid] += smem[tid + 64];
    __syncthreads();

    if (tid < 32) {
        int v = smem[tid];
        if (blockDim.x >= 64) /* a block of 32 has no smem[tid + 32] */
            v += smem[tid + 32];
        v += __shfl_down_sync(0xffffffffu, v, 16); /* lane i adds lane i+16's v */
        v += __shfl_down_sync(0xffffffffu, v, 8);
        v += __shfl_down_sync(0xffffffffu, v, 4);
        v += __shfl_down_sync(0xffffffffu, v, 2);
        v += __shfl_down_sync(0xffffffffu, v, 1);
        if (tid == 0) /* lane 0 holds the warp's, and so the block's, sum */
            g_odata[blockIdx.x] = v;
    }
}

/* Exercise 2 (write it): the same tree with max(). A thread past n stores
 * the identity of max: INT_MIN, the value that changes no maximum. 0 would
 * pass here only because every input is >= 0; with negative inputs it would
 * win over them. The last warp as warpReduceSafe: only the threads whose
 * value is still needed write, and __syncwarp() between the steps. */
__global__ void reduceMaxSmem(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[SMEM_MAX_BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    smem[tid] = idx < n ? g_idata[idx] : INT_MIN;
    __syncthreads();

    if (blockDim.x >= 1024 && tid < 512)
        smem[tid] = max(smem[tid], smem[tid + 512]);
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256)
        smem[tid] = max(smem[tid], smem[tid + 256]);
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128)
        smem[tid] = max(smem[tid], smem[tid + 128]);
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64)
        smem[tid] = max(smem[tid], smem[tid + 64]);
    __syncthreads();

    if (tid < 32) {
        if (blockDim.x >= 64)
            smem[tid] = max(smem[tid], smem[tid + 32]);
        __syncwarp();
        if (tid < 16)
            smem[tid] = max(smem[tid], smem[tid + 16]);
        __syncwarp();
        if (tid < 8)
            smem[tid] = max(smem[tid], smem[tid + 8]);
        __syncwarp();
        if (tid < 4)
            smem[tid] = max(smem[tid], smem[tid + 4]);
        __syncwarp();
        if (tid < 2)
            smem[tid] = max(smem[tid], smem[tid + 2]);
        __syncwarp();
        if (tid < 1)
            smem[tid] = max(smem[tid], smem[tid + 1]);
    }

    if (tid == 0)
        g_odata[blockIdx.x] = smem[0];
}

/* Exercise 3 (fix it): the last warp needs an order between its steps, and
 * the compiler must know it. With a plain int * and no barrier, the compiler
 * may (and nvcc does) load smem[tid + 32], [tid + 16], ... [tid + 1] all at
 * once and store smem[tid] only at the end: thread 0 then adds 7 of the 64
 * values, in every block, on every run. `volatile` makes it load and store
 * each step, but since Volta the threads of a warp need not run in lockstep,
 * so a thread may still read smem[tid + 16] before or after its owner added
 * into it (racecheck reports it). Fixed: __syncwarp() between the steps (a
 * barrier and a memory fence for the warp), and only the threads whose sum is
 * still needed write, so no thread reads a word that another writes in the
 * same step. With a block of 32 the step "+32" is skipped: smem[32..63] was
 * never written (the book, in global memory, reads the next block's data). */
__global__ void reduceSmemNoSyncwarp(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[SMEM_MAX_BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    smem[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();

    if (blockDim.x >= 1024 && tid < 512)
        smem[tid] += smem[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256)
        smem[tid] += smem[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128)
        smem[tid] += smem[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64)
        smem[tid] += smem[tid + 64];
    __syncthreads();

    /* the last warp: ordered by __syncwarp(), no two threads on one word in a step */
    if (tid < 32) {
        int *wsmem = smem;
        if (blockDim.x >= 64)
            wsmem[tid] += wsmem[tid + 32];
        __syncwarp();
        if (tid < 16)
            wsmem[tid] += wsmem[tid + 16];
        __syncwarp();
        if (tid < 8)
            wsmem[tid] += wsmem[tid + 8];
        __syncwarp();
        if (tid < 4)
            wsmem[tid] += wsmem[tid + 4];
        __syncwarp();
        if (tid < 2)
            wsmem[tid] += wsmem[tid + 2];
        __syncwarp();
        if (tid < 1)
            wsmem[tid] += wsmem[tid + 1];
    }

    if (tid == 0)
        g_odata[blockIdx.x] = smem[0];
}

/* Exercise 4 (fix it): the port steps the rows (i0, which starts at iy) by
 * the grid's threads along x and the columns (i1, from ix) by those along y.
 * On a square grid of square blocks (the chapter's 16x16 on 64x64) the two
 * counts are equal and the swap is invisible. On a 64x44 grid of 16x16
 * (a 20000x700 matrix) the columns step by 704 while ix runs to 1023: the
 * columns with c >= 704 and c % 704 < 320 are added twice (a column below
 * 704 is past its second thread's start). With 32x8 blocks on 64x64 the
 * rows step by 2048 while iy runs to 511: rows 512..2047 of each 2048 are
 * never added, and in the others column c is added min(4, c / 512 + 1)
 * times. Fixed: each loop steps by the grid's threads along its own
 * axis, so the grid's (ix, iy) tile the matrix exactly once. */
__global__ void reduce2DNumba(const int *a, int *partial, int nx, int ny)
{
    __shared__ int s_block[SMEM_MAX_BLOCK];
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int threads_per_grid_x = gridDim.x * blockDim.x;
    unsigned int threads_per_grid_y = gridDim.y * blockDim.y;
    unsigned int tid = threadIdx.x + blockDim.x * threadIdx.y;
    int s_thread = 0;

    for (unsigned int i0 = iy; i0 < (unsigned int)ny; i0 += threads_per_grid_y) /* rows: along y */
        for (unsigned int i1 = ix; i1 < (unsigned int)nx; i1 += threads_per_grid_x) /* columns: along x */
            s_thread += a[i0 * (unsigned int)nx + i1];

    s_block[tid] = s_thread;
    __syncthreads();
    sharedTreeSum(s_block, tid); /* the chapter's `while i != 0` tree (kernels/block.cuh) */

    if (tid == 0)
        partial[blockIdx.x + gridDim.x * blockIdx.y] = s_block[0];
}

#endif /* LAB05_EXERCISES_CUH */
