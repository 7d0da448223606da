/*
 * report_data.c - the report for programs: CSV and JSON (docs/output.md),
 * the same figures as the table. C11, no CUDA.
 */
#include "report.h"

#include <math.h>
#include <string.h>

#include "csv_columns.h"

const char *const wb_csv_header = WB_CSV_COLUMNS;

/* Device names go into CSV unquoted: keep them free of commas and quotes. */
static void csv_safe(char *dst, size_t len, const char *src)
{
    size_t i;
    for (i = 0; src[i] && i + 1 < len; ++i)
        dst[i] = (src[i] == ',' || src[i] == '"' || src[i] == '\n') ? ' ' : src[i];
    dst[i] = '\0';
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

/* `key` then s as a JSON string, or null when there is no s. */
static void json_string_or_null(FILE *out, const char *key, const char *s)
{
    fputs(key, out);
    if (s)
        json_string(out, s);
    else
        fputs("null", out);
}

/* A row's error and bound for CSV (empty for an exact check) */
static void error_bound_csv(char *buf, size_t len, const wb_row *w)
{
    if (w->has_bound && !w->todo)
        snprintf(buf, len, "%.3e,%.3e", w->error, w->bound); /* an infinite error prints inf */
    else
        snprintf(buf, len, ",");
}

void wb_print_csv(const wb_report *r, FILE *out)
{
    int i;
    char dev[160];
    csv_safe(dev, sizeof dev, r->device);
    fprintf(out, "%s\n", wb_csv_header);
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        char grid[32], block[32], eb[64];
        wb_grid_csv(grid, sizeof grid, w->grid_x, w->grid_y);
        wb_grid_csv(block, sizeof block, w->block_x, w->block_y);
        error_bound_csv(eb, sizeof eb, w);
        fprintf(out, "%s,%s,%s,%lld,%d,%d,%s,%s,%.0f,", r->lab, dev, w->kernel, w->n, w->nx, w->ny, grid,
                block, w->bytes);
        if (w->todo) /* not run: reps 0, no figures */
            fprintf(out, "0,,,,,,,,,,");
        else {
            fprintf(out, "%d,%.6f,%.6f,%.6f,%.2f,%.2f,%.2f,%.3f,", w->time.count, w->time.median,
                    w->time.q1, w->time.q3, w->spread_pct, w->gbps, w->pct_of_copy, w->speedup);
            if (w->total_ms >= 0)
                fprintf(out, "%.6f,%.2f,", w->total_ms, w->total_gbps);
            else
                fprintf(out, ",,");
        }
        fprintf(out, "%.2f,%.2f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", w->ceiling_gbps, r->peak_gbps, r->type,
                w->role ? w->role : "kernel", w->against ? w->against : "", r->build_id, r->run_at,
                r->fingerprint, wb_finish_text(w) ? wb_finish_text(w) : "", eb, w->todo ? "" : w->result,
                wb_status_text(w));
    }
}

void wb_print_json(const wb_report *r, FILE *out)
{
    int i, passed = 0, todo = 0;
    json_string_or_null(out, "{\n  \"lab\": ", r->lab);
    json_string_or_null(out, ",\n  \"device\": ", r->device);
    json_string_or_null(out, ",\n  \"device_detail\": ", r->device_detail);
    fprintf(out, ",\n  \"ceiling_gbps\": %.2f,\n  \"peak_gbps\": %.2f", r->ceiling_gbps, r->peak_gbps);
    json_string_or_null(out, ",\n  \"ceiling\": ", r->ceiling_what);
    json_string_or_null(out, ",\n  \"timed\": ", r->timed);
    json_string_or_null(out, ",\n  \"total\": ", r->total_what);
    json_string_or_null(out, ",\n  \"build\": ", r->build);
    json_string_or_null(out, ",\n  \"type\": ", r->type);
    json_string_or_null(out, ",\n  \"build_id\": ", r->build_id);
    json_string_or_null(out, ",\n  \"run_at\": ", r->run_at);
    json_string_or_null(out, ",\n  \"fingerprint\": ", r->fingerprint);
    fprintf(out, ",\n  \"rows\": [\n");
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        char grid[32], block[32];
        wb_grid_csv(grid, sizeof grid, w->grid_x, w->grid_y);
        wb_grid_csv(block, sizeof block, w->block_x, w->block_y);
        if (w->pass)
            ++passed;
        if (w->todo)
            ++todo;
        fprintf(out, "    {\"kernel\": ");
        json_string(out, w->kernel);
        fprintf(out, ", \"role\": ");
        json_string(out, w->role ? w->role : "kernel");
        json_string_or_null(out, ", \"against\": ", w->against);
        fprintf(out, ", \"n\": %lld, \"nx\": %d, \"ny\": %d, \"grid\": \"%s\", \"block\": \"%s\", "
                     "\"bytes\": %.0f, ",
                w->n, w->nx, w->ny, grid, block, w->bytes);
        if (w->todo)
            fprintf(out, "\"reps\": 0, \"time_ms\": null, \"q1_ms\": null, \"q3_ms\": null, "
                         "\"spread_pct\": null, \"gbps\": null, \"pct_of_copy\": null, \"speedup\": null, ");
        else
            fprintf(out, "\"reps\": %d, \"time_ms\": %.6f, \"q1_ms\": %.6f, \"q3_ms\": %.6f, "
                         "\"spread_pct\": %.2f, \"gbps\": %.2f, \"pct_of_copy\": %.2f, \"speedup\": %.3f, ",
                    w->time.count, w->time.median, w->time.q1, w->time.q3, w->spread_pct, w->gbps,
                    w->pct_of_copy, w->speedup);
        fprintf(out, "\"ceiling_gbps\": %.2f, ", w->ceiling_gbps);
        if (w->total_ms >= 0 && !w->todo)
            fprintf(out, "\"total_ms\": %.6f, \"total_gbps\": %.2f, ", w->total_ms, w->total_gbps);
        else
            fprintf(out, "\"total_ms\": null, \"total_gbps\": null, ");
        json_string_or_null(out, "\"finish\": ", wb_finish_text(w));
        fprintf(out, ", ");
        if (w->has_bound && !w->todo && isfinite(w->error))
            fprintf(out, "\"error\": %.3e, \"bound\": %.3e, ", w->error, w->bound);
        else if (w->has_bound && !w->todo)
            fprintf(out, "\"error\": null, \"bound\": %.3e, ", w->bound);
        else
            fprintf(out, "\"error\": null, \"bound\": null, ");
        json_string_or_null(out, "\"result\": ", w->todo || !w->result[0] ? NULL : w->result);
        fprintf(out, ", \"status\": \"%s\", \"check\": ", wb_status_text(w));
        json_string(out, w->check);
        fprintf(out, "}%s\n", i + 1 < r->nrows ? "," : "");
    }
    fprintf(out, "  ],\n  \"passed\": %d,\n  \"failed\": %d,\n  \"todo\": %d,\n  \"status\": \"%s\"\n}\n",
            passed, r->nrows - passed - todo, todo, passed + todo == r->nrows ? "PASS" : "FAIL");
}
