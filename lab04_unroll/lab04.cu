/*
 * lab04 - unrolling the reduction: more loads in flight, fewer barriers.
 *
 * Build and run:
 *     make lab04 && ./lab04              the table at n = 2^24, block 512
 *     ./lab04 --explain                  what one block does in each kernel (CPU only)
 *     ./lab04 --latency                  DRAM latency and Little's law on this GPU
 *     ./lab04 -b 128 -n 1000003 --csv    another block and size, machine-readable
 *     ./lab04 --finish device            the total finished on the GPU: each kernel relaunched
 *                                        on its own partial sums until one value remains (PMPP)
 *
 * The kernels, in the order of the table (Cheng et al., Professional CUDA C
 * Programming, ch. 3); the kernels themselves are in reduce_unroll.cuh:
 *   reduceInterleaved           lab03's kernel, the baseline of the speedups
 *   reduceUnrolling2/4/8        each thread first adds 2, 4 or 8 elements
 *   reduceUnrollWarps8          + the last warp unrolled (__syncwarp, no barrier)
 *   reduceCompleteUnrollWarps8  + the whole tree written out
 *   reduceCompleteUnroll<B>     + the block size a template argument
 *
 * Every kernel is checked exactly against the CPU sum on every run; the exit
 * status is the verdict. The chapter is docs/lab04.md.
 */
#include "workbook.h"
#include "../lab03_interleaved/reduce_interleaved.cuh"
#include "reduce_unroll.cuh"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

#include <stdlib.h>
#include <string.h>

/* name, lesson; launch; per_thread; min, max block; in_place; one_pass; grid_for */
static const wb_reduce_kernel kernels[] = {
    {{"reduceInterleaved", "lab03's interleaved tree, one element per thread: the baseline"},
     launch_reduceInterleaved, 1, 32, 1024, 1, 0, NULL},
    {{"reduceUnrolling2", "each thread first adds 2 elements a block apart: half the blocks, 2 loads in flight"},
     launch_reduceUnrolling2, 2, 32, 1024, 1, 0, NULL},
    {{"reduceUnrolling4", "4 elements per thread: 4 independent loads in flight per thread"},
     launch_reduceUnrolling4, 4, 32, 1024, 1, 0, NULL},
    {{"reduceUnrolling8", "8 elements per thread: enough bytes in flight to approach the DRAM ceiling"},
     launch_reduceUnrolling8, 8, 32, 1024, 1, 0, NULL},
    {{"reduceUnrollWarps8", "+ the last warp unrolled: 6 steps with __syncwarp() instead of __syncthreads()"},
     launch_reduceUnrollWarps8, 8, 32, 1024, 1, 0, NULL},
    {{"reduceCompleteUnrollWarps8", "+ the whole in-block tree written out: no loop counter, no loop branch"},
     launch_reduceCompleteUnrollWarps8, 8, 32, 1024, 1, 0, NULL},
    {{"reduceCompleteUnroll", "+ the block size a template argument: unused steps vanish at compile time"},
     launch_reduceCompleteUnroll, 8, 32, 1024, 1, 0, NULL},
};

/* ---------------------------------------------------------------------- */
/* The exercises (exercises.cuh): launchers and their table                */
/* ---------------------------------------------------------------------- */
WB_REDUCE_LAUNCHER(reduceUnrolling16)

/* the student's grid, launched with the shipped reduceUnrolling8 */
static unsigned grid_unrolling8Grid(unsigned n, unsigned block, const wb_gpu *g)
{
    (void)g;
    return grid_reduceUnrolling8Grid(n, block);
}

static void launch_reduceUnrolling8Grid(int *data, int *partial, unsigned n, unsigned grid, unsigned block)
{
    if (grid == 0) /* the book's grid for n < 8 * block: nothing is launched, nothing summed */
        return;
    reduceUnrolling8<<<grid, block>>>(data, partial, n);
    CHECK_LAUNCH("reduceUnrolling8 with the grid of grid_reduceUnrolling8Grid");
}

WB_REDUCE_LAUNCHER(reduceUnrolling4Tail)

/* name, task, kind, against; launch; per_thread; min, max block; in_place; one_pass; grid_for; guards_n */
static const wb_reduce_kernel exercises[] = {
    {{"reduceUnrolling16", "16 elements per thread: are 16 loads in flight faster than 8?", "write",
      "reduceUnrolling8"},
     launch_reduceUnrolling16, 16, 32, 1024, 1, 0, NULL, 0},
    {{"reduceUnrolling8Grid", "the book's grid of n/block/8 blocks for reduceUnrolling8: what is lost?", "fix",
      "reduceUnrolling8"},
     launch_reduceUnrolling8Grid, 8, 32, 1024, 1, 0, grid_unrolling8Grid, 0},
    {{"reduceUnrolling4Tail", "the book's reduceUnrolling4 when nothing past n is zero", "fix",
      "reduceUnrolling4"},
     launch_reduceUnrolling4Tail, 4, 32, 1024, 1, 0, NULL, 1},
};

