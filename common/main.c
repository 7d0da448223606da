/*
 * main.c - the main of every program, in two halves: wb_main_rows (parse:
 * -h, --list and every bad input; the lab's own mode, the checks before the
 * device, --explain, the device, --check and its loop over the lists, the
 * timed rows, a sweep's sizes too, the exercises' count; --dry-run's plan
 * instead of the device) and wb_main_end (the print, the device closed).
 * C11, no CUDA.
 */
#define _GNU_SOURCE
#include "program.h"

#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "check.h"
#include "device.h"
#include "trace.h" /* --trace KERNEL */
#include "usage.h"

/* ------------------------------------------------------------------------ */
/* The rows                                                                  */
/* ------------------------------------------------------------------------ */
int wb_plan_rows(const wb_lab *lab, const wb_args *a, const wb_kernel_info **order)
{
    int i, j, count = 0;
    for (i = 0; i < lab->kernels.count; ++i) {
        const wb_kernel_info *k = wb_table_at(lab->kernels, i);
        int wanted = a->selected[i];
        for (j = 0; a->exercises && j < lab->exercises.count; ++j)
            if (a->ex_selected[j] && !strcmp(wb_table_at(lab->exercises, j)->against, k->name))
                wanted = 1;
        if (!wanted)
            continue;
        order[count++] = k;
        for (j = 0; a->exercises && j < lab->exercises.count; ++j)
            if (a->ex_selected[j] && !strcmp(wb_table_at(lab->exercises, j)->against, k->name))
                order[count++] = wb_table_at(lab->exercises, j);
    }
    return count;
}

void wb_rows(const wb_runner *rn, wb_run *run, const wb_input_cfg *cfg, wb_row_mode mode)
{
    int i;
    rn->open_input(run, cfg);
    for (i = 0; i < run->nrows; ++i) {
        wb_row row;
        rn->run_row(run, run->order[i], cfg->bx[0], cfg->by ? cfg->by[0] : 1, cfg->choice ? cfg->choice[0] : 0,
                    mode, &row);
    }
    rn->close_input(run);
}

const char *wb_baseline(const wb_lab *lab, const wb_args *a, const char *preferred)
{
    const char *baseline = NULL;
    int i;
    for (i = 0; i < lab->kernels.count; ++i) {
        const char *name = wb_table_at(lab->kernels, i)->name;
        if (a->selected[i] && (!baseline || (preferred && !strcmp(name, preferred))))
            baseline = name;
    }
    return baseline;
}

void wb_input_cfg_of(wb_input_cfg *cfg, const wb_args *a, wb_type type, wb_values values, long long n, int nx,
                          int ny, int timed)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->type = type;
    cfg->values = values;
    cfg->seed = a->seed;
    cfg->n = n;
    cfg->nx = nx;
    cfg->ny = ny;
    cfg->bx = &a->block_x;
    cfg->by = &a->block_y;
    cfg->nblocks = 1;
    cfg->choice = &a->choice;
    cfg->nchoice = 1;
    cfg->timed = timed;
}

static void timed_rows(const wb_program *p, wb_run *run, long long n)
{
    wb_input_cfg cfg;
    wb_input_cfg_of(&cfg, run->a, run->a->type, run->a->values, n, run->a->nx, run->a->ny, 1);
    wb_rows(p->runner, run, &cfg, WB_ROW_TIMED);
}

/* The timed rows: at -n, or with --sweep at each size of the sweep. */
static void all_timed_rows(const wb_program *p, wb_run *run)
{
    long long last = run->a->n_given ? run->a->n : p->sweep_last, n;
    if (p->mode != WB_MODE_SWEEP || !run->a->extra) {
        timed_rows(p, run, run->a->n);
        return;
    }
    for (n = p->sweep_first; n <= last; n *= 4)
        timed_rows(p, run, n);
    if (n / 4 != last) /* -n not on the 4x ladder: end at it */
        timed_rows(p, run, last);
}

/* Without --exercises: each selected exercise verified once, untimed, on
 * the int input at the lab's exercise size, and counted for the closing
 * line. Nothing with --exercises (the rows say it). */
static void count_exercises(const wb_program *p, const wb_run *run)
{
    const wb_kernel_info *order[WB_MAX_KERNELS];
    const wb_lab *lab = run->lab;
    wb_run ex = *run;
    wb_input_cfg cfg;
    ex.order = order;
    ex.nrows = wb_report_exercises_begin(run->r, lab, run->a, order);
    if (!ex.nrows)
        return;
    wb_input_cfg_of(&cfg, run->a, WB_INT, WB_VALUES_EXACT,
                  lab->shape == WB_MATRIX ? (long long)lab->exercise_nx * lab->exercise_ny : lab->exercise_n,
                  lab->exercise_nx, lab->exercise_ny, 0);
    wb_rows(p->runner, &ex, &cfg, WB_ROW_COUNT);
}

