/*
 * workbook.c - the C half of common/: arguments, statistics, input, report.
 * Builds with gcc alone (lab01 and the CPU tests link it without CUDA).
 * The contracts are in workbook.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "workbook.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const wb_kernel_info *wb_table_at(wb_table t, int i)
{
    return (const wb_kernel_info *)((const char *)t.first + (size_t)i * t.stride);
}

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */
int wb_is_pow2(long long x) { return x >= 1 && (x & (x - 1)) == 0; }

long long wb_ceil_div(long long a, long long b) { return (a + b - 1) / b; }

double wb_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------ */
/* Numbers on the command line                                               */
/* ------------------------------------------------------------------------ */
int wb_parse_count(const char *s, long long max, long long *out)
{
    const char *p = s;
    unsigned long long v = 0;
    if (!isdigit((unsigned char)*p))
        return -1;                       /* no sign, no blank, no empty */
    while (isdigit((unsigned char)*p)) {
        if (v > 100000000000000000ULL)   /* 1e17: stays far from overflow */
            return -2;
        v = v * 10 + (unsigned)(*p++ - '0');
    }
    if (*p == '^') {                     /* 2^k */
        long long k;
        if (v != 2 || !isdigit((unsigned char)p[1]))
            return -1;
        k = 0;
        for (++p; isdigit((unsigned char)*p); ++p) {
            k = k * 10 + (*p - '0');
            if (k > 62)
                return -2;
        }
        if (*p != '\0')
            return -1;
        v = 1ULL << k;
    } else if (*p != '\0') {
        unsigned shift;
        switch (*p) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        default: return -1;
        }
        ++p;
        if (*p == 'i' || *p == 'B')      /* accept 16Mi and 16MB as 16M too */
            ++p;
        if (*p != '\0')
            return -1;
        if (v > (1ULL << 40))
            return -2;
        v <<= shift;
    }
    if (v == 0)
        return -1;
    if (v > (unsigned long long)max)
        return -2;
    *out = (long long)v;
    return 0;
}

