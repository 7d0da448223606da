/*
 * reduce.cu - the harness that labs 02-05 share: input, padding, poisoning,
 * exact verification, the two timings, and the usual main. A lab supplies
 * only its kernels and their table. Contracts in workbook.h.
 */
#include "workbook.h"

#include <stdlib.h>
#include <string.h>

/* Partial sums of non-negative inputs are never negative: 0xABABABAB is. */
#define WB_POISON_BYTE 0xAB
/* After the n ints, for a kernel that checks n itself: 0x55555555, so that
 * one element read past n changes the sum (and the maximum). */
#define WB_TAIL_POISON_BYTE 0x55

unsigned wb_reduce_grid(const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                        wb_type type)
{
    if (k->grid_for)
        return k->grid_for(n, block, g, type);
    return (unsigned)wb_ceil_div(n, (long long)block * k->per_thread);
}

/* The kernel a run's i-th row is: the lab's kernels, then its exercises. */
static const wb_reduce_kernel *entry(const wb_lab *lab, const wb_reduce_kernel *kernels,
                                     const wb_reduce_kernel *exercises, int i)
{
    return i < lab->kernels.count ? &kernels[i] : &exercises[i - lab->kernels.count];
}

void wb_reduce_check_blocks(const wb_lab *lab, const wb_reduce_kernel *kernels, const wb_args *a)
{
    const wb_reduce_kernel *exercises = (const wb_reduce_kernel *)lab->exercises.first;
    int i;
    for (i = 0; i < lab->kernels.count + lab->exercises.count; ++i) {
        const wb_reduce_kernel *k = entry(lab, kernels, exercises, i);
        if (i < lab->kernels.count ? !a->selected[i] : !a->ex_selected[i - lab->kernels.count])
            continue;
        if ((unsigned)a->block_x < k->min_block || (unsigned)a->block_x > k->max_block) {
            fprintf(stderr,
                    "%s: -b %d: %s takes blocks of %u to %u threads (powers of two); choose a block in "
                    "that range, or leave it out with -k\n",
                    lab->lab, a->block_x, k->info.name, k->min_block, k->max_block);
            exit(WB_EXIT_USAGE);
        }
    }
}

typedef struct {
    const wb_reduce_kernel *k;
    int *data, *orig, *partial, *host_partial;
    size_t padded; /* ints in data and orig */
    unsigned n, grid, block;
    long long result;
    int unwritten; /* partial sums still poisoned after the run (-1: none) */
} run_ctx;

/* The input as kernel k reads it: the pristine n ints, and after them zeros
 * (the identity) or, for a kernel that checks n itself, poison. */
static void restore_input(run_ctx *c)
{
    CHECK(cudaMemcpyAsync(c->data, c->orig, c->padded * sizeof(int), cudaMemcpyDeviceToDevice, 0));
    if (c->k->guards_n && c->padded > c->n)
        CHECK(cudaMemsetAsync(c->data + c->n, WB_TAIL_POISON_BYTE, (c->padded - c->n) * sizeof(int), 0));
}

static void restore(void *p)
{
    run_ctx *c = (run_ctx *)p;
    /* a kernel that sizes its own grid (CUB: grid 0 here) still writes one number */
    unsigned outputs = c->grid > 0 ? c->grid : 1;
    if (c->k->in_place)
        restore_input(c);
    CHECK(cudaMemsetAsync(c->partial, WB_POISON_BYTE, outputs * sizeof(int), 0));
}

static void first_pass(void *p)
{
    run_ctx *c = (run_ctx *)p;
    c->k->launch(c->data, c->partial, c->n, c->grid, c->block, WB_INT);
    CHECK_LAUNCH("the kernel under test");
}

/* The whole reduction to one number: the first pass, then (as the book
 * does) the partial sums copied back and added on the host (for a max
 * kernel: their maximum). Notes a partial sum left poisoned. */
static void whole(void *p)
{
    run_ctx *c = (run_ctx *)p;
    unsigned parts = c->k->one_pass ? 1 : c->grid, i;
    long long s = c->k->op == WB_OP_MAX ? -(1LL << 62) : 0; /* below any int */
    int poison;
    memset(&poison, WB_POISON_BYTE, sizeof poison);
    first_pass(p);
    CHECK(cudaMemcpy(c->host_partial, c->partial, parts * sizeof(int), cudaMemcpyDeviceToHost));
    c->unwritten = -1;
    for (i = 0; i < parts; ++i) {
        if (c->host_partial[i] == poison && c->unwritten < 0)
            c->unwritten = (int)i;
        if (c->k->op == WB_OP_MAX)
            s = c->host_partial[i] > s ? c->host_partial[i] : s;
        else
            s += c->host_partial[i];
    }
    c->result = s;
}