static const wb_lab lab = WB_RELAUNCHING_LAB(
    "lab04", "unrolling the reduction: more loads in flight, fewer barriers",
    "--latency", "measure the DRAM latency (pointer chase) and the copy ceiling, and apply Little's law", kernels,
    WB_TABLE(exercises), "lab04_unroll/exercises.cuh");

/* ---------------------------------------------------------------------- */
/* --explain: one block of each kernel, counted on the CPU                 */
/* ---------------------------------------------------------------------- */

/* How a kernel's tree is written (same order as kernels[]). */
typedef enum {
    TREE_LOOP,    /* a loop down to stride 1, __syncthreads() after every step */
    TREE_WARP,    /* the loop down to stride 64, then the last warp with __syncwarp() */
    TREE_WRITTEN, /* four written-out steps (512..64), each followed by __syncthreads()
                     whether its test holds or not, then the last warp */
    TREE_TEMPLATE /* as TREE_WRITTEN, but the steps (and barriers) a block size does
                     not need are not compiled */
} tree_shape;

static const tree_shape shapes[] = {TREE_LOOP, TREE_LOOP, TREE_LOOP, TREE_LOOP,
                                    TREE_WARP, TREE_WRITTEN, TREE_TEMPLATE};

typedef struct {
    int barriers;  /* __syncthreads() one block executes, first phase included */
    int warp_steps;/* steps done by one warp with __syncwarp() only */
    char steps[256];
} block_story;

static void append(char *buf, size_t len, const char *text)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s", text);
}

/* Count the barriers and draw the active warps of each step for a block of
 * `block` threads (a power of two, 32..1024) doing `unroll` loads first. */
static block_story tell_block(tree_shape shape, unsigned unroll, unsigned block)
{
    block_story s;
    unsigned warps = block / 32, stride;
    char item[32];
    memset(&s, 0, sizeof s);
    snprintf(item, sizeof item, "[%u]|", warps);
    if (unroll > 1) {
        append(s.steps, sizeof s.steps, item);
        s.barriers = 1;
    } else { /* no first phase: keep the steps in line with the others */
        memset(item, ' ', strlen(item));
        append(s.steps, sizeof s.steps, item);
    }
    if (shape == TREE_WRITTEN) {
        /* the four written-out steps run (or wait) whatever the block size */
        for (stride = 512; stride >= 64; stride /= 2) {
            if (block >= 2 * stride)
                snprintf(item, sizeof item, " %u |", stride / 32);
            else
                snprintf(item, sizeof item, " - |");
            append(s.steps, sizeof s.steps, item);
            ++s.barriers;
        }
    }
    for (stride = block / 2; stride >= 1; stride /= 2) {
        int in_warp = shape != TREE_LOOP && stride <= 32;
        if (shape == TREE_WRITTEN && stride > 32)
            continue; /* drawn above */
        if (in_warp) {
            snprintf(item, sizeof item, stride > 1 ? " 1 :" : " 1");
            ++s.warp_steps;
        } else {
            snprintf(item, sizeof item, " %u |", stride >= 32 ? stride / 32 : 1);
            ++s.barriers;
        }
        append(s.steps, sizeof s.steps, item);
    }
    return s;
}

