/*
 * reduce2d.cuh - lab05's matrix kernels: the whole matrix to one number, one
 * number per row, one number per column.
 *
 * The matrix is ny rows of nx ints, row-major: element (r, c) is
 * a[r * nx + c], so a row is nx consecutive words and a column is words nx
 * apart. Which layout is fast is the lesson: a warp's 32 loads are fast when
 * they are 32 neighbouring words (one 128-byte line), slow when they are 32
 * words a row apart (32 lines for 128 useful bytes).
 *
 *   reduce2D          the Numba chapter's 2D reduction: 2D blocks on a 2D
 *                     grid (16x16 on 64x64), each thread striding over both
 *                     axes, one 1D shared array per block indexed by
 *                     threadIdx.x + blockDim.x * threadIdx.y, a tree, one
 *                     partial sum per block (the host adds them)
 *   reduce2DModern    the matrix is one contiguous array: the row runs
 *                     lab05's reduceModern<int> on it (modern.cuh: int4
 *                     tiles, shuffles, one atomic per block),
 *                     the 2D block numbered flat
 *   rowSumNaive       a thread per row: what one writes first; a warp's 32
 *                     threads read 32 different rows (uncoalesced)
 *   rowSumWarp        a warp per row: the 32 lanes read neighbouring int4s
 *                     of the row, shuffles add them
 *   rowSumBlock       a block per row: every thread of the block on the
 *                     row, the block's shuffles add them (fewer rows in
 *                     flight at once, each read faster)
 *   colSumNaive       a thread per column: coalesced by luck (neighbouring
 *                     threads, neighbouring columns), but only nx threads,
 *                     each walking ny rows one dependent load at a time
 *   colSumCoalesced   a warp walks a strip of 128 columns down a chunk of
 *                     rows (one int4 per lane per row: 512 contiguous bytes),
 *                     the block's rows meet in shared memory, and a second
 *                     small kernel adds the chunks' partial column sums
 *   colSumOnePass     the same reads in short chunks (one trip of 8 rows per
 *                     warp), the chunks' sums meeting by atomicAdd in an
 *                     accumulator on the device; the last block of each
 *                     strip writes the strip's sums: one launch. A column sum
 *                     reads about as fast as a row sum: every warp still reads
 *                     along a row, and the partial sums are a few per column
 *
 * Every kernel takes any nx, ny >= 1 and any block of 32..1024 threads (a
 * power of two); integer sums are exact in any order, so the partial sums
 * may be combined in any order. Included by matrix.cu only (the kernels are
 * not static: one translation unit).
 */
#ifndef REDUCE2D_CUH
#define REDUCE2D_CUH

#include "workbook.h"
#include "kernels/block.cuh" /* flatTid, warpReduce, blockReduceShfl, sharedTreeSum */

#define R2D_MAX_THREADS 1024 /* the largest block: the shared arrays are sized for it */
#define R2D_UNROLL 4         /* int4 loads in flight per thread per trip */
#ifndef ROW_BLOCK_UNROLL
#define ROW_BLOCK_UNROLL 8
#endif

/* ---------------------------------------------------------------------- */
/* The whole matrix                                                        */
/* ---------------------------------------------------------------------- */

/*
 * 1. The Numba chapter's reduce2D, in CUDA C. Thread (ix, iy) of the grid
 * adds rows iy, iy + (threads of the grid along y), ... and in each of them
 * columns ix, ix + (threads of the grid along x), ...: consecutive threadIdx.x
 * read consecutive columns (coalesced). Then the block's 2D threads are
 * numbered tid = threadIdx.x + blockDim.x * threadIdx.y in ONE 1D shared
 * array, and the 1D tree runs on it. Block (bx, by) writes its sum to
 * partial[bx + gridDim.x * by]; the host adds the gridDim.x * gridDim.y
 * partial sums.
 *
 * differs from the straight port: each loop steps by the grid's threads
 * along ITS OWN axis (the port steps the rows by the grid's width and the
 * columns by its height: right only on a square grid); the shared array is
 * sized for the largest block (1024), not for 16x16; the tree starts at
 * half of ANY power-of-two block; the sum is an int, exact (the chapter sums
 * float32, whose sum of 4*10^8 values is off in its low digits).
 */
