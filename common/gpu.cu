/*
 * gpu.cu - the CUDA half of common/: error checks, the device, timing, the
 * L2 flush and the copy ceiling. Contracts in workbook.h.
 */
#include "workbook.h"

#include <stdlib.h>
#include <string.h>

void wb_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cudaGetErrorString(err),
            cudaGetErrorName(err));
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

/* What to do about a device that cannot be used, in one sentence. The
 * runtime says "driver version is insufficient" both when the driver is too
 * old and when there is no NVIDIA driver at all (no libcuda): the kernel
 * module's /proc file tells the two apart. */
static const char *no_device_advice(cudaError_t err, char *buf, size_t len)
{
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    char line[256] = "";
    int have_driver = f != NULL;
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
        line[strcspn(line, "\n")] = '\0';
    }
    if (!have_driver && (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice))
        snprintf(buf, len, "no NVIDIA driver is loaded on this machine (no GPU, or its driver is not "
                           "installed): run the GPU labs on a machine with an NVIDIA GPU; lab01 runs "
                           "on the CPU (docs/setup.md)");
    else if (err == cudaErrorInsufficientDriver)
        snprintf(buf, len, "the NVIDIA driver is older than this CUDA toolkit needs (%.120s): update the "
                           "driver, or build with an older toolkit (docs/setup.md)", line);
    else if (err == cudaErrorNoDevice || err == cudaSuccess)
        snprintf(buf, len, "the driver sees no GPU (check nvidia-smi and CUDA_VISIBLE_DEVICES)");
    else
        snprintf(buf, len, "see docs/setup.md");
    return buf;
}

void wb_gpu_open(wb_gpu *g, const char *lab)
{
    int count = 0, mem_khz = 0, bus_bits = 0, runtime = 0, driver = 0;
    size_t free_b = 0, total_b = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    memset(g, 0, sizeof *g);
    if (err != cudaSuccess || count == 0) {
        char advice[400];
        fprintf(stderr, "%s: no usable CUDA device: %s%s%s; %s\n", lab,
                err != cudaSuccess ? cudaGetErrorString(err) : "the runtime found 0 devices",
                err != cudaSuccess ? " - " : "", err != cudaSuccess ? cudaGetErrorName(err) : "",
                no_device_advice(err, advice, sizeof advice));
        exit(WB_EXIT_CUDA);
    }
    g->id = 0;
    CHECK(cudaSetDevice(g->id));
    CHECK(cudaGetDeviceProperties(&g->prop, g->id));
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
    CHECK(cudaMalloc(&g->flush_buf, g->flush_bytes));
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

void *wb_device_alloc(size_t bytes, const char *what, const char *lab)
{
    void *p = NULL;
    cudaError_t err = cudaMalloc(&p, bytes);
    if (err == cudaErrorMemoryAllocation) {
        size_t free_b = 0, total_b = 0;
        cudaGetLastError(); /* clear the sticky-free error state */
        cudaMemGetInfo(&free_b, &total_b);
        fprintf(stderr, "%s: this size needs %.2f GiB of device memory for %s, but only %.2f GiB of %.2f "
                        "GiB is free; choose a smaller -n\n",
                lab, bytes / 1073741824.0, what, free_b / 1073741824.0, total_b / 1073741824.0);
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

wb_stats wb_time_events(wb_gpu *g, wb_work_fn work, wb_work_fn reset, void *ctx, int reps)
{
    cudaEvent_t start, stop;
    double *ms = (double *)malloc(sizeof(double) * (size_t)reps);
    wb_stats s;
    int i;
    if (!ms) {
        fprintf(stderr, "out of host memory\n");
        exit(WB_EXIT_CUDA);
    }
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    if (reset)
        reset(ctx);
    work(ctx); /* warm-up: module load, first-touch, clocks */
    CHECK(cudaDeviceSynchronize());
    for (i = 0; i < reps; ++i) {
        float t = 0;
        *g->hold_flag = 0;
        wb_hold_kernel<<<1, 1>>>(g->hold_flag_dev, 10000000LL /* 10 ms at most */);
        CHECK_LAUNCH("wb_hold_kernel");
        if (reset)
            reset(ctx);
        wb_flush_l2(g);
        CHECK(cudaEventRecord(start, 0));
        work(ctx);
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

wb_stats wb_time_host(wb_gpu *g, wb_work_fn work, wb_work_fn reset, void *ctx, int reps)
{
    double *ms = (double *)malloc(sizeof(double) * (size_t)reps);
    wb_stats s;
    int i;
    if (!ms) {
        fprintf(stderr, "out of host memory\n");
        exit(WB_EXIT_CUDA);
    }
    if (reset)
        reset(ctx);
    work(ctx);
    CHECK(cudaDeviceSynchronize());
    for (i = 0; i < reps; ++i) {
        double t0;
        if (reset)
            reset(ctx);
        wb_flush_l2(g);
        CHECK(cudaDeviceSynchronize());
        t0 = wb_now_ms();
        work(ctx);
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

static void copy_work(void *p)
{
    copy_ctx *c = (copy_ctx *)p;
    CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
}

double wb_measure_ceiling(wb_gpu *g, wb_report *r, void *dst, const void *src, size_t bytes, int reps)
{
    copy_ctx c = {dst, src, bytes};
    wb_stats s = wb_time_events(g, copy_work, NULL, &c, reps);
    r->ceiling_gbps = wb_gbps(2.0 * (double)bytes, s.median);
    snprintf(r->ceiling_what, sizeof r->ceiling_what,
             "device-to-device cudaMemcpy of the same %.1f MiB, read+write counted", bytes / 1048576.0);
    return r->ceiling_gbps;
}

void wb_run_row(wb_gpu *g, wb_report *r, int reps, wb_row_mode mode, const wb_row_ops *ops, void *ctx,
                wb_row *row)
{
    ops->verify(ctx, row);
    if (mode == WB_ROW_COUNT) {
        wb_report_exercise_verdict(r, row);
        return;
    }
    if (!row->todo) {
        if (mode == WB_ROW_TIMED) {
            row->time = wb_time_events(g, ops->launch, ops->reset, ctx, reps);
            if (ops->whole)
                row->total_ms = wb_time_host(g, ops->whole, ops->reset, ctx, reps).median;
        } else { /* a second run, from a poisoned start as the first */
            ops->reset(ctx);
            (ops->whole ? ops->whole : ops->launch)(ctx);
            CHECK(cudaDeviceSynchronize());
        }
        ops->recheck(ctx, row, mode == WB_ROW_TIMED ? "timed repetition" : "second run");
    }
    if (mode == WB_ROW_TIMED)
        wb_report_add(r, row);
}
