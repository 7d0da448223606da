/*
 * reduce.cu - the harness that labs 02-05 share: input, padding, poisoning,
 * exact verification, the two timings, and the usual main. A lab supplies
 * only its kernels and their table. Contracts in workbook.h.
 */
#include "workbook.h"

#include <stdlib.h>
#include <string.h>

/* The partial sums are poisoned with WB_POISON_BYTE (gpu.h): partial sums
 * of non-negative inputs are never negative, and 0xABABABAB is; as a float
 * or a double it is no multiple of the uniform input's step (2^-24, 2^-52)
 * either, so no sum of any input of any type is ever the poison.
 * After the n elements, for a kernel that checks n itself: 0x55 bytes
 * (0x55555555 as an int, about 1.5e13 as a float, 1e103 as a double), so
 * that one element read past n changes the sum (and the maximum). */
#define WB_TAIL_POISON_BYTE 0x55

unsigned wb_reduce_grid(const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                        wb_type type)
{
    if (k->grid_for)
        return k->grid_for(n, block, g, type);
    return (unsigned)wb_ceil_div(n, (long long)block * k->per_thread);
}

void wb_reduce_check_blocks(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows)
{
    int i, bi;
    (void)order;
    (void)nrows;
    for (i = 0; i < lab->kernels.count + lab->exercises.count; ++i) {
        int kernel = i < lab->kernels.count;
        const wb_reduce_kernel *k = (const wb_reduce_kernel *)(kernel ? wb_table_at(lab->kernels, i)
                                                                       : wb_table_at(lab->exercises, i - lab->kernels.count));
        if (kernel ? !a->selected[i] : !a->ex_selected[i - lab->kernels.count])
            continue;
        for (bi = 0; bi < a->block_count || bi == 0; ++bi) { /* each block of a --check list */
            unsigned block = (unsigned)(a->block_count ? a->bx_list[bi] : a->block_x);
            if (block < k->min_block || block > k->max_block) {
                fprintf(stderr,
                        "%s: -b %u: %s runs at -b %u to %u only; change -b or -k\n",
                        lab->lab, block, k->info.name, k->min_block, k->max_block);
                exit(WB_EXIT_USAGE);
            }
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
 * After the last level, a guard (WB_GUARD_BYTES, poisoned): a kernel that
 * writes past its last partial sum changes it.
 * One buffer per level rather than two in turn: in-place kernels overwrite
 * their input, padding included, so a reused buffer would need its padding
 * restored inside the timing; this way every level is poisoned and padded
 * once, outside it, and the timed reduction is the launches alone.
 */
typedef struct {
    int passes;
    unsigned n[WB_MAX_PASSES], grid[WB_MAX_PASSES];
    size_t off[WB_MAX_PASSES], len[WB_MAX_PASSES];
    size_t total; /* elements of the partial-sum buffer that the passes use */
} finish_plan;

static void plan_finish(finish_plan *f, const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                        int device, wb_type type)
{
    int p;
    memset(f, 0, sizeof *f);
    for (p = 0; p < WB_MAX_PASSES; ++p) {
        unsigned grid = wb_reduce_grid(k, n, block, g, type);
        /* the last pass: one value left, or a grid that cannot get there
         * (0 blocks, or no fewer blocks than inputs: the check says so) */
        int last = !device || k->one_pass || grid <= 1 || grid >= n || p + 1 == WB_MAX_PASSES;
        f->n[p] = n;
        f->grid[p] = grid;
        f->off[p] = f->total;
        /* a kernel that sizes its own grid (CUB: grid 0 here) still writes one number */
        f->len[p] = last ? (grid > 0 ? grid : 1) : reach(k, grid, wb_reduce_grid(k, grid, block, g, type), block);
        f->total += (f->len[p] + 3) / 4 * 4;
        f->passes = p + 1;
        if (last)
            break;
        n = grid;
    }
    f->total += WB_GUARD_BYTES / sizeof(int); /* the last level's guard (at least its bytes) */
}

/* Distinct results remembered per row (the run-to-run check of float sums). */
#define WB_MAX_SEEN 64

/* What a run's rows are checked against. */
typedef struct {
    wb_type type;
    int bounded;    /* float, double against the rounding bound (uniform input) */
    int forced;     /* bounded because no exact float input exists (n > 2^24) */
    long long sum;  /* int: the exact sum */
    const int *ints; /* int: the input, for a max kernel's answer */
    wb_exact exact; /* float, double: the exact sum, and sum |x| */
} wb_want;

/* The buffers of runs at one length in one type: the input on the host and
 * on the device (pristine, and a working copy for in-place kernels), the
 * partial sums, and what to check against. Sized for every kernel, block
 * and finish that will run on them, so one input serves them all. */
typedef struct {
    wb_type type;
    size_t esz;
    unsigned n, max_grid; /* max_grid: the elements host_partial holds */
    size_t padded, partials;
    char *data, *orig, *partial;
    void *host, *host_partial;
    wb_want want;
} reduce_bufs;

typedef struct {
    const wb_reduce_kernel *k;
    const reduce_bufs *b; /* the input and partial sums it runs on */
    unsigned grid, block;
    int device;   /* the device finish (--finish device) */
    int checking; /* verify: look at every pass's partial sums */
    finish_plan plan;
    long long result;   /* int: the sum (or maximum) */
    double fresult;     /* float, double: the sum */
    unsigned long long seen[WB_MAX_SEEN]; /* the bits of each different result */
    int nseen, runs;    /* different results, and runs, since the last forget */
    int unwritten;      /* a partial sum still poisoned after the run (-1: none) */
    int unwritten_pass; /* ... left by this pass (0: the first) */
} run_ctx;

/* The input as kernel k reads it: the pristine n ints, and after them zeros
 * (the identity) or, for a kernel that checks n itself, poison. */
static void restore_input(run_ctx *c)
{
    const reduce_bufs *b = c->b;
    CHECK(cudaMemcpyAsync(b->data, b->orig, b->padded * b->esz, cudaMemcpyDeviceToDevice, 0));
    if (c->k->guards_n && b->padded > b->n)
        CHECK(cudaMemsetAsync(b->data + b->n * b->esz, WB_TAIL_POISON_BYTE, (b->padded - b->n) * b->esz, 0));
}

/* The end of the last level of partial sums: where its guard starts. */
static char *last_level_end(const run_ctx *c)
{
    const finish_plan *f = &c->plan;
    return c->b->partial + (f->off[f->passes - 1] + f->len[f->passes - 1]) * c->b->esz;
}

/* Every pass's partial sums poisoned, and after them the padding that the
 * next pass reads (as restore_input pads the input), and the guard after
 * the last. */
static void poison_partials(run_ctx *c)
{
    const reduce_bufs *b = c->b;
    const finish_plan *f = &c->plan;
    int p;
    for (p = 0; p < f->passes; ++p) {
        size_t outputs = f->grid[p] > 0 ? f->grid[p] : 1;
        char *level = b->partial + f->off[p] * b->esz;
        CHECK(cudaMemsetAsync(level, WB_POISON_BYTE, outputs * b->esz, 0));
        if (f->len[p] > outputs) /* zero bytes are 0 in every type */
            CHECK(cudaMemsetAsync(level + outputs * b->esz, c->k->guards_n ? WB_TAIL_POISON_BYTE : 0,
                                  (f->len[p] - outputs) * b->esz, 0));
    }
    wb_poison(last_level_end(c), WB_GUARD_BYTES, WB_POISON_BYTE);
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
    c->k->launch(c->b->data, c->b->partial, c->b->n, c->grid, c->block, c->b->type);
    CHECK_LAUNCH("the kernel under test");
}

/* The first partial sum of parts[0..count) (elements of esz bytes) still
 * poisoned, or -1. */
static int first_poisoned(const void *parts, unsigned count, size_t esz)
{
    return wb_first_poisoned(parts, count, esz, WB_POISON_BYTE);
}

/* Note the bits of a result among the different ones seen (the float sums of
 * a kernel whose order of additions changes from run to run differ). */
static void remember(run_ctx *c, const void *value)
{
    unsigned long long bits = 0;
    int i;
    memcpy(&bits, value, c->b->esz);
    ++c->runs;
    for (i = 0; i < c->nseen; ++i)
        if (c->seen[i] == bits)
            return;
    if (c->nseen < WB_MAX_SEEN)
        c->seen[c->nseen++] = bits;
}

/* The result: one value of the run's type at `value`, into c. */
static void take_result(run_ctx *c, const void *value)
{
    if (c->b->type == WB_INT)
        c->result = *(const int *)value;
    else
        c->fresult = wb_with_type(c->b->type, [&](auto z) -> double {
            return *(const decltype(z) *)value;
        });
    remember(c, value);
}

/* The whole reduction to one number, finished on the host: the first pass,
 * then (as the book does) the partial sums copied back and added on the
 * host (for a max kernel: their maximum). Notes a partial sum left poisoned. */
static void finish_on_host(run_ctx *c)
{
    const reduce_bufs *b = c->b;
    unsigned parts = c->k->one_pass ? 1 : c->grid, i;
    first_pass(c);
    CHECK(cudaMemcpy(b->host_partial, b->partial, parts * b->esz, cudaMemcpyDeviceToHost));
    c->unwritten = first_poisoned(b->host_partial, parts, b->esz);
    c->unwritten_pass = 0;
    if (b->type == WB_INT) {
        const int *hp = (const int *)b->host_partial;
        long long s = c->k->op == WB_OP_MAX ? -(1LL << 62) : 0; /* below any int */
        for (i = 0; i < parts; ++i) {
            if (c->k->op == WB_OP_MAX)
                s = hp[i] > s ? hp[i] : s;
            else
                s += hp[i];
        }
        c->result = s;
        ++c->runs; /* an int sum is the same in any order */
        c->nseen = 1;
        return;
    }
    wb_with_type(b->type, [&](auto z) { /* float, double: the loop in the type, as a program's */
        using T = decltype(z);
        const T *hp = (const T *)b->host_partial;
        T s = 0;
        for (i = 0; i < parts; ++i)
            s += hp[i];
        take_result(c, &s);
    });
}

/* The whole reduction to one number, finished on the device (PMPP): the
 * same kernel relaunched on its own partial sums until one value remains;
 * only that int comes back. Verifying (c->checking), each pass's partial
 * sums are also copied back and looked at, outside any timing. */
static void finish_on_device(run_ctx *c)
{
    const reduce_bufs *b = c->b;
    const finish_plan *f = &c->plan;
    int p, last = f->passes - 1;
    unsigned char value[8];
    c->unwritten = -1;
    for (p = 0; p < f->passes; ++p) {
        char *in = p == 0 ? b->data : b->partial + f->off[p - 1] * b->esz;
        c->k->launch(in, b->partial + f->off[p] * b->esz, f->n[p], f->grid[p], c->block, b->type);
        CHECK_LAUNCH("the kernel under test, relaunched on its partial sums");
        if (c->checking && c->unwritten < 0 && f->grid[p] > 0) {
            /* a one-pass kernel writes partial[0] only (the rest is its own
             * scratch, or untouched) */
            unsigned outs = c->k->one_pass ? 1 : f->grid[p];
            unsigned parts = outs < b->max_grid ? outs : b->max_grid; /* host_partial's room */
            CHECK(cudaMemcpy(b->host_partial, b->partial + f->off[p] * b->esz, parts * b->esz,
                             cudaMemcpyDeviceToHost));
            c->unwritten = first_poisoned(b->host_partial, parts, b->esz);
            c->unwritten_pass = p;
        }
    }
    CHECK(cudaMemcpy(value, b->partial + f->off[last] * b->esz, b->esz, cudaMemcpyDeviceToHost));
    if (c->unwritten < 0 && first_poisoned(value, 1, b->esz) == 0) { /* a last pass that never ran */
        c->unwritten = 0;
        c->unwritten_pass = last;
    }
    take_result(c, value);
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
                size_t covered = reach(k, n, grid, block);
                finish_plan fp;
                plan_finish(&fp, k, n, block, g, finishes[f], type);
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

/* Before the verified run: the input copied whole (every kernel's first
 * run), the partial sums poisoned. */
static void fresh(void *p)
{
    run_ctx *c = &((row_ctx *)p)->c;
    restore_input(c);
    poison_partials(c);
}

/* The verified run: the whole reduction, looking at every pass's partial sums. */
static void checked(void *p)
{
    run_ctx *c = &((row_ctx *)p)->c;
    c->checking = 1;
    whole(c);
    c->checking = 0;
}

/* The verified run's verdict (when NULL): its result, a partial sum left
 * poisoned, a device finish that never got to one value (a grid of 0
 * blocks, or one no smaller than its input: a grid of the student's own),
 * the guard after the partial sums. The last run's (timed, or --check's
 * second): its result must agree too, the words the verified run's. */
static void row_judge(void *p, wb_row *row, const char *when)
{
    row_ctx *x = (row_ctx *)p;
    run_ctx *c = &x->c;
    const finish_plan *f = &c->plan;
    int last = f->passes - 1, stuck;
    if (when) {
        char in_when[48];
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
    else if (row->pass && !wb_guard_intact(last_level_end(c), 0, WB_POISON_BYTE)) {
        row->pass = 0;
        snprintf(row->check, sizeof row->check, "wrote past its last partial sum (the guard after them changed)");
    }
}

/* After the last run: how many whole reductions ran, and how many different results they gave. */
static void row_tally(void *p, wb_row *row)
{
    row_ctx *x = (row_ctx *)p;
    row->runs = x->c.runs;
    row->distinct = x->c.nseen;
}

static const wb_row_ops reduce_ops = {first_pass, restore, whole, fresh, checked, row_judge, row_tally};

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
    plan_finish(&c->plan, k, b->n, block, g, device, b->type);
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
    bufs_size(b, g, run->order, run->nrows, (unsigned)cfg->n, cfg->type, cfg->bx, cfg->nblocks, cfg->finish,
              cfg->nfinish);
    bufs_open(b, run->lab, cfg->values, cfg->seed);
    if (cfg->timed)
        wb_measure_ceiling((wb_gpu *)run->dev, run->r, b->data, b->orig, (size_t)b->n * b->esz, run->a->reps);
    run->input = b;
}

static void run_row(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                    wb_row *row)
{
    (void)by;
    run_one((wb_gpu *)run->dev, run->r, run->lab, run->a, (reduce_bufs *)run->input, (const wb_reduce_kernel *)k,
            (unsigned)bx, finish, mode, row);
}

static void close_input(wb_run *run)
{
    bufs_close((reduce_bufs *)run->input);
    free(run->input);
    run->input = NULL;
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

/* --finish device: the total's words and the launches under the table. */
static void begin(wb_run *run)
{
    wb_report *r = run->r;
    if (!run->a->finish_device)
        return;
    r->total_what = "the whole reduction to one number: the kernel relaunched on its own partial sums "
                    "until one value remains, then that int copied to the host (host clock)";
    lab_notes = r->notes;
    r->notes = print_finish_notes;
}

const wb_runner wb_reduce_runner = {
    open_input, run_row, close_input,
    "the kernel's first pass alone (CUDA events), one partial sum per block",
    "the whole reduction to one number: first pass + copy of the partial sums + their sum on the host, as the "
    "book does it (host clock)",
    begin,
};
