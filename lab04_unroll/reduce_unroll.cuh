/*
 * reduce_unroll.cuh - lab04's kernels: unrolling the reduction.
 *
 * From Cheng et al., Professional CUDA C Programming, ch. 3, in the book's
 * order; each one changes one thing from the one before:
 *
 *   reduceUnrolling2            each thread first adds 2 elements one block apart,
 *                               then the in-place tree of reduceInterleaved (lab03):
 *                               half the blocks, two independent loads per thread
 *   reduceUnrolling4            4 elements per thread
 *   reduceUnrolling8            8 elements per thread: 8 loads in flight per thread
 *   reduceUnrollWarps8          + the last 6 steps (one warp) unrolled, with no
 *                               __syncthreads() (made safe with __syncwarp())
 *   reduceCompleteUnrollWarps8  + the whole in-block loop written out for blocks
 *                               up to 1024: no loop counter, no loop branch
 *   reduceCompleteUnroll<B>     + the block size a template argument: the steps a
 *                               block of B threads does not need vanish at compile time
 *
 * Contract (the harness of common/reduce.cu, see wb_reduce_launch in workbook.h):
 *   g_idata holds the n input ints followed by zeros up to
 *   gridDim.x * blockDim.x * U, where U is the kernel's unroll factor (the
 *   table's per_thread); the grid is ceil(n / (blockDim.x * U)), so the last
 *   block may be partial. Block b works in place on its slice
 *   g_idata[b*blockDim.x*U ...] and writes its partial sum to g_odata[b];
 *   the host adds the partial sums. blockDim.x is a power of two, 32..1024.
 *
 * The tail: the zero padding alone would make even the book's unguarded
 * loads exact (a zero adds nothing). We guard the loads against n anyway,
 * so the kernels read nothing past the n inputs; what they still need from
 * the harness is a buffer at least that long, because the tree works in
 * place on each block's first blockDim.x slots.
 *
 * Kernels only: their launchers are lab04.cu's (exercises.cu launches
 * reduceUnrolling8 too).
 */
#ifndef REDUCE_UNROLL_CUH
#define REDUCE_UNROLL_CUH

#include "workbook.h"

/* -------------------------------------------------------------------------- */
/* Unrolling 2, 4, 8: more independent loads per thread, fewer blocks          */
/* -------------------------------------------------------------------------- */

