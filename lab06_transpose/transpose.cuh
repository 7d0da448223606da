/*
 * transpose.cuh - lab06's kernels: copies and transposes of a float matrix.
 *
 * The kernels come from Cheng et al., Professional CUDA C Programming,
 * ch. 4 (copyRow ... transposeUnroll4Col) and ch. 5 (transposeSmem,
 * transposeSmemPad). Read the file top to bottom: each kernel changes one
 * thing from the one before.
 *
 * Layout: the input `in` has ny rows of nx floats, row-major:
 *     element (row y, column x) is in[y * nx + x].
 * Its transpose `out` has nx rows of ny floats:
 *     out[x * ny + y] = in[y * nx + x].
 * A warp is 32 threads with consecutive threadIdx.x (then threadIdx.y), so
 * the access whose index moves by 1 with threadIdx.x is the coalesced one.
 *
 *   copyRow               read a row, write a row          (the bound at one float per thread)
 *   copyCol               read a column, write a column    (the lower bound)
 *   transposeNaiveRow     read rows, write columns
 *   transposeNaiveCol     read columns, write rows
 *   transposeUnroll4Row   NaiveRow, four elements per thread
 *   transposeUnroll4Col   NaiveCol, four elements per thread
 *   transposeSmem         a 64x64 tile through shared memory: both coalesced
 *   transposeSmemPad      the same tile padded by one column: no bank conflicts
 *   transposeSmemFloat4   the padded tile with 16-byte (float4) loads and stores
 *
 * The first six are templates on LDCG: with LDCG = true every global load is
 * __ldcg() (cache in L2 only, bypass L1), whatever -Xptxas -dlcm says; the
 * table shows those as "copyRow+ldcg" etc.
 *
 * Every kernel is correct for any nx, ny >= 1 with nx * ny < 2^31 and any
 * block shape; the grids are in lab06.cu (grid_for). Threads outside the
 * matrix do nothing; no kernel returns before a __syncthreads().
 *
 * Included by lab06.cu only.
 */
#ifndef TRANSPOSE_CUH
#define TRANSPOSE_CUH

#include "workbook.h"
#include "policy.h" /* wb_tune: launch_transposeSmemFloat4's variants in a tuning build */
#include "lab06.cuh" /* TILE, TILE_ROWS */

/* One global load: plain (cached in L1 unless built with -dlcm=cg) or
 * __ldcg (ld.global.cg: L2 only). */
template <bool LDCG>
__device__ __forceinline__ float load(const float *p)
{
    return LDCG ? __ldcg(p) : *p;
}

/* --------------------------------------------------------------------- */
/* The two bounds: the same bytes moved, no transposition                 */
/* --------------------------------------------------------------------- */

/* Load and store by rows: a warp reads and writes 32 consecutive floats. */
template <bool LDCG>
__global__ void copyRow(float *out, const float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;

    if (ix < nx && iy < ny)
        out[iy * nx + ix] = load<LDCG>(&in[iy * nx + ix]);
}

/* Load and store by columns: neighbouring threads are ny floats apart.
 * (ix * ny + iy runs over 0 .. nx*ny-1 once for any shape: a copy.) */
template <bool LDCG>
__global__ void copyCol(float *out, const float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;

    if (ix < nx && iy < ny)
        out[ix * ny + iy] = load<LDCG>(&in[ix * ny + iy]);
}

/* --------------------------------------------------------------------- */
/* Naive transposes: one access coalesced, the other strided               */
/* --------------------------------------------------------------------- */

/* Load rows, store columns. Grid over the input (nx x ny). */
template <bool LDCG>
__global__ void transposeNaiveRow(float *out, const float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x; /* column of in */
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y; /* row of in */

    if (ix < nx && iy < ny)
        out[ix * ny + iy] = load<LDCG>(&in[iy * nx + ix]);
}

/* Load columns, store rows. Grid over the output (ny x nx). */
template <bool LDCG>
__global__ void transposeNaiveCol(float *out, const float *in, const int nx, const int ny)
{
    /* differs from the book: the grid covers the output (ny columns, nx rows) and the
     * indices say so; the book's out[iy*nx + ix] = in[ix*ny + iy] is a transpose only if nx == ny */
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x; /* column of out = row of in */
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y; /* row of out = column of in */

    if (ix < ny && iy < nx)
        out[iy * ny + ix] = load<LDCG>(&in[ix * nx + iy]);
}

/* --------------------------------------------------------------------- */
/* Unrolled by four: each thread moves four elements, blockDim.x apart,    */
/* with all four loads issued before the first store                       */
/* --------------------------------------------------------------------- */

