/*
 * report.h - a run's rows (wb_row) and its report (wb_report), and what is
 * printed from them: the table for people, CSV and JSON for programs, and
 * the closing lines.
 */
#ifndef WB_REPORT_H
#define WB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "args.h"
#include "base.h"
#include "lab.h"
#include "numbers.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Report: one row per kernel; a table for people, CSV and JSON for programs */
/* ------------------------------------------------------------------------ */
typedef struct {
    const char *kernel;
    long long n;            /* elements */
    int nx, ny;             /* matrices; 0 for lengths */
    unsigned grid_x, grid_y, block_x, block_y; /* 0 on the CPU */
    double bytes;           /* bytes the algorithm must move */
    wb_stats time;          /* what the lab's `timed` line says (GPU: the kernel's first pass) */
    double total_ms;        /* median of the whole reduction to one number, or < 0 if n/a */
    int pass;               /* verified against the CPU reference */
    int todo;               /* an exercise not written yet (WB_TODO()): not run, not timed */
    const char *role;       /* NULL for a shipped kernel; an exercise's kind: "write", "fix" */
    const char *against;    /* an exercise: the kernel its speedup is against */
    char check[96];         /* what was compared: "sum 2139095040 (expected 2139095040)" */
    char result[40];        /* what the row computed, bit-exactly (wb_row_result_*); "": none */
    /* float/double against an error bound (--values uniform, or float above
     * n = 2^24): has_bound 1, |sum - exact sum| and the bound of the row's
     * order of additions; 0 for an exact check (CSV error, bound empty) */
    int has_bound;
    double error, bound;
    int no_bound; /* k*u >= 1: `bound` is wb_error_tolerance's, not a bound */
    /* the whole reductions run (verified + timed) and how many different
     * results (bits) they gave: 1 for an int sum, and for a float sum whose
     * order of additions is fixed; 0: not counted */
    int runs, distinct;
    const char *finish;     /* how total_ms reached one number: "host" or "device"; NULL: no total */
    char finish_grids[64];  /* the device finish: the grid of each launch, "32768, 64, 1"; else "" */
    /* derived by wb_report_add: */
    double ceiling_gbps; /* the report's ceiling when the row was added */
    double gbps, pct_of_copy, speedup, total_gbps, spread_pct;
} wb_row;

typedef struct wb_report {
    const char *lab;
    char device[160];       /* "NVIDIA H100 80GB HBM3" */
    char device_detail[160];/* "cc 9.0, 132 SMs, 50 MB L2, CUDA 13.0" */
    double ceiling_gbps;    /* device-to-device copy of the same bytes, measured in this run */
    double peak_gbps;       /* theoretical, from the device attributes; 0 if unknown */
    char ceiling_what[96];  /* "device-to-device copy of 64 MiB, read+write counted" */
    const char *timed;      /* what time_ms is: "first pass of the kernel (the host adds the partial sums)" */
    const char *total_what; /* what total_ms is, or NULL */
    const char *build;      /* build note for the banner ("-dlcm=cg"), or NULL */
    const char *baseline;   /* kernel the speedups are against (its row of the same n);
                               NULL or absent: the first row of the same n */
    const char *speedup_note; /* the banner's speedup line ends with it, or NULL */
    /* lines a lab adds under its table, before the summary line (the table
     * format only; wb_report_notes writes them; end them with a blank line) */
    FILE *notes_file;
    char *notes_text;
    size_t notes_size;
    int reps;
    const char *type;       /* the element type: "int" (the default), "float" */
    char build_id[64];      /* "sm_90+dlcm=cg+solutions": see wb_build_id */
    char run_at[32];        /* "2026-11-23T14:05:09Z" (UTC), set by wb_report_init */
    char fingerprint[16];   /* wb_build_fingerprint */
    /* the closing line of a run without --exercises (ex_total 0: none) */
    int ex_total, ex_done, ex_todo;
    const char *ex_file;
    int nrows;
    wb_row rows[WB_MAX_ROWS];
} wb_report;

/* What the Makefile compiles into every program (build/<binary>/buildinfo.c):
 * the GPU code, DLCM and SOLUTIONS of the build ("sm_90", "fat+solutions",
 * "cpu"), and the cksum of the student's exercise file as 8 hex digits
 * ("" for a program without one). */
extern const char wb_build_id[];
extern const char wb_build_fingerprint[];

/* Empty report for `lab`, stamped with the build, the fingerprint and the
 * time of the run. */
void wb_report_init(wb_report *r, const char *lab);

/* A row for the kernel or exercise `info` on n elements that must move
 * `bytes`: every other field zero, no total (total_ms < 0). The lab sets its
 * grid, block and matrix shape, then verifies and times. */
void wb_row_init(wb_row *row, const wb_kernel_info *info, long long n, double bytes);

