/*
 * lab06 - matrix transpose: coalescing of loads versus stores, and the L1 cache.
 *
 * Build and run:
 *     make lab06 && ./lab06              every kernel at 2048x2048 floats, 16x16 blocks
 *     ./lab06 -n 8192                    8192x8192 (256 MiB per matrix: far more than the L2)
 *     ./lab06 -n 8192x4096 -b 32x8       a rectangle, another block shape
 *     ./lab06 -k transposeNaiveRow,transposeNaiveCol
 *     ./lab06 --explain                  who reads and writes what, per warp (CPU only)
 *     ./lab06 --exercises                your exercises (exercises.cuh), each under the row
 *                                        it is measured against, at 3000x5000
 *     make lab06 DLCM=cg && ./lab06      the same program built with -Xptxas -dlcm=cg
 *                                        (DLCM=ca: -dlcm=ca); the banner says which
 *
 * The kernels (transpose.cuh), in the order of the table:
 *   copyRow, copyCol                       the bounds: the same bytes, no transposition
 *   transposeNaiveRow, transposeNaiveCol   one access coalesced, the other strided
 *   transposeUnroll4Row, transposeUnroll4Col  four elements per thread
 *   transposeSmem, transposeSmemPad        a shared-memory tile, without and with padding
 *   transposeSmemFloat4                    the padded tile with 16-byte loads and stores
 *   transposeTMA                           the tile moved by the Tensor Memory Accelerator (cc 9.0+)
 *   cublasSgeam                            the library's transpose (transpose_tma.cuh)
 * and each of the first six again as "NAME+ldcg", with every load an __ldcg()
 * (L1 bypassed), so one table shows what the L1 cache does. The student's
 * exercises (exercises.cuh; solutions/ with SOLUTIONS=1) are a second table,
 * compiled with them in exercises.cu.
 *
 * The input is ny rows of nx floats; every kernel's output is compared bit
 * for bit with a transpose done on the host (the copies with the input).
 * Before every launch, checked or timed, the output buffer is filled with
 * 0xFF bytes (NaN) and so is the shared memory of every SM, so a kernel that
 * writes nothing, or reads a tile element nobody wrote, cannot pass on
 * leftovers; after the timed repetitions the output is compared again, so a
 * kernel right only on its first launch fails too. The exit status is the
 * verdict (run.cu runs the rows). The chapter is docs/lab06.md; the DLCM=ca and DLCM=cg builds'
 * is docs/lab06-l1.md.
 */
#include "workbook.h"
#include "transpose.cuh"
#include "transpose_tma.cuh" /* transposeTMA, cublasSgeam */
#include "lab06.cuh" /* the row type; run.cu's rows, explain.cu's --explain */
#include "exercises.h" /* the exercise table (exercises.cu) */

#include <string.h>

/* ---------------------------------------------------------------------- */
/* The table of kernels                                                    */
/* ---------------------------------------------------------------------- */
/* One launcher per kernel and load flavour (LAUNCHER: lab06.cuh). */
LAUNCHER(run_copyRow, copyRow<false>)
LAUNCHER(run_copyRow_cg, copyRow<true>)
LAUNCHER(run_copyCol, copyCol<false>)
LAUNCHER(run_copyCol_cg, copyCol<true>)
LAUNCHER(run_naiveRow, transposeNaiveRow<false>)
LAUNCHER(run_naiveRow_cg, transposeNaiveRow<true>)
LAUNCHER(run_naiveCol, transposeNaiveCol<false>)
LAUNCHER(run_naiveCol_cg, transposeNaiveCol<true>)
LAUNCHER(run_unroll4Row, transposeUnroll4Row<false>)
LAUNCHER(run_unroll4Row_cg, transposeUnroll4Row<true>)
LAUNCHER(run_unroll4Col, transposeUnroll4Col<false>)
LAUNCHER(run_unroll4Col_cg, transposeUnroll4Col<true>)
LAUNCHER(run_smem, transposeSmem)
LAUNCHER(run_smemPad, transposeSmemPad)

/* fast (a kernel of 16-byte rows: transposeSmemFloat4, transposeTMA) where
 * every row of in and out starts on 16 bytes, else the padded tile with its
 * own block; the grid, one block per 64x64 tile, is the same */
