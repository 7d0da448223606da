/*
 * matrix_run.cu - how lab05's matrix mode runs the rows of its tables
 * (matrix.cu, exercises.cu): the matrix of one shape and its exact row,
 * column and total sums; one kernel's launch on poisoned outputs and the
 * check of every output element; one row verified and timed; and the
 * runner's steps (lab05_matrix_runner, matrix.h).
 */
#include "workbook.h"
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* The matrix of one shape, its references, the device buffers             */
/* ---------------------------------------------------------------------- */
typedef struct {
    int nx, ny;
    size_t n;
    int *host, *host_out;
    long long total, *rowref, *colref;
    int *d_a, *d_copy, *d_out, *d_scratch;
    size_t out_ints, scratch_ints;
} matrix;

/* Host side: the input by the 1D rule and its exact sums. Short of host
 * memory: one line, exit 2. */
static void matrix_host(matrix *m, int nx, int ny, unsigned long long seed)
{
    size_t r, c;
    memset(m, 0, sizeof *m);
    m->nx = nx;
    m->ny = ny;
    m->n = (size_t)nx * ny;
    m->out_ints = (size_t)(nx > ny ? nx : ny);
    if (m->out_ints < GRID_2D_SIDE * GRID_2D_SIDE)
        m->out_ints = GRID_2D_SIDE * GRID_2D_SIDE; /* reduce2D's partials */
    m->host = (int *)malloc(m->n * sizeof(int));
    m->host_out = (int *)malloc(m->out_ints * sizeof(int));
    m->rowref = (long long *)calloc((size_t)ny, sizeof(long long));
    m->colref = (long long *)calloc((size_t)nx, sizeof(long long));
    if (!m->host || !m->host_out || !m->rowref || !m->colref) {
        fprintf(stderr, "lab05: -n %dx%d needs %.2f GiB of host memory; choose a smaller -n\n", nx, ny,
                m->n * sizeof(int) / 1073741824.0);
        exit(WB_EXIT_USAGE);
    }
    wb_fill_ints(m->host, m->n, seed);
    for (r = 0; r < (size_t)ny; ++r)
        for (c = 0; c < (size_t)nx; ++c) {
            int v = m->host[r * nx + c];
            m->rowref[r] += v;
            m->colref[c] += v;
        }
    for (r = 0; r < (size_t)ny; ++r)
        m->total += m->rowref[r];
}

/* Device side: the input, a buffer as large for the copy ceiling, the
 * outputs, and scratch of `scratch` ints (at least one). */
static void matrix_device(matrix *m, size_t scratch, int with_copy)
{
    size_t bytes = m->n * sizeof(int);
    m->scratch_ints = scratch > 0 ? scratch : 1;
    m->d_a = (int *)wb_device_alloc(bytes, "the matrix", "lab05");
    m->d_copy = with_copy ? (int *)wb_device_alloc(bytes, "the copy ceiling's buffer", "lab05") : NULL;
    m->d_out = (int *)wb_device_alloc(m->out_ints * sizeof(int) + WB_GUARD_BYTES, "the sums", "lab05");
    m->d_scratch = (int *)wb_device_alloc(m->scratch_ints * sizeof(int), "the partial sums", "lab05");
    CHECK(cudaMemcpy(m->d_a, m->host, bytes, cudaMemcpyHostToDevice));
}

static void matrix_free(matrix *m)
{
    CHECK(cudaFree(m->d_a));
    if (m->d_copy)
        CHECK(cudaFree(m->d_copy));
    CHECK(cudaFree(m->d_out));
    CHECK(cudaFree(m->d_scratch));
    free(m->host);
    free(m->host_out);
    free(m->rowref);
    free(m->colref);
}

/* ---------------------------------------------------------------------- */
/* One kernel on one matrix                                                */
/* ---------------------------------------------------------------------- */
typedef struct {
    const m_kernel *k;
    matrix *m;
    dim3 grid, block;
    size_t scratch;
} m_ctx;

static void make_ctx(m_ctx *c, const m_kernel *k, matrix *m, int bx, int by, const wb_gpu *g)
{
    c->k = k;
    c->m = m;
    k->shape(m->nx, m->ny, bx, by, g, &c->grid, &c->block, &c->scratch);
}

/* The outputs kernel k leaves: partial sums, the total, or one per row or column. */
static size_t outputs_of(const m_ctx *c)
{
    if (c->k->output == M_ROWS)
        return (size_t)c->m->ny;
    if (c->k->output == M_COLS)
        return (size_t)c->m->nx;
    return c->k->partials ? (size_t)c->grid.x * c->grid.y : 1;
}

static void launch_once(void *p, wb_run_what what)
{
    m_ctx *c = (m_ctx *)p;
    (void)what; /* every run is the one launch */
    c->k->launch(c->m->d_a, c->m->d_out, c->m->d_scratch, c->m->nx, c->m->ny, c->grid, c->block);
}

/* Before every launch (wb_time_events' reset too): every output word, the
 * guard after them and every scratch word 0xABABABAB. Asynchronous. */
static void poison(void *p, int fresh)
{
    m_ctx *c = (m_ctx *)p;
    (void)fresh;
    wb_poison_guarded(c->m->d_out, outputs_of(c) * sizeof(int), WB_POISON_BYTE);
    if (c->scratch > 0)
        wb_poison(c->m->d_scratch, c->scratch * sizeof(int), WB_POISON_BYTE);
}

/* Copy back what c's kernel left and compare every element with the exact
 * reference; the finding goes into check. Returns 1 when all are right. */
