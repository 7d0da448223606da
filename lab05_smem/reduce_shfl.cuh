/*
 * reduce_shfl.cuh - lab05's last two kernels: warp shuffles, then a modern
 * one-pass reduction.
 *
 *   reduceShfl    Cheng et al., ch. 5: inside a warp the 32 lanes trade
 *                 registers with __shfl_xor_sync (no shared memory, no
 *                 barrier); one word per warp goes through shared memory, and
 *                 the first warp shuffles those: one __syncthreads() per
 *                 block instead of one per step of the tree.
 *   reduceModern  what a library does: 16-byte loads (int4), a grid sized
 *                 to fill the GPU once (as many blocks as fit on the SMs)
 *                 looping over tiles of the input, 4 loads in flight per
 *                 thread, shuffles, and one 64-bit atomicAdd per block that
 *                 carries both the block's sum and a count of finished
 *                 blocks, so that the last block knows the total: one launch,
 *                 one number, no second pass, no memset.
 *
 * Included by lab05.cu; header-only, so the launchers are static.
 */
#ifndef REDUCE_SHFL_CUH
#define REDUCE_SHFL_CUH

#include "workbook.h"
#include "reduce_smem.cuh" /* sumFourGuarded */
#include "block_sum.cuh"    /* warpReduce, blockReduceShfl */

/* 5. Four elements per thread (as reduceSmemUnroll4), then the shuffle tree. */
__global__ void reduceShfl(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int warp_sums[32]; /* one per warp: at most 1024 / 32 */
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;

    /* differs from the book: the book's reduceShfl adds one element per
     * thread; four here, so that its row differs from reduceSmemUnroll4's
     * only in the tree */
    int sum = sumFourGuarded(g_idata, idx, n);

    sum = blockReduceShfl(sum, warp_sums);
    if (threadIdx.x == 0)
        g_odata[blockIdx.x] = sum;
}

/* ---------------------------------------------------------------------- */
/* The modern kernel                                                        */
/* ---------------------------------------------------------------------- */

/* Tuning knobs, measured on an H100 (docs/lab05.md); each can be changed
 * with e.g. `make lab05 NVFLAGS="-O3 -std=c++17 -DMODERN_UNROLL=1"`. */

/* int4 loads in flight per thread in each trip of the main loop (1, 2, 4, 8). */
#ifndef MODERN_UNROLL
#define MODERN_UNROLL 4
#endif

/* Blocks per SM: 0 asks the occupancy calculator for as many as fit. */
#ifndef MODERN_BLOCKS_PER_SM
#define MODERN_BLOCKS_PER_SM 0
#endif

/* Loop shape: 1 tiles (block b reads the contiguous tiles b, b + gridDim.x,
 * b + 2*gridDim.x, ... of MODERN_UNROLL * blockDim.x vectors, as CUB does);
 * 0 grid-stride over vectors (thread t reads vectors t, t + T, t + 2T, ...,
 * T = all threads of the grid). */
#ifndef MODERN_TILED
#define MODERN_TILED 1
#endif

/* How each int4 is loaded: 1 __ldg (the read-only data path; the input is
 * never written during the kernel), 0 a plain load, 2 __ldcs (streaming:
 * evict first). All three measured the same on the H100: the data is read
 * once, so there is nothing to cache. */
#ifndef MODERN_LOAD
#define MODERN_LOAD 1
#endif

/* 1: thread 0 of every block asks L2 for the accumulator's line at the
 * start, so the one atomic at the end finds it on chip instead of waiting
 * for DRAM (the L2 is cold after a flush, or after any large kernel). */
#ifndef MODERN_PREFETCH
#define MODERN_PREFETCH 1
#endif

__device__ __forceinline__ int4 loadModern(const int4 *__restrict__ p)
{
#if MODERN_LOAD == 1
    return __ldg(p);
#elif MODERN_LOAD == 2
    return __ldcs(p);
#else
    return *p;
#endif
}

/*
 * The running total of the current launch and the count of blocks that have
 * added to it, in ONE 64-bit word, so that one atomicAdd per block does both:
 *   bits 48..63  blocks done
 *   bits  0..47  the sum of (block sum + 2^31) over those blocks
 * Each term is in [0, 2^32), so up to 65535 blocks never carry into the
 * count, whatever the signs of the block sums. The block whose atomicAdd
 * returns a count of gridDim.x - 1 is the last: the value it got back plus its
 * own term is the whole sum, with no fence and no second read. It sets the
 * word back to 0 for the next launch (no memset, nothing else to launch).
 * One launch at a time: two concurrent launches would share it.
 */
__device__ unsigned long long modern_acc = 0;

#define MODERN_BIAS 2147483648LL /* 2^31: makes every int block sum non-negative */
#define MODERN_MAX_GRID 65535u   /* the count has 16 bits */

/* The loads of reduceModern: this thread's share of g_idata[0..n), every
 * element read once by exactly one thread of the grid. g_idata must be
 * 16-byte aligned (cudaMalloc gives 256); any n >= 1; any grid. */
