/*
 * reduce_smem.cuh - lab05's first four kernels: the same tree, first in
 * global memory, then in shared memory (static, then dynamic).
 *
 * All four come from Cheng et al., Professional CUDA C Programming, ch. 5
 * (reduceInteger.cu). They share one tree: interleaved pairs (thread tid adds
 * element tid + stride, the stride halving from blockDim.x/2), unrolled with
 * `if (blockDim.x >= ...)` tests, a __syncthreads() after every step, and the
 * last 32 elements reduced by the first warp alone.
 *
 *   reduceGmem            the tree in place, in global memory: every step reads
 *                         and writes DRAM/L2. The baseline of the table.
 *   reduceSmem            the block first copies its slice into a static
 *                         __shared__ array; the tree then runs on-chip.
 *   reduceSmemUnroll4     each thread first adds 4 elements (4 loads in flight),
 *                         so a block covers 4*blockDim.x elements: a quarter of
 *                         the blocks, a quarter of the trees.
 *   reduceSmemUnroll4Dyn  the same with `extern __shared__`: the array's size
 *                         is set at launch (the third <<< >>> argument).
 *
 * The last warp, safely (differs from the book): the book unrolls the last
 * six steps with a `volatile` pointer and no barrier, trusting the 32 threads
 * of a warp to run in lockstep. Since Volta they need not: each thread has
 * its own program counter, and a thread may read element tid+16 before or
 * after its owner wrote it. Here each step lets only the threads whose sum
 * is still needed work (tid < stride), so no thread reads what another writes
 * in the same step, and __syncwarp() between steps makes each step's writes
 * visible to the next. With blocks of 32 the step "+32" is skipped: the book
 * reads 32 elements past the block there (the next block's data).
 *
 * Contract (the harness of common/reduce.cu, see wb_reduce_launch):
 *   g_idata holds the input followed by zeros up to gridDim.x * blockDim.x *
 *   (4 for the Unroll4 kernels); each block's partial sum goes to
 *   g_odata[blockIdx.x]; the host adds the partial sums. blockDim.x is a
 *   power of two from 32 to 1024. reduceGmem overwrites g_idata (the harness
 *   restores it); the others only read it, and guard every load with n as a
 *   kernel must that is copied into a program without the padding.
 *
 * Included by lab05.cu; header-only, so the launchers are static.
 */
#ifndef REDUCE_SMEM_CUH
#define REDUCE_SMEM_CUH

#include "workbook.h"

/* The largest block: a static __shared__ array must be sized for it at
 * compile time. (The book uses DIM = 128 and so breaks for larger blocks.) */
#define SMEM_MAX_BLOCK 1024

/*
 * The last 32 partial sums of a block, in data[0..32) (shared or global),
 * reduced into data[0] by the first warp (tid < 32, all 32 lanes present).
 * Step "+32" only when the block has 64 or more elements.
 */
template <typename T>
__device__ __forceinline__ void warpReduceSafe(T *data, unsigned int tid)
{
    if (blockDim.x >= 64)
        data[tid] += data[tid + 32]; /* reads 32..63, writes 0..31: no overlap */
    __syncwarp();
    if (tid < 16)
        data[tid] += data[tid + 16]; /* reads 16..31, writes 0..15 */
    __syncwarp();
    if (tid < 8)
        data[tid] += data[tid + 8];
    __syncwarp();
    if (tid < 4)
        data[tid] += data[tid + 4];
    __syncwarp();
    if (tid < 2)
        data[tid] += data[tid + 2];
    __syncwarp();
    if (tid < 1)
        data[tid] += data[tid + 1];
}

/*
 * The block tree down to 64 elements, on data[0..blockDim.x) (shared or
 * global), then the last warp. Every thread of the block must call it: the
 * barriers are inside. The result is in data[0].
 */
template <typename T>
__device__ __forceinline__ void blockReduceInPlace(T *data, unsigned int tid)
{
    /* differs from the book: `>=` everywhere (a version with `> 1024` skips
     * the first step at block 1024 and loses half of every block) */
    if (blockDim.x >= 1024 && tid < 512)
        data[tid] += data[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256)
        data[tid] += data[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128)
        data[tid] += data[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64)
        data[tid] += data[tid + 64];
    __syncthreads();
    /* differs from the book: no volatile lockstep, see warpReduceSafe */
    if (tid < 32)
        warpReduceSafe(data, tid);
}