static void explain(const wb_args *a)
{
    unsigned block = (unsigned)a->block_x, n = (unsigned)a->n;
    int i;
    printf("lab04 --explain: one block of %u threads (%u warp%s) in each kernel, n = %u\n", block,
           block / 32, block > 32 ? "s" : "", n);
    printf("(counted on the CPU; no GPU is used. -b and -n change the block and the length.)\n\n");
    printf("%-28s %8s %8s %9s %6s %10s %12s\n", "", "adds per", "a block", "barriers", "warp",
           "grid", "barriers");
    printf("%-28s %8s %8s %9s %6s %10s %12s\n", "kernel", "thread", "covers", "per block", "steps",
           "at this n", "in the grid");
    for (i = 0; i < lab.kernels.count; ++i) {
        const wb_reduce_kernel *k = &kernels[i];
        block_story s = tell_block(shapes[i], k->per_thread, block);
        unsigned grid = wb_reduce_grid(k, n, block, NULL);
        char adds[16];
        if (k->per_thread > 1)
            snprintf(adds, sizeof adds, "%u", k->per_thread);
        else
            snprintf(adds, sizeof adds, "-");
        printf("%-28s %8s %8u %9d %6d %10u %12llu\n", k->info.name, adds, block * k->per_thread,
               s.barriers, s.warp_steps, grid, (unsigned long long)grid * (unsigned)s.barriers);
    }

    printf("\nActive warps at each step of one block (of %u):\n", block / 32);
    printf("  [w]  the first phase: w warps each load per_thread elements and add them\n");
    printf("  k |  a step in which k warps add, then __syncthreads() (every warp of the block waits)\n");
    printf("  - |  a written-out step this block size skips: nobody adds, but everyone still waits\n");
    printf("  1 :  a step of the last warp, ordered by __syncwarp() alone (no block barrier)\n\n");
    for (i = 0; i < lab.kernels.count; ++i) {
        block_story s = tell_block(shapes[i], kernels[i].per_thread, block);
        char name[48];
        if (shapes[i] == TREE_TEMPLATE)
            snprintf(name, sizeof name, "%s<%u>", kernels[i].info.name, block);
        else
            snprintf(name, sizeof name, "%s", kernels[i].info.name);
        printf("%-28s %s\n", name, s.steps);
    }

    printf("\nWhat to read here:\n");
    printf("  - Unrolling by U divides the grid by U: the same tree, and its barriers, are paid once\n"
           "    per U*%u elements instead of once per %u (the last column).\n", block, block);
    printf("  - In the first phase every warp is busy and each thread has U independent loads in\n"
           "    flight; in the tree at most half the warps work and each step waits for the one\n"
           "    before. The more of a block's life is spent loading, the more bytes are in flight.\n");
    printf("  - From reduceUnrollWarps8 on, the last %d steps run in one warp with __syncwarp(): no\n"
           "    block barrier, but still ordered (the book's volatile-only version is not, since Volta).\n",
           block >= 64 ? 6 : 5);
    printf("  - How many bytes must be in flight to saturate DRAM: ./lab04 --latency measures this\n"
           "    GPU's latency and copy ceiling and applies Little's law.\n");
}

/* ---------------------------------------------------------------------- */
/* --latency: DRAM latency by pointer chase, then Little's law             */
/* ---------------------------------------------------------------------- */

#define CHASE_BYTES (64u << 20) /* the chain's buffer: 64 MiB */
#define CHASE_LINE 32u          /* ints per 128-byte line: one node per line */
#define CHASE_SHORT 1000u       /* hops of the short and the long chase: their */
#define CHASE_LONG 11000u       /* difference cancels the launch overhead */

/* One thread follows `hops` links: each load's address is the previous
 * load's value, so no two loads overlap and each one costs a full trip. */
__global__ void pointerChase(const unsigned *next, unsigned start, unsigned hops, unsigned *end)
{
    unsigned j = start;
    for (unsigned i = 0; i < hops; ++i)
        j = __ldcg(next + j); /* L1 bypassed: every node is a new line anyway */
    *end = j;
}

static unsigned long long mix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Time one chase of `hops` from *start in ms (L2 flushed first); *start
 * becomes where it ended, so the next chase visits lines never touched. */
