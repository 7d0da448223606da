/*
 * lab.h - what a lab is: its kernel tables (wb_kernel_info, wb_table, the
 * row a lab's own struct starts with) and wb_lab, what its command line
 * accepts and its defaults, with the wb_lab of the reduction labs as macros.
 */
#ifndef WB_LAB_H
#define WB_LAB_H

#include <stddef.h>

#include "base.h"
#include "todo.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Kernel tables. A lab's table is an array of its own struct whose FIRST    */
/* member is a wb_kernel_info; WB_TABLE(arr) describes it to the common code */
/* so that --list, -k, the rows and the tests all come from one place.       */
/* ------------------------------------------------------------------------ */
typedef struct {
    const char *name;   /* as in the book: "reduceNeighbored" */
    const char *lesson; /* one line: what this kernel shows (an exercise: the task) */
    /* exercises only (NULL for the kernels a lab ships): */
    const char *kind;    /* "write" (a kernel to write) or "fix" (a famous bug to fix) */
    const char *against; /* the shipped kernel whose row it is measured against */
} wb_kernel_info;

typedef struct {
    const void *first; /* address of element 0's wb_kernel_info */
    size_t stride;     /* sizeof one element */
    int count;
} wb_table;

#define WB_TABLE(arr) \
    { &(arr)[0].info, sizeof((arr)[0]), (int)(sizeof(arr) / sizeof((arr)[0])) }

/* The i-th kernel's name and lesson. */
const wb_kernel_info *wb_table_at(wb_table t, int i);

/* The index of the row named name[0..len) in t, or -1. */
int wb_table_find(wb_table t, const char *name, size_t len);

/* What -n gives: a length (-n N) or a matrix (-n NXxNY). */
typedef enum { WB_LENGTH, WB_MATRIX } wb_shape;

/* What a lab accepts; defaults. One static const of these per lab. */
typedef struct {
    const char *lab;          /* "lab02" */
    const char *title;        /* "neighbored pairing and warp divergence" */
    wb_shape shape;           /* a length (-n N) or a matrix (-n NXxNY, --nx, --ny) */
    long long default_n;      /* WB_LENGTH */
    long long max_n;          /* largest length accepted, with the reason below */
    const char *max_n_reason; /* "the exact int sum must fit in an int" */
    int default_nx, default_ny;           /* WB_MATRIX */
    int default_block_x, default_block_y; /* block_y only for WB_MATRIX */
    int uses_block;           /* 0: -b is refused (lab01 runs on the CPU) */
    int default_reps;
    const char *extra_flag;   /* a lab's own flag with no value ("--trace",
                                 "--sweep"), or NULL */
    const char *extra_help;   /* one line for -h about it */
    wb_table kernels;
    /* The student's exercises (an empty table for a program without them):
     * rows of the same struct as `kernels`, with kind and against set. */
    wb_table exercises;
    const char *exercise_file;   /* "lab04_unroll/exercises.cuh" */
    long long exercise_n;        /* --exercises without -n runs at this length */
    int exercise_nx, exercise_ny;/* ... or this matrix */
    /* CUDA labs: reads and clears the flag that WB_TODO() sets (todo.h);
     * NULL on the CPU, where wb_cpu_todo is that flag (wb_row_todo) */
    int (*todo_take)(void);
    /* The element types --type accepts: WB_TYPE_BIT()s or WB_ALL_TYPES; 0
     * means int only (every type is --type int by default). */
    unsigned types;
    /* 1: --finish host|device is accepted (labs 02-04: their kernels can be
     * relaunched on their own partial sums); 0: --finish is refused */
    int device_finish;
    /* 1: the program takes --trace KERNEL (its main calls wb_trace_redirect:
     * the kernel's real accesses, tools/trace/); -h says so */
    int gpu_trace;
} wb_lab;

/* No exercises (a program that has none, such as lab05-finish). */
#define WB_NO_EXERCISES {NULL, 0, 0}

/* Exercise runs default to a length that is no multiple of any block or
 * unroll factor (2^24 - 3), so a kernel that drops a tail fails. */
#define WB_EXERCISE_N ((1LL << 24) - 3)

/* The wb_lab of a reduction lab (labs 02-05): an int input of any length up
 * to INT_MAX (so that the exact sum fits), blocks of 32..1024 threads with
 * 512 by default (as the book), 20 repetitions; `exercises` is
 * WB_TABLE(the exercise array) or WB_NO_EXERCISES, `file` the student file. */
#define WB_REDUCTION_LAB(name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(0, WB_TODO_TAKE, name, title, extra_flag, extra_help, table, file, exercises)
/* The same for labs 02-04, which also take --finish host|device. */
#define WB_RELAUNCHING_LAB(name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(1, WB_TODO_TAKE, name, title, extra_flag, extra_help, table, file, exercises)
/* The same two for a lab whose exercises are compiled in a file of their own
 * (the lab's exercises.cu): `todo` is that file's reader of the WB_TODO() flag,
 * `exercises` the wb_table it exports. */
#define WB_REDUCTION_LAB_APART(todo, name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(0, todo, name, title, extra_flag, extra_help, table, file, exercises)
#define WB_RELAUNCHING_LAB_APART(todo, name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(1, todo, name, title, extra_flag, extra_help, table, file, exercises)
/* (variadic: `exercises` arrives with the commas of WB_TABLE expanded) */
#define WB_REDUCTION_LAB_(finish_, todo_, name_, title_, flag_, help_, table_, file_, ...)       \
    {                                                                                           \
        .lab = name_, .title = title_, .shape = WB_LENGTH, .default_n = 1 << 24,                \
        .max_n = WB_INT_MAX, .max_n_reason = "the exact int sum must fit in an int",            \
        .default_block_x = 512, .uses_block = 1, .default_reps = 20, .extra_flag = flag_,       \
        .extra_help = help_, .kernels = WB_TABLE(table_), .exercises = __VA_ARGS__,             \
        .exercise_file = file_, .exercise_n = WB_EXERCISE_N, .todo_take = todo_,                \
        .types = WB_ALL_TYPES, .device_finish = finish_, .gpu_trace = 1                         \
    }

/* The exercise of `lab` named `name`, or -1. */
int wb_exercise_index(const wb_lab *lab, const char *name);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_LAB_H */
