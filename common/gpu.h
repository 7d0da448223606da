/*
 * gpu.h - the CUDA half every GPU lab shares: CHECK and CHECK_LAUNCH, which
 * name file, line and call; the device and its banner; device memory;
 * poison and guards; the steps of one row; event timing with an L2 flush
 * before every repetition; the copy ceiling. Declared only when the
 * including file is compiled by nvcc.
 */
#ifndef WB_GPU_H
#define WB_GPU_H

#ifdef __CUDACC__
#include <stddef.h>

#include <cuda_runtime.h>

#include "device.h"
#include "lab.h"
#include "numbers.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print "file:line: call failed: <error name>: <error string>" and exit 3. */
void wb_cuda_fail(cudaError_t err, const char *call, const char *file, int line);

/* Check a CUDA runtime call; the message names the call's own text. */
#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t wb_err_ = (call);                                      \
        if (wb_err_ != cudaSuccess)                                        \
            wb_cuda_fail(wb_err_, #call, __FILE__, __LINE__);              \
    } while (0)

/* After every kernel launch: a bad configuration shows up here. */
#define CHECK_LAUNCH(what)                                                 \
    do {                                                                   \
        cudaError_t wb_err_ = cudaGetLastError();                          \
        if (wb_err_ != cudaSuccess)                                        \
            wb_cuda_fail(wb_err_, "launch of " what, __FILE__, __LINE__);  \
    } while (0)

typedef struct wb_gpu {
    int id;
    cudaDeviceProp prop;
    double peak_gbps;    /* memory clock x bus width x 2 (DDR) */
    size_t l2_bytes;
    int sm_count;
    char name[160];
    char detail[160];    /* "cc 9.0, 132 SMs, 50 MB L2, 80 GiB, CUDA 13.0, driver 13.0" */
    void *flush_buf;     /* 2 x L2, read before every timed repetition */
    size_t flush_bytes;
    int *flush_sink;
    volatile int *hold_flag;     /* mapped host memory: see wb_time_events */
    int *hold_flag_dev;
} wb_gpu;

/* Open device 0. No usable device: one line naming the runtime's own
 * message on stderr, exit 3. */
void wb_gpu_open(wb_gpu *g, const char *lab);
void wb_gpu_close(wb_gpu *g);

/* Copy the device name, details and peak into a report. */
void wb_report_device(wb_report *r, const wb_gpu *g);

/* cudaMalloc that turns "out of memory" into a usage error (exit 2):
 * "lab02: -n 4G needs 16.0 GiB of device memory for the input; the device
 * has 79.1 GiB free". Other failures exit 3 as CHECK does. */
void *wb_device_alloc(size_t bytes, const char *what, const char *lab);

/* Evict the L2 cache: read a buffer twice its size (clean lines, no
 * write-backs left to steal bandwidth from the next kernel). */
void wb_flush_l2(wb_gpu *g);

/* ---------------------------------------------------------------------- */
/* Poison: what a kernel never wrote, or wrote past, shows                  */
/* ---------------------------------------------------------------------- */
/* The byte outputs are filled with before every run: a word of it left
 * after the run was never written (0xABABABAB is negative as an int, about
 * -1.2e-12 as a float and -3.7e-97 as a double: no sum of the inputs). */
#define WB_POISON_BYTE 0xAB
/* The bytes after an output that a kernel must leave alone: poisoned with
 * the output, checked after the verified run. A buffer that holds an output
 * has this much room after it. */
#define WB_GUARD_BYTES 64

/* bytes of p set to `byte` (asynchronous, checked). */
void wb_poison(void *p, size_t bytes, int byte);
/* The output out[0..bytes) and the guard after it set to `byte` (asynchronous). */
void wb_poison_guarded(void *out, size_t bytes, int byte);
/* 1 when the guard after out[0..bytes) still holds `byte` (synchronous). */
int wb_guard_intact(const void *out, size_t bytes, int byte);
/* Every SM's shared memory set to 0xFF bytes (asynchronous): one block per
 * SM, each with all the shared memory a block may have, so a tile element
 * read before any thread wrote it is a NaN, not the last kernel's leftover. */
