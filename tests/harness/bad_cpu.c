/*
 * bad_cpu.c - lab01's runner (lab01_cpu_reduce/run.c) against four broken
 * versions: one that writes nothing (a[0] as it came), one that sums half
 * the array, one that writes one past a[n-1], and one that is right only
 * every other call. Each row must FAIL in every configuration
 * (tests/unit/cpu_harness.sh): a runner that stops restoring the input,
 * checking the tail or checking its second run turns the suite red.
 */
#include "workbook.h"
#include "run.h"

static int loop_sum(const int *a, size_t n)
{
    int s = 0;
    size_t i;
    for (i = 0; i < n; ++i)
        s += a[i];
    return s;
}

static int writesNothing(int *a, size_t n)
{
    (void)n;
    return a[0];
}

static int writesHalf(int *a, size_t n)
{
    a[0] = loop_sum(a, (n + 1) / 2);
    return a[0];
}

static int writesPast(int *a, size_t n)
{
    int s = loop_sum(a, n);
    a[n] = s;
    return s;
}

/* right on the verified call, wrong on the one after it */
static int rightOnce(int *a, size_t n)
{
    static int calls;
    return loop_sum(a, n) + (calls++ % 2);
}

static const cpu_kernel kernels[] = {
    {{"writesNothing", "returns a[0] as it came, adding nothing", NULL, NULL}, writesNothing, NULL, NULL, 0},
    {{"writesHalf", "sums the first half of the array", NULL, NULL}, writesHalf, NULL, NULL, 0},
    {{"writesPast", "sums right, then writes a[n]", NULL, NULL}, writesPast, NULL, NULL, 0},
    {{"rightOnce", "sums right on every other call", NULL, NULL}, rightOnce, NULL, NULL, 0},
};

static const wb_lab lab = {
    .lab = "bad_cpu", .title = "lab01's runner's broken versions", .shape = WB_LENGTH, .default_n = 1000,
    .max_n = WB_INT_MAX, .max_n_reason = "the exact int sum must fit in an int", .default_reps = 2,
    .kernels = WB_TABLE(kernels), .exercises = WB_NO_EXERCISES,
};

static const wb_program program = {.lab = &lab, .runner = &cpu_runner};

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