__device__ __forceinline__ int modernThreadSum(const int *__restrict__ g_idata, unsigned int n)
{
    const int4 *__restrict__ in4 = (const int4 *)g_idata;
    unsigned int n4 = n / 4; /* whole int4 vectors */
    unsigned int stride = gridDim.x * blockDim.x;
    int sum = 0;

#if MODERN_TILED
    /* a tile = MODERN_UNROLL * blockDim.x consecutive vectors; block b takes
     * tiles b, b + gridDim.x, ... (a grid-stride loop over tiles). In a tile,
     * thread tid loads vectors tid, tid + blockDim.x, ...: MODERN_UNROLL
     * independent 16-byte loads issued before any is used, and each warp's
     * 32 loads are 512 consecutive bytes */
    unsigned int tile = MODERN_UNROLL * blockDim.x, full = n4 / tile, t;
    unsigned int i = full * tile + blockIdx.x * blockDim.x + threadIdx.x; /* after the tiles */
    for (t = blockIdx.x; t < full; t += gridDim.x) {
        const int4 *p = in4 + t * tile + threadIdx.x;
        int4 v[MODERN_UNROLL];
#pragma unroll
        for (int u = 0; u < MODERN_UNROLL; ++u)
            v[u] = loadModern(p + u * blockDim.x);
#pragma unroll
        for (int u = 0; u < MODERN_UNROLL; ++u)
            sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
#else
    /* grid-stride over vectors: thread i loads vectors i, i + stride, ...,
     * MODERN_UNROLL of them per trip, issued before any is used */
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (MODERN_UNROLL - 1) * stride < n4; i += MODERN_UNROLL * stride) {
        int4 v[MODERN_UNROLL];
#pragma unroll
        for (int u = 0; u < MODERN_UNROLL; ++u)
            v[u] = loadModern(in4 + i + u * stride);
#pragma unroll
        for (int u = 0; u < MODERN_UNROLL; ++u)
            sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
#endif
    /* the vectors left over (less than a tile, or a trip, per block), one
     * per thread, grid-stride */
    for (; i < n4; i += stride) {
        int4 v = loadModern(in4 + i);
        sum += (v.x + v.y) + (v.z + v.w);
    }
    /* the tail: n % 4 ints after the last whole vector, one per thread */
    {
        unsigned int t0 = blockIdx.x * blockDim.x + threadIdx.x;
        if (t0 < n % 4)
            sum += g_idata[n4 * 4 + t0];
    }

    return sum;
}

/* 6. One pass: g_odata[0] = sum of g_idata[0..n). g_idata must be 16-byte
 * aligned (cudaMalloc gives 256); any n >= 1; any grid 1..65535. */
__global__ void reduceModern(const int *__restrict__ g_idata, int *g_odata, unsigned int n)
{
    __shared__ int warp_sums[32];
    int sum;

#if MODERN_PREFETCH
    /* start fetching the accumulator now; the loads below hide the wait */
    if (threadIdx.x == 0)
        asm volatile("prefetch.L2 [%0];" : : "l"(&modern_acc));
#endif

    sum = modernThreadSum(g_idata, n);
    sum = blockReduceShfl(sum, warp_sums);

    if (threadIdx.x == 0) {
        unsigned long long mine = (1ull << 48) + (unsigned long long)((long long)sum + MODERN_BIAS);
        unsigned long long before = atomicAdd(&modern_acc, mine); /* one atomic per block */
        if ((before >> 48) == gridDim.x - 1) {
            /* the last block: before + mine holds every block's term */
            unsigned long long all = (before + mine) & ((1ull << 48) - 1);
            g_odata[0] = (int)((long long)all - (long long)gridDim.x * MODERN_BIAS);
            modern_acc = 0;
        }
    }
}

/* The grid: as many blocks as the GPU holds at once (or MODERN_BLOCKS_PER_SM
 * per SM), but no more blocks than there are tiles (trips) of work. */
static unsigned grid_reduceModern(unsigned n, unsigned block, const wb_gpu *g)
{
    int per_sm = MODERN_BLOCKS_PER_SM;
    unsigned long long want, need;
    if (per_sm <= 0)
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduceModern, (int)block, 0));
    if (per_sm < 1)
        per_sm = 1;
    want = (unsigned long long)per_sm * (unsigned)g->sm_count;
    if (want > MODERN_MAX_GRID)
        want = MODERN_MAX_GRID;
    need = (unsigned long long)wb_ceil_div((long long)n / 4, (long long)block * (MODERN_TILED ? MODERN_UNROLL : 1));
    if (need < 1)
        need = 1;
    return (unsigned)(want < need ? want : need);
}

static inline void launch_reduceShfl(int *data, int *partial, unsigned n, unsigned grid, unsigned block)
{
    reduceShfl<<<grid, block>>>(data, partial, n);
    CHECK_LAUNCH("reduceShfl");
}

static inline void launch_reduceModern(int *data, int *partial, unsigned n, unsigned grid,
                                       unsigned block)
{
    reduceModern<<<grid, block>>>(data, partial, n);
    CHECK_LAUNCH("reduceModern");
}

#endif /* REDUCE_SHFL_CUH */
