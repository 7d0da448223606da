/*
 * test_lab01.c - CPU tests of lab01's reductions: every variant against the
 * exact 64-bit reference at every length 1..64, primes, 2^k-1, 2^k, 2^k+1 and
 * a large odd length, with a guard element after the array to catch writes
 * past the end. Prints "ok"/"FAIL" lines for tests/run.
 *
 * Then the exercises, as the exercise file this binary was linked with has
 * them (the student's exercises.c, or solutions/exercises.c when built with
 * SOLUTIONS=1): a write-it stub still at WB_TODO() must return 0 and set
 * wb_cpu_todo; recursiveReduceBook as shipped must drop an element at odd
 * lengths exactly as the book's version does (so ./lab01 --exercises FAILs
 * at 16777213); a written or fixed one must be exact at every n = 1..200 and
 * a few large odd n, reading and writing nothing past a[n-1].
 *
 *   build/tests/test_lab01                 the build at hand, whatever it holds
 *   build/solutions/tests/test_lab01 --solutions
 *                                          every exercise must be done and exact
 */
#define _POSIX_C_SOURCE 200809L
#include "reduce_cpu.h"
#include "exercises.h"
#include "workbook.h"

#include <stdlib.h>
#include <string.h>

#define GUARD 0x5A5A5A5A

typedef struct {
    const char *name;
    int (*reduce)(int *a, size_t n);
    float (*reduce_float)(float *a, size_t n);
    double (*reduce_double)(double *a, size_t n);
    int pairwise; /* 0: one chain of additions; 1: a pairwise tree */
} variant;

#define IN_THREE_TYPES(f) f, f##_float, f##_double

