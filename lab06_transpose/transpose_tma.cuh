/*
 * transpose_tma.cuh - lab06's Hopper row: the tile moved in and out by the
 * Tensor Memory Accelerator (TMA), and the library's transpose beside it.
 *
 *   transposeTMA   a 64x64 tile: one thread asks the TMA to copy the tile of
 *                  in into shared memory (one instruction, cp.async.bulk.tensor),
 *                  the block transposes it inside shared memory, one thread
 *                  asks the TMA to write the transposed tile to out
 *   cublasSgeam    cuBLAS's transpose (C = alpha * A^T + beta * B, beta = 0):
 *                  what a program calls when it does not write its own
 *
 * What the SM no longer does, against transposeSmemPad: no thread computes
 * a global address, issues a global load or store, or tests a bound. The
 * TMA walks the tile's rows from a description of the matrix (the tensor
 * map: base, sides, row pitch, tile size) made once on the host; a tile
 * that hangs over the matrix's edge is filled with zeros on the way in and
 * clipped on the way out. The threads only move words inside shared memory.
 *
 * The TMA came with compute capability 9.0 (Hopper): on older GPUs the row is
 * not run (run.cu says why). The tensor map's row pitch must be a multiple of
 * 16 bytes: sides that are not multiples of 4 run transposeSmemPad, as
 * transposeSmemFloat4 does.
 *
 * Included by lab06.cu only.
 */
#ifndef TRANSPOSE_TMA_CUH
#define TRANSPOSE_TMA_CUH

#include "workbook.h"
#include "lab06.cuh"

#include <cuda.h>         /* CUtensorMap */
#include <cudaTypedefs.h> /* PFN_cuTensorMapEncodeTiled */
#include <cuda/barrier>   /* cuda::barrier, the TMA's copies */
#include <cublas_v2.h>

#include <stdio.h>
#include <stdlib.h>

#define TMA_TILE 64 /* the tile the TMA moves: TMA_TILE x TMA_TILE floats (16 KiB) */
#define TMA_ROWS 8  /* the block: 32 x TMA_ROWS threads */

/*
 * transposeTMA: block (bx, by) transposes the tile whose first column of in
 * is x0 = bx * TMA_TILE and first row y0 = by * TMA_TILE.
 *   1. thread 0 starts the copy of the tile into tile_in (the TMA counts its
 *      bytes into the barrier); every thread waits at the barrier;
 *   2. the block writes tile_in's columns as tile_out's rows;
 *   3. thread 0 starts the copy of tile_out to out, and waits until the TMA
 *      has read it (shared memory must outlive the copy).
 * Step 2 walks the tile diagonally: at each step lane l of a warp reads
 * element (row l, column l + k) of tile_in and writes it to (row l + k,
 * column l) of tile_out, so the 32 lanes touch 32 different banks on both
 * sides without padding (the TMA writes the tile densely: no room for a pad).
 */
__global__ void __launch_bounds__(32 * TMA_ROWS)
    transposeTMA(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map)
{
#if __CUDA_ARCH__ >= 900
    namespace cde = cuda::device::experimental;
    using barrier = cuda::barrier<cuda::thread_scope_block>;
    __shared__ alignas(128) float tile_in[TMA_TILE][TMA_TILE];  /* [row of in][column of in] */
    __shared__ alignas(128) float tile_out[TMA_TILE][TMA_TILE]; /* [row of out][column of out] */
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier bar;
    int x0 = blockIdx.x * TMA_TILE, y0 = blockIdx.y * TMA_TILE;
    int lane = threadIdx.x, warp = threadIdx.y;
    barrier::arrival_token token;

    if (lane == 0 && warp == 0) {
        init(&bar, blockDim.x * blockDim.y);
        cde::fence_proxy_async_shared_cta(); /* the TMA sees the initialised barrier */
    }
    __syncthreads();

    /* 1. in -> tile_in: one thread asks; the barrier completes when every
     *    thread has arrived AND the TMA has delivered sizeof(tile_in) bytes */
    if (lane == 0 && warp == 0) {
        cde::cp_async_bulk_tensor_2d_global_to_shared(&tile_in, &in_map, x0, y0, bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile_in));
    } else {
        token = bar.arrive();
    }
    bar.wait(std::move(token));

    /* 2. columns of tile_in into rows of tile_out, diagonally. Warp w takes
     *    the columns 8w .. 8w+7 (mod 64) ahead of each lane's row, for the
     *    rows lane and lane + 32: 64 x 64 elements over 8 warps */
#pragma unroll
    for (int half = 0; half < TMA_TILE; half += 32)