/* ------------------------------------------------------------------------ */
/* --check                                                                   */
/* ------------------------------------------------------------------------ */
/* The rows the lists call for, counted apart from the loop that runs them:
 * every row at every combination, a library row at the first block only. */
static int planned_rows(const wb_run *run)
{
    const wb_args *a = run->a;
    int i, per_input = 0;
    for (i = 0; i < run->nrows; ++i)
        per_input += wb_is_library(run->order[i]->name) ? 1 : a->block_count;
    return a->type_count * a->seed_count * a->n_count * a->choice_count * per_input;
}

/* The input of list items (ti, si, ni), for every block and choice. */
static void check_input_cfg(wb_input_cfg *cfg, const wb_args *a, int ti, int si, int ni)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->type = a->type_list[ti];
    cfg->values = a->values;
    cfg->seed = a->seed_list[si];
    cfg->n = a->n_list[ni];
    cfg->nx = a->nx_list[ni];
    cfg->ny = a->ny_list[ni];
    cfg->bx = a->bx_list;
    cfg->by = a->by_list;
    cfg->nblocks = a->block_count;
    cfg->choice = a->choice_list;
    cfg->nchoice = a->choice_count;
}

int wb_check_run(wb_run *run, int type, const wb_runner *rn)
{
    const wb_args *a = run->a;
    wb_checker ck;
    int ti, si, ni, fi, bi, i;
    wb_check_begin(&ck, run->lab->lab, stdout);
    ck.planned = planned_rows(run);
    for (ti = 0; ti < a->type_count; ++ti)
        for (si = 0; si < a->seed_count; ++si)
            for (ni = 0; ni < a->n_count; ++ni) {
                wb_input_cfg in;
                check_input_cfg(&in, a, ti, si, ni);
                rn->open_input(run, &in);
                for (fi = 0; fi < a->choice_count; ++fi)
                    for (bi = 0; bi < a->block_count; ++bi) {
                        wb_check_cfg cfg;
                        wb_check_cfg_of(&cfg, run->lab, a, ni, bi, ti, fi, si);
                        if (type >= 0)
                            cfg.type = (wb_type)type;
                        for (i = 0; i < run->nrows; ++i) {
                            wb_row row;
                            if (bi > 0 && wb_is_library(run->order[i]->name)) /* it ignores -b */
                                continue;
                            rn->run_row(run, run->order[i], a->bx_list[bi], a->by_list[bi], a->choice_list[fi],
                                        WB_ROW_CHECK, &row);
                            wb_check_add(&ck, &row, &cfg, stdout);
                        }
                    }
                rn->close_input(run);
            }
    return wb_check_end(&ck, stderr);
}

/* ------------------------------------------------------------------------ */
/* The steps before the device                                               */
/* ------------------------------------------------------------------------ */
/* What p offers (lab.h): its table's offers, and its explainer and matrix mode. */
unsigned wb_program_offers(const wb_program *p)
{
    return wb_lab_offers(p->lab) | (p->explain ? WB_OFFER_EXPLAIN : 0u) | (p->matrix ? WB_OFFER_MATRIX : 0u) |
           (p->matrix ? wb_lab_offers(p->matrix->lab) & WB_OFFER_EXERCISES : 0u);
}

/* Parse; on an error "LAB: <err>" on stderr and exit 2; -h, --capabilities
 * and --list (a program with a matrix mode names it too) print and exit 0.
 * All before any device call, so they work on a machine without a GPU.
 * `top`: the program the user ran (lab05 for its matrix mode). */
