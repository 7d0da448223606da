/*
 * workbook.c - the small helpers every part of common/ uses: a table's i-th
 * row, powers of two, ceilings, the clock, the CPU's todo flag.
 * Builds with gcc alone (lab01 and the CPU tests link it without CUDA).
 */
#define _POSIX_C_SOURCE 200809L
#include "workbook.h"

#include <time.h>

const wb_kernel_info *wb_table_at(wb_table t, int i)
{
    return (const wb_kernel_info *)((const char *)t.first + (size_t)i * t.stride);
}

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */
int wb_is_pow2(long long x) { return x >= 1 && (x & (x - 1)) == 0; }

long long wb_ceil_div(long long a, long long b) { return (a + b - 1) / b; }

double wb_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int wb_cpu_todo;
