/*
 * reduce_cpu.h - the CPU reductions of lab01: one sequential loop and the
 * two pairing patterns of the GPU labs, each recursive and iterative, in
 * int (below), float and double (the end of this file).
 *
 * Every function sums a[0..n) (n >= 1) and returns the sum as an int, as the
 * book does; the caller keeps the exact sum inside int (workbook.h's value
 * rule). The pairing functions work IN PLACE: they overwrite a[] with
 * partial sums (a[0] ends as the total) and copy nothing.
 */
#ifndef REDUCE_CPU_H
#define REDUCE_CPU_H

#include <stddef.h>

/* for (i = 0; i < n; i++) s += a[i]; */
int reduce_sequential(int *a, size_t n);

/* Neighbored pairing: at stride s (1, 2, 4, ...) a[i] += a[i + s] for every
 * i that is a multiple of 2s with i + s < n. A partner past the end means
 * the element carries over to the next level unchanged (odd lengths). */
int reduce_recursive_neighbored(int *a, size_t n);
int reduce_iterative_neighbored(int *a, size_t n);

/* Interleaved pairing: with h = ceil(n/2), a[i] += a[i + h] for i < n - h;
 * then the same on a[0..h). For odd n the middle element a[h-1] has no
 * partner and carries over. */
int reduce_recursive_interleaved(int *a, size_t n);
int reduce_iterative_interleaved(int *a, size_t n);

/* One level of each pairing, for --trace and the tests: returns the number
 * of live elements after the level (interleaved), or applies stride s
 * (neighbored). */
void neighbored_level(int *a, size_t n, size_t stride);
size_t interleaved_level(int *a, size_t n);

/* Every function above in float and double, the same code (reduce_cpu_t.h):
 * reduce_sequential_float, reduce_sequential_double, and so on. The input
 * keeps every partial sum exact (workbook.h), or the sum is checked against
 * the rounding bound of the function's order of additions. Plus Kahan's
 * compensated sum (not in place), for the lesson on accuracy. */
#define REDUCE_CPU_DECLARE(T, suffix)                               \
    T reduce_sequential##suffix(T *a, size_t n);                    \
    T reduce_recursive_neighbored##suffix(T *a, size_t n);          \
    T reduce_iterative_neighbored##suffix(T *a, size_t n);          \
    T reduce_recursive_interleaved##suffix(T *a, size_t n);         \
    T reduce_iterative_interleaved##suffix(T *a, size_t n);         \
    void neighbored_level##suffix(T *a, size_t n, size_t stride);   \
    size_t interleaved_level##suffix(T *a, size_t n);               \
    T reduce_kahan##suffix(const T *a, size_t n);
REDUCE_CPU_DECLARE(float, _float)
REDUCE_CPU_DECLARE(double, _double)

#endif
