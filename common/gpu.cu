/*
 * gpu.cu - the CUDA half of the workbook's code: error checks, the device,
 * device memory, timing, the L2 flush, the copy ceiling, poison and guards,
 * and the steps of one row.
 */
#include "gpu.h"

#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "device.h"
#include "no_device.h"
#include "numbers.h"
#include "report.h"
#include "text.h"

/* The lab's name in front of every message below (wb_gpu_open learns it). */
static const char *gpu_lab = "";

/* One line of at most WB_WIDTH columns on stderr: "LAB: " then text, its
 * end cut to "..." where a CUDA string leaves it longer. */
static void say(const char *text)
{
    int room = WB_WIDTH - (gpu_lab[0] ? (int)strlen(gpu_lab) + 2 : 0);
    fprintf(stderr, "%s%s%.*s%s\n", gpu_lab, gpu_lab[0] ? ": " : "",
            (int)strlen(text) > room ? room - 3 : (int)strlen(text), text, (int)strlen(text) > room ? "..." : "");
}

/* FILE:LINE: CALL failed: WHAT (NAME) on one line: where that is too wide,
 * the call as its function's name and (...), then WHAT alone, then NAME. */
void wb_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
    char text[512], fn[128], oom[96];
    const char *what = cudaGetErrorString(err), *name = cudaGetErrorName(err);
    int room = WB_WIDTH - (gpu_lab[0] ? (int)strlen(gpu_lab) + 2 : 0), i;
    snprintf(fn, sizeof fn, "%.*s%s", (int)strcspn(call, "("), call, strchr(call, '(') ? "(...)" : "");
    if (err == cudaErrorMemoryAllocation) { /* out of GPU memory: say how much is left */
        size_t free_b = 0, total_b = 0;
        cudaGetLastError();
        if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
            snprintf(oom, sizeof oom, "out of GPU memory, %.0f MiB free", free_b / 1048576.0);
            what = oom;
        }
    }
    for (i = 0; i < 4; ++i) {
        snprintf(text, sizeof text, "%s:%d: %s failed: %s%s%s%s", file, line, i ? fn : call,
                 i < 3 ? what : name, i < 2 ? " (" : "", i < 2 ? name : "", i < 2 ? ")" : "");
        if ((int)strlen(text) <= room)
            break;
    }
    say(text);
    exit(WB_EXIT_CUDA);
}

/* Reads buf and sums it; writes only if the sum is an impossible value, so
 * the compiler must keep every load and the L2 ends up holding clean lines
 * of this buffer and nothing of the previous kernel's. */
__global__ void wb_flush_kernel(const int4 *buf, size_t count, int *sink)
{
    int s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x) {
        int4 v = buf[i];
        s += v.x ^ v.y ^ v.z ^ v.w;
    }
    if (s == 0x7fffffff)
        *sink = s;
}

/* Holds the stream until the host has queued a whole repetition (or
 * max_ns passes), so a slow host can never leave the GPU idle between the
 * start event and the kernel: the event then times the kernel, not the
 * host's launch latency. The flag lives in mapped host memory. */
__global__ void wb_hold_kernel(const volatile int *release, long long max_ns)
{
    long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (*release == 0 && t - t0 < max_ns);
}

