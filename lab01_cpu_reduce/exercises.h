/*
 * exercises.h - the functions of lab01's exercises. You write them in
 * exercises.c; lab01.c runs them beside the versions in reduce_cpu.c.
 *
 * The contract is the one of reduce_cpu.h: sum a[0..n) (n >= 1) and return
 * the sum as an int (the inputs keep the exact sum inside int). A function
 * may work in place (overwrite a[]) or not; it must not read or write past
 * a[n-1].
 */
#ifndef LAB01_EXERCISES_H
#define LAB01_EXERCISES_H

#include <stddef.h>

/* Exercise 1 (fix it): the book's recursive interleaved pairing. */
int recursiveReduceBook(int *data, size_t size);

/* Exercise 2 (write it): halves down to blocks of PAIRWISE_BLOCK, then a loop. */
int pairwiseBlocked(int *a, size_t n);

/* Exercise 3 (write it): one loop with four independent accumulators. */
int sequentialUnroll4(int *a, size_t n);

#endif