typedef void (*t_tile_launch)(float *out, const float *in, int nx, int ny, dim3 grid);
static_assert(TMA_TILE == TILE, "transposeTMA's fallback, transposeSmemPad, takes its grid");
static void run_on_16_bytes(t_tile_launch fast, float *out, const float *in, int nx, int ny, dim3 grid)
{
    if (nx % 4 == 0 && ny % 4 == 0) {
        fast(out, in, nx, ny, grid);
    } else {
        transposeSmemPad<<<grid, dim3(32, TILE_ROWS)>>>(out, in, nx, ny);
        CHECK_LAUNCH("transposeSmemPad");
    }
}

static void run_smemFloat4(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block)
{
    (void)block;
    run_on_16_bytes(launch_transposeSmemFloat4, out, in, nx, ny, grid);
}

/* (compute capability 9.0 and newer: run.cu skips the row before) */
static void run_tma(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block)
{
    (void)block;
    run_on_16_bytes(launch_transposeTMA, out, in, nx, ny, grid);
}

static void run_cublas(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block)
{
    (void)grid;
    (void)block;
    launch_cublasSgeam(out, in, nx, ny);
}

/* The rows of ./lab06, --list and -k. Fields left out are 0: a transpose
 * (not a copy), the grid over the input, one block per -b block of
 * elements, the block -b gives. */
static const t_kernel kernels[] = {
    {.info = {.name = "copyRow",
              .lesson = "load a row, store a row: both coalesced; the bound for one element per "
                        "thread"},
     .launch = run_copyRow, .is_copy = 1, .unroll = 1},
    {.info = {.name = "copyRow+ldcg",
              .lesson = "copyRow with __ldcg() loads (L2 only, L1 bypassed)"},
     .launch = run_copyRow_cg, .is_copy = 1, .unroll = 1},
    {.info = {.name = "copyCol",
              .lesson = "load a column, store a column: both strided; the lower bound"},
     .launch = run_copyCol, .is_copy = 1, .unroll = 1},
    {.info = {.name = "copyCol+ldcg",
              .lesson = "copyCol with __ldcg() loads: no L1 to catch the rest of each sector"},
     .launch = run_copyCol_cg, .is_copy = 1, .unroll = 1},
    {.info = {.name = "transposeNaiveRow",
              .lesson = "load rows (coalesced), store columns (strided)"},
     .launch = run_naiveRow, .unroll = 1},
    {.info = {.name = "transposeNaiveRow+ldcg",
              .lesson = "transposeNaiveRow with __ldcg() loads"},
     .launch = run_naiveRow_cg, .unroll = 1},
    {.info = {.name = "transposeNaiveCol",
              .lesson = "load columns (strided, but L1 keeps the rest of each sector), store rows"},
     .launch = run_naiveCol, .over_out = 1, .unroll = 1},
    {.info = {.name = "transposeNaiveCol+ldcg",
              .lesson = "transposeNaiveCol with __ldcg() loads: what the L1 was worth"},
     .launch = run_naiveCol_cg, .over_out = 1, .unroll = 1},
    {.info = {.name = "transposeUnroll4Row",
              .lesson = "NaiveRow with four elements per thread: four loads in flight"},
     .launch = run_unroll4Row, .unroll = 4},
    {.info = {.name = "transposeUnroll4Row+ldcg",
              .lesson = "transposeUnroll4Row with __ldcg() loads"},
     .launch = run_unroll4Row_cg, .unroll = 4},
    {.info = {.name = "transposeUnroll4Col",
              .lesson = "NaiveCol with four elements per thread"},
     .launch = run_unroll4Col, .over_out = 1, .unroll = 4},
    {.info = {.name = "transposeUnroll4Col+ldcg",
              .lesson = "transposeUnroll4Col with __ldcg() loads"},
     .launch = run_unroll4Col_cg, .over_out = 1, .unroll = 4},
    {.info = {.name = "transposeSmem",
              .lesson = "64x64 tile in shared memory, 32x16 threads (whatever -b says): both "
                        "accesses coalesced, but a column of the tile is one bank (32-way "
                        "conflict)"},
     .launch = run_smem, .unroll = 1, .tile = TILE, .fixed_x = 32, .fixed_y = TILE_ROWS},
    {.info = {.name = "transposeSmemPad",
              .lesson = "the same tile padded by one column: a column spreads over 32 banks"},
     .launch = run_smemPad, .unroll = 1, .tile = TILE, .fixed_x = 32, .fixed_y = TILE_ROWS},
    {.info = {.name = "transposeSmemFloat4",
              .lesson = "the padded tile, 16x32 threads moving float4s: 512 bytes a warp per load "
                        "and per store (sides not multiples of 4: transposeSmemPad)"},
     .launch = run_smemFloat4, .unroll = 1, .tile = TILE, .fixed_x = 16, .fixed_y = VEC_ROWS},
    {.info = {.name = "transposeTMA",
              .lesson = "the tile copied in and out by the Tensor Memory Accelerator (cc 9.0+): the "
                        "threads only transpose it in shared memory"},
     .launch = run_tma, .unroll = 1, .tile = TMA_TILE, .fixed_x = 32, .fixed_y = TMA_ROWS, .min_cc = 90},
    {.info = {.name = "cublasSgeam",
              .lesson = "the library's transpose (cuBLAS geam, A^T): what a program calls instead"},
     .launch = run_cublas, .unroll = 1, .tile = TILE},
};