__global__ void reduce2D(const int *a, int *partial, int nx, int ny)
{
    __shared__ int s_block[R2D_MAX_THREADS];
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int threads_x = gridDim.x * blockDim.x, threads_y = gridDim.y * blockDim.y;
    unsigned int tid = threadIdx.x + blockDim.x * threadIdx.y;
    int s_thread = 0;

    for (unsigned int r = iy; r < (unsigned int)ny; r += threads_y)
        for (unsigned int c = ix; c < (unsigned int)nx; c += threads_x)
            s_thread += a[r * (unsigned int)nx + c];

    s_block[tid] = s_thread;
    __syncthreads();
    /* i = (blockDim.x * blockDim.y) // 2; while i != 0: if tid < i: add; sync; i //= 2 */
    sharedTreeSum(s_block, tid);

    if (tid == 0)
        partial[blockIdx.x + gridDim.x * blockIdx.y] = s_block[0];
}

/* ---------------------------------------------------------------------- */
/* One number per row                                                      */
/* ---------------------------------------------------------------------- */

/* 3. A thread per row: thread r adds row r from left to right. At step c the
 * 32 threads of a warp read a[r*nx + c] for 32 neighbouring r: 32 words nx
 * apart, 32 memory lines for 128 useful bytes (the L1 keeps some of the
 * rest for the next steps, while it lasts). */
__global__ void rowSumNaive(const int *a, int *rowsum, int nx, int ny)
{
    unsigned int r = blockIdx.x * blockThreads() + flatTid();
    if (r < (unsigned int)ny) { /* no barrier below: the early exit is safe */
        const int *row = a + r * (unsigned int)nx;
        int s = 0;
        for (int c = 0; c < nx; ++c)
            s += row[c];
        rowsum[r] = s;
    }
}

/*
 * Thread t's share of row[0..nx) when `threads` threads add the row together
 * (a warp: t = lane, threads = 32; a block: t = flatTid()), the row starting
 * at element `start` of a 16-byte aligned matrix: a head of up to 3 ints up
 * to the first 16-byte boundary, then int4 vectors t, t + threads, ..., U of
 * them in flight per trip, then a tail of up to 3 ints. Every int of the row
 * is read by one thread.
 */
template <int U>
__device__ __forceinline__ int rowPartSum(const int *__restrict__ row, unsigned int start, unsigned int nx,
                                          unsigned int t, unsigned int threads)
{
    unsigned int head = (4u - (start & 3u)) & 3u, nv, i, done;
    const int4 *__restrict__ v4;
    int s = 0;
    if (head > nx)
        head = nx;
    if (t < head)
        s += __ldg(row + t);
    v4 = (const int4 *)(row + head);
    nv = (nx - head) / 4;
    for (i = t; i < nv; i += threads * U) {
        int4 v[U];
        /* past the end of the row: read vector i again (no branch around a
         * load, so all U are issued together) and add nothing */
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = __ldg(v4 + (i + threads * u < nv ? i + threads * u : i));
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + threads * u < nv)
                s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    done = head + nv * 4;
    if (t < nx - done)
        s += __ldg(row + done + t);
    return s;
}

/* 4. A warp per row: the warp's 32 lanes read neighbouring int4s of its row
 * (512 contiguous bytes per step), shuffles add the 32 sums, lane 0 writes.
 * The warps of the grid take rows w, w + (warps of the grid), ...: a block
 * per blockThreads()/32 rows. */
__global__ void rowSumWarp(const int *__restrict__ a, int *rowsum, int nx, int ny)
{
    unsigned int lane = flatTid() % 32;
    unsigned int warp = (blockIdx.x * blockThreads() + flatTid()) / 32;
    unsigned int warps = gridDim.x * blockThreads() / 32;
    for (unsigned int r = warp; r < (unsigned int)ny; r += warps) { /* the same trips for the whole warp */
        unsigned int start = r * (unsigned int)nx;
        int s = warpReduce(rowPartSum<R2D_UNROLL>(a + start, start, (unsigned int)nx, lane, 32));
        if (lane == 0)
            rowsum[r] = s;
    }
}

/* 4b. A block per row: the block's threads read neighbouring int4s of its
 * row (blockThreads() * 16 contiguous bytes per step), the block's shuffles
 * add them, thread 0 writes. Block b takes rows b, b + gridDim.x, ... */
__global__ void rowSumBlock(const int *__restrict__ a, int *rowsum, int nx, int ny)
{
    __shared__ int warp_sums[32];
    for (unsigned int r = blockIdx.x; r < (unsigned int)ny; r += gridDim.x) { /* the same trips for the whole block */
        unsigned int start = r * (unsigned int)nx;
        int s = blockReduceShfl(rowPartSum<ROW_BLOCK_UNROLL>(a + start, start, (unsigned int)nx, flatTid(), blockThreads()),
                                warp_sums);
        if (flatTid() == 0)
            rowsum[r] = s;
        __syncthreads(); /* warp 0 has read warp_sums before the next row writes them */
    }
}

