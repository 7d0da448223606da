/*
 * modern.cuh - lab05's modern one-pass reduction, what a library does:
 * 16-byte loads (int4), a grid sized to fill the GPU once (as many blocks
 * as fit on the SMs) looping over tiles of the input, MODERN_UNROLL loads in
 * flight per thread, shuffles, and one 64-bit atomicAdd per block that
 * carries both the block's sum and a count of finished blocks, so that the
 * last block knows the total: one launch, one number, no second pass, no
 * memset. Here: its knobs, the tile reader, the one-pass finishes (one
 * 64-bit atomic for int, the last block's fixed-order sum for float and
 * double), reduceModern, reduceModernSmall (one block, for small inputs),
 * reduceAtomic (the finish most code uses), their grid and launchers.
 *
 * The threads are numbered by flatTid() and counted by blockThreads()
 * (kernels/block.cuh): a 2D block of the matrix mode reads exactly as a 1D
 * block of as many threads does. Header-only, so the launchers are static.
 */
#ifndef MODERN_CUH
#define MODERN_CUH

#include "workbook.h"
#include "kernels/block.cuh" /* flatTid, blockThreads, blockReduceShfl, blockSumToThread0 */
#include "policy.h"    /* the launch choices */

/* Tuning knobs, measured on an H100 (docs/lab05.md); each can be changed
 * with e.g. `make lab05 NVFLAGS="-O3 -std=c++20 -DMODERN_UNROLL=1"`. */

/* int4 loads in flight per thread in each trip of the main loop (1, 2, 4, 8). */
#ifndef MODERN_UNROLL
#define MODERN_UNROLL 4
#endif

/* Blocks per SM: 0 asks the occupancy calculator for as many as fit. */
#ifndef MODERN_BLOCKS_PER_SM
#define MODERN_BLOCKS_PER_SM 0
#endif

/* Loop shape: 1 tiles (block b reads the contiguous tiles b, b + gridDim.x,
 * b + 2*gridDim.x, ... of MODERN_UNROLL * blockThreads() vectors, as CUB does);
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

/* 1: thread 0 of every block asks L2 for the count's line at the start, so
 * the one atomic at the end finds it on chip instead of waiting for DRAM
 * (the L2 is cold after a flush, or after any large kernel). */
#ifndef MODERN_PREFETCH
#define MODERN_PREFETCH 1
#endif

/* 16 bytes of T, loaded with one instruction: int4, float4 or double2
 * (each type's vector is in common/types.def). */
template <typename T> struct Vec16 { typedef typename wb_traits<T>::vec16 type; };

