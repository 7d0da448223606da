/*
 * table.c - the report as a person reads it: the banner, the columns and
 * their bars, the notes under the rows, the summary and exercise lines, all
 * within WB_WIDTH columns; and wb_report_print, which picks the table, CSV
 * or JSON. C11, no CUDA.
 */
#include "report.h"

#include <string.h>

#include "text.h"

void wb_versus_library(char *buf, size_t len, double ours, double lib)
{
    double ratio = ours > 0 ? lib / ours : 0;
    if (ratio >= 0.99 && ratio <= 1.01)
        snprintf(buf, len, "level with the library (within 1%%)");
    else if (ratio > 1)
        snprintf(buf, len, "%.2fx faster than the library", ratio);
    else
        snprintf(buf, len, "the library is %.2fx faster", ratio > 0 ? 1 / ratio : 0);
}

void wb_bar(double pct, int width, char *buf)
{
    int full = (int)(pct / 100.0 * width + 0.5), i;
    if (full < 0)
        full = 0;
    for (i = 0; i < width; ++i)
        buf[i] = i < full ? '#' : '.';
    if (pct > 100.0)
        buf[width - 1] = '>';
    buf[width] = '\0';
}

static void grid_text(char *buf, size_t len, unsigned x, unsigned y)
{
    if (x == 0)
        snprintf(buf, len, "-");
    else if (y <= 1)
        snprintf(buf, len, "%u", x);
    else
        snprintf(buf, len, "%ux%u", x, y);
}

static void size_text(char *buf, size_t len, const wb_row *w)
{
    if (w->nx > 0)
        snprintf(buf, len, "%dx%d", w->nx, w->ny);
    else
        snprintf(buf, len, "%lld", w->n);
}

static int rows_share_n(const wb_report *r)
{
    int i;
    for (i = 1; i < r->nrows; ++i)
        if (!wb_row_same_size(&r->rows[i], &r->rows[0]))
            return 0;
    return 1;
}

/* ---- text that fits WB_WIDTH columns ------------------------------------ */

/* Append to buf (of len) the text s with its blanks turned into WB_GLUE. */
static void append_glued(char *buf, size_t len, const char *s)
{
    size_t used = strlen(buf);
    for (; *s && used + 1 < len; ++s)
        buf[used++] = *s == ' ' ? WB_GLUE : *s;
    buf[used] = '\0';
}

/* A banner line: the label in 9 columns, the text wrapped under itself. */
static void print_banner(FILE *out, const char *label, const char *text)
{
    char lead[16];
    snprintf(lead, sizeof lead, "%-8s ", label);
    wb_print_wrapped(out, lead, 9, text);
}

/* ---- the summary line --------------------------------------------------- */

/* The verdict line, its clauses joined by "; ", each clause kept whole on
 * one line when it can be. */
static void print_summary(const wb_report *r, FILE *out)
{
    int i, passed = 0, todo = 0, best = -1, run;
    char text[2048], clause[512];
    /* a sweep has a row per kernel and size: count runs, not kernels */
    const char *what;
    for (i = 0; i < r->nrows; ++i) {
        if (r->rows[i].pass)
            ++passed;
        if (r->rows[i].todo)
            ++todo;
        if (r->rows[i].pass && (best < 0 || r->rows[i].gbps > r->rows[best].gbps))
            best = i;
    }
    what = rows_share_n(r) ? "kernels" : "kernel runs";
    run = r->nrows - todo;
    text[0] = '\0';
    if (passed == run) {
        snprintf(clause, sizeof clause, "PASS - %d of %d %s verified", passed, run, what);
        append_glued(text, sizeof text, clause);
    } else {
        size_t used;
        int named = 0;
        snprintf(clause, sizeof clause, "FAIL - %d of %d %s gave a wrong result:", run - passed, run, what);
        append_glued(text, sizeof text, clause);
        for (i = 0; i < r->nrows; ++i) /* the names may wrap */
            if (!r->rows[i].pass && !r->rows[i].todo) {
                used = strlen(text);
                snprintf(text + used, sizeof text - used, "%s %s", named++ ? "," : "", r->rows[i].kernel);
            }
    }
    if (todo > 0) {
        snprintf(clause, sizeof clause, "; %d exercise%s todo", todo, todo > 1 ? "s" : "");
        append_glued(text, sizeof text, clause);
    }
    if (best >= 0) {
        const wb_row *b = &r->rows[best];
        snprintf(clause, sizeof clause, "fastest %s: %.*f GB/s (%.1f%% of copy)", b->kernel,
                 b->gbps < 99.95 ? 1 : 0, b->gbps, b->pct_of_copy);
        strncat(text, "; ", sizeof text - strlen(text) - 1);
        append_glued(text, sizeof text, clause);
    }
    fprintf(out, "%s: ", r->lab);
    wb_print_wrapped_at(out, (int)strlen(r->lab) + 2, 2, text);
}

