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
#include "exercises.h" /* the student's exercises.c, or with SOLUTIONS=1 solutions/exercises.c */

#include <stdlib.h>
#include <string.h>

typedef struct {
    wb_kernel_info info;
    int (*reduce)(int *a, size_t n); /* as the book: int */
    float (*reduce_float)(float *a, size_t n);    /* the same in float and double; */
    double (*reduce_double)(double *a, size_t n); /* NULL for the exercises (int only) */
    int pairwise; /* the order of the additions: 0 one chain (a loop), 1 a pairwise tree */
} cpu_kernel;

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
/* Timing                                                                  */
/* ---------------------------------------------------------------------- */
/* The elements after a[n-1] hold garbage that a correct version neither
 * reads (it would add 0x55555555, or the float or double with that bit
 * pattern, to the sum) nor writes (checked after every call): the CPU's
 * version of the GPU labs' poisoned padding. */
#define TAIL 16
#define TAIL_POISON_BYTE 0x55

/* One run's input in its type, and what a correct sum must be. */
typedef struct {
    wb_type type;
    wb_values values;  /* uniform also for float above n = 2^24 (no exact input there) */
    int forced;        /* ... uniform for that reason alone (exact was asked for) */
    size_t n, size;    /* elements, bytes per element */
    void *input, *work; /* work: n elements, then TAIL poisoned ones */
    long long expected; /* int: the exact sum */
    wb_exact exact;     /* float, double: the exact sum and sum |x| */
} lab_input;

/* The input of type t at length n (exit 2 if the memory is not there). */
static void make_input(lab_input *in, wb_type t, wb_values v, size_t n, unsigned long long seed)
{
    in->type = t;
    in->n = n;
    in->size = wb_type_size(t);
    in->forced = v == WB_VALUES_EXACT && t != WB_INT && wb_exact_value_max(t, (long long)n) == 0;
    in->values = in->forced ? WB_VALUES_UNIFORM : v;
    in->input = malloc(n * in->size);
    in->work = malloc((n + TAIL) * in->size);
    if (!in->input || !in->work) {
        fprintf(stderr, "lab01: -n %zu needs %.1f MiB twice and the allocation failed; choose a smaller -n\n", n,
                n * in->size / 1048576.0);
        exit(WB_EXIT_USAGE);
    }
    if (t == WB_INT) {
        wb_fill_ints(in->input, n, seed);
        in->expected = wb_sum_ints(in->input, n);
    } else
        in->exact = wb_fill_real(t, in->input, n, in->values, seed);
}

static void free_input(lab_input *in)
{
    free(in->input);
    free(in->work);
}

/* k's version for the input's type on work[0..n) (an int sum is exact in a double) */
static double call_reduce(const cpu_kernel *k, const lab_input *in)
{
    return WB_BY_TYPE(in->type, k->reduce(in->work, in->n), k->reduce_float(in->work, in->n),
                      k->reduce_double(in->work, in->n));
}

/* Run k once on a fresh copy of the input in work[0..n) (followed by the
 * poisoned tail); returns its sum and sets *tail_ok to whether the tail
 * survived. The copy is made before t0, so the caller may time just this call. */
static double call_on_copy(const cpu_kernel *k, const lab_input *in, double *ms, int *tail_ok)
{
    unsigned char *tail = (unsigned char *)in->work + in->n * in->size;
    size_t i;
    double got, t0;
    memcpy(in->work, in->input, in->n * in->size);
    memset(tail, TAIL_POISON_BYTE, TAIL * in->size);
    t0 = wb_now_ms();
    got = call_reduce(k, in);
    *ms = wb_now_ms() - t0;
    *tail_ok = 1;
    for (i = 0; i < TAIL * in->size; ++i)
        if (tail[i] != TAIL_POISON_BYTE)
            *tail_ok = 0;
    return got;
}

/* Median of reps runs of k, each on a fresh copy of the input (the copy is
 * made outside the timed region). *agreed: every run gave `want` (bit for
 * bit) and left the tail alone; if not, *wrong is the first wrong run's sum. */
