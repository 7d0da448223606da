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

/* The ints a pass of kernel k over n ints reads: whole blocks of
 * block * per_thread (a grid of its own may reach further), and n rounded up
 * to a multiple of 4 (16-byte loads; and each level of partial sums below
 * starts 16-byte aligned). */
static size_t reach(const wb_reduce_kernel *k, unsigned n, unsigned grid, unsigned block)
{
    size_t tile = (size_t)block * k->per_thread;
    size_t covered = (size_t)wb_ceil_div(n, (long long)tile) * tile, rounded = ((size_t)n + 3) / 4 * 4;
    if ((size_t)grid * tile > covered && !k->grid_for)
        covered = (size_t)grid * tile;
    return covered > rounded ? covered : rounded;
}

/* At most this many launches for one reduction: each pass leaves one partial
 * sum per block of 32 or more threads, so 2^31 ints take 7. */
#define WB_MAX_PASSES 8

/*
 * The launches of one whole reduction. With the host finish: one, the first
 * pass. With the device finish (the PMPP way): pass p reduces n[p] ints (the
 * input, then the previous pass's partial sums) with grid[p] blocks into
 * grid[p] partial sums at partial + off[p], until one value remains. Each
 * level of partial sums is also the next pass's input, so it is padded to
 * len[p] ints as the input is (zeros; poison for a kernel that checks n).
 * One buffer per level rather than two in turn: in-place kernels overwrite
 * their input, padding included, so a reused buffer would need its padding
 * restored inside the timing; this way every level is poisoned and padded
 * once, outside it, and the timed reduction is the launches alone.
 */
typedef struct {
    int passes;
    unsigned n[WB_MAX_PASSES], grid[WB_MAX_PASSES];
    size_t off[WB_MAX_PASSES], len[WB_MAX_PASSES];
    size_t total; /* ints of the partial-sum buffer that the passes use */
} finish_plan;

static void plan_finish(finish_plan *f, const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                        int device)
{
    int p;
    memset(f, 0, sizeof *f);
    for (p = 0; p < WB_MAX_PASSES; ++p) {
        unsigned grid = wb_reduce_grid(k, n, block, g, WB_INT);
        /* the last pass: one value left, or a grid that cannot get there
         * (0 blocks, or no fewer blocks than inputs: the check says so) */
        int last = !device || k->one_pass || grid <= 1 || grid >= n || p + 1 == WB_MAX_PASSES;
        f->n[p] = n;
        f->grid[p] = grid;
        f->off[p] = f->total;
        /* a kernel that sizes its own grid (CUB: grid 0 here) still writes one number */
        f->len[p] = last ? (grid > 0 ? grid : 1) : reach(k, grid, wb_reduce_grid(k, grid, block, g, WB_INT), block);
        f->total += (f->len[p] + 3) / 4 * 4;
        f->passes = p + 1;
        if (last)
            break;
        n = grid;
    }
}

typedef struct {
    const wb_reduce_kernel *k;
    int *data, *orig, *partial, *host_partial;
    size_t padded; /* ints in data and orig */
    unsigned n, grid, block, max_grid; /* max_grid: ints in host_partial */
    int device;   /* the device finish (--finish device) */
    int checking; /* verify: look at every pass's partial sums */
    finish_plan plan;
    long long result;
    int unwritten;      /* a partial sum still poisoned after the run (-1: none) */
    int unwritten_pass; /* ... left by this pass (0: the first) */
} run_ctx;

/* The input as kernel k reads it: the pristine n ints, and after them zeros
 * (the identity) or, for a kernel that checks n itself, poison. */
static void restore_input(run_ctx *c)
{
    CHECK(cudaMemcpyAsync(c->data, c->orig, c->padded * sizeof(int), cudaMemcpyDeviceToDevice, 0));
    if (c->k->guards_n && c->padded > c->n)
        CHECK(cudaMemsetAsync(c->data + c->n, WB_TAIL_POISON_BYTE, (c->padded - c->n) * sizeof(int), 0));
}

/* Every pass's partial sums poisoned, and after them the padding that the
 * next pass reads (as restore_input pads the input). */
static void poison_partials(run_ctx *c)
{
    const finish_plan *f = &c->plan;
    int p;
    for (p = 0; p < f->passes; ++p) {
        size_t outputs = f->grid[p] > 0 ? f->grid[p] : 1;
        int *level = c->partial + f->off[p];
        CHECK(cudaMemsetAsync(level, WB_POISON_BYTE, outputs * sizeof(int), 0));
        if (f->len[p] > outputs)
            CHECK(cudaMemsetAsync(level + outputs, c->k->guards_n ? WB_TAIL_POISON_BYTE : 0,
                                  (f->len[p] - outputs) * sizeof(int), 0));
    }
}

