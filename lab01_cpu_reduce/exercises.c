/*
 * exercises.c - YOUR exercises for lab01 (reduction on the CPU). This is the
 * file you edit.
 *
 *   make lab01 && ./lab01 --exercises     each exercise's row right under the row of the
 *                                         version it is measured against: todo, PASS or FAIL
 *   ./lab01 -k pairwiseBlocked            one exercise (and its reference row)
 *   ./lab01 --exercises -n 17             another length: a correct function passes them all
 *
 * Two kinds of exercise:
 *   write it  a stub whose body is WB_TODO(). Until you delete that line the
 *             row says `todo` (not run, not timed). Then it is checked exactly
 *             against the 64-bit sum like every version, and timed the same way.
 *   fix it    a function as a well-known version has it, bug included. As
 *             shipped it FAILs: find the bug, fix it, and the row says PASS.
 * --exercises runs at n = 16777213 (2^24 - 3) unless you give -n: an odd
 * length, and no multiple of 4 or 16, so a dropped element shows. Try other
 * lengths too (-n 1, 2, 3, 17, 1000003): a correct function passes them all.
 *
 * The contract is the one of reduce_cpu.h: sum a[0..n) (n >= 1) and return
 * the sum as an int (the inputs keep the exact sum inside int). You may work
 * in place (overwrite a[]; the program restores it before every run) or not.
 * Read nothing past a[n-1]: the elements after it hold garbage (0x55555555),
 * so a function that reads them gets a wrong sum, and one that writes them
 * FAILs.
 *
 * Handing in: `make handin NAME=yourname` writes the CSV of every lab's
 * --exercises run. The chapter's Exercises section: docs/lab01.md.
 */
#include "workbook.h"
#include "exercises.h"

/* -------------------------------------------------------------------------- */
/* Exercise 1 (fix it): recursiveReduceBook                                    */
/* -------------------------------------------------------------------------- */
/*
 * The CPU reduction of the book (Cheng et al., Professional CUDA C
 * Programming, ch. 3, recursiveReduce): interleaved pairing, element i adds
 * element i + stride, then the same on the first `stride` elements. As
 * shipped the row FAILs at n = 16777213 but passes at n = 2^24. Trace it by
 * hand on 5 elements (or run ./lab01 --trace -n 5 and compare with the
 * interleaved pairing there): where does the fifth element go?
 *
 * Measured against recursiveInterleaved. PASS: the exact sum at every n >= 1.
 */
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

    /* call recursively */
    return recursiveReduceBook(data, stride);
}

/* -------------------------------------------------------------------------- */
/* Exercise 2 (write it): pairwiseBlocked                                      */
/* -------------------------------------------------------------------------- */
/*
 * A pairwise sum that stops halving early: split a[0..n) into two halves,
 * sum each half the same way (recursively), and add the two sums; a piece of
 * PAIRWISE_BLOCK elements or fewer is summed with a plain loop instead. This
 * is how NumPy sums an array (its pieces are 128 elements; ours are 16): the
 * additions follow the pairwise tree, so the rounding error of a float sum
 * grows like log2(n) instead of n (question 4 in the chapter), yet there is
 * one call per block, not one per element.
 *
 * Hint: the halves need not be equal: n / 2 and n - n / 2 cover any n. No
 * copy, no extra array: a pointer and a length describe each half.
 *
 * Measured against sequential. PASS: the exact sum at every n >= 1.
 */
#define PAIRWISE_BLOCK 16 /* a piece this long or shorter: a plain loop */

int pairwiseBlocked(int *a, size_t n)
{
    (void)a; /* (these two lines only keep the compiler quiet about the unused */
    (void)n; /*  arguments: delete them with WB_TODO) */
    WB_TODO(); /* delete this line, then write the function */
}

/* -------------------------------------------------------------------------- */
/* Exercise 3 (write it): sequentialUnroll4                                    */
/* -------------------------------------------------------------------------- */
/*
 * The sequential loop with four accumulators: s0 adds a[i], s1 adds a[i+1],
 * s2 a[i+2] and s3 a[i+3], i stepping by 4; then the elements left over when
 * n is not a multiple of 4; return s0 + s1 + s2 + s3. The plain loop is one
 * chain of additions, each waiting for the one before; here four independent
 * chains are in flight at once, which is lab04's lesson (more independent
 * work in flight) on one CPU core.
 *
 * Hint: stop the four-wide loop while all four of a[i], ..., a[i+3] exist
 * (i + 3 < n, or i + 4 <= n), and let a second loop take the rest. Before you
 * measure, predict the speedup from the table's sequential row.
 *
 * Measured against sequential. PASS: the exact sum at every n >= 1.
 */
int sequentialUnroll4(int *a, size_t n)
{
    (void)a; /* (these two lines only keep the compiler quiet about the unused */
    (void)n; /*  arguments: delete them with WB_TODO) */
    WB_TODO(); /* delete this line, then write the function */
}