/* ---------------------------------------------------------------------- */
/* One number per column                                                   */
/* ---------------------------------------------------------------------- */

/* 5. A thread per column: thread c adds column c from top to bottom. Each
 * step of a warp reads 32 neighbouring words of one row (coalesced), but
 * there are only nx threads, and each has one load in flight at a time. */
__global__ void colSumNaive(const int *a, int *colsum, int nx, int ny)
{
    unsigned int c = blockIdx.x * blockThreads() + flatTid();
    if (c < (unsigned int)nx) {
        int s = 0;
        for (int r = 0; r < ny; ++r)
            s += a[(unsigned int)r * (unsigned int)nx + c];
        colsum[c] = s;
    }
}

/* The vector of W ints a lane loads: int4 (W = 4) or int (W = 1); load
 * reads it through the read-only path, load_cg from L2. */
template <int W> struct lanes_of;
template <> struct lanes_of<4> {
    typedef int4 vec;
    __device__ static int4 zero() { return make_int4(0, 0, 0, 0); }
    __device__ static void add(int4 &s, int4 v) { s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w; }
    __device__ static int at(int4 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w; }
    __device__ static int4 load(const int4 *p) { return __ldg(p); }
    __device__ static int4 load_cg(const int4 *p) { return __ldcg(p); }
};
template <> struct lanes_of<1> {
    typedef int vec;
    __device__ static int zero() { return 0; }
    __device__ static void add(int &s, int v) { s += v; }
    __device__ static int at(int v, int) { return v; }
    __device__ static int load(const int *p) { return __ldg(p); }
    __device__ static int load_cg(const int *p) { return __ldcg(p); }
};

/*
 * The column sums of one chunk of rows, in warp 0 of the block. Block
 * (strip, chunk) has 32 x by threads: lane x owns the W columns
 * (32 * strip + x) * W ..., thread row y adds rows chunk_start + y, + by,
 * ... of the chunk, U rows in flight per trip (a row past the chunk reads
 * the trip's first row again, so that all U loads are issued together, and
 * adds nothing): each step of a warp reads 32 * W * 4 contiguous bytes of
 * one row. The by rows of the block meet in part[] (blockThreads() vectors
 * of shared memory). Returns, in lane x of warp 0, its W sums (*cv: its
 * vector of the row; the lane has columns when *cv < nx / W). W = 4 needs
 * nx % 4 == 0 (every row starts on a 16-byte boundary); W = 1 takes any
 * nx. Every thread must call it (a barrier inside).
 */
template <int W, int U>
__device__ __forceinline__ typename lanes_of<W>::vec chunkColumnSums(const int *__restrict__ a, int nx, int ny,
                                                                     int chunk_rows,
                                                                     typename lanes_of<W>::vec *part,
                                                                     unsigned int *cv_out)
{
    typedef typename lanes_of<W>::vec vec;
    unsigned int lane = threadIdx.x, y = threadIdx.y, by = blockDim.y;
    unsigned int nvec = (unsigned int)nx / W; /* vectors per row */
    unsigned int cv = blockIdx.x * 32 + lane; /* this lane's vector of the row */
    unsigned int r0 = blockIdx.y * (unsigned int)chunk_rows;
    unsigned int r1 = min(r0 + (unsigned int)chunk_rows, (unsigned int)ny), r;
    const vec *__restrict__ av = (const vec *)a;
    vec s = lanes_of<W>::zero();

    if (cv < nvec) { /* no barrier inside: lanes past the last column skip the loads */
        for (r = r0 + y; r < r1; r += U * by) {
            vec v[U];
#pragma unroll
            for (int u = 0; u < U; ++u)
                v[u] = lanes_of<W>::load(av + (r + u * by < r1 ? r + u * by : r) * nvec + cv);
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (r + u * by < r1)
                    lanes_of<W>::add(s, v[u]);
        }
    }
    part[y * 32 + lane] = s;
    __syncthreads();
    if (y == 0 && cv < nvec)
        for (unsigned int k = 1; k < by; ++k)
            lanes_of<W>::add(s, part[k * 32 + lane]);
    *cv_out = cv;
    return s;
}

