/*
 * reduce.cu - the runner that labs 02-05 share: what a row cannot take
 * (refused before the device opens), each input and its exact reference,
 * each row verified, timed and checked again, and the notes of the device
 * finish. A lab supplies only its kernels and their table.
 */
#include "reduce.h"

#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "gpu.h"
#include "lab.h"
#include "numbers.h"
#include "program.h"
#include "reduce_pass.h"
#include "report.h"
#include "types.h"

const wb_choice wb_finish_choice = {
    "--finish", {"host", "device"}, "a finish", "[--finish F]", "--finish host,device",
    "  --finish F    how the total reaches one number: host (default), the host adds the\n"
    "                partial sums; device, the kernel relaunched on them until one remains\n",
};

/* Refuse kernel k's row (exit 2, one line) when it cannot run at one of
 * the run's blocks or in one of its element types. */
static void check_row(const wb_lab *lab, const wb_args *a, const wb_reduce_kernel *k)
{
    unsigned types = k->types ? k->types : WB_TYPE_BIT(WB_INT);
    int bi, ti;
    for (bi = 0; bi < a->block_count || bi == 0; ++bi) { /* each block of a --check list */
        unsigned block = (unsigned)(a->block_count ? a->bx_list[bi] : a->block_x);
        if (block < k->min_block || block > k->max_block) {
            fprintf(stderr,
                    "%s: -b %u: %s runs at -b %u to %u only; change -b or -k\n",
                    lab->lab, block, k->info.name, k->min_block, k->max_block);
            exit(WB_EXIT_USAGE);
        }
    }
    for (ti = 0; ti < a->type_count || ti == 0; ++ti) { /* each type of a --check list */
        wb_type t = a->type_count ? a->type_list[ti] : a->type;
        if (!(types & WB_TYPE_BIT(t))) {
            char names[64];
            wb_type_names(types, names, sizeof names);
            fprintf(stderr, "%s: --type %s: %s runs in %s only; change --type or -k\n", lab->lab,
                    wb_type_name(t), k->info.name, names);
            exit(WB_EXIT_USAGE);
        }
    }
}