void wb_print_exercise_line(const wb_report *r, FILE *out)
{
    char text[512];
    size_t used;
    if (r->ex_total <= 0)
        return;
    used = (size_t)snprintf(text, sizeof text, "%d of %d done", r->ex_done, r->ex_total);
    if (r->ex_todo > 0 && used < sizeof text)
        used += (size_t)snprintf(text + used, sizeof text - used, ", %d todo", r->ex_todo);
    if (r->ex_total - r->ex_done - r->ex_todo > 0 && used < sizeof text)
        used += (size_t)snprintf(text + used, sizeof text - used, ", %d failing",
                                 r->ex_total - r->ex_done - r->ex_todo);
    if (used < sizeof text)
        snprintf(text + used, sizeof text - used, " (%s; run ./%s --exercises)", r->ex_file, r->lab);
    wb_print_wrapped(out, "exercises: ", 2, text);
}

/* ---- the table ---------------------------------------------------------- */

/* The table's columns. The block (and the grid) leave the table for the
 * banner when every row has the same one; lab01 (no grid) shows neither. */
enum { COL_KERNEL, COL_GRID, COL_BLOCK, COL_TIME, COL_IQR, COL_GBPS, COL_PCT, COL_BAR,
       COL_SPEEDUP, COL_TOTAL, COL_CHECK, NCOLS };
static const char *const col_head[NCOLS] = {"kernel", "grid", "block", "time ms", "+-iqr", "GB/s",
                                            "% copy", "", "speedup", "total ms", "check"};
static const int col_left[NCOLS] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1};
/* what goes, in this order, when even one blank between columns is too wide */
static const int drop_order[] = {COL_IQR, COL_GRID};
#define NDROP ((int)(sizeof drop_order / sizeof drop_order[0]))

typedef struct {
    char cell[NCOLS][40];
    const char *text[NCOLS]; /* cell[], or the kernel's own name */
} table_row;

/* Milliseconds in 7 characters up to 10^7 ms: four decimals below 100 ms
 * (the figures of every default run), two below 10^4, then none. */
static void ms_text(char *buf, size_t len, double ms)
{
    snprintf(buf, len, "%.*f", ms < 99.99995 ? 4 : ms < 9999.995 ? 2 : 0, ms);
}

/* A percentage in at most 6 characters below 10^5 %. (GB/s: one decimal
 * below 100, where it still tells kernels apart.) */
static void pct_text(char *buf, size_t len, double pct)
{
    snprintf(buf, len, pct < 999.95 ? "%.1f%%" : "%.0f%%", pct);
}

static void row_cells(const wb_row *w, table_row *t)
{
    int c;
    for (c = 0; c < NCOLS; ++c) {
        snprintf(t->cell[c], sizeof t->cell[c], "-");
        t->text[c] = t->cell[c];
    }
    t->text[COL_KERNEL] = w->kernel;
    grid_text(t->cell[COL_GRID], sizeof t->cell[0], w->grid_x, w->grid_y);
    grid_text(t->cell[COL_BLOCK], sizeof t->cell[0], w->block_x, w->block_y);
    snprintf(t->cell[COL_CHECK], sizeof t->cell[0], "%s", wb_status_text(w));
    if (w->todo) { /* not run: no figures to show (the verdict line says why) */
        t->cell[COL_BAR][0] = '\0';
        return;
    }
    ms_text(t->cell[COL_TIME], sizeof t->cell[0], w->time.median);
    pct_text(t->cell[COL_IQR], sizeof t->cell[0], w->spread_pct);
    snprintf(t->cell[COL_GBPS], sizeof t->cell[0], w->gbps < 99.95 ? "%.1f" : "%.0f", w->gbps);
    pct_text(t->cell[COL_PCT], sizeof t->cell[0], w->pct_of_copy);
    wb_bar(w->pct_of_copy, WB_BAR_WIDTH, t->cell[COL_BAR]);
    snprintf(t->cell[COL_SPEEDUP], sizeof t->cell[0],
             w->speedup < 9.995 ? "%.2fx" : w->speedup < 99.95 ? "%.1fx" : "%.0fx", w->speedup);
    if (w->total_ms >= 0)
        ms_text(t->cell[COL_TOTAL], sizeof t->cell[0], w->total_ms);
}

