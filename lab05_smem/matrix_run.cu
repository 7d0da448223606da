/*
 * matrix_run.cu - how lab05's matrix mode runs the rows of its tables
 * (matrix.cu, exercises.cu): the matrix of one shape and its exact row,
 * column and total sums; one kernel's launch on poisoned outputs and the
 * check of every output element; one row verified and timed; the rows of a
 * run; and --check's steps. What matrix.cu calls is declared in matrix.h.
 */
#include "workbook.h"
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

#define POISON_BYTE 0xAB

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
    m->d_out = (int *)wb_device_alloc(m->out_ints * sizeof(int), "the sums", "lab05");
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
    const wb_lab *lab; /* its todo_take and exercise file, for an exercise's row */
    const m_kernel *k;
    matrix *m;
    dim3 grid, block;
    size_t scratch;
} m_ctx;

static void make_ctx(m_ctx *c, const wb_lab *lab, const m_kernel *k, matrix *m, int bx, int by, const wb_gpu *g)
{
    c->lab = lab;
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

static void launch_once(void *p)
{
    m_ctx *c = (m_ctx *)p;
    c->k->launch(c->m->d_a, c->m->d_out, c->m->d_scratch, c->m->nx, c->m->ny, c->grid, c->block);
}

/* Before every launch (wb_time_events' reset too): every output and scratch
 * word 0xABABABAB. Asynchronous. */
static void poison(void *p)
{
    m_ctx *c = (m_ctx *)p;
    CHECK(cudaMemsetAsync(c->m->d_out, POISON_BYTE, outputs_of(c) * sizeof(int), 0));
    if (c->scratch > 0)
        CHECK(cudaMemsetAsync(c->m->d_scratch, POISON_BYTE, c->scratch * sizeof(int), 0));
}

/* Copy back what c's kernel left and compare every element with the exact
 * reference; the finding goes into check. Returns 1 when all are right. */
static int outputs_right(const m_ctx *c, char *check, size_t len)
{
    const matrix *m = c->m;
    size_t count = outputs_of(c), i, wrong = 0, first = 0;
    const long long *ref = c->k->output == M_ROWS ? m->rowref : m->colref;
    const char *what = c->k->output == M_ROWS ? "row" : "column";
    int poison_value;
    memset(&poison_value, POISON_BYTE, sizeof poison_value);
    CHECK(cudaMemcpy(m->host_out, m->d_out, count * sizeof(int), cudaMemcpyDeviceToHost));
    if (c->k->output == M_TOTAL) {
        long long s = 0;
        for (i = 0; i < count; ++i) {
            if (m->host_out[i] == poison_value) {
                snprintf(check, len, "block %zu never wrote its sum (still poisoned)", i);
                return 0;
            }
            s += m->host_out[i];
        }
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

/* One checked launch on poisoned outputs: row->pass and row->check, or
 * row->todo for an exercise still WB_TODO(). */
static void verify(m_ctx *c, wb_row *row)
{
    wb_todo_clear(c->lab); /* a flag an earlier launch left */
    poison(c);
    launch_once(c);
    CHECK(cudaDeviceSynchronize());
    if (wb_row_todo(c->lab, row))
        return;
    row->pass = outputs_right(c, row->check, sizeof row->check);
    matrix_result(c, row);
}

static void verify_step(void *p, wb_row *row) { verify((m_ctx *)p, row); }

/* What the last run (timed, or --check's second) left must be right too. */
static void recheck_step(void *p, wb_row *row, const char *when)
{
    char again[96];
    if (row->pass && !outputs_right((const m_ctx *)p, again, sizeof again)) {
        row->pass = 0;
        snprintf(row->check, sizeof row->check, "%s: %.70s", when, again);
        matrix_result((const m_ctx *)p, row);
    }
}

static const wb_row_ops matrix_ops = {verify_step, launch_once, poison, NULL, recheck_step};

/* Kernel k on m with blocks of bx x by: verified, and as the mode says
 * timed into r (outputs poisoned before every repetition), counted in r's
 * closing line, or left in *row for --check. */
static void run_row(wb_gpu *g, wb_report *r, const wb_lab *lab, matrix *m, const m_kernel *k, int bx, int by,
                    int reps, wb_row_mode mode, wb_row *row)
{
    m_ctx c;
    make_ctx(&c, lab, k, m, bx, by, g);
    wb_row_init(row, &k->info, (long long)m->n, (double)m->n * sizeof(int)); /* every element read once */
    row->nx = m->nx;
    row->ny = m->ny;
    row->grid_x = c.grid.x;
    row->grid_y = c.grid.y;
    row->block_x = c.block.x;
    row->block_y = c.block.y;
    wb_run_row(g, r, reps, mode, &matrix_ops, &c, row);
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

/* The rows order[0..nrows) of `lab` on an nx x ny matrix: timed rows (with
 * the copy ceiling of that matrix measured first) or, timed 0, verdicts only. */
void matrix_run_rows(wb_gpu *g, wb_report *r, const wb_lab *lab, const wb_args *a, int nx, int ny,
                     const wb_kernel_info *const *order, int nrows, int timed)
{
    matrix m;
    int i;
    matrix_host(&m, nx, ny, a->seed);
    matrix_device(&m, scratch_for(order, nrows, nx, ny, &a->block_x, &a->block_y, 1, g), timed);
    if (timed)
        wb_measure_ceiling(g, r, m.d_copy, m.d_a, m.n * sizeof(int), a->reps);
    for (i = 0; i < nrows; ++i) {
        wb_row row;
        run_row(g, r, lab, &m, (const m_kernel *)order[i], a->block_x, a->block_y, a->reps,
                timed ? WB_ROW_TIMED : WB_ROW_COUNT, &row);
    }
    matrix_free(&m);
}

/* --check's steps (wb_check_run): one matrix per shape and seed */
static void check_open(const wb_check_ctx *c, int ti, int si, int ni)
{
    const wb_args *a = c->a;
    int nx = a->nx_list[ni], ny = a->ny_list[ni];
    (void)ti;
    matrix_host((matrix *)c->input, nx, ny, a->seed_list[si]);
    matrix_device((matrix *)c->input,
                  scratch_for(c->order, c->nrows, nx, ny, a->bx_list, a->by_list, a->block_count, c->g), 0);
}

static void check_row(const wb_check_ctx *c, const wb_kernel_info *k, int fi, int bi, wb_row *row)
{
    (void)fi;
    run_row(c->g, NULL, c->lab, (matrix *)c->input, (const m_kernel *)k, c->a->bx_list[bi], c->a->by_list[bi], 1,
            WB_ROW_CHECK, row);
}

static void check_close(const wb_check_ctx *c) { matrix_free((matrix *)c->input); }

int matrix_check_rows(wb_gpu *g, const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order,
                      int nrows)
{
    static const wb_check_steps steps = {check_open, check_row, check_close};
    matrix m;
    wb_check_ctx c = {lab, a, order, nrows, g, &m};
    return wb_check_run(&c, -1, &steps);
}
