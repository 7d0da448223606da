/*
 * test_common.c - CPU tests of common/ (C part): the argument parser (every
 * bad-input case), statistics, bandwidth arithmetic, the value-range rule,
 * and the CSV/JSON writers. Prints "ok NAME" or "FAIL NAME: why" per check
 * (tests/run counts them); exits 1 if any failed.
 */
#define _POSIX_C_SOURCE 200809L
#include "workbook.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int cond, const char *name, const char *why)
{
    if (cond) {
        printf("ok %s\n", name);
    } else {
        printf("FAIL %s: %s\n", name, why);
        ++failures;
    }
}

/* ---- a length lab and a matrix lab to parse for ------------------------ */
typedef struct {
    wb_kernel_info info;
} fake_kernel;

static const fake_kernel fake[] = {{{"alpha", "first", NULL, NULL}},
                                   {{"beta", "second", NULL, NULL}},
                                   {{"gamma", "third", NULL, NULL}}};
/* exercises: {name, task, kind, against} */
static const fake_kernel fake_ex[] = {{{"delta", "write delta", "write", "alpha"}},
                                      {{"epsilon", "fix epsilon", "fix", "gamma"}}};

static const wb_lab length_lab = {
    .lab = "labX", .title = "a test lab", .shape = WB_LENGTH, .default_n = 1 << 24, .max_n = WB_INT_MAX,
    .max_n_reason = "the exact int sum must fit in an int", .default_block_x = 512, .default_block_y = 1,
    .uses_block = 1, .default_reps = 20, .extra_flag = "--sweep", .extra_help = "sweep",
    .kernels = WB_TABLE(fake), .exercises = WB_NO_EXERCISES,
};
static const wb_lab cpu_lab = {
    .lab = "labC", .title = "a CPU lab", .shape = WB_LENGTH, .default_n = 1 << 24, .max_n = WB_INT_MAX,
    .max_n_reason = "int sum", .uses_block = 0, .default_reps = 20, .kernels = WB_TABLE(fake),
};
static const wb_lab matrix_lab = {
    .lab = "labM", .title = "a matrix lab", .shape = WB_MATRIX, .default_nx = 2048, .default_ny = 2048,
    .default_block_x = 16, .default_block_y = 16, .uses_block = 1, .default_reps = 20,
    .kernels = WB_TABLE(fake),
};
/* the same three with exercises */
static const wb_lab ex_lab = {
    .lab = "labE", .title = "a lab with exercises", .shape = WB_LENGTH, .default_n = 1 << 24,
    .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
    .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex),
    .exercise_file = "labE_x/exercises.cuh", .exercise_n = WB_EXERCISE_N,
};
static const wb_lab ex_cpu_lab = {
    .lab = "labF", .title = "a CPU lab with exercises", .shape = WB_LENGTH, .default_n = 1 << 24,
    .max_n = WB_INT_MAX, .max_n_reason = "int sum", .uses_block = 0, .default_reps = 20,
    .extra_flag = "--trace", .extra_help = "trace", .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex),
    .exercise_file = "labF_x/exercises.c", .exercise_n = WB_EXERCISE_N, .todo_take = NULL,
};
static const wb_lab ex_matrix_lab = {
    .lab = "labN", .title = "a matrix lab with exercises", .shape = WB_MATRIX, .default_nx = 2048,
    .default_ny = 2048, .default_block_x = 16, .default_block_y = 16, .uses_block = 1, .default_reps = 20,
    .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex), .exercise_file = "labN_x/exercises.cuh",
    .exercise_nx = 1000, .exercise_ny = 333,
};

