/*
 * matrix.cu - lab05's matrix mode: ./lab05 -n NXxNY (NX columns, NY rows, as
 * lab06 takes it), e.g. -n 8192x8192, -n 20000x20000, -n 4097x3.
 *
 * The kernels (reduce2d.cuh), in the order of the table:
 *   the whole matrix   reduce2D, reduce2DModern, cub::DeviceReduce::Sum
 *   one sum per row    rowSumNaive, rowSumWarp, rowSumBlock, cub::DeviceSegmentedReduce::Sum
 *   one sum per column colSumNaive, colSumCoalesced, colSumOnePass
 * and the student's matrix exercise (exercises.cuh) under reduce2D's row.
 * This file holds their launchers, shapes and table, and the mode's main;
 * matrix_run.cu runs the rows; --explain, on a tiny matrix, is in
 * matrix_explain.cu.
 *
 * The input is ny rows of nx ints drawn by the 1D lab's rule (uniform in
 * [0, vmax], vmax = min(255, INT_MAX / (nx * ny))), so the total, and with it
 * every row and column sum, fits in an int: no kernel's int accumulator can
 * overflow, and the host checks every output element exactly in 64 bits.
 * Before every launch, checked or timed, every output (and every scratch
 * word) is poisoned with 0xABABABAB, a negative number no sum of these
 * inputs is; after the timed repetitions the outputs are checked again.
 */
#include "workbook.h"
#include "matrix.h"
#include "reduce2d.cuh"
#include "modern.cuh" /* reduceModern: the whole-matrix row's kernel */
#include "cub_sum.cuh"
#include "policy.h" /* the launch choices of the fast rows */

#include <cub/device/device_segmented_reduce.cuh>

#include <stdlib.h>
#include <string.h>

#define EXERCISE_NX 20000      /* --exercises: a wide, short matrix whose reduce2D grid is */
#define EXERCISE_NY 700        /* 64x44 blocks (not square) at 16x16; 14 million ints */
#define SEG_NAME "cub::DeviceSegmentedReduce::Sum"

/* ---------------------------------------------------------------------- */
/* Launchers and shapes                                                    */
/* ---------------------------------------------------------------------- */

/* As many blocks of `threads` threads of kernel fn, each with `shared`
 * bytes of dynamic shared memory, as the GPU holds at once. */
static unsigned device_fill_shared(const void *fn, unsigned threads, size_t shared, const wb_gpu *g)
{
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)threads, shared));
    return (unsigned)(per_sm < 1 ? 1 : per_sm) * (unsigned)g->sm_count;
}
static unsigned device_fill(const void *fn, unsigned threads, const wb_gpu *g)
{
    return device_fill_shared(fn, threads, 0, g);
}

static unsigned min_u(unsigned long long a, unsigned long long b) { return (unsigned)(a < b ? a : b); }

void lab05_reduce2D_shape(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                          size_t *scratch)
{
    (void)g;
    *block = dim3((unsigned)bx, (unsigned)by);
    /* the chapter's 64x64, fewer where the matrix has fewer blocks' worth */
    *grid = dim3(min_u(wb_ceil_div(nx, bx), GRID_2D_SIDE), min_u(wb_ceil_div(ny, by), GRID_2D_SIDE));
    *scratch = 0;
}

/* reduce2DModern's row: reduceModern<int>'s grid for the nx * ny ints, the
 * block as -b shapes it (the tile reader numbers its threads flat) */
static void shape_modern(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                         size_t *scratch)
{
    *block = dim3((unsigned)bx, (unsigned)by);
    *grid = dim3(grid_reduceModernT<int>((unsigned)nx * (unsigned)ny, (unsigned)(bx * by), g));
    *scratch = 0;
}

/* a thread per row (rows 1) or per column (rows 0) */
static void shape_per_line(int lines, int bx, int by, dim3 *grid, dim3 *block, size_t *scratch)
{
    *block = dim3((unsigned)bx, (unsigned)by);
    *grid = dim3((unsigned)wb_ceil_div(lines, (long long)bx * by));
    *scratch = 0;
}
static void shape_row_naive(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                            size_t *scratch)
{
    (void)nx;
    (void)g;
    shape_per_line(ny, bx, by, grid, block, scratch);
}
static void shape_col_naive(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                            size_t *scratch)
{
    (void)ny;
    (void)g;
    shape_per_line(nx, bx, by, grid, block, scratch);
}

