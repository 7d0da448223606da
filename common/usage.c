/*
 * usage.c - what a lab says about itself without running: -h (the synopsis
 * and every option, in the lab's words), --list and --list --csv (each
 * kernel and exercise with its lesson). C11, no CUDA.
 */
#include "usage.h"

#include <string.h>

#include "text.h"
#include "types.h"

/* The synopsis: bracketed groups, a line broken between two groups where
 * the next would pass WB_WIDTH columns; the --trace line. */
static void print_synopsis(const wb_lab *lab, int explains, FILE *f)
{
    char extra[48] = "";
    const int matrix = lab->shape == WB_MATRIX;
    const char *groups[] = {
        matrix ? "[-n NXxNY | --nx NX --ny NY]" : "[-n N]",
        !lab->uses_block ? "" : matrix ? "[-b WxH]" : "[-b THREADS]",
        "[-k NAME[,NAME...]]", "[-r REPS]", "[--seed S]", "[--csv | --json]", explains ? "[--explain]" : "", "[--check]",
        lab->types & ~WB_TYPE_BIT(WB_INT) ? "[--type T]" : "",
        lab->types & ~WB_TYPE_BIT(WB_INT) ? "[--values V]" : "",
        lab->exercises.count > 0 ? "[--exercises]" : "", extra, lab->choice ? lab->choice->usage : "", "[--list]", "[--dry-run]", "[--capabilities]", "[-h]"};
    int i, col;
    if (lab->extra_flag)
        snprintf(extra, sizeof extra, "[%s]", lab->extra_flag);
    fprintf(f, "%s - %s\n\n", lab->lab, lab->title);
    col = fprintf(f, "usage: ./%s", lab->lab);
    for (i = 0; i < (int)(sizeof groups / sizeof groups[0]); ++i) {
        if (!groups[i][0])
            continue;
        if (col + 1 + (int)strlen(groups[i]) > WB_WIDTH)
            col = fprintf(f, "\n      ");
        col += fprintf(f, " %s", groups[i]);
    }
    fprintf(f, "\n");
    if (lab->gpu_trace)
        fprintf(f, "       ./%s --trace NAME [-n %s] [-b %s] [--brief] [--svg FILE]\n", lab->lab,
                matrix ? "NXxNY" : "N", matrix ? "WxH" : "THREADS");
    fprintf(f, "\n");
}

/* -n and -b: the shape and the block, with the lab's defaults. */
static void print_size_options(const wb_lab *lab, FILE *f)
{
    if (lab->shape == WB_LENGTH)
        fprintf(f, "  -n N          %s (default %lld, at most %lld);\n"
                   "                16M = 16*2^20, 1G and 2^24 work too\n",
                lab->n_words ? lab->n_words : "elements", lab->default_n, lab->max_n);
    else
        fprintf(f, "  -n NXxNY      matrix of NX columns and NY rows (default %dx%d); -n N is N x N\n"
                   "  --nx, --ny    set one side\n", lab->default_nx, lab->default_ny);
    if (lab->uses_block && lab->shape == WB_LENGTH)
        fprintf(f, "  -b THREADS    threads per block, a power of two from 32 to 1024 (default %d)\n",
                lab->default_block_x);
    else if (lab->uses_block)
        fprintf(f, "  -b WxH        block shape, powers of two with 32 <= W*H <= 1024 (default %dx%d)\n",
                lab->default_block_x, lab->default_block_y);
}

/* --check and --exercises, in the lab's words. */
static void print_check_options(const wb_lab *lab, FILE *f)
{
    char text[320], choice[40] = "";
    if (lab->choice)
        snprintf(choice, sizeof choice, "%s, ", lab->choice->flag);
    snprintf(text, sizeof text,
             "correctness only, untimed: every kernel on every combination of %s%s%s%s given as "
             "comma lists (%s); one CSV row per kernel and combination (docs/output.md)",
             lab->uses_block ? "-n, -b, " : "-n, ", lab->types & ~WB_TYPE_BIT(WB_INT) ? "--type, " : "",
             choice, "--seed",
             lab->shape == WB_MATRIX ? "-n 1x1,33x17 -b 32x8,16x16"
             : lab->uses_block       ? "-n 1,33,1000003 -b 32,1024"
                                     : "-n 1,17,1000003");
    wb_print_wrapped(f, "  --check       ", 16, text);
    if (lab->exercises.count > 0) {
        snprintf(text, sizeof text, "run your exercises (%s) beside the kernels they are measured "
                                    "against; without -n at %s, where every bug shows",
                 lab->exercise_file, lab->shape == WB_LENGTH ? "n = 16777213 (2^24 - 3)" : "a rectangle");
        wb_print_wrapped(f, "  --exercises   ", 16, text);
    }
}

