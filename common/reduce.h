/*
 * reduce.h - the reduction labs (02-05): the row of a kernel table
 * (wb_reduce_kernel, WB_KERNEL, WB_EXERCISE), the launchers' macros, and the
 * runner that verifies and times the rows. Declared only when the including
 * file is compiled by nvcc.
 */
#ifndef WB_REDUCE_H
#define WB_REDUCE_H

#ifdef __CUDACC__
#include "args.h"
#include "gpu.h"
#include "lab.h"
#include "program.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* The reduction harness of labs 02-05                                     */
/* ---------------------------------------------------------------------- */
/*
 * One first pass: reduce data[0..n) to one partial sum per block in
 * partial[0..grid). `data` holds n ints followed by zeros up to
 * grid * block * per_thread (the identity pads every block to whole), so an
 * in-place tree may read its whole block without a bounds test. A one-pass
 * kernel writes the final sum to partial[0] instead.
 */
typedef void (*wb_reduce_launch)(void *data, void *partial, unsigned n,
                                 unsigned grid, unsigned block, wb_type type);

typedef struct {
    wb_kernel_info info;
    wb_reduce_launch launch;
    unsigned min_block, max_block; /* accepted power-of-two blocks */
    unsigned per_thread;  /* elements each thread adds before the tree: the
                             grid is ceil(n / (block * per_thread)) */
    int in_place;         /* overwrites data: restored before every repetition */
    int one_pass;         /* the launch leaves the final sum in partial[0] */
    /* For kernels whose grid is not ceil(n / (block * per_thread)) (a
     * grid-stride loop sized to the device): return it; else NULL. */
    unsigned (*grid_for)(unsigned n, unsigned block, const wb_gpu *g, wb_type type);
    /* The kernel checks n itself: the padding after the n ints is filled
     * with poison (0x55555555), not zeros, so a kernel that reads past n
     * gives a wrong sum. 0: zero padding, as the book's kernels assume. */
    int guards_n;
    int op; /* WB_OP_SUM (0) or WB_OP_MAX: what the kernel reduces with */
    /* the element types it runs in: a mask of WB_TYPE_BIT(t) (types.h), such
     * as WB_ALL_TYPES; 0 means int only (an exercise: the student writes an
     * int kernel). A run in another type is refused (wb_reduce_check_rows). */
    unsigned types;
    /* 1: one pairwise tree over the whole input (gpuRecursiveReduce), not
     * per-block trees and a finish: its rounding bound is the tree's */
    int pairwise;
} wb_reduce_kernel;

enum { WB_OP_SUM = 0, WB_OP_MAX = 1 };

/* A row of a kernel table: the name, the lesson and the launch, at any block
 * of 32..1024; then the fields in which the rows differ, named, in the
 * order of the struct above (a field left out is 0):
 *     WB_KERNEL("reduceUnrolling8", "8 elements per thread: ...",
 *               launch_reduceUnrolling8, .per_thread = 8, .in_place = 1, .types = WB_ALL_TYPES) */
#define WB_KERNEL(name_, lesson_, launch_, ...)                                                 \
    {.info = {.name = name_, .lesson = lesson_}, .launch = launch_, .min_block = 32,             \
     .max_block = 1024, __VA_ARGS__}
/* An exercise's row (CUDA labs): the student's int kernel KERNEL(int
 * *g_idata, int *g_odata, unsigned int n), whose name is the row's, "write"
 * (a kernel to write) or "fix" (a famous bug to fix), the shipped row it is
 * measured against, the task; then as WB_KERNEL (int only: no .types). Its
 * launch is KERNEL<<<grid, block>>> on the ints, checked (WB_INT_LAUNCH). */
