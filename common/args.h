/*
 * args.h - what a lab is and what its command line asks for: the exit
 * statuses, the kernel tables, the input values, wb_lab (with the macros of
 * the reduction labs), wb_args and the one parser (args.c; wb_table_at in
 * workbook.c). Part of workbook.h, the one header a lab includes.
 */
#ifndef WB_ARGS_H
#define WB_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Exit statuses: the verdict of every lab is its exit status.              */
/* ------------------------------------------------------------------------ */
enum {
    WB_EXIT_OK = 0,    /* every kernel verified */
    WB_EXIT_WRONG = 1, /* a kernel gave a wrong result */
    WB_EXIT_USAGE = 2, /* bad command line */
    WB_EXIT_CUDA = 3   /* no usable CUDA device, or a CUDA error */
};

#define WB_MAX_KERNELS 32
#define WB_MAX_ROWS 512
#define WB_MAX_LIST 128 /* items of one --check list (-n 1,2,3) */
#define WB_INT_MAX 2147483647LL

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

/* ------------------------------------------------------------------------ */
/* Command line                                                             */
/* ------------------------------------------------------------------------ */
typedef enum { WB_LENGTH, WB_MATRIX } wb_shape;
typedef enum { WB_TABLE_OUT, WB_CSV, WB_JSON } wb_format;

/* The input values (--values); the element types are types.h's. */
typedef enum {
    WB_VALUES_EXACT = 0,  /* integers whose every partial sum is exact in the type: exact checks */
    WB_VALUES_UNIFORM = 1 /* [-1, 1) (float or double): checked against an error bound */
} wb_values;

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

typedef struct {
    long long n;        /* WB_LENGTH: the length; WB_MATRIX: nx*ny */
    int nx, ny;         /* WB_MATRIX */
    int block_x, block_y;
    int reps;
    unsigned long long seed;
    wb_format format;
    int explain, list, help, extra;
    int n_given, block_given;
    wb_type type;                    /* --type (WB_INT by default) */
    wb_values values;                /* --values (WB_VALUES_EXACT by default) */
    int exercises;                   /* --exercises (or -k named an exercise) */
    int finish_device;               /* --finish device: the kernel relaunched on its partial sums */
    int selected[WB_MAX_KERNELS];    /* 1 for each kernel -k chose (all without -k) */
    int ex_selected[WB_MAX_KERNELS]; /* 1 for each exercise -k chose (all without -k) */
    /* --check: verify every selected kernel on every configuration of the
     * lists below, untimed (wb_check_*). Without --check each list holds
     * the one value of the run (the fields above); with it -n, -b, --type,
     * --finish and --seed take comma lists ("1,33,1000003"). */
    int check;
    int n_count, block_count, type_count, finish_count, seed_count;
    long long n_list[WB_MAX_LIST];   /* lengths; matrices: nx_list x ny_list */
    int nx_list[WB_MAX_LIST], ny_list[WB_MAX_LIST];
    int bx_list[WB_MAX_LIST], by_list[WB_MAX_LIST];
    wb_type type_list[WB_MAX_LIST];
    int finish_list[WB_MAX_LIST];    /* 0 host, 1 device */
    unsigned long long seed_list[WB_MAX_LIST];
} wb_args;

/*
 * Parse argv for `lab`. Returns 0 and fills *a, or returns WB_EXIT_USAGE with
 * one line in err saying what was wrong and what is accepted. Never exits,
 * never prints: the tests call it directly.
 */
int wb_parse_args(const wb_lab *lab, int argc, char **argv, wb_args *a,
                  char *err, size_t errlen);

/* The shape -n asks for: WB_MATRIX when its value has an `x` (NXxNY), else
 * WB_LENGTH. A program with a matrix mode (lab05) runs it for WB_MATRIX. */
wb_shape wb_args_shape(int argc, char **argv);

void wb_print_usage(const wb_lab *lab, FILE *f);
void wb_print_list(const wb_lab *lab, FILE *f);
/* --list --csv: kernel,kind,against,lesson; kind is "kernel" for the lab's
 * own rows, "write" or "fix" for its exercises (a program with a matrix
 * mode lists that mode's rows under -n NXxNY --list --csv) */
void wb_print_list_csv(const wb_lab *lab, FILE *f);

/*
 * The rows of a run, in order: the selected kernels; with --exercises each
 * selected exercise right after the kernel it is measured against (that
 * kernel runs even if -k left it out). Fills order[] (room for
 * 2 * WB_MAX_KERNELS) with each row's entry of the lab's own tables (its
 * wb_kernel_info is the entry's first member: cast it back to the lab's
 * struct) and returns the count.
 */
int wb_plan_rows(const wb_lab *lab, const wb_args *a, const wb_kernel_info **order);

/* The exercise of `lab` named `name`, or -1. */
int wb_exercise_index(const wb_lab *lab, const char *name);

/*
 * Parse a count: digits with an optional binary suffix K, M or G (16M =
 * 16*2^20), or a power written 2^k. Returns 0 on success; -1 if it is not
 * such a number or is 0; -2 if it is larger than max.
 */
int wb_parse_count(const char *s, long long max, long long *out);

/* "8192x4096" into nx, ny (each 1..max). Same return values. */
int wb_parse_pair(const char *s, long long max, int *x, int *y);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_ARGS_H */
