/*
 * report_parts.h - what report.c (the table), report_data.c (CSV, JSON) and
 * check.c (--check) share inside common/; not part of workbook.h's contract.
 */
#ifndef WB_REPORT_PARTS_H
#define WB_REPORT_PARTS_H

#include "workbook.h"

/* What a row's status column says: "PASS", "FAIL" or "todo". */
const char *wb_status_text(const wb_row *w);

/* How a row's total reached one number ("host", "device"), or NULL: no total. */
const char *wb_finish_text(const wb_row *w);

/* A grid or block as CSV writes it: "512", or "32x8" when y > 1. */
void wb_grid_csv(char *buf, size_t len, unsigned x, unsigned y);

/* The report as CSV and as JSON (wb_report_print picks one). */
void wb_print_csv(const wb_report *r, FILE *out);
void wb_print_json(const wb_report *r, FILE *out);

#endif
