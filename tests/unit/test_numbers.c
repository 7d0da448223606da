/*
 * test_numbers.c - CPU tests of common/numbers.c: statistics, the value-range
 * rule, the float and double inputs, exact sums, bounds.
 * Checks print "ok NAME" or "FAIL NAME: why" (tests/unit/test_common.c runs them).
 */
#define _POSIX_C_SOURCE 200809L
#include "test_common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_stats(void)
{
    double odd[] = {5, 1, 4, 2, 3};
    double even[] = {4, 1, 3, 2};
    double one[] = {7.5};
    wb_stats s = wb_summarize(odd, 5);
    check(s.median == 3 && s.min == 1 && s.max == 5 && s.q1 == 2 && s.q3 == 4 && s.count == 5,
          "median and quartiles of 5", "wrong summary");
    check(odd[0] == 1 && odd[4] == 5, "summarize sorts", "not sorted");
    s = wb_summarize(even, 4);
    check(s.median == 2.5 && s.q1 == 1.75 && s.q3 == 3.25, "median of an even count interpolates",
          "wrong summary");
    check(fabs(wb_spread_pct(s) - 60.0) < 1e-9, "spread is IQR over median", "wrong spread");
    s = wb_summarize(one, 1);
    check(s.median == 7.5 && s.q1 == 7.5 && s.q3 == 7.5 && wb_spread_pct(s) == 0, "summary of one sample",
          "wrong");
    check(fabs(wb_gbps(1e9, 1000.0) - 1.0) < 1e-12, "gbps 1e9 bytes in 1 s", "wrong");
    check(fabs(wb_gbps(64.0 * 1048576, 0.0224) - 2995.931) < 0.01, "gbps 64 MiB in 22.4 us", "wrong");
    check(wb_gbps(100, 0) == 0, "gbps of zero time is 0", "wrong");
    check(wb_ceil_div(10, 3) == 4 && wb_ceil_div(9, 3) == 3 && wb_ceil_div(1, 512) == 1, "ceil_div", "wrong");
    check(wb_is_pow2(1) && wb_is_pow2(1024) && !wb_is_pow2(0) && !wb_is_pow2(48) && !wb_is_pow2(-4),
          "is_pow2", "wrong");
}

void test_value_rule(void)
{
    long long sizes[] = {1, 2, 17, 1000003, 8421504, 8421505, 1 << 24, 1 << 28, 1LL << 30, WB_INT_MAX};
    size_t i;
    int all = 1;
    check(wb_int_value_max(1) == 255 && wb_int_value_max(1 << 24) == 127 && wb_int_value_max(1 << 28) == 7 &&
              wb_int_value_max(WB_INT_MAX) == 1 && wb_int_value_max(WB_INT_MAX + 1) == 0 &&
              wb_int_value_max(0) == 0,
          "value rule at known sizes", "wrong vmax");
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        long long v = wb_int_value_max(sizes[i]);
        /* the worst case (every element at vmax) fits, and one more would not
         * unless vmax is already the 255 cap */
        if (sizes[i] * v > WB_INT_MAX || v < 1 || (v < 255 && sizes[i] * (v + 1) <= WB_INT_MAX))
            all = 0;
    }
    check(all, "value rule: n * vmax <= INT_MAX, and vmax is the largest such (<= 255)", "rule broken");
    {
        size_t n = 1000003, j;
        int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int)), in_range = 1, same = 1, differs = 0;
        int vmax = wb_int_value_max((long long)n), seen_max = 0;
        wb_fill_ints(a, n, 1);
        wb_fill_ints(b, n, 1);
        for (j = 0; j < n; ++j) {
            if (a[j] < 0 || a[j] > vmax)
                in_range = 0;
            if (a[j] == vmax)
                seen_max = 1;
            if (a[j] != b[j])
                same = 0;
        }
        wb_fill_ints(b, n, 2);
        for (j = 0; j < n; ++j)
            if (a[j] != b[j])
                differs = 1;
        check(in_range && seen_max, "fill_ints stays in [0, vmax] and reaches vmax", "out of range");
        check(same, "fill_ints is deterministic for a seed", "differs");
        check(differs, "fill_ints differs between seeds", "same");
        check(wb_sum_ints(a, n) <= WB_INT_MAX, "sum of 1000003 inputs fits in int", "overflow");
        free(a);
        free(b);
    }
    {
        float f[1000];
        int j, ok = 1;
        wb_fill_floats(f, 1000, 3);
        for (j = 0; j < 1000; ++j)
            if (!(f[j] >= -1.0f && f[j] < 1.0f))
                ok = 0;
        check(ok, "fill_floats in [-1, 1)", "out of range");
    }
    {
        int big[] = {2147483647, 0, 1};
        check(wb_sum_ints(big, 3) == 2147483648LL, "reference sum is 64-bit", "wrapped");
    }
}

