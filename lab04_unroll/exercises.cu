/*
 * exercises.cu - lab04's exercises, in the one file that compiles the
 * student's exercises.cuh (or, built with SOLUTIONS=1, the instructor's):
 * the grid and the launch of the one that is host code, their table and the
 * reader of the WB_TODO() flag their kernels set (exercises.h). Only this
 * file is compiled again when exercises.cuh changes.
 */
#include "workbook.h"
#include "reduce_unroll.cuh" /* reduceUnrolling8, launched with the student's grid */
#include "exercises.h"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

/* the student's grid, launched with the shipped reduceUnrolling8 */
static unsigned grid_unrolling8Grid(unsigned n, unsigned block, const wb_gpu *g, wb_type type)
{
    (void)g;
    (void)type; /* an exercise: int only */
    return grid_reduceUnrolling8Grid(n, block);
}

static void launch_reduceUnrolling8Grid(void *data, void *partial, unsigned n, unsigned grid,
                                        unsigned block, wb_type type)
{
    (void)type; /* an exercise: int only */
    if (grid == 0) /* the book's grid for n < 8 * block: nothing is launched, nothing summed */
        return;
    reduceUnrolling8<<<grid, block>>>((int *)data, (int *)partial, n);
    CHECK_LAUNCH("reduceUnrolling8 with the grid of grid_reduceUnrolling8Grid");
}

/* Each row: the task, write it or fix it, and the shipped row it is
 * measured against; int only (no .types). guards_n: the slots after the n
 * ints hold poison, not zeros, so a kernel that reads past n fails. */
static const wb_reduce_kernel exercises[] = {
    WB_EXERCISE(reduceUnrolling16, "write", "reduceUnrolling8",
                "16 elements per thread: are 16 loads in flight faster than 8?",
                .per_thread = 16, .in_place = 1),
    /* the shipped kernel with the student's grid: its own launch */
    {.info = {.name = "reduceUnrolling8Grid",
              .lesson = "n/block/8 blocks, the book's grid for reduceUnrolling8 as often copied: what is lost?",
              .kind = "fix", .against = "reduceUnrolling8"},
     .launch = launch_reduceUnrolling8Grid, .min_block = 32, .max_block = 1024, .per_thread = 8,
     .in_place = 1, .grid_for = grid_unrolling8Grid},
    WB_EXERCISE(reduceUnrolling4Tail, "fix", "reduceUnrolling4",
                "the book's reduceUnrolling4 when nothing past n is zero",
                .per_thread = 4, .in_place = 1, .guards_n = 1),
};

/* The table (exercises.h) */
extern const wb_table lab04_exercises = WB_TABLE(exercises);

/* The exercises' kernels are compiled here, so the WB_TODO() flag they set
 * is this file's. */
int lab04_exercises_todo_take(void)
{
    return WB_TODO_TAKE();
}