/* NaiveRow, four elements per thread. Grid x covers nx / 4. */
template <bool LDCG>
__global__ void transposeUnroll4Row(float *out, const float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x * 4 + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    float v[4];

    /* differs from the book: each of the four elements is tested against nx on its own; the
     * book's `if (ix + 3 * blockDim.x < nx)` skips the last columns when nx is not a multiple
     * of 4 * blockDim.x. The loads also come first: `in` and `out` may alias, so the book's
     * load-store-load-store order keeps the compiler from having four loads in flight. */
    if (iy < ny) {
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (ix + k * blockDim.x < nx)
                v[k] = load<LDCG>(&in[iy * nx + ix + k * blockDim.x]);
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (ix + k * blockDim.x < nx)
                out[(ix + k * blockDim.x) * ny + iy] = v[k];
    }
}

/* NaiveCol, four elements per thread. Grid over the output; x covers ny / 4. */
template <bool LDCG>
__global__ void transposeUnroll4Col(float *out, const float *in, const int nx, const int ny)
{
    /* differs from the book: grid over the output with the output's indices (the book's
     * version is a transpose only for square matrices) and each element tested on its own */
    unsigned int ix = blockDim.x * blockIdx.x * 4 + threadIdx.x; /* column of out = row of in */
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;     /* row of out = column of in */
    float v[4];

    if (iy < nx) {
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (ix + k * blockDim.x < ny)
                v[k] = load<LDCG>(&in[(ix + k * blockDim.x) * nx + iy]);
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (ix + k * blockDim.x < ny)
                out[iy * ny + ix + k * blockDim.x] = v[k];
    }
}


/* --------------------------------------------------------------------- */
/* Through shared memory: read a tile by rows, write it by rows of out     */
/* --------------------------------------------------------------------- */
/* TILE = 64: a block moves one TILE x TILE tile; TILE_ROWS = 16: its threads
 * are 32 x TILE_ROWS, each moving 8 floats (lab06.cuh, which the tables read too) */

/*
 * The block's threads read the tile's rows of `in` (coalesced) into shared
 * memory, wait at the barrier, then read the tile's COLUMNS out of shared
 * memory and write them as rows of `out` (coalesced). Shared memory has 32
 * banks of 4 bytes: tile[r][c] sits in bank (r * (TILE + PAD) + c) % 32.
 * Reading a column, the 32 lanes of a warp have 32 different r: with
 * PAD = 0 they all hit one bank (a 32-way conflict: 32 passes instead of
 * one); PAD = 1 spreads them over the 32 banks.
 *
 * Tuned on an H100 (docs/lab06.md): a 64x64 tile with 32x16 threads moves
 * 8 floats per thread, all 8 loads in flight before the barrier.
 */
template <int PAD>
__device__ __forceinline__ void transpose_tile(float *out, const float *__restrict__ in, const int nx,
                                               const int ny)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x0 = blockIdx.x * TILE; /* the tile's first column of in */
    int y0 = blockIdx.y * TILE; /* the tile's first row of in */
    int tx = threadIdx.x, ty = threadIdx.y;

    /* 1. rows of in into rows of the tile. Constant trip counts: unrolled, so every load
     *    of the thread is in flight at once.
     * differs from the book: the load is tested against (nx, ny) in the input's own
     * coordinates and the store below in the output's; the book tests the transposed
     * coordinates against (nx, ny) once for both, so rectangles lose whole tiles */
#pragma unroll
    for (int j = 0; j < TILE; j += TILE_ROWS)
#pragma unroll
        for (int i = 0; i < TILE; i += 32)
            if (x0 + tx + i < nx && y0 + ty + j < ny)
                tile[ty + j][tx + i] = in[(y0 + ty + j) * nx + x0 + tx + i];

    /* 2. differs from the book: the barrier is outside every `if`, so every thread reaches it */
    __syncthreads();

    /* 3. columns of the tile into rows of out: row x0+ty+j of out is column x0+ty+j of in */
#pragma unroll
    for (int j = 0; j < TILE; j += TILE_ROWS)
#pragma unroll
        for (int i = 0; i < TILE; i += 32)
            if (y0 + tx + i < ny && x0 + ty + j < nx)
                out[(x0 + ty + j) * ny + y0 + tx + i] = tile[tx + i][ty + j];
}

/* The tile as it is: a column of it is one bank. Block 32 x TILE_ROWS. */
__global__ void __launch_bounds__(32 * TILE_ROWS)
    transposeSmem(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    transpose_tile<0>(out, in, nx, ny);
}

/* The tile padded by one column: a column spreads over the 32 banks. */
__global__ void __launch_bounds__(32 * TILE_ROWS)
    transposeSmemPad(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    transpose_tile<1>(out, in, nx, ny);
}

/* --------------------------------------------------------------------- */
/* Where this leads: 16 bytes per access                                   */
/* --------------------------------------------------------------------- */
#define VEC_ROWS 32 /* transposeSmemFloat4's block: 16 x VEC_ROWS threads */

