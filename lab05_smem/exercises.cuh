/*
 * exercises.cuh - YOUR exercises for lab05 (shared memory, the warp,
 * shuffles). This is the file you edit.
 *
 *   make lab05 && ./lab05 --exercises     each exercise's row right under the row of the
 *                                         kernel it is measured against: todo, PASS or FAIL
 *   ./lab05 -k reduceSmemShfl             one exercise (and its reference row)
 *   ./lab05 --exercises --sweep           your rows at every n of the sweep
 *   make sanitize                         compute-sanitizer on the lab (docs/lab05.md)
 *
 * Two kinds of exercise:
 *   write it  a stub whose body is WB_TODO(). Until you delete that line the
 *             row says `todo` (not run, not timed). Then it is checked exactly
 *             against the CPU like every kernel, and timed the same way.
 *   fix it    a kernel as a well-known version has it, bug included. As
 *             shipped it FAILs: find the bug, fix it, and the row says PASS.
 * --exercises runs at n = 16777213 (2^24 - 3) unless you give -n: that length
 * is no multiple of any block, so the last block is always a partial one.
 * Test other sizes and blocks too (-n 1000003 -b 128, -n 5 -b 32, ...): a
 * correct kernel passes them all.
 *
 * The contract is the one of reduceSmem (reduce_smem.cuh): block b reduces
 * g_idata[b * blockDim.x .. (b + 1) * blockDim.x), and only the elements
 * below n, into g_odata[b]; the host combines the partial results (adds them,
 * or for a maximum takes the largest). In these exercises the slots after the
 * n inputs are NOT zeros (they hold 0x55555555): every load must be guarded
 * with n, as reduceSmem's is. g_idata is only read. blockDim.x is a power of
 * two from 32 to 1024; the inputs are ints from 0 to at most 255.
 * Exercise 4 belongs to the matrix mode (./lab05 -n NXxNY): its contract is
 * reduce2D's (reduce2d.cuh), and --exercises runs it on a 20000x700 matrix
 * under reduce2D's row.
 *
 * Handing in: `make handin NAME=yourname` writes the CSV of every lab's
 * --exercises run. The chapter's Exercises section: docs/lab05.md.
 */
#ifndef LAB05_EXERCISES_CUH
#define LAB05_EXERCISES_CUH

#include "workbook.h"
#include "reduce_smem.cuh" /* SMEM_MAX_BLOCK; reduceSmem, to start from */
#include "kernels/block.cuh" /* sharedTreeSum, for exercise 4 */

#include <limits.h>

/* -------------------------------------------------------------------------- */
/* Exercise 1 (write it): reduceSmemShfl                                      */
/* -------------------------------------------------------------------------- */
/*
 * reduceSmem with its last warp in registers. Load the block's slice into
 * shared memory and run reduceSmem's tree down to 64 values (the steps with
 * a __syncthreads() after each). Then the first warp alone: each of its 32
 * lanes takes smem[tid] + smem[tid + 32] into a register, and the 32
 * registers are added with warp shuffles. No shared memory and no
 * __syncwarp() in the last warp: a shuffle moves values between the lanes
 * of the warp itself. Lane 0 writes the block's sum to g_odata[blockIdx.x].
 *
 * Hint: __shfl_down_sync(0xffffffff, v, offset) hands lane i the v of lane
 * i + offset; five steps (offset 16, 8, 4, 2, 1) leave the warp's sum in
 * lane 0. Or let cooperative groups do it (first, at the top of this file:
 * #include <cooperative_groups.h>, #include <cooperative_groups/reduce.h> and
 * namespace cg = cooperative_groups; their headers add seconds to each build):
 *     cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
 *     v = cg::reduce(warp, v, cg::plus<int>());
 * With a block of 32 there is no smem[tid + 32] to add (blockDim.x >= 64?).
 * Which is faster, and why: see the chapter's "Warp shuffles".
 *
 * Measured against reduceSmem. PASS: the exact sum at every n and block.
 * Graded: PASS, and at least 1.00x reduceSmem's speed in the same run.
 */
__global__ void reduceSmemShfl(int *g_idata, int *g_odata, unsigned int n)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 2 (write it): reduceMaxSmem                                       */
/* -------------------------------------------------------------------------- */
/*
 * The largest element instead of the sum: reduceSmem's shared-memory tree
 * (and its safe last warp, with __syncwarp()) with max() where it has +.
 * Block b writes the largest of its elements to g_odata[b]; the host takes
 * the largest of these partial results.
 *
 * Hint: what does a thread past n put into shared memory? For a sum it is 0,
 * the value that changes nothing. Which value changes no maximum? 0 would do
 * for this input (every element is >= 0), but write the kernel so that it is
 * right for any ints, negative ones too (<limits.h> is included).
 *
 * Measured against reduceSmem (same tree, another operator). PASS: the exact
 * maximum at every n and block. Graded: PASS, and at least 0.95x reduceSmem's
 * speed in the same run.
 */
