/*
 * test_lab01.c - CPU tests of lab01's reductions: every variant against the
 * exact 64-bit reference at every length 1..64, primes, 2^k-1, 2^k, 2^k+1 and
 * a large odd length, with a guard element after the array to catch writes
 * past the end. Prints "ok"/"FAIL" lines for tests/run.
 */
#define _POSIX_C_SOURCE 200809L
#include "reduce_cpu.h"
#include "workbook.h"

#include <stdlib.h>
#include <string.h>

#define GUARD 0x5A5A5A5A

typedef struct {
    const char *name;
    int (*reduce)(int *a, size_t n);
} variant;

static const variant variants[] = {
    {"sequential", reduce_sequential},
    {"recursiveNeighbored", reduce_recursive_neighbored},
    {"recursiveInterleaved", reduce_recursive_interleaved},
    {"iterativeNeighbored", reduce_iterative_neighbored},
    {"iterativeInterleaved", reduce_iterative_interleaved},
};

static int failures;

/* Returns 1 if every variant gives the exact sum at length n and leaves the
 * guard alone; prints the first failure. */
static int all_variants_at(size_t n, unsigned long long seed)
{
    int *input = malloc(n * sizeof(int)), *work = malloc((n + 1) * sizeof(int));
    long long expected;
    size_t v;
    int good = 1;
    wb_fill_ints(input, n, seed);
    expected = wb_sum_ints(input, n);
    for (v = 0; v < sizeof variants / sizeof variants[0]; ++v) {
        int got;
        memcpy(work, input, n * sizeof(int));
        work[n] = GUARD;
        got = variants[v].reduce(work, n);
        if (got != expected || work[n] != GUARD) {
            printf("FAIL %s at n = %zu: sum %d, expected %lld%s\n", variants[v].name, n, got, expected,
                   work[n] != GUARD ? ", wrote past the end" : "");
            good = 0;
            ++failures;
        }
    }
    free(input);
    free(work);
    return good;
}

static void lengths(const char *label, const size_t *ns, int count)
{
    int i, good = 1;
    for (i = 0; i < count; ++i)
        good &= all_variants_at(ns[i], 7 + ns[i]);
    if (good)
        printf("ok every variant exact at %s\n", label);
}

int main(void)
{
    size_t ns[256];
    int count = 0, k;
    static const size_t primes[] = {2, 3, 5, 7, 11, 13, 17, 31, 61, 97, 127, 251, 509, 1021, 4093, 65521, 1000003};

    for (k = 1; k <= 64; ++k)
        ns[count++] = (size_t)k;
    lengths("every length 1..64", ns, count);
    lengths("primes up to 1000003", primes, (int)(sizeof primes / sizeof primes[0]));
    count = 0;
    for (k = 1; k <= 20; ++k) {
        ns[count++] = ((size_t)1 << k) - 1;
        ns[count++] = (size_t)1 << k;
        ns[count++] = ((size_t)1 << k) + 1;
    }
    lengths("2^k-1, 2^k, 2^k+1 for k = 1..20", ns, count);
    ns[0] = (1u << 22) + 7;
    lengths("a large odd length (2^22 + 7)", ns, 1);

    /* the largest value the rule allows everywhere: the sum is INT_MAX-ish */
    {
        size_t n = 8421504; /* INT_MAX / 255 */
        int *a = malloc(n * sizeof(int));
        size_t i;
        int good = 1;
        size_t v;
        for (v = 0; v < sizeof variants / sizeof variants[0]; ++v) {
            for (i = 0; i < n; ++i)
                a[i] = 255;
            if (variants[v].reduce(a, n) != 2147483520) {
                printf("FAIL %s: all-255 input of length %zu does not sum to 2147483520\n", variants[v].name, n);
                good = 0;
                ++failures;
            }
        }
        if (good)
            printf("ok every variant exact at the largest sum the value rule allows (8421504 x 255)\n");
        free(a);
    }

    /* one level of each pairing, by hand */
    {
        int a[5] = {1, 2, 3, 4, 5}, b[5] = {1, 2, 3, 4, 5};
        size_t h;
        neighbored_level(a, 5, 1);
        h = interleaved_level(b, 5);
        if (a[0] == 3 && a[2] == 7 && a[4] == 5 && a[1] == 2 && h == 3 && b[0] == 5 && b[1] == 7 && b[2] == 3)
            printf("ok one level of each pairing on {1,2,3,4,5}\n");
        else {
            printf("FAIL one level of each pairing on {1,2,3,4,5}: neighbored %d %d %d, interleaved h=%zu %d %d %d\n",
                   a[0], a[2], a[4], h, b[0], b[1], b[2]);
            ++failures;
        }
    }
    return failures ? 1 : 0;
}
