/*
 * test_common.c - CPU tests of common/ (C part): the shared fixtures and
 * helpers, and main, which runs the tests of args.c and usage.c
 * (test_args.c), numbers.c (test_numbers.c) and report.c, table.c and
 * report_data.c (test_report.c).
 * Prints "ok NAME" or "FAIL NAME: why" per check (tests/run counts them);
 * exits 1 if any failed.
 */
#define _POSIX_C_SOURCE 200809L
#include "test_common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int failures;

void check(int cond, const char *name, const char *why)
{
    if (cond) {
        printf("ok %s\n", name);
    } else {
        printf("FAIL %s: %s\n", name, why);
        ++failures;
    }
}

/* ---- a length lab and a matrix lab to parse for ------------------------ */

const fake_kernel fake[] = {{{"alpha", "first", NULL, NULL}},
                                   {{"beta", "second", NULL, NULL}},
                                   {{"gamma", "third", NULL, NULL}}};
/* exercises: {name, task, kind, against} */
const fake_kernel fake_ex[] = {{{"delta", "write delta", "write", "alpha"}},
                                      {{"epsilon", "fix epsilon", "fix", "gamma"}}};

const wb_choice fake_finish = {"--finish", {"host", "device"}, "a finish", "[--finish F]", "--finish host,device",
                                "  --finish F    host (default) or device\n"};

const wb_lab length_lab = {
    .lab = "labX", .title = "a test lab", .shape = WB_LENGTH, .default_n = 1 << 24, .max_n = WB_INT_MAX,
    .max_n_reason = "the exact int sum must fit in an int", .default_block_x = 512, .default_block_y = 1,
    .uses_block = 1, .default_reps = 20, .extra_flag = "--sweep", .extra_help = "sweep",
    .kernels = WB_TABLE(fake), .exercises = WB_NO_EXERCISES,
};
const wb_lab cpu_lab = {
    .lab = "labC", .title = "a CPU lab", .shape = WB_LENGTH, .default_n = 1 << 24, .max_n = WB_INT_MAX,
    .max_n_reason = "int sum", .uses_block = 0, .default_reps = 20, .kernels = WB_TABLE(fake),
};
const wb_lab matrix_lab = {
    .lab = "labM", .title = "a matrix lab", .shape = WB_MATRIX, .default_nx = 2048, .default_ny = 2048,
    .default_block_x = 16, .default_block_y = 16, .uses_block = 1, .default_reps = 20,
    .kernels = WB_TABLE(fake),
};
/* the same three with exercises */
const wb_lab ex_lab = {
    .lab = "labE", .title = "a lab with exercises", .shape = WB_LENGTH, .default_n = 1 << 24,
    .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
    .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex),
    .exercise_file = "labE_x/exercises.cuh", .exercise_n = WB_EXERCISE_N,
};
const wb_lab ex_cpu_lab = {
    .lab = "labF", .title = "a CPU lab with exercises", .shape = WB_LENGTH, .default_n = 1 << 24,
    .max_n = WB_INT_MAX, .max_n_reason = "int sum", .uses_block = 0, .default_reps = 20,
    .extra_flag = "--trace", .extra_help = "trace", .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex),
    .exercise_file = "labF_x/exercises.c", .exercise_n = WB_EXERCISE_N, .todo_take = NULL,
};
const wb_lab ex_matrix_lab = {
    .lab = "labN", .title = "a matrix lab with exercises", .shape = WB_MATRIX, .default_nx = 2048,
    .default_ny = 2048, .default_block_x = 16, .default_block_y = 16, .uses_block = 1, .default_reps = 20,
    .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex), .exercise_file = "labN_x/exercises.cuh",
    .exercise_nx = 1000, .exercise_ny = 333,
};