void wb_gpu_open(wb_gpu *g, const char *lab)
{
    int count = 0, mem_khz = 0, bus_bits = 0, runtime = 0, driver = 0;
    size_t free_b = 0, total_b = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    memset(g, 0, sizeof *g);
    gpu_lab = lab;
    if (err != cudaSuccess || count == 0) {
        char reason[300], text[400];
        snprintf(text, sizeof text, "no usable CUDA device: %s", wb_no_device_reason(err, reason, sizeof reason));
        say(text);
        exit(WB_EXIT_CUDA);
    }
    g->id = 0;
    CHECK(cudaGetDeviceProperties(&g->prop, g->id)); /* needs no context yet */
    err = cudaSetDevice(g->id); /* creates the context */
    if (err == cudaErrorMemoryAllocation) {
        /* what a context reserves at least: a 1 KiB stack for every thread
         * the GPU can hold, the 8 MiB malloc heap and the 1 MiB printf buffer;
         * with no context, CUDA cannot say how much is free */
        double need = (double)g->prop.maxThreadsPerMultiProcessor * g->prop.multiProcessorCount * 1024 +
                      9.0 * 1048576;
        char text[300];
        snprintf(text, sizeof text, "a CUDA context needs about %.0f MiB, less is free (%s: other processes?)",
                 need / 1048576.0, g->prop.name);
        say(text);
        exit(WB_EXIT_CUDA);
    }
    CHECK(err);
    CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, g->id));
    CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, g->id));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    /* double data rate: two transfers per clock */
    g->peak_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    g->l2_bytes = (size_t)g->prop.l2CacheSize;
    g->sm_count = g->prop.multiProcessorCount;
    snprintf(g->name, sizeof g->name, "%s", g->prop.name);
    snprintf(g->detail, sizeof g->detail, "cc %d.%d, %d SMs, %.0f MB L2, %.0f GiB, CUDA runtime %d.%d, driver %d.%d",
             g->prop.major, g->prop.minor, g->sm_count, g->l2_bytes / 1e6, total_b / 1073741824.0,
             runtime / 1000, runtime % 1000 / 10, driver / 1000, driver % 1000 / 10);
    g->flush_bytes = 2 * g->l2_bytes;
    if (g->flush_bytes < (8u << 20))
        g->flush_bytes = 8u << 20;
    err = cudaMalloc(&g->flush_buf, g->flush_bytes);
    if (err == cudaErrorMemoryAllocation) {
        char text[300];
        cudaGetLastError();
        CHECK(cudaMemGetInfo(&free_b, &total_b));
        snprintf(text, sizeof text, "the L2 flush buffer (twice the L2) needs %.0f MiB, %.0f MiB free",
                 g->flush_bytes / 1048576.0, free_b / 1048576.0);
        say(text);
        exit(WB_EXIT_CUDA);
    }
    CHECK(err);
    CHECK(cudaMemset(g->flush_buf, 0, g->flush_bytes));
    CHECK(cudaMalloc(&g->flush_sink, sizeof(int)));
    CHECK(cudaHostAlloc((void **)&g->hold_flag, sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&g->hold_flag_dev, (void *)g->hold_flag, 0));
}

void wb_gpu_close(wb_gpu *g)
{
    CHECK(cudaFree(g->flush_buf));
    CHECK(cudaFree(g->flush_sink));
    CHECK(cudaFreeHost((void *)g->hold_flag));
    g->flush_buf = NULL;
}

void wb_report_device(wb_report *r, const wb_gpu *g)
{
    snprintf(r->device, sizeof r->device, "%s", g->name);
    snprintf(r->device_detail, sizeof r->device_detail, "%s", g->detail);
    r->peak_gbps = g->peak_gbps;
}

/* The GPU as the device the rows run on (device.h). */
void *wb_device_open(const char *lab)
{
    static wb_gpu g;
    wb_gpu_open(&g, lab);
    return &g;
}

void wb_device_describe(const void *dev, wb_report *r)
{
    wb_report_device(r, (const wb_gpu *)dev);
}

void wb_device_close(void *dev)
{
    wb_gpu_close((wb_gpu *)dev);
}

void *wb_device_alloc(size_t bytes, const char *what, const char *lab)
{
    void *p = NULL;
    cudaError_t err;
    gpu_lab = lab;
    err = cudaMalloc(&p, bytes);
    if (err == cudaErrorMemoryAllocation) {
        size_t free_b = 0, total_b = 0;
        char text[300];
        cudaGetLastError(); /* clear the sticky-free error state */
        cudaMemGetInfo(&free_b, &total_b);
        snprintf(text, sizeof text, "%s needs %.1f GiB, the GPU has %.1f free; try a smaller -n", what,
                 bytes / 1073741824.0, free_b / 1073741824.0);
        say(text);
        exit(WB_EXIT_USAGE);
    }
    if (err != cudaSuccess)
        wb_cuda_fail(err, "cudaMalloc", __FILE__, __LINE__);
    return p;
}

