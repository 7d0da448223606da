/*
 * exercises.cu - lab05's exercises, both modes, in the one file that
 * compiles the student's exercises.cuh (or, built with SOLUTIONS=1, the
 * instructor's): their launchers, their two tables and the reader of the
 * WB_TODO() flag their kernels set (exercises.h).
 */
#include "workbook.h"
#include "exercises.h"
#include "matrix/matrix.h"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

/* Each row: the task, write it or fix it, and the shipped row it is
 * measured against; int only (no .types). Each guards n itself, as
 * reduceSmem does (guards_n: the slots after the n ints hold poison, not
 * zeros); reduceMaxSmem reduces with max (.op). */
static const wb_reduce_kernel exercises[] = {
    WB_EXERCISE(reduceSmemShfl, "write", "reduceSmem",
                "reduceSmem's tree down to one warp, then warp shuffles: no smem, no __syncwarp",
                .per_thread = 1, .guards_n = 1),
    WB_EXERCISE(reduceMaxSmem, "write", "reduceSmem",
                "the same tree with max instead of +: which value changes no maximum?",
                .per_thread = 1, .guards_n = 1, .op = WB_OP_MAX),
    WB_EXERCISE(reduceSmemNoSyncwarp, "fix", "reduceSmem",
                "the last warp unrolled as before Volta, no volatile, no __syncwarp: why wrong?",
                .per_thread = 1, .guards_n = 1),
};

/* The matrix mode's exercise (matrix.h) */
M_LAUNCHER(reduce2DNumba)

/* launched with reduce2D's grid and block (shape); one partial sum per block */
static const m_kernel matrix_exercises[] = {
    {.info = {.name = "reduce2DNumba",
              .lesson = "[matrix] the Numba kernel ported line by line: right on square grids only",
              .kind = "fix", .against = "reduce2D"},
     .launch = run_reduce2DNumba, .shape = lab05_reduce2D_shape, .output = M_TOTAL, .partials = 1},
};

/* The tables (exercises.h) */
extern const wb_table lab05_exercises = WB_TABLE(exercises);
extern const wb_table lab05_matrix_exercises = WB_TABLE(matrix_exercises);

/* The exercises' kernels are compiled here, so the WB_TODO() flag they set
 * is this file's. */
int lab05_exercises_todo_take(void)
{
    return WB_TODO_TAKE();
}