int wb_parse_pair(const char *s, long long max, int *x, int *y)
{
    char buf[64];
    const char *sep = strchr(s, 'x');
    long long a, b;
    int ra, rb;
    if (!sep)
        sep = strchr(s, 'X');
    if (!sep || (size_t)(sep - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(sep - s));
    buf[sep - s] = '\0';
    ra = wb_parse_count(buf, max, &a);
    rb = wb_parse_count(sep + 1, max, &b);
    if (ra == -1 || rb == -1)
        return -1;
    if (ra == -2 || rb == -2)
        return -2;
    *x = (int)a;
    *y = (int)b;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Argument parser                                                           */
/* ------------------------------------------------------------------------ */
#define WB_MAX_SIDE (1LL << 24) /* largest matrix side accepted */
#define WB_MAX_REPS 100000

/* Index of the kernel (or, in `table`, the exercise) named name[0..len), or -1. */
static int find_in(wb_table table, const char *name, size_t len)
{
    int i;
    for (i = 0; i < table.count; ++i) {
        const char *k = wb_table_at(table, i)->name;
        if (strlen(k) == len && strncmp(k, name, len) == 0)
            return i;
    }
    return -1;
}

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

int wb_exercise_index(const wb_lab *lab, const char *name)
{
    return find_in(lab->exercises, name, strlen(name));
}

static void kernel_names(const wb_lab *lab, char *buf, size_t len)
{
    int i;
    size_t used = 0;
    buf[0] = '\0';
    for (i = 0; i < lab->kernels.count && used + 2 < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 wb_table_at(lab->kernels, i)->name);
    for (i = 0; i < lab->exercises.count && used + 2 < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "; exercises: ",
                                 wb_table_at(lab->exercises, i)->name);
}

/* -k NAMES: kernels and exercises by name; naming an exercise asks for the
 * exercise run (--exercises). */
static int parse_kernels(const wb_lab *lab, const char *list, wb_args *a, char *err, size_t errlen)
{
    const char *p = list;
    int i;
    for (i = 0; i < WB_MAX_KERNELS; ++i)
        a->selected[i] = a->ex_selected[i] = 0;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int k = find_in(lab->kernels, p, len), e = find_in(lab->exercises, p, len);
        if (k < 0 && e < 0) {
            char names[1024];
            kernel_names(lab, names, sizeof names);
            if (len == 0)
                fail(err, errlen, "-k: empty kernel name in '%s'; give names separated by commas: %s",
                     list, names);
            else
                fail(err, errlen, "-k: no kernel named '%.*s' in %s; the kernels are: %s", (int)len,
                     p, lab->lab, names);
            return WB_EXIT_USAGE;
        }
        if (k >= 0)
            a->selected[k] = 1;
        else {
            a->ex_selected[e] = 1;
            a->exercises = 1;
        }
        if (!end)
            return 0;
        p = end + 1;
    }
}

static int parse_block(const wb_lab *lab, const char *v, wb_args *a, char *err, size_t errlen)
{
    if (lab->shape == WB_LENGTH) {
        long long b;
        if (wb_parse_count(v, 1024, &b) != 0 || b < 32 || !wb_is_pow2(b)) {
            fail(err, errlen, "-b: '%s' is not a block size; give a power of two from 32 to 1024", v);
            return WB_EXIT_USAGE;
        }
        a->block_x = (int)b;
        a->block_y = 1;
    } else {
        int x, y;
        if (wb_parse_pair(v, 1024, &x, &y) != 0 || !wb_is_pow2(x) || !wb_is_pow2(y) ||
            (long long)x * y < 32 || (long long)x * y > 1024) {
            fail(err, errlen,
                 "-b: '%s' is not a block shape; give WxH with W and H powers of two and "
                 "32 <= W*H <= 1024 (e.g. 16x16, 32x8)", v);
            return WB_EXIT_USAGE;
        }
        a->block_x = x;
        a->block_y = y;
    }
    a->block_given = 1;
    return 0;
}

static int parse_matrix_side(const char *flag, const char *v, int *side, char *err, size_t errlen)
{
    long long s;
    int r = wb_parse_count(v, WB_MAX_SIDE, &s);
    if (r != 0) {
        fail(err, errlen, "%s: '%s' is not a matrix side; give a whole number from 1 to %lld "
                          "(K and M suffixes allowed)", flag, v, WB_MAX_SIDE);
        return WB_EXIT_USAGE;
    }
    *side = (int)s;
    return 0;
}

/* --finish host|device (v may be NULL: the flag was last). */
static int parse_finish(const wb_lab *lab, const char *v, wb_args *a, char *err, size_t errlen)
{
    if (!lab->device_finish) {
        fail(err, errlen, "--finish: %s has no choice of finish (lab02, lab03 and lab04 take --finish "
                          "host|device); leave it out", lab->lab);
        return WB_EXIT_USAGE;
    }
    if (!v || (strcmp(v, "host") && strcmp(v, "device"))) {
        fail(err, errlen, "--finish%s%s%s: give host (the host adds the partial sums, the default) or device "
                          "(the kernel relaunched on them until one value remains)",
             v ? " '" : " needs a value", v ? v : "", v ? "' is not a finish" : "");
        return WB_EXIT_USAGE;
    }
    a->finish_device = !strcmp(v, "device");
    return 0;
}

int wb_parse_args(const wb_lab *lab, int argc, char **argv, wb_args *a, char *err, size_t errlen)
{
    int i, csv = 0, json = 0, nx_given = 0, ny_given = 0;
    memset(a, 0, sizeof *a);
    a->n = lab->default_n;
    a->nx = lab->default_nx;
    a->ny = lab->default_ny;
    if (lab->shape == WB_MATRIX)
        a->n = (long long)a->nx * a->ny;
    a->block_x = lab->default_block_x;
    a->block_y = lab->shape == WB_MATRIX ? lab->default_block_y : 1;
    a->reps = lab->default_reps;
    a->seed = 1;
    a->format = WB_TABLE_OUT;
    for (i = 0; i < lab->kernels.count && i < WB_MAX_KERNELS; ++i)
        a->selected[i] = 1;
    for (i = 0; i < lab->exercises.count && i < WB_MAX_KERNELS; ++i)
        a->ex_selected[i] = 1;
    err[0] = '\0';

    for (i = 1; i < argc; ++i) {
        const char *f = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = !strcmp(f, "-n") || !strcmp(f, "--nx") || !strcmp(f, "--ny") ||
                          !strcmp(f, "-b") || !strcmp(f, "-k") || !strcmp(f, "-r") ||
                          !strcmp(f, "--seed");
        if (!strcmp(f, "--finish")) {
            if (parse_finish(lab, v, a, err, errlen))
                return WB_EXIT_USAGE;
            ++i;
            continue;
        }
        if (takes_value && !v) {
            fail(err, errlen, "%s needs a value; run %s -h for the options", f, lab->lab);
            return WB_EXIT_USAGE;
        }
        if (!strcmp(f, "-h") || !strcmp(f, "--help")) {
            a->help = 1;
        } else if (!strcmp(f, "--list")) {
            a->list = 1;
        } else if (!strcmp(f, "--csv")) {
            csv = 1;
        } else if (!strcmp(f, "--json")) {
            json = 1;
        } else if (!strcmp(f, "--explain")) {
            a->explain = 1;
        } else if (!strcmp(f, "--exercises") && lab->exercises.count > 0) {
            a->exercises = 1;
        } else if (lab->extra_flag && !strcmp(f, lab->extra_flag)) {
            a->extra = 1;
        } else if (!strcmp(f, "-n") && lab->shape == WB_LENGTH) {
            long long n;
            int r = wb_parse_count(v, lab->max_n, &n);
            if (r == -1) {
                fail(err, errlen, "-n: '%s' is not a length; give a whole number from 1 to %lld, "
                                  "optionally with K, M or G (16M = 16*2^20) or as 2^k", v, lab->max_n);
                return WB_EXIT_USAGE;
            }
            if (r == -2) {
                fail(err, errlen, "-n: '%s' is larger than %lld, the most %s accepts (%s)", v,
                     lab->max_n, lab->lab, lab->max_n_reason ? lab->max_n_reason : "its limit");
                return WB_EXIT_USAGE;
            }
            a->n = n;
            a->n_given = 1;
            ++i;
        } else if (!strcmp(f, "-n")) { /* matrix: NXxNY or N for a square */
            if (strchr(v, 'x') || strchr(v, 'X')) {
                if (wb_parse_pair(v, WB_MAX_SIDE, &a->nx, &a->ny) != 0) {
                    fail(err, errlen, "-n: '%s' is not a matrix shape; give NXxNY (e.g. 8192x4096) "
                                      "with each side from 1 to %lld", v, WB_MAX_SIDE);
                    return WB_EXIT_USAGE;
                }
            } else {
                if (parse_matrix_side("-n", v, &a->nx, err, errlen))
                    return WB_EXIT_USAGE;
                a->ny = a->nx;
            }
            nx_given = ny_given = 1;
            a->n_given = 1;
            ++i;
        } else if ((!strcmp(f, "--nx") || !strcmp(f, "--ny")) && lab->shape == WB_MATRIX) {
            int *side = f[3] == 'x' ? &a->nx : &a->ny;
            if (parse_matrix_side(f, v, side, err, errlen))
                return WB_EXIT_USAGE;
            if (f[3] == 'x')
                nx_given = 1;
            else
                ny_given = 1;
            a->n_given = 1;
            ++i;
        } else if (!strcmp(f, "-b")) {
            if (!lab->uses_block) {
                fail(err, errlen, "-b: %s runs on the CPU and has no thread blocks; leave -b out",
                     lab->lab);
                return WB_EXIT_USAGE;
            }
            if (parse_block(lab, v, a, err, errlen))
                return WB_EXIT_USAGE;
            ++i;
        } else if (!strcmp(f, "-k")) {
            if (parse_kernels(lab, v, a, err, errlen))
                return WB_EXIT_USAGE;
            ++i;
        } else if (!strcmp(f, "-r")) {
            long long r;
            if (wb_parse_count(v, WB_MAX_REPS, &r) != 0) {
                fail(err, errlen, "-r: '%s' is not a repetition count; give a whole number from 1 to %d",
                     v, WB_MAX_REPS);
                return WB_EXIT_USAGE;
            }
            a->reps = (int)r;
            ++i;
        } else if (!strcmp(f, "--seed")) {
            char *end;
            unsigned long long s;
            errno = 0;
            s = strtoull(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end != '\0' || errno == ERANGE) {
                fail(err, errlen, "--seed: '%s' is not a seed; give a whole number from 0 to "
                                  "18446744073709551615", v);
                return WB_EXIT_USAGE;
            }
            a->seed = s;
            ++i;
        } else if (f[0] == '-') {
            fail(err, errlen, "unknown option '%s'; run ./%s -h for the options", f, lab->lab);
            return WB_EXIT_USAGE;
        } else {
            fail(err, errlen, "unexpected argument '%s'; options start with '-' (run ./%s -h)", f,
                 lab->lab);
            return WB_EXIT_USAGE;
        }
    }
    if (csv && json) {
        fail(err, errlen, "--csv and --json exclude each other; give one of them");
        return WB_EXIT_USAGE;
    }
    a->format = csv ? WB_CSV : json ? WB_JSON : WB_TABLE_OUT;
    if (a->exercises && !a->n_given) { /* the size at which every exercise's bug shows */
        if (lab->shape == WB_LENGTH && lab->exercise_n > 0)
            a->n = lab->exercise_n;
        else if (lab->shape == WB_MATRIX && lab->exercise_nx > 0) {
            a->nx = lab->exercise_nx;
            a->ny = lab->exercise_ny;
        }
    }
    if (lab->shape == WB_MATRIX) {
        (void)nx_given;
        (void)ny_given;
        a->n = (long long)a->nx * a->ny;
        if (a->n > WB_INT_MAX) {
            fail(err, errlen, "-n: %dx%d has %lld elements; %s takes at most %lld (int indices)",
                 a->nx, a->ny, a->n, lab->lab, WB_INT_MAX);
            return WB_EXIT_USAGE;
        }
    }
    return 0;
}

void wb_print_usage(const wb_lab *lab, FILE *f)
{
    fprintf(f, "%s - %s\n\n", lab->lab, lab->title);
    if (lab->shape == WB_LENGTH)
        fprintf(f, "usage: ./%s [-n N]%s [-k NAME[,NAME...]] [-r REPS] [--seed S] [--csv | --json]\n"
                   "       [--explain]%s%s%s%s%s [--list] [-h]\n\n",
                lab->lab, lab->uses_block ? " [-b THREADS]" : "",
                lab->exercises.count > 0 ? " [--exercises]" : "", lab->extra_flag ? " [" : "",
                lab->extra_flag ? lab->extra_flag : "", lab->extra_flag ? "]" : "",
                lab->device_finish ? " [--finish host|device]" : "");
    else
        fprintf(f, "usage: ./%s [-n NXxNY | --nx NX --ny NY] [-b WxH] [-k NAME[,NAME...]] [-r REPS]\n"
                   "       [--seed S] [--csv | --json] [--explain]%s%s%s%s [--list] [-h]\n\n",
                lab->lab, lab->exercises.count > 0 ? " [--exercises]" : "", lab->extra_flag ? " [" : "",
                lab->extra_flag ? lab->extra_flag : "", lab->extra_flag ? "]" : "");
    if (lab->shape == WB_LENGTH)
        fprintf(f, "  -n N          elements to reduce (default %lld); 16M = 16*2^20, 1G, 2^24 work too; "
                   "at most %lld\n", lab->default_n, lab->max_n);
    else
        fprintf(f, "  -n NXxNY      matrix of NX columns and NY rows (default %dx%d); -n N is N x N\n"
                   "  --nx, --ny    set one side\n", lab->default_nx, lab->default_ny);
    if (lab->uses_block && lab->shape == WB_LENGTH)
        fprintf(f, "  -b THREADS    threads per block, a power of two from 32 to 1024 (default %d)\n",
                lab->default_block_x);
    else if (lab->uses_block)
        fprintf(f, "  -b WxH        block shape, powers of two with 32 <= W*H <= 1024 (default %dx%d)\n",
                lab->default_block_x, lab->default_block_y);
    fprintf(f, "  -k NAMES      run only these kernels (comma-separated; --list names them)\n"
               "  -r REPS       timed repetitions; the median is reported (default %d)\n"
               "  --seed S      seed of the input generator (default 1)\n"
               "  --csv         machine-readable CSV on stdout (columns: docs/output.md)\n"
               "  --json        machine-readable JSON on stdout\n"
               "  --explain     show step by step what the threads do on a tiny input\n",
            lab->default_reps);
    if (lab->exercises.count > 0)
        fprintf(f, "  --exercises   run your exercises (%s) beside the kernels they are measured\n"
                   "                against; without -n at %s, where every bug shows\n",
                lab->exercise_file, lab->shape == WB_LENGTH ? "n = 16777213 (2^24 - 3)" : "a rectangle");
    if (lab->extra_flag)
        fprintf(f, "  %-13s %s\n", lab->extra_flag, lab->extra_help ? lab->extra_help : "");
    if (lab->device_finish)
        fprintf(f, "  --finish F    how the total reaches one number: host (default), the host adds the\n"
                   "                partial sums; device, the kernel relaunched on them until one remains\n");
    fprintf(f, "  --list        name every kernel with one line on what it shows\n"
               "  -h, --help    this text\n\n"
               "exit status: 0 every kernel verified, 1 a kernel gave a wrong result, 2 bad command "
               "line, 3 no usable CUDA device or a CUDA error\n");
}

void wb_print_list(const wb_lab *lab, FILE *f)
{
    int i;
    for (i = 0; i < lab->kernels.count; ++i) {
        const wb_kernel_info *k = wb_table_at(lab->kernels, i);
        fprintf(f, "%-28s %s\n", k->name, k->lesson);
    }
    if (lab->exercises.count > 0)
        fprintf(f, "\nexercises in %s (./%s --exercises runs them):\n", lab->exercise_file, lab->lab);
    for (i = 0; i < lab->exercises.count; ++i) {
        const wb_kernel_info *k = wb_table_at(lab->exercises, i);
        fprintf(f, "%-28s %-5s %s (measured against %s)\n", k->name, k->kind, k->lesson, k->against);
    }
}

void wb_args_or_exit(const wb_lab *lab, int argc, char **argv, wb_args *a)
{
    char err[1200];
    if (wb_parse_args(lab, argc, argv, a, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", lab->lab, err);
        exit(WB_EXIT_USAGE);
    }
    if (a->help) {
        wb_print_usage(lab, stdout);
        exit(WB_EXIT_OK);
    }
    if (a->list) {
        wb_print_list(lab, stdout);
        exit(WB_EXIT_OK);
    }
}

/* ------------------------------------------------------------------------ */
/* Statistics                                                                */
/* ------------------------------------------------------------------------ */
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Linear interpolation between the order statistics (p in [0,1]). */
static double quantile(const double *sorted, int count, double p)
{
    double pos = p * (count - 1);
    int lo = (int)floor(pos);
    int hi = lo + 1 < count ? lo + 1 : lo;
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

wb_stats wb_summarize(double *samples, int count)
{
    wb_stats s;
    qsort(samples, (size_t)count, sizeof *samples, cmp_double);
    s.count = count;
    s.min = samples[0];
    s.max = samples[count - 1];
    s.median = quantile(samples, count, 0.5);
    s.q1 = quantile(samples, count, 0.25);
    s.q3 = quantile(samples, count, 0.75);
    return s;
}

double wb_spread_pct(wb_stats s)
{
    return s.median > 0 ? 100.0 * (s.q3 - s.q1) / s.median : 0.0;
}

double wb_gbps(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e6) : 0.0;
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */
int wb_int_value_max(long long n)
{
    long long v;
    if (n < 1 || n > WB_INT_MAX)
        return 0;
    v = WB_INT_MAX / n;
    return (int)(v < 255 ? v : 255);
}

static unsigned long long splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void wb_fill_ints(int *a, size_t n, unsigned long long seed)
{
    unsigned long long state = seed;
    unsigned range = (unsigned)wb_int_value_max((long long)n) + 1u;
    size_t i;
    for (i = 0; i < n; ++i)
        a[i] = (int)((splitmix64(&state) >> 32) % range);
}

void wb_fill_floats(float *a, size_t n, unsigned long long seed)
{
    unsigned long long state = seed;
    size_t i;
    for (i = 0; i < n; ++i) /* 24 random bits: exact in a float */
        a[i] = (float)(splitmix64(&state) >> 40) / 8388608.0f - 1.0f;
}

long long wb_sum_ints(const int *a, size_t n)
{
    long long s = 0;
    size_t i;
    for (i = 0; i < n; ++i)
        s += a[i];
    return s;
}

/* ------------------------------------------------------------------------ */
/* Report                                                                    */
/* ------------------------------------------------------------------------ */
const char *const wb_csv_header =
    "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,"
    "pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build,run_at,"
    "fingerprint,finish,status";

int wb_cpu_todo;

void wb_utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm utc;
    if (!gmtime_r(&now, &utc) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &utc))
        snprintf(buf, len, "1970-01-01T00:00:00Z");
}

void wb_report_init(wb_report *r, const char *lab)
{
    memset(r, 0, sizeof *r);
    r->lab = lab;
    r->type = "int";
    snprintf(r->device, sizeof r->device, "unknown device");
    snprintf(r->build_id, sizeof r->build_id, "%s", wb_build_id);
    snprintf(r->fingerprint, sizeof r->fingerprint, "%s", wb_build_fingerprint);
    wb_utc_now(r->run_at, sizeof r->run_at);
}

static int same_size(const wb_row *a, const wb_row *b)
{
    return a->n == b->n && a->nx == b->nx && a->ny == b->ny;
}

/* The row the speedup of w is against: for an exercise the row of the
 * kernel it is measured against, else the baseline kernel's row of the same
 * size, else the first row of the same size. */
static const wb_row *baseline_row(const wb_report *r, const wb_row *w)
{
    const char *against = w->against ? w->against : r->baseline;
    int i;
    for (i = 0; against && i < r->nrows; ++i)
        if (same_size(&r->rows[i], w) && !strcmp(r->rows[i].kernel, against))
            return &r->rows[i];
    for (i = 0; i < r->nrows; ++i)
        if (same_size(&r->rows[i], w))
            return &r->rows[i];
    return NULL;
}

void wb_report_add(wb_report *r, const wb_row *row)
{
    wb_row *w;
    if (r->nrows >= WB_MAX_ROWS)
        return;
    w = &r->rows[r->nrows++];
    *w = *row;
    w->ceiling_gbps = r->ceiling_gbps;
    w->gbps = wb_gbps(w->bytes, w->time.median);
    w->pct_of_copy = r->ceiling_gbps > 0 ? 100.0 * w->gbps / r->ceiling_gbps : 0.0;
    w->total_gbps = w->total_ms > 0 ? wb_gbps(w->bytes, w->total_ms) : 0.0;
    w->spread_pct = wb_spread_pct(w->time);
    w->speedup = 1.0;
    {
        const wb_row *b = baseline_row(r, w);
        if (b && w->time.median > 0)
            w->speedup = b->time.median / w->time.median;
    }
}

int wb_report_status(const wb_report *r)
{
    int i;
    for (i = 0; i < r->nrows; ++i)
        if (!r->rows[i].pass && !r->rows[i].todo)
            return WB_EXIT_WRONG;
    return WB_EXIT_OK;
}

int wb_report_exercises_begin(wb_report *r, const wb_lab *lab, const wb_args *a)
{
    int i, count = 0;
    for (i = 0; i < lab->exercises.count; ++i)
        count += a->ex_selected[i];
    if (a->exercises || count == 0)
        return 0;
    r->ex_total = count;
    r->ex_file = lab->exercise_file;
    return count;
}

void wb_report_exercise_verdict(wb_report *r, const wb_row *row)
{
    r->ex_done += row->pass;
    r->ex_todo += row->todo;
}

void wb_print_exercise_line(const wb_report *r, FILE *out)
{
    if (r->ex_total <= 0)
        return;
    fprintf(out, "exercises: %d of %d done", r->ex_done, r->ex_total);
    if (r->ex_todo > 0)
        fprintf(out, ", %d todo", r->ex_todo);
    if (r->ex_total - r->ex_done - r->ex_todo > 0)
        fprintf(out, ", %d failing", r->ex_total - r->ex_done - r->ex_todo);
    fprintf(out, " (%s; ./%s --exercises runs them)\n", r->ex_file, r->lab);
}

/* How a row's total reached one number ("host", "device"), or NULL: no total. */
static const char *finish_text(const wb_row *w)
{
    return w->total_ms >= 0 && !w->todo ? w->finish : NULL;
}

/* What a row's status column says. */
static const char *status_text(const wb_row *w)
{
    return w->todo ? "todo" : w->pass ? "PASS" : "FAIL";
}

void wb_bar(double pct, int width, char *buf)
{
    int full = (int)(pct / 100.0 * width + 0.5), i;
    if (full < 0)
        full = 0;
    for (i = 0; i < width; ++i)
        buf[i] = i < full ? '#' : '.';
    if (pct > 100.0)
        buf[width - 1] = '>';
    buf[width] = '\0';
}

static void grid_text(char *buf, size_t len, unsigned x, unsigned y)
{
    if (x == 0)
        snprintf(buf, len, "-");
    else if (y <= 1)
        snprintf(buf, len, "%u", x);
    else
        snprintf(buf, len, "%ux%u", x, y);
}

static void grid_csv(char *buf, size_t len, unsigned x, unsigned y)
{
    if (y <= 1)
        snprintf(buf, len, "%u", x);
    else
        snprintf(buf, len, "%ux%u", x, y);
}

/* Device names go into CSV unquoted: keep them free of commas and quotes. */
static void csv_safe(char *dst, size_t len, const char *src)
{
    size_t i;
    for (i = 0; src[i] && i + 1 < len; ++i)
        dst[i] = (src[i] == ',' || src[i] == '"' || src[i] == '\n') ? ' ' : src[i];
    dst[i] = '\0';
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static void size_text(char *buf, size_t len, const wb_row *w)
{
    if (w->nx > 0)
        snprintf(buf, len, "%dx%d", w->nx, w->ny);
    else
        snprintf(buf, len, "%lld", w->n);
}

static int rows_share_n(const wb_report *r)
{
    int i;
    for (i = 1; i < r->nrows; ++i)
        if (!same_size(&r->rows[i], &r->rows[0]))
            return 0;
    return 1;
}

static void print_summary(const wb_report *r, FILE *out)
{
    int i, passed = 0, todo = 0, best = -1;
    for (i = 0; i < r->nrows; ++i) {
        if (r->rows[i].pass)
            ++passed;
        if (r->rows[i].todo)
            ++todo;
        if (r->rows[i].pass && (best < 0 || r->rows[i].gbps > r->rows[best].gbps))
            best = i;
    }
    /* a sweep has a row per kernel and size: count runs, not kernels */
    const char *what = rows_share_n(r) ? "kernels" : "kernel runs";
    int run = r->nrows - todo;
    if (passed == run) {
        fprintf(out, "%s: PASS - %d of %d %s verified", r->lab, passed, run, what);
    } else {
        fprintf(out, "%s: FAIL - %d of %d %s gave a wrong result:", r->lab, run - passed, run, what);
        for (i = 0; i < r->nrows; ++i)
            if (!r->rows[i].pass && !r->rows[i].todo)
                fprintf(out, " %s", r->rows[i].kernel);
        fprintf(out, ";");
    }
    if (todo > 0)
        fprintf(out, "%s%d exercise%s todo", passed == run ? "; " : " ", todo, todo > 1 ? "s" : "");
    if (best >= 0)
        fprintf(out, "%sfastest %s at %.0f GB/s (%.1f%% of the copy ceiling) on %s",
                passed == run || todo > 0 ? "; " : " ", r->rows[best].kernel, r->rows[best].gbps,
                r->rows[best].pct_of_copy, r->device);
    fprintf(out, "\n");
}

static void print_table(const wb_report *r, FILE *out)
{
    int i, show_n = !rows_share_n(r), show_total = 0, namew = 6;
    for (i = 0; i < r->nrows; ++i) {
        int len = (int)strlen(r->rows[i].kernel);
        if (r->rows[i].total_ms >= 0)
            show_total = 1;
        if (len > namew)
            namew = len;
    }
    fprintf(out, "device   %s (%s)\n", r->device, r->device_detail);
    if (r->ceiling_gbps > 0) {
        fprintf(out, "ceiling  %.0f GB/s: %s", r->ceiling_gbps, r->ceiling_what);
        if (r->peak_gbps > 0)
            fprintf(out, "; %.1f%% of the theoretical %.0f GB/s", 100.0 * r->ceiling_gbps / r->peak_gbps,
                    r->peak_gbps);
        fprintf(out, "\n");
    }
    if (r->build)
        fprintf(out, "build    %s\n", r->build);
    if (r->nrows > 0 && !show_n) {
        char sz[64];
        size_text(sz, sizeof sz, &r->rows[0]);
        fprintf(out, "size     n = %s (%.1f MiB moved), median of %d repetitions%s\n", sz,
                r->rows[0].bytes / 1048576.0, r->reps,
                r->ceiling_gbps > 0 && r->rows[0].grid_x ? ", L2 flushed before each" : "");
    }
    if (r->timed)
        fprintf(out, "timed    %s\n", r->timed);
    if (show_total && r->total_what)
        fprintf(out, "total    %s\n", r->total_what);
    fprintf(out, "\n");
    fprintf(out, "%-*s %s%9s %9s %10s %7s %8s %7s  %-20s %8s", namew, "kernel", show_n ? "         n " : "",
            "grid", "block", "time ms", "+-iqr", "GB/s", "% copy", "", "speedup");
    if (show_total)
        fprintf(out, " %9s", "total ms");
    fprintf(out, "  check\n");
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        char grid[32], block[32], bar[32], sz[64];
        grid_text(grid, sizeof grid, w->grid_x, w->grid_y);
        grid_text(block, sizeof block, w->block_x, w->block_y);
        wb_bar(w->pct_of_copy, 20, bar);
        fprintf(out, "%-*s ", namew, w->kernel);
        if (show_n) {
            size_text(sz, sizeof sz, w);
            fprintf(out, "%10s ", sz);
        }
        if (w->todo) { /* not run: no figures to show */
            fprintf(out, "%9s %9s %10s %7s %8s %7s  %-20s %8s", grid, block, "-", "-", "-", "-",
                    "(your exercise)", "-");
        } else {
            fprintf(out, "%9s %9s %10.4f %6.1f%% %8.1f %6.1f%%  %s %7.2fx", grid, block, w->time.median,
                    w->spread_pct, w->gbps, w->pct_of_copy, bar, w->speedup);
        }
        if (show_total) {
            if (w->total_ms >= 0 && !w->todo)
                fprintf(out, " %9.4f", w->total_ms);
            else
                fprintf(out, " %9s", "-");
        }
        fprintf(out, "  %s\n", status_text(w));
    }
    for (i = 0; i < r->nrows; ++i)
        if (!r->rows[i].pass && !r->rows[i].todo)
            fprintf(out, "  %s: %s\n", r->rows[i].kernel, r->rows[i].check);
    for (i = 0; i < r->nrows; ++i)
        if (r->rows[i].role)
            fprintf(out, "  %s (%s it, against %s): %s\n", r->rows[i].kernel, r->rows[i].role,
                    r->rows[i].against, r->rows[i].todo ? "todo: delete WB_TODO() and write it"
                                        : r->rows[i].pass ? "PASS, speedup above" : "FAIL, see above");
    fprintf(out, "\n");
    if (r->notes)
        r->notes(r, out); /* each note line ends in \n; a blank line after them */
    print_summary(r, out);
    wb_print_exercise_line(r, out);
}

static void print_csv(const wb_report *r, FILE *out)
{
    int i;
    char dev[160];
    csv_safe(dev, sizeof dev, r->device);
    fprintf(out, "%s\n", wb_csv_header);
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        char grid[32], block[32];
        grid_csv(grid, sizeof grid, w->grid_x, w->grid_y);
        grid_csv(block, sizeof block, w->block_x, w->block_y);
        fprintf(out, "%s,%s,%s,%lld,%d,%d,%s,%s,%.0f,", r->lab, dev, w->kernel, w->n, w->nx, w->ny, grid,
                block, w->bytes);
        if (w->todo) /* not run: reps 0, no figures */
            fprintf(out, "0,,,,,,,,,,");
        else {
            fprintf(out, "%d,%.6f,%.6f,%.6f,%.2f,%.2f,%.2f,%.3f,", w->time.count, w->time.median,
                    w->time.q1, w->time.q3, w->spread_pct, w->gbps, w->pct_of_copy, w->speedup);
            if (w->total_ms >= 0)
                fprintf(out, "%.6f,%.2f,", w->total_ms, w->total_gbps);
            else
                fprintf(out, ",,");
        }
        fprintf(out, "%.2f,%.2f,%s,%s,%s,%s,%s,%s,%s,%s\n", w->ceiling_gbps, r->peak_gbps, r->type,
                w->role ? w->role : "kernel", w->against ? w->against : "", r->build_id, r->run_at,
                r->fingerprint, finish_text(w) ? finish_text(w) : "", status_text(w));
    }
}

