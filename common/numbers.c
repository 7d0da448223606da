/*
 * numbers.c - statistics (median, quartiles), bandwidth, the inputs (the int value
 * rule, float and double values), exact sums in 128 bits, and the rounding
 * error bounds of an order of additions. C11, no CUDA.
 */
#define _POSIX_C_SOURCE 200809L
#include "numbers.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Statistics                                                                */
/* ------------------------------------------------------------------------ */
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Linear interpolation between the order statistics (p in [0,1]). */
static double quantile(const double *sorted, int count, double p)
{
    double pos = p * (count - 1);
    int lo = (int)floor(pos);
    int hi = lo + 1 < count ? lo + 1 : lo;
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

wb_stats wb_summarize(double *samples, int count)
{
    wb_stats s;
    qsort(samples, (size_t)count, sizeof *samples, cmp_double);
    s.count = count;
    s.min = samples[0];
    s.max = samples[count - 1];
    s.median = quantile(samples, count, 0.5);
    s.q1 = quantile(samples, count, 0.25);
    s.q3 = quantile(samples, count, 0.75);
    return s;
}

double wb_spread_pct(wb_stats s)
{
    return s.median > 0 ? 100.0 * (s.q3 - s.q1) / s.median : 0.0;
}

double wb_gbps(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e6) : 0.0;
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */
long long wb_exact_value_max(wb_type t, long long n)
{
    /* the largest integer the type holds with every smaller one exact */
    long long limit = wb_types[t].exact_max, v;
    if (n < 1 || n > limit)
        return 0;
    v = limit / n;
    return v < 255 ? v : 255;
}

int wb_int_value_max(long long n)
{
    return (int)wb_exact_value_max(WB_INT, n);
}

unsigned long long wb_splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void wb_fill_ints(int *a, size_t n, unsigned long long seed)
{
    unsigned long long state = seed;
    unsigned range = (unsigned)wb_int_value_max((long long)n) + 1u;
    size_t i;
    for (i = 0; i < n; ++i)
        a[i] = (int)((wb_splitmix64(&state) >> 32) % range);
}

void wb_fill_floats(float *a, size_t n, unsigned long long seed)
{
    unsigned long long state = seed;
    size_t i;
    for (i = 0; i < n; ++i) /* 24 random bits: exact in a float */
        a[i] = (float)(wb_splitmix64(&state) >> 40) / 8388608.0f - 1.0f;
}

long long wb_sum_ints(const int *a, size_t n)
{
    long long s = 0;
    size_t i;
    for (i = 0; i < n; ++i)
        s += a[i];
    return s;
}

/* float and double: the exact and the uniform input, their exact sums and
 * the error bounds (contracts in numbers.h). The 128-bit integers are gcc's
 * __int128, kept inside this file. */
int wb_uniform_step_bits(wb_type t)
{
    return wb_types[t].step_bits;
}

/* Value i of the input of type t (float or double) as a double: an integer
 * in [0, vmax] (exact; float above 2^24 has none: uniform), or k * 2^-step
 * with k uniform in [-2^step, 2^step). */
static double next_value(unsigned long long *state, wb_type t, long long vmax, wb_values v)
{
    unsigned long long r = wb_splitmix64(state);
    int step = wb_uniform_step_bits(t);
    if (v == WB_VALUES_EXACT && vmax > 0)
        return (double)((r >> 32) % (unsigned long long)(vmax + 1));
    return ldexp((double)((long long)(r >> (63 - step)) - (1LL << step)), -step);
}

void wb_fill_float_values(float *a, size_t n, wb_values v, unsigned long long seed)
{
    unsigned long long state = seed;
    long long vmax = wb_exact_value_max(WB_FLOAT, (long long)n);
    size_t i;
    for (i = 0; i < n; ++i)
        a[i] = (float)next_value(&state, WB_FLOAT, vmax, v); /* exact: 24 bits at most */
}

void wb_fill_double_values(double *a, size_t n, wb_values v, unsigned long long seed)
{
    unsigned long long state = seed;
    long long vmax = wb_exact_value_max(WB_DOUBLE, (long long)n);
    size_t i;
    for (i = 0; i < n; ++i)
        a[i] = next_value(&state, WB_DOUBLE, vmax, v);
}

static wb_exact exact_pack(__int128 sum, __int128 abs_sum, int step_bits)
{
    wb_exact e;
    e.hi = (long long)(sum >> 64);
    e.lo = (unsigned long long)sum;
    e.step_bits = step_bits;
    e.abs_sum = ldexp((double)abs_sum, -step_bits);
    return e;
}

static __int128 exact_unpack(const wb_exact *e)
{
    return (__int128)(((unsigned __int128)(unsigned long long)e->hi << 64) | e->lo);
}

/* x * 2^step_bits as an integer (x on that grid; truncated otherwise) */
static __int128 on_grid(double x, int step_bits)
{
    return (__int128)ldexp(x, step_bits);
}

/* The exact sum of n floats (is_float) or doubles at a */
static wb_exact exact_sum(const void *a, size_t n, int is_float, int step_bits)
{
    __int128 s = 0, abs_s = 0, k;
    size_t i;
    for (i = 0; i < n; ++i) {
        k = on_grid(is_float ? ((const float *)a)[i] : ((const double *)a)[i], step_bits);
        s += k;
        abs_s += k < 0 ? -k : k;
    }
    return exact_pack(s, abs_s, step_bits);
}

wb_exact wb_exact_sum_floats(const float *a, size_t n, int step_bits)
{
    return exact_sum(a, n, 1, step_bits);
}

wb_exact wb_exact_sum_doubles(const double *a, size_t n, int step_bits)
{
    return exact_sum(a, n, 0, step_bits);
}

wb_exact wb_fill_real(wb_type t, void *a, size_t n, wb_values v, unsigned long long seed)
{
    WB_BY_TYPE(t, (void)0, wb_fill_float_values(a, n, v, seed),
               wb_fill_double_values(a, n, v, seed));
    return exact_sum(a, n, t == WB_FLOAT, v == WB_VALUES_UNIFORM ? wb_uniform_step_bits(t) : 0);
}

double wb_exact_value(const wb_exact *e)
{
    return ldexp((double)exact_unpack(e), -e->step_bits);
}

double wb_exact_error(const wb_exact *e, double got)
{
    __int128 d;
    if (!isfinite(got) || fabs(ldexp(got, e->step_bits)) >= ldexp(1.0, 120))
        return INFINITY; /* no sum of the labs' inputs comes near 2^120 */
    d = on_grid(got, e->step_bits) - exact_unpack(e);
    return ldexp((double)(d < 0 ? -d : d), -e->step_bits);
}

double wb_unit_roundoff(wb_type t)
{
    return wb_types[t].roundoff_bits ? ldexp(1.0, -wb_types[t].roundoff_bits) : 0.0;
}

int wb_ceil_log2(long long n)
{
    int d = 0;
    while (d < 62 && (1LL << d) < n)
        ++d;
    return d;
}

double wb_error_bound(wb_type t, long long leaf_len, int depth, double abs_sum)
{
    double ku = (double)((leaf_len > 0 ? leaf_len - 1 : 0) + depth) * wb_unit_roundoff(t);
    return ku < 1.0 ? ku / (1.0 - ku) * abs_sum : -1.0;
}

double wb_error_tolerance(wb_type t, long long leaf_len, int depth, double abs_sum)
{
    double k = (double)((leaf_len > 0 ? leaf_len - 1 : 0) + depth);
    return sqrt(k) * wb_unit_roundoff(t) * abs_sum;
}

/* ------------------------------------------------------------------------ */
/* Numbers on the command line                                               */
/* ------------------------------------------------------------------------ */
int wb_parse_count(const char *s, long long max, long long *out)
{
    const char *p = s;
    unsigned long long v = 0;
    if (!isdigit((unsigned char)*p))
        return -1;                       /* no sign, no blank, no empty */
    while (isdigit((unsigned char)*p)) {
        if (v > 100000000000000000ULL)   /* 1e17: stays far from overflow */
            return -2;
        v = v * 10 + (unsigned)(*p++ - '0');
    }
    if (*p == '^') {                     /* 2^k */
        long long k;
        if (v != 2 || !isdigit((unsigned char)p[1]))
            return -1;
        k = 0;
        for (++p; isdigit((unsigned char)*p); ++p) {
            k = k * 10 + (*p - '0');
            if (k > 62)
                return -2;
        }
        if (*p != '\0')
            return -1;
        v = 1ULL << k;
    } else if (*p != '\0') {
        unsigned shift;
        switch (*p) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        default: return -1;
        }
        ++p;
        if (*p == 'i' || *p == 'B')      /* accept 16Mi and 16MB as 16M too */
            ++p;
        if (*p != '\0')
            return -1;
        if (v > (1ULL << 40))
            return -2;
        v <<= shift;
    }
    if (v == 0)
        return -1;
    if (v > (unsigned long long)max)
        return -2;
    *out = (long long)v;
    return 0;
}

int wb_parse_pair(const char *s, long long max, int *x, int *y)
{
    char buf[64];
    const char *sep = strchr(s, 'x');
    long long a, b;
    int ra, rb;
    if (!sep)
        sep = strchr(s, 'X');
    if (!sep || (size_t)(sep - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(sep - s));
    buf[sep - s] = '\0';
    ra = wb_parse_count(buf, max, &a);
    rb = wb_parse_count(sep + 1, max, &b);
    if (ra == -1 || rb == -1)
        return -1;
    if (ra == -2 || rb == -2)
        return -2;
    *x = (int)a;
    *y = (int)b;
    return 0;
}
