/*
 * lab04 - unrolling the reduction: more loads in flight, fewer barriers.
 *
 * Build and run:
 *     make lab04 && ./lab04              the table at n = 2^24, block 512
 *     ./lab04 --explain                  what one block does in each kernel (CPU only)
 *     ./lab04 --latency                  DRAM latency idle and under load: Little's law
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
 * status is the verdict. The chapter is docs/lab04.md; --latency's is
 * docs/lab04-latency.md.
 */
#include "workbook.h"
#include "trace.h" /* --trace KERNEL */
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
     launch_reduceInterleaved, 1, 32, 1024, 1, 0, NULL, 0, WB_OP_SUM, WB_ALL_TYPES},
    {{"reduceUnrolling2", "each thread first adds 2 elements a block apart: half the blocks, 2 loads in flight"},
     launch_reduceUnrolling2, 2, 32, 1024, 1, 0, NULL, 0, WB_OP_SUM, WB_ALL_TYPES},
    {{"reduceUnrolling4", "4 elements per thread: 4 independent loads in flight per thread"},
     launch_reduceUnrolling4, 4, 32, 1024, 1, 0, NULL, 0, WB_OP_SUM, WB_ALL_TYPES},
    {{"reduceUnrolling8", "8 elements per thread: enough bytes in flight to approach the DRAM ceiling"},
     launch_reduceUnrolling8, 8, 32, 1024, 1, 0, NULL, 0, WB_OP_SUM, WB_ALL_TYPES},
    {{"reduceUnrollWarps8", "+ the last warp unrolled: 6 steps with __syncwarp() instead of __syncthreads()"},
     launch_reduceUnrollWarps8, 8, 32, 1024, 1, 0, NULL, 0, WB_OP_SUM, WB_ALL_TYPES},
    {{"reduceCompleteUnrollWarps8", "+ the whole in-block tree written out: no loop counter, no loop branch"},
     launch_reduceCompleteUnrollWarps8, 8, 32, 1024, 1, 0, NULL, 0, WB_OP_SUM, WB_ALL_TYPES},
    {{"reduceCompleteUnroll", "+ the block size a template argument: unused steps vanish at compile time"},
     launch_reduceCompleteUnroll, 8, 32, 1024, 1, 0, NULL, 0, WB_OP_SUM, WB_ALL_TYPES},
};

/* ---------------------------------------------------------------------- */
/* The exercises (exercises.cuh): launchers and their table                */
/* ---------------------------------------------------------------------- */
WB_REDUCE_LAUNCHER(reduceUnrolling16)

/* the student's grid, launched with the shipped reduceUnrolling8 */
static unsigned grid_unrolling8Grid(unsigned n, unsigned block, const wb_gpu *g, wb_type type)
{
    (void)g;
    (void)type; /* an exercise: int only */
    return grid_reduceUnrolling8Grid(n, block);
}