/* Parse a space-separated command line. */
int parse(const wb_lab *lab, const char *line, wb_args *a, char *err, size_t errlen)
{
    char buf[512], *argv[32], *tok;
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    argv[argc++] = (char *)"prog";
    for (tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    return wb_parse_args(lab, WB_OFFER_EXPLAIN | wb_lab_offers(lab), argc, argv, a, err, errlen);
}

/* The columns "LAB: err" takes with the longest lab name, lab05-finish, in
 * front and wherever the message names the lab. */
static size_t message_width(const wb_lab *lab, const char *err)
{
    size_t longest = strlen("lab05-finish"), own = strlen(lab->lab), width = longest + 2 + strlen(err);
    const char *p;
    for (p = strstr(err, lab->lab); p && own < longest; p = strstr(p + own, lab->lab))
        width += longest - own;
    return width;
}

/* A bad command line: status 2, one line of message that names `mention`,
 * at most WB_WIDTH columns in the longest lab's name (message_width). */
void bad(const wb_lab *lab, const char *line, const char *mention)
{
    wb_args a;
    char err[1200], name[256], why[1400];
    int r = parse(lab, line, &a, err, sizeof err);
    snprintf(name, sizeof name, "args reject '%s' (%s)", line, lab->lab);
    snprintf(why, sizeof why, "status %d, %zu columns, message '%s'", r, message_width(lab, err), err);
    check(r == WB_EXIT_USAGE && strstr(err, mention) && !strchr(err, '\n') && strlen(err) > 20 &&
              message_width(lab, err) <= WB_WIDTH,
          name, why);
}

void good(const wb_lab *lab, const char *line, wb_args *a)
{
    char err[1200], name[256];
    int r = parse(lab, line, a, err, sizeof err);
    snprintf(name, sizeof name, "args accept '%s' (%s)", line, lab->lab);
    check(r == 0, name, err);
}

/* Write the report in a format to a string. */
char *render(const wb_report *r, wb_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    wb_report_print(r, f, m);
    fclose(m);
    return buf;
}

void test_note(const wb_report *r, FILE *out)
{
    fprintf(out, "a note on %d rows\n\n", r->nrows);
}

int count_char(const char *s, char c)
{
    int k = 0;
    for (; *s; ++s)
        k += *s == c;
    return k;
}

/* The n-th piece (from 0) of text cut at sep, into buf; "" past the end. */
static const char *nth_piece(const char *text, char sep, int n, char *buf, size_t len)
{
    const char *p = text, *end;
    for (; n > 0 && p; --n) {
        p = strchr(p, sep);
        if (p)
            ++p;
    }
    if (!p || !*p) {
        buf[0] = '\0';
        return buf;
    }
    end = strchr(p, sep);
    snprintf(buf, len, "%.*s", (int)(end ? (size_t)(end - p) : strlen(p)), p);
    return buf;
}

/* The n-th line (from 0) of text, into buf; "" past the end. */
const char *nth_line(const char *text, int n, char *buf, size_t len)
{
    return nth_piece(text, '\n', n, buf, len);
}

/* The CSV field `col` (1-based) of line, into buf. */
const char *csv_field(const char *line, int col, char *buf, size_t len)
{
    return nth_piece(line, ',', col - 1, buf, len);
}

/* "YYYY-MM-DDTHH:MM:SSZ" */
int is_iso_utc(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    size_t i;
    if (strlen(s) != sizeof shape - 1)
        return 0;
    for (i = 0; shape[i]; ++i)
        if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
            return 0;
    return strncmp(s, "2024", 4) >= 0 && strncmp(s + 5, "13", 2) < 0 && strncmp(s + 8, "32", 2) < 0 &&
           strncmp(s + 11, "24", 2) < 0;
}

/* --type and --values: a lab's types, uniform only with float or double,
 * the exercises int only; the report's error and bound columns. */
const wb_lab typed_lab = {
    .lab = "labT", .title = "a lab in three types", .shape = WB_LENGTH, .default_n = 1 << 24,
    .max_n = WB_INT_MAX, .max_n_reason = "int sum", .uses_block = 0, .default_reps = 20,
    .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex), .exercise_file = "labT_x/exercises.c",
    .exercise_n = WB_EXERCISE_N, .types = WB_ALL_TYPES,
};

/* The usage text of a lab, as -h prints it. */
char *usage_of(const wb_lab *lab)
{
    char *text;
    size_t len;
    FILE *m = open_memstream(&text, &len);
    wb_print_usage(lab, 1, m);
    fclose(m);
    return text;
}

int main(void)
{
    test_row_init();
    test_row_todo();
    test_type_args();
    test_float_inputs();
    test_parse_count();
    test_args();
    test_stats();
    test_value_rule();
    test_report();
    test_exercise_args();
    test_exercise_report();
    test_width();
    test_finish();
    test_check_args();
    test_check_run();
    test_versus();
    return failures ? 1 : 0;
}
