/*
 * base.h - what every part of the workbook's code rests on: the exit
 * statuses (each program's verdict), the limits of a run's tables and lists,
 * and three small helpers (powers of two, ceilings, a monotonic clock).
 */
#ifndef WB_BASE_H
#define WB_BASE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exit statuses: the verdict of every lab is its exit status. */
enum {
    WB_EXIT_OK = 0,    /* every kernel verified */
    WB_EXIT_WRONG = 1, /* a kernel gave a wrong result */
    WB_EXIT_USAGE = 2, /* bad command line */
    WB_EXIT_CUDA = 3   /* no usable CUDA device, or a CUDA error */
};

#define WB_MAX_KERNELS 32
#define WB_MAX_ROWS 512
#define WB_MAX_LIST 128 /* items of one --check list (-n 1,2,3) */
#define WB_INT_MAX 2147483647LL

/* Monotonic wall clock in milliseconds (POSIX clock_gettime). */
double wb_now_ms(void);

/* A power of two? (x >= 1) */
int wb_is_pow2(long long x);

/* ceil(a / b) for b > 0 */
long long wb_ceil_div(long long a, long long b);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_BASE_H */