static void launch_reduceUnrolling8Grid(void *data, void *partial, unsigned n, unsigned grid,
                                        unsigned block, wb_type type)
{
    (void)type; /* an exercise: int only */
    if (grid == 0) /* the book's grid for n < 8 * block: nothing is launched, nothing summed */
        return;
    reduceUnrolling8<<<grid, block>>>((int *)data, (int *)partial, n);
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
    "--latency", "the DRAM latency idle and under load, and the bytes in flight it takes", kernels,
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
        unsigned grid = wb_reduce_grid(k, n, block, NULL, WB_INT);
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
/* --latency: the latency idle (pointer chase) and under load (streamRead) */
/* ---------------------------------------------------------------------- */

#define CHASE_BYTES (64u << 20) /* the chain's buffer: 64 MiB */
#define CHASE_LINE 32u          /* ints per 128-byte line: one node per line */
#define CHASE_SHORT 1000u       /* hops of the short and the long chase: their */
#define CHASE_LONG 11000u       /* difference cancels the launch overhead */
#define STREAM_BLOCK 256        /* streamRead's block; the grid fills every SM once */
#define STREAM_ENOUGH 0.95      /* "enough in flight": this fraction of the best row's rate */

/* One thread follows `hops` links: each load's address is the previous
 * load's value, so no two loads overlap and each one costs a full trip. */
__global__ void pointerChase(const unsigned *next, unsigned start, unsigned hops, unsigned *end)
{
    unsigned j = start;
    for (unsigned i = 0; i < hops; ++i)
        j = __ldcg(next + j); /* L1 bypassed: every node is a new line anyway */
    *end = j;
}

__device__ __forceinline__ unsigned sum_of(int v) { return (unsigned)v; }
__device__ __forceinline__ unsigned sum_of(int4 v)
{
    return (unsigned)v.x + (unsigned)v.y + (unsigned)v.z + (unsigned)v.w;
}

/*
 * The memory under load: every thread of a full GPU reads K independent
 * loads of a T (int: 4 bytes, int4: 16 bytes), adds them, and goes on to
 * its next K, grid-stride, until the n ints of data are read. The K loads
 * name K registers before the first add, so all K are in flight at once:
 * bytes in flight = resident threads x K x sizeof(T). Each block writes
 * the exact sum of what it read to partial[blockIdx.x] (the check).
 * data must be 16-byte aligned; any n >= 1; blockDim.x == STREAM_BLOCK.
 */
template <typename T, int K>
__global__ void streamRead(const int *data, long long n, unsigned long long *partial)
{
    __shared__ unsigned long long warp_sums[STREAM_BLOCK / 32];
    const int per = (int)(sizeof(T) / sizeof(int));
    const T *p = (const T *)data;
    long long nvec = n / per, total = (long long)gridDim.x * blockDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x, j;
    unsigned long long acc = 0;
    const T zero = {0};
    unsigned lane = threadIdx.x % 32, w;

#pragma unroll 1 /* one group of K at a time: registers, and so occupancy, stay K's */
    for (j = i; j < nvec; j += K * total) {
        T v[K];
        unsigned s = 0;
#pragma unroll
        for (int u = 0; u < K; ++u) /* K loads, none waits for another */
            v[u] = j + u * total < nvec ? p[j + u * total] : zero;
#pragma unroll
        for (int u = 0; u < K; ++u)
            s += sum_of(v[u]); /* at most 16 x 4 x 255: no overflow */
        acc += s;
    }
    if (i < n - nvec * per) /* the last n % 4 ints when T is int4 */
        acc += (unsigned)data[nvec * per + i];

    /* the block's sum: shuffles in each warp, then one warp adds the warps */
    for (w = 16; w > 0; w /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, w);
    if (lane == 0)
        warp_sums[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < STREAM_BLOCK / 32 ? warp_sums[threadIdx.x] : 0;
        for (w = 16; w > 0; w /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, w);
        if (threadIdx.x == 0)
            partial[blockIdx.x] = acc;
    }
}

typedef struct {
    unsigned bytes, k; /* one load's size, loads in flight per thread */
    void (*launch)(const int *data, long long n, unsigned long long *partial, unsigned grid);
    int (*blocks_per_sm)(void);
} stream_row;

template <typename T, int K>
static void launch_streamRead(const int *data, long long n, unsigned long long *partial, unsigned grid)
{
    streamRead<T, K><<<grid, STREAM_BLOCK>>>(data, n, partial);
    CHECK_LAUNCH("streamRead");
}

template <typename T, int K>
static int blocks_streamRead(void)
{
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, streamRead<T, K>, STREAM_BLOCK, 0));
    return blocks;
}

#define STREAM_ROW(T, K) {(unsigned)sizeof(T), K, launch_streamRead<T, K>, blocks_streamRead<T, K>}
static const stream_row stream_rows[] = {
    STREAM_ROW(int, 1),  STREAM_ROW(int, 2),  STREAM_ROW(int, 4),  STREAM_ROW(int, 8),
    STREAM_ROW(int, 16), STREAM_ROW(int4, 1), STREAM_ROW(int4, 2), STREAM_ROW(int4, 4),
    STREAM_ROW(int4, 8), STREAM_ROW(int4, 16),
};
#define STREAM_ROWS ((int)(sizeof stream_rows / sizeof stream_rows[0]))

typedef struct {
    const stream_row *row;
    const int *data;
    long long n;
    unsigned long long *partial, *host_partial;
    unsigned grid;
} stream_ctx;

static void stream_poison(void *p)
{
    stream_ctx *c = (stream_ctx *)p;
    CHECK(cudaMemsetAsync(c->partial, 0xAB, c->grid * sizeof(unsigned long long), 0));
}

static void stream_work(void *p)
{
    stream_ctx *c = (stream_ctx *)p;
    c->row->launch(c->data, c->n, c->partial, c->grid);
}

/* The last launch's block sums against the exact sum: 1 when they add up
 * to it and none is still poisoned; otherwise says why in why[]. */