/* The sum of one vector, as a pair of pairs (two independent additions). */
__device__ __forceinline__ int sumVec(int4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ float sumVec(float4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ double sumVec(double2 v) { return v.x + v.y; }

template <typename V>
__device__ __forceinline__ V loadModern(const V *__restrict__ p)
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
 * The finish of int sums: the running total of the current launch and the
 * count of blocks that have added to it, in ONE 64-bit word, so that one
 * atomicAdd per block does both:
 *   bits 48..63  blocks done
 *   bits  0..47  the sum of (block sum + 2^31) over those blocks
 * Each term is in [0, 2^32), so up to 65535 blocks never carry into the
 * count, whatever the signs of the block sums. The block whose atomicAdd
 * returns a count of gridDim.x - 1 is the last: the value it got back plus its
 * own term is the whole sum, with no fence and no second read. It sets the
 * word back to 0 for the next launch (no memset, nothing else to launch).
 * One launch at a time: two concurrent launches would share it.
 */
static __device__ unsigned long long modern_acc = 0; /* static: one per file that includes this */

#define MODERN_BIAS 2147483648LL /* 2^31: makes every int block sum non-negative */
#define MODERN_MAX_GRID 65535u   /* the count has 16 bits */

/* The finish of float and double sums: how many blocks of the current launch
 * have written their partial sum; the block that brings it to gridDim.x is
 * the last, and sets it back to 0. */
static __device__ unsigned int modern_done = 0;

/* The vectors base[first + u * step] for u < U (MODERN_UNROLL unless
 * given), those below `end` added: all loads issued before any is used. A
 * vector at or past the end is read at base[0] instead (which exists:
 * end >= 1) and not added. The obvious `if (first + u * step < end) v[u] =
 * ...` lets the compiler add each vector before it asks for the next, one
 * trip to DRAM per vector: measured 0.5 us slower at n = 4096 on an H100. */
template <typename T, int U = MODERN_UNROLL, typename V>
__device__ __forceinline__ T sumGuarded(const V *__restrict__ base, unsigned int first, unsigned int step,
                                        unsigned int end)
{
    V v[U];
    T s = 0;
#pragma unroll
    for (int u = 0; u < U; ++u)
        v[u] = loadModern(base + (first + u * step < end ? first + u * step : 0));
#pragma unroll
    for (int u = 0; u < U; ++u)
        if (first + u * step < end)
            s += sumVec(v[u]);
    return s;
}

/* Adds to sum this thread's share of a partial tile, the `left` vectors
 * base[0..left) (0 < left <= MODERN_UNROLL * blockThreads()) that one block
 * takes: the fewest whole warps that hold them MODERN_UNROLL vectors a
 * thread, one trip to DRAM, no thread asking for a vector that is not
 * there; the threads beyond those warps add nothing. */
template <typename T, typename V>
__device__ __forceinline__ void addPartialTile(T &sum, const V *__restrict__ base, unsigned int left)
{
    unsigned int width = (left + MODERN_UNROLL - 1) / MODERN_UNROLL; /* <= blockThreads() */
    width = (width + 31) / 32 * 32;
    if (flatTid() < width)
        sum += sumGuarded<T>(base, flatTid(), width, left);
}

/* The loads of reduceModern: this thread's share of g_idata[0..n), every
 * element read once by exactly one thread of the grid, added in an order
 * fixed by n, the grid and the block. g_idata must be 16-byte aligned
 * (cudaMalloc gives 256); any n >= 1; any grid. */
template <typename T>
__device__ __forceinline__ T modernThreadSum(const T *__restrict__ g_idata, unsigned int n)
{
    typedef typename Vec16<T>::type V;
    const unsigned int per_vec = sizeof(V) / sizeof(T); /* 4 ints or floats, 2 doubles */
    const V *__restrict__ in4 = (const V *)g_idata;
    unsigned int n4 = n / per_vec; /* whole vectors */
    T sum = 0;

#if MODERN_TILED
    /* a tile = MODERN_UNROLL * blockThreads() consecutive vectors; block b takes
     * tiles b, b + gridDim.x, ... (a grid-stride loop over tiles). In a tile,
     * thread tid loads vectors tid, tid + blockThreads(), ...: MODERN_UNROLL
     * independent 16-byte loads issued before any is used, and each warp's
     * 32 loads are 512 consecutive bytes */
    unsigned int tile = MODERN_UNROLL * blockThreads(), full = n4 / tile, t;
    for (t = blockIdx.x; t < full; t += gridDim.x) {
        const V *p = in4 + t * tile + flatTid();
        V v[MODERN_UNROLL];
#pragma unroll
        for (int u = 0; u < MODERN_UNROLL; ++u)
            v[u] = loadModern(p + u * blockThreads());
#pragma unroll
        for (int u = 0; u < MODERN_UNROLL; ++u)
            sum += sumVec(v[u]);
    }
    /* the vectors after the whole tiles, fewer than one tile: a partial
     * tile for ONE block, the first that got one tile fewer than the others
     * (so no block makes a trip more than they do). At small n this is the
     * whole input (as CUB's single-block kernel does for small inputs) */
    {
        unsigned int left = n4 - full * tile;
        if (left > 0 && blockIdx.x == full % gridDim.x)
            addPartialTile(sum, in4 + full * tile, left);
    }
#else
    /* grid-stride over vectors: thread i loads vectors i, i + stride, ...,
     * MODERN_UNROLL of them per trip, issued before any is used; the last
     * trip guarded */
    unsigned int stride = gridDim.x * blockThreads();
    for (unsigned int i = blockIdx.x * blockThreads() + flatTid(); i < n4; i += MODERN_UNROLL * stride)
        sum += sumGuarded<T>(in4, i, stride, n4);
#endif
    /* the tail: the n % per_vec elements after the last whole vector, one
     * per thread */
    {
        unsigned int t0 = blockIdx.x * blockThreads() + flatTid();
        if (t0 < n % per_vec)
            sum += g_idata[n4 * per_vec + t0];
    }

    return sum;
}

/* The last step of reduceModern for an int sum (the block's sum in thread
 * 0): one atomic carries the sum and the count (modern_acc). Integer
 * addition gives the same total in any order, so the order in which the
 * blocks arrive does not matter. */
__device__ __forceinline__ void finishOnePass(int sum, int *g_odata, int *warp_sums)
{
    (void)warp_sums;
    if (flatTid() == 0) {
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

/* The same for a float or double sum. A floating-point sum depends on the
 * order of its additions, and atomics add in the order the blocks happen to
 * finish, which changes from run to run (reduceAtomic shows it). So each
 * block writes its sum to g_odata[blockIdx.x], and the last block to finish
 * adds the gridDim.x sums in an order fixed before the launch: thread t adds
 * sums t, t + blockThreads(), ..., then the shuffle tree. Every thread of the
 * block must call it (barriers inside). */
template <typename T>
__device__ __forceinline__ void finishOnePass(T sum, T *g_odata, T *warp_sums)
{
    __shared__ bool last;
    if (flatTid() == 0) {
        g_odata[blockIdx.x] = sum;
        /* one atomic per block, with release and acquire order: the sum
         * above reaches L2 before the count says it is there, and the last
         * block sees every other block's sum once it has read the count.
         * (The classic __threadfence(); atomicAdd(...) does the same with a
         * full fence, measured about 0.6 us slower per launch on an H100.) */
        last = __nv_atomic_fetch_add(&modern_done, 1u, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE) ==
               gridDim.x - 1;
    }
    __syncthreads(); /* every thread learns `last`; warp_sums is free again */
    if (last) {
        T v = 0;
        /* __ldcg reads L2, where the other blocks' sums are, never a stale
         * L1 line */
        for (unsigned int b = flatTid(); b < gridDim.x; b += blockThreads())
            v += __ldcg(&g_odata[b]);
        v = blockReduceShfl(v, warp_sums);
        if (flatTid() == 0) {
            g_odata[0] = v;
            modern_done = 0; /* ready for the next launch */
        }
    }
}

/* The counter finishOnePass will touch: modern_acc for int, modern_done
 * for float and double. */
__device__ __forceinline__ const void *finishCounter(const int *) { return &modern_acc; }
template <typename T>
__device__ __forceinline__ const void *finishCounter(const T *) { return &modern_done; }

/* ---------------------------------------------------------------------- */
/* The kernels                                                             */
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

WB_REDUCE_LAUNCHER_T(reduceModern, 0)

/* reduceModernSmall with the fewest vectors a thread that hold the n
 * elements (1, 2, 4, or MODERN_UNROLL when it is more), on one 1D block of
 * `block` threads */
static inline void launch_reduceModernSmall(void *data, void *partial, unsigned n, unsigned block, wb_type type)
{
    unsigned per_vec = 16 / wb_type_size(type), n4 = n / per_vec;
    int threads = wb_tune("WB_TUNE_SMALL_THREADS", 0);
    if (threads > 0 && n4 <= MODERN_UNROLL * (unsigned)threads) /* else the row's block (grid_reduceModern) */
        block = (unsigned)threads;
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

#endif /* MODERN_CUH */