/* Parse a space-separated command line. */
static int parse(const wb_lab *lab, const char *line, wb_args *a, char *err, size_t errlen)
{
    char buf[512], *argv[32], *tok;
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    argv[argc++] = (char *)"prog";
    for (tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    return wb_parse_args(lab, argc, argv, a, err, errlen);
}

/* A bad command line: status 2, one line of message that names `mention`. */
static void bad(const wb_lab *lab, const char *line, const char *mention)
{
    wb_args a;
    char err[1200], name[256], why[1400];
    int r = parse(lab, line, &a, err, sizeof err);
    snprintf(name, sizeof name, "args reject '%s' (%s)", line, lab->lab);
    snprintf(why, sizeof why, "status %d, message '%s'", r, err);
    check(r == WB_EXIT_USAGE && strstr(err, mention) && !strchr(err, '\n') && strlen(err) > 20, name, why);
}

static void good(const wb_lab *lab, const char *line, wb_args *a)
{
    char err[1200], name[256];
    int r = parse(lab, line, a, err, sizeof err);
    snprintf(name, sizeof name, "args accept '%s' (%s)", line, lab->lab);
    check(r == 0, name, err);
}

static void test_parse_count(void)
{
    struct {
        const char *s;
        int ret;
        long long v;
    } cases[] = {
        {"1", 0, 1},          {"1000003", 0, 1000003},  {"16M", 0, 16777216}, {"16m", 0, 16777216},
        {"4K", 0, 4096},      {"1G", 0, 1073741824},    {"16Mi", 0, 16777216}, {"2^24", 0, 16777216},
        {"2^0", 0, 1},        {"0", -1, 0},             {"-5", -1, 0},        {"abc", -1, 0},
        {"", -1, 0},          {"12x", -1, 0},           {"1.5M", -1, 0},      {" 5", -1, 0},
        {"5 ", -1, 0},        {"3^4", -1, 0},           {"2^", -1, 0},        {"0K", -1, 0},
        {"+7", -1, 0},        {"99999999999999999999999", -2, 0},             {"2^63", -2, 0},
        {"3G", -2, 0},        {"2147483648", -2, 0},    {"2147483647", 0, 2147483647LL},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        long long v = -1;
        int r = wb_parse_count(cases[i].s, WB_INT_MAX, &v);
        char name[128], why[128];
        snprintf(name, sizeof name, "parse_count '%s'", cases[i].s);
        snprintf(why, sizeof why, "returned %d value %lld, expected %d value %lld", r, v, cases[i].ret,
                 cases[i].v);
        check(r == cases[i].ret && (r != 0 || v == cases[i].v), name, why);
    }
}

static void test_args(void)
{
    wb_args a;
    char err[1200];
    int i;

    good(&length_lab, "", &a);
    check(a.n == 1 << 24 && a.block_x == 512 && a.reps == 20 && a.seed == 1 && a.format == WB_TABLE_OUT &&
              a.selected[0] && a.selected[1] && a.selected[2] && !a.n_given && !a.block_given,
          "args defaults", "defaults not applied");
    good(&length_lab, "-n 16M -b 32 -r 7 --seed 42 --csv", &a);
    check(a.n == 16777216 && a.block_x == 32 && a.reps == 7 && a.seed == 42 && a.format == WB_CSV &&
              a.n_given && a.block_given,
          "args values", "values not parsed");
    good(&length_lab, "-n 1 -b 1024 --json", &a);
    check(a.n == 1 && a.block_x == 1024 && a.format == WB_JSON, "args extremes", "1 / 1024 / json");
    good(&length_lab, "-k gamma,alpha", &a);
    check(a.selected[0] && !a.selected[1] && a.selected[2], "args -k subset", "wrong selection");
    good(&length_lab, "--sweep --explain", &a);
    check(a.extra && a.explain, "args extra flag and --explain", "flags not set");
    good(&length_lab, "--list", &a);
    check(a.list, "args --list", "not set");
    good(&length_lab, "-h", &a);
    check(a.help, "args -h", "not set");
    good(&length_lab, "--seed 18446744073709551615", &a);
    check(a.seed == 18446744073709551615ULL, "args largest seed", "wrong seed");

    bad(&length_lab, "-n 0", "-n");
    bad(&length_lab, "-n -5", "-n");
    bad(&length_lab, "-n abc", "-n");
    bad(&length_lab, "-n 3G", "larger than");
    bad(&length_lab, "-n 99999999999999999999", "larger than");
    bad(&length_lab, "-n 2048x2048", "-n");
    bad(&length_lab, "-n", "needs a value");
    bad(&length_lab, "-b 48", "power of two");
    bad(&length_lab, "-b 16", "power of two");
    bad(&length_lab, "-b 2048", "power of two");
    bad(&length_lab, "-b 0", "-b");
    bad(&length_lab, "-b x", "-b");
    bad(&length_lab, "-k nope", "nope");
    bad(&length_lab, "-k alpha,", "empty");
    bad(&length_lab, "-k ,alpha", "empty");
    bad(&length_lab, "-k Alpha", "Alpha");
    bad(&length_lab, "-r 0", "-r");
    bad(&length_lab, "-r 1000001", "-r");
    bad(&length_lab, "-r many", "-r");
    bad(&length_lab, "--seed -1", "--seed");
    bad(&length_lab, "--seed 99999999999999999999", "--seed");
    bad(&length_lab, "--csv --json", "exclude");
    bad(&length_lab, "--bogus", "unknown option");
    bad(&length_lab, "--trace", "unknown option");
    bad(&length_lab, "stray", "unexpected argument");
    bad(&cpu_lab, "-b 256", "no thread blocks");
    bad(&cpu_lab, "--sweep", "unknown option");

    good(&matrix_lab, "", &a);
    check(a.nx == 2048 && a.ny == 2048 && a.n == 2048LL * 2048 && a.block_x == 16 && a.block_y == 16,
          "args matrix defaults", "defaults not applied");
    good(&matrix_lab, "-n 8192x4096 -b 32x8", &a);
    check(a.nx == 8192 && a.ny == 4096 && a.block_x == 32 && a.block_y == 8, "args matrix NXxNY", "wrong");
    good(&matrix_lab, "-n 33", &a);
    check(a.nx == 33 && a.ny == 33, "args matrix square", "wrong");
    good(&matrix_lab, "--nx 1 --ny 1000", &a);
    check(a.nx == 1 && a.ny == 1000 && a.n == 1000, "args matrix --nx --ny", "wrong");
    good(&matrix_lab, "-n 2K -b 1x32", &a);
    check(a.nx == 2048 && a.block_x == 1 && a.block_y == 32, "args matrix suffix and thin block", "wrong");
    bad(&matrix_lab, "-n 0x5", "-n");
    bad(&matrix_lab, "-n 12x", "-n");
    bad(&matrix_lab, "-n x12", "-n");
    bad(&matrix_lab, "-n 65536x65536", "int indices");
    bad(&matrix_lab, "--nx 0", "--nx");
    bad(&matrix_lab, "-b 16x128", "block shape");
    bad(&matrix_lab, "-b 3x32", "block shape");
    bad(&matrix_lab, "-b 4x4", "block shape");
    bad(&matrix_lab, "-b 16", "block shape");

    /* the parser never reads past argv: a value-taking flag last */
    for (i = 0; i < 3; ++i) {
        const char *flags[] = {"-k", "-r", "--seed"};
        char line[32];
        snprintf(line, sizeof line, "%s", flags[i]);
        bad(&length_lab, line, "needs a value");
    }
    (void)err;
}

/* --exercises and -k NAMES with exercises (common/args.c's parser) */
static void test_exercise_args(void)
{
    wb_args a;
    char err[1200], *text;
    size_t len;
    FILE *m;

    good(&ex_lab, "", &a);
    check(!a.exercises && a.n == 1 << 24 && a.selected[0] && a.selected[1] && a.selected[2] && a.ex_selected[0] &&
              a.ex_selected[1],
          "exercises: a plain run selects every kernel and exercise, no exercise run", "wrong");
    good(&ex_lab, "--exercises", &a);
    check(a.exercises && !a.n_given && a.n == WB_EXERCISE_N && a.n == 16777213 && a.selected[0] &&
              a.selected[2] && a.ex_selected[0] && a.ex_selected[1],
          "--exercises without -n runs every kernel and exercise at the lab's exercise_n (2^24 - 3)", "wrong");
    good(&ex_lab, "--exercises -n 1000", &a);
    check(a.exercises && a.n == 1000 && a.n_given, "--exercises -n 1000 keeps the given n", "wrong");
    good(&ex_lab, "-n 17 --exercises", &a);
    check(a.exercises && a.n == 17, "-n before --exercises is kept too", "wrong");
    good(&ex_lab, "-k delta", &a);
    check(a.exercises && a.n == WB_EXERCISE_N && a.ex_selected[0] && !a.ex_selected[1] && !a.selected[0] &&
              !a.selected[1] && !a.selected[2],
          "-k naming an exercise asks for the exercise run, that exercise alone, at exercise_n", "wrong");
    good(&ex_lab, "-k epsilon,beta -n 5", &a);
    check(a.exercises && a.n == 5 && !a.ex_selected[0] && a.ex_selected[1] && !a.selected[0] && a.selected[1] &&
              !a.selected[2],
          "-k mixes kernels and exercises", "wrong");
    good(&ex_lab, "-k beta", &a);
    check(!a.exercises && a.n == 1 << 24 && a.selected[1] && !a.selected[0] && !a.ex_selected[0] &&
              !a.ex_selected[1],
          "-k naming kernels only: no exercise run, no exercise selected", "wrong");
    good(&ex_lab, "--exercises -k alpha", &a);
    check(a.exercises && a.selected[0] && !a.selected[1] && !a.ex_selected[0] && !a.ex_selected[1],
          "--exercises -k KERNEL: the exercise run of that kernel alone", "wrong");
    good(&ex_cpu_lab, "--exercises --trace", &a);
    check(a.exercises && a.extra && a.n == WB_EXERCISE_N, "--exercises with a lab's own flag (CPU lab)",
          "wrong");
    good(&ex_matrix_lab, "--exercises", &a);
    check(a.exercises && a.nx == 1000 && a.ny == 333 && a.n == 333000,
          "--exercises on a matrix lab runs at its exercise_nx x exercise_ny", "wrong");
    good(&ex_matrix_lab, "--exercises -n 64x32", &a);
    check(a.nx == 64 && a.ny == 32, "--exercises -n NXxNY keeps the given matrix", "wrong");
    bad(&ex_lab, "-k zeta", "exercises: delta, epsilon");
    bad(&ex_lab, "-k delta,", "empty");
    bad(&ex_lab, "--exercise", "unknown option");
    bad(&length_lab, "--exercises", "unknown option");
    bad(&cpu_lab, "-k delta", "delta");
    check(wb_exercise_index(&ex_lab, "epsilon") == 1 && wb_exercise_index(&ex_lab, "alpha") == -1 &&
              wb_exercise_index(&length_lab, "delta") == -1,
          "wb_exercise_index", "wrong");

    m = open_memstream(&text, &len);
    wb_print_usage(&ex_lab, m);
    fclose(m);
    check(strstr(text, "[--exercises]") && strstr(text, "labE_x/exercises.cuh") &&
              strstr(text, "n = 16777213 (2^24 - 3)"),
          "-h names --exercises, the file and the size", text);
    free(text);
    m = open_memstream(&text, &len);
    wb_print_usage(&length_lab, m);
    fclose(m);
    check(!strstr(text, "--exercises"), "-h of a lab without exercises does not offer --exercises", text);
    free(text);
    m = open_memstream(&text, &len);
    wb_print_list(&ex_lab, m);
    fclose(m);
    check(strstr(text, "exercises in labE_x/exercises.cuh (./labE --exercises runs them):\n") &&
              strstr(text, "\ndelta ") && strstr(text, " write ") && strstr(text, "(measured against alpha)") &&
              strstr(text, "\nepsilon ") && strstr(text, " fix ") && strstr(text, "(measured against gamma)"),
          "--list names each exercise, its kind and its reference", text);
    free(text);
    (void)err;
}

static void test_stats(void)
{
    double odd[] = {5, 1, 4, 2, 3};
    double even[] = {4, 1, 3, 2};
    double one[] = {7.5};
    wb_stats s = wb_summarize(odd, 5);
    check(s.median == 3 && s.min == 1 && s.max == 5 && s.q1 == 2 && s.q3 == 4 && s.count == 5,
          "median and quartiles of 5", "wrong summary");
    check(odd[0] == 1 && odd[4] == 5, "summarize sorts", "not sorted");
    s = wb_summarize(even, 4);
    check(s.median == 2.5 && s.q1 == 1.75 && s.q3 == 3.25, "median of an even count interpolates",
          "wrong summary");
    check(fabs(wb_spread_pct(s) - 60.0) < 1e-9, "spread is IQR over median", "wrong spread");
    s = wb_summarize(one, 1);
    check(s.median == 7.5 && s.q1 == 7.5 && s.q3 == 7.5 && wb_spread_pct(s) == 0, "summary of one sample",
          "wrong");
    check(fabs(wb_gbps(1e9, 1000.0) - 1.0) < 1e-12, "gbps 1e9 bytes in 1 s", "wrong");
    check(fabs(wb_gbps(64.0 * 1048576, 0.0224) - 2995.931) < 0.01, "gbps 64 MiB in 22.4 us", "wrong");
    check(wb_gbps(100, 0) == 0, "gbps of zero time is 0", "wrong");
    check(wb_ceil_div(10, 3) == 4 && wb_ceil_div(9, 3) == 3 && wb_ceil_div(1, 512) == 1, "ceil_div", "wrong");
    check(wb_is_pow2(1) && wb_is_pow2(1024) && !wb_is_pow2(0) && !wb_is_pow2(48) && !wb_is_pow2(-4),
          "is_pow2", "wrong");
}

static void test_value_rule(void)
{
    long long sizes[] = {1, 2, 17, 1000003, 8421504, 8421505, 1 << 24, 1 << 28, 1LL << 30, WB_INT_MAX};
    size_t i;
    int all = 1;
    check(wb_int_value_max(1) == 255 && wb_int_value_max(1 << 24) == 127 && wb_int_value_max(1 << 28) == 7 &&
              wb_int_value_max(WB_INT_MAX) == 1 && wb_int_value_max(WB_INT_MAX + 1) == 0 &&
              wb_int_value_max(0) == 0,
          "value rule at known sizes", "wrong vmax");
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        long long v = wb_int_value_max(sizes[i]);
        /* the worst case (every element at vmax) fits, and one more would not
         * unless vmax is already the 255 cap */
        if (sizes[i] * v > WB_INT_MAX || v < 1 || (v < 255 && sizes[i] * (v + 1) <= WB_INT_MAX))
            all = 0;
    }
    check(all, "value rule: n * vmax <= INT_MAX, and vmax is the largest such (<= 255)", "rule broken");
    {
        size_t n = 1000003, j;
        int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int)), in_range = 1, same = 1, differs = 0;
        int vmax = wb_int_value_max((long long)n), seen_max = 0;
        wb_fill_ints(a, n, 1);
        wb_fill_ints(b, n, 1);
        for (j = 0; j < n; ++j) {
            if (a[j] < 0 || a[j] > vmax)
                in_range = 0;
            if (a[j] == vmax)
                seen_max = 1;
            if (a[j] != b[j])
                same = 0;
        }
        wb_fill_ints(b, n, 2);
        for (j = 0; j < n; ++j)
            if (a[j] != b[j])
                differs = 1;
        check(in_range && seen_max, "fill_ints stays in [0, vmax] and reaches vmax", "out of range");
        check(same, "fill_ints is deterministic for a seed", "differs");
        check(differs, "fill_ints differs between seeds", "same");
        check(wb_sum_ints(a, n) <= WB_INT_MAX, "sum of 1000003 inputs fits in int", "overflow");
        free(a);
        free(b);
    }
    {
        float f[1000];
        int j, ok = 1;
        wb_fill_floats(f, 1000, 3);
        for (j = 0; j < 1000; ++j)
            if (!(f[j] >= -1.0f && f[j] < 1.0f))
                ok = 0;
        check(ok, "fill_floats in [-1, 1)", "out of range");
    }
    {
        int big[] = {2147483647, 0, 1};
        check(wb_sum_ints(big, 3) == 2147483648LL, "reference sum is 64-bit", "wrapped");
    }
}