static int stream_check(stream_ctx *c, long long expected, char *why, size_t len)
{
    unsigned long long poison, s = 0;
    unsigned b;
    memset(&poison, 0xAB, sizeof poison);
    CHECK(cudaMemcpy(c->host_partial, c->partial, c->grid * sizeof(unsigned long long),
                     cudaMemcpyDeviceToHost));
    for (b = 0; b < c->grid; ++b) {
        if (c->host_partial[b] == poison) {
            snprintf(why, len, "block %u never wrote its sum (output still poisoned)", b);
            return 0;
        }
        s += c->host_partial[b];
    }
    if (s != (unsigned long long)expected) {
        snprintf(why, len, "sum %llu, expected %lld", s, expected);
        return 0;
    }
    return 1;
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

/* The idle latency in ns: one thread chasing a random cycle through every
 * 128-byte line of 64 MiB (the hardware cannot guess the next address);
 * the median of reps pairs, each visiting lines no earlier one touched. */
static wb_stats idle_latency(wb_gpu *g, const wb_args *a, int reps)
{
    unsigned lines = CHASE_BYTES / (CHASE_LINE * sizeof(unsigned)), i, start;
    unsigned *host = (unsigned *)calloc(CHASE_BYTES / sizeof(unsigned), sizeof(unsigned));
    unsigned *order = (unsigned *)malloc(lines * sizeof(unsigned));
    unsigned *next, *d_end;
    unsigned long long state = a->seed;
    double ns[40];
    int k;

    if (!host || !order) {
        fprintf(stderr, "lab04: not enough host memory for the pointer chase (64 MiB)\n");
        exit(WB_EXIT_CUDA);
    }
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
    time_chase(g, next, &start, 1, d_end); /* warm-up: module load */
    for (k = 0; k < reps; ++k) {
        double t_short = time_chase(g, next, &start, CHASE_SHORT, d_end);
        double t_long = time_chase(g, next, &start, CHASE_LONG, d_end);
        ns[k] = (t_long - t_short) * 1e6 / (CHASE_LONG - CHASE_SHORT);
    }
    CHECK(cudaFree(next));
    CHECK(cudaFree(d_end));
    free(host);
    free(order);
    return wb_summarize(ns, reps);
}

static int latency_mode(const wb_args *a)
{
    static wb_report r;
    wb_gpu g;
    int *src, *dst, *host, reps = a->reps > 40 ? 40 : a->reps, i, enough = -1, failed = 0;
    unsigned long long *partial, *host_partial;
    size_t copy_bytes = (size_t)a->n * sizeof(int);
    unsigned max_grid = 0;
    double ceiling, gbps[STREAM_ROWS], per_sm[STREAM_ROWS], loaded_ns[STREAM_ROWS], threads_per_sm, best = 0;
    int row_ok[STREAM_ROWS];
    long long sum;
    wb_stats idle;

    wb_gpu_open(&g, lab.lab);
    wb_report_init(&r, lab.lab);
    wb_report_device(&r, &g);
    idle = idle_latency(&g, a, reps); /* every timed pair visits new lines: 40 at most */

    /* the ceiling, as the table measures it: a copy of the same n ints */
    host = (int *)malloc(copy_bytes);
    if (!host) {
        fprintf(stderr, "lab04: not enough host memory for n = %lld\n", a->n);
        return WB_EXIT_CUDA;
    }
    wb_fill_ints(host, (size_t)a->n, a->seed);
    sum = wb_sum_ints(host, (size_t)a->n);
    src = (int *)wb_device_alloc(copy_bytes, "the copy's source", lab.lab);
    dst = (int *)wb_device_alloc(copy_bytes, "the copy's destination", lab.lab);
    CHECK(cudaMemcpy(src, host, copy_bytes, cudaMemcpyHostToDevice));
    ceiling = wb_measure_ceiling(&g, &r, dst, src, copy_bytes, a->reps);

    for (i = 0; i < STREAM_ROWS; ++i) {
        unsigned grid = (unsigned)(stream_rows[i].blocks_per_sm() * g.sm_count);
        max_grid = grid > max_grid ? grid : max_grid;
    }
    partial = (unsigned long long *)wb_device_alloc(max_grid * sizeof(unsigned long long),
                                                    "the block sums", lab.lab);
    host_partial = (unsigned long long *)malloc(max_grid * sizeof(unsigned long long));
    if (!host_partial) {
        fprintf(stderr, "lab04: out of host memory\n");
        return WB_EXIT_CUDA;
    }

    printf("device   %s (%s)\n", r.device, r.device_detail);
    printf("latency  %.0f ns idle: one load that misses L1 and L2 with no other load in the queues\n"
           "         (one thread chasing pointers through %u MiB of random 128-byte lines, L2 flushed;\n"
           "         median of %d, quartiles %.0f..%.0f ns)\n",
           idle.median, CHASE_BYTES >> 20, reps, idle.q1, idle.q3);
    printf("ceiling  %.0f GB/s: %s\n         (theoretical %.0f GB/s)\n\n", ceiling, r.ceiling_what,
           r.peak_gbps);

    printf("Under load: streamRead<load, k> fills every SM with threads of %d; each thread issues k\n"
           "independent loads, adds them, and goes on to its next k until all %.1f MiB are read\n"
           "(L2 flushed, median of %d; each block's sum checked, output poisoned before each run).\n"
           "The latency column is Little's law's estimate, an upper bound: bytes in flight / bandwidth,\n"
           "assuming every load of every resident thread is on its way (threads x k x load). Once\n"
           "the bandwidth is flat it grows with those bytes by construction; what it shows is how\n"
           "many bytes in flight the memory system needs before the bandwidth stops growing.\n\n",
           STREAM_BLOCK, copy_bytes / 1048576.0, a->reps);
    printf("load   k  threads/SM  in flight/SM      GB/s   %% copy  est. ns<=  check\n");
    for (i = 0; i < STREAM_ROWS; ++i) {
        const stream_row *row = &stream_rows[i];
        stream_ctx c = {row, src, a->n, partial, host_partial, 0};
        char why[128] = "";
        int ok;
        wb_stats t;
        threads_per_sm = (double)row->blocks_per_sm() * STREAM_BLOCK;
        c.grid = (unsigned)(row->blocks_per_sm() * g.sm_count);
        stream_poison(&c); /* checked once alone, then after the timed runs */
        stream_work(&c);
        ok = stream_check(&c, sum, why, sizeof why);
        t = wb_time_events(&g, stream_work, stream_poison, &c, a->reps);
        ok = ok && stream_check(&c, sum, why, sizeof why);
        gbps[i] = wb_gbps((double)copy_bytes, t.median);
        per_sm[i] = threads_per_sm * row->k * row->bytes;
        loaded_ns[i] = per_sm[i] * g.sm_count / gbps[i]; /* bytes / (GB/s) = ns */
        printf("%2u B %3u %11.0f %9.1f KiB %9.1f %7.1f%% %10.0f  %s\n", row->bytes, row->k,
               threads_per_sm, per_sm[i] / 1024, gbps[i], 100 * gbps[i] / ceiling, loaded_ns[i],
               ok ? "PASS" : "FAIL");
        if (!ok) {
            printf("         %s\n", why);
            failed = 1;
        }
        row_ok[i] = ok;
    }
    /* enough: the fewest bytes per SM that reach the plateau, STREAM_ENOUGH
     * of the best rate any row reached (not of the copy: a read-only stream
     * need not reach the copy's rate, and on an H100 it stays below it) */
    for (i = 0; i < STREAM_ROWS; ++i)
        if (row_ok[i] && gbps[i] > best)
            best = gbps[i];
    for (i = 0; i < STREAM_ROWS; ++i)
        if (row_ok[i] && gbps[i] >= STREAM_ENOUGH * best && (enough < 0 || per_sm[i] < per_sm[enough]))
            enough = i;

    if (enough >= 0) {
        printf("\nEnough in flight: %.0f%% of the best rate (%.0f GB/s, %.1f%% of the copy) first with\n"
               "%.1f KiB per SM (%u B x %u per thread). Little's law puts the latency under load there\n"
               "at %.0f ns at most, %.1fx the idle %.0f ns.\n",
               100 * STREAM_ENOUGH, best, 100 * best / ceiling, per_sm[enough] / 1024, stream_rows[enough].bytes,
               stream_rows[enough].k, loaded_ns[enough], loaded_ns[enough] / idle.median, idle.median);
        printf("\nWhat each kernel's first phase can have in flight per SM, at most (every resident thread\n"
               "loading at once; the tree that follows issues one dependent pair of loads per step):\n");
        printf("  %-28s %11s %14s %16s\n", "kernel", "ints/thread", "bytes per SM", "x what it needs");
        for (i = 0; i < lab.kernels.count; ++i) {
            double bytes = (double)kernels[i].per_thread * sizeof(int) * g.prop.maxThreadsPerMultiProcessor;
            printf("  %-28s %11u %10.1f KiB %15.2fx\n", kernels[i].info.name, kernels[i].per_thread,
                   bytes / 1024, bytes / per_sm[enough]);
        }
    } else if (!failed) {
        printf("\nNo row passed its check: no figure for what is enough.\n");
    }

    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    CHECK(cudaFree(partial));
    wb_gpu_close(&g);
    free(host);
    free(host_partial);
    if (failed)
        fprintf(stderr, "lab04: FAIL - streamRead did not read the exact sum\n");
    return failed ? WB_EXIT_WRONG : WB_EXIT_OK;
}

int main(int argc, char **argv)
{
    wb_args a;
    char err[512];
    wb_trace_redirect(argc, argv); /* --trace KERNEL: tools/trace/trace.sh */
    /* --latency is this lab's own mode; -h, --list, --explain and every
     * error go the usual way */
    if (wb_parse_args(&lab, argc, argv, &a, err, sizeof err) == 0 && a.extra && !a.help &&
        !a.list && !a.explain)
        return latency_mode(&a);
    return wb_reduce_main(&lab, kernels, argc, argv, explain);
}
