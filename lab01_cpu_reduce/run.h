/*
 * run.h - lab01's runner: a CPU version's row (its input in one type, the
 * verified call, the timed calls, the poisoned tail after a[n-1], the
 * verdict) and the memcpy ceiling, for wb_main (common/program.h).
 */
#ifndef LAB01_RUN_H
#define LAB01_RUN_H

#include "workbook.h"

/* A version of the table: int as the book, and the same in float and
 * double (NULL for an int-only row, such as the exercises). */
typedef struct {
    wb_kernel_info info;
    int (*reduce)(int *a, size_t n); /* as the book: int */
    float (*reduce_float)(float *a, size_t n);    /* the same in float and double; */
    double (*reduce_double)(double *a, size_t n); /* NULL for the exercises (int only) */
    int pairwise; /* the order of the additions: 0 one chain (a loop), 1 a pairwise tree */
} cpu_kernel;

/* One run's input in its type, and what a correct sum must be. */
typedef struct {
    wb_type type;
    wb_values values;  /* uniform also for float above n = 2^24 (no exact input there) */
    int forced;        /* ... uniform for that reason alone (exact was asked for) */
    size_t n, size;    /* elements, bytes per element */
    void *input, *work; /* work: n elements, then TAIL poisoned ones */
    long long expected; /* int: the exact sum */
    wb_exact exact;     /* float, double: the exact sum and sum |x| */
} lab_input;

/* The input of type t at length n (exit 2 if the memory is not there). */
void cpu_make_input(lab_input *in, wb_type t, wb_values v, size_t n, unsigned long long seed);
void cpu_free_input(lab_input *in);

/* k once on a fresh copy of the input (followed by the poisoned tail): its
 * sum, its time in *ms and whether the tail survived in *tail_ok. */
double cpu_call_on_copy(const cpu_kernel *k, const lab_input *in, double *ms, int *tail_ok);

/* The runner's steps (common/program.h): one input per type, values, seed
 * and length (the timed one also measures the memcpy ceiling); a row
 * verified, and as the mode says timed, counted or checked again. */
void cpu_open_input(wb_run *run, const wb_input_cfg *cfg);
void cpu_run_row(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                 wb_row *row);
void cpu_close_input(wb_run *run);
extern const wb_runner cpu_runner;

#endif
