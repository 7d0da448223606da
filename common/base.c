/*
 * base.c - powers of two, ceilings and the monotonic clock.
 * C11, no CUDA.
 */
#define _POSIX_C_SOURCE 200809L
#include "base.h"

#include <time.h>

int wb_is_pow2(long long x) { return x >= 1 && (x & (x - 1)) == 0; }

long long wb_ceil_div(long long a, long long b) { return (a + b - 1) / b; }

double wb_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