static void print_cells(FILE *out, const int *show, const int *width, const int *sep,
                        const char *const *text)
{
    int c, first = 1, last = NCOLS - 1;
    while (last > 0 && !show[last])
        --last;
    for (c = 0; c < NCOLS; ++c) {
        if (!show[c])
            continue;
        if (!first)
            fprintf(out, "%*s", sep[c], "");
        if (c == last && col_left[c])
            fputs(text[c], out); /* no trailing blanks */
        else
            fprintf(out, col_left[c] ? "%-*s" : "%*s", width[c], text[c]);
        first = 0;
    }
    fputc('\n', out);
}

/* The text of column c if it is the same on every row, else NULL. */
static const char *same_on_every_row(const wb_report *r, int c, char *buf, size_t len)
{
    table_row t;
    int i;
    for (i = 0; i < r->nrows; ++i) {
        row_cells(&r->rows[i], &t);
        if (i == 0)
            snprintf(buf, len, "%s", t.text[c]);
        else if (strcmp(buf, t.text[c]) != 0)
            return NULL;
    }
    return r->nrows > 0 ? buf : NULL;
}

/* "64.0 MiB" or "4.0 KiB" */
static void bytes_text(char *buf, size_t len, double bytes)
{
    if (bytes < 1048576.0)
        snprintf(buf, len, "%.1f KiB", bytes / 1024.0);
    else
        snprintf(buf, len, "%.1f MiB", bytes / 1048576.0);
}

/* Under the table: the error and the bound of each bound-checked row that
 * passed (a failed row's check line says them already). */
static void print_bound_lines(const wb_report *r, FILE *out)
{
    int i, same = 0, differ = 0, runs = 0;
    for (i = 0; i < r->nrows; ++i)
        if (r->rows[i].has_bound && r->rows[i].pass) {
            char lead[64];
            snprintf(lead, sizeof lead, "  %s: ", r->rows[i].kernel);
            wb_print_wrapped(out, lead, 4, r->rows[i].check);
        }
    /* run to run: a float sum whose order of additions changes between runs
     * changes its bits (an int sum never does) */
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        if (!w->has_bound || w->runs < 2)
            continue;
        if (w->distinct > 1) {
            fprintf(out, "  %s: %d different sums in %d runs on the same input\n", w->kernel, w->distinct,
                    w->runs);
            ++differ;
        } else {
            ++same;
            runs = w->runs;
        }
    }
    if (same > 0)
        fprintf(out, "  %s gave the same bits in all its runs (%d)\n",
                differ ? "every other kernel" : "every kernel", runs);
}

/* How the table is laid out: the columns shown, their widths and the
 * blanks before each; what every row shares goes to the banner instead. */
typedef struct {
    int show_n; /* rows of several sizes (a sweep): n heads each size */
    int show[NCOLS], width[NCOLS], sep[NCOLS];
    const char *grid_all, *block_all; /* the grid (block) of every row, or NULL */
    char same_grid[40], same_block[40], left_out[160];
} table_layout;

/* Which columns show: total only where a row has one, grid and block only
 * where they differ between rows. */