/* Write the report in a format to a string. */
static char *render(const wb_report *r, wb_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    wb_report_print(r, f, m);
    fclose(m);
    return buf;
}

static void test_note(const wb_report *r, FILE *out)
{
    fprintf(out, "a note on %d rows\n\n", r->nrows);
}

static int count_char(const char *s, char c)
{
    int k = 0;
    for (; *s; ++s)
        k += *s == c;
    return k;
}

static void test_report(void)
{
    static wb_report r;
    wb_row row;
    double t1[] = {2.0, 2.0, 2.0}, t2[] = {1.0, 1.0, 1.0};
    char *csv, *json, *table, *line;
    char bar[32];

    wb_report_init(&r, "labX");
    snprintf(r.device, sizeof r.device, "Test, GPU");
    snprintf(r.device_detail, sizeof r.device_detail, "detail");
    r.ceiling_gbps = 100.0;
    r.peak_gbps = 200.0;
    r.baseline = "slow";
    r.reps = 3;
    memset(&row, 0, sizeof row);
    row.kernel = "slow";
    row.n = 1000;
    row.bytes = 4e6;
    row.time = wb_summarize(t1, 3);
    row.total_ms = 3.0;
    row.finish = "device"; /* the CSV's finish column: only where total_ms is */
    row.pass = 1;
    wb_report_add(&r, &row);
    row.kernel = "fast";
    row.time = wb_summarize(t2, 3);
    row.total_ms = -1;
    row.pass = 1;
    wb_report_add(&r, &row);

    check(fabs(r.rows[0].gbps - 2.0) < 1e-12 && fabs(r.rows[1].gbps - 4.0) < 1e-12, "row gbps = bytes / time",
          "wrong");
    check(fabs(r.rows[1].pct_of_copy - 4.0) < 1e-12 && r.rows[1].ceiling_gbps == 100.0, "row % of ceiling",
          "wrong");
    check(fabs(r.rows[1].speedup - 2.0) < 1e-12 && fabs(r.rows[0].speedup - 1.0) < 1e-12,
          "speedup against the baseline", "wrong");
    check(wb_report_status(&r) == WB_EXIT_OK, "status 0 when every row passes", "wrong");

    csv = render(&r, WB_CSV);
    line = strtok(csv, "\n");
    check(line && !strcmp(line, wb_csv_header), "CSV starts with the documented header", line ? line : "empty");
    line = strtok(NULL, "\n");
    check(line && strstr(line, ",device,,,PASS"), "CSV: finish (device) just before status", line ? line : "none");
    check(line && count_char(line, ',') == count_char(wb_csv_header, ',') && strstr(line, "Test  GPU") &&
              strstr(line, ",PASS"),
          "CSV row: one field per column, commas out of the device name", line ? line : "missing");
    line = strtok(NULL, "\n");
    check(line && strstr(line, ",fast,") && strstr(line, ",,,100.00,") && strstr(line, ",,PASS"),
          "CSV: empty total (and finish) for n/a", line ? line : "missing");
    check(strtok(NULL, "\n") == NULL, "CSV has only header and rows", "extra lines");
    free(csv);

    r.rows[1].pass = 0;
    snprintf(r.rows[1].check, sizeof r.rows[1].check, "sum 1, expected \"2\"");
    check(wb_report_status(&r) == WB_EXIT_WRONG, "status 1 when a row fails", "wrong");
    json = render(&r, WB_JSON);
    check(count_char(json, '{') == count_char(json, '}') && count_char(json, '[') == count_char(json, ']') &&
              strstr(json, "\"status\": \"FAIL\"") && strstr(json, "\"failed\": 1") &&
              strstr(json, "\\\"2\\\"") && strstr(json, "\"total_ms\": null, \"total_gbps\": null, \"finish\": null") &&
              strstr(json, "\"total_ms\": 3.000000, \"total_gbps\": 1.33, \"finish\": \"device\""),
          "JSON balanced, escaped, with the verdict", json);
    free(json);
    table = render(&r, WB_TABLE_OUT);
    check(strstr(table, "labX: FAIL - 1 of 2 kernels gave a wrong result: fast") != NULL,
          "table ends with the summary naming the failure", table);
    check(strstr(table, "ceiling  100 GB/s") && strstr(table, "50.0% of the theoretical 200 GB/s"),
          "table shows ceiling and peak", table);
    free(table);

    /* a lab's notes go under the table, and the summary stays the last line */
    r.notes = test_note;
    table = render(&r, WB_TABLE_OUT);
    {
        const char *note = strstr(table, "a note on 2 rows\n\nlabX: FAIL - 1 of 2 kernels");
        const char *summary = note ? strstr(note, "labX: FAIL") : NULL;
        check(summary && strchr(summary, '\n') == table + strlen(table) - 1,
              "notes print under the table; the summary is the last line", table);
    }
    free(table);
    csv = render(&r, WB_CSV);
    check(!strstr(csv, "a note"), "notes stay out of the CSV", csv);
    free(csv);
    json = render(&r, WB_JSON);
    check(!strstr(json, "a note"), "notes stay out of the JSON", json);
    free(json);
    r.notes = NULL;

    wb_bar(50, 20, bar);
    check(!strcmp(bar, "##########.........."), "bar at 50%", bar);
    wb_bar(130, 10, bar);
    check(!strcmp(bar, "#########>"), "bar past 100% ends with '>'", bar);
    wb_bar(0, 4, bar);
    check(!strcmp(bar, "...."), "bar at 0%", bar);
}

