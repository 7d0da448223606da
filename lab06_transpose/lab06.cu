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
 * and each of the first six again as "NAME+ldcg", with every load an __ldcg()
 * (L1 bypassed), so one table shows what the L1 cache does. The student's
 * exercises (exercises.cuh; solutions/ with SOLUTIONS=1) are a second table.
 *
 * The input is ny rows of nx floats; every kernel's output is compared bit
 * for bit with a transpose done on the host (the copies with the input).
 * Before every launch, checked or timed, the output buffer is filled with
 * 0xFF bytes (NaN) and so is the shared memory of every SM, so a kernel that
 * writes nothing, or reads a tile element nobody wrote, cannot pass on
 * leftovers; after the timed repetitions the output is compared again, so a
 * kernel right only on its first launch fails too. The exit status is the
 * verdict. The chapter is docs/lab06.md; the DLCM=ca and DLCM=cg builds'
 * is docs/lab06-l1.md.
 */
#include "workbook.h"
#include "trace.h" /* --trace KERNEL */
#include "transpose.cuh"
#include "lab06.cuh"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* The table of kernels                                                    */
/* ---------------------------------------------------------------------- */
typedef void (*t_launch)(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block);

typedef struct {
    wb_kernel_info info;
    t_launch launch;
    int is_copy;   /* verified against the input itself, not its transpose */
    int over_out;  /* the grid covers the output (ny columns, nx rows), not the input */
    int unroll;    /* elements per thread along x: grid.x = ceil(columns / (block.x * unroll)) */
    int tile;      /* >0: one block per tile x tile tile of in (the grid counts tiles) */
    int fixed_x, fixed_y; /* >0: the block, whatever -b says */
} t_kernel;

/* One launcher per kernel and load flavour; each checks its launch. */
#define LAUNCHER(fn, kernel)                                                                \
    static void fn(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block)     \
    {                                                                                       \
        kernel<<<grid, block>>>(out, in, nx, ny);                                           \
        CHECK_LAUNCH(#kernel);                                                              \
    }
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
};

/* ---------------------------------------------------------------------- */
/* The exercises (exercises.cuh): launchers and their table                */
/* ---------------------------------------------------------------------- */
LAUNCHER(run_smem32x8, transposeSmem32x8)
LAUNCHER(run_smemRect, transposeSmemRect)
LAUNCHER(run_smemNoSync, transposeSmemNoSync)

/* Each row: the task, write it or fix it, and the shipped row it is
 * measured against; then the fields of the table above. */
static const t_kernel exercises[] = {
    {.info = {.name = "transposeSmem32x8",
              .lesson = "the classic tile: 32x32 padded to 33 columns, 32x8 threads",
              .kind = "write", .against = "transposeSmemPad"},
     .launch = run_smem32x8,
     .unroll = 1, .tile = TILE_DIM, .fixed_x = TILE_DIM, .fixed_y = BLOCK_ROWS},
    {.info = {.name = "transposeSmemRect",
              .lesson = "the book's padded smem transpose: a rectangle loses tiles",
              .kind = "fix", .against = "transposeSmemPad"},
     /* one block of BDIMX x BDIMY per BDIMX x BDIMY tile */
     .launch = run_smemRect, .unroll = 1, .fixed_x = BDIMX, .fixed_y = BDIMY},
    {.info = {.name = "transposeSmemNoSync",
              .lesson = "transposeSmem, loops fused: which rows are read too early?",
              .kind = "fix", .against = "transposeSmem"},
     .launch = run_smemNoSync, .unroll = 1, .tile = TILE, .fixed_x = 32, .fixed_y = TILE_ROWS},
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
    .exercises = WB_TABLE(exercises),
    .exercise_file = "lab06_transpose/exercises.cuh",
    .exercise_nx = EXERCISE_NX,
    .exercise_ny = EXERCISE_NY,
    .todo_take = WB_TODO_TAKE,
};

#define GRID_Y_MAX 65535LL /* gridDim.y and gridDim.z limit on every GPU */

/* The block kernel k runs with under -b bx x by. */
static dim3 block_for(const t_kernel *k, int bx, int by)
{
    if (k->fixed_x > 0)
        return dim3((unsigned)k->fixed_x, (unsigned)k->fixed_y);
    return dim3((unsigned)bx, (unsigned)by);
}

