/*
 * solutions/exercises.cuh - the instructor's solutions to lab06's exercises,
 * in the shape of the student's exercises.cuh (same names, same contracts).
 * `make lab06 SOLUTIONS=1` builds the lab with this file instead; a run's
 * CSV then says `+solutions` in its build column. Not in the students' copy
 * (make handout).
 */
#ifndef LAB06_EXERCISES_CUH
#define LAB06_EXERCISES_CUH

#include "workbook.h"

/* Exercise 1 (write it): the classic 32x32 tile, padded to 33 columns, moved
 * by 32x8 threads, 4 floats each. Constant trip counts: both loops unroll and
 * a thread's 4 loads are in flight before the barrier. The padding puts
 * tile[tx][ty + j] of lanes tx = 0..31 in 32 different banks (33 is odd). */
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
    transposeSmem32x8(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x0 = blockIdx.x * TILE_DIM; /* the tile's first column of in */
    int y0 = blockIdx.y * TILE_DIM; /* the tile's first row of in */
    int tx = threadIdx.x, ty = threadIdx.y;

    /* 1. rows of in into rows of the tile, tested in the input's coordinates */
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x0 + tx < nx && y0 + ty + j < ny)
            tile[ty + j][tx] = in[(y0 + ty + j) * nx + x0 + tx];

    /* 2. every thread, outside every if */
    __syncthreads();

    /* 3. columns of the tile into rows of out, tested in the output's coordinates:
     *    row x0 + ty + j of out (ny floats long) is column x0 + ty + j of in */
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (y0 + tx < ny && x0 + ty + j < nx)
            out[(x0 + ty + j) * ny + y0 + tx] = tile[tx][ty + j];
}

/* Exercise 2 (fix it): the store is tested in the output's coordinates. After
 * the renumbering ix counts rows of in (a column of out: up to ny) and iy
 * columns of in (a row of out: up to nx); the book compares them with nx and
 * ny, which is right only when nx == ny. At 3000x5000 its `ix < nx` drops
 * every tile of in below row 3000 (columns 3000..4999 of out), and its
 * `iy < ny` lets the last column of tiles, which hangs 8 columns past nx,
 * store tile elements never loaded to rows 3000..3007 of an out that has
 * 3000 rows: past its end (the stub's `to < nx * ny` stopped those). With
 * the right test every store reads a loaded element and lands inside out. */
#define BDIMX 32
#define BDIMY 16
#define IPAD 2

__global__ void __launch_bounds__(BDIMX * BDIMY)
    transposeSmemRect(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    __shared__ float tile[BDIMY][BDIMX + IPAD];

    /* coordinate in the original matrix */
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;

    /* linear global memory index for the original matrix */
    unsigned int ti = iy * nx + ix;

    /* thread index in the transposed block */
    unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = bidx / blockDim.y;
    unsigned int icol = bidx % blockDim.y;

    /* load: a row of in into a row of the tile, tested in the input's coordinates */
    if (ix < nx && iy < ny)
        tile[threadIdx.y][threadIdx.x] = in[ti];

    __syncthreads(); /* every thread of the block reaches it: outside every if */

    /* coordinate in the transposed matrix */
    ix = blockDim.y * blockIdx.y + icol; /* column of out = row of in: below ny */
    iy = blockDim.x * blockIdx.x + irow; /* row of out = column of in: below nx */

    /* linear global memory index for the transposed matrix */
    unsigned int to = iy * ny + ix;

    /* store: tested in the output's coordinates (out has nx rows of ny floats) */
    if (ix < ny && iy < nx)
        out[to] = tile[icol][irow];
}

/* Exercise 3 (fix it): the whole tile must be in shared memory before any of
 * it is read back. Row x0 + ty + j of out is COLUMN ty + j of the tile, which
 * takes one element from each of its 64 rows, loaded in all four bands: with
 * a barrier per band, the first band's store reads rows 32..63 before any
 * thread has loaded them (their loads come after the second barrier, which
 * the reading thread has not reached), and rows 16..31 in a race. Fix: two
 * loops, one barrier between them; this is transposeSmem. */
__global__ void __launch_bounds__(32 * TILE_ROWS)
    transposeSmemNoSync(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    __shared__ float tile[TILE][TILE];
    int x0 = blockIdx.x * TILE; /* the tile's first column of in */
    int y0 = blockIdx.y * TILE; /* the tile's first row of in */
    int tx = threadIdx.x, ty = threadIdx.y;

    /* 1. every band: rows of in into rows of the tile */
#pragma unroll
    for (int j = 0; j < TILE; j += TILE_ROWS)
#pragma unroll
        for (int i = 0; i < TILE; i += 32)
            if (x0 + tx + i < nx && y0 + ty + j < ny)
                tile[ty + j][tx + i] = in[(y0 + ty + j) * nx + x0 + tx + i];

    /* 2. the whole tile is loaded */
    __syncthreads();

    /* 3. columns of the tile into rows of out */
#pragma unroll
    for (int j = 0; j < TILE; j += TILE_ROWS)
#pragma unroll
        for (int i = 0; i < TILE; i += 32)
            if (y0 + tx + i < ny && x0 + ty + j < nx)
                out[(x0 + ty + j) * ny + y0 + tx + i] = tile[tx + i][ty + j];
}

#endif /* LAB06_EXERCISES_CUH */
