/*
 * test_report.c - CPU tests of common/report.c, table.c and report_data.c: the table,
 * its width, CSV, JSON, the exercises' lines, --check's rows and runner.
 * Checks print "ok NAME" or "FAIL NAME: why" (tests/unit/test_common.c runs them).
 */
#define _POSIX_C_SOURCE 200809L
#include "test_common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_report(void)
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
    wb_row_result_int(&row, 123456); /* the result column, just before status */
    wb_report_add(&r, &row);
    row.result[0] = '\0';
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
    {
        wb_row x;
        static const char abc[] = "abc";
        memset(&x, 0, sizeof x);
        wb_row_result_real(&x, 16777216.0);
        check(!strcmp(x.result, "16777216"), "result: an integer-valued float sum as its integer", x.result);
        wb_row_result_real(&x, 0.75);
        check(!strcmp(x.result, "0x1.8p-1"), "result: any other as a C99 hex float", x.result);
        wb_row_result_real(&x, -0.0);
        check(!strcmp(x.result, "-0x0p+0"), "result: -0 keeps its sign bit", x.result);
        wb_row_result_int(&x, -5);
        check(!strcmp(x.result, "-5"), "result: an int in decimal", x.result);
        /* FNV-1a 64 test vectors: "" and "a" (Fowler, Noll, Vo), "abc" */
        check(wb_fnv1a64("", 0) == 0xcbf29ce484222325ULL && wb_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL,
              "wb_fnv1a64: the published vectors", "wrong");
        wb_row_result_bytes(&x, abc, 3);
        check(!strcmp(x.result, "e71fa2190541574b"), "result: bytes as their FNV-1a 64 digest, 16 hex digits",
              x.result);
    }

    csv = render(&r, WB_CSV);
    line = strtok(csv, "\n");
    check(line && !strcmp(line, wb_csv_header), "CSV starts with the documented header", line ? line : "empty");
    line = strtok(NULL, "\n");
    check(line && strstr(line, ",device,,,123456,PASS"), "CSV: finish (device), error, bound, result, status",
          line ? line : "none");
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
    free(table);
    r.rows[0].pass = 0;
    table = render(&r, WB_TABLE_OUT);
    check(strstr(table, "labX: FAIL - 2 of 2 kernels gave a wrong result: slow, fast") != NULL ||
              strstr(table, "labX: FAIL - 2 of 2 kernels gave a wrong result: fast, slow") != NULL,
          "the summary lists the failures with commas", table);
    r.rows[0].pass = 1;
    check(strstr(table, "ceiling  100 GB/s") && strstr(table, "50.0% of the theoretical 200 GB/s"),
          "table shows ceiling and peak", table);
    free(table);

    /* a lab's notes go under the table, and the summary stays the last line */
    test_note(&r, wb_report_notes(&r));
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
    wb_report_notes_close(&r);

    wb_bar(50, 20, bar);
    check(!strcmp(bar, "##########.........."), "bar at 50%", bar);
    wb_bar(130, 10, bar);
    check(!strcmp(bar, "#########>"), "bar past 100% ends with '>'", bar);
    wb_bar(0, 4, bar);
    check(!strcmp(bar, "...."), "bar at 0%", bar);
}

