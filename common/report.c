/*
 * report.c - a run's rows: a row made and judged, added to the report with
 * its derived figures (GB/s, % of copy, speedup), the exercises' counts,
 * the run's status, and what a row's columns say (status, finish, grid,
 * the bit-exact result). C11, no CUDA.
 */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base.h"
#include "numbers.h"

void wb_utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm utc;
    if (!gmtime_r(&now, &utc) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &utc))
        snprintf(buf, len, "1970-01-01T00:00:00Z");
}

void wb_row_init(wb_row *row, const wb_kernel_info *info, long long n, double bytes)
{
    memset(row, 0, sizeof *row);
    row->kernel = info->name;
    row->role = info->kind;
    row->against = info->against;
    row->n = n;
    row->bytes = bytes;
    row->total_ms = -1;
}

/* The flag WB_TODO() set since the last take, cleared */
static int todo_take(const wb_lab *lab)
{
    int seen;
    if (lab->todo_take)
        return lab->todo_take();
    seen = wb_cpu_todo;
    wb_cpu_todo = 0;
    return seen;
}

void wb_todo_clear(const wb_lab *lab) { (void)todo_take(lab); }

int wb_row_todo(const wb_lab *lab, wb_row *row)
{
    if (!todo_take(lab))
        return 0;
    row->todo = 1;
    snprintf(row->check, sizeof row->check, "not written yet (WB_TODO() in %s)", lab->exercise_file);
    return 1;
}

void wb_judge_bound(wb_row *row, wb_type t, long long leaf_len, int depth, double abs_sum, double error,
                    const char *prefix, const char *suffix)
{
    double bound = wb_error_bound(t, leaf_len, depth, abs_sum);
    row->has_bound = 1;
    row->error = error;
    row->no_bound = bound < 0;
    row->bound = row->no_bound ? wb_error_tolerance(t, leaf_len, depth, abs_sum) : bound;
    row->pass = error <= row->bound;
    snprintf(row->check, sizeof row->check, "%serror %.2e %s %s %.2e%s%s", prefix ? prefix : "", error,
             row->pass ? "<=" : ">", row->no_bound ? "tol" : "bound", row->bound,
             row->no_bound ? " (no bound)" : "", suffix ? suffix : "");
}

void wb_report_init(wb_report *r, const char *lab)
{
    memset(r, 0, sizeof *r);
    r->lab = lab;
    r->type = "int";
    snprintf(r->device, sizeof r->device, "unknown device");
    snprintf(r->build_id, sizeof r->build_id, "%s", wb_build_id);
    snprintf(r->fingerprint, sizeof r->fingerprint, "%s", wb_build_fingerprint);
    wb_utc_now(r->run_at, sizeof r->run_at);
}

int wb_row_same_size(const wb_row *a, const wb_row *b)
{
    return a->n == b->n && a->nx == b->nx && a->ny == b->ny;
}

/* The row the speedup of w is against: for an exercise the row of the
 * kernel it is measured against, else the baseline kernel's row of the same
 * size, else the first row of the same size. */
static const wb_row *baseline_row(const wb_report *r, const wb_row *w)
{
    const char *against = w->against ? w->against : r->baseline;
    int i;
    for (i = 0; against && i < r->nrows; ++i)
        if (wb_row_same_size(&r->rows[i], w) && !strcmp(r->rows[i].kernel, against))
            return &r->rows[i];
    for (i = 0; i < r->nrows; ++i)
        if (wb_row_same_size(&r->rows[i], w))
            return &r->rows[i];
    return NULL;
}

FILE *wb_report_notes(wb_report *r)
{
    if (!r->notes_file && !(r->notes_file = open_memstream(&r->notes_text, &r->notes_size))) {
        fprintf(stderr, "%s: out of host memory\n", r->lab);
        exit(WB_EXIT_USAGE);
    }
    return r->notes_file;
}

void wb_report_notes_close(wb_report *r)
{
    if (r->notes_file)
        fclose(r->notes_file);
    free(r->notes_text);
    r->notes_file = NULL;
    r->notes_text = NULL;
    r->notes_size = 0;
}

void wb_report_add(wb_report *r, const wb_row *row)
{
    wb_row *w;
    if (r->nrows >= WB_MAX_ROWS)
        return;
    w = &r->rows[r->nrows++];
    *w = *row;
    w->ceiling_gbps = r->ceiling_gbps;
    w->gbps = wb_gbps(w->bytes, w->time.median);
    w->pct_of_copy = r->ceiling_gbps > 0 ? 100.0 * w->gbps / r->ceiling_gbps : 0.0;
    w->total_gbps = w->total_ms > 0 ? wb_gbps(w->bytes, w->total_ms) : 0.0;
    w->spread_pct = wb_spread_pct(w->time);
    w->speedup = 1.0;
    {
        const wb_row *b = baseline_row(r, w);
        if (b && w->time.median > 0)
            w->speedup = b->time.median / w->time.median;
    }
}

int wb_report_status(const wb_report *r)
{
    int i;
    for (i = 0; i < r->nrows; ++i)
        if (!r->rows[i].pass && !r->rows[i].todo)
            return WB_EXIT_WRONG;
    return WB_EXIT_OK;
}

int wb_report_exercises_begin(wb_report *r, const wb_lab *lab, const wb_args *a, const wb_kernel_info **order)
{
    int i, count = 0;
    for (i = 0; i < lab->exercises.count; ++i)
        if (a->ex_selected[i])
            order[count++] = wb_table_at(lab->exercises, i);
    /* only the table prints the count: no verifying for --csv, --json, --check */
    if (a->exercises || count == 0 || a->format != WB_TABLE_OUT || a->check)
        return 0;
    r->ex_total = count;
    r->ex_file = lab->exercise_file;
    return count;
}

void wb_report_exercise_verdict(wb_report *r, const wb_row *row)
{
    r->ex_done += row->pass;
    r->ex_todo += row->todo;
}

const char *wb_finish_text(const wb_row *w)
{
    return w->total_ms >= 0 && !w->todo ? w->finish : NULL;
}

const char *wb_status_text(const wb_row *w)
{
    return w->todo ? "todo" : w->pass ? "PASS" : "FAIL";
}

void wb_grid_csv(char *buf, size_t len, unsigned x, unsigned y)
{
    if (y <= 1)
        snprintf(buf, len, "%u", x);
    else
        snprintf(buf, len, "%ux%u", x, y);
}

/* ------------------------------------------------------------------------ */
/* The result column                                                         */
/* ------------------------------------------------------------------------ */
void wb_row_result_int(wb_row *row, long long v) { snprintf(row->result, sizeof row->result, "%lld", v); }

void wb_row_result_real(wb_row *row, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0 && !(v == 0 && signbit(v)))
        snprintf(row->result, sizeof row->result, "%.0f", v);
    else
        snprintf(row->result, sizeof row->result, "%a", v);
}

unsigned long long wb_fnv1a64(const void *bytes, size_t len)
{
    const unsigned char *b = (const unsigned char *)bytes;
    unsigned long long h = 0xcbf29ce484222325ULL;
    size_t i;
    for (i = 0; i < len; ++i)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

void wb_row_result_bytes(wb_row *row, const void *bytes, size_t len)
{
    snprintf(row->result, sizeof row->result, "%016llx", wb_fnv1a64(bytes, len));
}
