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
#include "modern.cuh"       /* the modern kernels' tile reader and finishes */

/* 5. Four elements per thread (as reduceSmemUnroll4), then the shuffle tree. */
template <typename T>
__global__ void reduceShfl(T *g_idata, T *g_odata, unsigned int n)
{
    __shared__ T warp_sums[32]; /* one per warp: at most 1024 / 32 */
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;

    /* differs from the book: the book's reduceShfl adds one element per
     * thread; four here, so that its row differs from reduceSmemUnroll4's
     * only in the tree */
    T sum = sumFourGuarded(g_idata, idx, n);

    sum = blockReduceShfl(sum, warp_sums);
    if (threadIdx.x == 0)
        g_odata[blockIdx.x] = sum;
}

/* ---------------------------------------------------------------------- */
/* The modern kernel (its tile reader and finishes: modern.cuh)            */
/* ---------------------------------------------------------------------- */

/* 6. One pass: g_odata[0] = sum of g_idata[0..n) (float and double use
 * g_odata[0..gridDim.x) on the way). g_idata must be 16-byte aligned
 * (cudaMalloc gives 256); any n >= 1; any grid up to 65535. The same input,
 * grid and block give the same bits on every run, in every type. */
template <typename T>
__global__ void reduceModern(const T *__restrict__ g_idata, T *g_odata, unsigned int n)
{
    __shared__ T warp_sums[32];
    T sum;

#if MODERN_PREFETCH
    /* start fetching the finish's counter now; the loads below hide the wait */
    if (flatTid() == 0 && gridDim.x > 1)
        asm volatile("prefetch.L2 [%0];" : : "l"(finishCounter(g_odata)));
#endif

    sum = modernThreadSum(g_idata, n);
    sum = blockReduceShfl(sum, warp_sums);

    /* a grid of one block (small n): its sum is the answer; no count, no
     * atomic, no second read */
    if (gridDim.x == 1) {
        if (flatTid() == 0)
            g_odata[0] = sum;
        return;
    }
    finishOnePass(sum, g_odata, warp_sums);
}

/* 6b. reduceModern for small n, a kernel of its own (as CUB has one): the
 * whole input fits in one block, P vectors a thread (P = the fewest that
 * hold it, at most MODERN_UNROLL, chosen at launch), so ONE block reads it,
 * one trip to DRAM, and writes the sum: no count, no atomic, no second read.
 * Thread t reads vectors t, t + blockDim.x, ... (each warp's loads are 512
 * contiguous bytes), all P issued before the first is used. When the input
 * fills the block exactly (n = P vectors a thread, no tail: every power of
 * two from 2^10 up at the usual blocks) the loads have no guards at all, and
 * the block's sum ends in thread 0 (blockSumToThread0): at this size the
 * kernel is its launch, one DRAM trip and the instructions around it, and
 * each instruction before the loads or after them counts (measured on an
 * H100: 0.1-0.2 us of a 4 us reduction). Launched with a 1D block. */
template <typename T, int P>
__global__ void reduceModernSmall(const T *__restrict__ g_idata, T *g_odata, unsigned int n)
{
    typedef typename Vec16<T>::type V;
    const unsigned int per_vec = sizeof(V) / sizeof(T);
    __shared__ __align__(16) T warp_sums[32];
    const V *__restrict__ in4 = (const V *)g_idata;
    unsigned int tid = threadIdx.x, threads = blockDim.x, n4 = n / per_vec;
    T sum = 0;
    if (n4 == P * threads && n % per_vec == 0) { /* the block full: no guards */
        V v[P];
#pragma unroll
        for (int u = 0; u < P; ++u)
            v[u] = loadModern(in4 + tid + u * threads);
#pragma unroll
        for (int u = 0; u < P; ++u)
            sum += sumVec(v[u]);
    } else {
        if (n4 > 0)
            sum = sumGuarded<T, P>(in4, tid, threads, n4);
        if (tid < n % per_vec) /* the tail: one element per thread */
            sum += g_idata[n4 * per_vec + tid];
    }
    sum = blockSumToThread0(sum, warp_sums);
    if (tid == 0)
        g_odata[0] = sum;
}

/* ---------------------------------------------------------------------- */
/* The finish most code uses, and why it is not ours                       */
/* ---------------------------------------------------------------------- */
/* One running total per type, and the count of blocks that have added to
 * it; the last block copies the total out and sets both back to 0. */
static __device__ int atomic_total_int = 0;
static __device__ float atomic_total_float = 0;
static __device__ double atomic_total_double = 0;
static __device__ unsigned int atomic_done = 0;