static void shape_row_warp(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                           size_t *scratch)
{
    unsigned threads = (unsigned)(bx * by);
    (void)nx;
    *block = dim3((unsigned)bx, (unsigned)by);
    /* a warp per row: as many blocks as rows need (up to 2^20; beyond, the
     * warps loop). Not "fill the GPU once": 8192 rows on 6336 resident warps
     * would leave most warps idle for the second round; with a block per
     * 8 rows the scheduler hands out blocks as SMs free up */
    (void)g;
    *grid = dim3(min_u(wb_ceil_div(ny, threads / 32), 1u << 20));
    *scratch = 0;
}

/* rowSumBlock: a block per row (up to 2^20 blocks; beyond, the blocks loop),
 * of ROW_BLOCK_THREADS threads whatever -b says, on every GPU: on an H100
 * (docs/tuning.md) 512 threads read 1.004-1.009x CUB's segmented reduce at
 * 8192x8192 and 1.012-1.013x at 20000x20000, the -b default of 256 (16x16)
 * 0.995-0.998x and 0.996-0.997x, 1024 threads 0.96x.
 * (-DWB_TUNE=1: WB_TUNE_ROW_THREADS = a 1D block of that many threads.) */
#define ROW_BLOCK_THREADS 512
static void shape_row_block(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                            size_t *scratch)
{
    int threads = wb_tune("WB_TUNE_ROW_THREADS", ROW_BLOCK_THREADS);
    (void)nx;
    (void)g;
    (void)bx;
    (void)by;
    *block = dim3((unsigned)threads);
    *grid = dim3(min_u((unsigned)ny, 1u << 20));
    *scratch = 0;
}

/* colSumCoalesced: blocks of 32 x (threads / 32); strips of 32 vectors
 * across, chunks of rows down, enough blocks to fill the GPU twice */
static void shape_col_coalesced(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                                size_t *scratch)
{
    unsigned threads = (unsigned)(bx * by), w = nx % 4 == 0 ? 4 : 1;
    const void *fn = w == 4 ? (const void *)colSumPartial<4> : (const void *)colSumPartial<1>;
    unsigned strips = (unsigned)wb_ceil_div(nx / w, 32);
    unsigned want = 2 * device_fill(fn, threads, g);
    unsigned long long chunks = wb_ceil_div(want, strips), chunk_rows;
    if (chunks > (unsigned long long)ny)
        chunks = (unsigned long long)ny;
    chunk_rows = wb_ceil_div(ny, (long long)chunks);
    chunks = wb_ceil_div(ny, (long long)chunk_rows);
    *block = dim3(32, threads / 32);
    *grid = dim3(strips, (unsigned)chunks);
    *scratch = (size_t)chunks * (size_t)nx;
}

/*
 * colSumOnePass's launch policy (policy.h), measured at 8192x8192 and
 * 20000x20000 (docs/tuning.md). A lane reads an int4 of each row (W = 4;
 * W = 1 when nx % 4 != 0), and
 *   on the H100 and every GPU with less DRAM bandwidth per SM, a chunk is
 *     one trip of every warp (COL_UNROLL rows a warp: 64 rows at 32 x 8),
 *     so the reads finish together and the atomics (nx per chunk) overlap
 *     them;
 *   on a memory-rich GPU (H200) the chunks are as long as one wave of
 *     blocks allows (the blocks the GPU holds at once): there the H100's
 *     shape ran 0.84x the row sums' GB/s at 8192x8192 (its million atomics,
 *     8192 columns x 128 chunks, no longer hide behind the faster reads),
 *     this one 0.97x, and 0.97-0.98x at 20000x20000.
 */
static unsigned col_one_pass_w(int nx) { return nx % 4 == 0 ? 4 : 1; }