void wb_reduce_check_rows(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows)
{
    int i;
    /* the rows this run runs (wb_plan_rows): an exercise only with --exercises */
    for (i = 0; i < nrows; ++i)
        check_row(lab, a, (const wb_reduce_kernel *)order[i]); /* info is its first member */
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

/* CUB's reduce policies (cub/device/dispatch/tuning/tuning_reduce.cuh, CUDA
 * 13) use blocks of at least 256 threads and at most 20 items per thread per
 * tile: whatever grid G it picks, a thread adds at most n/(256 G) + 20
 * elements in its tiles, the block adds its sums in a warp tree (5) and
 * across its warps (at most 1024/32 = 32), and one block adds the G
 * partials the same way. The largest sum over G is at G = 1:
 * k <= n/256 + 2*20 + 2*(5 + 32) + 1 (see row_order). */
#define CUB_MIN_THREADS 256
#define CUB_MAX_ITEMS 20

/* The order of additions of c's kernel, as (leaf, depth) for the bound:
 * each element goes through a thread's sequence (its elements, in 16-byte
 * vectors added in pairs), the block's tree, then the finish: the host's
 * loop over the partial sums, the device passes, or a one-pass kernel's own
 * (the partial sums in sequence, by atomics or by a thread, then a tree).
 * gpuRecursiveReduce is one tree over the whole input, lab01's interleaved
 * levels: at a level element i adds element i + ceil(n/2), and an odd
 * length's middle element waits for the next level, so every element goes
 * through at most one addition per level, ceil(log2 n) in all; CUB as
 * above. */
static void row_order(const run_ctx *c, long long *leaf, int *depth)
{
    const wb_reduce_kernel *k = c->k;
    int tree = wb_ceil_log2(c->block), p;
    if (k->pairwise) {
        *leaf = 1;
        *depth = wb_ceil_log2(c->b->n);
        return;
    }
    if (c->grid == 0) { /* a library that picks its own grid: CUB */
        *leaf = (long long)c->b->n / CUB_MIN_THREADS + 1 + 2 * CUB_MAX_ITEMS;
        *depth = 2 * (5 + 1024 / 32) + 1;
        return;
    }
    *leaf = wb_ceil_div(c->b->n, (long long)c->grid * c->block);
    if (*leaf < (long long)k->per_thread)
        *leaf = k->per_thread;
    *leaf += 2;
    *depth = tree;
    if (k->one_pass)
        *depth += (int)c->grid + tree;
    else if (!c->device)
        *depth += (int)c->grid - 1;
    else
        for (p = 1; p < c->plan.passes; ++p)
            *depth += (int)k->per_thread + 1 + tree;
}

/* Does c's result (the last whole reduction) agree with w? Fills pass,
 * check and, for a bound check, error and bound. `when` is "" or " in a
 * timed repetition". */
static void judge(const run_ctx *c, const wb_want *w, long long expected, const char *when, wb_row *row)
{
    if (w->type == WB_INT) /* the result column: what the run computed, for a checker outside it */
        wb_row_result_int(row, c->result);
    else
        wb_row_result_real(row, c->fresult);
    if (w->type == WB_INT) {
        row->pass = c->result == expected;
        snprintf(row->check, sizeof row->check, "%s %lld%s, expected %lld",
                 c->k->op == WB_OP_MAX ? "max" : "sum", c->result, when, expected);
    } else if (!w->bounded) {
        row->pass = wb_exact_error(&w->exact, c->fresult) == 0;
        snprintf(row->check, sizeof row->check, "sum %.17g%s, expected %.17g", c->fresult, when,
                 wb_exact_value(&w->exact));
    } else {
        long long leaf;
        int depth;
        row_order(c, &leaf, &depth);
        wb_judge_bound(row, c->b->type, leaf, depth, w->exact.abs_sum, wb_exact_error(&w->exact, c->fresult),
                       w->forced ? "n > 2^24, no exact float input: " : "", when);
    }
}


/* The input of a run at length n, into host[0..n) (elements of the type;
 * the rest of host stays 0), and what to check against. */
static void make_input(void *host, unsigned n, wb_type type, wb_values values, unsigned long long seed,
                       wb_want *w)
{
    memset(w, 0, sizeof *w);
    w->type = type;
    if (type == WB_INT) {
        wb_fill_ints((int *)host, n, seed);
        w->sum = wb_sum_ints((const int *)host, n);
        w->ints = (const int *)host;
        return;
    }
    /* float above 2^24: no integer input keeps every float sum exact */
    w->forced = values == WB_VALUES_EXACT && wb_exact_value_max(type, n) == 0;
    if (w->forced)
        values = WB_VALUES_UNIFORM;
    w->bounded = values == WB_VALUES_UNIFORM;
    w->exact = wb_fill_real(type, host, n, values, seed);
}

/* WB_TEST_DROP=1 (the tests): after the reference is taken, the last nonzero
 * input element becomes 0 on its way to the device, as if every kernel had
 * skipped it. The check must then fail, in every type. */
static void drop_one_for_test(void *host, unsigned n, size_t esz)
{
    const char *e = getenv("WB_TEST_DROP");
    static const unsigned char zero[8] = {0};
    unsigned i;
    if (!e || strcmp(e, "1"))
        return;
    for (i = n; i-- > 0;)
        if (memcmp((char *)host + (size_t)i * esz, zero, esz)) {
            memset((char *)host + (size_t)i * esz, 0, esz);
            return;
        }
}

/* Size b for rows order[0..nrows) at length n under each block of
 * blocks[0..nblocks) and each finish of finishes[0..nfinish). */
static void bufs_size(reduce_bufs *b, const wb_gpu *g, const wb_kernel_info *const *order, int nrows,
                      unsigned n, wb_type type, const int *blocks, int nblocks, const int *finishes,
                      int nfinish)
{
    int i, j, f;
    memset(b, 0, sizeof *b);
    b->type = type;
    b->esz = wb_type_size(type);
    b->n = n;
    b->max_grid = 1;
    b->padded = ((size_t)n + 3) / 4 * 4;
    b->partials = 1;
    for (i = 0; i < nrows; ++i)
        for (j = 0; j < nblocks; ++j)
            for (f = 0; f < nfinish; ++f) {
                const wb_reduce_kernel *k = (const wb_reduce_kernel *)order[i];
                unsigned block = (unsigned)blocks[j], grid = wb_reduce_grid(k, n, block, g, type);
                size_t covered = wb_reduce_reach(k, n, grid, block);
                finish_plan fp;
                wb_plan_finish(&fp, k, n, block, g, finishes[f], type);
                if (grid > b->max_grid)
                    b->max_grid = grid;
                if (covered > b->padded)
                    b->padded = covered;
                if (fp.total > b->partials)
                    b->partials = fp.total;
            }
}

/* Make the input (seeded; the tail up to `padded` stays 0, the identity),
 * its reference, and the device buffers. */
static void bufs_open(reduce_bufs *b, const wb_lab *lab, wb_values values, unsigned long long seed)
{
    size_t bytes = b->padded * b->esz;
    b->host = calloc(b->padded, b->esz);
    b->host_partial = malloc(b->max_grid * b->esz);
    if (!b->host || !b->host_partial) {
        fprintf(stderr, "%s: not enough host memory for n = %u\n", lab->lab, b->n);
        exit(WB_EXIT_USAGE);
    }
    make_input(b->host, b->n, b->type, values, seed, &b->want);
    drop_one_for_test(b->host, b->n, b->esz);
    b->orig = (char *)wb_device_alloc(bytes, "the input", lab->lab);
    b->data = (char *)wb_device_alloc(bytes, "the working copy of the input", lab->lab);
    b->partial = (char *)wb_device_alloc(b->partials * b->esz, "the partial sums", lab->lab);
    CHECK(cudaMemcpy(b->orig, b->host, bytes, cudaMemcpyHostToDevice));
}

static void bufs_close(reduce_bufs *b)
{
    CHECK(cudaFree(b->orig));
    CHECK(cudaFree(b->data));
    CHECK(cudaFree(b->partial));
    free(b->host);
    free(b->host_partial);
}

/* The row runner's steps for one kernel of the harness. */
typedef struct {
    run_ctx c;
    const wb_want *want;
    long long expected;
} row_ctx;

/* Before every run: the input restored (in-place kernels) and the partial
 * sums poisoned; before the verified run (fresh) the input copied whole,
 * as every kernel's first run needs. */
static void row_reset(void *p, int fresh)
{
    run_ctx *c = &((row_ctx *)p)->c;
    if (!fresh) {
        wb_pass_restore(c);
        return;
    }
    wb_restore_input(c);
    wb_poison_partials(c);
}

/* The verified run: the whole reduction, looking at every pass's partial
 * sums; the timed first pass alone; the whole reduction. */
static void row_run(void *p, wb_run_what what)
{
    run_ctx *c = &((row_ctx *)p)->c;
    if (what == WB_RUN_PASS) {
        wb_pass_first(c);
        return;
    }
    c->checking = what == WB_RUN_CHECKED;
    wb_pass_whole(c);
    c->checking = 0;
}

/* The verified run's verdict (when NULL): its result, a partial sum left
 * poisoned, a device finish that never got to one value (a grid of 0
 * blocks, or one no smaller than its input: a grid of the student's own),
 * the guard after the partial sums. The last run's (timed, or --check's
 * second): how many whole reductions ran and how many different results
 * they gave, whatever the verdict; then its result must agree too, the
 * words the verified run's. */
static void row_judge(void *p, wb_row *row, const char *when)
{
    row_ctx *x = (row_ctx *)p;
    run_ctx *c = &x->c;
    const finish_plan *f = &c->plan;
    int last = f->passes - 1, stuck;
    if (when) {
        char in_when[48];
        row->runs = c->runs;
        row->distinct = c->nseen;
        if (!row->pass)
            return;
        snprintf(in_when, sizeof in_when, " in a %s", when);
        judge(c, x->want, x->expected, in_when, row);
        row->pass = row->pass && c->unwritten < 0;
        if (row->pass) /* keep the verified run's words */
            judge(c, x->want, x->expected, "", row);
        return;
    }
    stuck = c->device && !c->k->one_pass && f->grid[last] != 1;
    judge(c, x->want, x->expected, "", row);
    row->pass = row->pass && c->unwritten < 0 && !stuck;
    if (stuck)
        snprintf(row->check, sizeof row->check, "launch %d of %d: a grid of %u blocks for %u ints never gets to one",
                 last + 1, f->passes, f->grid[last], f->n[last]);
    else if (c->unwritten >= 0 && c->device)
        snprintf(row->check, sizeof row->check, "launch %d of %d: block %d never wrote its result (still poisoned)",
                 c->unwritten_pass + 1, f->passes, c->unwritten);
    else if (c->unwritten >= 0)
        snprintf(row->check, sizeof row->check, "block %d never wrote its result (output still poisoned)",
                 c->unwritten);
    else if (row->pass && !wb_guard_intact(wb_last_level_end(c), 0, WB_POISON_BYTE)) {
        row->pass = 0;
        snprintf(row->check, sizeof row->check, "wrote past its last partial sum (the guard after them changed)");
    }
}

static const wb_row_ops reduce_ops = {row_reset, row_run, row_judge, 1};

/* Kernel k on b's input with `block` threads and the finish `device`:
 * verified, and as the mode says timed into r, counted, or left in *row. */
static void run_one(wb_gpu *g, wb_report *r, const wb_lab *lab, const wb_args *a, reduce_bufs *b,
                    const wb_reduce_kernel *k, unsigned block, int device, wb_row_mode mode, wb_row *row)
{
    row_ctx x;
    run_ctx *c = &x.c;
    memset(&x, 0, sizeof x);
    x.want = &b->want;
    c->k = k;
    c->b = b;
    c->block = block;
    c->grid = wb_reduce_grid(k, b->n, block, g, b->type);
    c->device = device;
    wb_plan_finish(&c->plan, k, b->n, block, g, device, b->type);
    if (b->type == WB_INT)
        x.expected = expected_for(k, b->want.ints, b->n, b->want.sum);

    wb_row_init(row, &k->info, b->n, (double)b->n * b->esz);
    row->grid_x = c->grid;
    row->grid_y = 1;
    row->block_x = block;
    row->block_y = 1;
    row->finish = device ? "device" : "host";
    if (device && !k->one_pass) { /* the grid of each launch, for the note under the table */
        int p;
        for (p = 0; p < c->plan.passes; ++p)
            snprintf(row->finish_grids + strlen(row->finish_grids),
                     sizeof row->finish_grids - strlen(row->finish_grids), "%s%u", p ? ", " : "",
                     c->plan.grid[p]);
    }
    wb_run_row(g, r, lab, a->reps, mode, &reduce_ops, &x, row);
}

/* The runner's steps (program.h): one input per type, seed and length,
 * sized for every kernel, block and finish that will run on it */
static void open_input(wb_run *run, const wb_input_cfg *cfg)
{
    const wb_gpu *g = (const wb_gpu *)run->dev;
    reduce_bufs *b = (reduce_bufs *)malloc(sizeof *b);
    if (!b) {
        fprintf(stderr, "%s: out of host memory\n", run->lab->lab);
        exit(WB_EXIT_USAGE);
    }
    bufs_size(b, g, run->order, run->nrows, (unsigned)cfg->n, cfg->type, cfg->bx, cfg->nblocks, cfg->choice,
              cfg->nchoice);
    bufs_open(b, run->lab, cfg->values, cfg->seed);
    if (cfg->timed)
        wb_measure_ceiling((wb_gpu *)run->dev, run->r, b->data, b->orig, (size_t)b->n * b->esz, run->a->reps);
    run->input = b;
}

static void run_row(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                    wb_row *row)
{
    (void)by; /* finish: the choice of --finish (wb_finish_choice), 1 device */
    run_one((wb_gpu *)run->dev, run->r, run->lab, run->a, (reduce_bufs *)run->input, (const wb_reduce_kernel *)k,
            (unsigned)bx, finish, mode, row);
}

static void close_input(wb_run *run)
{
    bufs_close((reduce_bufs *)run->input);
    free(run->input);
    run->input = NULL;
}

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
}

void wb_reduce_notes(wb_run *run)
{
    wb_report *r = run->r;
    if (!run->a->choice)
        return;
    r->total_what = "the whole reduction to one number: the kernel relaunched on its own partial sums "
                    "until one value remains, then that int copied to the host (host clock)";
    print_finish_notes(r, wb_report_notes(r));
}

int wb_reduce_main(const wb_program *p, int argc, char **argv)
{
    wb_run run;
    int status = wb_main_rows(p, argc, argv, &run);
    if (status >= 0)
        return status;
    wb_reduce_notes(&run);
    return wb_main_end(&run);
}

const wb_runner wb_reduce_runner = {
    open_input, run_row, close_input,
    "the kernel's first pass alone (CUDA events), one partial sum per block",
    "the whole reduction to one number: first pass + copy of the partial sums + their sum on the host, as the "
    "book does it (host clock)",
};