void wb_poison_shared(const wb_gpu *g);
/* The first of count elements of esz bytes at host that is all `byte`, or -1. */
int wb_first_poisoned(const void *host, size_t count, size_t esz, int byte);

/* ---------------------------------------------------------------------- */
/* The row runner: one kernel's row, the same steps in every GPU lab       */
/* ---------------------------------------------------------------------- */
/* Which run of a row: the verified one, the one the events time (the first
 * pass, or the one launch), the whole computation on the host clock. */
typedef enum { WB_RUN_CHECKED, WB_RUN_PASS, WB_RUN_WHOLE } wb_run_what;

/* A row's three steps on its context; each only queues asynchronous work,
 * except judge. */
typedef struct {
    /* before every run: inputs restored, outputs poisoned; fresh (1) before
     * the verified run, which may need more (the first copy of an input) */
    void (*reset)(void *ctx, int fresh);
    void (*run)(void *ctx, wb_run_what what);
    /* what the run left against the reference: row->pass and row->check.
     * when == NULL: the verified run; else the last run ("timed repetition",
     * "second run"), whose words say `when`, judged whatever the verdict (a
     * judge leaves a failed row as it is, and may count the runs) */
    void (*judge)(void *ctx, wb_row *row, const char *when);
    int has_whole; /* 1: WB_RUN_WHOLE is timed too (total_ms), and is --check's second run */
} wb_row_ops;

/* A matrix row's shape: nx x ny elements, run with grid x block. */
static inline void wb_row_matrix(wb_row *row, int nx, int ny, dim3 grid, dim3 block)
{
    row->nx = nx;
    row->ny = ny;
    row->grid_x = grid.x;
    row->grid_y = grid.y;
    row->block_x = block.x;
    row->block_y = block.y;
}

/* The row of one kernel of `lab` on one configuration, in the given mode:
 * verified (the todo flag cleared, fresh or reset, the checked run, the
 * flag read, judge), then TIMED: timed and its last run judged again, the
 * row added to r; COUNT: counted in r; CHECK: run once more from a
 * poisoned start, judged again, left in *row for wb_check_add. row comes
 * from wb_row_init with the grid and block set. */
void wb_run_row(wb_gpu *g, wb_report *r, const wb_lab *lab, int reps, wb_row_mode mode, const wb_row_ops *ops,
                void *ctx, wb_row *row);

/*
 * Time ops->run(ctx, what) with CUDA events: one warm-up, then `reps`
 * repetitions, each preceded (outside the timed region) by
 * ops->reset(ctx, 0) and an L2 flush. The stream is held until the host has
 * queued the whole repetition, so host launch latency stays out of the
 * figure: run and reset must only queue asynchronous work (a synchronous
 * call in them costs up to 10 ms per repetition, never a hang). Returns the
 * summary (milliseconds). judge is not called.
 */
wb_stats wb_time_events(wb_gpu *g, const wb_row_ops *ops, void *ctx, wb_run_what what, int reps);

/*
 * The same with the host's monotonic clock around the run and a device
 * synchronize: for work that ends on the host (the whole reduction when
 * the host adds the partial sums).
 */
wb_stats wb_time_host(wb_gpu *g, const wb_row_ops *ops, void *ctx, wb_run_what what, int reps);

/*
 * The ceiling: a device-to-device cudaMemcpy of `bytes` from src to dst
 * (the caller's own buffers), timed like the kernels; returns GB/s counting
 * read + write (2 * bytes) and sets the report's ceiling fields.
 */
double wb_measure_ceiling(wb_gpu *g, wb_report *r, void *dst, const void *src, size_t bytes,
                          int reps);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* __CUDACC__ */

#endif /* WB_GPU_H */