/* colSumOnePass: blocks of 32 x (threads / 32) on strips of 32 lanes' W
 * columns; chunks of rows as the policy above says, at least 64 rows and
 * few enough for gridDim.y; one chunk when the matrix is wider than
 * col_acc. (-DWB_TUNE=1: WB_TUNE_COL_THREADS, _WAVES, _ROWS.) */
static void shape_col_one_pass(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                               size_t *scratch)
{
    int want = wb_tune("WB_TUNE_COL_THREADS", 0);
    unsigned threads = (unsigned)(want > 0 ? want : bx * by), w = col_one_pass_w(nx);
    unsigned strips = (unsigned)wb_ceil_div(nx / w, 32);
    long long rows = (long long)COL_UNROLL * (threads / 32), chunks;
    int waves = wb_tune("WB_TUNE_COL_WAVES", wb_policy_rich()), fixed = wb_tune("WB_TUNE_COL_ROWS", 0);
    if (waves > 0) {
        const void *fn = w == 4 ? (const void *)colSumOnePass<4> : (const void *)colSumOnePass<1>;
        long long fill = device_fill_shared(fn, threads, (size_t)threads * w * sizeof(int), g);
        chunks = waves * fill / strips;
        rows = wb_ceil_div(ny, chunks < 1 ? 1 : chunks);
    } else if (fixed > 0) {
        rows = fixed;
    }
    if (rows < 64)
        rows = 64;
    if (rows < wb_ceil_div(ny, 65535))
        rows = wb_ceil_div(ny, 65535);
    chunks = wb_ceil_div(ny, rows);
    if (nx > COL_ACC_MAX)
        chunks = 1;
    *block = dim3(32, threads / 32);
    *grid = dim3(strips, (unsigned)chunks);
    *scratch = 0;
}

M_LAUNCHER(reduce2D)
/* The whole matrix is nx * ny consecutive ints: lab05's reduceModern<int>
 * sums it as it sums a 1D input, with this row's 2D block */
static void run_reduce2DModern(const int *a, int *out, int *scratch, int nx, int ny, dim3 grid, dim3 block)
{
    (void)scratch;
    reduceModern<int><<<grid, block>>>(a, out, (unsigned)nx * (unsigned)ny);
    CHECK_LAUNCH("reduceModern");
}
M_LAUNCHER(rowSumNaive)
M_LAUNCHER(rowSumWarp)
M_LAUNCHER(rowSumBlock)
M_LAUNCHER(colSumNaive)

/* two launches: the chunks' partial column sums, then their sum per column */
static void run_colSumCoalesced(const int *a, int *out, int *scratch, int nx, int ny, dim3 grid, dim3 block)
{
    int chunk_rows = (int)wb_ceil_div(ny, grid.y);
    if (nx % 4 == 0)
        colSumPartial<4><<<grid, block>>>(a, scratch, nx, ny, chunk_rows);
    else
        colSumPartial<1><<<grid, block>>>(a, scratch, nx, ny, chunk_rows);
    CHECK_LAUNCH("colSumPartial");
    colSumChunks<<<(unsigned)wb_ceil_div(nx, 256), 256>>>(scratch, out, nx, (int)grid.y);
    CHECK_LAUNCH("colSumChunks");
}

static void run_colSumOnePass(const int *a, int *out, int *scratch, int nx, int ny, dim3 grid, dim3 block)
{
    int chunk_rows = (int)wb_ceil_div(ny, grid.y);
    unsigned w = col_one_pass_w(nx); /* as shape_col_one_pass chose it */
    size_t shared = (size_t)block.x * block.y * w * sizeof(int);
    (void)scratch;
    if (w == 4)
        colSumOnePass<4><<<grid, block, shared>>>(a, out, nx, ny, chunk_rows);
    else
        colSumOnePass<1><<<grid, block, shared>>>(a, out, nx, ny, chunk_rows);
    CHECK_LAUNCH("colSumOnePass");
}

/* CUB sizes its own grids: the rows show "-" */
static void shape_cub(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                      size_t *scratch)
{
    (void)nx;
    (void)ny;
    (void)bx;
    (void)by;
    *grid = dim3(grid_cubSum(0, 0, g, WB_INT), 1); /* 0: the row shows "-" */
    *block = dim3(0, 1);
    *scratch = 0;
}