static void restore(void *p)
{
    run_ctx *c = (run_ctx *)p;
    if (c->k->in_place)
        restore_input(c);
    poison_partials(c);
}

static void first_pass(void *p)
{
    run_ctx *c = (run_ctx *)p;
    c->k->launch(c->data, c->partial, c->n, c->grid, c->block, WB_INT);
    CHECK_LAUNCH("the kernel under test");
}

/* The first partial sum of parts[0..count) still poisoned, or -1. */
static int first_poisoned(const int *parts, unsigned count)
{
    int poison;
    unsigned i;
    memset(&poison, WB_POISON_BYTE, sizeof poison);
    for (i = 0; i < count; ++i)
        if (parts[i] == poison)
            return (int)i;
    return -1;
}

/* The whole reduction to one number, finished on the host: the first pass,
 * then (as the book does) the partial sums copied back and added on the
 * host (for a max kernel: their maximum). Notes a partial sum left poisoned. */
static void finish_on_host(run_ctx *c)
{
    unsigned parts = c->k->one_pass ? 1 : c->grid, i;
    long long s = c->k->op == WB_OP_MAX ? -(1LL << 62) : 0; /* below any int */
    first_pass(c);
    CHECK(cudaMemcpy(c->host_partial, c->partial, parts * sizeof(int), cudaMemcpyDeviceToHost));
    c->unwritten = first_poisoned(c->host_partial, parts);
    c->unwritten_pass = 0;
    for (i = 0; i < parts; ++i) {
        if (c->k->op == WB_OP_MAX)
            s = c->host_partial[i] > s ? c->host_partial[i] : s;
        else
            s += c->host_partial[i];
    }
    c->result = s;
}

/* The whole reduction to one number, finished on the device (PMPP): the
 * same kernel relaunched on its own partial sums until one value remains;
 * only that int comes back. Verifying (c->checking), each pass's partial
 * sums are also copied back and looked at, outside any timing. */
static void finish_on_device(run_ctx *c)
{
    const finish_plan *f = &c->plan;
    int p, last = f->passes - 1, value;
    c->unwritten = -1;
    for (p = 0; p < f->passes; ++p) {
        int *in = p == 0 ? c->data : c->partial + f->off[p - 1];
        c->k->launch(in, c->partial + f->off[p], f->n[p], f->grid[p], c->block, WB_INT);
        CHECK_LAUNCH("the kernel under test, relaunched on its partial sums");
        if (c->checking && c->unwritten < 0 && f->grid[p] > 0) {
            unsigned parts = f->grid[p] < c->max_grid ? f->grid[p] : c->max_grid; /* host_partial's room */
            CHECK(cudaMemcpy(c->host_partial, c->partial + f->off[p], parts * sizeof(int), cudaMemcpyDeviceToHost));
            c->unwritten = first_poisoned(c->host_partial, parts);
            c->unwritten_pass = p;
        }
    }
    CHECK(cudaMemcpy(&value, c->partial + f->off[last], sizeof value, cudaMemcpyDeviceToHost));
    if (c->unwritten < 0 && first_poisoned(&value, 1) == 0) { /* a last pass that never ran */
        c->unwritten = 0;
        c->unwritten_pass = last;
    }
    c->result = value;
}

