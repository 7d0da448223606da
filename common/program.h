/*
 * program.h - a program of the workbook as data: its tables (wb_lab), one
 * runner (how its rows meet the device), its texts and modes; and the main
 * of every program in two plain calls: wb_main_rows parses, lists,
 * explains, checks, opens the device and runs the rows timed, verified and
 * rechecked, and counts the exercises; the lab's own main may then add rows
 * and notes; wb_main_end prints and closes. wb_main is the two.
 */
#ifndef WB_PROGRAM_H
#define WB_PROGRAM_H

#include <stdio.h>

#include "args.h"
#include "device.h"
#include "lab.h"
#include "numbers.h"
#include "report.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an input is made for: one type, values, seed and size, and every
 * block and choice that the rows will run on it (so one input serves them
 * all). timed: the run's timed input, which also measures the copy ceiling
 * of its bytes into the report. */
typedef struct {
    wb_type type;
    wb_values values;
    unsigned long long seed;
    long long n; /* a length, or nx * ny */
    int nx, ny;  /* a matrix; 0 for a length */
    const int *bx, *by; /* blocks bx[i] x by[i], i < nblocks (by NULL: 1D) */
    int nblocks;
    const int *choice; /* the lab's choices choice[i] (wb_lab.choice: 0 or 1), i < nchoice */
    int nchoice;
    int timed;
} wb_input_cfg;

/* One run of a program's rows: what every step of the runner sees. */
typedef struct wb_run {
    const wb_lab *lab;
    const wb_args *a;
    const wb_kernel_info *const *order; /* the rows, as wb_plan_rows gives them */
    int nrows;
    void *dev;      /* the open device (a wb_gpu *; NULL on the CPU) */
    wb_report *r;   /* the report (NULL under --check) */
    void *input;    /* the runner's input of the current configuration */
    const struct wb_program *program; /* the program that runs (lab05: its matrix mode's for -n NXxNY) */
} wb_run;

/* A program's runner: how one of its rows is run on one input. */
typedef struct {
    /* make run->input for cfg (exit 2, one line, when memory is short);
     * with cfg->timed also measure the copy ceiling into run->r */
    void (*open_input)(wb_run *run, const wb_input_cfg *cfg);
    /* row k on run->input at block bx x by and the lab's choice (0 without
     * one): verified, and as the mode says timed into run->r, counted in
     * it, or left in *row */
    void (*run_row)(const wb_run *run, const wb_kernel_info *k, int bx, int by, int choice, wb_row_mode mode,
                    wb_row *row);
    void (*close_input)(wb_run *run);
    const char *timed;      /* the report's `timed` line unless the program says another */
    const char *total_what; /* its `total` line, or NULL */
} wb_runner;

/* What the lab's own flag (wb_lab.extra_flag) does. */
typedef enum {
    WB_MODE_NONE,  /* no flag, or one that only the trace or an explainer reads */
    WB_MODE_SWEEP, /* --sweep: the rows at n = sweep_first, 4x that, ... up to -n */
    WB_MODE_OWN    /* a mode of its own: own_mode(a) is the whole run (lab04 --latency, lab01 --trace) */
} wb_mode;

typedef struct wb_program {
    const wb_lab *lab;
    const wb_runner *runner;
    /* refuse (exit 2, one line) what a row of the run cannot take, before
     * the device opens; or NULL */
    void (*check_args)(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows);
    /* --explain (CPU only; exits with its status when it fails), or NULL */
    void (*explain)(const wb_args *a);
    wb_mode mode;
    int (*own_mode)(const wb_args *a);  /* WB_MODE_OWN */
    long long sweep_first, sweep_last;  /* WB_MODE_SWEEP: the first n, and the last without -n */
    /* -n NXxNY runs this program instead (lab05's matrix mode); -h and
     * --list end with its usage text and, after list_head, its list */
    const struct wb_program *matrix;
    const char *matrix_usage, *matrix_list_head;
    /* the report: NULL keeps the runner's */
    const char *timed, *total_what, *speedup_note;
    const char *baseline;  /* speedups against this kernel when it is selected */
    const char *type_name; /* the report's type when the lab has no --type ("float") */
    int check_type;        /* --check's type column when the lab has no --type: WB_FLOAT + 1; 0 none */
    const char *build;     /* the banner's build line, or NULL */
} wb_program;

/*
 * The rows of a run, in order: the selected kernels; with --exercises each
 * selected exercise right after the kernel it is measured against (that
 * kernel runs even if -k left it out). Fills order[] (room for
 * 2 * WB_MAX_KERNELS) with each row's entry of the lab's own tables (its
 * wb_kernel_info is the entry's first member: cast it back to the lab's
 * struct) and returns the count.
 */
int wb_plan_rows(const wb_lab *lab, const wb_args *a, const wb_kernel_info **order);

/*
 * The first half of the main: parse (-h, --capabilities, --list and bad
 * input exit here), the lab's own mode, the checks before the device,
 * --dry-run (its plan, exit 0), --explain, the device,
 * then --check (the device closed again), or the timed rows and the
 * exercises' count into the report run->r. Returns the exit status of what
 * ran, or -1 after the rows: the device is open, and the lab's main may add
 * rows and write notes (wb_report_notes) before wb_main_end.
 */
int wb_main_rows(const wb_program *p, int argc, char **argv, wb_run *run);

/* What p offers (WB_OFFER_* of lab.h, ./labNN --capabilities): its
 * table's offers (wb_lab_offers), its explainer, its matrix mode and that
 * mode's exercises. */
unsigned wb_program_offers(const wb_program *p);

/* The second half: print the report, close the device; the exit status. */
int wb_main_end(wb_run *run);

/* The main of a program with nothing to add: the two halves. */
int wb_main(const wb_program *p, int argc, char **argv);

/* The rows run->order[0..nrows) on one input made for cfg, each at the
 * first block and choice of cfg, in the given mode. */
void wb_rows(const wb_runner *rn, wb_run *run, const wb_input_cfg *cfg, wb_row_mode mode);

/* The input of a run of a's single values (its block, its choice) at type,
 * values and length n (or matrix nx x ny, n = nx * ny); timed as above. */
void wb_input_cfg_of(wb_input_cfg *cfg, const wb_args *a, wb_type type, wb_values values, long long n, int nx,
                     int ny, int timed);

/* The kernel the speedups are measured against: `preferred` when -k
 * selected it, else the first kernel selected (preferred may be NULL). */
const char *wb_baseline(const wb_lab *lab, const wb_args *a, const char *preferred);

/* --check: run's rows on every combination of its lists, one input per
 * (type, seed, size), one CSV row each on stdout; a library row at the
 * first block only; says on stderr how many rows it planned and ran, and
 * fails when they differ. `type` names the CSV's type when the lab has no
 * --type (lab06: float), else -1. Returns the exit status. */
int wb_check_run(wb_run *run, int type, const wb_runner *rn);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_PROGRAM_H */