/* The exact answer for kernel k: the 64-bit sum, or the maximum. */
static long long expected_for(const wb_reduce_kernel *k, const int *host, unsigned n, long long sum)
{
    long long m;
    unsigned i;
    if (k->op != WB_OP_MAX)
        return sum;
    m = host[0];
    for (i = 1; i < n; ++i)
        m = host[i] > m ? host[i] : m;
    return m;
}

/* Verify c's kernel once from a restored input and poisoned partial sums;
 * fills row->pass and row->check, or row->todo for an unwritten exercise. */
static void verify(const wb_lab *lab, run_ctx *c, size_t max_grid, long long expected, wb_row *row)
{
    if (lab->todo_take)
        lab->todo_take(); /* clear a flag a previous run left */
    restore_input(c);
    CHECK(cudaMemsetAsync(c->partial, WB_POISON_BYTE, max_grid * sizeof(int), 0));
    whole(c);
    if (lab->todo_take && lab->todo_take()) {
        row->todo = 1;
        snprintf(row->check, sizeof row->check, "not written yet (WB_TODO() in %s)", lab->exercise_file);
        return;
    }
    row->pass = c->result == expected && c->unwritten < 0;
    if (c->unwritten >= 0)
        snprintf(row->check, sizeof row->check, "block %d never wrote its result (output still poisoned)",
                 c->unwritten);
    else
        snprintf(row->check, sizeof row->check, "%s %lld, expected %lld",
                 c->k->op == WB_OP_MAX ? "max" : "sum", c->result, expected);
}

/* Run the rows order[0..nrows) (entries of the lab's tables, as
 * wb_plan_rows gives them) at length n: timed rows into the report, or with
 * timed = 0 only verified, to count the exercises done and todo. */
static void run_rows(wb_gpu *g, wb_report *r, const wb_lab *lab, const wb_args *a, long long n_ll,
                     const wb_kernel_info *const *order, int nrows, int timed)
{
    unsigned n = (unsigned)n_ll, block = (unsigned)a->block_x, max_grid = 1;
    size_t padded = ((size_t)n + 3) / 4 * 4, bytes;
    int *host, *data, *orig, *partial, *host_partial, i;
    long long sum;

    /* size the buffers for every kernel of the run: the widest padding and grid */
    for (i = 0; i < nrows; ++i) {
        const wb_reduce_kernel *k = (const wb_reduce_kernel *)order[i];
        unsigned grid = wb_reduce_grid(k, n, block, g, WB_INT);
        size_t covered = (size_t)wb_ceil_div(n, (long long)block * k->per_thread) * block * k->per_thread;
        if (grid > max_grid)
            max_grid = grid;
        if ((size_t)grid * block * k->per_thread > covered && !k->grid_for)
            covered = (size_t)grid * block * k->per_thread;
        if (covered > padded)
            padded = covered;
    }
    bytes = padded * sizeof(int);
    host = (int *)calloc(padded, sizeof(int));
    host_partial = (int *)malloc(max_grid * sizeof(int));
    if (!host || !host_partial) {
        fprintf(stderr, "%s: not enough host memory for n = %u\n", lab->lab, n);
        exit(WB_EXIT_USAGE);
    }
    wb_fill_ints(host, n, a->seed); /* the tail up to `padded` stays 0, the identity */
    sum = wb_sum_ints(host, n);

    orig = (int *)wb_device_alloc(bytes, "the input", lab->lab);
    data = (int *)wb_device_alloc(bytes, "the working copy of the input", lab->lab);
    partial = (int *)wb_device_alloc(max_grid * sizeof(int), "the partial sums", lab->lab);
    CHECK(cudaMemcpy(orig, host, bytes, cudaMemcpyHostToDevice));

    if (timed)
        wb_measure_ceiling(g, r, data, orig, (size_t)n * sizeof(int), a->reps);

    for (i = 0; i < nrows; ++i) {
        run_ctx c;
        wb_row row;
        wb_stats total;
        long long expected;
        memset(&c, 0, sizeof c);
        c.k = (const wb_reduce_kernel *)order[i];
        c.data = data;
        c.orig = orig;
        c.partial = partial;
        c.host_partial = host_partial;
        c.padded = padded;
        c.n = n;
        c.block = block;
        c.grid = wb_reduce_grid(c.k, n, block, g, WB_INT);
        expected = expected_for(c.k, host, n, sum);

        memset(&row, 0, sizeof row);
        row.kernel = c.k->info.name;
        row.role = c.k->info.kind;
        row.against = c.k->info.against;
        row.n = n;
        row.grid_x = c.grid;
        row.grid_y = 1;
        row.block_x = block;
        row.block_y = 1;
        row.bytes = (double)n * sizeof(int);
        row.total_ms = -1;

        /* verify first (every kernel, in place or not, starts from the pristine input) */
        verify(lab, &c, max_grid, expected, &row);
        if (!timed) { /* the count of exercises done, for the closing line */
            wb_report_exercise_verdict(r, &row);
            continue;
        }
        if (!row.todo) {
            row.time = wb_time_events(g, first_pass, restore, &c, a->reps);
            total = wb_time_host(g, whole, restore, &c, a->reps);
            row.total_ms = total.median;
            /* the timed runs must agree with the verified one too */
            if ((c.result != expected || c.unwritten >= 0) && row.pass) {
                row.pass = 0;
                snprintf(row.check, sizeof row.check, "%s %lld in a timed repetition, expected %lld",
                         c.k->op == WB_OP_MAX ? "max" : "sum", c.result, expected);
            }
        }
        wb_report_add(r, &row);
    }
    CHECK(cudaFree(orig));
    CHECK(cudaFree(data));
    CHECK(cudaFree(partial));
    free(host);
    free(host_partial);
}