__device__ __forceinline__ int *atomicTotal(const int *) { return &atomic_total_int; }
__device__ __forceinline__ float *atomicTotal(const float *) { return &atomic_total_float; }
__device__ __forceinline__ double *atomicTotal(const double *) { return &atomic_total_double; }

/* 7. reduceModern's loads and block sums, then the finish found in most
 * code: every block atomicAdds its sum into one running total. The blocks
 * arrive in a different order on every run; for int that changes nothing,
 * for float and double it changes the rounding, so the same input can give
 * different bits from run to run (./lab05 --type float --values uniform
 * counts them). */
template <typename T>
__global__ void reduceAtomic(const T *__restrict__ g_idata, T *g_odata, unsigned int n)
{
    __shared__ T warp_sums[32];
    T sum = blockReduceShfl(modernThreadSum(g_idata, n), warp_sums);
    if (flatTid() == 0) {
        T *total = atomicTotal(g_odata);
        atomicAdd(total, sum); /* in whatever order the blocks come */
        __threadfence();       /* the addition is done before the count says so */
        if (atomicAdd(&atomic_done, 1u) == gridDim.x - 1) {
            __threadfence();
            g_odata[0] = __ldcg(total);
            *total = 0; /* ready for the next launch */
            atomic_done = 0;
        }
    }
}

/* The grid: as many blocks as the GPU holds at once (or MODERN_BLOCKS_PER_SM
 * per SM), but no more blocks than there are tiles (trips) of work. At small
 * n that is one block, and the row's launcher runs reduceModernSmall: no
 * count, no second read, the path CUB takes for small inputs (one block,
 * one kernel). */
template <typename T>
static unsigned grid_reduceModernT(unsigned n, unsigned block, const wb_gpu *g)
{
    const unsigned per_vec = 16 / sizeof(T);
    int per_sm = MODERN_BLOCKS_PER_SM;
    unsigned long long want, need;
    if (per_sm <= 0)
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduceModern<T>, (int)block, 0));
    if (per_sm < 1)
        per_sm = 1;
    want = (unsigned long long)per_sm * (unsigned)g->sm_count;
    if (want > MODERN_MAX_GRID)
        want = MODERN_MAX_GRID;
    need = (unsigned long long)wb_ceil_div((long long)n / per_vec,
                                           (long long)block * (MODERN_TILED ? MODERN_UNROLL : 1));
    if (need < 1)
        need = 1;
    return (unsigned)(want < need ? want : need);
}

static inline unsigned grid_reduceModern(unsigned n, unsigned block, const wb_gpu *g, wb_type type)
{
    return wb_with_type(type, [&](auto z) { return grid_reduceModernT<decltype(z)>(n, block, g); });
}

WB_REDUCE_LAUNCHER_T(reduceShfl, 0)

WB_REDUCE_LAUNCHER_T(reduceModern, 0)

/* reduceModernSmall with the fewest vectors a thread that hold the n
 * elements (1, 2, 4, or MODERN_UNROLL when it is more), on one 1D block of
 * `block` threads */
static inline void launch_reduceModernSmall(void *data, void *partial, unsigned n, unsigned block, wb_type type)
{
    unsigned per_vec = 16 / wb_type_size(type), n4 = n / per_vec;
    wb_with_type(type, [&](auto z) {
        using T = decltype(z);
        const T *in = (const T *)data;
        if (n4 <= block)
            reduceModernSmall<T, 1><<<1, block>>>(in, (T *)partial, n);
        else if (n4 <= 2 * block)
            reduceModernSmall<T, 2><<<1, block>>>(in, (T *)partial, n);
        else if (n4 <= 4 * block)
            reduceModernSmall<T, 4><<<1, block>>>(in, (T *)partial, n);
        else
            reduceModernSmall<T, MODERN_UNROLL><<<1, block>>>(in, (T *)partial, n);
    });
    CHECK_LAUNCH("reduceModernSmall");
}

/* reduceModern's row: the small-n kernel when the input fits in one tile of
 * the block (grid_reduceModern then gives one block), else reduceModern */
static inline void launch_reduceModernRow(void *data, void *partial, unsigned n, unsigned grid, unsigned block,
                                   wb_type type)
{
    unsigned per_vec = 16 / wb_type_size(type); /* elements in 16 bytes */
    if (grid == 1 && n / per_vec <= MODERN_UNROLL * block)
        launch_reduceModernSmall(data, partial, n, block, type);
    else
        launch_reduceModern(data, partial, n, grid, block, type);
}
WB_REDUCE_LAUNCHER_T(reduceAtomic, 0)

#endif /* REDUCE_SHFL_CUH */