/* The n-th line (from 0) of text, into buf; "" past the end. */
static const char *nth_line(const char *text, int n, char *buf, size_t len)
{
    const char *p = text, *end;
    for (; n > 0 && p; --n) {
        p = strchr(p, '\n');
        if (p)
            ++p;
    }
    if (!p || !*p) {
        buf[0] = '\0';
        return buf;
    }
    end = strchr(p, '\n');
    snprintf(buf, len, "%.*s", (int)(end ? (size_t)(end - p) : strlen(p)), p);
    return buf;
}

/* The CSV field `col` (1-based) of line, into buf. */
static const char *csv_field(const char *line, int col, char *buf, size_t len)
{
    const char *p = line, *end;
    for (; col > 1 && p; --col) {
        p = strchr(p, ',');
        if (p)
            ++p;
    }
    if (!p) {
        buf[0] = '\0';
        return buf;
    }
    end = strchr(p, ',');
    snprintf(buf, len, "%.*s", (int)(end ? (size_t)(end - p) : strlen(p)), p);
    return buf;
}

/* "YYYY-MM-DDTHH:MM:SSZ" */
static int is_iso_utc(const char *s)
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

/* Exercise rows, todo rows, the new columns and the exercises line. */
static void test_exercise_report(void)
{
    static wb_report r;
    wb_row row;
    double t1[] = {2.0, 2.0, 2.0}, t2[] = {1.0, 1.0, 1.0}, t3[] = {0.5, 0.5, 0.5};
    char *csv, *json, *table, line[1024], f[128], f2[128], now[32];
    int i, cols;
    static const char *const want_cols[] = {
        "lab", "device", "kernel", "n", "nx", "ny", "grid", "block", "bytes", "reps", "time_ms", "q1_ms", "q3_ms",
        "spread_pct", "gbps", "pct_of_copy", "speedup", "total_ms", "total_gbps", "ceiling_gbps", "peak_gbps",
        "type", "role", "against", "build", "run_at", "fingerprint", "finish", "error", "bound", "status"};

    /* the header: the documented columns, in this order */
    cols = count_char(wb_csv_header, ',') + 1;
    {
        int same = cols == (int)(sizeof want_cols / sizeof want_cols[0]);
        for (i = 0; same && i < cols; ++i)
            same = !strcmp(csv_field(wb_csv_header, i + 1, f, sizeof f), want_cols[i]);
        check(same, "CSV header: ...,peak_gbps,type,role,against,build,run_at,fingerprint,finish,error,bound,status", wb_csv_header);
    }

    wb_report_init(&r, "labE");
    check(is_iso_utc(r.run_at), "run_at is an ISO 8601 UTC time (YYYY-MM-DDTHH:MM:SSZ)", r.run_at);
    wb_utc_now(now, sizeof now);
    check(is_iso_utc(now) && strcmp(now, r.run_at) >= 0, "wb_utc_now: ISO UTC, not before run_at", now);
    check(!strcmp(r.build_id, wb_build_id) && !strcmp(r.fingerprint, wb_build_fingerprint) &&
              !strcmp(r.type, "int"),
          "report stamped with the build id and fingerprint compiled in, type int", r.build_id);
    snprintf(r.device, sizeof r.device, "Test GPU");
    r.ceiling_gbps = 100.0;
    r.baseline = "slow";
    r.reps = 3;
    memset(&row, 0, sizeof row);
    row.n = 1000;
    row.bytes = 4e6;
    row.total_ms = -1;
    row.pass = 1;
    row.kernel = "slow";
    row.time = wb_summarize(t1, 3);
    wb_report_add(&r, &row);
    row.kernel = "fast";
    row.time = wb_summarize(t2, 3);
    wb_report_add(&r, &row);
    row.kernel = "mine"; /* an exercise, against "fast" (not the baseline "slow") */
    row.role = "write";
    row.against = "fast";
    row.time = wb_summarize(t3, 3);
    wb_report_add(&r, &row);
    memset(&row, 0, sizeof row); /* an exercise not written yet */
    row.kernel = "later";
    row.role = "write";
    row.against = "slow";
    row.n = 1000;
    row.bytes = 4e6;
    row.total_ms = -1;
    row.todo = 1;
    snprintf(row.check, sizeof row.check, "not written yet");
    wb_report_add(&r, &row);

    check(fabs(r.rows[2].speedup - 2.0) < 1e-12, "an exercise's speedup is against its `against` row", "wrong");
    check(fabs(r.rows[1].speedup - 2.0) < 1e-12, "a kernel's speedup stays against the baseline", "wrong");
    check(wb_report_status(&r) == WB_EXIT_OK, "a todo row does not change the exit status (0)", "wrong");

    csv = render(&r, WB_CSV);
    nth_line(csv, 1, line, sizeof line);
    check(!strcmp(csv_field(line, 23, f, sizeof f), "kernel") && !strcmp(csv_field(line, 24, f2, sizeof f2), ""),
          "CSV: a shipped kernel's role is `kernel`, against empty", line);
    check(!strcmp(csv_field(line, 22, f, sizeof f), "int") && !strcmp(csv_field(line, 25, f2, sizeof f2), wb_build_id),
          "CSV: type and build columns", line);
    check(!strcmp(csv_field(line, 26, f, sizeof f), r.run_at) &&
              !strcmp(csv_field(line, 27, f2, sizeof f2), wb_build_fingerprint),
          "CSV: run_at and fingerprint columns", line);
    nth_line(csv, 3, line, sizeof line);
    check(!strcmp(csv_field(line, 3, f, sizeof f), "mine") && !strcmp(csv_field(line, 23, f2, sizeof f2), "write") &&
              strstr(line, ",write,fast,") && !strcmp(csv_field(line, 17, f, sizeof f), "2.000") &&
              !strcmp(csv_field(line, cols, f2, sizeof f2), "PASS"),
          "CSV: an exercise row carries role, against, its speedup over against, PASS", line);
    nth_line(csv, 4, line, sizeof line);
    {
        int empty = 1;
        for (i = 11; i <= 19; ++i)
            if (csv_field(line, i, f, sizeof f)[0])
                empty = 0;
        check(count_char(line, ',') == cols - 1 && !strcmp(csv_field(line, 10, f, sizeof f), "0") && empty &&
                  !strcmp(csv_field(line, cols, f2, sizeof f2), "todo") && strstr(line, ",write,slow,"),
              "CSV: a todo row has reps 0, empty time..total_gbps, status todo", line);
    }
    check(nth_line(csv, 5, line, sizeof line)[0] == '\0', "CSV: no exercises line", csv);
    free(csv);

    json = render(&r, WB_JSON);
    check(strstr(json, "\"kernel\": \"later\", \"role\": \"write\", \"against\": \"slow\"") &&
              strstr(json, "\"reps\": 0, \"time_ms\": null") && strstr(json, "\"status\": \"todo\"") &&
              strstr(json, "\"todo\": 1") && strstr(json, "\"failed\": 0") &&
              strstr(json, "\"status\": \"PASS\"\n}") && strstr(json, "\"run_at\": ") &&
              count_char(json, '{') == count_char(json, '}'),
          "JSON: the todo row (null figures), todo count, overall PASS", json);
    free(json);

    table = render(&r, WB_TABLE_OUT);
    {
        const char *t = strstr(table, "\nlater ");
        check(t && strstr(t, "todo\n") && !strstr(t, "0.0000") && !strstr(t, "#"),
              "table: a todo row says todo, with no figures", table);
        check(strstr(table, "labE: PASS - 3 of 3 kernels verified; 1 exercise todo") &&
                  strstr(table, "later (write it, against slow): todo") &&
                  strstr(table, "mine (write it, against fast): PASS"),
              "table: the summary counts the todo apart; a line per exercise", table);
    }
    free(table);

    /* a failing exercise: status 1; the todo row still does not count */
    r.rows[2].pass = 0;
    snprintf(r.rows[2].check, sizeof r.rows[2].check, "sum 1, expected 2");
    check(wb_report_status(&r) == WB_EXIT_WRONG, "a FAILing exercise row makes the status 1", "wrong");
    table = render(&r, WB_TABLE_OUT);
    check(strstr(table, "labE: FAIL - 1 of 3 kernels gave a wrong result: mine; 1 exercise todo") &&
              strstr(table, "mine (write it, against fast): FAIL"),
          "table: a FAIL exercise is named, the todo counted apart", table);
    free(table);
    r.rows[2].pass = 1;

    /* the closing line of a run without --exercises */
    r.nrows = 2;
    r.ex_total = 3;
    r.ex_done = 1;
    r.ex_todo = 1;
    r.ex_file = "labE_x/exercises.cuh";
    table = render(&r, WB_TABLE_OUT);
    {
        const char *want = "labE: PASS - 2 of 2 kernels verified";
        const char *sum = strstr(table, want), *ex = strstr(table, "\nexercises: ");
        check(sum && ex && ex > sum && !strcmp(ex + 1, "exercises: 1 of 3 done, 1 todo, 1 failing "
                                                       "(labE_x/exercises.cuh; run ./labE --exercises)\n"),
              "table: the exercises line is the last line, after the summary", table);
    }
    free(table);
    r.ex_done = 0;
    r.ex_todo = 3;
    table = render(&r, WB_TABLE_OUT);
    check(strstr(table, "\nexercises: 0 of 3 done, 3 todo (labE_x/exercises.cuh; run ./labE --exercises)\n") != NULL,
          "exercises line: nothing failing, no failing count", table);
    free(table);
    r.ex_done = 3;
    r.ex_todo = 0;
    table = render(&r, WB_TABLE_OUT);
    check(strstr(table, "\nexercises: 3 of 3 done (labE_x/exercises.cuh; run ./labE --exercises)\n") != NULL,
          "exercises line: all done", table);
    free(table);
    csv = render(&r, WB_CSV);
    json = render(&r, WB_JSON);
    check(!strstr(csv, "exercises:") && !strstr(json, "exercises:"), "the exercises line stays out of CSV and JSON",
          csv);
    free(csv);
    free(json);
    r.ex_total = 0;
    table = render(&r, WB_TABLE_OUT);
    check(!strstr(table, "exercises:"), "no exercises line when the lab has none (ex_total 0)", table);
    free(table);
}