/* The grid kernel k needs for an nx x ny input with that block, as 64-bit
 * counts so that the caller can check them against the limits. */
static void grid_for(const t_kernel *k, int nx, int ny, dim3 block, long long *gx, long long *gy)
{
    long long cols = k->over_out ? ny : nx; /* the extent the grid's x covers */
    long long rows = k->over_out ? nx : ny;
    if (k->tile) {
        *gx = wb_ceil_div(nx, k->tile);
        *gy = wb_ceil_div(ny, k->tile);
        return;
    }
    *gx = wb_ceil_div(cols, (long long)block.x * k->unroll);
    *gy = wb_ceil_div(rows, block.y);
}

/* Refuse (exit 2) a shape whose grid would exceed gridDim.y <= 65535 for a
 * kernel of the run. Before any CUDA call. */
static void check_grids(const wb_args *a, const wb_kernel_info *const *order, int nrows)
{
    int i, ni, bi;
    for (i = 0; i < nrows; ++i)
        for (ni = 0; ni < a->n_count; ++ni) /* every shape and block of --check's lists */
            for (bi = 0; bi < a->block_count; ++bi) {
                const t_kernel *k = (const t_kernel *)order[i];
                int nx = a->nx_list[ni], ny = a->ny_list[ni];
                dim3 block = block_for(k, a->bx_list[bi], a->by_list[bi]);
                long long gx, gy;
                grid_for(k, nx, ny, block, &gx, &gy);
                if (gy <= GRID_Y_MAX)
                    continue;
                /* one line within 100 columns, the longest name and counts included */
                fprintf(stderr, "lab06: %s: %lld blocks in y, over %lld: give %s\n", k->info.name,
                        gy, GRID_Y_MAX,
                        k->fixed_x > 0 ? "a smaller -n (its block is fixed)"
                                       : "a taller -b or a smaller -n");
                exit(WB_EXIT_USAGE);
            }
}

/* ---------------------------------------------------------------------- */
/* Reference and verification                                              */
/* ---------------------------------------------------------------------- */

/* out[x * ny + y] = in[y * nx + x], in 32x32 blocks so both stay in cache. */
static void transpose_host(float *out, const float *in, int nx, int ny)
{
    const int B = 32;
    int yb, xb, y, x;
    for (yb = 0; yb < ny; yb += B)
        for (xb = 0; xb < nx; xb += B)
            for (y = yb; y < yb + B && y < ny; ++y)
                for (x = xb; x < xb + B && x < nx; ++x)
                    out[(size_t)x * ny + y] = in[(size_t)y * nx + x];
}

/* Compare got with want bit for bit (NaN included); write what was found
 * into check. rows x cols is the shape of the output. Returns 1 if equal. */
static int same_bits(const float *got, const float *want, int cols, int rows, char *check, size_t len)
{
    size_t n = (size_t)cols * rows, i, wrong = 0, first = 0;
    if (memcmp(got, want, n * sizeof(float)) == 0) {
        snprintf(check, len, "all %zu elements bitwise equal to the reference", n);
        return 1;
    }
    for (i = 0; i < n; ++i) {
        uint32_t g, w;
        memcpy(&g, &got[i], sizeof g);
        memcpy(&w, &want[i], sizeof w);
        if (g != w && wrong++ == 0)
            first = i;
    }
    {
        char msg[256];
        size_t m;
        snprintf(msg, sizeof msg, "%zu of %zu wrong; first at row %zu col %zu: %g, expected %g", wrong,
                 n, first / (size_t)cols, first % (size_t)cols, got[first], want[first]);
        m = strlen(msg) < len ? strlen(msg) : len - 1; /* the report keeps len - 1 characters */
        memcpy(check, msg, m);
        check[m] = '\0';
    }
    return 0;
}

/* "prefix" followed by text into dst[0..len), cut to fit. */
static void join_text(char *dst, size_t len, const char *prefix, const char *text)
{
    size_t p = strlen(prefix) < len ? strlen(prefix) : len - 1, t = strlen(text);
    memcpy(dst, prefix, p);
    if (t > len - 1 - p)
        t = len - 1 - p;
    memcpy(dst + p, text, t);
    dst[p + t] = '\0';
}