static void choose_columns(const wb_report *r, table_layout *L)
{
    int i, c, has_grid = 0, has_block = 0;
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        has_grid |= w->grid_x > 0;
        has_block |= w->block_x > 0;
    }
    for (c = 0; c < NCOLS; ++c)
        L->show[c] = 1;
    L->show[COL_TOTAL] = 0;
    for (i = 0; i < r->nrows; ++i)
        if (r->rows[i].total_ms >= 0)
            L->show[COL_TOTAL] = 1;
    L->grid_all = has_grid ? same_on_every_row(r, COL_GRID, L->same_grid, sizeof L->same_grid)
                           : NULL;
    L->block_all = has_block ? same_on_every_row(r, COL_BLOCK, L->same_block, sizeof L->same_block)
                             : NULL;
    L->show[COL_GRID] = has_grid && !L->grid_all;
    L->show[COL_BLOCK] = has_block && !L->block_all;
}

/* The columns: as wide as their widest cell; two blanks apart, one inside a
 * pair (grid block, time +-iqr, % copy and its bar), one everywhere when two
 * do not fit; then, still too wide, drop_order's columns go (the CSV has
 * them), named in left_out. */
static void fit_columns(const wb_report *r, table_layout *L)
{
    int i, c, *show = L->show, *width = L->width, *sep = L->sep;
    table_row t;
    for (c = 0; c < NCOLS; ++c) {
        width[c] = (int)strlen(col_head[c]);
        sep[c] = c == COL_BAR || c == COL_IQR || (c == COL_BLOCK && show[COL_GRID]) ? 1 : 2;
    }
    width[COL_BAR] = WB_BAR_WIDTH;
    for (i = 0; i < r->nrows; ++i) {
        row_cells(&r->rows[i], &t);
        for (c = 0; c < NCOLS; ++c)
            if ((int)strlen(t.text[c]) > width[c])
                width[c] = (int)strlen(t.text[c]);
    }
    for (i = 0, c = 0; c < NCOLS; ++c)
        i += show[c] ? width[c] + (c ? sep[c] : 0) : 0;
    if (i > WB_WIDTH)
        for (c = 0; c < NCOLS; ++c) {
            i -= show[c] && c && sep[c] > 1 ? sep[c] - 1 : 0;
            sep[c] = 1;
        }
    L->left_out[0] = '\0';
    for (c = 0; c < NDROP && i > WB_WIDTH; ++c) {
        if (!show[drop_order[c]])
            continue;
        show[drop_order[c]] = 0;
        i -= width[drop_order[c]] + 1;
        snprintf(L->left_out + strlen(L->left_out), sizeof L->left_out - strlen(L->left_out), "%s%s",
                 L->left_out[0] ? ", " : "", col_head[drop_order[c]]);
    }
}

/* The banner's device and ceiling lines. */
static void print_device_banner(const wb_report *r, FILE *out)
{
    char line[512];
    snprintf(line, sizeof line, "%s (%s)", r->device, r->device_detail);
    print_banner(out, "device", line);
    if (r->ceiling_gbps > 0) {
        snprintf(line, sizeof line, "%.0f GB/s: %s", r->ceiling_gbps, r->ceiling_what);
        if (r->peak_gbps > 0) {
            char peak[96];
            snprintf(peak, sizeof peak, "%.1f%% of the theoretical %.0f GB/s",
                     100.0 * r->ceiling_gbps / r->peak_gbps, r->peak_gbps);
            strncat(line, "; ", sizeof line - strlen(line) - 1);
            append_glued(line, sizeof line, peak);
        }
        print_banner(out, "ceiling", line);
    }
}

/* The banner's speedup line: against which row, and what. */
static void print_speedup_banner(const wb_report *r, const table_layout *L, FILE *out)
{
    char line[512];
    int i, ex = 0;
    for (i = 0; i < r->nrows; ++i)
        ex |= r->rows[i].role != NULL;
    /* the row the speedups are against: the baseline where it ran (-k may leave it out) */
    const char *base = r->rows[0].kernel;
    for (i = 0; r->baseline && i < r->nrows; ++i)
        if (!strcmp(r->rows[i].kernel, r->baseline))
            base = r->baseline;
    snprintf(line, sizeof line, "each row's time against %s's%s%s%s%s", base,
             L->show_n ? " at the same n" : "", ex ? "; your exercises against the kernel beside them" : "",
             r->speedup_note ? "; " : "", r->speedup_note ? r->speedup_note : "");
    print_banner(out, "speedup", line);
}