/* --exercises without -n: a rectangle taller than wide (see exercises.cuh),
 * its sides multiples of no tile side (16, 32, 64); 57 MiB a matrix, more
 * than the L2, so the copy ceiling of the same run is a DRAM figure (at
 * 2000x3000 the H100's cudaMemcpy ran below the tiled transposes) */
#define EXERCISE_NX 3000
#define EXERCISE_NY 5000

static const wb_lab lab = {
    .lab = "lab06",
    .title = "matrix transpose: coalesced loads versus stores, and the L1 cache",
    .shape = WB_MATRIX,       /* a matrix, not a length: no default_n, max_n */
    .default_nx = 2048,       /* the book's matrix */
    .default_ny = 2048,
    .default_block_x = 16,    /* the book's block */
    .default_block_y = 16,
    .uses_block = 1,          /* -b shapes the blocks */
    .default_reps = 20,
    .kernels = WB_TABLE(kernels), /* no flag of its own */
    .exercises = lab06_exercises, /* exercises.cu's */
    .exercise_file = "lab06_transpose/exercises.cuh",
    .exercise_nx = EXERCISE_NX,
    .exercise_ny = EXERCISE_NY,
    .todo_take = lab06_exercises_todo_take, /* the WB_TODO() flag: exercises.cu's */
    .gpu_trace = 1,           /* --trace KERNEL */
};

/* What the banner's "build" line says: how the binary's loads are compiled
 * (the Makefile accepts DLCM=ca or DLCM=cg only). */
#ifdef WB_DLCM
#define BUILD_NOTE(l1) "loads: -Xptxas -dlcm=" WB_DLCM " (" l1 "); the +ldcg rows: __ldcg(), L1 bypassed"
#define BUILD_NOTE_DLCM (WB_DLCM[1] == 'g' ? BUILD_NOTE("L1 bypassed") : BUILD_NOTE("cached in L1"))
#else
#define BUILD_NOTE_DLCM "loads: default, no -dlcm (cached in L1 on cc 7.0+); the +ldcg rows: __ldcg(), L1 bypassed"
#endif

static const wb_program program = {
    .lab = &lab,
    .runner = &lab06_runner,
    .check_args = check_grids,
    .explain = lab06_explain,
    .timed = "one launch of the kernel (CUDA events); GB/s = 2 x nx x ny x 4 bytes / time",
    .type_name = "float",
    .check_type = WB_FLOAT + 1, /* the transpose moves floats */
    .build = BUILD_NOTE_DLCM,
};

/* Under the table: the fastest transpose of the run against the library's,
 * the same shape (medians of the same run). */
static void print_versus_cublas(const wb_report *r, FILE *out)
{
    const wb_row *lib = NULL, *best = NULL;
    char words[64];
    int i;
    for (i = 0; i < r->nrows; ++i)
        if (!strcmp(r->rows[i].kernel, "cublasSgeam") && r->rows[i].pass)
            lib = &r->rows[i];
    for (i = 0; lib && i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        if (w == lib || !w->pass || w->role || !strncmp(w->kernel, "copy", 4))
            continue;
        if (!best || w->time.median < best->time.median)
            best = w;
    }
    if (!best || lib->time.median <= 0)
        return;
    wb_versus_library(words, sizeof words, best->time.median, lib->time.median);
    fprintf(out, "against the library (medians of the same run):\n  %s %.4f ms, cublasSgeam %.4f ms: %s\n\n",
            best->kernel, best->time.median, lib->time.median, words);
}

int main(int argc, char **argv)
{
    wb_run run;
    int status = wb_main_rows(&program, argc, argv, &run);
    if (status >= 0)
        return status;
    print_versus_cublas(run.r, wb_report_notes(run.r));
    return wb_main_end(&run);
}
