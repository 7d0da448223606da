/*
 * test_common.h - what the CPU tests of common/ share (tests/unit/test_common.c
 * holds them and main; test_args.c, test_numbers.c and test_report.c hold
 * the tests of args.c and usage.c, numbers.c, and report.c, table.c and
 * report_data.c).
 */
#ifndef WB_TEST_COMMON_H
#define WB_TEST_COMMON_H

#include "workbook.h"

/* "ok NAME" or "FAIL NAME: why"; a failure makes the exit status 1 */
void check(int cond, const char *name, const char *why);

/* the fake kernel tables and labs the tests parse for */
typedef struct {
    wb_kernel_info info;
} fake_kernel;
extern const fake_kernel fake[3], fake_ex[2];
/* a two-word choice as the reduction labs' --finish host|device (reduce.cu) */
extern const wb_choice fake_finish;
extern const wb_lab length_lab, cpu_lab, matrix_lab, ex_lab, ex_cpu_lab, ex_matrix_lab, typed_lab;

/* parse a space-separated command line; a bad one (status 2, one line naming
 * `mention`) or a good one, each a check */
int parse(const wb_lab *lab, const char *line, wb_args *a, char *err, size_t errlen);
void bad(const wb_lab *lab, const char *line, const char *mention);
void good(const wb_lab *lab, const char *line, wb_args *a);

/* text helpers: a report or -h as a string (free it), line n, CSV field col */
char *render(const wb_report *r, wb_format f);
char *usage_of(const wb_lab *lab);
void test_note(const wb_report *r, FILE *out);
int count_char(const char *s, char c);
const char *nth_line(const char *text, int n, char *buf, size_t len);
const char *csv_field(const char *line, int col, char *buf, size_t len);
int is_iso_utc(const char *s);

/* test_args.c */
void test_parse_count(void);
void test_args(void);
void test_exercise_args(void);
void test_type_args(void);
void test_finish(void);
void test_check_args(void);
/* test_numbers.c */
void test_stats(void);
void test_value_rule(void);
void test_float_inputs(void);
/* test_report.c */
void test_report(void);
void test_exercise_report(void);
void test_width(void);
void test_check_run(void);
void test_versus(void);
void test_row_init(void);
void test_row_todo(void);

#endif