/*
 * 6a. Partial column sums of one chunk of rows (chunkColumnSums, R2D_UNROLL
 * loads in flight): warp 0 writes scratch[chunk * nx + c].
 */
template <int W>
__global__ void colSumPartial(const int *__restrict__ a, int *scratch, int nx, int ny, int chunk_rows)
{
    typedef typename lanes_of<W>::vec vec;
    __shared__ vec part[R2D_MAX_THREADS];
    unsigned int cv;
    vec s = chunkColumnSums<W, R2D_UNROLL>(a, nx, ny, chunk_rows, part, &cv);
    if (threadIdx.y == 0 && cv < (unsigned int)nx / W)
#pragma unroll
        for (int k = 0; k < W; ++k)
            scratch[blockIdx.y * (unsigned int)nx + cv * W + k] = lanes_of<W>::at(s, k);
}

/* 6b. colsum[c] = the sum over the chunks of scratch[chunk * nx + c]:
 * neighbouring threads, neighbouring columns (coalesced). */
__global__ void colSumChunks(const int *scratch, int *colsum, int nx, int chunks)
{
    unsigned int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < (unsigned int)nx) {
        int s = 0;
        for (int k = 0; k < chunks; ++k)
            s += scratch[(unsigned int)k * (unsigned int)nx + c];
        colsum[c] = s;
    }
}

/*
 * 7. colSumOnePass: colSumCoalesced's reads in one launch. Block (strip,
 * chunk) reads as colSumPartial (chunkColumnSums), COL_UNROLL rows in
 * flight per trip (the launcher makes a chunk one trip of every warp at the
 * usual blocks, 64 rows at 32 x 8, or on a GPU with more memory bandwidth
 * per SM one wave of longer chunks: matrix.cu), then lane x of warp 0 adds
 * its W sums into col_acc with atomicAdd: the chunks of a
 * column meet in L2, in any order (integers: the same sum). The block that
 * counts itself last of its strip in col_done (one acquire-release atomic
 * by thread 0, after the barrier: every block's atomics are in col_acc
 * before its count) copies the strip's sums out and sets col_acc and the
 * count back to 0 for the next launch. With one chunk (a matrix at most
 * one chunk tall, or wider than col_acc) each block writes its sums itself.
 * Any nx (W = 1 when nx % 4 != 0, as colSumPartial), any block; one launch
 * at a time (col_acc is shared).
 */
#define COL_UNROLL 8            /* int4 loads in flight per thread per trip */
#define COL_ACC_MAX (1 << 20)   /* columns col_acc holds (wider: one chunk) */
static __device__ __align__(16) int col_acc[COL_ACC_MAX];
static __device__ unsigned int col_done[COL_ACC_MAX / 32]; /* one per strip */

template <int W>
__global__ void colSumOnePass(const int *__restrict__ a, int *colsum, int nx, int ny, int chunk_rows)
{
    typedef typename lanes_of<W>::vec vec;
    extern __shared__ int4 part_words[]; /* blockThreads() vectors, sized at launch */
    __shared__ bool last;
    unsigned int cv;
    vec s = chunkColumnSums<W, COL_UNROLL>(a, nx, ny, chunk_rows, (vec *)part_words, &cv);
    bool mine = threadIdx.y == 0 && cv < (unsigned int)nx / W; /* warp 0's lanes that have columns */

    if (mine)
#pragma unroll
        for (int k = 0; k < W; ++k) {
            if (gridDim.y == 1)
                colsum[cv * W + k] = lanes_of<W>::at(s, k);
            else
                atomicAdd(&col_acc[cv * W + k], lanes_of<W>::at(s, k));
        }
    if (gridDim.y > 1) {  /* the same for every thread of the grid */
        __syncthreads(); /* the block's atomics are issued before its count */
        if (flatTid() == 0)
            last = __nv_atomic_fetch_add(&col_done[blockIdx.x], 1u, __NV_ATOMIC_ACQ_REL,
                                         __NV_THREAD_SCOPE_DEVICE) == gridDim.y - 1;
        __syncthreads();
        if (last) {
            if (mine) {
                vec *acc = (vec *)col_acc;
                ((vec *)colsum)[cv] = lanes_of<W>::load_cg(&acc[cv]); /* L2, where the atomics are */
                acc[cv] = lanes_of<W>::zero();
            }
            if (flatTid() == 0)
                col_done[blockIdx.x] = 0;
        }
    }
}

#endif /* REDUCE2D_CUH */
