/*
 * exercises.cu - lab06's exercises, in the one file that compiles the
 * student's exercises.cuh (or, built with SOLUTIONS=1, the instructor's):
 * their launchers, their table and the reader of the WB_TODO() flag their
 * kernels set (exercises.h). Only this file is compiled again when
 * exercises.cuh changes.
 */
#include "workbook.h"
#include "lab06.cuh" /* the row type, LAUNCHER, TILE */
#include "exercises.h"
#ifdef WB_SOLUTIONS
#include "solutions/exercises.cuh"
#else
#include "exercises.cuh" /* the student's */
#endif

LAUNCHER(run_smem32x8, transposeSmem32x8)
LAUNCHER(run_smemRect, transposeSmemRect)
LAUNCHER(run_smemNoSync, transposeSmemNoSync)

/* Each row: the task, write it or fix it, and the shipped row it is
 * measured against; then the fields of lab06.cu's table (t_kernel). */
static const t_kernel exercises[] = {
    {.info = {.name = "transposeSmem32x8",
              .lesson = "the classic tile: 32x32 padded to 33 columns, 32x8 threads",
              .kind = "write", .against = "transposeSmemPad"},
     .launch = run_smem32x8,
     .unroll = 1, .tile = TILE_DIM, .fixed_x = TILE_DIM, .fixed_y = BLOCK_ROWS},
    {.info = {.name = "transposeSmemRect",
              .lesson = "the book's padded smem transpose: a rectangle loses tiles",
              .kind = "fix", .against = "transposeSmemPad"},
     /* one block of BDIMX x BDIMY per BDIMX x BDIMY tile */
     .launch = run_smemRect, .unroll = 1, .fixed_x = BDIMX, .fixed_y = BDIMY},
    {.info = {.name = "transposeSmemNoSync",
              .lesson = "transposeSmem, loops fused: which rows are read too early?",
              .kind = "fix", .against = "transposeSmem"},
     .launch = run_smemNoSync, .unroll = 1, .tile = TILE, .fixed_x = 32, .fixed_y = TILE_ROWS},
};

/* The table (exercises.h) */
extern const wb_table lab06_exercises = WB_TABLE(exercises);

/* The exercises' kernels are compiled here, so the WB_TODO() flag they set
 * is this file's. */
int lab06_exercises_todo_take(void)
{
    return WB_TODO_TAKE();
}