/* --type and --values: a lab's types, uniform only with float or double,
 * the exercises int only; the report's error and bound columns. */
static const wb_lab typed_lab = {
    .lab = "labT", .title = "a lab in three types", .shape = WB_LENGTH, .default_n = 1 << 24,
    .max_n = WB_INT_MAX, .max_n_reason = "int sum", .uses_block = 0, .default_reps = 20,
    .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex), .exercise_file = "labT_x/exercises.c",
    .exercise_n = WB_EXERCISE_N, .types = WB_ALL_TYPES,
};

static void test_type_args(void)
{
    wb_args a;
    good(&typed_lab, "", &a);
    check(a.type == WB_INT && a.values == WB_VALUES_EXACT, "--type int and --values exact by default", "");
    good(&typed_lab, "--type float", &a);
    check(a.type == WB_FLOAT && a.values == WB_VALUES_EXACT, "--type float", "");
    good(&typed_lab, "--type double --values uniform", &a);
    check(a.type == WB_DOUBLE && a.values == WB_VALUES_UNIFORM, "--type double --values uniform", "");
    good(&typed_lab, "--values exact --type int", &a);
    check(a.type == WB_INT, "--type int given", "");
    bad(&typed_lab, "--type half", "int, float or double");
    bad(&typed_lab, "--type", "needs a value");
    bad(&typed_lab, "--values random --type float", "exact");
    bad(&typed_lab, "--values uniform", "float");
    bad(&typed_lab, "--values uniform --type int", "float");
    bad(&typed_lab, "--exercises --type float", "int functions");
    bad(&typed_lab, "-k delta --type double", "int functions");
    /* a lab of int sums only (lab05-finish) */
    bad(&length_lab, "--type float", "--type float: labX sums int only; it takes int");
    bad(&length_lab, "--type double", "sums int only");
    bad(&length_lab, "--type float --values uniform", "sums int only");
    bad(&length_lab, "--values uniform", "int only");
    good(&length_lab, "--type int", &a);
    check(a.type == WB_INT, "a lab of int only takes --type int", "");
    bad(&matrix_lab, "--type float", "transposes floats");
}

