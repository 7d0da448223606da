/*
 * run.c - lab01's runner: each version verified on a fresh copy of the
 * input with a poisoned tail after a[n-1], timed, checked again in its
 * timed runs, judged exactly or against its rounding bound; the memcpy
 * ceiling.
 */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <stdlib.h>
#include <string.h>

/* The elements after a[n-1] hold garbage that a correct version neither
 * reads (it would add 0x55555555, or the float or double with that bit
 * pattern, to the sum) nor writes (checked after every call): the CPU's
 * version of the GPU labs' poisoned padding. */
#define TAIL 16
#define TAIL_POISON_BYTE 0x55

/* The input of type t at length n (exit 2 if the memory is not there). */
void cpu_make_input(lab_input *in, wb_type t, wb_values v, size_t n, unsigned long long seed)
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

void cpu_free_input(lab_input *in)
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
double cpu_call_on_copy(const cpu_kernel *k, const lab_input *in, double *ms, int *tail_ok)
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
        got = cpu_call_on_copy(k, in, &ms[r], &tail_ok);
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
static void one_row(const wb_lab *lab, const cpu_kernel *k, const lab_input *in, int reps, int timed,
                    wb_row *row)
{
    double ms, got, wrong = 0;
    int tail_ok, agreed;
    wb_row_init(row, &k->info, (long long)in->n, (double)in->n * in->size);

    wb_todo_clear(lab);
    got = cpu_call_on_copy(k, in, &ms, &tail_ok);
    if (wb_row_todo(lab, row))
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

void cpu_open_input(wb_run *run, const wb_input_cfg *cfg)
{
    static lab_input in;
    cpu_make_input(&in, cfg->type, cfg->values, (size_t)cfg->n, cfg->seed);
    if (cfg->timed)
        memcpy_ceiling(&in, run->a->reps, run->r);
    run->input = &in;
}

void cpu_run_row(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                 wb_row *row)
{
    const lab_input *in = (const lab_input *)run->input;
    (void)bx;
    (void)by;
    (void)finish;
    if (mode == WB_ROW_COUNT) {
        one_row(run->lab, (const cpu_kernel *)k, in, 0, 0, row);
        wb_report_exercise_verdict(run->r, row);
        return;
    }
    one_row(run->lab, (const cpu_kernel *)k, in, mode == WB_ROW_TIMED ? run->a->reps : 1, 1, row);
    if (mode == WB_ROW_TIMED)
        wb_report_add(run->r, row);
}

void cpu_close_input(wb_run *run) { cpu_free_input((lab_input *)run->input); }

const wb_runner cpu_runner = {cpu_open_input, cpu_run_row, cpu_close_input, NULL, NULL};