/*
 * transposeSmemPad's tile with float4 global accesses: each load brings 4
 * neighbouring floats of a row of in, each store writes 4 neighbouring
 * floats of a row of out, so a warp moves 512 bytes per instruction instead
 * of 128, and a thread has TILE / ROWS loads of 16 bytes in flight instead
 * of 8 of 4. Block 16 x ROWS (VEC_ROWS as the table shows it): lane tx
 * takes columns 4*tx .. 4*tx+3 of the tile's rows ty, ty + ROWS, ...; then,
 * for rows ty, ty + ROWS, ... of the tile's part of out, rows 4*tx ..
 * 4*tx+3 of one tile column (4 shared loads, one float4 store). Rows of in
 * and of out must start on 16-byte boundaries: nx % 4 == 0 and ny % 4 == 0
 * (the launcher runs transposeSmemPad for other shapes).
 *
 * DIAG: the blocks take the tiles in diagonal order (block b of the launch
 * order takes tile row b % gridDim.y, tile column (b / gridDim.y + that
 * row) % gridDim.x: every tile once). In row order the blocks that run
 * together share a tile row of in, so their stores go to one band of
 * columns of out; when a row of out is a power of two of bytes long
 * (8192x8192: 32 KiB) those stores fall in the same DRAM partitions.
 * Diagonally they spread over the rows and the columns: the classic cure,
 * measured slower on the H200 (docs/tuning.md), kept for a tuning build
 * (launch_transposeSmemFloat4).
 */
template <int ROWS, bool DIAG>
__global__ void __launch_bounds__(16 * ROWS)
    transposeSmemFloat4(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    __shared__ float tile[TILE][TILE + 1];
    int bx = blockIdx.x, by = blockIdx.y;
    if (DIAG) {
        unsigned int b = blockIdx.x + gridDim.x * blockIdx.y; /* the launch order */
        by = b % gridDim.y;
        bx = (b / gridDim.y + by) % gridDim.x;
    }
    int x0 = bx * TILE, y0 = by * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;

    /* 1. rows of in into rows of the tile: a float4 per thread and row
     *    (x0 + 4 * tx < nx holds for all four floats: nx % 4 == 0) */
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x0 + 4 * tx < nx && y0 + ty + j < ny) {
            float4 v = __ldg((const float4 *)&in[(y0 + ty + j) * nx + x0 + 4 * tx]);
            tile[ty + j][4 * tx] = v.x;
            tile[ty + j][4 * tx + 1] = v.y;
            tile[ty + j][4 * tx + 2] = v.z;
            tile[ty + j][4 * tx + 3] = v.w;
        }

    __syncthreads();

    /* 2. columns of the tile into rows of out, 4 rows of the tile per float4 */
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x0 + ty + j < nx && y0 + 4 * tx < ny) {
            int c = ty + j;
            float4 v = make_float4(tile[4 * tx][c], tile[4 * tx + 1][c], tile[4 * tx + 2][c], tile[4 * tx + 3][c]);
            *(float4 *)&out[(x0 + c) * ny + y0 + 4 * tx] = v;
        }
}

/*
 * transposeSmemFloat4 on the grid of TILE x TILE tiles of an nx x ny matrix
 * (nx % 4 == 0, ny % 4 == 0): block 16 x VEC_ROWS, tiles in row order, on
 * every GPU: on the H200 the diagonal order and the other blocks tried
 * were slower (docs/tuning.md), so this policy has one row.
 * (-DWB_TUNE=1: WB_TUNE_T4 = 1 diagonal order; 2, 3 the same two with
 * 16 x 16 threads; 4, 5 with 16 x 8.)
 */
static inline void launch_transposeSmemFloat4(float *out, const float *in, int nx, int ny, dim3 grid)
{
    switch (wb_tune("WB_TUNE_T4", 0)) {
#ifdef WB_TUNE
    case 1: transposeSmemFloat4<VEC_ROWS, true><<<grid, dim3(16, VEC_ROWS)>>>(out, in, nx, ny); break;
    case 2: transposeSmemFloat4<16, false><<<grid, dim3(16, 16)>>>(out, in, nx, ny); break;
    case 3: transposeSmemFloat4<16, true><<<grid, dim3(16, 16)>>>(out, in, nx, ny); break;
    case 4: transposeSmemFloat4<8, false><<<grid, dim3(16, 8)>>>(out, in, nx, ny); break;
    case 5: transposeSmemFloat4<8, true><<<grid, dim3(16, 8)>>>(out, in, nx, ny); break;
#endif
    default: transposeSmemFloat4<VEC_ROWS, false><<<grid, dim3(16, VEC_ROWS)>>>(out, in, nx, ny); break;
    }
    CHECK_LAUNCH("transposeSmemFloat4");
}

#endif /* TRANSPOSE_CUH */