static void test_float_inputs(void)
{
    /* the value rule with 2^24 and 2^53 in place of INT_MAX */
    check(wb_exact_value_max(WB_FLOAT, 1) == 255 && wb_exact_value_max(WB_FLOAT, 65793) == 255 &&
              wb_exact_value_max(WB_FLOAT, 65794) == 254 && wb_exact_value_max(WB_FLOAT, 1 << 24) == 1 &&
              wb_exact_value_max(WB_FLOAT, (1 << 24) + 1) == 0 && wb_exact_value_max(WB_DOUBLE, WB_INT_MAX) == 255 &&
              wb_exact_value_max(WB_INT, 1 << 24) == wb_int_value_max(1 << 24),
          "value rule for float (2^24) and double (2^53)", "wrong vmax");
    {
        /* the exact float input: integers in [0, vmax], every partial sum
         * exact: the float loop gives the 64-bit sum at 2^24 - 3 */
        size_t n = (1 << 24) - 3, i;
        float *f = malloc(n * sizeof(float)), s = 0;
        long long vmax = wb_exact_value_max(WB_FLOAT, (long long)n), isum = 0;
        int ints = 1;
        wb_exact e;
        wb_fill_float_values(f, n, WB_VALUES_EXACT, 1);
        for (i = 0; i < n; ++i) {
            if (f[i] != (float)(long long)f[i] || f[i] < 0 || f[i] > vmax)
                ints = 0;
            isum += (long long)f[i];
            s += f[i];
        }
        e = wb_exact_sum_floats(f, n, 0);
        check(ints, "exact float input: integers in [0, vmax]", "");
        check((long long)s == isum && wb_exact_value(&e) == (double)isum && wb_exact_error(&e, s) == 0 &&
                  e.abs_sum == (double)isum,
              "exact float input: the float loop equals the 64-bit integer sum (2^24 - 3 elements)", "");
        free(f);
    }
    {
        /* the exact double input is the int input where both ranges are 255 */
        size_t n = 100003, i;
        double *d = malloc(n * sizeof(double));
        int *k = malloc(n * sizeof(int)), same = 1;
        wb_fill_double_values(d, n, WB_VALUES_EXACT, 5);
        wb_fill_ints(k, n, 5);
        for (i = 0; i < n; ++i)
            if (d[i] != k[i])
                same = 0;
        check(same, "exact double input = the int input (same seed, vmax 255)", "");
        free(d);
        free(k);
    }
    {
        /* uniform: [-1, 1) on the grid of 2^-24 / 2^-52, the exact sum exact */
        size_t n = 1000003, i;
        float *f = malloc(n * sizeof(float));
        double *d = malloc(n * sizeof(double)), fsum = 0;
        long double dsum = 0;
        int in_range = 1, on_grid = 1, neg = 0;
        wb_exact ef, ed;
        wb_fill_float_values(f, n, WB_VALUES_UNIFORM, 7);
        wb_fill_double_values(d, n, WB_VALUES_UNIFORM, 7);
        for (i = 0; i < n; ++i) {
            if (!(f[i] >= -1 && f[i] < 1 && d[i] >= -1 && d[i] < 1))
                in_range = 0;
            if (ldexp(f[i], 24) != floor(ldexp(f[i], 24)) || ldexp(d[i], 52) != floor(ldexp(d[i], 52)))
                on_grid = 0;
            neg += f[i] < 0;
            fsum += f[i]; /* exact in double: 2^20 * 2^24 < 2^53 */
            dsum += d[i];
        }
        ef = wb_exact_sum_floats(f, n, 24);
        ed = wb_exact_sum_doubles(d, n, 52);
        check(in_range && on_grid && neg > 0 && neg < (int)n, "uniform input in [-1, 1), on the 2^-24 / 2^-52 grid",
              "");
        check(wb_exact_value(&ef) == fsum && wb_exact_error(&ef, fsum) == 0 && ef.abs_sum > 0.4 * n &&
                  ef.abs_sum < 0.6 * n,
              "uniform float reference: exact sum and sum|x|", "");
        check(fabsl((long double)wb_exact_value(&ed) - dsum) < 1e-6L && ed.step_bits == 52 &&
                  wb_exact_error(&ed, wb_exact_value(&ed)) <= ldexp(1.0, -52) * 1e6,
              "uniform double reference: 128-bit sum agrees with a long double sum", "");
        free(f);
        free(d);
    }
    {
        /* the 128-bit reference past 64 bits: 2^31 - 1 copies of 1 - 2^-52 */
        double one[1] = {1.0 - ldexp(1.0, -52)};
        wb_exact e = wb_exact_sum_doubles(one, 1, 52), big;
        double got;
        check(wb_exact_error(&e, one[0]) == 0 && wb_exact_error(&e, 1.0) == ldexp(1.0, -52),
              "exact error: one step of 2^-52", "");
        big = e;
        big.hi = 1; /* 2^64 + (2^52 - 1) steps: 4096 + just under 1 */
        got = wb_exact_value(&big);
        check(got == 4097.0 - ldexp(1.0, -52) || got == 4097.0, "exact sum past 64 bits (two words)", "");
    }
    /* the bounds */
    {
        double u = ldexp(1.0, -24);
        check(wb_unit_roundoff(WB_FLOAT) == u && wb_unit_roundoff(WB_DOUBLE) == ldexp(1.0, -53) &&
                  wb_unit_roundoff(WB_INT) == 0,
              "unit roundoff of float and double", "");
        check(wb_ceil_log2(1) == 0 && wb_ceil_log2(2) == 1 && wb_ceil_log2(3) == 2 && wb_ceil_log2(1024) == 10 &&
                  wb_ceil_log2(1025) == 11 && wb_ceil_log2(1LL << 24) == 24,
              "ceil(log2 n)", "");
        check(wb_error_bound(WB_FLOAT, 1, 0, 5.0) == 0 && wb_error_bound(WB_DOUBLE, 1, 0, 5.0) == 0,
              "bound 0 with no addition (n = 1)", "");
        check(fabs(wb_error_bound(WB_FLOAT, 1000, 0, 1.0) - 999 * u / (1 - 999 * u)) < 1e-18 &&
                  fabs(wb_error_bound(WB_FLOAT, 1, 10, 2.0) - 2 * 10 * u / (1 - 10 * u)) < 1e-18,
              "bound: loop gamma_(n-1), tree gamma_depth", "");
        check(wb_error_bound(WB_FLOAT, 256, 9, 1.0) == wb_error_bound(WB_FLOAT, 1, 255 + 9, 1.0) &&
                  wb_error_bound(WB_FLOAT, 256, 9, 1.0) < wb_error_bound(WB_FLOAT, 1 << 17, 0, 1.0),
              "bound: each thread's loop plus the tree (256 per leaf, 9 levels)", "");
        check(wb_error_bound(WB_FLOAT, 1 << 24, 0, 1.0) >= 1.0 &&
                  wb_error_bound(WB_DOUBLE, 1 << 24, 0, 1.0) < 1e-8,
              "bound: the float loop at 2^24 says nothing (>= sum|x|), the double loop is tight", "");
        check(wb_error_bound(WB_FLOAT, (1 << 24) + 1, 0, 1.0) < 0 && wb_error_bound(WB_FLOAT, 1 << 25, 3, 1.0) < 0 &&
                  wb_error_bound(WB_FLOAT, 1 << 23, 0, 1.0) > 0,
              "bound: none where k u >= 1 (gamma_k = ku/(1-ku) up to there)", "");
        check(fabs(wb_error_bound(WB_FLOAT, 1 << 23, 0, 2.0) - 2.0 * (0.5 - u) / (0.5 + u)) < 1e-9,
              "bound: gamma_k at k u near 1/2, not 2ku", "");
        check(fabs(wb_error_tolerance(WB_FLOAT, 101, 0, 3.0) - 10 * u * 3.0) < 1e-18,
              "tolerance: sqrt(k) u sum|x|", "");
        {
            wb_row row;
            memset(&row, 0, sizeof row);
            wb_judge_bound(&row, WB_FLOAT, (1 << 24) + 1, 0, 1.0, 1e-4, "", "");
            check(row.has_bound && row.no_bound && row.pass && strstr(row.check, "<= tol ") &&
                      strstr(row.check, "(no bound)"),
                  "judge: a row without a bound is checked against the tolerance and says so", row.check);
            wb_judge_bound(&row, WB_DOUBLE, 1000, 10, 1.0, 1.0, "", "");
            check(row.has_bound && !row.no_bound && !row.pass && strstr(row.check, "> bound "),
                  "judge: an error over the bound FAILs", row.check);
        }
    }
    {
        /* the report carries them: CSV error,bound before status; JSON too */
        static wb_report r;
        wb_row row;
        char *csv, *json;
        wb_report_init(&r, "labT");
        r.type = "float";
        memset(&row, 0, sizeof row);
        row.kernel = "alpha";
        row.n = 1000;
        row.bytes = 4000;
        row.total_ms = -1;
        row.pass = 1;
        row.time.median = row.time.q1 = row.time.q3 = 0.5;
        row.time.count = 1;
        wb_report_add(&r, &row);
        row.kernel = "beta";
        row.has_bound = 1;
        row.error = 1.5e-6;
        row.bound = 3.25e-4;
        snprintf(row.check, sizeof row.check, "error 1.50e-06 <= bound 3.25e-04 (a tree)");
        wb_report_add(&r, &row);
        csv = render(&r, WB_CSV);
        json = render(&r, WB_JSON);
        check(strstr(csv, ",float,kernel,,") && strstr(csv, ",,PASS\n") && strstr(csv, ",1.500e-06,3.250e-04,PASS\n"),
              "CSV: error and bound empty for an exact check, given for a bound check, before status", csv);
        check(strstr(json, "\"error\": null, \"bound\": null, \"status\"") &&
                  strstr(json, "\"error\": 1.500e-06, \"bound\": 3.250e-04, \"status\""),
              "JSON: error and bound (null for an exact check)", json);
        free(csv);
        free(json);
    }
}

/* ---- the table fits a projector: WB_WIDTH columns ----------------------- */

/* The first line of text wider than WB_WIDTH (the table is ASCII: a
 * character is a column), into buf; NULL if none. */
static const char *wide_line(const char *text, char *buf, size_t len)
{
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > WB_WIDTH) {
            snprintf(buf, len, "%zu columns: %.*s", n, (int)n, p);
            return buf;
        }
        p += n + (end ? 1 : 0);
    }
    return NULL;
}

/* The longest kernel and exercise names of every lab, and one of 28. */
static const char *const long_names[] = {
    "recursiveInterleaved",       "reduceNeighboredEarlyExit", "reduceInterleavedGridStride",
    "reduceCompleteUnrollWarps8", "cub::DeviceReduce::Sum",    "reduceSmemNoSyncwarp",
    "transposeUnroll4Row+ldcg",   "transposeSmemUnrollPadDyn", "modernMemsetAtomic",
    "reduceCompleteUnrollWarps8x2"};
#define N_LONG ((int)(sizeof long_names / sizeof long_names[0]))

enum { SHAPE_CPU, SHAPE_1D, SHAPE_SWEEP, SHAPE_2D, SHAPE_ALL, NSHAPES };
static const char *const shape_name[NSHAPES] = {"CPU rows (lab01)", "1D grids, a total (labs 02-05)",
                                                "a sweep of sizes (lab05 --sweep)",
                                                "2D grids and blocks (lab06)",
                                                "2D grids and blocks, a total and a sweep"};

/* A report of one shape with every long name and the worst numbers: times
 * of 10000 ms, 99999 GB/s, 999x, n = 2^31 - 1, a FAIL with a long check, a
 * todo row, exercise rows, long banner texts and the exercises line. */
