/*
 * lab01 - reduction on the CPU: the two pairing patterns before the GPU.
 *
 * Build and run (gcc alone, no GPU needed):
 *     make lab01 && ./lab01             the table at n = 2^24
 *     ./lab01 --trace                   the array after every step, 17 elements
 *     ./lab01 --explain                 the same, with what each step does
 *     ./lab01 -n 1000003 --csv          machine-readable
 *     ./lab01 --exercises               your exercises (exercises.c) beside their reference rows
 *     ./lab01 --type float              every version in float (or double): still exact checks
 *     ./lab01 --type float --values uniform
 *                                       values in [-1, 1): each row's error and bound, then how
 *                                       the order of the additions changes a float sum
 *
 * The versions, in the order of the table:
 *   sequential            one loop, one accumulator: the reference
 *   recursiveNeighbored   pair a[i] with a[i+stride], stride doubling (lab02's pattern)
 *   recursiveInterleaved  pair a[i] with a[i+half], half halving (lab03's pattern)
 *   iterativeNeighbored   the same as loops
 *   iterativeInterleaved
 *
 * Every version is checked exactly against a 64-bit sum (in float and double
 * too: the input keeps every partial sum exact), or with --values uniform
 * against the rounding bound of its order of additions; the exit status is
 * the verdict. The exercises are int functions. The chapter is docs/lab01.md.
 */
#define _POSIX_C_SOURCE 200809L
#include "workbook.h"
#include "reduce_cpu.h"
#include "run.h" /* the runner: the verified and timed calls, the poisoned tail */
#include "exercises.h" /* the student's exercises.c, or with SOLUTIONS=1 solutions/exercises.c */

#include <stdlib.h>
#include <string.h>

/* f, f_float, f_double (reduce_cpu.h) */
#define IN_THREE_TYPES(f) f, f##_float, f##_double

/* {name, lesson, NULL, NULL}, the three versions, pairwise */
static const cpu_kernel kernels[] = {
    {{"sequential", "one loop and one accumulator: the reference every other version must match", NULL, NULL},
     IN_THREE_TYPES(reduce_sequential), 0},
    {{"recursiveNeighbored",
      "pair each element with its neighbour at a stride that doubles each level (lab02's pattern)", NULL, NULL},
     IN_THREE_TYPES(reduce_recursive_neighbored), 1},
    {{"recursiveInterleaved",
      "pair element i with element i + half, half halving each level (lab03's pattern)", NULL, NULL},
     IN_THREE_TYPES(reduce_recursive_interleaved), 1},
    {{"iterativeNeighbored", "the neighbored pairing as two loops: no call per level", NULL, NULL},
     IN_THREE_TYPES(reduce_iterative_neighbored), 1},
    {{"iterativeInterleaved", "the interleaved pairing as two loops: contiguous, vectorisable", NULL, NULL},
     IN_THREE_TYPES(reduce_iterative_interleaved), 1},
};

/* The exercises (exercises.c), each measured against a version above; int
 * only (./lab01 --exercises --type float is refused).
 * {name, task, kind, against}, reduce */
static const cpu_kernel exercises[] = {
    {{"recursiveReduceBook", "the book's recursiveReduce: what happens to an odd length?", "fix",
      "recursiveInterleaved"},
     recursiveReduceBook, NULL, NULL, 1},
    {{"pairwiseBlocked", "halves down to blocks of 16, then a loop: how NumPy sums", "write", "sequential"},
     pairwiseBlocked, NULL, NULL, 1},
    {{"sequentialUnroll4", "four accumulators: four independent chains of additions in flight", "write",
      "sequential"},
     sequentialUnroll4, NULL, NULL, 0},
};

static const wb_lab lab = {
    .lab = "lab01",
    .title = "reduction on the CPU: sequential, neighbored and interleaved pairing",
    .shape = WB_LENGTH,
    .default_n = 1 << 24,
    .max_n = WB_INT_MAX,
    .max_n_reason = "the exact int sum must fit in an int",
    .n_words = "elements to reduce",
    .uses_block = 0, /* no thread blocks on the CPU */
    .default_reps = 20,
    .extra_flag = "--trace",
    .extra_help = "print the array after every step of both pairings (17 elements unless -n says otherwise, "
                  "at most 64)",
    .kernels = WB_TABLE(kernels),
    .exercises = WB_TABLE(exercises),
    .exercise_file = "lab01_cpu_reduce/exercises.c",
    .exercise_n = WB_EXERCISE_N,
    .todo_take = NULL, /* on the CPU, WB_TODO() sets wb_cpu_todo */
    .types = WB_ALL_TYPES,
};