void wb_reduce_run(wb_gpu *g, wb_report *r, const wb_lab *lab, const wb_reduce_kernel *kernels,
                   const wb_args *a, long long n, const char *baseline_name)
{
    const wb_kernel_info *order[2 * WB_MAX_KERNELS];
    int nrows;
    (void)kernels; /* the rows come from lab's tables, which hold them */
    r->baseline = baseline_name;
    r->reps = a->reps;
    nrows = wb_plan_rows(lab, a, order);
    run_rows(g, r, lab, a, n, order, nrows, 1);
}

void wb_reduce_count_exercises(wb_gpu *g, wb_report *r, const wb_lab *lab,
                               const wb_reduce_kernel *kernels, const wb_args *a)
{
    const wb_kernel_info *order[WB_MAX_KERNELS];
    int count = 0, i;
    (void)kernels;
    if (!wb_report_exercises_begin(r, lab, a))
        return;
    for (i = 0; i < lab->exercises.count; ++i)
        if (a->ex_selected[i])
            order[count++] = wb_table_at(lab->exercises, i);
    run_rows(g, r, lab, a, lab->exercise_n, order, count, 0);
}

const char *wb_reduce_baseline(const wb_lab *lab, const wb_args *a, const char *preferred)
{
    const char *baseline = NULL;
    int i;
    for (i = 0; i < lab->kernels.count; ++i) {
        const char *name = wb_table_at(lab->kernels, i)->name;
        if (a->selected[i] && (!baseline || (preferred && !strcmp(name, preferred))))
            baseline = name;
    }
    return baseline;
}

int wb_reduce_main(const wb_lab *lab, const wb_reduce_kernel *kernels, int argc, char **argv,
                   void (*explain)(const wb_args *a))
{
    return wb_reduce_main_with(lab, kernels, argc, argv, explain, NULL);
}

int wb_reduce_main_with(const wb_lab *lab, const wb_reduce_kernel *kernels, int argc, char **argv,
                        void (*explain)(const wb_args *a), const wb_reduce_texts *t)
{
    static wb_report r;
    wb_args a;
    wb_gpu g;
    wb_args_or_exit(lab, argc, argv, &a);
    wb_reduce_check_blocks(lab, kernels, &a);
    if (a.explain && explain) {
        explain(&a);
        return WB_EXIT_OK;
    }
    wb_gpu_open(&g, lab->lab);
    wb_report_init(&r, lab->lab);
    wb_report_device(&r, &g);
    r.timed = t && t->timed ? t->timed : "the kernel's first pass alone (CUDA events), one partial sum per block";
    r.total_what = t && t->total_what ? t->total_what
                                      : "the whole reduction to one number: first pass + copy of the partial "
                                        "sums + their sum on the host, as the book does it (host clock)";
    r.notes = t ? t->notes : NULL;
    wb_reduce_run(&g, &r, lab, kernels, &a, a.n, wb_reduce_baseline(lab, &a, t ? t->baseline : NULL));
    wb_reduce_count_exercises(&g, &r, lab, kernels, &a);
    wb_report_print(&r, a.format, stdout);
    if (t && t->cleanup)
        t->cleanup();
    wb_gpu_close(&g);
    return wb_report_status(&r);
}