static wb_stats time_cpu(const cpu_kernel *k, const lab_input *in, int reps, double want, int *agreed,
                         double *wrong)
{
    double *ms = malloc(sizeof(double) * (size_t)reps), got;
    wb_stats s;
    int r, tail_ok;
    if (!ms) {
        fprintf(stderr, "lab01: out of memory\n");
        exit(WB_EXIT_USAGE);
    }
    *agreed = 1;
    for (r = 0; r < reps; ++r) {
        got = call_on_copy(k, in, &ms[r], &tail_ok);
        if (*agreed && (got != want || !tail_ok)) {
            *agreed = 0;
            *wrong = got;
        }
    }
    s = wb_summarize(ms, reps);
    free(ms);
    return s;
}

/* The result column: the sum `got`, for a checker outside the program */
static void result_of(const lab_input *in, double got, wb_row *row)
{
    if (in->type == WB_INT)
        wb_row_result_int(row, (long long)got);
    else
        wb_row_result_real(row, got);
}

/* The verdict on k's sum `got`: exact for int and for the exact float and
 * double inputs; else |got - exact sum| against the rounding bound of k's
 * order of additions (a chain of n - 1, or a tree of ceil(log2 n) levels). */
static void judge(const cpu_kernel *k, const lab_input *in, double got, int tail_ok, wb_row *row)
{
    const char *past = tail_ok ? "" : "; wrote past a[n-1]";
    result_of(in, got, row);
    if (in->type == WB_INT) {
        row->pass = got == (double)in->expected && tail_ok;
        snprintf(row->check, sizeof row->check, "sum %.0f, expected %lld%s", got, in->expected, past);
    } else if (in->values == WB_VALUES_EXACT) {
        row->pass = wb_exact_error(&in->exact, got) == 0 && tail_ok;
        snprintf(row->check, sizeof row->check, "sum %.17g, expected %.17g%s", got,
                 wb_exact_value(&in->exact), past);
    } else {
        long long n = (long long)in->n;
        char order[48];
        snprintf(order, sizeof order, " (%s)%s", k->pairwise ? "a tree" : "one chain", past);
        wb_judge_bound(row, in->type, k->pairwise ? 1 : n, k->pairwise ? wb_ceil_log2(n) : 0,
                       in->exact.abs_sum, wb_exact_error(&in->exact, got),
                       in->forced ? "n > 2^24, no exact float input: " : "", order);
        row->pass = row->pass && tail_ok;
    }
}


/*
 * One row: verify k once (this first call also warms the caches), then, when
 * `timed`, time reps calls. An exercise whose body is still WB_TODO() gives a
 * todo row: not checked, not timed.
 */
static void run_row(const cpu_kernel *k, const lab_input *in, int reps, int timed, wb_row *row)
{
    double ms, got, wrong = 0;
    int tail_ok, agreed;
    wb_row_init(row, &k->info, (long long)in->n, (double)in->n * in->size);

    wb_todo_clear(&lab);
    got = call_on_copy(k, in, &ms, &tail_ok);
    if (wb_row_todo(&lab, row))
        return;
    judge(k, in, got, tail_ok, row);
    if (!timed)
        return;
    row->time = time_cpu(k, in, reps, got, &agreed, &wrong);
    if (row->pass && !agreed) { /* the timed runs must agree with the verified one too */
        row->pass = 0;
        result_of(in, wrong, row);
        if (wrong == got)
            snprintf(row->check, sizeof row->check, "wrote past a[n-1] in a timed repetition");
        else
            snprintf(row->check, sizeof row->check, "sum %.17g in a timed repetition, %.17g when verified",
                     wrong, got);
    }
}

/* The CPU's ceiling: memcpy of the same bytes, read + write counted. */
static double memcpy_ceiling(const lab_input *in, int reps, wb_report *r)
{
    double *ms = malloc(sizeof(double) * (size_t)reps);
    size_t bytes = in->n * in->size;
    int i;
    wb_stats s;
    if (!ms)
        exit(WB_EXIT_USAGE);
    memcpy(in->work, in->input, bytes);
    for (i = 0; i < reps; ++i) {
        double t0 = wb_now_ms();
        memcpy(in->work, in->input, bytes);
        ms[i] = wb_now_ms() - t0;
    }
    s = wb_summarize(ms, reps);
    free(ms);
    r->ceiling_gbps = wb_gbps(2.0 * bytes, s.median);
    snprintf(r->ceiling_what, sizeof r->ceiling_what, "memcpy of the same %.1f MiB, read+write counted",
             bytes / 1048576.0);
    return r->ceiling_gbps;
}