#define TRACE_MAX 64

/* ---------------------------------------------------------------------- */
/* --trace and --explain                                                   */
/* ---------------------------------------------------------------------- */
/* 22 columns of label and 19 elements of 4: a line fits 100 columns; a
 * longer row goes on under itself, 19 elements a line. */
#define TRACE_PER_LINE 19

static void print_row(const char *label, const int *a, const unsigned char *live, size_t n)
{
    size_t i;
    printf("%-22s", label);
    for (i = 0; i < n; ++i) {
        if (i > 0 && i % TRACE_PER_LINE == 0)
            printf("\n%-22s", "");
        if (live[i])
            printf("%4d", a[i]);
        else
            printf("   .");
    }
    printf("\n");
}

/* Both pairings on the same small input, level by level. A '.' is an
 * element already added into another one. */
static void trace(size_t n, unsigned long long seed, int explain)
{
    int input[TRACE_MAX] = {0}, nb[TRACE_MAX], il[TRACE_MAX], index[TRACE_MAX] = {0};
    unsigned char nb_live[TRACE_MAX], il_live[TRACE_MAX];
    unsigned long long state = seed;
    size_t i, stride, m = n, level = 0;
    char label[64];

    memset(nb_live, 0, sizeof nb_live);
    memset(il_live, 0, sizeof il_live);
    /* single digits keep every row on one screen; the sum still fits */
    for (i = 0; i < n; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        input[i] = (int)((state >> 33) % 10);
        index[i] = (int)i;
        nb_live[i] = il_live[i] = 1;
    }
    memcpy(nb, input, sizeof(int) * n);
    memcpy(il, input, sizeof(int) * n);
    printf("lab01 --%s: %zu elements (seed %llu), sum %lld\n\n", explain ? "explain" : "trace", n, seed,
           wb_sum_ints(input, n));
    if (explain)
        printf("Neighbored pairing (lab02's pattern): at stride s, element i (a multiple of 2s) adds\n"
               "element i+s, if there is one; the stride doubles, so the live elements spread apart.\n"
               "Interleaved pairing (lab03's pattern): with h = ceil(len/2), element i adds element i+h;\n"
               "the live elements stay packed at the front. With an odd length one element has no\n"
               "partner and simply waits for the next level: nothing is dropped, nothing copied.\n\n");
    print_row("index", index, nb_live, n);
    print_row("input", input, nb_live, n);

    for (stride = 1; stride < n || m > 1; stride *= 2, ++level) {
        printf("level %zu\n", level + 1);
        if (stride < n) {
            neighbored_level(nb, n, stride);
            for (i = 0; i + stride < n; i += 2 * stride)
                nb_live[i + stride] = 0;
            snprintf(label, sizeof label, "  neighbored  s=%zu", stride);
            print_row(label, nb, nb_live, n);
            if (explain) {
                size_t pairs = 0;
                for (i = 0; i + stride < n; i += 2 * stride)
                    ++pairs;
                printf("%-22s%zu addition%s: a[i] += a[i+%zu] for i = 0, %zu, %zu, ...\n", "", pairs,
                       pairs == 1 ? "" : "s", stride, 2 * stride, 4 * stride);
            }
        }
        if (m > 1) {
            size_t before = m;
            m = interleaved_level(il, m);
            for (i = m; i < before; ++i)
                il_live[i] = 0;
            snprintf(label, sizeof label, "  interleaved h=%zu", m);
            print_row(label, il, il_live, n);
            if (explain)
                printf("%-22s%zu addition%s: a[i] += a[i+%zu] for i < %zu%s\n", "", before - m,
                       before - m == 1 ? "" : "s", m, before - m, before % 2 ? " (odd length: the middle one waits)" : "");
        }
    }
    printf("\nboth end with a[0] = %d (neighbored) and %d (interleaved); expected %lld\n", nb[0], il[0],
           wb_sum_ints(input, n));
}

/* ---------------------------------------------------------------------- */
/* --values uniform: how the order of the additions changes a float sum    */
/* ---------------------------------------------------------------------- */
/* A bound in the table's column, or "none" where there is none (k u >= 1). */
static void bound_cell(FILE *out, double bound)
{
    if (bound < 0)
        fprintf(out, " %11s", "none");
    else
        fprintf(out, " %11.2e", bound);
}