/* 1. In place in global memory (the book's baseline of chapter 5). */
template <typename T>
__global__ void reduceGmem(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    /* this block's slice of the input, reduced where it lies */
    T *idata = g_idata + blockIdx.x * blockDim.x;

    /* differs from the book: no `if (idx >= n) return;` - a thread that left
     * would skip the __syncthreads() in the tree; the harness pads the input
     * with zeros to whole blocks instead */
    (void)n;

    blockReduceInPlace(idata, tid);

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* 2. The same tree in a static shared array. */
template <typename T>
__global__ void reduceSmem(T *g_idata, T *g_odata, unsigned int n)
{
    __shared__ T smem[SMEM_MAX_BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    /* one global load per thread; past the end, the identity */
    smem[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();

    blockReduceInPlace(smem, tid);

    if (tid == 0)
        g_odata[blockIdx.x] = smem[0];
}

/*
 * The sum of the four elements idx, idx + blockDim.x, idx + 2*blockDim.x and
 * idx + 3*blockDim.x, those at or past n counted as 0.
 * Differs from the book: each load guarded on its own; the book adds the
 * four only when `idx + 3 * blockDim.x <= n`, which reads one element past
 * the end when equal and drops up to 3 * blockDim.x elements of the tail
 * otherwise.
 */
template <typename T>
__device__ __forceinline__ T sumFourGuarded(const T *g_idata, unsigned int idx, unsigned int n)
{
    T a1 = idx < n ? g_idata[idx] : 0;
    T a2 = idx + blockDim.x < n ? g_idata[idx + blockDim.x] : 0;
    T a3 = idx + 2 * blockDim.x < n ? g_idata[idx + 2 * blockDim.x] : 0;
    T a4 = idx + 3 * blockDim.x < n ? g_idata[idx + 3 * blockDim.x] : 0;
    return a1 + a2 + a3 + a4;
}

/* 3. Four elements per thread first, static shared array. */
template <typename T>
__global__ void reduceSmemUnroll4(T *g_idata, T *g_odata, unsigned int n)
{
    __shared__ T smem[SMEM_MAX_BLOCK];
    unsigned int tid = threadIdx.x;
    /* block b covers elements [4*b*blockDim.x, 4*(b+1)*blockDim.x) */
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;

    /* differs from the book: each load guarded (sumFourGuarded) */
    smem[tid] = sumFourGuarded(g_idata, idx, n);
    __syncthreads();

    blockReduceInPlace(smem, tid);

    if (tid == 0)
        g_odata[blockIdx.x] = smem[0];
}

/* 4. The same with a dynamic shared array: its size is the launch's third
 * configuration argument, blockDim.x * sizeof(T). */
template <typename T>
__global__ void reduceSmemUnroll4Dyn(T *g_idata, T *g_odata, unsigned int n)
{
    /* differs from the book: `extern __shared__ T dsmem[]` would declare one
     * array with a different type in each instance (int, float, double),
     * which C++ forbids; one raw byte array, aligned for the widest type,
     * seen as T */
    extern __shared__ __align__(sizeof(double)) unsigned char dsmem_bytes[];
    T *dsmem = reinterpret_cast<T *>(dsmem_bytes);
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;

    dsmem[tid] = sumFourGuarded(g_idata, idx, n);
    __syncthreads();

    blockReduceInPlace(dsmem, tid);

    /* one partial sum per BLOCK: g_odata[blockIdx.x], not g_odata[threadIdx.x] */
    if (tid == 0)
        g_odata[blockIdx.x] = dsmem[0];
}

/* One first pass each: grid blocks of `block` threads, one partial sum per
 * block, in the run's element type. reduceSmemUnroll4Dyn's third launch
 * argument, the bytes of dynamic shared memory per block, is
 * block * sizeof(T): one element per thread (WB_REDUCE_LAUNCHER_T's 1). */
WB_REDUCE_LAUNCHER_T(reduceGmem, 0)
WB_REDUCE_LAUNCHER_T(reduceSmem, 0)
WB_REDUCE_LAUNCHER_T(reduceSmemUnroll4, 0)
WB_REDUCE_LAUNCHER_T(reduceSmemUnroll4Dyn, 1)

#endif /* REDUCE_SMEM_CUH */