/* ---------------------------------------------------------------------- */
/* --values uniform: how the order of the additions changes a float sum    */
/* ---------------------------------------------------------------------- */
static wb_args run_args; /* for the notes under the table */

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
static void accuracy_table(const wb_report *r, FILE *out)
{
    static const cpu_kernel *const orders[] = {&kernels[0], &kernels[3], &kernels[4]};
    wb_type t = run_args.type;
    int lg, i;
    (void)r;
    fprintf(out, "The order of the additions changes a %s sum (values in [-1, 1), seed %llu).\n"
                 "error = |sum - exact sum|; the bounds: gamma_k sum|x|, gamma_k = ku/(1 - ku), u = 2^-%d,\n"
                 "k = n - 1 (loop) or log2(n) (tree); none where ku >= 1\n\n",
            wb_type_name(t), run_args.seed, WB_BY_TYPE(t, 0, 24, 53));
    fprintf(out, "%9s %10s %11s %11s %11s %11s %11s %11s\n", "n", "sum|x|", "sequential", "neighbored",
            "interleaved", "Kahan", "loop bound", "tree bound");
    for (lg = 10; lg <= 24; lg += 2) {
        lab_input in;
        double ms, kahan;
        int tail_ok;
        make_input(&in, t, WB_VALUES_UNIFORM, (size_t)1 << lg, run_args.seed);
        fprintf(out, "%9zu %10.1f", in.n, in.exact.abs_sum);
        for (i = 0; i < 3; ++i)
            fprintf(out, " %11.2e", wb_exact_error(&in.exact, call_on_copy(orders[i], &in, &ms, &tail_ok)));
        kahan = WB_BY_TYPE(t, 0.0, reduce_kahan_float(in.input, in.n),
                           reduce_kahan_double(in.input, in.n));
        fprintf(out, " %11.2e", wb_exact_error(&in.exact, kahan));
        bound_cell(out, wb_error_bound(t, (long long)in.n, 0, in.exact.abs_sum));
        bound_cell(out, wb_error_bound(t, 1, lg, in.exact.abs_sum));
        fprintf(out, "\n");
        free_input(&in);
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
/* The runner's steps (program.h): one input per type, values, seed and
 * length; the timed one also measures the memcpy ceiling */
static void open_input(wb_run *run, const wb_input_cfg *cfg)
{
    static lab_input in;
    make_input(&in, cfg->type, cfg->values, (size_t)cfg->n, cfg->seed);
    if (cfg->timed)
        memcpy_ceiling(&in, run->a->reps, run->r);
    run->input = &in;
}

/* A row verified; timed and added to the report, counted as an exercise
 * done or todo, or (--check) run once more and checked again. */
static void row_step(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                     wb_row *row)
{
    const lab_input *in = (const lab_input *)run->input;
    (void)bx;
    (void)by;
    (void)finish;
    if (mode == WB_ROW_COUNT) {
        run_row((const cpu_kernel *)k, in, 0, 0, row);
        wb_report_exercise_verdict(run->r, row);
        return;
    }
    run_row((const cpu_kernel *)k, in, mode == WB_ROW_TIMED ? run->a->reps : 1, 1, row);
    if (mode == WB_ROW_TIMED)
        wb_report_add(run->r, row);
}

static void close_input(wb_run *run) { free_input((lab_input *)run->input); }

/* --values uniform: the accuracy table under the rows */
static void begin(wb_run *run)
{
    if (run->a->values != WB_VALUES_UNIFORM)
        return;
    run_args = *run->a;
    run->r->notes = accuracy_table;
}

static const wb_runner runner = {open_input, row_step, close_input, NULL, NULL, begin};

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
    .device = &wb_cpu_device,
    .explain = explain,
    .mode = WB_MODE_OWN,
    .own_mode = trace_mode,
    .timed = "one whole reduction on one core (monotonic clock); the input is restored outside the timing",
    .baseline = "sequential",
};

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
