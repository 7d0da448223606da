/*
 * solutions/exercises.c - the instructor's solutions to lab01's exercises, in
 * the shape of the student's exercises.c (same names, same contracts).
 * `make lab01 SOLUTIONS=1` builds the lab with this file instead; a run's CSV
 * then says `cpu+solutions` in its build column. Not in the students' copy
 * (make handout).
 */
#include "workbook.h"
#include "exercises.h"

/* Exercise 1 (fix it): with an odd size, stride = size / 2 pairs elements
 * 0..stride-1 with stride..2*stride-1 and leaves data[size-1] out: the book's
 * version drops it, and the recursion never sees it again. Add it into
 * data[0] (any element of the first `stride` would do) before recursing. */
int recursiveReduceBook(int *data, size_t size)
{
    /* terminate check */
    if (size == 1)
        return data[0];

    /* renew the stride */
    size_t const stride = size / 2;

    /* in-place reduction */
    for (size_t i = 0; i < stride; i++)
        data[i] += data[i + stride];

    /* odd size: the last element has no partner; carry it over */
    if (size % 2 == 1)
        data[0] += data[size - 1];

    /* call recursively */
    return recursiveReduceBook(data, stride);
}

/* Exercise 2 (write it): halves until a piece is one block, then a loop.
 * Reads a[] only; one call per block (about 2n / PAIRWISE_BLOCK calls). */
#define PAIRWISE_BLOCK 16 /* a piece this long or shorter: a plain loop */

int pairwiseBlocked(int *a, size_t n)
{
    if (n <= PAIRWISE_BLOCK) {
        int s = 0;
        for (size_t i = 0; i < n; i++)
            s += a[i];
        return s;
    }
    size_t const half = n / 2;
    return pairwiseBlocked(a, half) + pairwiseBlocked(a + half, n - half);
}

/* Exercise 3 (write it): four chains of additions, independent of each other,
 * then the n % 4 elements left over. */
int sequentialUnroll4(int *a, size_t n)
{
    int s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i;
    for (i = 0; i + 3 < n; i += 4) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
    }
    for (; i < n; i++) /* the leftovers: n % 4 of them */
        s0 += a[i];
    return (s0 + s1) + (s2 + s3);
}