static void worst_report(wb_report *r, int shape)
{
    wb_row row;
    int i, k;
    wb_report_init(r, shape == SHAPE_CPU ? "lab01" : "lab05-finish");
    snprintf(r->device, sizeof r->device, "NVIDIA H100 80GB HBM3");
    snprintf(r->device_detail, sizeof r->device_detail,
             "cc 9.0, 132 SMs, 52 MB L2, 79 GiB, CUDA runtime 13.0, driver 13.0, and some more words");
    r->ceiling_gbps = 3124.0;
    r->peak_gbps = 3352.0;
    snprintf(r->ceiling_what, sizeof r->ceiling_what,
             "device-to-device cudaMemcpy of the same 8192.0 MiB, read+write counted");
    r->timed = "the kernel alone (CUDA events): the first pass for kernels 1-5 (one partial sum per "
               "block), the whole reduction to one number on the device for reduceModern and CUB";
    r->total_what = "the whole reduction on the host clock: kernel + copy of the partial sums (one int "
                    "for the one-pass rows) + their sum on the host, as the book does it";
    r->build = "loads: -Xptxas -dlcm=cg (L1 bypassed for every global load); the +ldcg rows use "
               "__ldcg() (L1 bypassed)";
    r->reps = 100000;
    r->baseline = long_names[0];
    r->ex_total = 9;
    r->ex_done = 1;
    r->ex_todo = 4;
    r->ex_file = "lab03_interleaved/exercises.cuh";
    for (k = 0; k < (shape == SHAPE_SWEEP || shape == SHAPE_ALL ? 3 : 1); ++k)
        for (i = 0; i < N_LONG; ++i) {
            memset(&row, 0, sizeof row);
            row.kernel = long_names[i];
            row.n = k == 2 ? WB_INT_MAX : 1024LL << (10 * k);
            if (shape == SHAPE_2D || shape == SHAPE_ALL) {
                row.nx = 65536;
                row.ny = (int)(row.n / 65536) + 1;
                row.grid_x = i % 2 ? 65535 : 4096;
                row.grid_y = i % 2 ? 32768 : 128;
                row.block_x = i % 2 ? 1024 : 32;
                row.block_y = i % 2 ? 1 : 32;
            } else if (shape != SHAPE_CPU) {
                row.grid_x = i % 2 ? 67108864 : 4096;
                row.block_x = 32;
            }
            /* the first row is 999x slower than the others: 999x speedups */
            row.time.median = i == 0 ? 10000.0 : 10000.0 / 999.0;
            row.time.q1 = 0;
            row.time.q3 = row.time.median * 9.99; /* a spread of 999% */
            row.time.count = 100000;
            row.bytes = 99999e6 * row.time.median; /* 99999 GB/s */
            row.total_ms = shape == SHAPE_1D || shape == SHAPE_SWEEP || shape == SHAPE_ALL ? 10000.0 : -1;
            row.pass = i != 3;
            row.todo = i == 5;
            snprintf(row.check, sizeof row.check, "sum 2147483647, expected 2147483646 (a check line as long "
                                                  "as the check field of a row holds)");
            if (i >= 7) {
                row.role = i == 7 ? "write" : "fix";
                row.against = long_names[N_LONG - 1 - i];
            }
            r->ceiling_gbps = 99.0 + k; /* % copy near 100000% */
            wb_report_add(r, &row);
        }
}

static void test_width(void)
{
    static wb_report r;
    char why[1024];
    int shape, i;
    for (shape = 0; shape < NSHAPES; ++shape) {
        char *table, name[160];
        const char *wide;
        int whole = 1;
        worst_report(&r, shape);
        table = render(&r, WB_TABLE_OUT);
        if (getenv("WB_SHOW_TABLES"))
            fputs(table, stderr);
        wide = wide_line(table, why, sizeof why);
        snprintf(name, sizeof name, "table fits %d columns: %s, the longest names, the worst numbers",
                 WB_WIDTH, shape_name[shape]);
        check(wide == NULL, name, wide ? wide : "");
        for (i = 0; i < N_LONG; ++i) {
            char want[64];
            snprintf(want, sizeof want, "\n%s ", long_names[i]);
            whole &= strstr(table, want) != NULL;
        }
        snprintf(name, sizeof name, "table keeps every kernel name whole: %s", shape_name[shape]);
        check(whole, name, table);
        free(table);
    }
    /* the wrap itself: words kept whole, the indent, runs of blanks kept */
    {
        char *buf = NULL, text[400];
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        for (i = 0; i < 30; ++i)
            memcpy(text + 10 * i, "word  abc ", 10);
        text[299] = '\0';
        wb_print_wrapped(m, "lead: ", 4, text);
        wb_print_wrapped(m, "short ", 4, "a  b\nc");
        fclose(m);
        check(!wide_line(buf, why, sizeof why) && strncmp(buf, "lead: word  abc word", 20) == 0 &&
                  strstr(buf, "\n    word  abc") && strstr(buf, "short a  b\n    c\n"),
              "wb_print_wrapped: words whole, indented, blanks kept, newline honoured", buf);
        free(buf);
    }
}

/* The usage text of a lab, as -h prints it. */
static char *usage_of(const wb_lab *lab)
{
    char *text;
    size_t len;
    FILE *m = open_memstream(&text, &len);
    wb_print_usage(lab, m);
    fclose(m);
    return text;
}

/* --finish host|device: labs 02-04 take it (device_finish 1), others refuse
 * it (the CSV's finish column: test_report) */
static void test_finish(void)
{
    static const wb_lab finish_lab = {
        .lab = "labR", .title = "a relaunching lab", .shape = WB_LENGTH, .default_n = 1 << 24,
        .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
        .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(fake), .device_finish = 1,
    };
    wb_args a;
    char *text;

    good(&finish_lab, "", &a);
    check(!a.finish_device, "--finish: the host finish by default", "device");
    good(&finish_lab, "--finish device -n 33", &a);
    check(a.finish_device && a.n == 33, "--finish device", "not set");
    good(&finish_lab, "--finish device --finish host", &a);
    check(!a.finish_device, "--finish host (the last one given wins)", "device");
    bad(&finish_lab, "--finish", "needs a value");
    bad(&finish_lab, "--finish x", "'x' is not a finish");
    bad(&finish_lab, "--finish Device", "give host");
    bad(&finish_lab, "--finish gpu -n 5", "'gpu' is not a finish");
    bad(&length_lab, "--finish device", "no choice of finish");
    bad(&length_lab, "--finish", "no choice of finish");
    bad(&matrix_lab, "--finish host", "no choice of finish");
    text = usage_of(&finish_lab);
    check(strstr(text, "[--finish F]") && strstr(text, "  --finish F "), "-h offers --finish", text);
    free(text);
    text = usage_of(&length_lab);
    check(!strstr(text, "--finish"), "-h of a lab without the choice does not offer --finish", text);
    free(text);

}

/* --check: comma lists of -n, -b, --type, --finish, --seed, each item
 * checked as one value is; lists only with --check */
