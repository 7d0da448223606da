/*
 * reduce_pass.cu - one reduction's launches: the grid and the plan of its
 * passes, the input restored and the partial sums poisoned before a run,
 * the first pass, the whole reduction with the host or the device finish,
 * and the result it leaves (its bits remembered from run to run).
 */
#include "reduce_pass.h"

#include <string.h>

#include "base.h"

unsigned wb_reduce_grid(const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                        wb_type type)
{
    if (k->grid_for)
        return k->grid_for(n, block, g, type);
    return (unsigned)wb_ceil_div(n, (long long)block * k->per_thread);
}

size_t wb_reduce_reach(const wb_reduce_kernel *k, unsigned n, unsigned grid, unsigned block)
{
    size_t tile = (size_t)block * k->per_thread;
    size_t covered = (size_t)wb_ceil_div(n, (long long)tile) * tile, rounded = ((size_t)n + 3) / 4 * 4;
    if ((size_t)grid * tile > covered && !k->grid_for)
        covered = (size_t)grid * tile;
    return covered > rounded ? covered : rounded;
}

void wb_plan_finish(finish_plan *f, const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
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
        f->len[p] = last ? (grid > 0 ? grid : 1) : wb_reduce_reach(k, grid, wb_reduce_grid(k, grid, block, g, type), block);
        f->total += (f->len[p] + 3) / 4 * 4;
        f->passes = p + 1;
        if (last)
            break;
        n = grid;
    }
    f->total += WB_GUARD_BYTES / sizeof(int); /* the last level's guard (at least its bytes) */
}

void wb_restore_input(run_ctx *c)
{
    const reduce_bufs *b = c->b;
    CHECK(cudaMemcpyAsync(b->data, b->orig, b->padded * b->esz, cudaMemcpyDeviceToDevice, 0));
    if (c->k->guards_n && b->padded > b->n)
        CHECK(cudaMemsetAsync(b->data + b->n * b->esz, WB_TAIL_POISON_BYTE, (b->padded - b->n) * b->esz, 0));
}

char *wb_last_level_end(const run_ctx *c)
{
    const finish_plan *f = &c->plan;
    return c->b->partial + (f->off[f->passes - 1] + f->len[f->passes - 1]) * c->b->esz;
}

void wb_poison_partials(run_ctx *c)
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
    wb_poison(wb_last_level_end(c), WB_GUARD_BYTES, WB_POISON_BYTE);
}

void wb_pass_restore(void *p)
{
    run_ctx *c = (run_ctx *)p;
    if (c->k->in_place)
        wb_restore_input(c);
    wb_poison_partials(c);
}

void wb_pass_first(void *p)
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

/* The result: v into c (an exact type's into result, the others' into
 * fresult), its bits remembered. */
template <typename T> static void take_value(run_ctx *c, T v)
{
    if constexpr (wb_traits<T>::exact)
        c->result = v;
    else
        c->fresult = v;
    remember(c, &v);
}

/* The result: one value of the run's type at `value`, into c. */
static void take_result(run_ctx *c, const void *value)
{
    wb_with_type(c->b->type, [&](auto z) { take_value(c, *(const decltype(z) *)value); });
}

/* parts partial sums hp[] added on the host (for a max kernel: their
 * maximum) in T's host sum, as a program in T would; an exact type's sum
 * is the same in any order, so it counts as one result seen. */
template <typename T> static void add_partials(run_ctx *c, const T *hp, unsigned parts)
{
    typedef typename wb_traits<T>::host_sum S;
    S s = c->k->op == WB_OP_MAX ? (S)-(1LL << 62) : (S)0; /* below any int */
    unsigned i;
    for (i = 0; i < parts; ++i) {
        if (c->k->op == WB_OP_MAX)
            s = hp[i] > s ? hp[i] : s;
        else
            s += hp[i];
    }
    if constexpr (wb_traits<T>::exact) {
        c->result = s;
        ++c->runs;
        c->nseen = 1;
    } else {
        take_value(c, s);
    }
}

/* The whole reduction to one number, finished on the host: the first pass,
 * then (as the book does) the partial sums copied back and added on the
 * host. Notes a partial sum left poisoned. */
static void finish_on_host(run_ctx *c)
{
    const reduce_bufs *b = c->b;
    unsigned parts = c->k->one_pass ? 1 : c->grid;
    wb_pass_first(c);
    CHECK(cudaMemcpy(b->host_partial, b->partial, parts * b->esz, cudaMemcpyDeviceToHost));
    c->unwritten = first_poisoned(b->host_partial, parts, b->esz);
    c->unwritten_pass = 0;
    wb_with_type(b->type, [&](auto z) { add_partials(c, (const decltype(z) *)b->host_partial, parts); });
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

void wb_pass_whole(void *p)
{
    run_ctx *c = (run_ctx *)p;
    if (c->device)
        finish_on_device(c);
    else
        finish_on_host(c);
}