/* cub::DeviceReduce::Sum on the nx * ny ints (cub_sum.cuh: its temporary
 * storage is sized on the first, checked, call for a length) */
static void run_cubTotal(const int *a, int *out, int *scratch, int nx, int ny, dim3 grid, dim3 block)
{
    (void)scratch;
    launch_cubSum((int *)a, out, (unsigned)nx * (unsigned)ny, grid.x, block.x, WB_INT);
}

/* cub::DeviceSegmentedReduce::Sum with row r = segment r: offsets r * nx.
 * The offsets and the temporary storage are made on the first (checked)
 * call for a shape, never in a timed one. */
static struct {
    int *offsets;
    void *temp;
    size_t temp_bytes;
    int nx, ny;
} seg = {NULL, NULL, 0, -1, -1};

static void run_cubRows(const int *a, int *out, int *scratch, int nx, int ny, dim3 grid, dim3 block)
{
    (void)scratch;
    (void)grid;
    (void)block;
    if (seg.nx != nx || seg.ny != ny) {
        int *host = (int *)malloc(((size_t)ny + 1) * sizeof(int)), r;
        size_t need = 0;
        if (!host) {
            fprintf(stderr, "lab05: not enough host memory for %d row offsets\n", ny + 1);
            exit(WB_EXIT_USAGE);
        }
        for (r = 0; r <= ny; ++r)
            host[r] = r * nx; /* at most nx * ny <= INT_MAX */
        if (seg.offsets)
            CHECK(cudaFree(seg.offsets));
        seg.offsets = (int *)wb_device_alloc(((size_t)ny + 1) * sizeof(int), "the row offsets", "lab05");
        CHECK(cudaMemcpy(seg.offsets, host, ((size_t)ny + 1) * sizeof(int), cudaMemcpyHostToDevice));
        free(host);
        CHECK(cub::DeviceSegmentedReduce::Sum(NULL, need, a, out, ny, seg.offsets, seg.offsets + 1));
        if (need > seg.temp_bytes) {
            if (seg.temp)
                CHECK(cudaFree(seg.temp));
            seg.temp = wb_device_alloc(need, "CUB's temporary storage", "lab05");
            seg.temp_bytes = need;
        }
        seg.nx = nx;
        seg.ny = ny;
    }
    CHECK(cub::DeviceSegmentedReduce::Sum(seg.temp, seg.temp_bytes, a, out, ny, seg.offsets, seg.offsets + 1));
    CHECK_LAUNCH(SEG_NAME);
}

static void cub_release(void)
{
    if (seg.offsets)
        CHECK(cudaFree(seg.offsets));
    if (seg.temp)
        CHECK(cudaFree(seg.temp));
    memset(&seg, 0, sizeof seg);
    seg.nx = seg.ny = -1;
    cubSum_release();
}

/* ---------------------------------------------------------------------- */
/* The table                                                               */
/* ---------------------------------------------------------------------- */
#define MATRIX_TAG "[matrix] "
/* The rows of ./lab05 -n NXxNY, --list and -k: each launched with the grid
 * and block its shape gives; what it outputs (the total, row sums or column
 * sums); partials: one partial sum per block, which the host adds. */
