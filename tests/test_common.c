/*
 * test_common.c - CPU tests of common/workbook.c: the argument parser (every
 * bad-input case), statistics, bandwidth arithmetic, the value-range rule,
 * and the CSV/JSON writers. Prints "ok NAME" or "FAIL NAME: why" per check
 * (tests/run counts them); exits 1 if any failed.
 */
#define _POSIX_C_SOURCE 200809L
#include "workbook.h"

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

static const fake_kernel fake[] = {{{"alpha", "first"}}, {{"beta", "second"}}, {{"gamma", "third"}}};

static const wb_lab length_lab = {
    "labX", "a test lab", WB_LENGTH, 1 << 24, WB_INT_MAX, "the exact int sum must fit in an int",
    0, 0, 512, 1, 1, 20, "--sweep", "sweep", WB_TABLE(fake),
};
static const wb_lab cpu_lab = {
    "labC", "a CPU lab", WB_LENGTH, 1 << 24, WB_INT_MAX, "int sum", 0, 0, 0, 0, 0, 20, NULL, NULL, WB_TABLE(fake),
};
static const wb_lab matrix_lab = {
    "labM", "a matrix lab", WB_MATRIX, 0, 0, NULL, 2048, 2048, 16, 16, 1, 20, NULL, NULL, WB_TABLE(fake),
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
    check(line && count_char(line, ',') == count_char(wb_csv_header, ',') && strstr(line, "Test  GPU") &&
              strstr(line, ",PASS"),
          "CSV row: one field per column, commas out of the device name", line ? line : "missing");
    line = strtok(NULL, "\n");
    check(line && strstr(line, ",fast,") && strstr(line, ",,,100.00,"), "CSV: empty total for n/a",
          line ? line : "missing");
    check(strtok(NULL, "\n") == NULL, "CSV has only header and rows", "extra lines");
    free(csv);

    r.rows[1].pass = 0;
    snprintf(r.rows[1].check, sizeof r.rows[1].check, "sum 1, expected \"2\"");
    check(wb_report_status(&r) == WB_EXIT_WRONG, "status 1 when a row fails", "wrong");
    json = render(&r, WB_JSON);
    check(count_char(json, '{') == count_char(json, '}') && count_char(json, '[') == count_char(json, ']') &&
              strstr(json, "\"status\": \"FAIL\"") && strstr(json, "\"failed\": 1") &&
              strstr(json, "\\\"2\\\"") && strstr(json, "\"total_ms\": null"),
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

int main(void)
{
    test_parse_count();
    test_args();
    test_stats();
    test_value_rule();
    test_report();
    return failures ? 1 : 0;
}
