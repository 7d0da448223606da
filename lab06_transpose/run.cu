/*
 * run.cu - how lab06 runs the rows of its tables (lab06.cu): the grid of
 * each kernel, the host's transpose and the bit-for-bit comparison with it,
 * the matrices of one shape, the poison before every launch (the output and
 * every SM's shared memory), one row verified and timed, the exercises'
 * count, and --check's steps. What main calls is declared in lab06.cuh.
 */
#include "workbook.h"
#include "lab06.cuh"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Grids and blocks                                                        */
/* ---------------------------------------------------------------------- */
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
void check_grids(const wb_args *a, const wb_kernel_info *const *order, int nrows)
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

/* The host side of an nx x ny run: the input from the seed and its
 * transpose. Short of host memory: one line, exit 2. */
void matrices_host(matrices *m, int nx, int ny, unsigned long long seed)
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
void matrices_device(matrices *m)
{
    m->d_in = (float *)wb_device_alloc(m->bytes, "the input matrix", "lab06");
    m->d_out = (float *)wb_device_alloc(m->bytes, "the output matrix", "lab06");
    CHECK(cudaMemcpy(m->d_in, m->host_in, m->bytes, cudaMemcpyHostToDevice));
}

void matrices_free(matrices *m)
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
void shared_poison_init(const wb_gpu *g)
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
    const wb_lab *lab; /* its todo_take() and exercise file, for an exercise's row */
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

/* c for kernel k of `lab` on m's matrices, with the block of -b (or its own). */
static void make_ctx(run_ctx *c, const wb_lab *lab, const t_kernel *k, const matrices *m, int bx, int by)
{
    long long gx, gy;
    c->lab = lab;
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
    wb_todo_clear(c->lab); /* a flag an earlier launch left */
    poison(c);
    launch_once(c);
    CHECK(cudaDeviceSynchronize());
    if (wb_row_todo(c->lab, row))
        return;
    CHECK(cudaMemcpy(m->host_out, c->out, m->bytes, cudaMemcpyDeviceToHost));
    row->pass = output_right(c->k, m, row->check, sizeof row->check);
    wb_row_result_bytes(row, m->host_out, m->bytes); /* the result column: the output's digest */
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
        wb_row_result_bytes(row, x->m->host_out, x->m->bytes);
    }
}

static const wb_row_ops transpose_ops = {verify_step, launch_step, poison_step, NULL, recheck_step};

/* Kernel k on m's matrices with blocks of bx x by (or its own): verified,
 * and as the mode says timed into r, counted in r's closing line, or left
 * in *row for --check. */
void run_row(wb_gpu *g, wb_report *r, const wb_lab *lab, matrices *m, const t_kernel *k, int bx, int by,
             int reps, wb_row_mode mode, wb_row *row)
{
    row_ctx x;
    x.m = m;
    make_ctx(&x.c, lab, k, m, bx, by);
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
void count_exercises(wb_gpu *g, wb_report *r, const wb_lab *lab, const wb_args *a)
{
    const wb_kernel_info *order[WB_MAX_KERNELS];
    matrices m;
    int i, count = wb_report_exercises_begin(r, lab, a, order);
    if (!count)
        return;
    matrices_host(&m, lab->exercise_nx, lab->exercise_ny, a->seed);
    matrices_device(&m);
    for (i = 0; i < count; ++i) {
        wb_row row;
        run_row(g, r, lab, &m, (const t_kernel *)order[i], a->block_x, a->block_y, a->reps, WB_ROW_COUNT,
                &row);
    }
    matrices_free(&m);
}

/* --check's steps (wb_check_run): one input per shape and seed */
static void check_open(const wb_check_ctx *c, int ti, int si, int ni)
{
    const wb_args *a = c->a;
    (void)ti;
    matrices_host((matrices *)c->input, a->nx_list[ni], a->ny_list[ni], a->seed_list[si]);
    matrices_device((matrices *)c->input);
}

static void check_row(const wb_check_ctx *c, const wb_kernel_info *k, int fi, int bi, wb_row *row)
{
    (void)fi;
    run_row(c->g, NULL, c->lab, (matrices *)c->input, (const t_kernel *)k, c->a->bx_list[bi],
            c->a->by_list[bi], 1, WB_ROW_CHECK, row);
}

static void check_close(const wb_check_ctx *c) { matrices_free((matrices *)c->input); }

int check_rows(wb_gpu *g, const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows)
{
    static const wb_check_steps steps = {check_open, check_row, check_close};
    matrices m;
    wb_check_ctx c = {lab, a, order, nrows, g, &m};
    return wb_check_run(&c, WB_FLOAT, &steps); /* the transpose moves floats */
}