#define WB_EXERCISE(kernel, kind_, against_, task_, ...)                                         \
    {.info = {.name = #kernel, .lesson = task_, .kind = kind_, .against = against_},             \
     .launch = WB_INT_LAUNCH(kernel), .min_block = 32, .max_block = 1024, __VA_ARGS__}
#define WB_INT_LAUNCH(kernel)                                                                    \
    [](void *data, void *partial, unsigned n, unsigned grid, unsigned block, wb_type) {          \
        kernel<<<grid, block>>>((int *)data, (int *)partial, n);                                 \
        CHECK_LAUNCH(#kernel);                                                                   \
    }

/* --finish host|device (labs 02-04: their kernels can be relaunched on
 * their own partial sums; wb_reduce_notes says how often). */
extern const wb_choice wb_finish_choice;

/* The wb_lab of a reduction lab (labs 02-05): an int input of any length up
 * to INT_MAX (so that the exact sum fits), blocks of 32..1024 threads with
 * 512 by default (as the book), 20 repetitions; `exercises` is
 * WB_TABLE(the exercise array) or WB_NO_EXERCISES, `file` the student file. */
#define WB_REDUCTION_LAB(name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(NULL, WB_TODO_TAKE, name, title, extra_flag, extra_help, table, file, exercises)
/* The same for labs 02-04, which also take --finish host|device. */
#define WB_RELAUNCHING_LAB(name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(&wb_finish_choice, WB_TODO_TAKE, name, title, extra_flag, extra_help, table, file, exercises)
/* The same two for a lab whose exercises are compiled in a file of their own
 * (the lab's exercises.cu): `todo` is that file's reader of the WB_TODO() flag,
 * `exercises` the wb_table it exports. */
#define WB_REDUCTION_LAB_APART(todo, name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(NULL, todo, name, title, extra_flag, extra_help, table, file, exercises)
#define WB_RELAUNCHING_LAB_APART(todo, name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(&wb_finish_choice, todo, name, title, extra_flag, extra_help, table, file, exercises)
/* (variadic: `exercises` arrives with the commas of WB_TABLE expanded) */
#define WB_REDUCTION_LAB_(choice_, todo_, name_, title_, flag_, help_, table_, file_, ...)       \
    {                                                                                           \
        .lab = name_, .title = title_, .shape = WB_LENGTH, .default_n = 1 << 24,                \
        .max_n = WB_INT_MAX, .max_n_reason = "the exact int sum must fit in an int",            \
        .n_words = "elements to reduce",                                                        \
        .default_block_x = 512, .uses_block = 1, .default_reps = 20, .extra_flag = flag_,       \
        .extra_help = help_, .kernels = WB_TABLE(table_), .exercises = __VA_ARGS__,             \
        .exercise_file = file_, .exercise_n = WB_EXERCISE_N, .todo_take = todo_,                \
        .types = WB_ALL_TYPES, .choice = choice_, .gpu_trace = 1                                \
    }

/* The grid the harness will launch kernel k with. */
unsigned wb_reduce_grid(const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                        wb_type type);

/*
 * Refuse (exit 2, one line naming the constraint) what a selected row
 * cannot take, before the device opens: a block outside its min_block ..
 * max_block, or an element type outside its .types. A program's check_args.
 */
void wb_reduce_check_rows(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows);

/*
 * The runner of the reduction labs (program.h). Each input: the n elements
 * (wb_fill_ints, or the float and double inputs) padded for every kernel,
 * block and finish of the run; each row verified exactly against the CPU
 * sum (partials poisoned first; a partial left poisoned fails), its first
 * pass timed with events and the whole reduction (the host adds the
 * partials; with --finish device the kernel is relaunched on them until one
 * value remains, every level padded and poisoned like the input) with the
 * host clock, and the last run checked again.
 */
extern const wb_runner wb_reduce_runner;

/* After wb_main_rows, before the lab's own notes: with --finish device, the
 * total's words and the launches of each reduction under the table. */
void wb_reduce_notes(wb_run *run);

/* The main of a reduction lab with nothing to add: wb_main_rows,
 * wb_reduce_notes, wb_main_end. */
int wb_reduce_main(const wb_program *p, int argc, char **argv);

/* A reduction program: lab_'s tables on the GPU with the runner above and
 * the block check; then the program's own fields (.explain, ...). */
#define WB_REDUCTION_PROGRAM(lab_, ...)                                                          \
    {.lab = &(lab_), .runner = &wb_reduce_runner,                                                \
     .check_args = wb_reduce_check_rows, __VA_ARGS__}

/* launch_KERNEL for a template kernel KERNEL<T>(T *g_idata, T *g_odata,
 * unsigned int n): the instance of the run's element type (wb_with_type,
 * below), its launch checked. `shared` is the dynamic shared memory per
 * thread, in elements (0: none). Written out, it is
 * kernels/reduce_neighbored.cuh's launch_reduceNeighbored. */
#define WB_REDUCE_LAUNCHER_T(kernel, shared)                                                \
    static inline void launch_##kernel(void *data, void *partial, unsigned n, unsigned grid, \
                                       unsigned block, wb_type type)                        \
    {                                                                                       \
        wb_with_type(type, [&](auto z) {                                                    \
            using T = decltype(z);                                                          \
            kernel<T><<<grid, block, (shared) * block * sizeof(T)>>>((T *)data,              \
                                                                     (T *)partial, n);      \
        });                                                                                 \
        CHECK_LAUNCH(#kernel);                                                              \
    }

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* __CUDACC__ */

#endif /* WB_REDUCE_H */
