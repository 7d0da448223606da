/*
 * lab01 - reduction on the CPU: the two pairing patterns before the GPU.
 *
 * Build and run (gcc alone, no GPU needed):
 *     make lab01 && ./lab01             the table at n = 2^24
 *     ./lab01 --trace                   the array after every step, 17 elements
 *     ./lab01 --explain                 the same, with what each step does
 *     ./lab01 -n 1000003 --csv          machine-readable
 *     ./lab01 --exercises               your exercises (exercises.c) beside their reference rows
 *
 * The versions, in the order of the table:
 *   sequential            one loop, one accumulator: the reference
 *   recursiveNeighbored   pair a[i] with a[i+stride], stride doubling (lab02's pattern)
 *   recursiveInterleaved  pair a[i] with a[i+half], half halving (lab03's pattern)
 *   iterativeNeighbored   the same as loops
 *   iterativeInterleaved
 *
 * Every version is checked exactly against a 64-bit sum; the exit status is
 * the verdict. The chapter is docs/lab01.md.
 */
#define _POSIX_C_SOURCE 200809L
#include "workbook.h"
#include "reduce_cpu.h"
#include "exercises.h" /* the student's exercises.c, or with SOLUTIONS=1 solutions/exercises.c */

#include <stdlib.h>
#include <string.h>

typedef struct {
    wb_kernel_info info;
    int (*reduce)(int *a, size_t n);
    int in_place; /* overwrites the array: restored before every repetition */
} cpu_kernel;

/* {name, lesson, NULL, NULL}, reduce, in_place */
static const cpu_kernel kernels[] = {
    {{"sequential", "one loop and one accumulator: the reference every other version must match", NULL, NULL},
     reduce_sequential, 0},
    {{"recursiveNeighbored",
      "pair each element with its neighbour at a stride that doubles each level (lab02's pattern)", NULL, NULL},
     reduce_recursive_neighbored, 1},
    {{"recursiveInterleaved",
      "pair element i with element i + half, half halving each level (lab03's pattern)", NULL, NULL},
     reduce_recursive_interleaved, 1},
    {{"iterativeNeighbored", "the neighbored pairing as two loops: no call per level", NULL, NULL},
     reduce_iterative_neighbored, 1},
    {{"iterativeInterleaved", "the interleaved pairing as two loops: contiguous, vectorisable", NULL, NULL},
     reduce_iterative_interleaved, 1},
};

/* The exercises (exercises.c), each measured against a version above.
 * {name, task, kind, against}, reduce, in_place (a student's may be) */
static const cpu_kernel exercises[] = {
    {{"recursiveReduceBook", "the book's recursiveReduce: what happens to an odd length?", "fix",
      "recursiveInterleaved"},
     recursiveReduceBook, 1},
    {{"pairwiseBlocked", "halves down to blocks of 16, then a loop: how NumPy sums", "write", "sequential"},
     pairwiseBlocked, 1},
    {{"sequentialUnroll4", "four accumulators: four independent chains of additions in flight", "write",
      "sequential"},
     sequentialUnroll4, 1},
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
    int input[TRACE_MAX], nb[TRACE_MAX], il[TRACE_MAX], index[TRACE_MAX] = {0};
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
    printf("lab01 --trace: %zu elements (seed %llu), sum %lld\n\n", n, seed, wb_sum_ints(input, n));
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
                printf("%-22s%zu additions: a[i] += a[i+%zu] for i = 0, %zu, %zu, ...\n", "", pairs, stride,
                       2 * stride, 4 * stride);
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
                printf("%-22s%zu additions: a[i] += a[i+%zu] for i < %zu%s\n", "", before - m, m, before - m,
                       before % 2 ? " (odd length: the middle one waits)" : "");
        }
    }
    printf("\nboth end with a[0] = %d (neighbored) and %d (interleaved); expected %lld\n", nb[0], il[0],
           wb_sum_ints(input, n));
}

