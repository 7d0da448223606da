/*
 * run.cu - how lab06 runs the rows of its tables (lab06.cu): the grid of
 * each kernel, the host's transpose and the bit-for-bit comparison with it,
 * the matrices of one shape, the poison before every launch (the output and
 * every SM's shared memory), one row verified and timed, and the runner's
 * steps (lab06_runner, lab06.cuh).
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
void check_grids(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows)
{
    int i, ni, bi;
    (void)lab;
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
    m->d_in = (float *)wb_device_alloc(m->bytes, "the input matrix", "lab06");
    m->d_out = (float *)wb_device_alloc(m->bytes + WB_GUARD_BYTES, "the output matrix", "lab06");
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

/* The result column of a row: the digest of what kernel k wrote. Output
 * bitwise equal to what it should be has that matrix's digest, taken once
 * per input (a byte at a time, the digest costs more than the compare:
 * 0.3 s at 8192x8192, for every row of a table otherwise). */
static void output_digest(const t_kernel *k, matrices *m, int right, wb_row *row)
{
    char *d = k->is_copy ? m->in_digest : m->ref_digest;
    if (!right) {
        wb_row_result_bytes(row, m->host_out, m->bytes);
        return;
    }
    if (!d[0]) {
        wb_row_result_bytes(row, k->is_copy ? m->host_in : m->host_ref, m->bytes);
        memcpy(d, row->result, 17);
    }
    snprintf(row->result, sizeof row->result, "%s", d);
}

/* ---------------------------------------------------------------------- */
/* One kernel on one pair of matrices                                      */
/* ---------------------------------------------------------------------- */
typedef struct {
    const wb_gpu *g;
    const t_kernel *k;
    matrices *m;
    dim3 grid, block;
} run_ctx;

static void launch_once(void *p, wb_run_what what)
{
    run_ctx *c = (run_ctx *)p;
    (void)what; /* every run is the one launch */
    c->k->launch(c->m->d_out, c->m->d_in, c->m->nx, c->m->ny, c->grid, c->block);
}

/* Before every launch, checked or timed (wb_time_events' reset): 0xFF bytes
 * (a NaN no kernel copies) in the output, the guard after it and every SM's
 * shared memory. Asynchronous. */
static void poison(void *p, int fresh)
{
    run_ctx *c = (run_ctx *)p;
    (void)fresh;
    wb_poison_guarded(c->m->d_out, c->m->bytes, 0xFF);
    wb_poison_shared(c->g);
}

/* What the verified launch left (when NULL), or the last run, timed or
 * --check's second, each from a poisoned output: it must agree too. */
static void judge(void *p, wb_row *row, const char *when)
{
    run_ctx *c = (run_ctx *)p;
    matrices *m = c->m;
    char again[160], prefix[48];
    if (when && !row->pass)
        return;
    CHECK(cudaMemcpy(m->host_out, m->d_out, m->bytes, cudaMemcpyDeviceToHost));
    if (!when) {
        row->pass = output_right(c->k, m, row->check, sizeof row->check);
        output_digest(c->k, m, row->pass, row); /* the result column: the output's digest */
        if (row->pass && !wb_guard_intact(m->d_out, m->bytes, 0xFF)) {
            row->pass = 0;
            snprintf(row->check, sizeof row->check, "wrote past the end of the output (the guard after it changed)");
        }
    } else if (!output_right(c->k, m, again, sizeof again)) {
        row->pass = 0;
        snprintf(prefix, sizeof prefix, "%s differed: ", when);
        join_text(row->check, sizeof row->check, prefix, again);
        wb_row_result_bytes(row, m->host_out, m->bytes);
    }
}

static const wb_row_ops transpose_ops = {poison, launch_once, judge, 0};

/* Kernel k on m's matrices with blocks of bx x by (or its own): verified,
 * and as the mode says timed into r, counted in r's closing line, or left
 * in *row for --check. */
static void run_row(wb_gpu *g, wb_report *r, const wb_lab *lab, matrices *m, const t_kernel *k, int bx, int by,
                    int reps, wb_row_mode mode, wb_row *row)
{
    run_ctx c;
    long long gx, gy;
    int cc = 10 * g->prop.major + g->prop.minor;
    c.g = g;
    c.k = k;
    c.m = m;
    c.block = block_for(k, bx, by);
    grid_for(k, m->nx, m->ny, c.block, &gx, &gy);
    c.grid = dim3((unsigned)gx, (unsigned)gy);
    wb_row_init(row, &k->info, (long long)m->n, 2.0 * (double)m->bytes);
    /* a library's call (wb_is_library) picks its own grid and block: the row shows none */
    int library = wb_is_library(k->info.name);
    wb_row_matrix(row, m->nx, m->ny, library ? dim3(0) : c.grid, library ? dim3(0) : c.block);
    if (k->min_cc > cc) { /* not on this GPU: one line under the table (--check: a todo row) */
        row->todo = 1;
        snprintf(row->check, sizeof row->check, "not run: needs compute capability %d.%d, this GPU has %d.%d",
                 k->min_cc / 10, k->min_cc % 10, g->prop.major, g->prop.minor);
        if (mode == WB_ROW_TIMED)
            fprintf(wb_report_notes(r), "%s: %s\n", k->info.name, row->check);
        return;
    }
    wb_run_row(g, r, lab, reps, mode, &transpose_ops, &c, row);
}

/* The runner's steps (program.h): one pair of matrices per shape and seed;
 * a timed input measures the copy ceiling of its bytes at once */
static void open_input(wb_run *run, const wb_input_cfg *cfg)
{
    matrices *m = (matrices *)malloc(sizeof *m);
    if (!m) {
        fprintf(stderr, "lab06: out of host memory\n");
        exit(WB_EXIT_USAGE);
    }
    matrices_host(m, cfg->nx, cfg->ny, cfg->seed);
    matrices_device(m);
    if (cfg->timed)
        wb_measure_ceiling((wb_gpu *)run->dev, run->r, m->d_out, m->d_in, m->bytes, run->a->reps);
    run->input = m;
}

static void run_row_step(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                         wb_row *row)
{
    (void)finish;
    run_row((wb_gpu *)run->dev, run->r, run->lab, (matrices *)run->input, (const t_kernel *)k, bx, by,
            run->a->reps, mode, row);
}

static void close_input(wb_run *run)
{
    matrices_free((matrices *)run->input);
    free(run->input);
    run->input = NULL;
}

const wb_runner lab06_runner = {open_input, run_row_step, close_input, NULL, NULL};