static void print_json(const wb_report *r, FILE *out)
{
    int i, passed = 0, todo = 0;
    fprintf(out, "{\n  \"lab\": ");
    json_string(out, r->lab);
    fprintf(out, ",\n  \"device\": ");
    json_string(out, r->device);
    fprintf(out, ",\n  \"device_detail\": ");
    json_string(out, r->device_detail);
    fprintf(out, ",\n  \"ceiling_gbps\": %.2f,\n  \"peak_gbps\": %.2f,\n  \"ceiling\": ", r->ceiling_gbps,
            r->peak_gbps);
    json_string(out, r->ceiling_what);
    fprintf(out, ",\n  \"timed\": ");
    json_string(out, r->timed);
    fprintf(out, ",\n  \"total\": ");
    if (r->total_what)
        json_string(out, r->total_what);
    else
        fprintf(out, "null");
    fprintf(out, ",\n  \"build\": ");
    if (r->build)
        json_string(out, r->build);
    else
        fprintf(out, "null");
    fprintf(out, ",\n  \"type\": ");
    json_string(out, r->type);
    fprintf(out, ",\n  \"build_id\": ");
    json_string(out, r->build_id);
    fprintf(out, ",\n  \"run_at\": ");
    json_string(out, r->run_at);
    fprintf(out, ",\n  \"fingerprint\": ");
    json_string(out, r->fingerprint);
    fprintf(out, ",\n  \"rows\": [\n");
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        char grid[32], block[32];
        grid_csv(grid, sizeof grid, w->grid_x, w->grid_y);
        grid_csv(block, sizeof block, w->block_x, w->block_y);
        if (w->pass)
            ++passed;
        if (w->todo)
            ++todo;
        fprintf(out, "    {\"kernel\": ");
        json_string(out, w->kernel);
        fprintf(out, ", \"role\": ");
        json_string(out, w->role ? w->role : "kernel");
        fprintf(out, ", \"against\": ");
        if (w->against)
            json_string(out, w->against);
        else
            fprintf(out, "null");
        fprintf(out, ", \"n\": %lld, \"nx\": %d, \"ny\": %d, \"grid\": \"%s\", \"block\": \"%s\", "
                     "\"bytes\": %.0f, ",
                w->n, w->nx, w->ny, grid, block, w->bytes);
        if (w->todo)
            fprintf(out, "\"reps\": 0, \"time_ms\": null, \"q1_ms\": null, \"q3_ms\": null, "
                         "\"spread_pct\": null, \"gbps\": null, \"pct_of_copy\": null, \"speedup\": null, ");
        else
            fprintf(out, "\"reps\": %d, \"time_ms\": %.6f, \"q1_ms\": %.6f, \"q3_ms\": %.6f, "
                         "\"spread_pct\": %.2f, \"gbps\": %.2f, \"pct_of_copy\": %.2f, \"speedup\": %.3f, ",
                    w->time.count, w->time.median, w->time.q1, w->time.q3, w->spread_pct, w->gbps,
                    w->pct_of_copy, w->speedup);
        fprintf(out, "\"ceiling_gbps\": %.2f, ", w->ceiling_gbps);
        if (w->total_ms >= 0 && !w->todo)
            fprintf(out, "\"total_ms\": %.6f, \"total_gbps\": %.2f, ", w->total_ms, w->total_gbps);
        else
            fprintf(out, "\"total_ms\": null, \"total_gbps\": null, ");
        fprintf(out, "\"finish\": ");
        if (finish_text(w))
            json_string(out, finish_text(w));
        else
            fprintf(out, "null");
        fprintf(out, ", ");
        fprintf(out, "\"status\": \"%s\", \"check\": ", status_text(w));
        json_string(out, w->check);
        fprintf(out, "}%s\n", i + 1 < r->nrows ? "," : "");
    }
    fprintf(out, "  ],\n  \"passed\": %d,\n  \"failed\": %d,\n  \"todo\": %d,\n  \"status\": \"%s\"\n}\n",
            passed, r->nrows - passed - todo, todo, passed + todo == r->nrows ? "PASS" : "FAIL");
}

void wb_report_print(const wb_report *r, wb_format f, FILE *out)
{
    if (f == WB_CSV)
        print_csv(r, out);
    else if (f == WB_JSON)
        print_json(r, out);
    else
        print_table(r, out);
    fflush(out);
}