/* ---------------------------------------------------------------------- */
/* Timing                                                                  */
/* ---------------------------------------------------------------------- */
static void device_name(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(buf, len, "CPU");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (colon && !strncmp(line, "model name", 10)) {
            colon += 2;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, len, "%s", colon);
            break;
        }
    }
    fclose(f);
}

/* The elements after a[n-1] hold garbage that a correct version neither
 * reads (it would add 0x55555555 to the sum) nor writes (checked after every
 * call): the CPU's version of the GPU labs' poisoned padding. */
#define TAIL 16
#define TAIL_POISON 0x55555555

/* Run k once on a fresh copy of input in work[0..n) (followed by the poisoned
 * tail); returns its sum and sets *tail_ok to whether the tail survived. The
 * copy is made before t0, so the caller may time just this call. */
static int call_on_copy(const cpu_kernel *k, const int *input, int *work, size_t n, double *ms, int *tail_ok)
{
    size_t i;
    int got;
    double t0;
    memcpy(work, input, n * sizeof(int));
    for (i = 0; i < TAIL; ++i)
        work[n + i] = TAIL_POISON;
    t0 = wb_now_ms();
    got = k->reduce(work, n);
    *ms = wb_now_ms() - t0;
    *tail_ok = 1;
    for (i = 0; i < TAIL; ++i)
        if (work[n + i] != TAIL_POISON)
            *tail_ok = 0;
    return got;
}

/* Median of reps runs of k, each on a fresh copy of input (the copy is made
 * outside the timed region). *agreed: every run gave `expected` and left the
 * tail alone; if not, *wrong is the first wrong run's sum. */
static wb_stats time_cpu(const cpu_kernel *k, const int *input, int *work, size_t n, int reps,
                         long long expected, int *agreed, int *wrong)
{
    double *ms = malloc(sizeof(double) * (size_t)reps);
    wb_stats s;
    int r, tail_ok, got;
    if (!ms) {
        fprintf(stderr, "lab01: out of memory\n");
        exit(WB_EXIT_USAGE);
    }
    *agreed = 1;
    for (r = 0; r < reps; ++r) {
        got = call_on_copy(k, input, work, n, &ms[r], &tail_ok);
        if (*agreed && ((long long)got != expected || !tail_ok)) {
            *agreed = 0;
            *wrong = got;
        }
    }
    s = wb_summarize(ms, reps);
    free(ms);
    return s;
}

/*
 * One row: verify k once (this first call also warms the caches), then, when
 * `timed`, time reps calls. An exercise whose body is still WB_TODO() gives a
 * todo row: not checked, not timed.
 */
static void run_row(const cpu_kernel *k, const int *input, int *work, size_t n, long long expected, int reps,
                    int timed, wb_row *row)
{
    double ms;
    int got, tail_ok, agreed;
    memset(row, 0, sizeof *row);
    row->kernel = k->info.name;
    row->role = k->info.kind;
    row->against = k->info.against;
    row->n = (long long)n;
    row->bytes = (double)n * sizeof(int);
    row->total_ms = -1;

    wb_cpu_todo = 0;
    got = call_on_copy(k, input, work, n, &ms, &tail_ok);
    if (wb_cpu_todo) {
        row->todo = 1;
        snprintf(row->check, sizeof row->check, "not written yet (WB_TODO() in %s)", lab.exercise_file);
        return;
    }
    row->pass = (long long)got == expected && tail_ok;
    snprintf(row->check, sizeof row->check, "sum %d, expected %lld%s", got, expected,
             tail_ok ? "" : "; wrote past a[n-1]");
    if (!timed)
        return;
    row->time = time_cpu(k, input, work, n, reps, expected, &agreed, &got);
    if (row->pass && !agreed) { /* the timed runs must agree with the verified one too */
        row->pass = 0;
        snprintf(row->check, sizeof row->check, "sum %d in a timed repetition, expected %lld%s", got, expected,
                 (long long)got == expected ? "; wrote past a[n-1]" : "");
    }
}

