/*
 * latency.cu - lab04 --latency: the DRAM latency idle and under load, and
 * the bytes in flight it takes to reach the bandwidth (Little's law).
 *
 *   pointerChase       one thread following a random cycle through 64 MiB:
 *                      each load waits for the one before (the idle latency)
 *   streamRead<T, K>   every thread of a full GPU with K independent loads of
 *                      a T in flight: the bandwidth per bytes in flight
 * Then each lab04 kernel's first phase (lab04.cu's table): the bytes it can
 * have in flight per SM against what the memory needed. Every block sum of
 * streamRead is checked against the exact sum; the exit status is the verdict.
 * Chapter: docs/lab04-latency.md.
 */
#include "workbook.h"
#include "lab04.cuh"
#include "kernels/block.cuh" /* blockReduceShfl */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAB "lab04" /* the name in messages */
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

    /* the block's sum: shuffles in each warp, then one warp adds the warps
     * (lab05's shuffle tree, kernels/block.cuh) */
    acc = blockReduceShfl(acc, warp_sums);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = acc;
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

/* The two as the timer takes them: before every repetition, and the timed run. */
static void stream_reset(void *p, int fresh)
{
    (void)fresh;
    stream_poison(p);
}

static void stream_run(void *p, wb_run_what what)
{
    (void)what;
    stream_work(p);
}

