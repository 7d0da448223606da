/*
 * reduce_cpu.c - lab01's reductions. Contracts in reduce_cpu.h.
 *
 * Differs from well-known versions: their interleaved recursion assumed a power
 * of two (an odd length silently dropped an element), and one version took a
 * std::vector by value, copying the whole array at every level. Here odd
 * lengths carry their unpaired element over, and nothing is copied.
 */
#include "reduce_cpu.h"

int reduce_sequential(int *a, size_t n)
{
    int s = 0;
    size_t i;
    for (i = 0; i < n; ++i)
        s += a[i];
    return s;
}

void neighbored_level(int *a, size_t n, size_t stride)
{
    size_t i;
    for (i = 0; i + stride < n; i += 2 * stride)
        a[i] += a[i + stride];
}

size_t interleaved_level(int *a, size_t n)
{
    size_t half = (n + 1) / 2, i; /* live elements after this level */
    for (i = 0; i + half < n; ++i)
        a[i] += a[i + half];
    return half;
}

/* a[0], a[2s], a[4s], ... hold the partial sums at stride s. */
static int neighbored_from(int *a, size_t n, size_t stride)
{
    if (stride >= n)
        return a[0];
    neighbored_level(a, n, stride);
    return neighbored_from(a, n, 2 * stride);
}

int reduce_recursive_neighbored(int *a, size_t n)
{
    return neighbored_from(a, n, 1);
}

int reduce_iterative_neighbored(int *a, size_t n)
{
    size_t stride;
    for (stride = 1; stride < n; stride *= 2)
        neighbored_level(a, n, stride);
    return a[0];
}

int reduce_recursive_interleaved(int *a, size_t n)
{
    if (n == 1)
        return a[0];
    return reduce_recursive_interleaved(a, interleaved_level(a, n));
}

int reduce_iterative_interleaved(int *a, size_t n)
{
    while (n > 1)
        n = interleaved_level(a, n);
    return a[0];
}