/* ---------------------------------------------------------------------- */
/* The matrices of one shape                                               */
/* ---------------------------------------------------------------------- */
typedef struct {
    int nx, ny;
    size_t n, bytes;
    float *host_in, *host_ref, *host_out; /* the input, its transpose, what a kernel wrote */
    float *d_in, *d_out;
} matrices;

/* The host side of an nx x ny run: the input from the seed and its
 * transpose. Short of host memory: one line, exit 2. */
static void matrices_host(matrices *m, int nx, int ny, unsigned long long seed)
{
    memset(m, 0, sizeof *m);
    m->nx = nx;
    m->ny = ny;
    m->n = (size_t)nx * ny;
    m->bytes = m->n * sizeof(float);
    m->host_in = (float *)malloc(m->bytes);
    m->host_ref = (float *)malloc(m->bytes);
    m->host_out = (float *)malloc(m->bytes);
    if (!m->host_in || !m->host_ref || !m->host_out) {
        fprintf(stderr, "lab06: -n %dx%d needs 3 x %.2f GiB of host memory; choose a smaller -n\n", nx, ny,
                m->bytes / 1073741824.0);
        exit(WB_EXIT_USAGE);
    }
    wb_fill_floats(m->host_in, m->n, seed);
    transpose_host(m->host_ref, m->host_in, nx, ny);
}

/* The device side: the input uploaded, room for the output. */
static void matrices_device(matrices *m)
{
    m->d_in = (float *)wb_device_alloc(m->bytes, "the input matrix", lab.lab);
    m->d_out = (float *)wb_device_alloc(m->bytes, "the output matrix", lab.lab);
    CHECK(cudaMemcpy(m->d_in, m->host_in, m->bytes, cudaMemcpyHostToDevice));
}

static void matrices_free(matrices *m)
{
    CHECK(cudaFree(m->d_in));
    CHECK(cudaFree(m->d_out));
    free(m->host_in);
    free(m->host_ref);
    free(m->host_out);
}

/* What kernel k wrote (host_out) against what it should have: the input for
 * a copy, the transpose otherwise. Returns 1 if bitwise equal. */
static int output_right(const t_kernel *k, const matrices *m, char *check, size_t len)
{
    if (k->is_copy)
        return same_bits(m->host_out, m->host_in, m->nx, m->ny, check, len);
    return same_bits(m->host_out, m->host_ref, m->ny, m->nx, check, len);
}

/* ---------------------------------------------------------------------- */
/* Poison: the output and the shared memory, before every launch          */
/* ---------------------------------------------------------------------- */

/* Fill this block's dynamic shared memory, `words` 4-byte words, with 0xFF
 * bytes. volatile: nothing reads the words back, and they must still be
 * written. */
__global__ void poison_shared_kernel(unsigned words)
{
    extern __shared__ unsigned shared_words[];
    volatile unsigned *s = shared_words;
    for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
        s[i] = 0xFFFFFFFFu;
}

static struct {
    unsigned blocks; /* one per SM */
    size_t bytes;    /* the most shared memory one block may have */
} shared_poison;

/* One block per SM, each with all the shared memory a block may have (so no
 * two share an SM): after it, a tile element a kernel reads before any of its
 * threads wrote it is NaN, not a leftover of the kernel before. */
