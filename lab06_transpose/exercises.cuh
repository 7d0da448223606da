/*
 * exercises.cuh - YOUR exercises for lab06 (matrix transpose). This is the file you edit.
 *
 *   make lab06 && ./lab06 --exercises     each exercise's row right under the row of the
 *                                         kernel it is measured against: todo, PASS or FAIL
 *   ./lab06 -k transposeSmem32x8          one exercise (and its reference row)
 *   compute-sanitizer --tool racecheck ./lab06 --exercises -k transposeSmemNoSync -n 300x200 -r 1
 *                                         what the race detector says about exercise 3
 *
 * Two kinds of exercise:
 *   write it  a stub whose body is WB_TODO(). Until you delete that line the
 *             row says `todo` (not run, not timed). Then its output is compared
 *             bit for bit with a transpose done on the host, like every kernel,
 *             and timed the same way.
 *   fix it    a kernel as a well-known version has it, bug included. As shipped
 *             it FAILs: find the bug, fix it, and the row says PASS.
 * --exercises runs at 3000x5000 (nx x ny) unless you give -n: a rectangle, taller
 * than wide, whose sides are multiples of no tile side, so a tile hanging over
 * an edge and a swapped bound both show. Test other shapes too (-n 1x7,
 * -n 33x65, -n 5000x3000, -n 8192): a correct kernel passes them all.
 *
 * The contract is the one of transpose.cuh: `in` has ny rows of nx floats,
 * element (row y, column x) at in[y * nx + x]; write its transpose,
 * out[x * ny + y] = in[y * nx + x], for any nx, ny >= 1 with nx * ny < 2^31.
 * Every exercise here runs with its own fixed block, whatever -b says (the
 * table's block column shows it), and one block per tile: the grid is given
 * with each exercise. Before every checked launch the output is filled with
 * 0xFF bytes (NaN), and so is the shared memory of every SM: an element you
 * never write, or a tile element you read before it was written, shows.
 *
 * Handing in: `make handin NAME=yourname` writes the CSV of every lab's
 * --exercises run. The chapter's Exercises section: docs/lab06.md.
 */
#ifndef LAB06_EXERCISES_CUH
#define LAB06_EXERCISES_CUH

#include "workbook.h"

/* -------------------------------------------------------------------------- */
/* Exercise 1 (write it): transposeSmem32x8                                   */
/* -------------------------------------------------------------------------- */
#define TILE_DIM 32   /* the tile is TILE_DIM x TILE_DIM floats */
#define BLOCK_ROWS 8  /* its threads: TILE_DIM x BLOCK_ROWS = 32 x 8 */

/*
 * The classic tiled transpose: a 32x32 tile of `in`, padded to 33 columns in
 * shared memory, moved by a block of 32 x 8 threads. Block (bx, by) takes
 * the tile whose corner is column x0 = bx * TILE_DIM, row y0 = by * TILE_DIM
 * of `in`; the grid is ceil(nx / 32) x ceil(ny / 32) and the block is 32x8
 * whatever -b says. Each thread loads and stores 4 elements, rows ty, ty + 8,
 * ty + 16 and ty + 24 of the tile:
 *   1. rows of `in` into rows of the tile (a warp reads 32 consecutive floats);
 *   2. __syncthreads(), reached by every thread;
 *   3. columns of the tile into rows of `out` (a warp writes 32 consecutive floats).
 * A tile may hang over the right or the bottom edge of the matrix: test each
 * load in the input's coordinates and each store in the output's.
 *
 * Hint: transpose_tile in transpose.cuh does the same with a 64x64 tile and
 * 32x16 threads. Loop with constant bounds (j = 0; j < TILE_DIM; j +=
 * BLOCK_ROWS) so the loops unroll and a thread's 4 loads are in flight at
 * once, and think about which bank tile[tx][ty + j] is in with and without
 * the padding column.
 *
 * Measured against transposeSmemPad (a 64x64 tile, 8 floats per thread).
 * PASS: every element of out bit for bit, at any nx x ny. Graded: PASS, and
 * at least 0.95x transposeSmemPad's speed in the same run.
 */
