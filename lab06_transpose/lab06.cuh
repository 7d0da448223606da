/*
 * lab06.cuh - what lab06's files share: the tile of the shared-memory
 * kernels, the row of a kernel table and its launcher (the tables are
 * lab06.cu's and exercises.cu's), how the rows are run (run.cu), and the
 * --explain lecture mode (explain.cu), all read by the program (lab06.cu).
 */
#ifndef LAB06_CUH
#define LAB06_CUH

#include "workbook.h"

/* The tile of the shared-memory transposes (transpose.cuh); the tables size
 * their grids and blocks by it, and exercise 3 starts from it. */
#define TILE 64       /* a block moves one TILE x TILE tile */
#define TILE_ROWS 16  /* its threads: 32 x TILE_ROWS; each moves (TILE/32) x (TILE/TILE_ROWS) = 8 floats */

/* A row of lab06's tables (lab06.cu, exercises.cu): a launcher, and how its
 * grid and block follow from the matrix and -b. */
typedef void (*t_launch)(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block);

/* One launcher per kernel and load flavour; each checks its launch. */
#define LAUNCHER(fn, kernel)                                                                \
    static void fn(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block)     \
    {                                                                                       \
        kernel<<<grid, block>>>(out, in, nx, ny);                                           \
        CHECK_LAUNCH(#kernel);                                                              \
    }

typedef struct {
    wb_kernel_info info;
    t_launch launch;
    int is_copy;   /* verified against the input itself, not its transpose */
    int over_out;  /* the grid covers the output (ny columns, nx rows), not the input */
    int unroll;    /* elements per thread along x: grid.x = ceil(columns / (block.x * unroll)) */
    int tile;      /* >0: one block per tile x tile tile of in (the grid counts tiles) */
    int fixed_x, fixed_y; /* >0: the block, whatever -b says */
    int min_cc;    /* >0: the compute capability it needs (90: 9.0); older GPUs skip the row */
} t_kernel;

/* ---------------------------------------------------------------------- */
/* run.cu: running the rows                                                */
/* ---------------------------------------------------------------------- */
typedef struct {
    int nx, ny;
    size_t n, bytes;
    float *host_in, *host_ref, *host_out; /* the input, its transpose, what a kernel wrote */
    float *d_in, *d_out;
    char in_digest[17], ref_digest[17]; /* wb_fnv1a64 of host_in and host_ref, once each ("" until then) */
} matrices;

/* Refuse (exit 2) a shape whose grid would exceed gridDim.y <= 65535 for a
 * kernel of the run: the program's check_args, before any CUDA call. */
void check_grids(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows);

/* The runner (program.h): each input an nx x ny float matrix from the seed
 * and its transpose; each row's output (and every SM's shared memory)
 * poisoned before every launch, compared bit for bit. */
extern const wb_runner lab06_runner;

/* ---------------------------------------------------------------------- */
/* explain.cu                                                              */
/* ---------------------------------------------------------------------- */
/* Print, for a tiny matrix and for the matrix and block of the command
 * line, which elements the threads of one warp read and write for each
 * kernel, how many 32-byte sectors one warp-wide request touches, and the
 * shared-memory banks of the tiled kernels. CPU only. */
void lab06_explain(const wb_args *a);

#endif /* LAB06_CUH */