#pragma unroll
        for (int k = 0; k < TMA_TILE / TMA_ROWS; ++k) {
            int r = lane + half;                                        /* row of tile_in */
            int c = (lane + warp * (TMA_TILE / TMA_ROWS) + k) % TMA_TILE; /* column of tile_in */
            tile_out[c][r] = tile_in[r][c];
        }

    /* 3. tile_out -> out: the TMA reads shared memory through another path
     *    (the async proxy): each thread's writes must be fenced for it */
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (lane == 0 && warp == 0) {
        cde::cp_async_bulk_tensor_2d_shared_to_global(&out_map, y0, x0, &tile_out);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>(); /* tile_out read: the block may end */
    }
#endif
}

/* cuTensorMapEncodeTiled, a driver function, through the runtime (no -lcuda) */
static PFN_cuTensorMapEncodeTiled_v12000 tma_encoder(void)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    if (!encode) {
        cudaDriverEntryPointQueryResult found;
        void *fn = NULL;
        CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
        if (found != cudaDriverEntryPointSuccess || !fn) {
            fprintf(stderr, "lab06: cuTensorMapEncodeTiled not found in the driver (%s:%d)\n", __FILE__, __LINE__);
            exit(WB_EXIT_CUDA);
        }
        encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    }
    return encode;
}

/* The TMA's description of a rows x cols row-major float matrix at base,
 * moved in TMA_TILE x TMA_TILE tiles (cols % 4 == 0: the row pitch is a
 * multiple of 16 bytes). */
static CUtensorMap tma_map(const float *base, int cols, int rows)
{
    CUtensorMap map;
    cuuint64_t sides[2] = {(cuuint64_t)cols, (cuuint64_t)rows}; /* the fastest-moving side first */
    cuuint64_t pitch[1] = {(cuuint64_t)cols * sizeof(float)};  /* bytes from a row to the next */
    cuuint32_t box[2] = {TMA_TILE, TMA_TILE};
    cuuint32_t step[2] = {1, 1};
    CUresult res = tma_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, sides, pitch, box, step,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (res != CUDA_SUCCESS) {
        fprintf(stderr, "lab06: %s:%d: cuTensorMapEncodeTiled failed for a %dx%d matrix (CUresult %d)\n",
                __FILE__, __LINE__, cols, rows, (int)res);
        exit(WB_EXIT_CUDA);
    }
    return map;
}

/* transposeTMA on the grid of TMA_TILE x TMA_TILE tiles (nx % 4 == 0,
 * ny % 4 == 0). The two maps are made once per pair of matrices (on the
 * host, a few microseconds: kept out of the timed launches). */
static void launch_transposeTMA(float *out, const float *in, int nx, int ny, dim3 grid)
{
    static const float *m_in;
    static float *m_out;
    static int m_nx, m_ny;
    static CUtensorMap in_map, out_map;
    if (in != m_in || out != m_out || nx != m_nx || ny != m_ny) {
        in_map = tma_map(in, nx, ny);   /* in: ny rows of nx */
        out_map = tma_map(out, ny, nx); /* out: nx rows of ny */
        m_in = in;
        m_out = out;
        m_nx = nx;
        m_ny = ny;
    }
    transposeTMA<<<grid, dim3(32, TMA_ROWS)>>>(in_map, out_map);
    CHECK_LAUNCH("transposeTMA");
}

/* A cuBLAS call's status: anything but success names file, line and call, exit 3. */
#define CHECK_CUBLAS(call)                                                                           \
    do {                                                                                              \
        cublasStatus_t st_ = (call);                                                                  \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                           \
            fprintf(stderr, "lab06: %s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                \
                    cublasGetStatusString(st_));                                                      \
            exit(WB_EXIT_CUDA);                                                                       \
        }                                                                                             \
    } while (0)

/*
 * The library's transpose. cuBLAS is column-major: our in (ny rows of nx,
 * row-major) is its nx x ny matrix A with leading dimension nx, and our out
 * (nx rows of ny) its ny x nx matrix C with leading dimension ny, so
 * out = in^T is C = 1 * A^T + 0 * B. With beta = 0 cuBLAS does not read B;
 * B is C (its in-place form), so that no other buffer is needed.
 */
static void launch_cublasSgeam(float *out, const float *in, int nx, int ny)
{
    static cublasHandle_t handle;
    static int made;
    const float one = 1.0f, zero = 0.0f;
    if (!made) {
        CHECK_CUBLAS(cublasCreate(&handle));
        made = 1;
    }
    CHECK_CUBLAS(cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, ny, nx, &one, in, nx, &zero, out, ny, out, ny));
    CHECK_LAUNCH("cublasSgeam");
}

#endif /* TRANSPOSE_TMA_CUH */