__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS)
    transposeSmem32x8(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 2 (fix it): transposeSmemRect                                     */
/* -------------------------------------------------------------------------- */
#define BDIMX 32 /* the block, and the tile: BDIMX columns by BDIMY rows of in */
#define BDIMY 16
#define IPAD 2   /* padding: a column of the tile spreads over the 32 banks */

/*
 * The book's shared-memory transpose with padding (Cheng et al., ch. 5),
 * block 32 x 16 (BDIMX x BDIMY) whatever -b says, one thread per element, and
 * the grid ceil(nx / 32) x ceil(ny / 16): block (bx, by) moves the 32-column,
 * 16-row tile of `in` whose corner is column bx * 32, row by * 16. Its
 * threads are renumbered for the store (bidx, irow, icol) so that
 * consecutive threads write consecutive floats of `out`.
 *
 * As shipped the row FAILs at 3000x5000 and PASSes on a square (try -n 3000
 * and -n 3000x5000): whole tiles of out are never written. The check under
 * the table names the first element that is wrong; which elements of out
 * should each thread be allowed to write?
 *
 * The book also has the barrier inside its `if`. That is wrong on its own:
 * where a block hangs over the edge of the matrix, some of its threads skip
 * the barrier, and a __syncthreads() that not every thread of the block
 * reaches is undefined behaviour (a hang, or a barrier that does not wait).
 * Here the barrier is already outside every `if`; keep it there.
 *
 * Measured against transposeSmemPad. PASS: every element of out bit for bit,
 * at any nx x ny. Graded: PASS, and at least 0.50x transposeSmemPad's speed in
 * the same run (its blocks of 32x16 with one element a thread cannot keep up).
 */
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
    ix = blockDim.y * blockIdx.y + icol;
    iy = blockDim.x * blockIdx.x + irow;

    /* linear global memory index for the transposed matrix */
    unsigned int to = iy * ny + ix;

    /* store: a column of the tile into a row of out, with the book's bounds test.
     * (The `to < nx * ny` is no part of the book's kernel: whatever the test
     * before it lets through, no store lands outside out.) */
    if (ix < nx && iy < ny && to < (unsigned int)(nx * ny))
        out[to] = tile[icol][irow];
}

/* -------------------------------------------------------------------------- */
/* Exercise 3 (fix it): transposeSmemNoSync                                   */
/* -------------------------------------------------------------------------- */
/*
 * transposeSmem (transpose.cuh: a TILE x TILE = 64x64 tile, unpadded, moved by
 * 32 x TILE_ROWS = 32x16 threads whatever -b says; the grid is ceil(nx / 64)
 * x ceil(ny / 64)) with its two loops fused into one: for each band of 16
 * rows, load the band, wait at the barrier, store. It looks like the
 * textbook's load - __syncthreads() - store, once per band.
 *
 * As shipped the row FAILs, at every shape taller than 32 rows. Every
 * thread reaches every barrier, and no barrier sits inside an if. But what
 * does a thread read in step 3 of the first band: which rows of the tile
 * does tile[tx + i][ty + j] need, and who has loaded them by then?
 * compute-sanitizer's racecheck (the command at the top of this file) names
 * the shared-memory reads and writes that no barrier orders.
 *
 * Measured against transposeSmem. PASS: every element of out bit for bit, at
 * any nx x ny; fixed, it is as fast as transposeSmem. Graded: PASS, and at
 * least 0.95x transposeSmem's speed in the same run.
 */
__global__ void __launch_bounds__(32 * TILE_ROWS)
    transposeSmemNoSync(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    __shared__ float tile[TILE][TILE];
    int x0 = blockIdx.x * TILE; /* the tile's first column of in */
    int y0 = blockIdx.y * TILE; /* the tile's first row of in */
    int tx = threadIdx.x, ty = threadIdx.y;

#pragma unroll
    for (int j = 0; j < TILE; j += TILE_ROWS) {
        /* 1. rows ty + j of in (this band) into rows of the tile */
#pragma unroll
        for (int i = 0; i < TILE; i += 32)
            if (x0 + tx + i < nx && y0 + ty + j < ny)
                tile[ty + j][tx + i] = in[(y0 + ty + j) * nx + x0 + tx + i];

        /* 2. every thread has loaded its part of the band */
        __syncthreads();

        /* 3. columns ty + j of the tile into rows of out */
#pragma unroll
        for (int i = 0; i < TILE; i += 32)
            if (y0 + tx + i < ny && x0 + ty + j < nx)
                out[(x0 + ty + j) * ny + y0 + tx + i] = tile[tx + i][ty + j];
    }
}

#endif /* LAB06_EXERCISES_CUH */