template <typename T>
__global__ void reduceUnrolling2(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    /* this block's slice: two block-widths of input */
    T *idata = g_idata + blockIdx.x * blockDim.x * 2;

    /* unrolling 2: add the element one block-width away. The book's test is
     * right here: when the partner is past n only the partner is skipped, and
     * the slots past n that the tree reads below are the harness's zeros. */
    if (idx + blockDim.x < n)
        g_idata[idx] += g_idata[idx + blockDim.x];
    __syncthreads();

    /* in-place tree over the first blockDim.x slots (lab03's reduceInterleaved) */
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

template <typename T>
__global__ void reduceUnrolling4(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    T *idata = g_idata + blockIdx.x * blockDim.x * 4;

    /* unrolling 4: four independent loads, then one store */
    if (idx + 3 * blockDim.x < n) {
        T a1 = g_idata[idx];
        T a2 = g_idata[idx + blockDim.x];
        T a3 = g_idata[idx + 2 * blockDim.x];
        T a4 = g_idata[idx + 3 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4;
    } else {
        /* differs from the book: the book has no else, so a thread whose last
         * element is past n keeps only its first one and drops the others */
        T sum = 0;
        for (unsigned int k = 0; k < 4; ++k)
            if (idx + k * blockDim.x < n)
                sum += g_idata[idx + k * blockDim.x];
        g_idata[idx] = sum;
    }
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/*
 * The first phase of every kernel from here on: thread idx adds the 8
 * elements idx, idx + blockDim.x, ..., idx + 7*blockDim.x into slot idx.
 * The eight loads do not depend on each other, so a thread has all eight in
 * flight at once. A thread of the last, partial block adds what lies below n.
 */
template <typename T>
__device__ __forceinline__ void unroll8_into_first(T *g_idata, unsigned int idx, unsigned int n)
{
    if (idx + 7 * blockDim.x < n) {
        T a1 = g_idata[idx];
        T a2 = g_idata[idx + blockDim.x];
        T a3 = g_idata[idx + 2 * blockDim.x];
        T a4 = g_idata[idx + 3 * blockDim.x];
        T b1 = g_idata[idx + 4 * blockDim.x];
        T b2 = g_idata[idx + 5 * blockDim.x];
        T b3 = g_idata[idx + 6 * blockDim.x];
        T b4 = g_idata[idx + 7 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    } else {
        /* differs from the book: the tail (the book's grid of n/blockDim.x/8
         * blocks never reaches it, and its test would drop it) */
        T sum = 0;
        for (unsigned int k = 0; k < 8; ++k)
            if (idx + k * blockDim.x < n)
                sum += g_idata[idx + k * blockDim.x];
        g_idata[idx] = sum;
    }
}

template <typename T>
__global__ void reduceUnrolling8(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    T *idata = g_idata + blockIdx.x * blockDim.x * 8;

    unroll8_into_first(g_idata, idx, n);
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* -------------------------------------------------------------------------- */
/* The last warp                                                              */
/* -------------------------------------------------------------------------- */
/*
 * The last six steps of the tree (32, 16, 8, 4, 2, 1), done by warp 0 alone
 * (call it with tid < 32, every lane of warp 0 present) with no
 * __syncthreads(). Returns the block's sum in lane 0.
 *
 * differs from the book: the book writes `vmem[tid] += vmem[tid + 16];` and
 * so on through a volatile pointer, trusting the 32 lanes to run in
 * lockstep. Since Volta (independent thread scheduling) they need not: lane
 * 16 may write its new vmem[16] before lane 0 has read the old one, and
 * vmem[32]'s share is then counted twice. Here each step reads into a
 * register, waits for the whole warp (__syncwarp: every lane has read),
 * writes, and waits again (every lane has written) before the next read.
 * __syncwarp() orders the memory accesses of the lanes it joins, and the
 * compiler keeps no copy of vmem[] in a register across it, so volatile is
 * not needed; on global memory it would even cost, since every volatile
 * access becomes a system-scope one that skips the L1 (docs/lab04.md).
 *
 * `wide` says that vmem[32..63] holds partial sums of this block (blocks of
 * 64 threads or more). differs from the book: with a block of 32 the book's
 * first step adds vmem[tid + 32], which is not one of the block's 32 partial
 * sums (here: elements the unrolling already added in; in a kernel with no
 * unrolling: the next block's data).
 *
 * Lanes 16..31 compute sums nobody needs (their reads reach at most
 * vmem[47], inside the block's own slice of 8 * blockDim.x ints); lane 0's
 * result depends only on correct values, as in the book.
 */
template <typename T>
__device__ __forceinline__ T warpReduceUnrolled(T *vmem, unsigned int tid, bool wide)
{
    T v = vmem[tid];
    if (wide) {
        v += vmem[tid + 32]; __syncwarp();
        vmem[tid] = v;       __syncwarp();
    }
    v += vmem[tid + 16]; __syncwarp();
    vmem[tid] = v;       __syncwarp();
    v += vmem[tid + 8];  __syncwarp();
    vmem[tid] = v;       __syncwarp();
    v += vmem[tid + 4];  __syncwarp();
    vmem[tid] = v;       __syncwarp();
    v += vmem[tid + 2];  __syncwarp();
    vmem[tid] = v;       __syncwarp();
    v += vmem[tid + 1];
    return v;
}

template <typename T>
__global__ void reduceUnrollWarps8(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    T *idata = g_idata + blockIdx.x * blockDim.x * 8;

    unroll8_into_first(g_idata, idx, n);
    __syncthreads();

    /* the tree down to 64 partial sums, a barrier per step ... */
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    /* ... then one warp finishes without any __syncthreads() */
    if (tid < 32) {
        T sum = warpReduceUnrolled(idata, tid, blockDim.x >= 64);
        if (tid == 0)
            g_odata[blockIdx.x] = sum;
    }
}

/* -------------------------------------------------------------------------- */
/* The whole tree written out                                                 */
/* -------------------------------------------------------------------------- */

template <typename T>
__global__ void reduceCompleteUnrollWarps8(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    T *idata = g_idata + blockIdx.x * blockDim.x * 8;

    unroll8_into_first(g_idata, idx, n);
    __syncthreads();

    /* One step per possible block size. Each test holds for a power-of-two
     * block (the command line accepts no other): a block of 512 skips the
     * first step and does the next three. The barriers stand outside the
     * tests, so every thread reaches every one of them. */
    if (blockDim.x >= 1024 && tid < 512)
        idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256)
        idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128)
        idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64)
        idata[tid] += idata[tid + 64];
    __syncthreads();

    if (tid < 32) {
        T sum = warpReduceUnrolled(idata, tid, blockDim.x >= 64);
        if (tid == 0)
            g_odata[blockIdx.x] = sum;
    }
}

/*
 * The same with the block size known to the compiler: `iBlockSize >= 1024`
 * is a constant, so for a block of 512 the first step is not compiled at
 * all, and the index arithmetic uses constants.
 */
template <unsigned int iBlockSize, typename T>
__global__ void reduceCompleteUnroll(T *g_idata, T *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * iBlockSize * 8 + threadIdx.x;
    T *idata = g_idata + blockIdx.x * iBlockSize * 8;

    unroll8_into_first(g_idata, idx, n);
    __syncthreads();

    /* differs from the book: each barrier sits inside its compile-time test,
     * so a step that vanishes takes its barrier with it (the test is the same
     * for every thread, so every thread still reaches every barrier left) */
    if (iBlockSize >= 1024) {
        if (tid < 512)
            idata[tid] += idata[tid + 512];
        __syncthreads();
    }
    if (iBlockSize >= 512) {
        if (tid < 256)
            idata[tid] += idata[tid + 256];
        __syncthreads();
    }
    if (iBlockSize >= 256) {
        if (tid < 128)
            idata[tid] += idata[tid + 128];
        __syncthreads();
    }
    if (iBlockSize >= 128) {
        if (tid < 64)
            idata[tid] += idata[tid + 64];
        __syncthreads();
    }

    if (tid < 32) {
        T sum = warpReduceUnrolled(idata, tid, iBlockSize >= 64);
        if (tid == 0)
            g_odata[blockIdx.x] = sum;
    }
}

#endif /* REDUCE_UNROLL_CUH */