void test_float_inputs(void)
{
    /* the value rule with 2^24 and 2^53 in place of INT_MAX */
    check(wb_exact_value_max(WB_FLOAT, 1) == 255 && wb_exact_value_max(WB_FLOAT, 65793) == 255 &&
              wb_exact_value_max(WB_FLOAT, 65794) == 254 && wb_exact_value_max(WB_FLOAT, 1 << 24) == 1 &&
              wb_exact_value_max(WB_FLOAT, (1 << 24) + 1) == 0 && wb_exact_value_max(WB_DOUBLE, WB_INT_MAX) == 255 &&
              wb_exact_value_max(WB_INT, 1 << 24) == wb_int_value_max(1 << 24),
          "value rule for float (2^24) and double (2^53)", "wrong vmax");
    {
        /* the exact float input: integers in [0, vmax], every partial sum
         * exact: the float loop gives the 64-bit sum at 2^24 - 3 */
        size_t n = (1 << 24) - 3, i;
        float *f = malloc(n * sizeof(float)), s = 0;
        long long vmax = wb_exact_value_max(WB_FLOAT, (long long)n), isum = 0;
        int ints = 1;
        wb_exact e;
        wb_fill_float_values(f, n, WB_VALUES_EXACT, 1);
        for (i = 0; i < n; ++i) {
            if (f[i] != (float)(long long)f[i] || f[i] < 0 || f[i] > vmax)
                ints = 0;
            isum += (long long)f[i];
            s += f[i];
        }
        e = wb_exact_sum_floats(f, n, 0);
        check(ints, "exact float input: integers in [0, vmax]", "");
        check((long long)s == isum && wb_exact_value(&e) == (double)isum && wb_exact_error(&e, s) == 0 &&
                  e.abs_sum == (double)isum,
              "exact float input: the float loop equals the 64-bit integer sum (2^24 - 3 elements)", "");
        free(f);
    }
    {
        /* the exact double input is the int input where both ranges are 255 */
        size_t n = 100003, i;
        double *d = malloc(n * sizeof(double));
        int *k = malloc(n * sizeof(int)), same = 1;
        wb_fill_double_values(d, n, WB_VALUES_EXACT, 5);
        wb_fill_ints(k, n, 5);
        for (i = 0; i < n; ++i)
            if (d[i] != k[i])
                same = 0;
        check(same, "exact double input = the int input (same seed, vmax 255)", "");
        free(d);
        free(k);
    }
    {
        /* uniform: [-1, 1) on the grid of 2^-24 / 2^-52, the exact sum exact */
        size_t n = 1000003, i;
        float *f = malloc(n * sizeof(float));
        double *d = malloc(n * sizeof(double)), fsum = 0;
        long double dsum = 0;
        int in_range = 1, on_grid = 1, neg = 0;
        wb_exact ef, ed;
        wb_fill_float_values(f, n, WB_VALUES_UNIFORM, 7);
        wb_fill_double_values(d, n, WB_VALUES_UNIFORM, 7);
        for (i = 0; i < n; ++i) {
            if (!(f[i] >= -1 && f[i] < 1 && d[i] >= -1 && d[i] < 1))
                in_range = 0;
            if (ldexp(f[i], 24) != floor(ldexp(f[i], 24)) || ldexp(d[i], 52) != floor(ldexp(d[i], 52)))
                on_grid = 0;
            neg += f[i] < 0;
            fsum += f[i]; /* exact in double: 2^20 * 2^24 < 2^53 */
            dsum += d[i];
        }
        ef = wb_exact_sum_floats(f, n, 24);
        ed = wb_exact_sum_doubles(d, n, 52);
        check(in_range && on_grid && neg > 0 && neg < (int)n, "uniform input in [-1, 1), on the 2^-24 / 2^-52 grid",
              "");
        check(wb_exact_value(&ef) == fsum && wb_exact_error(&ef, fsum) == 0 && ef.abs_sum > 0.4 * n &&
                  ef.abs_sum < 0.6 * n,
              "uniform float reference: exact sum and sum|x|", "");
        check(fabsl((long double)wb_exact_value(&ed) - dsum) < 1e-6L && ed.step_bits == 52 &&
                  wb_exact_error(&ed, wb_exact_value(&ed)) <= ldexp(1.0, -52) * 1e6,
              "uniform double reference: 128-bit sum agrees with a long double sum", "");
        free(f);
        free(d);
    }
    {
        /* the 128-bit reference past 64 bits: 2^31 - 1 copies of 1 - 2^-52 */
        double one[1] = {1.0 - ldexp(1.0, -52)};
        wb_exact e = wb_exact_sum_doubles(one, 1, 52), big;
        double got;
        check(wb_exact_error(&e, one[0]) == 0 && wb_exact_error(&e, 1.0) == ldexp(1.0, -52),
              "exact error: one step of 2^-52", "");
        big = e;
        big.hi = 1; /* 2^64 + (2^52 - 1) steps: 4096 + just under 1 */
        got = wb_exact_value(&big);
        check(got == 4097.0 - ldexp(1.0, -52) || got == 4097.0, "exact sum past 64 bits (two words)", "");
    }
    /* the bounds */
    {
        double u = ldexp(1.0, -24);
        check(wb_unit_roundoff(WB_FLOAT) == u && wb_unit_roundoff(WB_DOUBLE) == ldexp(1.0, -53) &&
                  wb_unit_roundoff(WB_INT) == 0,
              "unit roundoff of float and double", "");
        check(wb_ceil_log2(1) == 0 && wb_ceil_log2(2) == 1 && wb_ceil_log2(3) == 2 && wb_ceil_log2(1024) == 10 &&
                  wb_ceil_log2(1025) == 11 && wb_ceil_log2(1LL << 24) == 24,
              "ceil(log2 n)", "");
        check(wb_error_bound(WB_FLOAT, 1, 0, 5.0) == 0 && wb_error_bound(WB_DOUBLE, 1, 0, 5.0) == 0,
              "bound 0 with no addition (n = 1)", "");
        check(fabs(wb_error_bound(WB_FLOAT, 1000, 0, 1.0) - 999 * u / (1 - 999 * u)) < 1e-18 &&
                  fabs(wb_error_bound(WB_FLOAT, 1, 10, 2.0) - 2 * 10 * u / (1 - 10 * u)) < 1e-18,
              "bound: loop gamma_(n-1), tree gamma_depth", "");
        check(wb_error_bound(WB_FLOAT, 256, 9, 1.0) == wb_error_bound(WB_FLOAT, 1, 255 + 9, 1.0) &&
                  wb_error_bound(WB_FLOAT, 256, 9, 1.0) < wb_error_bound(WB_FLOAT, 1 << 17, 0, 1.0),
              "bound: each thread's loop plus the tree (256 per leaf, 9 levels)", "");
        check(wb_error_bound(WB_FLOAT, 1 << 24, 0, 1.0) >= 1.0 &&
                  wb_error_bound(WB_DOUBLE, 1 << 24, 0, 1.0) < 1e-8,
              "bound: the float loop at 2^24 says nothing (>= sum|x|), the double loop is tight", "");
        check(wb_error_bound(WB_FLOAT, (1 << 24) + 1, 0, 1.0) < 0 && wb_error_bound(WB_FLOAT, 1 << 25, 3, 1.0) < 0 &&
                  wb_error_bound(WB_FLOAT, 1 << 23, 0, 1.0) > 0,
              "bound: none where k u >= 1 (gamma_k = ku/(1-ku) up to there)", "");
        check(fabs(wb_error_bound(WB_FLOAT, 1 << 23, 0, 2.0) - 2.0 * (0.5 - u) / (0.5 + u)) < 1e-9,
              "bound: gamma_k at k u near 1/2, not 2ku", "");
        check(fabs(wb_error_tolerance(WB_FLOAT, 101, 0, 3.0) - 10 * u * 3.0) < 1e-18,
              "tolerance: sqrt(k) u sum|x|", "");
        {
            wb_row row;
            memset(&row, 0, sizeof row);
            wb_judge_bound(&row, WB_FLOAT, (1 << 24) + 1, 0, 1.0, 1e-4, "", "");
            check(row.has_bound && row.no_bound && row.pass && strstr(row.check, "<= tol ") &&
                      strstr(row.check, "(no bound)"),
                  "judge: a row without a bound is checked against the tolerance and says so", row.check);
            wb_judge_bound(&row, WB_DOUBLE, 1000, 10, 1.0, 1.0, "", "");
            check(row.has_bound && !row.no_bound && !row.pass && strstr(row.check, "> bound "),
                  "judge: an error over the bound FAILs", row.check);
        }
    }
    {
        /* the report carries them: CSV error,bound before status; JSON too */
        static wb_report r;
        wb_row row;
        char *csv, *json;
        wb_report_init(&r, "labT");
        r.type = "float";
        memset(&row, 0, sizeof row);
        row.kernel = "alpha";
        row.n = 1000;
        row.bytes = 4000;
        row.total_ms = -1;
        row.pass = 1;
        row.time.median = row.time.q1 = row.time.q3 = 0.5;
        row.time.count = 1;
        wb_report_add(&r, &row);
        row.kernel = "beta";
        row.has_bound = 1;
        row.error = 1.5e-6;
        row.bound = 3.25e-4;
        snprintf(row.check, sizeof row.check, "error 1.50e-06 <= bound 3.25e-04 (a tree)");
        wb_row_result_real(&row, 0.1f);
        wb_report_add(&r, &row);
        csv = render(&r, WB_CSV);
        json = render(&r, WB_JSON);
        check(strstr(csv, ",float,kernel,,") && strstr(csv, ",,,PASS\n") &&
                  strstr(csv, ",1.500e-06,3.250e-04,0x1.99999ap-4,PASS\n"),
              "CSV: error and bound empty for an exact check, given for a bound check, then result, status", csv);
        check(strstr(json, "\"error\": null, \"bound\": null, \"result\": null, \"status\"") &&
                  strstr(json, "\"error\": 1.500e-06, \"bound\": 3.250e-04, \"result\": \"0x1.99999ap-4\", \"status\""),
              "JSON: error and bound (null for an exact check), result (a float sum in hex)", json);
        free(csv);
        free(json);
    }
}