static const m_kernel kernels[] = {
    {.info = {.name = "reduce2D", .lesson = MATRIX_TAG "the Numba chapter's 2D reduction: one 1D shared array, a partial per block"},
     .launch = run_reduce2D, .shape = lab05_reduce2D_shape, .output = M_TOTAL, .partials = 1},
    {.info = {.name = "reduce2DModern", .lesson = MATRIX_TAG "the matrix as one array: reduceModern<int> on it, one number"},
     .launch = run_reduce2DModern, .shape = shape_modern, .output = M_TOTAL},
    {.info = {.name = CUB_NAME, .lesson = MATRIX_TAG "the library on the nx*ny ints: the whole-matrix yardstick"},
     .launch = run_cubTotal, .shape = shape_cub, .output = M_TOTAL},
    {.info = {.name = "rowSumNaive", .lesson = MATRIX_TAG "a thread per row: a warp reads 32 words a row apart"},
     .launch = run_rowSumNaive, .shape = shape_row_naive, .output = M_ROWS},
    {.info = {.name = "rowSumWarp", .lesson = MATRIX_TAG "a warp per row: neighbouring int4s, shuffles"},
     .launch = run_rowSumWarp, .shape = shape_row_warp, .output = M_ROWS},
    {.info = {.name = "rowSumBlock", .lesson = MATRIX_TAG "a block of 512 per row: neighbouring int4s, the block's shuffles"},
     .launch = run_rowSumBlock, .shape = shape_row_block, .output = M_ROWS},
    {.info = {.name = SEG_NAME, .lesson = MATRIX_TAG "the library, a segment per row: the row-sum yardstick"},
     .launch = run_cubRows, .shape = shape_cub, .output = M_ROWS},
    {.info = {.name = "colSumNaive", .lesson = MATRIX_TAG "a thread per column: coalesced, but only nx threads"},
     .launch = run_colSumNaive, .shape = shape_col_naive, .output = M_COLS},
    {.info = {.name = "colSumCoalesced", .lesson = MATRIX_TAG "warps walk column strips down row chunks, then add chunks"},
     .launch = run_colSumCoalesced, .shape = shape_col_coalesced, .output = M_COLS},
    {.info = {.name = "colSumOnePass", .lesson = MATRIX_TAG "the same reads, one launch: chunks meet by atomicAdd, as fast as rows"},
     .launch = run_colSumOnePass, .shape = shape_col_one_pass, .output = M_COLS},
};

/* (its exercises and their WB_TODO() flag are exercises.cu's) */
static const wb_lab mlab = {
    .lab = "lab05",
    .title = "matrix mode: the whole matrix, its rows and its columns",
    .shape = WB_MATRIX,       /* a matrix, not a length: no default_n, max_n */
    .default_nx = 8192,       /* -n N alone (after an -n with an x): N x N */
    .default_ny = 8192,
    .default_block_x = 16,    /* the Numba chapter's block */
    .default_block_y = 16,
    .uses_block = 1,          /* -b shapes the blocks */
    .default_reps = 20,
    .kernels = WB_TABLE(kernels), /* no flag of its own */
    .exercises = lab05_matrix_exercises,
    .exercise_file = "lab05_smem/exercises.cuh",
    .exercise_nx = EXERCISE_NX,
    .exercise_ny = EXERCISE_NY,
    .todo_take = lab05_exercises_todo_take,
};

/* ---------------------------------------------------------------------- */
/* Under the table: each group's best against its bar                      */
/* ---------------------------------------------------------------------- */
static const m_kernel *kernel_named(const char *name)
{
    int i;
    for (i = 0; i < (int)(sizeof kernels / sizeof kernels[0]); ++i)
        if (!strcmp(kernels[i].info.name, name))
            return &kernels[i];
    return NULL;
}

static m_output output_of(const char *name)
{
    const m_kernel *k = kernel_named(name);
    return k ? k->output : M_TOTAL;
}

/* The fastest passing shipped row of group `out` at row ref's size that
 * ends with the final outputs on the device (not reduce2D: the host adds its
 * partial sums), leaving out `not_name`. */
static const wb_row *fastest(const wb_report *r, const wb_row *ref, m_output out, const char *not_name)
{
    const wb_row *best = NULL;
    int i;
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        const m_kernel *k = kernel_named(w->kernel);
        if (w->role || !w->pass || w->n != ref->n || w->nx != ref->nx || !k || k->output != out ||
            k->partials || !strcmp(w->kernel, not_name))
            continue;
        if (!best || w->time.median < best->time.median)
            best = w;
    }
    return best;
}