static double time_chase(wb_gpu *g, const unsigned *next, unsigned *start, unsigned hops,
                         unsigned *d_end)
{
    cudaEvent_t t0, t1;
    float ms = 0;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    wb_flush_l2(g);
    CHECK(cudaEventRecord(t0, 0));
    pointerChase<<<1, 1>>>(next, *start, hops, d_end);
    CHECK_LAUNCH("pointerChase");
    CHECK(cudaEventRecord(t1, 0));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    CHECK(cudaMemcpy(start, d_end, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    return ms;
}

static int latency_mode(const wb_args *a)
{
    static wb_report r;
    wb_gpu g;
    unsigned lines = CHASE_BYTES / (CHASE_LINE * sizeof(unsigned)), i, start;
    unsigned *host = (unsigned *)calloc(CHASE_BYTES / sizeof(unsigned), sizeof(unsigned));
    unsigned *order = (unsigned *)malloc(lines * sizeof(unsigned));
    unsigned *next, *d_end;
    int *src, *dst, reps = a->reps, k, threads_per_sm;
    double ns[40], latency_ns, ceiling, need_bytes, per_sm, per_thread;
    unsigned long long state = a->seed;
    size_t copy_bytes = (size_t)a->n * sizeof(int);
    wb_stats st;

    if (!host || !order) {
        fprintf(stderr, "lab04: not enough host memory for the pointer chase (64 MiB)\n");
        return WB_EXIT_CUDA;
    }
    /* every timed pair visits lines no earlier one touched */
    if (reps > 40)
        reps = 40;
    wb_gpu_open(&g, lab.lab);
    wb_report_init(&r, lab.lab);
    wb_report_device(&r, &g);

    /* one random cycle through every line, so the hardware cannot guess the next address */
    for (i = 0; i < lines; ++i)
        order[i] = i;
    for (i = lines - 1; i > 0; --i) {
        unsigned j = (unsigned)(mix64(&state) % (i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (i = 0; i < lines; ++i)
        host[order[i] * CHASE_LINE] = order[(i + 1) % lines] * CHASE_LINE;

    next = (unsigned *)wb_device_alloc(CHASE_BYTES, "the pointer chase", lab.lab);
    d_end = (unsigned *)wb_device_alloc(sizeof(unsigned), "the pointer chase's end", lab.lab);
    CHECK(cudaMemcpy(next, host, CHASE_BYTES, cudaMemcpyHostToDevice));

    start = order[0] * CHASE_LINE;
    time_chase(&g, next, &start, 1, d_end); /* warm-up: module load */
    for (k = 0; k < reps; ++k) {
        double t_short = time_chase(&g, next, &start, CHASE_SHORT, d_end);
        double t_long = time_chase(&g, next, &start, CHASE_LONG, d_end);
        ns[k] = (t_long - t_short) * 1e6 / (CHASE_LONG - CHASE_SHORT);
    }
    st = wb_summarize(ns, reps);
    latency_ns = st.median;

    /* the ceiling, as the table measures it: a copy of the same n ints */
    src = (int *)wb_device_alloc(copy_bytes, "the copy's source", lab.lab);
    dst = (int *)wb_device_alloc(copy_bytes, "the copy's destination", lab.lab);
    CHECK(cudaMemset(src, 0, copy_bytes));
    ceiling = wb_measure_ceiling(&g, &r, dst, src, copy_bytes, a->reps);

    threads_per_sm = g.prop.maxThreadsPerMultiProcessor;
    need_bytes = ceiling * latency_ns; /* GB/s x ns = bytes */
    per_sm = need_bytes / g.sm_count;
    per_thread = per_sm / threads_per_sm;

    printf("device   %s (%s)\n", r.device, r.device_detail);
    printf("latency  %.0f ns per load that misses L1 and L2 (one thread chasing pointers through %u MiB\n"
           "         in random 128-byte lines, L2 flushed; median of %d, quartiles %.0f..%.0f ns; an idle\n"
           "         memory system: under full load the queues make it longer)\n",
           latency_ns, CHASE_BYTES >> 20, reps, st.q1, st.q3);
    printf("ceiling  %.0f GB/s: %s; theoretical %.0f GB/s\n\n", ceiling, r.ceiling_what, r.peak_gbps);

    printf("Little's law: bytes in flight = bandwidth x latency\n");
    printf("  at the ceiling  %.0f GB/s x %.0f ns = %.2f MB in flight on the whole GPU\n", ceiling,
           latency_ns, need_bytes / 1e6);
    printf("                  = %.1f KiB per SM (%d SMs) = %.1f bytes per thread with %d threads on every SM\n",
           per_sm / 1024, g.sm_count, per_thread, threads_per_sm);
    if (r.peak_gbps > 0)
        printf("  at the peak     %.0f GB/s x %.0f ns = %.2f MB in flight\n", r.peak_gbps, latency_ns,
               r.peak_gbps * latency_ns / 1e6);

    printf("\nWhat each kernel's first phase can have in flight per SM, at most (every resident thread\n"
           "loading at once; the tree that follows issues one dependent pair of loads per step):\n");
    printf("  %-28s %10s %14s %16s\n", "kernel", "ints/thread", "bytes per SM", "x what it needs");
    for (k = 0; k < lab.kernels.count; ++k) {
        double bytes = (double)kernels[k].per_thread * sizeof(int) * threads_per_sm;
        printf("  %-28s %10u %11.1f KiB %15.2fx\n", kernels[k].info.name, kernels[k].per_thread,
               bytes / 1024, bytes / per_sm);
    }

    CHECK(cudaFree(next));
    CHECK(cudaFree(d_end));
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    wb_gpu_close(&g);
    free(host);
    free(order);
    return WB_EXIT_OK;
}

int main(int argc, char **argv)
{
    wb_args a;
    char err[512];
    /* --latency is this lab's own mode; -h, --list, --explain and every
     * error go the usual way */
    if (wb_parse_args(&lab, argc, argv, &a, err, sizeof err) == 0 && a.extra && !a.help &&
        !a.list && !a.explain)
        return latency_mode(&a);
    return wb_reduce_main(&lab, kernels, argc, argv, explain);
}