static int outputs_right(const m_ctx *c, char *check, size_t len)
{
    const matrix *m = c->m;
    size_t count = outputs_of(c), i, wrong = 0, first = 0;
    const long long *ref = c->k->output == M_ROWS ? m->rowref : m->colref;
    const char *what = c->k->output == M_ROWS ? "row" : "column";
    int unwritten;
    CHECK(cudaMemcpy(m->host_out, m->d_out, count * sizeof(int), cudaMemcpyDeviceToHost));
    if (!wb_guard_intact(m->d_out, count * sizeof(int), WB_POISON_BYTE)) {
        snprintf(check, len, "wrote past its last output (the guard after them changed)");
        return 0;
    }
    if (c->k->output == M_TOTAL) {
        long long s = 0;
        unwritten = wb_first_poisoned(m->host_out, count, sizeof(int), WB_POISON_BYTE);
        if (unwritten >= 0) {
            snprintf(check, len, "block %d never wrote its sum (still poisoned)", unwritten);
            return 0;
        }
        for (i = 0; i < count; ++i)
            s += m->host_out[i];
        snprintf(check, len, "total %lld, expected %lld", s, m->total);
        return s == m->total;
    }
    for (i = 0; i < count; ++i)
        if (m->host_out[i] != ref[i] && wrong++ == 0)
            first = i;
    if (!wrong) {
        snprintf(check, len, "all %zu %s sums exact", count, what);
        return 1;
    }
    snprintf(check, len, "%zu of %zu %s sums wrong; %s %zu: %d, expected %lld", wrong, count, what, what,
             first, m->host_out[first], ref[first]);
    return 0;
}

/* The result column: what the kernel left in host_out (outputs_right
 * copied it): the total, or the digest of the row or column sums. */
static void matrix_result(const m_ctx *c, wb_row *row)
{
    size_t i, count = outputs_of(c);
    long long s = 0;
    if (c->k->output != M_TOTAL) {
        wb_row_result_bytes(row, c->m->host_out, count * sizeof(int));
        return;
    }
    for (i = 0; i < count; ++i)
        s += c->m->host_out[i];
    wb_row_result_int(row, s);
}

/* The verified launch's outputs (when NULL), or the last run's, which must
 * be right too (timed, or --check's second). */
static void judge(void *p, wb_row *row, const char *when)
{
    char again[96];
    if (when && !row->pass)
        return;
    if (!when) {
        row->pass = outputs_right((const m_ctx *)p, row->check, sizeof row->check);
        matrix_result((const m_ctx *)p, row);
    } else if (!outputs_right((const m_ctx *)p, again, sizeof again)) {
        row->pass = 0;
        snprintf(row->check, sizeof row->check, "%s: %.70s", when, again);
        matrix_result((const m_ctx *)p, row);
    }
}

static const wb_row_ops matrix_ops = {poison, launch_once, judge, 0};

/* Kernel k on m with blocks of bx x by: verified, and as the mode says
 * timed into r (outputs poisoned before every repetition), counted in r's
 * closing line, or left in *row for --check. */
static void run_row(wb_gpu *g, wb_report *r, const wb_lab *lab, matrix *m, const m_kernel *k, int bx, int by,
                    int reps, wb_row_mode mode, wb_row *row)
{
    m_ctx c;
    make_ctx(&c, k, m, bx, by, g);
    wb_row_init(row, &k->info, (long long)m->n, (double)m->n * sizeof(int)); /* every element read once */
    wb_row_matrix(row, m->nx, m->ny, c.grid, c.block);
    wb_run_row(g, r, lab, reps, mode, &matrix_ops, &c, row);
}

/* The scratch the rows need under each block of the lists bx[0..nb), by. */
static size_t scratch_for(const wb_kernel_info *const *order, int nrows, int nx, int ny, const int *bx,
                          const int *by, int nb, const wb_gpu *g)
{
    size_t most = 0;
    int i, j;
    for (i = 0; i < nrows; ++i)
        for (j = 0; j < nb; ++j) {
            dim3 grid, block;
            size_t s;
            ((const m_kernel *)order[i])->shape(nx, ny, bx[j], by[j], g, &grid, &block, &s);
            if (s > most)
                most = s;
        }
    return most;
}

/* The runner's steps (program.h): one matrix per shape and seed, with the
 * scratch every row needs under every block of the run; a timed input also
 * has a buffer for the copy ceiling, measured at once */
static void open_input(wb_run *run, const wb_input_cfg *cfg)
{
    const wb_gpu *g = (const wb_gpu *)run->dev;
    matrix *m = (matrix *)malloc(sizeof *m);
    if (!m) {
        fprintf(stderr, "lab05: out of host memory\n");
        exit(WB_EXIT_USAGE);
    }
    matrix_host(m, cfg->nx, cfg->ny, cfg->seed);
    matrix_device(m, scratch_for(run->order, run->nrows, cfg->nx, cfg->ny, cfg->bx, cfg->by, cfg->nblocks, g),
                  cfg->timed);
    if (cfg->timed)
        wb_measure_ceiling((wb_gpu *)run->dev, run->r, m->d_copy, m->d_a, m->n * sizeof(int), run->a->reps);
    run->input = m;
}

static void run_row_step(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                         wb_row *row)
{
    (void)finish;
    run_row((wb_gpu *)run->dev, run->r, run->lab, (matrix *)run->input, (const m_kernel *)k, bx, by,
            mode == WB_ROW_CHECK ? 1 : run->a->reps, mode, row);
}

static void close_input(wb_run *run)
{
    matrix_free((matrix *)run->input);
    free(run->input);
    run->input = NULL;
}

const wb_runner lab05_matrix_runner = {open_input, run_row_step, close_input, NULL, NULL};