/* Two arrays of n ints (work with the poisoned tail after it), or exit 2. */
static void alloc_arrays(size_t n, int **input, int **work)
{
    *input = malloc(n * sizeof(int));
    *work = malloc((n + TAIL) * sizeof(int));
    if (!*input || !*work) {
        fprintf(stderr, "lab01: -n %zu needs %.1f MiB twice and the allocation failed; choose a smaller -n\n", n,
                n * sizeof(int) / 1048576.0);
        exit(WB_EXIT_USAGE);
    }
}

/*
 * Without --exercises: verify each selected exercise once, untimed, at the
 * exercise length, and count in r how many are done and todo (the closing
 * line of the table). Nothing with --exercises: the rows say it.
 */
static void count_exercises(wb_report *r, const wb_args *a)
{
    size_t n = (size_t)lab.exercise_n;
    int *input, *work, i;
    long long expected;
    if (!wb_report_exercises_begin(r, &lab, a))
        return;
    alloc_arrays(n, &input, &work);
    wb_fill_ints(input, n, a->seed);
    expected = wb_sum_ints(input, n);
    for (i = 0; i < lab.exercises.count; ++i) {
        wb_row row;
        if (!a->ex_selected[i])
            continue;
        run_row(&exercises[i], input, work, n, expected, 0, 0, &row);
        wb_report_exercise_verdict(r, &row);
    }
    free(input);
    free(work);
}

/* The CPU's ceiling: memcpy of the same bytes, read + write counted. */
static double memcpy_ceiling(int *dst, const int *src, size_t n, int reps, wb_report *r)
{
    double *ms = malloc(sizeof(double) * (size_t)reps);
    int i;
    wb_stats s;
    if (!ms)
        exit(WB_EXIT_USAGE);
    memcpy(dst, src, n * sizeof(int));
    for (i = 0; i < reps; ++i) {
        double t0 = wb_now_ms();
        memcpy(dst, src, n * sizeof(int));
        ms[i] = wb_now_ms() - t0;
    }
    s = wb_summarize(ms, reps);
    free(ms);
    r->ceiling_gbps = wb_gbps(2.0 * n * sizeof(int), s.median);
    snprintf(r->ceiling_what, sizeof r->ceiling_what, "memcpy of the same %.1f MiB, read+write counted",
             n * sizeof(int) / 1048576.0);
    return r->ceiling_gbps;
}

int main(int argc, char **argv)
{
    static wb_report r;
    const wb_kernel_info *order[2 * WB_MAX_KERNELS];
    wb_args a;
    size_t n;
    int *input, *work, i, nrows;
    long long expected;

    wb_args_or_exit(&lab, argc, argv, &a);
    if (a.extra || a.explain) {
        long long tn = a.n_given ? a.n : 17;
        if (tn > TRACE_MAX) {
            fprintf(stderr, "lab01: --trace and --explain print every element; give -n from 1 to %d\n",
                    TRACE_MAX);
            return WB_EXIT_USAGE;
        }
        trace((size_t)tn, a.seed, a.explain);
        return WB_EXIT_OK;
    }

    n = (size_t)a.n;
    alloc_arrays(n, &input, &work);
    wb_fill_ints(input, n, a.seed);
    expected = wb_sum_ints(input, n);

    wb_report_init(&r, lab.lab);
    device_name(r.device, sizeof r.device);
    snprintf(r.device_detail, sizeof r.device_detail, "one core, gcc %s, -O2", __VERSION__);
    r.timed = "one whole reduction on one core (monotonic clock); the input is restored outside the timing";
    r.baseline = "sequential";
    r.reps = a.reps;
    memcpy_ceiling(work, input, n, a.reps, &r);

    nrows = wb_plan_rows(&lab, &a, order);
    for (i = 0; i < nrows; ++i) {
        wb_row row;
        run_row((const cpu_kernel *)order[i], input, work, n, expected, a.reps, 1, &row);
        wb_report_add(&r, &row);
    }
    free(input);
    free(work);
    count_exercises(&r, &a);
    wb_report_print(&r, a.format, stdout);
    return wb_report_status(&r);
}
