/*
 * exercises.cu - lab02's exercises, in the one file that compiles the
 * student's exercises.cuh (or, built with SOLUTIONS=1, the instructor's):
 * their table and the reader of the WB_TODO() flag their kernels set
 * (exercises.h). Only this file is compiled again when exercises.cuh changes.
 */
#include "workbook.h"
#include "exercises.h"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

/* Each row: the task, write it or fix it, and the shipped row it is
 * measured against; int only (no .types). guards_n: the slots after the n
 * ints hold poison, not zeros, so a kernel that reads past n fails. */
static const wb_reduce_kernel exercises[] = {
    WB_EXERCISE(reduceNeighboredMask, "write", "reduceNeighbored",
                "tid & (2*stride - 1) for the %: how much of the gap is the %?",
                .per_thread = 1, .in_place = 1),
    WB_EXERCISE(reduceNeighboredEarlyExit, "fix", "reduceNeighbored",
                "the book's if (idx >= n) return; when nothing past n is zero",
                .per_thread = 1, .in_place = 1, .guards_n = 1),
    WB_EXERCISE(reduceNeighboredLessOut, "fix", "reduceNeighboredLess",
                "reduceNeighboredLess whose partial sums go astray",
                .per_thread = 1, .in_place = 1),
};

/* The table (exercises.h) */
extern const wb_table lab02_exercises = WB_TABLE(exercises);

/* The exercises' kernels are compiled here, so the WB_TODO() flag they set
 * is this file's. */
int lab02_exercises_todo_take(void)
{
    return WB_TODO_TAKE();
}