static void test_check_args(void)
{
    static const wb_lab list_lab = {
        .lab = "labL", .title = "a lab with every list", .shape = WB_LENGTH, .default_n = 1 << 24,
        .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
        .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex),
        .exercise_file = "labL_x/exercises.cuh", .exercise_n = WB_EXERCISE_N, .types = WB_ALL_TYPES,
        .device_finish = 1,
    };
    wb_args a;
    char *text;

    good(&list_lab, "", &a);
    check(!a.check && a.n_count == 1 && a.n_list[0] == 1 << 24 && a.block_count == 1 && a.bx_list[0] == 512 &&
              a.type_count == 1 && a.type_list[0] == WB_INT && a.finish_count == 1 && !a.finish_list[0] &&
              a.seed_count == 1 && a.seed_list[0] == 1,
          "lists: a run without --check holds its one value in each list", "lists not filled");
    good(&list_lab, "--check -n 1,33,2^10,16M -b 32,1024 --type int,double --finish host,device --seed 3,0", &a);
    check(a.check && a.format == WB_CSV && a.n_count == 4 && a.n_list[2] == 1024 && a.n_list[3] == 16777216 &&
              a.block_count == 2 && a.bx_list[1] == 1024 && a.type_count == 2 && a.type_list[1] == WB_DOUBLE &&
              a.finish_count == 2 && a.finish_list[1] == 1 && a.seed_count == 2 && a.seed_list[1] == 0 &&
              a.n == 1 && a.block_x == 32 && a.type == WB_INT && !a.finish_device && a.seed == 3,
          "--check: every list in order, the first items as the run's values", "lists wrong");
    good(&list_lab, "-n 5,7 --check", &a);
    check(a.n_count == 2 && a.n_list[1] == 7, "--check after the list still allows it", "not a list");
    good(&list_lab, "--check -n 5,7 -n 9", &a);
    check(a.n_count == 1 && a.n == 9, "--check: an option given again starts its list anew", "kept the old list");
    good(&list_lab, "--check --exercises", &a);
    check(a.n_count == 1 && a.n_list[0] == WB_EXERCISE_N, "--check --exercises: at the exercise length", "other n");
    bad(&list_lab, "-n 1,2", "lists are for --check");
    bad(&list_lab, "-b 32,64", "lists are for --check");
    bad(&list_lab, "--seed 1,2", "lists are for --check");
    bad(&list_lab, "--check -n 1,,2", "an empty item in '1,,2'");
    bad(&list_lab, "--check -n 1,", "an empty item");
    bad(&list_lab, "--check -n 1,x", "'x' is not a length");
    bad(&list_lab, "--check -b 32,48", "'48' is not a block size");
    bad(&list_lab, "--check --type int,half", "'half' is not an element type");
    bad(&list_lab, "--check --finish host,gpu", "'gpu' is not a finish");
    bad(&list_lab, "--check --seed 1,x", "'x' is not a seed");
    bad(&list_lab, "--check --type int,float --values uniform", "--values uniform draws from [-1, 1)");
    bad(&list_lab, "--check --type int,float --exercises", "your exercises are int functions");
    bad(&list_lab, "--check --json", "leave out --json");
    bad(&list_lab, "--check --explain", "leave out --explain");
    bad(&length_lab, "--check --sweep", "leave out --sweep");
    good(&matrix_lab, "--check -n 3x5,7 -b 32x1,16x16", &a);
    check(a.n_count == 2 && a.nx_list[0] == 3 && a.ny_list[0] == 5 && a.nx_list[1] == 7 && a.ny_list[1] == 7 &&
              a.n_list[0] == 15 && a.block_count == 2 && a.by_list[1] == 16,
          "--check: a list of matrix shapes and blocks", "shapes wrong");
    bad(&matrix_lab, "--check -n 3x5,100000x100000", "100000x100000 has 10000000000 elements");
    bad(&matrix_lab, "--check -n 3x5,4x4 --nx 7", "leave --nx out");
    good(&matrix_lab, "-n 3x5 --nx 7", &a);
    check(a.nx == 7 && a.ny == 5 && a.nx_list[0] == 7, "--nx after -n changes the one shape", "not changed");
    text = usage_of(&list_lab);
    check(strstr(text, "  --check ") && strstr(text, "--finish,") && strstr(text, "--type,"),
          "-h explains --check with the lab's own lists", text);
    free(text);
    text = usage_of(&matrix_lab);
    check(strstr(text, "  --check ") && !strstr(text, "--finish,") && !strstr(text, "--type,"),
          "-h of a matrix lab: --check without --type or --finish", text);
    free(text);
}

/* --check's runner: every combination, in order, one CSV row each, flushed;
 * a library row at the first block only; the exit status from the rows */
typedef struct {
    int opens, closes, rows;
    char log[4096];
} fake_check;

static void fake_open(void *p, const wb_args *a, int ti, int si, int ni)
{
    fake_check *x = (fake_check *)p;
    size_t used = strlen(x->log);
    ++x->opens;
    snprintf(x->log + used, sizeof x->log - used, "open %s/%llu/%lld;", wb_type_name(a->type_list[ti]),
             a->seed_list[si], a->n_list[ni]);
}

static void fake_row(void *p, const wb_args *a, const wb_kernel_info *k, int fi, int bi, wb_row *row)
{
    fake_check *x = (fake_check *)p;
    ++x->rows;
    wb_row_init(row, k, a->n_list[0], 4.0);
    row->grid_x = 7;
    row->grid_y = 1;
    row->block_x = (unsigned)a->bx_list[bi];
    row->pass = strcmp(k->name, "beta") || fi == 0; /* beta fails finished on the device */
    snprintf(row->check, sizeof row->check, "sum 1, expected %s", row->pass ? "1" : "2");
}

static void fake_close(void *p) { ++((fake_check *)p)->closes; }

static void test_check_run(void)
{
    static const fake_kernel lib_table[] = {{{"alpha", "first", NULL, NULL}},
                                            {{"cub::Lib", "the library", NULL, NULL}},
                                            {{"beta", "second", NULL, NULL}}};
    static const wb_lab run_lab = {
        .lab = "labK", .title = "a lab to check", .shape = WB_LENGTH, .default_n = 1 << 24,
        .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
        .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(lib_table), .types = WB_ALL_TYPES,
        .device_finish = 1,
    };
    static const wb_check_steps steps = {fake_open, fake_row, fake_close};
    const wb_kernel_info *order[2 * WB_MAX_KERNELS];
    fake_check x;
    wb_args a;
    FILE *f = tmpfile(), *err = tmpfile();
    char out[8192] = "", line[256];
    const char *want = "lab,kernel,role,size,block,grid,type,values,finish,seed,status,check\n"
                       "labK,alpha,kernel,5,32,7,int,exact,host,1,PASS,sum 1; expected 1\n"
                       "labK,cub::Lib,kernel,5,32,7,int,exact,host,1,PASS,";
    int status, nrows, lines = 0;
    good(&run_lab, "--check -n 5,9 -b 32,64 --type int,float --finish host,device", &a);
    nrows = wb_plan_rows(&run_lab, &a, order);
    memset(&x, 0, sizeof x);
    if (!f || !err) {
        check(0, "check runner: tmpfile", "no temp file");
        return;
    }
    {
        FILE *saved = stdout, *saved_err = stderr; /* wb_check_run writes on both: catch them */
        stdout = f;
        stderr = err;
        status = wb_check_run(&run_lab, &a, order, nrows, -1, &steps, &x);
        stdout = saved;
        stderr = saved_err;
    }
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        if (lines++ < 4)
            strncat(out, line, sizeof out - strlen(out) - 1);
    }
    fclose(f);
    rewind(err);
    if (!fgets(line, sizeof line, err))
        line[0] = '\0';
    fclose(err);
    check(!strncmp(line, "labK --check: 40 rows, 32 PASS, 8 FAIL, 0 todo (", 48),
          "check runner: the summary line on stderr", line);
    check(x.opens == 4 && x.closes == 4 && !strcmp(x.log, "open int/1/5;open int/1/9;open float/1/5;open float/1/9;"),
          "check runner: one input per type, seed and length, in order", x.log);
    /* 4 inputs x 2 finishes x (2 blocks x 2 kernels + the library once) */
    check(x.rows == 40 && lines == 41, "check runner: a row per kernel and configuration, the library at one block",
          out);
    check(!strncmp(out, want, strlen(want)),
          "check runner: the header, then rows with their configuration (commas in check made ;)", out);
    check(status == WB_EXIT_WRONG, "check runner: a FAIL row makes the exit status 1", "status not 1");
}

/* our time against the library's: the words agree with the ratio, ties say so */
static void test_versus(void)
{
    char buf[64];
    wb_versus_library(buf, sizeof buf, 1.0, 1.04);
    check(!strcmp(buf, "1.04x faster than the library"), "versus: faster", buf);
    wb_versus_library(buf, sizeof buf, 1.0, 0.996);
    check(!strcmp(buf, "level with the library (within 1%)"), "versus: a tie within 1%", buf);
    wb_versus_library(buf, sizeof buf, 1.0, 1.009);
    check(!strcmp(buf, "level with the library (within 1%)"), "versus: 1.009x is a tie", buf);
    wb_versus_library(buf, sizeof buf, 1.0, 0.98);
    check(!strcmp(buf, "the library is 1.02x faster"), "versus: slower, said as the library's lead", buf);
}

/* wb_row_init: the kernel's names and sizes in, everything else cleared */
static void test_row_init(void)
{
    static const wb_kernel_info shipped = {"reduceShipped", "a lesson", NULL, NULL};
    static const wb_kernel_info exercise = {"reduceMine", "a task", "fix", "reduceShipped"};
    wb_row row;
    memset(&row, 0x5A, sizeof row); /* whatever a stack row held before */
    wb_row_init(&row, &shipped, 1000, 4000.0);
    check(row.kernel == shipped.name && !row.role && !row.against && row.n == 1000 && row.bytes == 4000.0,
          "wb_row_init: a shipped kernel's name, n and bytes", "fields not set");
    check(row.total_ms < 0 && !row.pass && !row.todo && !row.nx && !row.grid_x && !row.block_x && !row.finish &&
              !row.check[0] && !row.finish_grids[0] && !row.has_bound && !row.runs,
          "wb_row_init: no total, every other field zero", "a field kept the old bytes");
    wb_row_init(&row, &exercise, 7, 28.0);
    check(!strcmp(row.role, "fix") && !strcmp(row.against, "reduceShipped") && row.n == 7,
          "wb_row_init: an exercise's kind and reference row", "role or against not set");
}

int main(void)
{
    test_row_init();
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
