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

const char *wb_type_name(wb_type t)
{
    return t == WB_FLOAT ? "float" : t == WB_DOUBLE ? "double" : "int";
}

/* The types lab accepts, as "int, float or double". */
static void type_names(const wb_lab *lab, char *buf, size_t len)
{
    unsigned types = lab->types ? lab->types : WB_TYPE_BIT(WB_INT);
    int t, count = 0, seen = 0;
    for (t = WB_INT; t <= WB_DOUBLE; ++t)
        count += (types & WB_TYPE_BIT(t)) != 0;
    buf[0] = '\0';
    for (t = WB_INT; t <= WB_DOUBLE; ++t)
        if (types & WB_TYPE_BIT(t)) {
            size_t used = strlen(buf);
            ++seen;
            snprintf(buf + used, len - used, "%s%s", seen == 1 ? "" : seen == count ? " or " : ", ",
                     wb_type_name((wb_type)t));
        }
}

/* --type T and --values V (the lab's types; uniform needs float or double:
 * check_type_values, once every option is read). */
static int parse_type_values(const wb_lab *lab, const char *f, const char *v, wb_args *a, char *err,
                             size_t errlen)
{
    char names[64];
    int t;
    type_names(lab, names, sizeof names);
    if (!strcmp(f, "--values")) {
        if (strcmp(v, "exact") && strcmp(v, "uniform")) {
            fail(err, errlen, "--values: '%s' is not an input; give exact (integers, exact checks) or "
                              "uniform ([-1, 1), checked against an error bound)", v);
            return WB_EXIT_USAGE;
        }
        a->values = !strcmp(v, "uniform") ? WB_VALUES_UNIFORM : WB_VALUES_EXACT;
        return 0;
    }
    if (lab->shape == WB_MATRIX) { /* the transpose moves floats: no choice to make */
        fail(err, errlen, "--type: %s transposes floats and takes no --type; leave it out", lab->lab);
        return WB_EXIT_USAGE;
    }
    for (t = WB_INT; t <= WB_DOUBLE; ++t)
        if (!strcmp(v, wb_type_name((wb_type)t)))
            break;
    if (t > WB_DOUBLE) {
        fail(err, errlen, "--type: '%s' is not an element type; %s takes %s", v, lab->lab, names);
        return WB_EXIT_USAGE;
    }
    if (!((lab->types ? lab->types : WB_TYPE_BIT(WB_INT)) & WB_TYPE_BIT(t))) {
        fail(err, errlen, "--type %s: %s sums %s only; it takes %s", v, lab->lab, names, names);
        return WB_EXIT_USAGE;
    }
    a->type = (wb_type)t;
    return 0;
}

