/*
 * numbers.h - statistics and bandwidth, the inputs (--values) and their
 * exact sums, the rounding-error bounds of an order of additions, and the
 * counts and shapes a command line gives (wb_parse_count, wb_parse_pair).
 */
#ifndef WB_NUMBERS_H
#define WB_NUMBERS_H

#include <stddef.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The input values (--values). */
typedef enum {
    WB_VALUES_EXACT = 0,  /* integers whose every partial sum is exact in the type: exact checks */
    WB_VALUES_UNIFORM = 1 /* [-1, 1) (float or double): checked against an error bound */
} wb_values;

/* ------------------------------------------------------------------------ */
/* Statistics and bandwidth                                                  */
/* ------------------------------------------------------------------------ */
typedef struct {
    double median, q1, q3, min, max; /* milliseconds */
    int count;
} wb_stats;

/* Sorts samples[0..count) in place and summarises them (count >= 1). */
wb_stats wb_summarize(double *samples, int count);

/* Interquartile range over the median, in percent: the run-to-run spread. */
double wb_spread_pct(wb_stats s);

/* GB/s (10^9 bytes per second) for bytes moved in ms milliseconds. */
double wb_gbps(double bytes, double ms);

/* ------------------------------------------------------------------------ */
/* Input and reference                                                       */
/* ------------------------------------------------------------------------ */
/*
 * The value-range rule: inputs are uniform integers in [0, vmax] with
 * vmax = min(255, floor(INT_MAX / n)), so the exact sum is at most
 * n * vmax <= INT_MAX and an int accumulator never overflows. Returns 0
 * when n > INT_MAX (no positive range fits; labs refuse such n).
 */
int wb_int_value_max(long long n);

/* The seeded generator every input comes from (splitmix64): advances
 * *state and returns the next 64 random bits. */
unsigned long long wb_splitmix64(unsigned long long *state);

/* Fill a[0..n) by the rule above from a seeded generator (splitmix64). */
void wb_fill_ints(int *a, size_t n, unsigned long long seed);

/* Fill a[0..n) with floats in [-1, 1) from a seeded generator. */
void wb_fill_floats(float *a, size_t n, unsigned long long seed);

/* The exact sum of a[0..n), in 64 bits. */
long long wb_sum_ints(const int *a, size_t n);

/*
 * float and double (--type). The exact input (--values exact, the default)
 * follows the int rule with the type's largest exact integer in place of
 * INT_MAX: integers in [0, vmax], vmax = min(255, floor(L / n)) with
 * L = 2^24 (float) or 2^53 (double). Every partial sum, in any order, is then
 * an integer of at most L, exact in the type: the check stays exact, and a
 * dropped element shows. Float above n = 2^24 has no such range (vmax 0):
 * the labs then check against the error bound and say so in the row.
 *
 * The uniform input (--values uniform) draws from [-1, 1) in steps of 2^-24
 * (float) or 2^-52 (double): every value, and every sum of them the type
 * rounds to, is an integer times that step, so the exact sum is an integer
 * sum (wb_exact) and each row's error is exact too.
 */
long long wb_exact_value_max(wb_type t, long long n); /* vmax above; 0: none */
void wb_fill_float_values(float *a, size_t n, wb_values v, unsigned long long seed);
void wb_fill_double_values(double *a, size_t n, wb_values v, unsigned long long seed);

/* The grid of the uniform values: 24 (float: steps of 2^-24) or 52 (double). */
int wb_uniform_step_bits(wb_type t);

/* An exact sum: sum(a[i] * 2^step_bits) as a 128-bit integer (two words),
 * and sum |a[i]| (for the bounds). step_bits 0 for the exact input. */
typedef struct {
    long long hi;          /* the integer is hi * 2^64 + lo */
    unsigned long long lo;
    int step_bits;
    double abs_sum;        /* sum of |a[i]| (rounded to double) */
} wb_exact;

/* The exact sum of a[0..n): every a[i] * 2^step_bits must be an integer
 * (the labs' inputs are). */
wb_exact wb_exact_sum_floats(const float *a, size_t n, int step_bits);
wb_exact wb_exact_sum_doubles(const double *a, size_t n, int step_bits);

/* The input of a float or double run (t) in a[0..n) (wb_fill_float_values or
 * wb_fill_double_values), and its exact sum (uniform values: on their grid). */
wb_exact wb_fill_real(wb_type t, void *a, size_t n, wb_values v, unsigned long long seed);

/* The exact sum as the nearest double; |got - exact sum| (exact while got
 * lies on the grid of 2^-step_bits, as every sum of the inputs does). */
double wb_exact_value(const wb_exact *e);
double wb_exact_error(const wb_exact *e, double got);

/* Unit roundoff u of the type: 2^-24 (float), 2^-53 (double), 0 (int). */
double wb_unit_roundoff(wb_type t);

/* ceil(log2(n)) for n >= 1: the levels of a pairwise tree over n leaves. */
int wb_ceil_log2(long long n);

/*
 * The rounding error bound of an order of additions (Higham, Accuracy and
 * Stability of Numerical Algorithms, ch. 4): each element goes through at
 * most k = (leaf_len - 1) + depth additions, where leaf_len is how many
 * elements one leaf (a thread, a loop) adds in sequence and depth the levels
 * of the tree above the leaves; |error| <= gamma_k * sum|x| with
 * gamma_k = k*u / (1 - k*u), which holds while k*u < 1. The sequential loop
 * is (n, 0): about (n-1)*u*sum|x|; a pairwise tree is (1, ceil(log2 n)):
 * about log2(n)*u*sum|x|. Where k*u >= 1 there is no such bound: the
 * function returns -1 (the float loop above n = 2^24).
 */
double wb_error_bound(wb_type t, long long leaf_len, int depth, double abs_sum);

/* Where there is no bound (k*u >= 1), what a row is checked against
 * instead: a tolerance, not a bound: sqrt(k)*u*sum|x|, the size of k
 * roundings of at most u*sum|x| each whose signs do not line up (they add
 * like a random walk). A sum can be right and miss it only if its roundings
 * all lean one way. */
double wb_error_tolerance(wb_type t, long long leaf_len, int depth, double abs_sum);

/* ------------------------------------------------------------------------ */
/* Numbers on the command line                                               */
/* ------------------------------------------------------------------------ */
/*
 * Parse a count: digits with an optional binary suffix K, M or G (16M =
 * 16*2^20), or a power written 2^k. Returns 0 on success; -1 if it is not
 * such a number or is 0; -2 if it is larger than max.
 */
int wb_parse_count(const char *s, long long max, long long *out);

/* "8192x4096" into nx, ny (each 1..max). Same return values. */
int wb_parse_pair(const char *s, long long max, int *x, int *y);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_NUMBERS_H */
