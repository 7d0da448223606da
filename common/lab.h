/*
 * lab.h - what a lab is: its kernel tables (wb_kernel_info, wb_table, the
 * row a lab's own struct starts with) and wb_lab, what its command line
 * accepts and its defaults.
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

/* A lab's own option whose value is one of two words, the first the
 * default (0), the second 1 (the reduction labs' --finish host|device,
 * reduce.h): the parser, -h, --check's lists and its CSV column read it. */
typedef struct {
    const char *flag;    /* "--finish" */
    const char *word[2]; /* "host" (the default), "device" */
    const char *what;    /* the bad value's words: "'x' is not a finish" */
    const char *usage;   /* -h's synopsis: "[--finish F]" */
    const char *example; /* a --check list of it: "--finish host,device" */
    const char *help;    /* -h's lines about it, each ending in \n */
} wb_choice;

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
    const char *n_words;      /* -h's words for -n N: "elements to reduce"; NULL: "elements" */
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
    /* the lab's own two-word option (labs 02-04: --finish), or NULL */
    const wb_choice *choice;
    /* 1: the program takes --trace KERNEL (its main calls wb_trace_redirect:
     * the kernel's real accesses, tools/trace/); -h says so */
    int gpu_trace;
} wb_lab;

/* No exercises (a program that has none, such as lab05-finish). */
#define WB_NO_EXERCISES {NULL, 0, 0}

/* Exercise runs default to a length that is no multiple of any block or
 * unroll factor (2^24 - 3), so a kernel that drops a tail fails. */
#define WB_EXERCISE_N ((1LL << 24) - 3)

/* The exercise of `lab` named `name`, or -1. */
int wb_exercise_index(const wb_lab *lab, const char *name);

/*
 * What a program offers besides its timed rows (./labNN --capabilities
 * prints their words, in this order). Each is stated once, by the field
 * that makes it: explain (wb_program.explain), exercises (a non-empty
 * exercise table), trace (--trace: lab01's own flag, or gpu_trace), types
 * (--type beyond int), finish (a two-word choice: --finish host|device),
 * matrix (wb_program.matrix: -n NXxNY), sweep and latency (the lab's own
 * flag). The parser refuses an option of one the program lacks.
 */
enum {
    WB_OFFER_EXPLAIN = 1u << 0,
    WB_OFFER_EXERCISES = 1u << 1,
    WB_OFFER_TRACE = 1u << 2,
    WB_OFFER_TYPES = 1u << 3,
    WB_OFFER_FINISH = 1u << 4,
    WB_OFFER_MATRIX = 1u << 5,
    WB_OFFER_SWEEP = 1u << 6,
    WB_OFFER_LATENCY = 1u << 7,
    WB_NOFFERS = 8
};

/* The word of offer bit i (0 .. WB_NOFFERS - 1): "explain", "exercises", ... */
const char *wb_offer_name(int i);

/* What the lab's table alone shows it offers (all but explain and matrix,
 * which its program states). */
unsigned wb_lab_offers(const wb_lab *lab);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_LAB_H */
