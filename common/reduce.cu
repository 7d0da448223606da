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

unsigned wb_reduce_grid(const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g)
{
    if (k->grid_for)
        return k->grid_for(n, block, g);
    return (unsigned)wb_ceil_div(n, (long long)block * k->per_thread);
}

void wb_reduce_check_blocks(const wb_lab *lab, const wb_reduce_kernel *kernels, const wb_args *a)
{
    int i;
    for (i = 0; i < lab->kernels.count; ++i) {
        const wb_reduce_kernel *k = &kernels[i];
        if (!a->selected[i])
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
} run_ctx;

static void restore(void *p)
{
    run_ctx *c = (run_ctx *)p;
    /* a kernel that sizes its own grid (CUB: grid 0 here) still writes one number */
    unsigned outputs = c->grid > 0 ? c->grid : 1;
    if (c->k->in_place)
        CHECK(cudaMemcpyAsync(c->data, c->orig, c->padded * sizeof(int), cudaMemcpyDeviceToDevice, 0));
    CHECK(cudaMemsetAsync(c->partial, WB_POISON_BYTE, outputs * sizeof(int), 0));
}

static void first_pass(void *p)
{
    run_ctx *c = (run_ctx *)p;
    c->k->launch(c->data, c->partial, c->n, c->grid, c->block);
    CHECK_LAUNCH("the kernel under test");
}

/* The whole reduction to one number: the first pass, then (as the book
 * does) the partial sums copied back and added on the host. */
static void whole(void *p)
{
    run_ctx *c = (run_ctx *)p;
    unsigned parts = c->k->one_pass ? 1 : c->grid, i;
    long long s = 0;
    first_pass(p);
    CHECK(cudaMemcpy(c->host_partial, c->partial, parts * sizeof(int), cudaMemcpyDeviceToHost));
    for (i = 0; i < parts; ++i)
        s += c->host_partial[i];
    c->result = s;
}

void wb_reduce_run(wb_gpu *g, wb_report *r, const wb_lab *lab, const wb_reduce_kernel *kernels,
                   const wb_args *a, long long n_ll, const char *baseline_name)
{
    unsigned n = (unsigned)n_ll, block = (unsigned)a->block_x, max_grid = 1;
    size_t padded = ((size_t)n + 3) / 4 * 4, bytes;
    int *host, *data, *orig, *partial, *host_partial, i;
    long long expected;

    /* size the buffers for every selected kernel: the widest padding and grid */
    for (i = 0; i < lab->kernels.count; ++i) {
        unsigned grid;
        if (!a->selected[i])
            continue;
        grid = wb_reduce_grid(&kernels[i], n, block, g);
        if (grid > max_grid)
            max_grid = grid;
        if (!kernels[i].grid_for && (size_t)grid * block * kernels[i].per_thread > padded)
            padded = (size_t)grid * block * kernels[i].per_thread;
    }
    bytes = padded * sizeof(int);
    host = (int *)calloc(padded, sizeof(int));
    host_partial = (int *)malloc(max_grid * sizeof(int));
    if (!host || !host_partial) {
        fprintf(stderr, "%s: not enough host memory for n = %u\n", lab->lab, n);
        exit(WB_EXIT_USAGE);
    }
    wb_fill_ints(host, n, a->seed); /* the tail up to `padded` stays 0, the identity */
    expected = wb_sum_ints(host, n);

    orig = (int *)wb_device_alloc(bytes, "the input", lab->lab);
    data = (int *)wb_device_alloc(bytes, "the working copy of the input", lab->lab);
    partial = (int *)wb_device_alloc(max_grid * sizeof(int), "the partial sums", lab->lab);
    CHECK(cudaMemcpy(orig, host, bytes, cudaMemcpyHostToDevice));

    wb_measure_ceiling(g, r, data, orig, (size_t)n * sizeof(int), a->reps);
    r->baseline = baseline_name;
    r->reps = a->reps;

    for (i = 0; i < lab->kernels.count; ++i) {
        run_ctx c;
        wb_row row;
        wb_stats total;
        if (!a->selected[i])
            continue;
        memset(&c, 0, sizeof c);
        c.k = &kernels[i];
        c.data = data;
        c.orig = orig;
        c.partial = partial;
        c.host_partial = host_partial;
        c.padded = padded;
        c.n = n;
        c.block = block;
        c.grid = wb_reduce_grid(c.k, n, block, g);

        memset(&row, 0, sizeof row);
        row.kernel = c.k->info.name;
        row.n = n;
        row.grid_x = c.grid;
        row.grid_y = 1;
        row.block_x = block;
        row.block_y = 1;
        row.bytes = (double)n * sizeof(int);

        /* verify first, from a restored input and poisoned partial sums
         * (every kernel, in place or not, starts from the pristine input) */
        CHECK(cudaMemcpy(data, orig, bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaMemsetAsync(partial, WB_POISON_BYTE, max_grid * sizeof(int), 0));
        whole(&c);
        row.pass = c.result == expected;
        snprintf(row.check, sizeof row.check, "sum %lld, expected %lld", c.result, expected);

        row.time = wb_time_events(g, first_pass, restore, &c, a->reps);
        total = wb_time_host(g, whole, restore, &c, a->reps);
        row.total_ms = total.median;
        /* the timed runs must agree with the verified one too */
        if (c.result != expected && row.pass) {
            row.pass = 0;
            snprintf(row.check, sizeof row.check, "sum %lld in a timed repetition, expected %lld",
                     c.result, expected);
        }
        wb_report_add(r, &row);
    }
    CHECK(cudaFree(orig));
    CHECK(cudaFree(data));
    CHECK(cudaFree(partial));
    free(host);
    free(host_partial);
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
    wb_report_print(&r, a.format, stdout);
    if (t && t->cleanup)
        t->cleanup();
    wb_gpu_close(&g);
    return wb_report_status(&r);
}