static void print_bars(const wb_report *r, FILE *out)
{
    int i, header = 0;
    char words[64];
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *ref = &r->rows[i], *best;
        const char *group;
        m_output o;
        if (!strcmp(ref->kernel, CUB_NAME) || !strcmp(ref->kernel, SEG_NAME)) {
            o = output_of(ref->kernel);
            group = o == M_TOTAL ? "whole matrix" : "row sums";
            best = fastest(r, ref, o, ref->kernel);
        } else if (!strcmp(ref->kernel, "colSumCoalesced") && ref->pass) {
            /* the columns against the rows: the same bytes, read across instead of along */
            const wb_row *rows = fastest(r, ref, M_ROWS, "");
            best = fastest(r, ref, M_COLS, "");
            if (!rows || !best || rows->gbps <= 0)
                continue;
            if (!header++)
                fprintf(out, "against the library (medians of the same run; CUB segmented: %s):\n", SEG_NAME);
            fprintf(out, "  column sums   %s %.0f GB/s, row sums' best (%s) %.0f GB/s: %.2fx\n", best->kernel,
                    best->gbps, strcmp(rows->kernel, SEG_NAME) ? rows->kernel : "CUB segmented", rows->gbps,
                    best->gbps / rows->gbps);
            continue;
        } else {
            continue;
        }
        if (!best || !ref->pass || best->time.median <= 0)
            continue;
        if (!header++)
            fprintf(out, "against the library (medians of the same run; CUB segmented: %s):\n", SEG_NAME);
        wb_versus_library(words, sizeof words, best->time.median, ref->time.median);
        fprintf(out, "  %-13s %s %.4f ms, %s %.4f ms: %s\n", group, best->kernel, best->time.median,
                strcmp(ref->kernel, SEG_NAME) ? "CUB" : "CUB segmented", ref->time.median, words);
    }
    if (header)
        fprintf(out, "\n");
}

/* ---------------------------------------------------------------------- */
/* The program                                                             */
/* ---------------------------------------------------------------------- */
const wb_program lab05_matrix_program = {
    .lab = &mlab,
    .runner = &lab05_matrix_runner,
    .explain = lab05_matrix_explain,
    .timed = "the kernel(s) to the final outputs (CUDA events), except reduce2D: its pass alone, "
             "one partial sum per block (the host adds them)",
    .baseline = "reduce2D",
};

int lab05_matrix_end(wb_run *run)
{
    print_bars(run->r, wb_report_notes(run->r));
    return wb_main_end(run);
}

void lab05_matrix_release(void) { cub_release(); }

void lab05_matrix_exercise_rows(wb_run *run, int timed)
{
    const wb_kernel_info *order[2 * WB_MAX_KERNELS];
    wb_args m;
    wb_run mrun;
    wb_input_cfg cfg;
    wb_report *r = run->r;
    int i, count = 0;
    double ceiling = r->ceiling_gbps;
    char ceiling_what[sizeof r->ceiling_what];

    m = *run->a;
    m.block_x = mlab.default_block_x;
    m.block_y = mlab.default_block_y;
    for (i = 0; i < mlab.kernels.count; ++i)
        m.selected[i] = 0;
    for (i = 0; i < mlab.exercises.count; ++i)
        m.ex_selected[i] = 1;
    if (timed) {
        m.exercises = 1;
        count = wb_plan_rows(&mlab, &m, order); /* each exercise under its reference row */
    } else {
        for (i = 0; i < mlab.exercises.count; ++i)
            order[count++] = wb_table_at(mlab.exercises, i);
        r->ex_total += count;
    }
    memcpy(ceiling_what, r->ceiling_what, sizeof ceiling_what);
    mrun = *run;
    mrun.lab = &mlab;
    mrun.a = &m;
    mrun.order = order;
    mrun.nrows = count;
    wb_input_cfg_of(&cfg, &m, WB_INT, WB_VALUES_EXACT, (long long)mlab.exercise_nx * mlab.exercise_ny,
                    mlab.exercise_nx, mlab.exercise_ny, timed);
    wb_rows(&lab05_matrix_runner, &mrun, &cfg, timed ? WB_ROW_TIMED : WB_ROW_COUNT);
    r->ceiling_gbps = ceiling; /* the 1D banner keeps its own ceiling */
    memcpy(r->ceiling_what, ceiling_what, sizeof ceiling_what);
    cub_release();
}