static const variant variants[] = {
    {"sequential", IN_THREE_TYPES(reduce_sequential), 0},
    {"recursiveNeighbored", IN_THREE_TYPES(reduce_recursive_neighbored), 1},
    {"recursiveInterleaved", IN_THREE_TYPES(reduce_recursive_interleaved), 1},
    {"iterativeNeighbored", IN_THREE_TYPES(reduce_iterative_neighbored), 1},
    {"iterativeInterleaved", IN_THREE_TYPES(reduce_iterative_interleaved), 1},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static int failures;

/* Returns 1 if every variant gives the exact sum at length n and leaves the
 * guard alone; prints the first failure. */
static int all_variants_at(size_t n, unsigned long long seed)
{
    int *input = malloc(n * sizeof(int)), *work = malloc((n + 1) * sizeof(int));
    long long expected;
    size_t v;
    int good = 1;
    wb_fill_ints(input, n, seed);
    expected = wb_sum_ints(input, n);
    for (v = 0; v < NVARIANTS; ++v) {
        int got;
        memcpy(work, input, n * sizeof(int));
        work[n] = GUARD;
        got = variants[v].reduce(work, n);
        if (got != expected || work[n] != GUARD) {
            printf("FAIL %s at n = %zu: sum %d, expected %lld%s\n", variants[v].name, n, got, expected,
                   work[n] != GUARD ? ", wrote past the end" : "");
            good = 0;
            ++failures;
        }
    }
    free(input);
    free(work);
    return good;
}

static void lengths(const char *label, const size_t *ns, int count)
{
    int i, good = 1;
    for (i = 0; i < count; ++i)
        good &= all_variants_at(ns[i], 7 + ns[i]);
    if (good)
        printf("ok every variant exact at %s\n", label);
}

/* ---------------------------------------------------------------------- */
/* float and double                                                        */
/* ---------------------------------------------------------------------- */
/* A float or double array of n elements and one guard element after it. */
typedef struct {
    wb_type t;
    size_t n;
    void *input, *work;
    wb_exact exact;
} typed_input;

static void typed_make(typed_input *in, wb_type t, wb_values v, size_t n, unsigned long long seed)
{
    size_t size = wb_type_size(t);
    int step = v == WB_VALUES_UNIFORM || wb_exact_value_max(t, (long long)n) == 0 ? wb_uniform_step_bits(t) : 0;
    in->t = t;
    in->n = n;
    in->input = malloc(n * size);
    in->work = malloc((n + 1) * size);
    if (!in->input || !in->work) {
        printf("FAIL out of memory at n = %zu\n", n);
        exit(1);
    }
    if (t == WB_FLOAT) {
        wb_fill_float_values(in->input, n, v, seed);
        in->exact = wb_exact_sum_floats(in->input, n, step);
    } else {
        wb_fill_double_values(in->input, n, v, seed);
        in->exact = wb_exact_sum_doubles(in->input, n, step);
    }
}

static void typed_free(typed_input *in)
{
    free(in->input);
    free(in->work);
}

/* f (a float or a double function, by the input's type) on a fresh copy; the
 * sum, and *guard_ok whether the element after a[n-1] survived */
static double typed_run(const typed_input *in, float (*ff)(float *, size_t), double (*fd)(double *, size_t),
                        int *guard_ok)
{
    double got;
    if (in->t == WB_FLOAT) {
        float *w = in->work;
        memcpy(w, in->input, in->n * sizeof(float));
        w[in->n] = 1e30f;
        got = ff(w, in->n);
        *guard_ok = w[in->n] == 1e30f;
    } else {
        double *w = in->work;
        memcpy(w, in->input, in->n * sizeof(double));
        w[in->n] = 1e300;
        got = fd(w, in->n);
        *guard_ok = w[in->n] == 1e300;
    }
    return got;
}

/* Every variant exact (error 0) on the exact input of type t at each n;
 * with uniform values, every variant within the bound of its order. */
static void typed_lengths(wb_type t, wb_values vals, const char *label, const size_t *ns, int count)
{
    int i, good = 1;
    size_t v;
    for (i = 0; i < count && good; ++i) {
        typed_input in;
        typed_make(&in, t, vals, ns[i], 3 + ns[i]);
        for (v = 0; v < NVARIANTS; ++v) {
            int guard_ok;
            long long n = (long long)ns[i];
            double got = typed_run(&in, variants[v].reduce_float, variants[v].reduce_double, &guard_ok);
            double err = wb_exact_error(&in.exact, got);
            long long leaf = variants[v].pairwise ? 1 : n;
            int depth = variants[v].pairwise ? wb_ceil_log2(n) : 0;
            double bound = vals == WB_VALUES_EXACT && wb_exact_value_max(t, n) > 0 ? 0.0
                                                   : wb_error_bound(t, leaf, depth, in.exact.abs_sum);
            if (bound < 0) /* k u >= 1: no bound; the lab's tolerance */
                bound = wb_error_tolerance(t, leaf, depth, in.exact.abs_sum);
            if (err > bound || !guard_ok) {
                printf("FAIL %s in %s at n = %zu: sum %.17g, exact %.17g, error %g > bound %g%s\n",
                       variants[v].name, wb_type_name(t), ns[i], got, wb_exact_value(&in.exact), err, bound,
                       guard_ok ? "" : ", wrote past the end");
                good = 0;
                ++failures;
            }
        }
        typed_free(&in);
    }
    if (good)
        printf("ok every variant %s in %s at %s\n", vals == WB_VALUES_EXACT ? "exact" : "within its bound",
               wb_type_name(t), label);
}

/* The book's recursiveReduce in float and double: a test-only function that
 * drops an element at odd lengths, as recursiveReduceBook does in int. */
#define BOOK_REDUCE(T, name)                            \
    static T name(T *data, size_t size)                 \
    {                                                   \
        size_t stride, i;                               \
        if (size == 1)                                  \
            return data[0];                             \
        stride = size / 2;                              \
        for (i = 0; i < stride; i++)                    \
            data[i] += data[i + stride];                \
        return name(data, stride);                      \
    }
BOOK_REDUCE(float, book_reduce_float)
BOOK_REDUCE(double, book_reduce_double)

/* A dropped element FAILs the exact check in float and double as in int, and
 * would hide under a tolerance of the size of the rounding bound. */
static void test_dropped_element(void)
{
    static const size_t ns[] = {5, 17, 1000003, 16777213};
    wb_type t;
    int caught = 1;
    size_t i;
    unsigned long long seed;
    for (t = WB_FLOAT; t <= WB_DOUBLE; ++t)
        for (i = 0; i < sizeof ns / sizeof ns[0]; ++i)
            for (seed = 1; seed <= 3; ++seed) {
                typed_input in;
                int guard_ok;
                double got;
                typed_make(&in, t, WB_VALUES_EXACT, ns[i], seed);
                got = typed_run(&in, book_reduce_float, book_reduce_double, &guard_ok);
                if (wb_exact_error(&in.exact, got) == 0) {
                    printf("FAIL the book's reduce in %s at n = %zu (seed %llu) passed the exact check\n",
                           wb_type_name(t), ns[i], seed);
                    caught = 0;
                    ++failures;
                }
                typed_free(&in);
            }
    if (caught)
        printf("ok a reduce that drops an element FAILs the exact check in float and double "
               "(n = 5, 17, 1000003, 16777213; seeds 1..3)\n");
    {
        /* the reason the default input is exact: with [-1, 1) at 2^24 the
         * loop's bound is far above any one element's size */
        double abs_sum = (double)(1 << 23); /* about sum |x| of 2^24 values in [-1, 1) */
        double b = wb_error_bound(WB_FLOAT, 1 << 24, 0, abs_sum);
        if (b > 1.0)
            printf("ok with values in [-1, 1) at n = 2^24 the float loop's bound (%.1e) exceeds any element: "
                   "a tolerance would hide a dropped one\n", b);
        else {
            printf("FAIL the float loop's bound at 2^24 is %g\n", b);
            ++failures;
        }
    }
}

/* Kahan's sum: within (2u + 2nu^2) sum|x| on the uniform input, at every n
 * tried, in both types; and more accurate than the loop at 2^20 in float. */
static void test_kahan(void)
{
    static const size_t ns[] = {1, 2, 3, 1000, 65537, 1 << 20};
    wb_type t;
    size_t i;
    int good = 1;
    for (t = WB_FLOAT; t <= WB_DOUBLE; ++t)
        for (i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
            typed_input in;
            double u = wb_unit_roundoff(t), got, bound;
            typed_make(&in, t, WB_VALUES_UNIFORM, ns[i], 9);
            got = t == WB_FLOAT ? reduce_kahan_float(in.input, in.n) : reduce_kahan_double(in.input, in.n);
            bound = (2 * u + 2 * (double)ns[i] * u * u) * in.exact.abs_sum;
            if (wb_exact_error(&in.exact, got) > bound) {
                printf("FAIL Kahan in %s at n = %zu: error %g > %g\n", wb_type_name(t), ns[i],
                       wb_exact_error(&in.exact, got), bound);
                good = 0;
                ++failures;
            }
            typed_free(&in);
        }
    if (good)
        printf("ok Kahan's sum within (2u + 2nu^2) sum|x| in float and double, n = 1 .. 2^20\n");
}

/* ---------------------------------------------------------------------- */
/* The exercises                                                           */
/* ---------------------------------------------------------------------- */
#define TAIL 16
#define TAIL_POISON 0x55555555

typedef int (*reduce_fn)(int *a, size_t n);

/* The book's recursiveReduce (Cheng et al., ch. 3), bug included: what
 * recursiveReduceBook is as shipped. */
static int book_recursive_reduce(int *data, size_t size)
{
    size_t stride, i;
    if (size == 1)
        return data[0];
    stride = size / 2;
    for (i = 0; i < stride; i++)
        data[i] += data[i + stride];
    return book_recursive_reduce(data, stride);
}

/* A stub as a student receives it. */
static int stub(int *a, size_t n)
{
    (void)a;
    (void)n;
    WB_TODO();
}

/* f on a copy of the input of length n (seed), followed by a poisoned tail
 * that f must neither read nor write (as ./lab01 runs it). Returns the sum;
 * *expected the exact one, *tail_ok whether the tail survived. */
static int run_on(reduce_fn f, size_t n, unsigned long long seed, long long *expected, int *tail_ok)
{
    int *a = malloc((n + TAIL) * sizeof(int)), got;
    size_t i;
    if (!a) {
        printf("FAIL out of memory at n = %zu\n", n);
        exit(1);
    }
    wb_fill_ints(a, n, seed);
    *expected = wb_sum_ints(a, n);
    for (i = 0; i < TAIL; ++i)
        a[n + i] = TAIL_POISON;
    got = f(a, n);
    *tail_ok = 1;
    for (i = 0; i < TAIL; ++i)
        if (a[n + i] != TAIL_POISON)
            *tail_ok = 0;
    free(a);
    return got;
}

/* f exact at every n = 1..200 and at large odd n; one ok line or the first
 * FAIL. */
static void exercise_exact(const char *name, reduce_fn f)
{
    static const size_t large[] = {1000003, (1u << 22) + 7, 16777213};
    size_t n;
    for (n = 1; n <= 200 + sizeof large / sizeof large[0]; ++n) {
        size_t len = n <= 200 ? n : large[n - 201];
        long long expected;
        int tail_ok, got;
        wb_cpu_todo = 0;
        got = run_on(f, len, 11 + len, &expected, &tail_ok);
        if (wb_cpu_todo || got != expected || !tail_ok) {
            printf("FAIL %s at n = %zu: %s sum %d, expected %lld%s\n", name, len,
                   wb_cpu_todo ? "still WB_TODO();" : "", got, expected,
                   tail_ok ? "" : "; wrote past a[n-1]");
            ++failures;
            return;
        }
    }
    printf("ok %s exact at every n = 1..200, 1000003, 2^22+7 and 16777213, nothing past a[n-1] touched\n", name);
}

/* A write-it exercise: as shipped (WB_TODO) or written. */
static void write_exercise(const char *name, reduce_fn f, int solutions)
{
    long long expected;
    int tail_ok, got;
    wb_cpu_todo = 0;
    got = run_on(f, 1000, 5, &expected, &tail_ok);
    if (!wb_cpu_todo) {
        exercise_exact(name, f);
        return;
    }
    if (solutions) {
        printf("FAIL %s: the solutions build still has WB_TODO()\n", name);
        ++failures;
        return;
    }
    if (got == 0 && tail_ok)
        printf("ok %s as shipped: WB_TODO() returns 0 and sets wb_cpu_todo (a todo row)\n", name);
    else {
        printf("FAIL %s as shipped: WB_TODO() returned %d%s\n", name, got, tail_ok ? "" : " and wrote past a[n-1]");
        ++failures;
    }
}

/* recursiveReduceBook: as shipped (the book's bug) or fixed. */
static void fix_exercise(int solutions)
{
    int three[3 + TAIL] = {1, 2, 4}, got;
    got = recursiveReduceBook(three, 3);
    if (got == 7) {
        exercise_exact("recursiveReduceBook", recursiveReduceBook);
        return;
    }
    if (solutions || got != 3) {
        printf("FAIL recursiveReduceBook on {1, 2, 4}: %d, expected 7%s\n", got,
               got == 3 ? " (the book's bug is still there)" : "");
        ++failures;
        return;
    }
    {
        /* as shipped: the book's result at every n, exact at powers of two,
         * and wrong at the exercise length for the seeds a student may try */
        size_t n;
        int same = 1, pow2_exact = 1, fails_at_ex = 1;
        unsigned long long seed;
        for (n = 1; n <= 200 && same; ++n) {
            long long e1, e2;
            int t1, t2;
            if (run_on(recursiveReduceBook, n, n, &e1, &t1) != run_on(book_recursive_reduce, n, n, &e2, &t2) ||
                !t1) {
                printf("FAIL recursiveReduceBook as shipped differs from the book's at n = %zu\n", n);
                same = 0;
                ++failures;
            }
        }
        for (n = 1; n <= (1u << 20); n *= 2) {
            long long e;
            int t;
            if (run_on(recursiveReduceBook, n, 3, &e, &t) != e)
                pow2_exact = 0;
        }
        for (seed = 1; seed <= 3; ++seed) {
            long long e;
            int t;
            if (run_on(recursiveReduceBook, 16777213, seed, &e, &t) == e)
                fails_at_ex = 0;
        }
        if (same)
            printf("ok recursiveReduceBook as shipped is the book's recursiveReduce at every n = 1..200\n");
        if (pow2_exact && fails_at_ex)
            printf("ok recursiveReduceBook as shipped: exact at powers of two, wrong at n = 16777213 "
                   "(seeds 1..3): the row FAILs\n");
        else {
            printf("FAIL recursiveReduceBook as shipped: %s\n",
                   !pow2_exact ? "wrong at a power of two" : "right at n = 16777213 for a seed in 1..3");
            ++failures;
        }
    }
}

static void test_exercises(int solutions)
{
    int a[1] = {42}, got;
    wb_cpu_todo = 0;
    got = stub(a, 1);
    if (got == 0 && wb_cpu_todo == 1 && a[0] == 42)
        printf("ok WB_TODO() in C returns 0 and sets wb_cpu_todo\n");
    else {
        printf("FAIL WB_TODO() in C: returned %d, wb_cpu_todo %d\n", got, wb_cpu_todo);
        ++failures;
    }
    {
        int b[5 + TAIL] = {1, 2, 3, 4, 5};
        int book = book_recursive_reduce(b, 5);
        if (book == 10)
            printf("ok the book's recursiveReduce drops the 5th of 5 elements (10, not 15)\n");
        else {
            printf("FAIL the book's recursiveReduce on 1..5: %d, expected 10 (the 5 dropped)\n", book);
            ++failures;
        }
    }
    fix_exercise(solutions);
    write_exercise("pairwiseBlocked", pairwiseBlocked, solutions);
    write_exercise("sequentialUnroll4", sequentialUnroll4, solutions);
}

int main(int argc, char **argv)
{
    size_t ns[256];
    int count = 0, k;
    static const size_t primes[] = {2, 3, 5, 7, 11, 13, 17, 31, 61, 97, 127, 251, 509, 1021, 4093, 65521, 1000003};

    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--solutions"))) {
        printf("FAIL test_lab01: usage: test_lab01 [--solutions]\n");
        return 2;
    }
    if (argc == 2) { /* the solutions build: its exercises alone (the rest is the same code) */
        test_exercises(1);
        return failures ? 1 : 0;
    }

    for (k = 1; k <= 64; ++k)
        ns[count++] = (size_t)k;
    lengths("every length 1..64", ns, count);
    lengths("primes up to 1000003", primes, (int)(sizeof primes / sizeof primes[0]));
    count = 0;
    for (k = 1; k <= 20; ++k) {
        ns[count++] = ((size_t)1 << k) - 1;
        ns[count++] = (size_t)1 << k;
        ns[count++] = ((size_t)1 << k) + 1;
    }
    lengths("2^k-1, 2^k, 2^k+1 for k = 1..20", ns, count);
    ns[0] = (1u << 22) + 7;
    lengths("a large odd length (2^22 + 7)", ns, 1);

    /* the largest value the rule allows everywhere: the sum is INT_MAX-ish */
    {
        size_t n = 8421504; /* INT_MAX / 255 */
        int *a = malloc(n * sizeof(int));
        size_t i;
        int good = 1;
        size_t v;
        for (v = 0; v < NVARIANTS; ++v) {
            for (i = 0; i < n; ++i)
                a[i] = 255;
            if (variants[v].reduce(a, n) != 2147483520) {
                printf("FAIL %s: all-255 input of length %zu does not sum to 2147483520\n", variants[v].name, n);
                good = 0;
                ++failures;
            }
        }
        if (good)
            printf("ok every variant exact at the largest sum the value rule allows (8421504 x 255)\n");
        free(a);
    }

    /* one level of each pairing, by hand */
    {
        int a[5] = {1, 2, 3, 4, 5}, b[5] = {1, 2, 3, 4, 5};
        size_t h;
        neighbored_level(a, 5, 1);
        h = interleaved_level(b, 5);
        if (a[0] == 3 && a[2] == 7 && a[4] == 5 && a[1] == 2 && h == 3 && b[0] == 5 && b[1] == 7 && b[2] == 3)
            printf("ok one level of each pairing on {1,2,3,4,5}\n");
        else {
            printf("FAIL one level of each pairing on {1,2,3,4,5}: neighbored %d %d %d, interleaved h=%zu %d %d %d\n",
                   a[0], a[2], a[4], h, b[0], b[1], b[2]);
            ++failures;
        }
    }

    /* float and double: exact on the exact input, within the bound on [-1, 1) */
    {
        static const size_t big[] = {1000003, 16777213, 1 << 24};
        static const size_t above[] = {(1 << 24) + 1};
        wb_type t;
        count = 0;
        for (k = 1; k <= 64; ++k)
            ns[count++] = (size_t)k;
        for (k = 7; k <= 20; ++k) {
            ns[count++] = ((size_t)1 << k) - 1;
            ns[count++] = ((size_t)1 << k) + 1;
        }
        for (t = WB_FLOAT; t <= WB_DOUBLE; ++t) {
            typed_lengths(t, WB_VALUES_EXACT, "n = 1..64, 2^k-1, 2^k+1 (k = 7..20)", ns, count);
            typed_lengths(t, WB_VALUES_EXACT, "n = 1000003, 2^24-3, 2^24", big, 3);
            typed_lengths(t, WB_VALUES_UNIFORM, "n = 1..64, 2^k-1, 2^k+1 (k = 7..20)", ns, count);
        }
        typed_lengths(WB_FLOAT, WB_VALUES_EXACT, "n = 2^24+1 (no exact float input: the bound)", above, 1);
    }
    test_dropped_element();
    test_kahan();

    test_exercises(0);
    return failures ? 1 : 0;
}