void wb_flush_l2(wb_gpu *g)
{
    size_t count = g->flush_bytes / sizeof(int4);
    wb_flush_kernel<<<2 * g->sm_count, 1024>>>((const int4 *)g->flush_buf, count, g->flush_sink);
    CHECK_LAUNCH("wb_flush_kernel");
}

/* The times of `reps` runs, allocated, after one warm-up run (module load,
 * first touch, clocks) from a reset state. */
static double *timing_start(const wb_row_ops *ops, void *ctx, wb_run_what what, int reps)
{
    double *ms = (double *)malloc(sizeof(double) * (size_t)reps);
    if (!ms) {
        say("out of host memory");
        exit(WB_EXIT_CUDA);
    }
    ops->reset(ctx, 0);
    ops->run(ctx, what);
    CHECK(cudaDeviceSynchronize());
    return ms;
}

wb_stats wb_time_events(wb_gpu *g, const wb_row_ops *ops, void *ctx, wb_run_what what, int reps)
{
    cudaEvent_t start, stop;
    double *ms;
    wb_stats s;
    int i;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    ms = timing_start(ops, ctx, what, reps);
    for (i = 0; i < reps; ++i) {
        float t = 0;
        *g->hold_flag = 0;
        wb_hold_kernel<<<1, 1>>>(g->hold_flag_dev, 10000000LL /* 10 ms at most */);
        CHECK_LAUNCH("wb_hold_kernel");
        ops->reset(ctx, 0);
        wb_flush_l2(g);
        CHECK(cudaEventRecord(start, 0));
        ops->run(ctx, what);
        CHECK(cudaEventRecord(stop, 0));
        *g->hold_flag = 1; /* everything is queued: let the GPU go */
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&t, start, stop));
        ms[i] = t;
    }
    s = wb_summarize(ms, reps);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    free(ms);
    return s;
}

wb_stats wb_time_host(wb_gpu *g, const wb_row_ops *ops, void *ctx, wb_run_what what, int reps)
{
    double *ms = timing_start(ops, ctx, what, reps);
    wb_stats s;
    int i;
    for (i = 0; i < reps; ++i) {
        double t0;
        ops->reset(ctx, 0);
        wb_flush_l2(g);
        CHECK(cudaDeviceSynchronize());
        t0 = wb_now_ms();
        ops->run(ctx, what);
        CHECK(cudaDeviceSynchronize());
        ms[i] = wb_now_ms() - t0;
    }
    s = wb_summarize(ms, reps);
    free(ms);
    return s;
}

typedef struct {
    void *dst;
    const void *src;
    size_t bytes;
} copy_ctx;

static void copy_reset(void *p, int fresh)
{
    (void)p;
    (void)fresh;
}

static void copy_run(void *p, wb_run_what what)
{
    copy_ctx *c = (copy_ctx *)p;
    (void)what;
    CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
}

static const wb_row_ops copy_ops = {copy_reset, copy_run, NULL, 0};

double wb_measure_ceiling(wb_gpu *g, wb_report *r, void *dst, const void *src, size_t bytes, int reps)
{
    copy_ctx c = {dst, src, bytes};
    wb_stats s = wb_time_events(g, &copy_ops, &c, WB_RUN_PASS, reps);
    r->ceiling_gbps = wb_gbps(2.0 * (double)bytes, s.median);
    snprintf(r->ceiling_what, sizeof r->ceiling_what,
             "device-to-device cudaMemcpy of the same %.1f MiB, read+write counted", bytes / 1048576.0);
    return r->ceiling_gbps;
}

/* ---------------------------------------------------------------------- */
/* Poison                                                                  */
/* ---------------------------------------------------------------------- */
void wb_poison(void *p, size_t bytes, int byte) { CHECK(cudaMemsetAsync(p, byte, bytes, 0)); }