/* The error of the sequential loop, both pairings and Kahan's sum against
 * the exact sum, at n = 2^10, 2^12, ..., 2^24, with the two bounds. */
static void accuracy_table(const wb_args *a, FILE *out)
{
    static const cpu_kernel *const orders[] = {&kernels[0], &kernels[3], &kernels[4]};
    wb_type t = a->type;
    int lg, i;
    fprintf(out, "The order of the additions changes a %s sum (values in [-1, 1), seed %llu).\n"
                 "error = |sum - exact sum|; the bounds: gamma_k sum|x|, gamma_k = ku/(1 - ku), u = 2^-%d,\n"
                 "k = n - 1 (loop) or log2(n) (tree); none where ku >= 1\n\n",
            wb_type_name(t), a->seed, wb_types[t].roundoff_bits);
    fprintf(out, "%9s %10s %11s %11s %11s %11s %11s %11s\n", "n", "sum|x|", "sequential", "neighbored",
            "interleaved", "Kahan", "loop bound", "tree bound");
    for (lg = 10; lg <= 24; lg += 2) {
        lab_input in;
        double ms, kahan;
        int tail_ok;
        cpu_make_input(&in, t, WB_VALUES_UNIFORM, (size_t)1 << lg, a->seed);
        fprintf(out, "%9zu %10.1f", in.n, in.exact.abs_sum);
        for (i = 0; i < 3; ++i)
            fprintf(out, " %11.2e", wb_exact_error(&in.exact, cpu_call_on_copy(orders[i], &in, &ms, &tail_ok)));
        kahan = WB_BY_TYPE(t, 0.0, reduce_kahan_float(in.input, in.n),
                           reduce_kahan_double(in.input, in.n));
        fprintf(out, " %11.2e", wb_exact_error(&in.exact, kahan));
        bound_cell(out, wb_error_bound(t, (long long)in.n, 0, in.exact.abs_sum));
        bound_cell(out, wb_error_bound(t, 1, lg, in.exact.abs_sum));
        fprintf(out, "\n");
        cpu_free_input(&in);
    }
    fprintf(out, "\nThe loop passes the first element through n - 1 roundings, a tree through log2(n):\n"
                 "the loop's bound grows like n, the tree's like log2(n), and the errors, whose signs\n"
                 "partly cancel, stay well under them. Kahan's sum carries each rounding error along:\n"
                 "its bound, (2u + O(n u^2)) sum|x|, hardly grows while n u is small (in float at\n"
                 "n = 2^24, n u = 1 and the second term is as large as the first). A GPU adds in a\n"
                 "tree: see docs/lab01-types.md.\n\n");
}

/* ---------------------------------------------------------------------- */
/* The program                                                             */
/* ---------------------------------------------------------------------- */
static const wb_runner runner = {cpu_open_input, cpu_run_row, cpu_close_input, NULL, NULL};

/* --trace, and --explain: the pairings on a small int input */
static int trace_mode(const wb_args *a)
{
    long long tn = a->n_given ? a->n : 17;
    if (a->type != WB_INT) {
        fprintf(stderr, "lab01: --trace and --explain show the pairings on small ints; leave --type out\n");
        return WB_EXIT_USAGE;
    }
    if (tn > TRACE_MAX) {
        fprintf(stderr, "lab01: --trace and --explain print every element; give -n from 1 to %d\n", TRACE_MAX);
        return WB_EXIT_USAGE;
    }
    trace((size_t)tn, a->seed, a->explain);
    return WB_EXIT_OK;
}

static void explain(const wb_args *a)
{
    int status = trace_mode(a);
    if (status != WB_EXIT_OK)
        exit(status);
}

static const wb_program program = {
    .lab = &lab,
    .runner = &runner,
    .explain = explain,
    .mode = WB_MODE_OWN,
    .own_mode = trace_mode,
    .timed = "one whole reduction on one core (monotonic clock); the input is restored outside the timing",
    .baseline = "sequential",
};

/* --values uniform: the accuracy table under the rows (the table format only) */
int main(int argc, char **argv)
{
    wb_run run;
    int status = wb_main_rows(&program, argc, argv, &run);
    if (status >= 0)
        return status;
    if (run.a->values == WB_VALUES_UNIFORM && run.a->format == WB_TABLE_OUT)
        accuracy_table(run.a, wb_report_notes(run.r));
    return wb_main_end(&run);
}