static void whole(void *p)
{
    run_ctx *c = (run_ctx *)p;
    if (c->device)
        finish_on_device(c);
    else
        finish_on_host(c);
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
static void verify(const wb_lab *lab, run_ctx *c, long long expected, wb_row *row)
{
    const finish_plan *f = &c->plan;
    int last = f->passes - 1, stuck;
    if (lab->todo_take)
        lab->todo_take(); /* clear a flag a previous run left */
    restore_input(c);
    poison_partials(c);
    c->checking = 1;
    whole(c);
    c->checking = 0;
    if (lab->todo_take && lab->todo_take()) {
        row->todo = 1;
        snprintf(row->check, sizeof row->check, "not written yet (WB_TODO() in %s)", lab->exercise_file);
        return;
    }
    /* the device finish never got to one value: a grid of 0 blocks, or one
     * no smaller than its input (a grid of the student's own) */
    stuck = c->device && !c->k->one_pass && f->grid[last] != 1;
    row->pass = c->result == expected && c->unwritten < 0 && !stuck;
    if (stuck)
        snprintf(row->check, sizeof row->check, "launch %d of %d: a grid of %u blocks for %u ints never gets to one",
                 last + 1, f->passes, f->grid[last], f->n[last]);
    else if (c->unwritten >= 0 && c->device)
        snprintf(row->check, sizeof row->check, "launch %d of %d: block %d never wrote its result (still poisoned)",
                 c->unwritten_pass + 1, f->passes, c->unwritten);
    else if (c->unwritten >= 0)
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
    size_t padded = ((size_t)n + 3) / 4 * 4, partials = 1, bytes;
    int *host, *data, *orig, *partial, *host_partial, i;
    long long sum;

    /* size the buffers for every kernel of the run: the widest padding, grid and partial sums */
    for (i = 0; i < nrows; ++i) {
        const wb_reduce_kernel *k = (const wb_reduce_kernel *)order[i];
        unsigned grid = wb_reduce_grid(k, n, block, g, WB_INT);
        size_t covered = reach(k, n, grid, block);
        finish_plan f;
        plan_finish(&f, k, n, block, g, a->finish_device);
        if (grid > max_grid)
            max_grid = grid;
        if (covered > padded)
            padded = covered;
        if (f.total > partials)
            partials = f.total;
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
    partial = (int *)wb_device_alloc(partials * sizeof(int), "the partial sums", lab->lab);
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
        c.max_grid = max_grid;
        c.device = a->finish_device;
        plan_finish(&c.plan, c.k, n, block, g, c.device);
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
        row.finish = c.device ? "device" : "host";
        if (c.device && !c.k->one_pass) { /* the grid of each launch, for the note under the table */
            int p;
            for (p = 0; p < c.plan.passes; ++p)
                snprintf(row.finish_grids + strlen(row.finish_grids),
                         sizeof row.finish_grids - strlen(row.finish_grids), "%s%u", p ? ", " : "",
                         c.plan.grid[p]);
        }

        /* verify first (every kernel, in place or not, starts from the pristine input) */
        verify(lab, &c, expected, &row);
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

/* The lab's own notes, printed after the device finish's. */
static void (*lab_notes)(const struct wb_report *r, FILE *out);

/* Under the table with --finish device: how many launches each reduction
 * took, with their grids; the rows of one size and one chain of grids on one
 * line, wrapped at 100 columns. */
static void print_finish_notes(const wb_report *r, FILE *out)
{
    int i, j, header = 0;
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        int col, passes = 1, seen = 0;
        const char *c;
        for (j = 0; j < i && !seen; ++j)
            seen = r->rows[j].n == w->n && !strcmp(r->rows[j].finish_grids, w->finish_grids);
        if (seen || !w->finish_grids[0] || w->todo)
            continue;
        if (!header)
            fprintf(out, "device finish: each kernel relaunched on its own partial sums until one value remains\n");
        header = 1;
        for (c = w->finish_grids; *c; ++c)
            passes += *c == ',';
        col = fprintf(out, "  %d launch%s per reduction at n = %lld, block %u (grid%s %s):", passes,
                      passes > 1 ? "es" : "", w->n, w->block_x, passes > 1 ? "s" : "", w->finish_grids);
        for (j = i; j < r->nrows; ++j) {
            const wb_row *v = &r->rows[j];
            if (v->n != w->n || strcmp(v->finish_grids, w->finish_grids) || v->todo)
                continue;
            if (j > i)
                col += fprintf(out, ",");
            if (col + 1 + (int)strlen(v->kernel) > 100)
                col = fprintf(out, "\n   ") - 1;
            col += fprintf(out, " %s", v->kernel);
        }
        fprintf(out, "\n");
    }
    if (header)
        fprintf(out, "\n");
    if (lab_notes)
        lab_notes(r, out);
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
    if (a.finish_device) {
        r.total_what = "the whole reduction to one number: the kernel relaunched on its own partial sums "
                       "until one value remains, then that int copied to the host (host clock)";
        lab_notes = r.notes;
        r.notes = print_finish_notes;
    }
    wb_reduce_run(&g, &r, lab, kernels, &a, a.n, wb_reduce_baseline(lab, &a, t ? t->baseline : NULL));
    wb_reduce_count_exercises(&g, &r, lab, kernels, &a);
    wb_report_print(&r, a.format, stdout);
    if (t && t->cleanup)
        t->cleanup();
    wb_gpu_close(&g);
    return wb_report_status(&r);
}