void wb_poison_guarded(void *out, size_t bytes, int byte) { wb_poison(out, bytes + WB_GUARD_BYTES, byte); }

int wb_guard_intact(const void *out, size_t bytes, int byte)
{
    unsigned char guard[WB_GUARD_BYTES];
    size_t i;
    CHECK(cudaMemcpy(guard, (const char *)out + bytes, sizeof guard, cudaMemcpyDeviceToHost));
    for (i = 0; i < sizeof guard; ++i)
        if (guard[i] != (unsigned char)byte)
            return 0;
    return 1;
}

int wb_first_poisoned(const void *host, size_t count, size_t esz, int byte)
{
    unsigned char poison[16];
    size_t i;
    memset(poison, byte, sizeof poison);
    for (i = 0; i < count; ++i)
        if (!memcmp((const char *)host + i * esz, poison, esz))
            return (int)i;
    return -1;
}

/* Fill this block's dynamic shared memory, `words` 4-byte words, with 0xFF
 * bytes. volatile: nothing reads the words back, and they must still be
 * written. */
__global__ void wb_poison_shared_kernel(unsigned words)
{
    extern __shared__ unsigned shared_words[];
    volatile unsigned *s = shared_words;
    for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
        s[i] = 0xFFFFFFFFu;
}

void wb_poison_shared(const wb_gpu *g)
{
    static size_t bytes; /* the most shared memory one block may have; 0: not asked yet */
    if (!bytes) {
        bytes = g->prop.sharedMemPerBlockOptin > g->prop.sharedMemPerBlock ? g->prop.sharedMemPerBlockOptin
                                                                            : g->prop.sharedMemPerBlock;
        CHECK(cudaFuncSetAttribute(wb_poison_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        CHECK(cudaFuncSetAttribute(wb_poison_shared_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   (int)cudaSharedmemCarveoutMaxShared));
    }
    wb_poison_shared_kernel<<<(unsigned)g->sm_count, 1024, bytes>>>((unsigned)(bytes / sizeof(unsigned)));
    CHECK_LAUNCH("wb_poison_shared_kernel");
}

/* ---------------------------------------------------------------------- */
/* The row runner                                                          */
/* ---------------------------------------------------------------------- */
/* One checked run from a pristine input and poisoned outputs: row->pass
 * and row->check, or row->todo for an exercise not written yet. */
static void verify(const wb_lab *lab, const wb_row_ops *ops, void *ctx, wb_row *row)
{
    wb_todo_clear(lab); /* a flag an earlier run left */
    ops->reset(ctx, 1);
    ops->run(ctx, WB_RUN_CHECKED);
    CHECK(cudaDeviceSynchronize());
    if (wb_row_todo(lab, row))
        return;
    ops->judge(ctx, row, NULL);
}

void wb_run_row(wb_gpu *g, wb_report *r, const wb_lab *lab, int reps, wb_row_mode mode, const wb_row_ops *ops,
                void *ctx, wb_row *row)
{
    verify(lab, ops, ctx, row);
    if (mode == WB_ROW_COUNT) {
        wb_report_exercise_verdict(r, row);
        return;
    }
    if (!row->todo) {
        const char *when = mode == WB_ROW_TIMED ? "timed repetition" : "second run";
        if (mode == WB_ROW_TIMED) {
            row->time = wb_time_events(g, ops, ctx, WB_RUN_PASS, reps);
            if (ops->has_whole)
                row->total_ms = wb_time_host(g, ops, ctx, WB_RUN_WHOLE, reps).median;
        } else { /* a second run, from a poisoned start as the first */
            ops->reset(ctx, 0);
            ops->run(ctx, ops->has_whole ? WB_RUN_WHOLE : WB_RUN_PASS);
            CHECK(cudaDeviceSynchronize());
        }
        ops->judge(ctx, row, when); /* the last run must agree with the verified one too */
    }
    if (mode == WB_ROW_TIMED)
        wb_report_add(r, row);
}
