/*
 * tests/cheats/forge.h - the forger every cheating student of tests/cheats/
 * shares (tests/cheats/make_cheats.sh pastes it at the top of a cheat's
 * exercise file, after the lab's CHEAT_* lines). C that also compiles as
 * CUDA C++. It prints the CSV an all-PASS run of the lab would print at the
 * run's own n (read from /proc/self/cmdline) with the program's own build
 * and fingerprint, every row consistent (times, GB/s, the copy ceiling,
 * speedups): without the checker such a file earns the exercise points.
 * What it cannot print is the right result: it never computed one.
 *
 * Before it: CHEAT_LAB ("lab02"), CHEAT_GPU (1 or 0), CHEAT_ROWS (the
 * kernels and exercises as {name, role, against}, in the lab's order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif
extern const char wb_build_id[];
extern const char wb_build_fingerprint[];
#ifdef __cplusplus
}
#endif

static const char *const cheat_rows[][3] = CHEAT_ROWS;

/* -n of the run, from /proc/self/cmdline (a constructor runs before main) */
static long long cheat_n(void)
{
    char buf[4096];
    size_t len, i;
    long long n = 16777213;
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return n;
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    for (i = 0; i + 3 < len; i += strlen(buf + i) + 1)
        if (!strcmp(buf + i, "-n"))
            n = atoll(buf + i + 3);
    return n;
}

/* One forged row: every figure consistent with a 1 ms run; the result
 * column (with_result) holds a guess, n times the mean input value */
static void cheat_row(FILE *out, int k, long long n, const char *fp, int with_result)
{
    double bytes = 4.0 * (double)n, gbps = bytes / 1e6, ceiling = CHEAT_GPU ? 3000.0 : 100.0;
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(out, "%s,%s,%s,%lld,0,0,%lld,%d,%.0f,20,1.000000,1.000000,1.000000,0.00,%.2f,%.2f,1.000,", CHEAT_LAB,
            CHEAT_GPU ? "NVIDIA H100 80GB HBM3" : "AMD EPYC", cheat_rows[k][0], n,
            CHEAT_GPU ? (n + 511) / 512 : 0LL, CHEAT_GPU ? 512 : 0, bytes, gbps, 100.0 * gbps / ceiling);
    if (CHEAT_GPU)
        fprintf(out, "1.100000,%.2f,", bytes / 1.1e6);
    else
        fprintf(out, ",,");
    fprintf(out, "%.2f,%s,int,%s,%s,%s,%s,%s,%s,,,", ceiling, CHEAT_GPU ? "3352.32" : "0.00", cheat_rows[k][1],
            cheat_rows[k][2], wb_build_id, when, fp, CHEAT_GPU ? "host" : "");
    if (with_result)
        fprintf(out, "%lld,", n * 127);
    fprintf(out, "PASS\n");
}

/* The header (with or without the result column, as an older program) and
 * the rows: all of them, or the exercises only (only_exercises) */
static void cheat_csv(FILE *out, const char *fp, int with_result, int header, int only_exercises)
{
    long long n = cheat_n();
    int k;
    if (header)
        fprintf(out, "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,"
                     "pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build,"
                     "run_at,fingerprint,finish,error,bound,%sstatus\n",
                with_result ? "result," : "");
    for (k = 0; k < (int)(sizeof cheat_rows / sizeof cheat_rows[0]); ++k)
        if (!only_exercises || strcmp(cheat_rows[k][1], "kernel"))
            cheat_row(out, k, n, fp, with_result);
    fflush(out);
}