/* An exercise's checked run between these two: wb_todo_clear before it
 * clears the flag WB_TODO() sets (todo.h: lab->todo_take's, or wb_cpu_todo
 * where that is NULL); wb_row_todo after it returns 1 if the run met
 * WB_TODO(), the row then todo, its check naming the file to write in. */
void wb_todo_clear(const wb_lab *lab);
int wb_row_todo(const wb_lab *lab, wb_row *row);

/* A bound-checked row (--values uniform, float above 2^24): its error
 * against the bound of (leaf_len, depth), or the tolerance where there is
 * none. Sets row->has_bound, error, bound, no_bound, pass, and check:
 * "error 1.2e-06 <= bound 3.4e-04" (prefix before it, suffix after; a
 * bound-free row says "error ... <= tol ... (no bound)"). */
void wb_judge_bound(wb_row *row, wb_type t, long long leaf_len, int depth, double abs_sum, double error,
                    const char *prefix, const char *suffix);

/* What the row computed, bit-exactly, into row->result (the CSV's result
 * column, which a checker outside the program recomputes): an int (a sum, a
 * maximum) in decimal; a float or double sum as its integer when it is an
 * exact one below 2^53, else as a C99 hex float (%a); an output of bytes (a
 * transposed matrix, a row's or column's sums) as the FNV-1a 64-bit digest
 * of those bytes, 16 hex digits (wb_fnv1a64). */
void wb_row_result_int(wb_row *row, long long v);
void wb_row_result_real(wb_row *row, double v);
void wb_row_result_bytes(wb_row *row, const void *bytes, size_t len);
unsigned long long wb_fnv1a64(const void *bytes, size_t len);

/* 1 when rows a and b are of the same size (n, and nx x ny). */
int wb_row_same_size(const wb_row *a, const wb_row *b);

/* What a row's status column says: "PASS", "FAIL" or "todo". */
const char *wb_status_text(const wb_row *w);

/* How a row's total reached one number ("host", "device"), or NULL: no total. */
const char *wb_finish_text(const wb_row *w);

/* A grid or block as CSV writes it: "512", or "32x8" when y > 1. */
void wb_grid_csv(char *buf, size_t len, unsigned x, unsigned y);

/* "2026-11-23T14:05:09Z" for now (UTC) into buf. */
void wb_utc_now(char *buf, size_t len);

/* The stream the lab's notes go to: lines printed under its table, before
 * the summary line (the table format only); wb_report_notes_close ends it. */
FILE *wb_report_notes(wb_report *r);
void wb_report_notes_close(wb_report *r);

/* Append a row, computing gbps, pct_of_copy (against the report's ceiling
 * now), total_gbps, spread and the speedup against the baseline row of the
 * same n (add the baseline's row first). */
void wb_report_add(wb_report *r, const wb_row *row);

/* Print the report in the chosen format; the table (then the lab's notes)
 * ends with the summary line, CSV and JSON carry the same numbers and
 * nothing else. Every line of the table format fits in WB_WIDTH columns
 * (kernel names up to 28 characters; a long text is wrapped): the block goes
 * to the header when every row has the same one, a sweep's sizes head
 * groups of rows instead of taking a column. */
void wb_report_print(const wb_report *r, wb_format f, FILE *out);

/* The report as CSV and as JSON (wb_report_print picks one). */
void wb_print_csv(const wb_report *r, FILE *out);
void wb_print_json(const wb_report *r, FILE *out);

/* Our time against the library's, in words that agree with the ratio:
 * "1.04x faster than the library", "level with the library (within 1%)",
 * "the library is 1.02x faster" (ours = our time, lib = the library's). */
void wb_versus_library(char *buf, size_t len, double ours, double lib);

/* The CSV header line (documented column set), without newline. */
extern const char *const wb_csv_header;

/* A bar of `width` characters showing pct (0..100, '>' past 100); the table
 * draws WB_BAR_WIDTH of them, one '#' per 10% of the copy ceiling. */
#define WB_BAR_WIDTH 10
void wb_bar(double pct, int width, char *buf);

/* WB_EXIT_OK when every row passed (todo rows do not count), WB_EXIT_WRONG
 * otherwise. */
int wb_report_status(const wb_report *r);

/* Counting the exercises for the closing line of a run without --exercises:
 * wb_report_exercises_begin puts the selected ones in order[] (room for
 * WB_MAX_KERNELS), returns how many, and sets r's ex_total and ex_file (0,
 * and nothing set, with --exercises or none); then each one's verified row
 * goes to wb_report_exercise_verdict (done or todo). */
int wb_report_exercises_begin(wb_report *r, const wb_lab *lab, const wb_args *a, const wb_kernel_info **order);
void wb_report_exercise_verdict(wb_report *r, const wb_row *row);

/* The closing line of a run without --exercises, "exercises: 1 of 3 done
 * ... (./lab04 --exercises runs them)"; nothing when the lab has none. */
void wb_print_exercise_line(const wb_report *r, FILE *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_REPORT_H */
