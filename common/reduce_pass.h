/*
 * reduce_pass.h - one reduction's launches, inside the reduction runner: the
 * plan of its passes (the host or the device finish), its buffers padded and
 * poisoned as a kernel expects them, the runs, and the result they leave.
 * Declared only when the including file is compiled by nvcc.
 */
#ifndef WB_REDUCE_PASS_H
#define WB_REDUCE_PASS_H

#ifdef __CUDACC__
#include <stddef.h>

#include "gpu.h"
#include "numbers.h"
#include "reduce.h"
#include "types.h"

/* The partial sums are poisoned with WB_POISON_BYTE (gpu.h): partial sums
 * of non-negative inputs are never negative, and 0xABABABAB is; as a float
 * or a double it is no multiple of the uniform input's step (2^-24, 2^-52)
 * either, so no sum of any input of any type is ever the poison.
 * After the n elements, for a kernel that checks n itself: 0x55 bytes
 * (0x55555555 as an int, about 1.5e13 as a float, 1e103 as a double), so
 * that one element read past n changes the sum (and the maximum). */
#define WB_TAIL_POISON_BYTE 0x55

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

/* One kernel's runs on one input, at one block and one finish. */
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

/* The ints a pass of kernel k over n ints reads: whole blocks of
 * block * per_thread (a grid of its own may reach further), and n rounded up
 * to a multiple of 4 (16-byte loads; and each level of partial sums below
 * starts 16-byte aligned). */
size_t wb_reduce_reach(const wb_reduce_kernel *k, unsigned n, unsigned grid, unsigned block);

/* The plan of kernel k's launches over n elements at `block` (device: the
 * device finish) into *f. */
void wb_plan_finish(finish_plan *f, const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                    int device, wb_type type);

/* The input as kernel k reads it: the pristine n ints, and after them zeros
 * (the identity) or, for a kernel that checks n itself, poison. */
void wb_restore_input(run_ctx *c);

/* The end of the last level of partial sums: where its guard starts. */
char *wb_last_level_end(const run_ctx *c);

/* Every pass's partial sums poisoned, and after them the padding that the
 * next pass reads (as restore_input pads the input), and the guard after
 * the last. */
void wb_poison_partials(run_ctx *c);

/* A run_ctx's steps (reduce.cu's row_reset and row_run call them): before
 * every run, the input restored (in-place kernels) and the partial sums
 * poisoned; the first pass alone; the whole reduction to one number, with
 * the host or the device finish, its result taken into the run_ctx. */
void wb_pass_restore(void *p);
void wb_pass_first(void *p);
void wb_pass_whole(void *p);

#endif /* __CUDACC__ */

#endif /* WB_REDUCE_PASS_H */