/* The banner: what every row shares, then a blank line. */
static void print_banners(const wb_report *r, table_layout *L, FILE *out)
{
    char line[512], sz[64], mib[32];
    print_device_banner(r, out);
    if (r->build)
        print_banner(out, "build", r->build);
    if (r->nrows > 0 && !L->show_n) {
        size_text(sz, sizeof sz, &r->rows[0]);
        bytes_text(mib, sizeof mib, r->rows[0].bytes);
        snprintf(line, sizeof line, "n = %s (%s moved), median of %d repetitions%s", sz, mib, r->reps,
                 r->ceiling_gbps > 0 && r->rows[0].grid_x ? ", L2 flushed before each" : "");
        print_banner(out, "size", line);
    }
    if (L->grid_all) {
        snprintf(line, sizeof line, "%s blocks for every kernel", L->grid_all);
        print_banner(out, "grid", line);
    }
    if (L->block_all) {
        snprintf(line, sizeof line, "%s threads for every kernel", L->block_all);
        print_banner(out, "block", line);
    }
    if (r->timed)
        print_banner(out, "timed", r->timed);
    if (L->show[COL_SPEEDUP] && r->nrows > 0)
        print_speedup_banner(r, L, out);
    if (L->left_out[0]) {
        strncat(L->left_out, ": left out to fit the screen (--csv has every column)",
                sizeof L->left_out - strlen(L->left_out) - 1);
        print_banner(out, "columns", L->left_out);
    }
    if (L->show[COL_TOTAL] && r->total_what)
        print_banner(out, "total", r->total_what);
    fprintf(out, "\n");
}

/* The head and the rows; in a sweep each size heads its rows, with its own ceiling. */
static void print_rows(const wb_report *r, const table_layout *L, FILE *out)
{
    char sz[64], mib[32];
    table_row t;
    int i;
    print_cells(out, L->show, L->width, L->sep, col_head);
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        if (L->show_n && (i == 0 || !wb_row_same_size(w, &r->rows[i - 1]))) {
            size_text(sz, sizeof sz, w);
            bytes_text(mib, sizeof mib, w->bytes);
            fprintf(out, "n = %s (%s moved), copy ceiling %.*f GB/s\n", sz, mib,
                    w->ceiling_gbps < 99.95 ? 1 : 0, w->ceiling_gbps);
        }
        row_cells(w, &t);
        print_cells(out, L->show, L->width, L->sep, t.text);
    }
}

/* Under the rows: each failed row's check, the bounds, the exercises. */
static void print_row_notes(const wb_report *r, FILE *out)
{
    char line[512];
    int i;
    for (i = 0; i < r->nrows; ++i)
        if (!r->rows[i].pass && !r->rows[i].todo) {
            snprintf(line, sizeof line, "  %s: ", r->rows[i].kernel);
            wb_print_wrapped(out, line, 4, r->rows[i].check);
        }
    print_bound_lines(r, out);
    for (i = 0; i < r->nrows; ++i)
        if (r->rows[i].role) {
            snprintf(line, sizeof line, "  %s (%s it, against %s): ", r->rows[i].kernel, r->rows[i].role,
                     r->rows[i].against);
            wb_print_wrapped(out, line, 4,
                             r->rows[i].todo ? "todo: delete WB_TODO() and write it"
                             : r->rows[i].pass ? "PASS, speedup above" : "FAIL, see above");
        }
    fprintf(out, "\n");
}

static void print_table(const wb_report *r, FILE *out)
{
    table_layout L;
    L.show_n = !rows_share_n(r);
    choose_columns(r, &L);
    fit_columns(r, &L);
    print_banners(r, &L, out);
    print_rows(r, &L, out);
    print_row_notes(r, out);
    if (r->notes_file && !fflush(r->notes_file)) /* each note line ends in \n; a blank line after them */
        fwrite(r->notes_text, 1, r->notes_size, out);
    print_summary(r, out);
    wb_print_exercise_line(r, out);
}

void wb_report_print(const wb_report *r, wb_format f, FILE *out)
{
    if (f == WB_CSV)
        wb_print_csv(r, out);
    else if (f == WB_JSON)
        wb_print_json(r, out);
    else
        print_table(r, out);
    fflush(out);
}