void wb_print_usage(const wb_lab *lab, unsigned offers, FILE *f)
{
    const int explains = (offers & WB_OFFER_EXPLAIN) != 0;
    print_synopsis(lab, explains, f);
    print_size_options(lab, f);
    fprintf(f, "  -k NAMES      run only these kernels (comma-separated; --list names them)\n"
               "  -r REPS       timed repetitions; the median is reported (default %d)\n"
               "  --seed S      seed of the input generator (default 1)\n"
               "  --csv         machine-readable CSV on stdout (columns: docs/output.md)\n"
               "  --json        machine-readable JSON on stdout\n%s",
            lab->default_reps,
            explains ? "  --explain     show step by step what the threads do on a tiny input\n" : "");
    print_check_options(lab, f);
    if (lab->types & ~WB_TYPE_BIT(WB_INT)) {
        char names[64];
        wb_type_names(lab->types, names, sizeof names);
        fprintf(f, "  --type T      the element type: %s (default int)\n"
                   "  --values V    exact (default): integers, every sum exact, checked exactly;\n"
                   "                uniform: [-1, 1) (float, double), checked against an error bound\n",
                names);
    }
    if (lab->extra_flag) {
        char lead[32];
        snprintf(lead, sizeof lead, "  %-13s ", lab->extra_flag);
        wb_print_wrapped(f, lead, 16, lab->extra_help ? lab->extra_help : "");
    }
    if (lab->choice)
        fputs(lab->choice->help, f);
    if (lab->gpu_trace)
        wb_print_wrapped(f, "  --trace NAME  ", 16,
                         "the real accesses of kernel NAME on this GPU (Compute Sanitizer), drawn as "
                         "--explain draws them: the tree, sectors per request, bank conflicts, active "
                         "lanes; -n and -b size it (small by default), --brief draws the steps and the "
                         "summary only, --svg FILE also writes the picture");
    fprintf(f, "  --list        name every kernel with what it shows\n"
               "  --dry-run     check the command line and print what would run; no device needed\n"
               "  --capabilities  print what this program offers (explain, exercises, trace, ...)\n"
               "  -h, --help    this text\n\n"
               "exit status: 0 every kernel verified, 1 a kernel gave a wrong result, 2 bad command line,\n"
               "             3 no usable CUDA device or a CUDA error\n");
}

/* Each kernel's lesson (an exercise's kind, task and reference row) beside
 * its name, wrapped under itself to fit WB_WIDTH columns. */
void wb_print_list(const wb_lab *lab, FILE *f)
{
    int i, namew = 0;
    char lead[128], text[512];
    for (i = 0; i < lab->kernels.count + lab->exercises.count; ++i) {
        const wb_kernel_info *k = i < lab->kernels.count ? wb_table_at(lab->kernels, i)
                                                         : wb_table_at(lab->exercises, i - lab->kernels.count);
        if ((int)strlen(k->name) > namew)
            namew = (int)strlen(k->name);
    }
    for (i = 0; i < lab->kernels.count; ++i) {
        const wb_kernel_info *k = wb_table_at(lab->kernels, i);
        snprintf(lead, sizeof lead, "%-*s  ", namew, k->name);
        wb_print_wrapped(f, lead, namew + 2, k->lesson);
    }
    if (lab->exercises.count > 0)
        fprintf(f, "\nexercises in %s (./%s --exercises runs them):\n", lab->exercise_file, lab->lab);
    for (i = 0; i < lab->exercises.count; ++i) {
        const wb_kernel_info *k = wb_table_at(lab->exercises, i);
        snprintf(lead, sizeof lead, "%-*s  %-5s ", namew, k->name, k->kind);
        snprintf(text, sizeof text, "%s (measured against %s)", k->lesson, k->against);
        wb_print_wrapped(f, lead, namew + 8, text);
    }
}

/* One --list --csv row: the lesson quoted when it holds a comma or a quote. */
static void list_csv_row(FILE *f, const wb_kernel_info *k, const char *kind)
{
    const char *c;
    fprintf(f, "%s,%s,%s,", k->name, kind, k->against ? k->against : "");
    if (!strpbrk(k->lesson, ",\"")) {
        fprintf(f, "%s\n", k->lesson);
        return;
    }
    fputc('"', f);
    for (c = k->lesson; *c; ++c) {
        if (*c == '"')
            fputc('"', f); /* a quote inside is doubled */
        fputc(*c, f);
    }
    fputs("\"\n", f);
}

void wb_print_list_csv(const wb_lab *lab, FILE *f)
{
    int i;
    fprintf(f, "kernel,kind,against,lesson\n");
    for (i = 0; i < lab->kernels.count; ++i)
        list_csv_row(f, wb_table_at(lab->kernels, i), "kernel");
    for (i = 0; i < lab->exercises.count; ++i)
        list_csv_row(f, wb_table_at(lab->exercises, i), wb_table_at(lab->exercises, i)->kind);
}