static void shared_poison_init(const wb_gpu *g)
{
    size_t bytes = g->prop.sharedMemPerBlockOptin > g->prop.sharedMemPerBlock ? g->prop.sharedMemPerBlockOptin
                                                                                : g->prop.sharedMemPerBlock;
    CHECK(cudaFuncSetAttribute(poison_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    CHECK(cudaFuncSetAttribute(poison_shared_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               (int)cudaSharedmemCarveoutMaxShared));
    shared_poison.blocks = (unsigned)g->sm_count;
    shared_poison.bytes = bytes;
}

typedef struct {
    const t_kernel *k;
    float *out;
    const float *in;
    size_t bytes;
    int nx, ny;
    dim3 grid, block;
} run_ctx;

static void launch_once(void *p)
{
    run_ctx *c = (run_ctx *)p;
    c->k->launch(c->out, c->in, c->nx, c->ny, c->grid, c->block);
}

/* Before every launch, checked or timed (wb_time_events' reset): 0xFF bytes
 * (a NaN no kernel copies) in the output and in every SM's shared memory.
 * Asynchronous. */
static void poison(void *p)
{
    run_ctx *c = (run_ctx *)p;
    CHECK(cudaMemsetAsync(c->out, 0xFF, c->bytes, 0));
    poison_shared_kernel<<<shared_poison.blocks, 1024, shared_poison.bytes>>>(
        (unsigned)(shared_poison.bytes / sizeof(unsigned)));
    CHECK_LAUNCH("poison_shared_kernel");
}

/* c for kernel k on m's matrices, with the block of -b (or its own). */
static void make_ctx(run_ctx *c, const t_kernel *k, const matrices *m, int bx, int by)
{
    long long gx, gy;
    c->k = k;
    c->out = m->d_out;
    c->in = m->d_in;
    c->bytes = m->bytes;
    c->nx = m->nx;
    c->ny = m->ny;
    c->block = block_for(k, bx, by);
    grid_for(k, m->nx, m->ny, c->block, &gx, &gy);
    c->grid = dim3((unsigned)gx, (unsigned)gy);
}

/* One checked launch of c on a poisoned output: sets row->pass and
 * row->check, or row->todo for an exercise whose stub is not written yet. */
static void verify(run_ctx *c, matrices *m, wb_row *row)
{
    lab.todo_take(); /* clear a flag an earlier launch left */
    poison(c);
    launch_once(c);
    CHECK(cudaDeviceSynchronize());
    if (lab.todo_take()) {
        row->todo = 1;
        snprintf(row->check, sizeof row->check, "not written yet (WB_TODO() in %s)", lab.exercise_file);
        return;
    }
    CHECK(cudaMemcpy(m->host_out, c->out, m->bytes, cudaMemcpyDeviceToHost));
    row->pass = output_right(c->k, m, row->check, sizeof row->check);
}

/* ---------------------------------------------------------------------- */
/* Running the table                                                       */
/* ---------------------------------------------------------------------- */

typedef struct {
    run_ctx c;
    matrices *m;
} row_ctx;

static void verify_step(void *p, wb_row *row)
{
    row_ctx *x = (row_ctx *)p;
    verify(&x->c, x->m, row);
}

static void launch_step(void *p) { launch_once(&((row_ctx *)p)->c); }
static void poison_step(void *p) { poison(&((row_ctx *)p)->c); }

/* What the last run (timed, or --check's second, each from a poisoned
 * output) left must agree with the checked launch too. */
static void recheck_step(void *p, wb_row *row, const char *when)
{
    row_ctx *x = (row_ctx *)p;
    char again[160], prefix[48];
    if (!row->pass)
        return;
    CHECK(cudaMemcpy(x->m->host_out, x->m->d_out, x->m->bytes, cudaMemcpyDeviceToHost));
    if (!output_right(x->c.k, x->m, again, sizeof again)) {
        row->pass = 0;
        snprintf(prefix, sizeof prefix, "%s differed: ", when);
        join_text(row->check, sizeof row->check, prefix, again);
    }
}

static const wb_row_ops transpose_ops = {verify_step, launch_step, poison_step, NULL, recheck_step};

/* Kernel k on m's matrices with blocks of bx x by (or its own): verified,
 * and as the mode says timed into r, counted in r's closing line, or left
 * in *row for --check. */
static void run_row(wb_gpu *g, wb_report *r, matrices *m, const t_kernel *k, int bx, int by, int reps,
                    wb_row_mode mode, wb_row *row)
{
    row_ctx x;
    x.m = m;
    make_ctx(&x.c, k, m, bx, by);
    wb_row_init(row, &k->info, (long long)m->n, 2.0 * (double)m->bytes);
    row->nx = m->nx;
    row->ny = m->ny;
    row->grid_x = x.c.grid.x;
    row->grid_y = x.c.grid.y;
    row->block_x = x.c.block.x;
    row->block_y = x.c.block.y;
    wb_run_row(g, r, reps, mode, &transpose_ops, &x, row);
}

/* Without --exercises: verify each selected exercise once, untimed, at the
 * exercise shape, and count in r how many are done and todo (the closing
 * line). Nothing with --exercises (the rows say it). */
static void count_exercises(wb_gpu *g, wb_report *r, const wb_args *a)
{
    matrices m;
    int i;
    if (!wb_report_exercises_begin(r, &lab, a))
        return;
    matrices_host(&m, lab.exercise_nx, lab.exercise_ny, a->seed);
    matrices_device(&m);
    for (i = 0; i < lab.exercises.count; ++i) {
        wb_row row;
        if (a->ex_selected[i])
            run_row(g, r, &m, &exercises[i], a->block_x, a->block_y, a->reps, WB_ROW_COUNT, &row);
    }
    matrices_free(&m);
}

/* --check's steps (wb_check_run): one input per shape and seed */
typedef struct {
    wb_gpu *g;
    matrices m;
} check_ctx;

static void check_open(void *p, const wb_args *a, int ti, int si, int ni)
{
    check_ctx *x = (check_ctx *)p;
    (void)ti;
    matrices_host(&x->m, a->nx_list[ni], a->ny_list[ni], a->seed_list[si]);
    matrices_device(&x->m);
}

static void check_row(void *p, const wb_args *a, const wb_kernel_info *k, int fi, int bi, wb_row *row)
{
    check_ctx *x = (check_ctx *)p;
    (void)fi;
    run_row(x->g, NULL, &x->m, (const t_kernel *)k, a->bx_list[bi], a->by_list[bi], 1, WB_ROW_CHECK, row);
}

static void check_close(void *p) { matrices_free(&((check_ctx *)p)->m); }

static int check_rows(wb_gpu *g, const wb_args *a, const wb_kernel_info *const *order, int nrows)
{
    static const wb_check_steps steps = {check_open, check_row, check_close};
    check_ctx x;
    memset(&x, 0, sizeof x);
    x.g = g;
    return wb_check_run(&lab, a, order, nrows, WB_FLOAT, &steps, &x); /* the transpose moves floats */
}

/* What the banner's "build" line says: how the binary's loads are compiled. */
static const char *build_note(void)
{
    static char note[200];
#ifdef WB_DLCM
    snprintf(note, sizeof note, "loads: -Xptxas -dlcm=%s (%s); the +ldcg rows: __ldcg(), L1 bypassed",
             WB_DLCM, strcmp(WB_DLCM, "cg") == 0 ? "L1 bypassed" : "cached in L1");
#else
    snprintf(note, sizeof note,
             "loads: default, no -dlcm (cached in L1 on cc 7.0+); the +ldcg rows: __ldcg(), L1 bypassed");
#endif
    return note;
}

int main(int argc, char **argv)
{
    static wb_report r;
    const wb_kernel_info *order[2 * WB_MAX_KERNELS];
    wb_args a;
    wb_gpu g;
    matrices m;
    int nrows, i;

    wb_trace_redirect(argc, argv); /* --trace KERNEL: tools/trace/trace.sh */
    wb_args_or_exit(&lab, argc, argv, &a);
    nrows = wb_plan_rows(&lab, &a, order);
    check_grids(&a, order, nrows);
    if (a.explain) {
        lab06_explain(&a);
        return WB_EXIT_OK;
    }

    if (a.check) {
        int status;
        wb_gpu_open(&g, lab.lab);
        shared_poison_init(&g);
        status = check_rows(&g, &a, order, nrows);
        wb_gpu_close(&g);
        return status;
    }
    matrices_host(&m, a.nx, a.ny, a.seed);
    wb_gpu_open(&g, lab.lab);
    shared_poison_init(&g);
    wb_report_init(&r, lab.lab);
    wb_report_device(&r, &g);
    r.type = "float";
    r.timed = "one launch of the kernel (CUDA events); GB/s = 2 x nx x ny x 4 bytes / time";
    r.build = build_note();
    r.reps = a.reps;

    matrices_device(&m);
    wb_measure_ceiling(&g, &r, m.d_out, m.d_in, m.bytes, a.reps);
    for (i = 0; i < nrows; ++i) {
        wb_row row;
        run_row(&g, &r, &m, (const t_kernel *)order[i], a.block_x, a.block_y, a.reps, WB_ROW_TIMED, &row);
    }
    matrices_free(&m);
    count_exercises(&g, &r, &a);

    wb_report_print(&r, a.format, stdout);
    wb_gpu_close(&g);
    return wb_report_status(&r);
}