__global__ void reduceMaxSmem(int *g_idata, int *g_odata, unsigned int n)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 3 (fix it): reduceSmemNoSyncwarp                                  */
/* -------------------------------------------------------------------------- */
/*
 * reduceSmem with its last warp unrolled the way it was written before Volta:
 * the first warp does six steps with no barrier at all, trusting its 32
 * threads to run in lockstep (here even without the book's `volatile`). As
 * shipped the row FAILs at the block sizes of 64 and up, on every run; with
 * a block of 32 it has a second bug.
 *
 * Hint: nothing in the six lines tells the compiler that OTHER threads
 * write smem[tid + 16], smem[tid + 8], ... between them, so it may keep
 * values in registers and load what it likes when it likes: what does
 * thread 0 add? Would `volatile` alone make it correct since Volta, where
 * the threads of a warp need not run together? What does
 *     compute-sanitizer --tool racecheck ./lab05 --exercises -k reduceSmemNoSyncwarp -n 100003 -r 1
 * report? And what does smem[tid + 32] hold when the block has 32 threads?
 * reduce_smem.cuh's warpReduceSafe is the model of a correct last warp.
 *
 * Measured against reduceSmem. PASS: the exact sum at every n and block.
 * Graded: PASS, and at least 0.95x reduceSmem's speed in the same run.
 */
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

    /* the last warp, unrolled: 32 threads "in lockstep", no barrier */
    if (tid < 32) {
        int *wsmem = smem;
        wsmem[tid] += wsmem[tid + 32];
        wsmem[tid] += wsmem[tid + 16];
        wsmem[tid] += wsmem[tid + 8];
        wsmem[tid] += wsmem[tid + 4];
        wsmem[tid] += wsmem[tid + 2];
        wsmem[tid] += wsmem[tid + 1];
    }

    if (tid == 0)
        g_odata[blockIdx.x] = smem[0];
}

/* -------------------------------------------------------------------------- */
/* Exercise 4 (fix it): reduce2DNumba (matrix mode)                           */
/* -------------------------------------------------------------------------- */
/*
 * The Numba chapter's 2D reduction, ported to CUDA C line by line: 2D blocks
 * on a 2D grid, thread (ix, iy) of the grid striding over the rows and the
 * columns of the ny x nx matrix a (row-major: element (i0, i1) is
 * a[i0 * nx + i1]), one 1D shared array per block indexed by
 * threadIdx.x + blockDim.x * threadIdx.y, the tree, one partial sum per
 * block in partial[blockIdx.x + gridDim.x * blockIdx.y]; the host adds them.
 * As shipped the row FAILs at the matrix --exercises runs it on (20000x700,
 * where the grid is 64x44 blocks of 16x16) and at -n 8192x8192 -b 32x8, on
 * every run; at -n 8192x8192 with the default 16x16 blocks it passes.
 *
 * Hint: how many threads does the grid have along x, and along y? Which of
 * the two should the row loop step by? Try it by hand on a grid of 2 x 1
 * blocks of 2 x 2 threads and a 3 x 6 matrix: which elements does thread
 * (ix, iy) = (0, 0) add, and which ones does nobody add, or two threads add?
 * reduce2D (reduce2d.cuh) is the kernel fixed; ./lab05 -n 12x6 --explain
 * draws which block adds which element.
 *
 * Measured against reduce2D (./lab05 -n 8192x8192 -k reduce2D,reduce2DNumba).
 * PASS: the exact total at every shape from 1x1 and every block 32..1024.
 * Graded: PASS, and at least 0.95x reduce2D's speed in the same run.
 */
__global__ void reduce2DNumba(const int *a, int *partial, int nx, int ny)
{
    __shared__ int s_block[SMEM_MAX_BLOCK];
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x; /* ix, iy = cuda.grid(2) */
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int threads_per_grid_x = gridDim.x * blockDim.x; /* = cuda.gridsize(2) */
    unsigned int threads_per_grid_y = gridDim.y * blockDim.y;
    unsigned int tid = threadIdx.x + blockDim.x * threadIdx.y;
    int s_thread = 0;

    for (unsigned int i0 = iy; i0 < (unsigned int)ny; i0 += threads_per_grid_x)
        for (unsigned int i1 = ix; i1 < (unsigned int)nx; i1 += threads_per_grid_y)
            s_thread += a[i0 * (unsigned int)nx + i1];

    s_block[tid] = s_thread;
    __syncthreads();
    sharedTreeSum(s_block, tid); /* the chapter's `while i != 0` tree (kernels/block.cuh) */

    if (tid == 0)
        partial[blockIdx.x + gridDim.x * blockIdx.y] = s_block[0];
}

#endif /* LAB05_EXERCISES_CUH */
