/*
 * check.h - --check's verdicts: the CSV of one row per kernel and
 * configuration, its counts and its summary line.
 */
#ifndef WB_CHECK_H
#define WB_CHECK_H

#include <stdio.h>

#include "args.h"
#include "lab.h"
#include "numbers.h"
#include "report.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* --check: verdicts only, one CSV row per kernel and configuration          */
/* ------------------------------------------------------------------------ */
/* The header of --check's CSV (docs/output.md), without newline. */
extern const char *const wb_check_header;

/* One configuration of a --check run: what the row's key columns say. */
typedef struct {
    char size[48];      /* "1000003" or "33x17" */
    char block[32];     /* the block asked for: "512" or "32x8" ("" on the CPU) */
    wb_type type;
    wb_values values;
    const char *finish; /* the CSV's finish column: the lab's choice ("host"), or NULL: none */
    unsigned long long seed;
} wb_check_cfg;

/* The configuration of list items (ni, bi, ti, fi, si) of a's lists. */
void wb_check_cfg_of(wb_check_cfg *c, const wb_lab *lab, const wb_args *a, int ni, int bi, int ti, int fi,
                     int si);

typedef struct {
    const char *lab;
    int rows, passed, failed, todo;
    int planned; /* the rows the lists call for (-1: not said) */
    double t0;
} wb_checker;

/* Print the header on out and start counting. */
void wb_check_begin(wb_checker *c, const char *lab, FILE *out);
/* One row (its kernel, role and verdict from row), flushed at once: a run
 * that dies later still leaves the rows before it. */
void wb_check_add(wb_checker *c, const wb_row *row, const wb_check_cfg *cfg, FILE *out);
/* "lab02 --check: 96 rows (96 planned), 96 PASS, 0 FAIL, 0 todo (2.1 s)" on
 * err; returns the exit status: WB_EXIT_WRONG when a row failed, or when the
 * rows run are not the rows planned (c->planned, set before the rows). */
int wb_check_end(const wb_checker *c, FILE *err);

/* A library call (CUB) picks its own grid and block: --check runs it at the
 * first block of the list only. */
int wb_is_library(const char *kernel);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_CHECK_H */