static int check_type_values(const wb_lab *lab, const wb_args *a, char *err, size_t errlen)
{
    if (a->values == WB_VALUES_UNIFORM && a->type == WB_INT) {
        fail(err, errlen, "--values uniform draws from [-1, 1): give --type float or --type double "
                          "with it%s", lab->types & WB_TYPE_BIT(WB_FLOAT) ? "" : " (this lab runs int only)");
        return WB_EXIT_USAGE;
    }
    if (a->exercises && a->type != WB_INT) {
        fail(err, errlen, "--exercises: your exercises are int functions; run them without --type %s",
             wb_type_name(a->type));
        return WB_EXIT_USAGE;
    }
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

/* One value of -n, -b, --seed, --type or --finish (an item of a --check
 * list, or the option's one value) into a's single fields. */
static int parse_value(const wb_lab *lab, const char *f, const char *v, wb_args *a, char *err, size_t errlen)
{
    if (!strcmp(f, "--finish"))
        return parse_finish(lab, v, a, err, errlen);
    if (!strcmp(f, "--type"))
        return parse_type_values(lab, f, v, a, err, errlen);
    if (!strcmp(f, "-b")) {
        if (!lab->uses_block) {
            fail(err, errlen, "-b: %s runs on the CPU and has no thread blocks; leave -b out", lab->lab);
            return WB_EXIT_USAGE;
        }
        return parse_block(lab, v, a, err, errlen);
    }
    if (!strcmp(f, "--seed")) {
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
        return 0;
    }
    /* -n */
    if (lab->shape == WB_LENGTH) {
        long long n;
        int r = wb_parse_count(v, lab->max_n, &n);
        if (r == -1) {
            fail(err, errlen, "-n: '%s' is not a length; give a whole number from 1 to %lld, "
                              "optionally with K, M or G (16M = 16*2^20) or as 2^k", v, lab->max_n);
            return WB_EXIT_USAGE;
        }
        if (r == -2) {
            fail(err, errlen, "-n: '%s' is larger than %lld, the most %s accepts (%s)", v, lab->max_n,
                 lab->lab, lab->max_n_reason ? lab->max_n_reason : "its limit");
            return WB_EXIT_USAGE;
        }
        a->n = n;
    } else if (strchr(v, 'x') || strchr(v, 'X')) { /* matrix: NXxNY or N for a square */
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
    a->n_given = 1;
    return 0;
}

/* The list of option f in a, as its count. */
static int *list_count(wb_args *a, const char *f)
{
    return !strcmp(f, "-n") ? &a->n_count : !strcmp(f, "-b") ? &a->block_count
         : !strcmp(f, "--type") ? &a->type_count : !strcmp(f, "--finish") ? &a->finish_count
         : &a->seed_count;
}

/* Append a's value of option f (just parsed) to f's list. */
static void list_push(wb_args *a, const char *f)
{
    int *count = list_count(a, f), i = (*count)++;
    if (!strcmp(f, "-n")) {
        a->n_list[i] = a->n;
        a->nx_list[i] = a->nx;
        a->ny_list[i] = a->ny;
    } else if (!strcmp(f, "-b")) {
        a->bx_list[i] = a->block_x;
        a->by_list[i] = a->block_y;
    } else if (!strcmp(f, "--type")) {
        a->type_list[i] = a->type;
    } else if (!strcmp(f, "--finish")) {
        a->finish_list[i] = a->finish_device;
    } else {
        a->seed_list[i] = a->seed;
    }
}

/* -n, -b, --type, --finish, --seed: one value, or with --check a comma list
 * of them (each item checked as the one value is; the option given again
 * starts its list anew, as one value replaces the one before). */
static int parse_list(const wb_lab *lab, const char *f, const char *v, wb_args *a, char *err, size_t errlen)
{
    const char *p = v;
    if (v && strchr(v, ',') && !a->check) {
        fail(err, errlen, "%s: '%s' is a list; lists are for --check (every kernel on every combination, "
                          "untimed); give one value, or add --check", f, v);
        return WB_EXIT_USAGE;
    }
    *list_count(a, f) = 0;
    if (!v)
        return parse_value(lab, f, v, a, err, errlen); /* --finish says what it needs */
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item) {
            fail(err, errlen, "%s: %s item in '%s'; give values separated by commas, e.g. %s", f,
                 len ? "a too long" : "an empty", v,
                 !strcmp(f, "-b") ? (lab->shape == WB_MATRIX ? "-b 32x8,16x16" : "-b 32,256,1024")
                 : !strcmp(f, "-n") ? (lab->shape == WB_MATRIX ? "-n 1x1,33x17" : "-n 1,33,1000003")
                 : !strcmp(f, "--type") ? "--type int,float" : !strcmp(f, "--finish") ? "--finish host,device"
                 : "--seed 1,2");
            return WB_EXIT_USAGE;
        }
        if (*list_count(a, f) >= WB_MAX_LIST) {
            fail(err, errlen, "%s: more than %d items in one list; split the check into several runs", f,
                 WB_MAX_LIST);
            return WB_EXIT_USAGE;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (parse_value(lab, f, item, a, err, errlen))
            return WB_EXIT_USAGE;
        list_push(a, f);
        if (!end)
            return 0;
        p = end + 1;
    }
}

/* After the options: every list holds at least the run's one value, and the
 * single fields hold each list's first item (what a run without --check uses). */
static int finish_lists(const wb_lab *lab, wb_args *a, char *err, size_t errlen)
{
    int i;
    if (a->n_count == 1 && lab->shape == WB_MATRIX) { /* --nx/--ny after -n change the one shape */
        a->nx_list[0] = a->nx;
        a->ny_list[0] = a->ny;
    }
    if (a->n_count == 0) {
        a->n_list[0] = a->n;
        a->nx_list[0] = a->nx;
        a->ny_list[0] = a->ny;
        a->n_count = 1;
    }
    if (a->block_count == 0) {
        a->bx_list[0] = a->block_x;
        a->by_list[0] = a->block_y;
        a->block_count = 1;
    }
    if (a->type_count == 0) {
        a->type_list[0] = a->type;
        a->type_count = 1;
    }
    if (a->finish_count == 0) {
        a->finish_list[0] = a->finish_device;
        a->finish_count = 1;
    }
    if (a->seed_count == 0) {
        a->seed_list[0] = a->seed;
        a->seed_count = 1;
    }
    for (i = 0; i < a->n_count; ++i) {
        if (lab->shape == WB_MATRIX)
            a->n_list[i] = (long long)a->nx_list[i] * a->ny_list[i];
        if (lab->shape == WB_MATRIX && a->n_list[i] > WB_INT_MAX) {
            fail(err, errlen, "-n: %dx%d has %lld elements; %s takes at most %lld (int indices)",
                 a->nx_list[i], a->ny_list[i], a->n_list[i], lab->lab, WB_INT_MAX);
            return WB_EXIT_USAGE;
        }
    }
    a->n = a->n_list[0];
    a->nx = a->nx_list[0];
    a->ny = a->ny_list[0];
    a->block_x = a->bx_list[0];
    a->block_y = a->by_list[0];
    a->finish_device = a->finish_list[0];
    a->seed = a->seed_list[0];
    for (i = 0; i < a->type_count; ++i) { /* --values and --exercises hold for every type */
        a->type = a->type_list[i];
        if (check_type_values(lab, a, err, errlen))
            return WB_EXIT_USAGE;
    }
    a->type = a->type_list[0];
    return 0;
}

int wb_parse_args(const wb_lab *lab, int argc, char **argv, wb_args *a, char *err, size_t errlen)
{
    int i, csv = 0, json = 0;
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
    for (i = 1; i < argc; ++i) /* --check first: it lets the options below take lists */
        if (!strcmp(argv[i], "--check"))
            a->check = 1;

    for (i = 1; i < argc; ++i) {
        const char *f = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = !strcmp(f, "-n") || !strcmp(f, "--nx") || !strcmp(f, "--ny") ||
                          !strcmp(f, "-b") || !strcmp(f, "-k") || !strcmp(f, "-r") ||
                          !strcmp(f, "--seed") || !strcmp(f, "--type") || !strcmp(f, "--values");
        if (!strcmp(f, "--finish")) {
            if (parse_list(lab, f, v, a, err, errlen))
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
        } else if (!strcmp(f, "--check")) {
            a->check = 1;
        } else if (!strcmp(f, "--explain")) {
            a->explain = 1;
        } else if (!strcmp(f, "--exercises") && lab->exercises.count > 0) {
            a->exercises = 1;
        } else if (lab->extra_flag && !strcmp(f, lab->extra_flag)) {
            a->extra = 1;
        } else if (!strcmp(f, "-n") || !strcmp(f, "-b") || !strcmp(f, "--seed") || !strcmp(f, "--type")) {
            if (parse_list(lab, f, v, a, err, errlen))
                return WB_EXIT_USAGE;
            ++i;
        } else if ((!strcmp(f, "--nx") || !strcmp(f, "--ny")) && lab->shape == WB_MATRIX) {
            int *side = f[3] == 'x' ? &a->nx : &a->ny;
            if (a->n_count > 1) {
                fail(err, errlen, "%s: -n gave a list of shapes; give each shape in the list (NXxNY) "
                                  "and leave %s out", f, f);
                return WB_EXIT_USAGE;
            }
            if (parse_matrix_side(f, v, side, err, errlen))
                return WB_EXIT_USAGE;
            a->n_given = 1;
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
        } else if (!strcmp(f, "--values")) {
            if (parse_type_values(lab, f, v, a, err, errlen))
                return WB_EXIT_USAGE;
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
    if (a->check && (json || a->explain || a->extra)) {
        fail(err, errlen, "--check writes its own CSV of verdicts and times nothing; leave out %s",
             json ? "--json" : a->explain ? "--explain" : lab->extra_flag);
        return WB_EXIT_USAGE;
    }
    if (a->check)
        a->format = WB_CSV;
    if (a->exercises && !a->n_given) { /* the size at which every exercise's bug shows */
        if (lab->shape == WB_LENGTH && lab->exercise_n > 0)
            a->n = lab->exercise_n;
        else if (lab->shape == WB_MATRIX && lab->exercise_nx > 0) {
            a->nx = lab->exercise_nx;
            a->ny = lab->exercise_ny;
        }
    }
    if (lab->shape == WB_MATRIX)
        a->n = (long long)a->nx * a->ny;
    return finish_lists(lab, a, err, errlen);
}

void wb_print_usage(const wb_lab *lab, FILE *f)
{
    fprintf(f, "%s - %s\n\n", lab->lab, lab->title);
    if (lab->shape == WB_LENGTH)
        fprintf(f, "usage: ./%s [-n N]%s [-k NAME[,NAME...]] [-r REPS] [--seed S] [--csv | --json]\n"
                   "       [--explain]%s%s%s%s%s%s [--list] [-h]\n\n",
                lab->lab, lab->uses_block ? " [-b THREADS]" : "",
                lab->types & ~WB_TYPE_BIT(WB_INT) ? " [--type T] [--values V]" : "",
                lab->exercises.count > 0 ? " [--exercises]" : "", lab->extra_flag ? " [" : "",
                lab->extra_flag ? lab->extra_flag : "", lab->extra_flag ? "]" : "",
                lab->device_finish ? " [--finish F]" : "");
    else
        fprintf(f, "usage: ./%s [-n NXxNY | --nx NX --ny NY] [-b WxH] [-k NAME[,NAME...]] [-r REPS]\n"
                   "       [--seed S] [--csv | --json] [--explain]%s%s%s%s [--list] [-h]\n\n",
                lab->lab, lab->exercises.count > 0 ? " [--exercises]" : "", lab->extra_flag ? " [" : "",
                lab->extra_flag ? lab->extra_flag : "", lab->extra_flag ? "]" : "");
    if (lab->shape == WB_LENGTH)
        fprintf(f, "  -n N          elements to reduce (default %lld, at most %lld);\n"
                   "                16M = 16*2^20, 1G and 2^24 work too\n", lab->default_n, lab->max_n);
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
    {
        char text[320];
        snprintf(text, sizeof text,
                 "correctness only, untimed: every kernel on every combination of %s%s%s%s given as "
                 "comma lists (%s); one CSV row per kernel and combination (docs/output.md)",
                 lab->uses_block ? "-n, -b, " : "-n, ", lab->types & ~WB_TYPE_BIT(WB_INT) ? "--type, " : "",
                 lab->device_finish ? "--finish, " : "", "--seed",
                 lab->shape == WB_MATRIX ? "-n 1x1,33x17 -b 32x8,16x16"
                 : lab->uses_block       ? "-n 1,33,1000003 -b 32,1024"
                                         : "-n 1,17,1000003");
        wb_print_wrapped(f, "  --check       ", 16, text);
    }
    if (lab->exercises.count > 0) {
        char text[256];
        snprintf(text, sizeof text, "run your exercises (%s) beside the kernels they are measured "
                                    "against; without -n at %s, where every bug shows",
                 lab->exercise_file, lab->shape == WB_LENGTH ? "n = 16777213 (2^24 - 3)" : "a rectangle");
        wb_print_wrapped(f, "  --exercises   ", 16, text);
    }
    if (lab->types & ~WB_TYPE_BIT(WB_INT)) {
        char names[64];
        type_names(lab, names, sizeof names);
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
    if (lab->device_finish)
        fprintf(f, "  --finish F    how the total reaches one number: host (default), the host adds the\n"
                   "                partial sums; device, the kernel relaunched on them until one remains\n");
    fprintf(f, "  --list        name every kernel with what it shows\n"
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
long long wb_exact_value_max(wb_type t, long long n)
{
    /* the largest integer the type holds with every smaller one exact */
    long long limit = t == WB_FLOAT ? 1LL << 24 : t == WB_DOUBLE ? 1LL << 53 : WB_INT_MAX, v;
    if (n < 1 || n > limit)
        return 0;
    v = limit / n;
    return v < 255 ? v : 255;
}

int wb_int_value_max(long long n)
{
    return (int)wb_exact_value_max(WB_INT, n);
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

/* float and double: the exact and the uniform input, their exact sums and
 * the error bounds (contracts in workbook.h). The 128-bit integers are gcc's
 * __int128, kept inside this file. */
int wb_uniform_step_bits(wb_type t)
{
    return t == WB_FLOAT ? 24 : t == WB_DOUBLE ? 52 : 0;
}

/* Value i of the input of type t (float or double) as a double: an integer
 * in [0, vmax] (exact; float above 2^24 has none: uniform), or k * 2^-step
 * with k uniform in [-2^step, 2^step). */
static double next_value(unsigned long long *state, wb_type t, long long vmax, wb_values v)
{
    unsigned long long r = splitmix64(state);
    int step = wb_uniform_step_bits(t);
    if (v == WB_VALUES_EXACT && vmax > 0)
        return (double)((r >> 32) % (unsigned long long)(vmax + 1));
    return ldexp((double)((long long)(r >> (63 - step)) - (1LL << step)), -step);
}

void wb_fill_float_values(float *a, size_t n, wb_values v, unsigned long long seed)
{
    unsigned long long state = seed;
    long long vmax = wb_exact_value_max(WB_FLOAT, (long long)n);
    size_t i;
    for (i = 0; i < n; ++i)
        a[i] = (float)next_value(&state, WB_FLOAT, vmax, v); /* exact: 24 bits at most */
}

void wb_fill_double_values(double *a, size_t n, wb_values v, unsigned long long seed)
{
    unsigned long long state = seed;
    long long vmax = wb_exact_value_max(WB_DOUBLE, (long long)n);
    size_t i;
    for (i = 0; i < n; ++i)
        a[i] = next_value(&state, WB_DOUBLE, vmax, v);
}

static wb_exact exact_pack(__int128 sum, __int128 abs_sum, int step_bits)
{
    wb_exact e;
    e.hi = (long long)(sum >> 64);
    e.lo = (unsigned long long)sum;
    e.step_bits = step_bits;
    e.abs_sum = ldexp((double)abs_sum, -step_bits);
    return e;
}

static __int128 exact_unpack(const wb_exact *e)
{
    return (__int128)(((unsigned __int128)(unsigned long long)e->hi << 64) | e->lo);
}

/* x * 2^step_bits as an integer (x on that grid; truncated otherwise) */
static __int128 on_grid(double x, int step_bits)
{
    return (__int128)ldexp(x, step_bits);
}

/* The exact sum of n floats (is_float) or doubles at a */
static wb_exact exact_sum(const void *a, size_t n, int is_float, int step_bits)
{
    __int128 s = 0, abs_s = 0, k;
    size_t i;
    for (i = 0; i < n; ++i) {
        k = on_grid(is_float ? ((const float *)a)[i] : ((const double *)a)[i], step_bits);
        s += k;
        abs_s += k < 0 ? -k : k;
    }
    return exact_pack(s, abs_s, step_bits);
}

wb_exact wb_exact_sum_floats(const float *a, size_t n, int step_bits)
{
    return exact_sum(a, n, 1, step_bits);
}

wb_exact wb_exact_sum_doubles(const double *a, size_t n, int step_bits)
{
    return exact_sum(a, n, 0, step_bits);
}

double wb_exact_value(const wb_exact *e)
{
    return ldexp((double)exact_unpack(e), -e->step_bits);
}

double wb_exact_error(const wb_exact *e, double got)
{
    __int128 d;
    if (!isfinite(got) || fabs(ldexp(got, e->step_bits)) >= ldexp(1.0, 120))
        return INFINITY; /* no sum of the labs' inputs comes near 2^120 */
    d = on_grid(got, e->step_bits) - exact_unpack(e);
    return ldexp((double)(d < 0 ? -d : d), -e->step_bits);
}

double wb_unit_roundoff(wb_type t)
{
    return t == WB_FLOAT ? ldexp(1.0, -24) : t == WB_DOUBLE ? ldexp(1.0, -53) : 0.0;
}

int wb_ceil_log2(long long n)
{
    int d = 0;
    while (d < 62 && (1LL << d) < n)
        ++d;
    return d;
}

double wb_error_bound(wb_type t, long long leaf_len, int depth, double abs_sum)
{
    double ku = (double)((leaf_len > 0 ? leaf_len - 1 : 0) + depth) * wb_unit_roundoff(t);
    return ku < 1.0 ? ku / (1.0 - ku) * abs_sum : -1.0;
}

double wb_error_tolerance(wb_type t, long long leaf_len, int depth, double abs_sum)
{
    double k = (double)((leaf_len > 0 ? leaf_len - 1 : 0) + depth);
    return sqrt(k) * wb_unit_roundoff(t) * abs_sum;
}

void wb_judge_bound(wb_row *row, wb_type t, long long leaf_len, int depth, double abs_sum, double error,
                    const char *prefix, const char *suffix)
{
    double bound = wb_error_bound(t, leaf_len, depth, abs_sum);
    row->has_bound = 1;
    row->error = error;
    row->no_bound = bound < 0;
    row->bound = row->no_bound ? wb_error_tolerance(t, leaf_len, depth, abs_sum) : bound;
    row->pass = error <= row->bound;
    snprintf(row->check, sizeof row->check, "%serror %.2e %s %s %.2e%s%s", prefix ? prefix : "", error,
             row->pass ? "<=" : ">", row->no_bound ? "tol" : "bound", row->bound,
             row->no_bound ? " (no bound)" : "", suffix ? suffix : "");
}

/* ------------------------------------------------------------------------ */
/* Report                                                                    */
/* ------------------------------------------------------------------------ */
const char *const wb_csv_header =
    "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,"
    "pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build,run_at,"
    "fingerprint,finish,error,bound,status";

static void grid_csv(char *buf, size_t len, unsigned x, unsigned y);

int wb_cpu_todo;

/* ------------------------------------------------------------------------ */
/* --check                                                                   */
/* ------------------------------------------------------------------------ */
const char *const wb_check_header = "lab,kernel,role,size,block,grid,type,values,finish,seed,status,check";

int wb_is_library(const char *kernel) { return !strncmp(kernel, "cub::", 5); }

void wb_check_cfg_of(wb_check_cfg *c, const wb_lab *lab, const wb_args *a, int ni, int bi, int ti, int fi,
                     int si)
{
    memset(c, 0, sizeof *c);
    if (lab->shape == WB_MATRIX)
        snprintf(c->size, sizeof c->size, "%dx%d", a->nx_list[ni], a->ny_list[ni]);
    else
        snprintf(c->size, sizeof c->size, "%lld", a->n_list[ni]);
    if (lab->uses_block && lab->shape == WB_MATRIX)
        snprintf(c->block, sizeof c->block, "%dx%d", a->bx_list[bi], a->by_list[bi]);
    else if (lab->uses_block)
        snprintf(c->block, sizeof c->block, "%d", a->bx_list[bi]);
    c->type = a->type_list[ti];
    c->values = a->values;
    c->finish = lab->device_finish ? (a->finish_list[fi] ? "device" : "host") : NULL;
    c->seed = a->seed_list[si];
}

void wb_check_begin(wb_checker *c, const char *lab, FILE *out)
{
    memset(c, 0, sizeof *c);
    c->lab = lab;
    c->t0 = wb_now_ms();
    fprintf(out, "%s\n", wb_check_header);
    fflush(out);
}

void wb_check_add(wb_checker *c, const wb_row *row, const wb_check_cfg *cfg, FILE *out)
{
    char check[sizeof row->check], grid[32];
    size_t i;
    for (i = 0; row->check[i] && i + 1 < sizeof check; ++i) /* the last column, without commas */
        check[i] = row->check[i] == ',' ? ';' : row->check[i] == '\n' ? ' ' : row->check[i];
    check[i] = '\0';
    if (row->grid_x > 0)
        grid_csv(grid, sizeof grid, row->grid_x, row->grid_y);
    else
        snprintf(grid, sizeof grid, "%s", row->block_x ? "0" : ""); /* a library's own grid; the CPU */
    fprintf(out, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%llu,%s,%s\n", c->lab, row->kernel, row->role ? row->role : "kernel",
            cfg->size, cfg->block, grid, wb_type_name(cfg->type), cfg->values == WB_VALUES_UNIFORM ? "uniform" : "exact",
            cfg->finish ? cfg->finish : "", cfg->seed, row->todo ? "todo" : row->pass ? "PASS" : "FAIL", check);
    fflush(out);
    ++c->rows;
    if (row->todo)
        ++c->todo;
    else if (row->pass)
        ++c->passed;
    else
        ++c->failed;
}

int wb_check_run(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows,
                 int type, const wb_check_steps *s, void *ctx)
{
    wb_checker ck;
    int ti, si, ni, fi, bi, i;
    wb_check_begin(&ck, lab->lab, stdout);
    for (ti = 0; ti < a->type_count; ++ti)
        for (si = 0; si < a->seed_count; ++si)
            for (ni = 0; ni < a->n_count; ++ni) {
                s->open(ctx, a, ti, si, ni);
                for (fi = 0; fi < a->finish_count; ++fi)
                    for (bi = 0; bi < a->block_count; ++bi) {
                        wb_check_cfg cfg;
                        wb_check_cfg_of(&cfg, lab, a, ni, bi, ti, fi, si);
                        if (type >= 0)
                            cfg.type = (wb_type)type;
                        for (i = 0; i < nrows; ++i) {
                            wb_row row;
                            if (bi > 0 && wb_is_library(order[i]->name)) /* it ignores -b */
                                continue;
                            s->row(ctx, a, order[i], fi, bi, &row);
                            wb_check_add(&ck, &row, &cfg, stdout);
                        }
                    }
                s->close(ctx);
            }
    return wb_check_end(&ck, stderr);
}

int wb_check_end(const wb_checker *c, FILE *err)
{
    fprintf(err, "%s --check: %d rows, %d PASS, %d FAIL, %d todo (%.1f s)\n", c->lab, c->rows, c->passed,
            c->failed, c->todo, (wb_now_ms() - c->t0) / 1000.0);
    return c->failed ? WB_EXIT_WRONG : WB_EXIT_OK;
}

void wb_utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm utc;
    if (!gmtime_r(&now, &utc) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &utc))
        snprintf(buf, len, "1970-01-01T00:00:00Z");
}

void wb_row_init(wb_row *row, const wb_kernel_info *info, long long n, double bytes)
{
    memset(row, 0, sizeof *row);
    row->kernel = info->name;
    row->role = info->kind;
    row->against = info->against;
    row->n = n;
    row->bytes = bytes;
    row->total_ms = -1;
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
    /* only the table prints the count: no verifying for --csv, --json, --check */
    if (a->exercises || count == 0 || a->format != WB_TABLE_OUT || a->check)
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

void wb_versus_library(char *buf, size_t len, double ours, double lib)
{
    double ratio = ours > 0 ? lib / ours : 0;
    if (ratio >= 0.99 && ratio <= 1.01)
        snprintf(buf, len, "level with the library (within 1%%)");
    else if (ratio > 1)
        snprintf(buf, len, "%.2fx faster than the library", ratio);
    else
        snprintf(buf, len, "the library is %.2fx faster", ratio > 0 ? 1 / ratio : 0);
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

/* ---- text that fits WB_WIDTH columns ------------------------------------ */

/* Inside a text for print_wrapped, GLUE is a blank the wrap may not break
 * at (it prints as ' '): "93.2% of the theoretical 3352 GB/s" stays whole. */
#define GLUE '\x1f'

/* wb_print_wrapped with the first line's column already at `col`. */
static void print_wrapped_at(FILE *out, int col, int indent, const char *text)
{
    const char *p = text;
    int at_start = 1; /* nothing of text on this line yet */
    while (*p) {
        const char *gap = p, *word;
        size_t gaplen, wordlen, i;
        while (*p == ' ')
            ++p;
        gaplen = (size_t)(p - gap);
        if (*p == '\n') {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            at_start = 1;
            ++p;
            continue;
        }
        if (!*p)
            break;
        word = p;
        while (*p && *p != ' ' && *p != '\n')
            ++p;
        wordlen = (size_t)(p - word);
        if (!at_start && col + (int)(gaplen + wordlen) > WB_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            gaplen = 0;
        } else if (at_start)
            gaplen = gaplen > 0 && col > indent ? gaplen : 0;
        fprintf(out, "%*s", (int)gaplen, "");
        for (i = 0; i < wordlen; ++i)
            fputc(word[i] == GLUE ? ' ' : word[i], out);
        col += (int)(gaplen + wordlen);
        at_start = 0;
    }
    fputc('\n', out);
}

void wb_print_wrapped(FILE *out, const char *lead, int indent, const char *text)
{
    fputs(lead, out);
    print_wrapped_at(out, (int)strlen(lead), indent, text);
}

/* Append to buf (of len) the text s with its blanks turned into GLUE. */
static void append_glued(char *buf, size_t len, const char *s)
{
    size_t used = strlen(buf);
    for (; *s && used + 1 < len; ++s)
        buf[used++] = *s == ' ' ? GLUE : *s;
    buf[used] = '\0';
}

/* A banner line: the label in 9 columns, the text wrapped under itself. */
static void print_banner(FILE *out, const char *label, const char *text)
{
    char lead[16];
    snprintf(lead, sizeof lead, "%-8s ", label);
    wb_print_wrapped(out, lead, 9, text);
}

/* ---- the summary line --------------------------------------------------- */

/* The verdict line, its clauses joined by "; ", each clause kept whole on
 * one line when it can be. */
static void print_summary(const wb_report *r, FILE *out)
{
    int i, passed = 0, todo = 0, best = -1, run;
    char text[2048], clause[512];
    /* a sweep has a row per kernel and size: count runs, not kernels */
    const char *what;
    for (i = 0; i < r->nrows; ++i) {
        if (r->rows[i].pass)
            ++passed;
        if (r->rows[i].todo)
            ++todo;
        if (r->rows[i].pass && (best < 0 || r->rows[i].gbps > r->rows[best].gbps))
            best = i;
    }
    what = rows_share_n(r) ? "kernels" : "kernel runs";
    run = r->nrows - todo;
    text[0] = '\0';
    if (passed == run) {
        snprintf(clause, sizeof clause, "PASS - %d of %d %s verified", passed, run, what);
        append_glued(text, sizeof text, clause);
    } else {
        size_t used;
        snprintf(clause, sizeof clause, "FAIL - %d of %d %s gave a wrong result:", run - passed, run, what);
        append_glued(text, sizeof text, clause);
        for (i = 0; i < r->nrows; ++i) /* the names may wrap */
            if (!r->rows[i].pass && !r->rows[i].todo) {
                used = strlen(text);
                snprintf(text + used, sizeof text - used, " %s", r->rows[i].kernel);
            }
    }
    if (todo > 0) {
        snprintf(clause, sizeof clause, "; %d exercise%s todo", todo, todo > 1 ? "s" : "");
        append_glued(text, sizeof text, clause);
    }
    if (best >= 0) {
        const wb_row *b = &r->rows[best];
        snprintf(clause, sizeof clause, "fastest %s: %.*f GB/s (%.1f%% of copy)", b->kernel,
                 b->gbps < 99.95 ? 1 : 0, b->gbps, b->pct_of_copy);
        strncat(text, "; ", sizeof text - strlen(text) - 1);
        append_glued(text, sizeof text, clause);
    }
    fprintf(out, "%s: ", r->lab);
    print_wrapped_at(out, (int)strlen(r->lab) + 2, 2, text);
}

void wb_print_exercise_line(const wb_report *r, FILE *out)
{
    char text[512];
    size_t used;
    if (r->ex_total <= 0)
        return;
    used = (size_t)snprintf(text, sizeof text, "%d of %d done", r->ex_done, r->ex_total);
    if (r->ex_todo > 0 && used < sizeof text)
        used += (size_t)snprintf(text + used, sizeof text - used, ", %d todo", r->ex_todo);
    if (r->ex_total - r->ex_done - r->ex_todo > 0 && used < sizeof text)
        used += (size_t)snprintf(text + used, sizeof text - used, ", %d failing",
                                 r->ex_total - r->ex_done - r->ex_todo);
    if (used < sizeof text)
        snprintf(text + used, sizeof text - used, " (%s; run ./%s --exercises)", r->ex_file, r->lab);
    wb_print_wrapped(out, "exercises: ", 2, text);
}

/* ---- the table ---------------------------------------------------------- */

/* The table's columns. The block (and the grid) leave the table for the
 * banner when every row has the same one; lab01 (no grid) shows neither. */
enum { COL_KERNEL, COL_GRID, COL_BLOCK, COL_TIME, COL_IQR, COL_GBPS, COL_PCT, COL_BAR,
       COL_SPEEDUP, COL_TOTAL, COL_CHECK, NCOLS };
static const char *const col_head[NCOLS] = {"kernel", "grid", "block", "time ms", "+-iqr", "GB/s",
                                            "% copy", "", "speedup", "total ms", "check"};
static const int col_left[NCOLS] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1};
/* what goes, in this order, when even one blank between columns is too wide */
static const int drop_order[] = {COL_IQR, COL_GRID};
#define NDROP ((int)(sizeof drop_order / sizeof drop_order[0]))

typedef struct {
    char cell[NCOLS][40];
    const char *text[NCOLS]; /* cell[], or the kernel's own name */
} table_row;

/* Milliseconds in 7 characters up to 10^7 ms: four decimals below 100 ms
 * (the figures of every default run), two below 10^4, then none. */
static void ms_text(char *buf, size_t len, double ms)
{
    snprintf(buf, len, "%.*f", ms < 99.99995 ? 4 : ms < 9999.995 ? 2 : 0, ms);
}

/* A percentage in at most 6 characters below 10^5 %. (GB/s: one decimal
 * below 100, where it still tells kernels apart.) */
static void pct_text(char *buf, size_t len, double pct)
{
    snprintf(buf, len, pct < 999.95 ? "%.1f%%" : "%.0f%%", pct);
}

static void row_cells(const wb_row *w, table_row *t)
{
    int c;
    for (c = 0; c < NCOLS; ++c) {
        snprintf(t->cell[c], sizeof t->cell[c], "-");
        t->text[c] = t->cell[c];
    }
    t->text[COL_KERNEL] = w->kernel;
    grid_text(t->cell[COL_GRID], sizeof t->cell[0], w->grid_x, w->grid_y);
    grid_text(t->cell[COL_BLOCK], sizeof t->cell[0], w->block_x, w->block_y);
    snprintf(t->cell[COL_CHECK], sizeof t->cell[0], "%s", status_text(w));
    if (w->todo) { /* not run: no figures to show (the verdict line says why) */
        t->cell[COL_BAR][0] = '\0';
        return;
    }
    ms_text(t->cell[COL_TIME], sizeof t->cell[0], w->time.median);
    pct_text(t->cell[COL_IQR], sizeof t->cell[0], w->spread_pct);
    snprintf(t->cell[COL_GBPS], sizeof t->cell[0], w->gbps < 99.95 ? "%.1f" : "%.0f", w->gbps);
    pct_text(t->cell[COL_PCT], sizeof t->cell[0], w->pct_of_copy);
    wb_bar(w->pct_of_copy, WB_BAR_WIDTH, t->cell[COL_BAR]);
    snprintf(t->cell[COL_SPEEDUP], sizeof t->cell[0],
             w->speedup < 9.995 ? "%.2fx" : w->speedup < 99.95 ? "%.1fx" : "%.0fx", w->speedup);
    if (w->total_ms >= 0)
        ms_text(t->cell[COL_TOTAL], sizeof t->cell[0], w->total_ms);
}

static void print_cells(FILE *out, const int *show, const int *width, const int *sep,
                        const char *const *text)
{
    int c, first = 1, last = NCOLS - 1;
    while (last > 0 && !show[last])
        --last;
    for (c = 0; c < NCOLS; ++c) {
        if (!show[c])
            continue;
        if (!first)
            fprintf(out, "%*s", sep[c], "");
        if (c == last && col_left[c])
            fputs(text[c], out); /* no trailing blanks */
        else
            fprintf(out, col_left[c] ? "%-*s" : "%*s", width[c], text[c]);
        first = 0;
    }
    fputc('\n', out);
}

/* The text of column c if it is the same on every row, else NULL. */
static const char *same_on_every_row(const wb_report *r, int c, char *buf, size_t len)
{
    table_row t;
    int i;
    for (i = 0; i < r->nrows; ++i) {
        row_cells(&r->rows[i], &t);
        if (i == 0)
            snprintf(buf, len, "%s", t.text[c]);
        else if (strcmp(buf, t.text[c]) != 0)
            return NULL;
    }
    return r->nrows > 0 ? buf : NULL;
}

/* "64.0 MiB" or "4.0 KiB" */
static void bytes_text(char *buf, size_t len, double bytes)
{
    if (bytes < 1048576.0)
        snprintf(buf, len, "%.1f KiB", bytes / 1024.0);
    else
        snprintf(buf, len, "%.1f MiB", bytes / 1048576.0);
}

/* Under the table: the error and the bound of each bound-checked row that
 * passed (a failed row's check line says them already). */
static void print_bound_lines(const wb_report *r, FILE *out)
{
    int i, same = 0, differ = 0, runs = 0;
    for (i = 0; i < r->nrows; ++i)
        if (r->rows[i].has_bound && r->rows[i].pass) {
            char lead[64];
            snprintf(lead, sizeof lead, "  %s: ", r->rows[i].kernel);
            wb_print_wrapped(out, lead, 4, r->rows[i].check);
        }
    /* run to run: a float sum whose order of additions changes between runs
     * changes its bits (an int sum never does) */
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        if (!w->has_bound || w->runs < 2)
            continue;
        if (w->distinct > 1) {
            fprintf(out, "  %s: %d different sums in %d runs on the same input\n", w->kernel, w->distinct,
                    w->runs);
            ++differ;
        } else {
            ++same;
            runs = w->runs;
        }
    }
    if (same > 0)
        fprintf(out, "  %s gave the same bits in all its runs (%d)\n",
                differ ? "every other kernel" : "every kernel", runs);
}

/* A row's error and bound for CSV (empty for an exact check) */
static void error_bound_csv(char *buf, size_t len, const wb_row *w)
{
    if (w->has_bound && !w->todo)
        snprintf(buf, len, "%.3e,%.3e", w->error, w->bound); /* an infinite error prints inf */
    else
        snprintf(buf, len, ",");
}

static void print_table(const wb_report *r, FILE *out)
{
    int i, c, show_n = !rows_share_n(r), has_grid = 0, has_block = 0;
    int show[NCOLS], width[NCOLS], sep[NCOLS];
    char line[512], same_grid[40], same_block[40], sz[64], mib[32], left_out[160] = "";
    const char *grid_all, *block_all;
    table_row t;

    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        has_grid |= w->grid_x > 0;
        has_block |= w->block_x > 0;
    }
    for (c = 0; c < NCOLS; ++c)
        show[c] = 1;
    show[COL_TOTAL] = 0;
    for (i = 0; i < r->nrows; ++i)
        if (r->rows[i].total_ms >= 0)
            show[COL_TOTAL] = 1;
    grid_all = has_grid ? same_on_every_row(r, COL_GRID, same_grid, sizeof same_grid)
                        : NULL;
    block_all = has_block ? same_on_every_row(r, COL_BLOCK, same_block, sizeof same_block)
                          : NULL;
    show[COL_GRID] = has_grid && !grid_all;
    show[COL_BLOCK] = has_block && !block_all;

    /* the columns: as wide as their widest cell; two blanks apart, one
     * inside a pair (grid block, time +-iqr, % copy and its bar), one
     * everywhere when two do not fit */
    for (c = 0; c < NCOLS; ++c) {
        width[c] = (int)strlen(col_head[c]);
        sep[c] = c == COL_BAR || c == COL_IQR || (c == COL_BLOCK && show[COL_GRID]) ? 1 : 2;
    }
    width[COL_BAR] = WB_BAR_WIDTH;
    for (i = 0; i < r->nrows; ++i) {
        row_cells(&r->rows[i], &t);
        for (c = 0; c < NCOLS; ++c)
            if ((int)strlen(t.text[c]) > width[c])
                width[c] = (int)strlen(t.text[c]);
    }
    for (i = 0, c = 0; c < NCOLS; ++c)
        i += show[c] ? width[c] + (c ? sep[c] : 0) : 0;
    if (i > WB_WIDTH)
        for (c = 0; c < NCOLS; ++c) {
            i -= show[c] && c && sep[c] > 1 ? sep[c] - 1 : 0;
            sep[c] = 1;
        }
    for (c = 0; c < NDROP && i > WB_WIDTH; ++c) { /* still too wide: these go (the CSV has them) */
        if (!show[drop_order[c]])
            continue;
        show[drop_order[c]] = 0;
        i -= width[drop_order[c]] + 1;
        snprintf(left_out + strlen(left_out), sizeof left_out - strlen(left_out), "%s%s",
                 left_out[0] ? ", " : "", col_head[drop_order[c]]);
    }

    /* the banner */
    snprintf(line, sizeof line, "%s (%s)", r->device, r->device_detail);
    print_banner(out, "device", line);
    if (r->ceiling_gbps > 0) {
        snprintf(line, sizeof line, "%.0f GB/s: %s", r->ceiling_gbps, r->ceiling_what);
        if (r->peak_gbps > 0) {
            char peak[96];
            snprintf(peak, sizeof peak, "%.1f%% of the theoretical %.0f GB/s",
                     100.0 * r->ceiling_gbps / r->peak_gbps, r->peak_gbps);
            strncat(line, "; ", sizeof line - strlen(line) - 1);
            append_glued(line, sizeof line, peak);
        }
        print_banner(out, "ceiling", line);
    }
    if (r->build)
        print_banner(out, "build", r->build);
    if (r->nrows > 0 && !show_n) {
        size_text(sz, sizeof sz, &r->rows[0]);
        bytes_text(mib, sizeof mib, r->rows[0].bytes);
        snprintf(line, sizeof line, "n = %s (%s moved), median of %d repetitions%s", sz, mib, r->reps,
                 r->ceiling_gbps > 0 && r->rows[0].grid_x ? ", L2 flushed before each" : "");
        print_banner(out, "size", line);
    }
    if (grid_all) {
        snprintf(line, sizeof line, "%s blocks for every kernel", grid_all);
        print_banner(out, "grid", line);
    }
    if (block_all) {
        snprintf(line, sizeof line, "%s threads for every kernel", block_all);
        print_banner(out, "block", line);
    }
    if (r->timed)
        print_banner(out, "timed", r->timed);
    if (show[COL_SPEEDUP] && r->nrows > 0) {
        int ex = 0;
        for (i = 0; i < r->nrows; ++i)
            ex |= r->rows[i].role != NULL;
        snprintf(line, sizeof line, "each row's time against %s's%s%s%s%s", r->baseline ? r->baseline
                                                                                        : r->rows[0].kernel,
                 show_n ? " at the same n" : "", ex ? "; your exercises against the kernel beside them" : "",
                 r->speedup_note ? "; " : "", r->speedup_note ? r->speedup_note : "");
        print_banner(out, "speedup", line);
    }
    if (left_out[0]) {
        strncat(left_out, ": left out to fit the screen (--csv has every column)",
                sizeof left_out - strlen(left_out) - 1);
        print_banner(out, "columns", left_out);
    }
    if (show[COL_TOTAL] && r->total_what)
        print_banner(out, "total", r->total_what);
    fprintf(out, "\n");

    print_cells(out, show, width, sep, col_head);
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        if (show_n && (i == 0 || !same_size(w, &r->rows[i - 1]))) {
            /* a sweep: each size heads its rows, with its own ceiling */
            size_text(sz, sizeof sz, w);
            bytes_text(mib, sizeof mib, w->bytes);
            fprintf(out, "n = %s (%s moved), copy ceiling %.*f GB/s\n", sz, mib,
                    w->ceiling_gbps < 99.95 ? 1 : 0, w->ceiling_gbps);
        }
        row_cells(w, &t);
        print_cells(out, show, width, sep, t.text);
    }
    for (i = 0; i < r->nrows; ++i)
        if (!r->rows[i].pass && !r->rows[i].todo) {
            snprintf(line, sizeof line, "  %s: ", r->rows[i].kernel);
            wb_print_wrapped(out, line, 4, r->rows[i].check);
        }
    print_bound_lines(r, out);
    for (i = 0; i < r->nrows; ++i)
        if (r->rows[i].role) {
            snprintf(line, sizeof line, "  %s (%s it, against %s): ", r->rows[i].kernel, r->rows[i].role,
                     r->rows[i].against);
            wb_print_wrapped(out, line, 4,
                             r->rows[i].todo ? "todo: delete WB_TODO() and write it"
                             : r->rows[i].pass ? "PASS, speedup above" : "FAIL, see above");
        }
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
        char grid[32], block[32], eb[64];
        grid_csv(grid, sizeof grid, w->grid_x, w->grid_y);
        grid_csv(block, sizeof block, w->block_x, w->block_y);
        error_bound_csv(eb, sizeof eb, w);
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
        fprintf(out, "%.2f,%.2f,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", w->ceiling_gbps, r->peak_gbps, r->type,
                w->role ? w->role : "kernel", w->against ? w->against : "", r->build_id, r->run_at,
                r->fingerprint, finish_text(w) ? finish_text(w) : "", eb, status_text(w));
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
        if (w->has_bound && !w->todo && isfinite(w->error))
            fprintf(out, "\"error\": %.3e, \"bound\": %.3e, ", w->error, w->bound);
        else if (w->has_bound && !w->todo)
            fprintf(out, "\"error\": null, \"bound\": %.3e, ", w->bound);
        else
            fprintf(out, "\"error\": null, \"bound\": null, ");
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