static void parse_or_exit(const wb_program *p, const wb_program *top, int argc, char **argv, wb_args *a)
{
    char err[1200];
    unsigned offers = wb_program_offers(p);
    int i;
    if (wb_parse_args(p->lab, offers, argc, argv, a, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", p->lab->lab, err);
        exit(WB_EXIT_USAGE);
    }
    if (a->help) {
        wb_print_usage(p->lab, offers, stdout);
        if (p->matrix)
            fputs(p->matrix_usage, stdout);
        exit(WB_EXIT_OK);
    }
    if (a->capabilities) { /* the words of what the program the user ran offers, on one line */
        const char *sep = "";
        offers = wb_program_offers(top);
        for (i = 0; i < WB_NOFFERS; ++i)
            if (offers & (1u << i)) {
                printf("%s%s", sep, wb_offer_name(i));
                sep = " ";
            }
        printf("\n");
        exit(WB_EXIT_OK);
    }
    if (a->list && a->format == WB_CSV) {
        wb_print_list_csv(p->lab, stdout);
        exit(WB_EXIT_OK);
    }
    if (a->list) {
        wb_print_list(p->lab, stdout);
        if (p->matrix) {
            fputs(p->matrix_list_head, stdout);
            wb_print_list(p->matrix->lab, stdout);
        }
        exit(WB_EXIT_OK);
    }
}

/* --sweep runs from sweep_first: a smaller -n is refused. */
static void check_sweep(const wb_program *p, const wb_args *a)
{
    if (p->mode != WB_MODE_SWEEP || !a->extra || !a->n_given || a->n >= p->sweep_first)
        return;
    fprintf(stderr, "%s: %s -n %lld: the sweep runs from 2^%d up to -n; give -n %lld or more (default 2^%d)\n",
            p->lab->lab, p->lab->extra_flag, a->n, wb_ceil_log2(p->sweep_first), p->sweep_first,
            wb_ceil_log2(p->sweep_last));
    exit(WB_EXIT_USAGE);
}

/* The report's banner lines, from the program or else its runner. */
static void report_begin(const wb_program *p, wb_run *run, wb_report *r)
{
    const wb_args *a = run->a;
    wb_report_init(r, p->lab->lab);
    wb_device_describe(run->dev, r);
    r->type = p->type_name ? p->type_name : wb_type_name(a->type);
    r->timed = p->timed ? p->timed : p->runner->timed;
    r->total_what = p->total_what ? p->total_what : p->runner->total_what;
    r->speedup_note = p->speedup_note;
    r->build = p->build;
    r->reps = a->reps;
    r->baseline = wb_baseline(p->lab, a, p->baseline);
    run->r = r;
}

/* 1 when NAME is a kernel or an exercise of q's own tables */
static int has_row(const wb_program *q, const char *name)
{
    return wb_table_find(q->lab->kernels, name, strlen(name)) >= 0 || wb_exercise_index(q->lab, name) >= 0;
}

/* --trace NAME: NAME is a kernel or an exercise of p's tables (or of its
 * matrix mode's), not a library's row; else one line and exit 2, before the
 * device is needed. */
static void check_trace_name(const wb_program *p, int argc, char **argv)
{
    const char *name = NULL;
    int i;
    for (i = 1; i + 1 < argc; ++i)
        if (!strcmp(argv[i], "--trace") && argv[i + 1][0] != '-')
            name = argv[i + 1];
    if (!name)
        return; /* none, or no name: wb_trace_redirect says so */
    if (wb_is_library(name)) {
        fprintf(stderr, "%s: --trace: %.32s%s is a library's call, not one of the lab's kernels\n", p->lab->lab,
                name, strlen(name) > 32 ? "..." : "");
        exit(WB_EXIT_USAGE);
    }
    if (has_row(p, name) || (p->matrix && has_row(p->matrix, name)))
        return;
    fprintf(stderr, "%s: --trace: no kernel named '%.32s%s' (./%s --list names them)\n", p->lab->lab, name,
            strlen(name) > 32 ? "..." : "", p->lab->lab);
    exit(WB_EXIT_USAGE);
}

/* --dry-run: what the run would do, and exit 0; the device is never opened. */
static void dry_run_exit(const wb_program *p, const wb_run *run, const char *what)
{
    const wb_args *a = run->a;
    const wb_lab *lab = p->lab;
    int i;
    printf("%s --dry-run: the command line is accepted; nothing ran and no device was opened\n", lab->lab);
    if (what) {
        printf("would run: %s\n", what);
        exit(WB_EXIT_OK);
    }
    if (lab->shape == WB_MATRIX)
        printf("would run: %d row%s on a %dx%d matrix", run->nrows, run->nrows == 1 ? "" : "s", a->nx, a->ny);
    else if (p->mode == WB_MODE_SWEEP && a->extra) /* all_timed_rows' sizes */
        printf("would run: %d row%s at each n from %lld to %lld, 4x apart", run->nrows, run->nrows == 1 ? "" : "s",
               p->sweep_first, a->n_given ? a->n : p->sweep_last);
    else
        printf("would run: %d row%s at n = %lld", run->nrows, run->nrows == 1 ? "" : "s", a->n);
    if (lab->uses_block && lab->shape == WB_MATRIX)
        printf(", block %dx%d", a->block_x, a->block_y);
    else if (lab->uses_block)
        printf(", block %d", a->block_x);
    printf(", %s%s", p->type_name ? p->type_name : wb_type_name(a->type),
           a->values == WB_VALUES_UNIFORM ? " (uniform values)" : "");
    if (lab->choice)
        printf(", %s %s", lab->choice->flag, lab->choice->word[a->choice]);
    if (a->check)
        printf(", --check: %d verified rows, untimed\n", planned_rows(run));
    else
        printf(", %d repetition%s%s\n", a->reps, a->reps == 1 ? "" : "s",
               a->format == WB_CSV ? ", CSV" : a->format == WB_JSON ? ", JSON" : "");
    for (i = 0; i < run->nrows; ++i)
        printf("  %s%s\n", run->order[i]->name, run->order[i]->kind ? "  (your exercise)" : "");
    exit(WB_EXIT_OK);
}

/* --trace KERNEL --dry-run: the trace's command line, checked as the traced
 * run (--check -k KERNEL -n N -b B) will parse it, and its plan. */
static void trace_dry_run(const wb_program *p, int argc, char **argv)
{
    wb_trace_cmd t;
    char *args[10], plan[200];
    int c = 0;
    wb_run run;
    static wb_args a;
    static const wb_kernel_info *order[2 * WB_MAX_KERNELS];
    if (!wb_trace_parse(argc, argv, &t) || !t.dry_run)
        return;
    args[c++] = argv[0], args[c++] = (char *)"--check", args[c++] = (char *)"-k", args[c++] = (char *)t.kernel;
    if (t.n[0])
        args[c++] = (char *)"-n", args[c++] = (char *)t.n;
    if (t.b[0])
        args[c++] = (char *)"-b", args[c++] = (char *)t.b;
    args[c] = NULL;
    if (p->matrix && (t.n[0] ? wb_args_shape(c, args) == WB_MATRIX : !has_row(p, t.kernel)))
        p = p->matrix; /* -n NXxNY, or without -n a kernel of the matrix mode (as trace.sh picks) */
    parse_or_exit(p, p, c, args, &a);
    memset(&run, 0, sizeof run);
    run.a = &a;
    run.order = order;
    run.nrows = wb_plan_rows(p->lab, &a, order);
    if (p->check_args)
        p->check_args(p->lab, &a, order, run.nrows);
    snprintf(plan, sizeof plan, "trace %s on the GPU (tools/trace/trace.sh)%s%s%s%s%s", t.kernel,
             t.n[0] ? " at -n " : "", t.n, t.b[0] ? " -b " : "", t.b, t.brief ? ", drawn --brief" : "");
    dry_run_exit(p, &run, plan);
}

/* wb_main_rows of p, which the user ran as `top` (lab05's matrix mode: lab05) */
static int main_rows(const wb_program *p, const wb_program *top, int argc, char **argv, wb_run *run)
{
    static wb_report r;
    static const wb_kernel_info *order[2 * WB_MAX_KERNELS];
    static wb_args a;
    int status;

    memset(run, 0, sizeof *run);
    if (p->lab->gpu_trace) {
        check_trace_name(p, argc, argv);
        trace_dry_run(p, argc, argv);  /* --trace KERNEL --dry-run: the plan, exit 0 */
        wb_trace_redirect(argc, argv); /* --trace KERNEL: tools/trace/trace.sh */
    }
    if (p->matrix && wb_args_shape(argc, argv) == WB_MATRIX) /* -n NXxNY */
        return main_rows(p->matrix, top, argc, argv, run);
    parse_or_exit(p, top, argc, argv, &a);
    run->program = p;
    run->lab = p->lab;
    run->a = &a;
    run->order = order;
    if (a.extra && p->mode == WB_MODE_OWN && !a.explain) {
        if (a.dry_run) { /* the lab's own mode, which checks its own input as it runs */
            char what[64];
            snprintf(what, sizeof what, "%s, the lab's own mode", p->lab->extra_flag);
            dry_run_exit(p, run, what);
        }
        return p->own_mode(&a);
    }
    run->nrows = wb_plan_rows(p->lab, &a, order);
    if (p->check_args)
        p->check_args(p->lab, &a, order, run->nrows);
    check_sweep(p, &a);
    if (a.dry_run)
        dry_run_exit(p, run, a.explain ? "--explain, on the CPU" : NULL);
    if (a.explain) {
        p->explain(&a);
        return WB_EXIT_OK;
    }

    run->dev = wb_device_open(p->lab->lab);
    if (a.check) {
        status = wb_check_run(run, p->check_type - 1, p->runner);
        wb_device_close(run->dev);
        return status;
    }
    report_begin(p, run, &r);
    all_timed_rows(p, run);
    count_exercises(p, run);
    return -1;
}

int wb_main_rows(const wb_program *p, int argc, char **argv, wb_run *run)
{
    return main_rows(p, p, argc, argv, run);
}

int wb_main_end(wb_run *run)
{
    int status;
    wb_report_print(run->r, run->a->format, stdout);
    status = wb_report_status(run->r);
    wb_report_notes_close(run->r);
    wb_device_close(run->dev);
    return status;
}

int wb_main(const wb_program *p, int argc, char **argv)
{
    wb_run run;
    int status = wb_main_rows(p, argc, argv, &run);
    return status >= 0 ? status : wb_main_end(&run);
}