static const wb_row_ops stream_ops = {stream_reset, stream_run, NULL, 0};

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
        unsigned j = (unsigned)(wb_splitmix64(&state) % (i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (i = 0; i < lines; ++i)
        host[order[i] * CHASE_LINE] = order[(i + 1) % lines] * CHASE_LINE;

    next = (unsigned *)wb_device_alloc(CHASE_BYTES, "the pointer chase", LAB);
    d_end = (unsigned *)wb_device_alloc(sizeof(unsigned), "the pointer chase's end", LAB);
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

/* The rows of the table under load: each row's rate, bytes in flight per
 * SM, Little's-law latency and verdict. */
typedef struct {
    double gbps[STREAM_ROWS], per_sm[STREAM_ROWS], loaded_ns[STREAM_ROWS];
    int ok[STREAM_ROWS];
} stream_results;

/* The banner: the device, the idle latency, the ceiling; then what the
 * table under load shows. */
static void print_latency_head(const wb_report *r, wb_stats idle, int reps, double ceiling, size_t copy_bytes,
                               int timed_reps)
{
    printf("device   %s (%s)\n", r->device, r->device_detail);
    printf("latency  %.0f ns idle: one load that misses L1 and L2 with no other load in the queues\n"
           "         (one thread chasing pointers through %u MiB of random 128-byte lines, L2 flushed;\n"
           "         median of %d, quartiles %.0f..%.0f ns)\n",
           idle.median, CHASE_BYTES >> 20, reps, idle.q1, idle.q3);
    printf("ceiling  %.0f GB/s: %s\n         (theoretical %.0f GB/s)\n\n", ceiling, r->ceiling_what,
           r->peak_gbps);

    printf("Under load: streamRead<load, k> fills every SM with threads of %d; each thread issues k\n"
           "independent loads, adds them, and goes on to its next k until all %.1f MiB are read\n"
           "(L2 flushed, median of %d; each block's sum checked, output poisoned before each run).\n"
           "The latency column is Little's law's estimate, an upper bound: bytes in flight / bandwidth,\n"
           "assuming every load of every resident thread is on its way (threads x k x load). Once\n"
           "the bandwidth is flat it grows with those bytes by construction; what it shows is how\n"
           "many bytes in flight the memory system needs before the bandwidth stops growing.\n\n",
           STREAM_BLOCK, copy_bytes / 1048576.0, timed_reps);
}

/* Each stream row checked alone, timed, checked again, printed; returns 1
 * when a row failed. */
static int stream_table(wb_gpu *g, const wb_args *a, int *src, unsigned long long *partial,
                        unsigned long long *host_partial, long long sum, double ceiling, stream_results *s)
{
    size_t copy_bytes = (size_t)a->n * sizeof(int);
    int i, failed = 0;
    printf("load   k  threads/SM  in flight/SM      GB/s   %% copy  est. ns<=  check\n");
    for (i = 0; i < STREAM_ROWS; ++i) {
        const stream_row *row = &stream_rows[i];
        stream_ctx c = {row, src, a->n, partial, host_partial, 0};
        char why[128] = "";
        int ok;
        wb_stats t;
        double threads_per_sm = (double)row->blocks_per_sm() * STREAM_BLOCK;
        c.grid = (unsigned)(row->blocks_per_sm() * g->sm_count);
        stream_poison(&c); /* checked once alone, then after the timed runs */
        stream_work(&c);
        ok = stream_check(&c, sum, why, sizeof why);
        t = wb_time_events(g, &stream_ops, &c, WB_RUN_PASS, a->reps);
        ok = ok && stream_check(&c, sum, why, sizeof why);
        s->gbps[i] = wb_gbps((double)copy_bytes, t.median);
        s->per_sm[i] = threads_per_sm * row->k * row->bytes;
        s->loaded_ns[i] = s->per_sm[i] * g->sm_count / s->gbps[i]; /* bytes / (GB/s) = ns */
        printf("%2u B %3u %11.0f %9.1f KiB %9.1f %7.1f%% %10.0f  %s\n", row->bytes, row->k,
               threads_per_sm, s->per_sm[i] / 1024, s->gbps[i], 100 * s->gbps[i] / ceiling, s->loaded_ns[i],
               ok ? "PASS" : "FAIL");
        if (!ok) {
            printf("         %s\n", why);
            failed = 1;
        }
        s->ok[i] = ok;
    }
    return failed;
}

/* Enough in flight: the fewest bytes per SM that reach the plateau,
 * STREAM_ENOUGH of the best rate any row reached (not of the copy: a
 * read-only stream need not reach the copy's rate, and on an H100 it stays
 * below it); then what each kernel can have in flight against it. */
static void print_enough(const wb_gpu *g, const stream_results *s, double ceiling, wb_stats idle, int failed,
                         const wb_reduce_kernel *kernels, int count)
{
    double best = 0;
    int i, enough = -1;
    for (i = 0; i < STREAM_ROWS; ++i)
        if (s->ok[i] && s->gbps[i] > best)
            best = s->gbps[i];
    for (i = 0; i < STREAM_ROWS; ++i)
        if (s->ok[i] && s->gbps[i] >= STREAM_ENOUGH * best && (enough < 0 || s->per_sm[i] < s->per_sm[enough]))
            enough = i;
    if (enough < 0) {
        if (!failed)
            printf("\nNo row passed its check: no figure for what is enough.\n");
        return;
    }
    printf("\nEnough in flight: %.0f%% of the best rate (%.0f GB/s, %.1f%% of the copy) first with\n"
           "%.1f KiB per SM (%u B x %u per thread). Little's law puts the latency under load there\n"
           "at %.0f ns at most, %.1fx the idle %.0f ns.\n",
           100 * STREAM_ENOUGH, best, 100 * best / ceiling, s->per_sm[enough] / 1024, stream_rows[enough].bytes,
           stream_rows[enough].k, s->loaded_ns[enough], s->loaded_ns[enough] / idle.median, idle.median);
    printf("\nWhat each kernel's first phase can have in flight per SM, at most (every resident thread\n"
           "loading at once; the tree that follows issues one dependent pair of loads per step):\n");
    printf("  %-28s %11s %14s %16s\n", "kernel", "ints/thread", "bytes per SM", "x what it needs");
    for (i = 0; i < count; ++i) {
        double bytes = (double)kernels[i].per_thread * sizeof(int) * g->prop.maxThreadsPerMultiProcessor;
        printf("  %-28s %11u %10.1f KiB %15.2fx\n", kernels[i].info.name, kernels[i].per_thread,
               bytes / 1024, bytes / s->per_sm[enough]);
    }
}

int lab04_latency(const wb_args *a, const wb_reduce_kernel *kernels, int count)
{
    static wb_report r;
    static stream_results res;
    wb_gpu g;
    int *src, *dst, *host, reps = a->reps > 40 ? 40 : a->reps, i, failed;
    unsigned long long *partial, *host_partial;
    size_t copy_bytes = (size_t)a->n * sizeof(int);
    unsigned max_grid = 0;
    double ceiling;
    long long sum;
    wb_stats idle;

    wb_gpu_open(&g, LAB);
    wb_report_init(&r, LAB);
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
    src = (int *)wb_device_alloc(copy_bytes, "the copy's source", LAB);
    dst = (int *)wb_device_alloc(copy_bytes, "the copy's destination", LAB);
    CHECK(cudaMemcpy(src, host, copy_bytes, cudaMemcpyHostToDevice));
    ceiling = wb_measure_ceiling(&g, &r, dst, src, copy_bytes, a->reps);

    for (i = 0; i < STREAM_ROWS; ++i) {
        unsigned grid = (unsigned)(stream_rows[i].blocks_per_sm() * g.sm_count);
        max_grid = grid > max_grid ? grid : max_grid;
    }
    partial = (unsigned long long *)wb_device_alloc(max_grid * sizeof(unsigned long long),
                                                    "the block sums", LAB);
    host_partial = (unsigned long long *)malloc(max_grid * sizeof(unsigned long long));
    if (!host_partial) {
        fprintf(stderr, "lab04: out of host memory\n");
        return WB_EXIT_CUDA;
    }

    print_latency_head(&r, idle, reps, ceiling, copy_bytes, a->reps);
    failed = stream_table(&g, a, src, partial, host_partial, sum, ceiling, &res);
    print_enough(&g, &res, ceiling, idle, failed, kernels, count);

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