/* Exercise rows, todo rows, the new columns and the exercises line. */
void test_exercise_report(void)
{
    static wb_report r;
    wb_row row;
    double t1[] = {2.0, 2.0, 2.0}, t2[] = {1.0, 1.0, 1.0}, t3[] = {0.5, 0.5, 0.5};
    char *csv, *json, *table, line[1024], f[128], f2[128], now[32];
    int i, cols;
    static const char *const want_cols[] = {
        "lab", "device", "kernel", "n", "nx", "ny", "grid", "block", "bytes", "reps", "time_ms", "q1_ms", "q3_ms",
        "spread_pct", "gbps", "pct_of_copy", "speedup", "total_ms", "total_gbps", "ceiling_gbps", "peak_gbps",
        "type", "role", "against", "build", "run_at", "fingerprint", "finish", "error", "bound", "result", "status"};

    /* the header: the documented columns, in this order */
    cols = count_char(wb_csv_header, ',') + 1;
    {
        int same = cols == (int)(sizeof want_cols / sizeof want_cols[0]);
        for (i = 0; same && i < cols; ++i)
            same = !strcmp(csv_field(wb_csv_header, i + 1, f, sizeof f), want_cols[i]);
        check(same, "CSV header: ...,peak_gbps,type,role,against,build,run_at,fingerprint,finish,error,bound,result,status", wb_csv_header);
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
    {
        static const struct {
            int done, todo;
            const char *line, *name;
        } ex[] = {
            {0, 3, "\nexercises: 0 of 3 done, 3 todo (labE_x/exercises.cuh; run ./labE --exercises)\n",
             "exercises line: nothing failing, no failing count"},
            {3, 0, "\nexercises: 3 of 3 done (labE_x/exercises.cuh; run ./labE --exercises)\n",
             "exercises line: all done"},
        };
        int k;
        for (k = 0; k < 2; ++k) {
            r.ex_done = ex[k].done;
            r.ex_todo = ex[k].todo;
            table = render(&r, WB_TABLE_OUT);
            check(strstr(table, ex[k].line) != NULL, ex[k].name, table);
            free(table);
        }
    }
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

void test_width(void)
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

/* --check's runner: every combination, in order, one CSV row each, flushed;
 * a library row at the first block only; the exit status from the rows */
typedef struct {
    int opens, closes, rows;
    char log[4096];
} fake_check;

static fake_check *fake_state;

static void fake_open(wb_run *run, const wb_input_cfg *cfg)
{
    fake_check *x = fake_state;
    size_t used = strlen(x->log);
    ++x->opens;
    snprintf(x->log + used, sizeof x->log - used, "open %s/%llu/%lld;", wb_type_name(cfg->type), cfg->seed,
             cfg->n);
    run->input = x;
}

static void fake_row(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                     wb_row *row)
{
    fake_check *x = (fake_check *)run->input;
    (void)by;
    (void)mode;
    ++x->rows;
    wb_row_init(row, k, run->a->n_list[0], 4.0);
    row->grid_x = 7;
    row->grid_y = 1;
    row->block_x = (unsigned)bx;
    row->pass = strcmp(k->name, "beta") || finish == 0; /* beta fails finished on the device */
    snprintf(row->check, sizeof row->check, "sum 1, expected %s", row->pass ? "1" : "2");
}

static void fake_close(wb_run *run) { ++((fake_check *)run->input)->closes; }

void test_check_run(void)
{
    static const fake_kernel lib_table[] = {{{"alpha", "first", NULL, NULL}},
                                            {{"cub::Lib", "the library", NULL, NULL}},
                                            {{"beta", "second", NULL, NULL}}};
    static const wb_lab run_lab = {
        .lab = "labK", .title = "a lab to check", .shape = WB_LENGTH, .default_n = 1 << 24,
        .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
        .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(lib_table), .types = WB_ALL_TYPES,
        .choice = &fake_finish,
    };
    static const wb_runner steps = {fake_open, fake_row, fake_close, NULL, NULL};
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
        wb_run c = {&run_lab, &a, order, nrows, NULL, NULL, NULL, NULL};
        fake_state = &x;
        stdout = f;
        stderr = err;
        status = wb_check_run(&c, -1, &steps);
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
    check(!strncmp(line, "labK --check: 40 rows (40 planned), 32 PASS, 8 FAIL, 0 todo (", 61),
          "check runner: the summary line on stderr", line);
    check(x.opens == 4 && x.closes == 4 && !strcmp(x.log, "open int/1/5;open int/1/9;open float/1/5;open float/1/9;"),
          "check runner: one input per type, seed and length, in order", x.log);
    /* 4 inputs x 2 finishes x (2 blocks x 2 kernels + the library once) */
    check(x.rows == 40 && lines == 41, "check runner: a row per kernel and configuration, the library at one block",
          out);
    check(!strncmp(out, want, strlen(want)),
          "check runner: the header, then rows with their configuration (commas in check made ;)", out);
    check(status == WB_EXIT_WRONG, "check runner: a FAIL row makes the exit status 1", "status not 1");
    { /* a loop that ran fewer rows than its lists call for fails, every row PASS or not */
        wb_checker ck;
        wb_row row;
        wb_check_cfg cfg;
        FILE *sink = tmpfile(), *said = tmpfile();
        if (!sink || !said) {
            check(0, "check runner: tmpfile", "no temp file");
            return;
        }
        wb_check_begin(&ck, "labK", sink);
        ck.planned = 3;
        wb_row_init(&row, &lib_table[0].info, 5, 4.0);
        row.pass = 1;
        wb_check_cfg_of(&cfg, &run_lab, &a, 0, 0, 0, 0, 0);
        wb_check_add(&ck, &row, &cfg, sink);
        wb_check_add(&ck, &row, &cfg, sink);
        status = wb_check_end(&ck, said);
        rewind(said);
        if (!fgets(line, sizeof line, said))
            line[0] = '\0';
        fclose(sink);
        fclose(said);
        check(status == WB_EXIT_WRONG && strstr(line, "2 rows (3 planned: the harness lost some), 2 PASS"),
              "check runner: 2 rows run of 3 planned fails, and says so", line);
    }
}

/* our time against the library's: the words agree with the ratio, ties say so */
void test_versus(void)
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
void test_row_init(void)
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

/* wb_todo_clear / wb_row_todo: the flag WB_TODO() sets, read once and
 * cleared (on the CPU, wb_cpu_todo; a CUDA lab's todo_take otherwise) */
static int fake_flag;
static int fake_take(void)
{
    int seen = fake_flag;
    fake_flag = 0;
    return seen;
}

void test_row_todo(void)
{
    static const wb_kernel_info exercise = {"reduceMine", "a task", "write", "reduceShipped"};
    wb_lab gpu_lab = ex_cpu_lab;
    wb_row row;
    gpu_lab.todo_take = fake_take;
    wb_row_init(&row, &exercise, 7, 28.0);
    wb_cpu_todo = 1;
    wb_todo_clear(&ex_cpu_lab);
    check(!wb_row_todo(&ex_cpu_lab, &row) && !row.todo && !row.check[0],
          "wb_todo_clear: a flag an earlier run left is gone", "the row says todo");
    wb_cpu_todo = 1; /* the run met WB_TODO() */
    check(wb_row_todo(&ex_cpu_lab, &row) && row.todo && !wb_cpu_todo &&
              !strcmp(row.check, "not written yet (WB_TODO() in labF_x/exercises.c)"),
          "wb_row_todo: a CPU run that met WB_TODO() is a todo row naming the file", row.check);
    wb_row_init(&row, &exercise, 7, 28.0);
    wb_cpu_todo = 1; /* a CUDA lab reads its own flag, not the CPU's */
    fake_flag = 0;
    check(!wb_row_todo(&gpu_lab, &row) && !row.todo, "wb_row_todo: a CUDA lab reads its todo_take",
          "read wb_cpu_todo");
    fake_flag = 1;
    check(wb_row_todo(&gpu_lab, &row) && row.todo && !fake_flag, "wb_row_todo: a CUDA lab's flag, taken",
          row.check);
    wb_cpu_todo = 0;
}
