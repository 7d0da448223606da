/*
 * args.c - the one command line of every lab: -n -b -k -r --seed --type --values
 * --check (with its comma lists) --csv --json --explain --exercises --list
 * --dry-run --capabilities -h (refusing what the program does not offer), and the
 * lab's own flag and two-word choice (wb_lab.choice). C11, no CUDA.
 */
#define _POSIX_C_SOURCE 200809L
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message is one line of at most WB_WIDTH columns behind "LAB: " (the
 * longest lab name is lab05-finish): what was wrong, what is accepted, and
 * where the whole list is. What the user typed is quoted at most `w`
 * characters long (a longer one ends in "..."): SHOWN(p, len, w) gives the
 * arguments of "%.*s%s"; VALUE(v) for a value, NAMED(v) for a name. */
#define SHOWN(p, len, w) (int)((len) > (w) ? (w) - 3 : (len)), (p), (len) > (w) ? "..." : ""
#define VALUE(v) SHOWN(v, strlen(v), 13)
#define NAMED(v) SHOWN(v, strlen(v), 28)

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------ */
/* Argument parser                                                           */
/* ------------------------------------------------------------------------ */
#define WB_MAX_SIDE (1LL << 24) /* largest matrix side accepted */
#define WB_MAX_REPS 100000

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
        int k = wb_table_find(lab->kernels, p, len), e = wb_table_find(lab->exercises, p, len);
        if (k < 0 && e < 0) { /* the names are too many for one line: --list has them */
            if (len == 0)
                fail(err, errlen, "-k: an empty name in '%.*s%s' (./%s --list names them)", NAMED(list),
                     lab->lab);
            else
                fail(err, errlen, "-k: no kernel named '%.*s%s' (./%s --list names them)", SHOWN(p, len, 28),
                     lab->lab);
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
            fail(err, errlen, "-b: '%.*s%s' is not a block size; give a power of two from 32 to 1024",
                 VALUE(v));
            return WB_EXIT_USAGE;
        }
        a->block_x = (int)b;
        a->block_y = 1;
    } else {
        int x, y;
        if (wb_parse_pair(v, 1024, &x, &y) != 0 || !wb_is_pow2(x) || !wb_is_pow2(y) ||
            (long long)x * y < 32 || (long long)x * y > 1024) {
            fail(err, errlen, "-b: '%.*s%s' is not a block shape; give WxH, powers of two, 32 <= W*H <= 1024",
                 VALUE(v));
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
        fail(err, errlen, "%s: '%.*s%s' is not a matrix side; give 1 to %lld, e.g. 8192 or 8K", flag,
             VALUE(v), WB_MAX_SIDE);
        return WB_EXIT_USAGE;
    }
    *side = (int)s;
    return 0;
}

/* --type T and --values V (the lab's types; uniform needs float or double:
 * check_type_values, once every option is read). */
static int parse_type_values(const wb_lab *lab, const char *f, const char *v, wb_args *a, char *err,
                             size_t errlen)
{
    char names[64];
    int t;
    wb_type_names(lab->types, names, sizeof names);
    if (!strcmp(f, "--values")) {
        if (strcmp(v, "exact") && strcmp(v, "uniform")) {
            fail(err, errlen, "--values: '%.*s%s' is not an input; give exact (integers) or uniform "
                              "([-1, 1))", VALUE(v));
            return WB_EXIT_USAGE;
        }
        a->values = !strcmp(v, "uniform") ? WB_VALUES_UNIFORM : WB_VALUES_EXACT;
        return 0;
    }
    if (lab->shape == WB_MATRIX) { /* lab06 moves floats, lab05's matrix mode sums ints */
        fail(err, errlen, "--type: %s's matrix kernels have one element type; leave --type out", lab->lab);
        return WB_EXIT_USAGE;
    }
    for (t = 0; t < WB_NTYPES; ++t)
        if (!strcmp(v, wb_type_name((wb_type)t)))
            break;
    if (t == WB_NTYPES) {
        fail(err, errlen, "--type: '%.*s%s' is not an element type; give %s", VALUE(v), names);
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
        fail(err, errlen, "--values uniform draws from [-1, 1)%s",
             lab->types & WB_TYPE_BIT(WB_FLOAT) ? ": give --type float or --type double with it"
                                                 : " for float or double; this lab sums int only");
        return WB_EXIT_USAGE;
    }
    if (a->exercises && a->type != WB_INT) {
        fail(err, errlen, "--exercises: your exercises are int functions; run them without --type %s",
             wb_type_name(a->type));
        return WB_EXIT_USAGE;
    }
    return 0;
}

#define IS_CHOICE(lab, f) ((lab)->choice && !strcmp(f, (lab)->choice->flag)) /* wb_lab.choice's flag */

/* The lab's choice, one of its two words (v may be NULL: the flag was last). */
static int parse_choice(const wb_lab *lab, const char *v, wb_args *a, char *err, size_t errlen)
{
    const wb_choice *c = lab->choice;
    if (!v || (strcmp(v, c->word[0]) && strcmp(v, c->word[1]))) {
        if (v)
            fail(err, errlen, "%s: '%.*s%s' is not %s: give %s (the default) or %s (-h says more)", c->flag,
                 VALUE(v), c->what, c->word[0], c->word[1]);
        else
            fail(err, errlen, "%s needs a value: %s (the default) or %s (-h says more)", c->flag, c->word[0],
                 c->word[1]);
        return WB_EXIT_USAGE;
    }
    a->choice = !strcmp(v, c->word[1]);
    return 0;
}

/* One value of -n, -b, --seed, --type or the lab's choice (an item of a
 * --check list, or the option's one value) into a's single fields. */
static int parse_value(const wb_lab *lab, const char *f, const char *v, wb_args *a, char *err, size_t errlen)
{
    if (IS_CHOICE(lab, f))
        return parse_choice(lab, v, a, err, errlen);
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
            fail(err, errlen, "--seed: '%.*s%s' is not a seed; give a whole number from 0 to 2^64 - 1",
                 VALUE(v));
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
            fail(err, errlen, "-n: '%.*s%s' is not a length; give 1 to %lld, e.g. 1000, 16M or 2^24",
                 VALUE(v), lab->max_n);
            return WB_EXIT_USAGE;
        }
        if (r == -2) {
            fail(err, errlen, "-n: '%.*s%s' is more than %lld (%s)", VALUE(v), lab->max_n,
                 lab->max_n_reason ? lab->max_n_reason : "this lab's limit");
            return WB_EXIT_USAGE;
        }
        a->n = n;
    } else if (strchr(v, 'x') || strchr(v, 'X')) { /* matrix: NXxNY or N for a square */
        if (wb_parse_pair(v, WB_MAX_SIDE, &a->nx, &a->ny) != 0) {
            fail(err, errlen, "-n: '%.*s%s' is not a shape; give NXxNY, e.g. 8192x4096, sides 1 to %lld",
                 VALUE(v), WB_MAX_SIDE);
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

/* The list of option f in a, as its count (the lab's choice: none of the others). */
static int *list_count(wb_args *a, const char *f)
{
    return !strcmp(f, "-n") ? &a->n_count : !strcmp(f, "-b") ? &a->block_count
         : !strcmp(f, "--type") ? &a->type_count : !strcmp(f, "--seed") ? &a->seed_count
         : &a->choice_count;
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
    } else if (!strcmp(f, "--seed")) {
        a->seed_list[i] = a->seed;
    } else {
        a->choice_list[i] = a->choice;
    }
}

/* -n, -b, --type, --seed, the lab's choice: one value, or with --check a comma list
 * of them (each item checked as the one value is; the option given again
 * starts its list anew, as one value replaces the one before). */
static int parse_list(const wb_lab *lab, const char *f, const char *v, wb_args *a, char *err, size_t errlen)
{
    const char *p = v;
    if (v && strchr(v, ',') && !a->check) {
        fail(err, errlen, "%s: '%.*s%s' is a list; lists need --check (or give one value)", f, VALUE(v));
        return WB_EXIT_USAGE;
    }
    *list_count(a, f) = 0;
    if (!v)
        return parse_value(lab, f, v, a, err, errlen); /* the choice says what it needs */
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char *item;
        int r;
        if (len == 0) {
            fail(err, errlen, "%s: an empty item in '%.*s%s'; lists look like %s", f, VALUE(v),
                 !strcmp(f, "-b") ? (lab->shape == WB_MATRIX ? "-b 32x8,16x16" : "-b 32,256,1024")
                 : !strcmp(f, "-n") ? (lab->shape == WB_MATRIX ? "-n 1x1,33x17" : "-n 1,33,1000003")
                 : !strcmp(f, "--type") ? "--type int,float" : !strcmp(f, "--seed") ? "--seed 1,2"
                 : lab->choice->example);
            return WB_EXIT_USAGE;
        }
        if (*list_count(a, f) >= WB_MAX_LIST) {
            fail(err, errlen, "%s: more than %d items in one list; split the check into several runs", f,
                 WB_MAX_LIST);
            return WB_EXIT_USAGE;
        }
        item = (char *)malloc(len + 1); /* any length: the value's own check refuses it */
        if (!item) {
            fail(err, errlen, "%s: out of memory", f);
            return WB_EXIT_USAGE;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        r = parse_value(lab, f, item, a, err, errlen);
        free(item);
        if (r)
            return WB_EXIT_USAGE;
        list_push(a, f);
        if (!end)
            return 0;
        p = end + 1;
    }
}

/* After the options: every list holds at least the run's one value, and the
 * single fields hold each list's first item (what a run without --check uses). */
static int complete_lists(const wb_lab *lab, wb_args *a, char *err, size_t errlen)
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
    if (a->choice_count == 0) {
        a->choice_list[0] = a->choice;
        a->choice_count = 1;
    }
    if (a->seed_count == 0) {
        a->seed_list[0] = a->seed;
        a->seed_count = 1;
    }
    for (i = 0; i < a->n_count; ++i) {
        if (lab->shape == WB_MATRIX)
            a->n_list[i] = (long long)a->nx_list[i] * a->ny_list[i];
        if (lab->shape == WB_MATRIX && a->n_list[i] > WB_INT_MAX) {
            fail(err, errlen, "-n: %dx%d has %lld elements, over %lld (int indices)", a->nx_list[i],
                 a->ny_list[i], a->n_list[i], WB_INT_MAX);
            return WB_EXIT_USAGE;
        }
    }
    a->n = a->n_list[0];
    a->nx = a->nx_list[0];
    a->ny = a->ny_list[0];
    a->block_x = a->bx_list[0];
    a->block_y = a->by_list[0];
    a->choice = a->choice_list[0];
    a->seed = a->seed_list[0];
    for (i = 0; i < a->type_count; ++i) { /* --values and --exercises hold for every type */
        a->type = a->type_list[i];
        if (check_type_values(lab, a, err, errlen))
            return WB_EXIT_USAGE;
    }
    a->type = a->type_list[0];
    return 0;
}

/* The lab's defaults, every kernel and exercise selected. */
static void set_defaults(const wb_lab *lab, wb_args *a)
{
    int i;
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
}

/* An option that takes a value v (argv[i + 1]): 0 when f is not one of
 * them, 1 when parsed (the caller steps over v), WB_EXIT_USAGE with err. */
static int parse_valued(const wb_lab *lab, const char *f, const char *v, wb_args *a, char *err, size_t errlen)
{
    if (!strcmp(f, "-n") || !strcmp(f, "-b") || !strcmp(f, "--seed") || !strcmp(f, "--type"))
        return parse_list(lab, f, v, a, err, errlen) ? WB_EXIT_USAGE : 1;
    if ((!strcmp(f, "--nx") || !strcmp(f, "--ny")) && lab->shape == WB_MATRIX) {
        int *side = f[3] == 'x' ? &a->nx : &a->ny;
        if (a->n_count > 1) {
            fail(err, errlen, "%s: -n gave a list of shapes; give each shape in the list (NXxNY) "
                              "and leave %s out", f, f);
            return WB_EXIT_USAGE;
        }
        if (parse_matrix_side(f, v, side, err, errlen))
            return WB_EXIT_USAGE;
        a->n_given = 1;
        return 1;
    }
    if (!strcmp(f, "-k"))
        return parse_kernels(lab, v, a, err, errlen) ? WB_EXIT_USAGE : 1;
    if (!strcmp(f, "-r")) {
        long long r;
        if (wb_parse_count(v, WB_MAX_REPS, &r) != 0) {
            fail(err, errlen, "-r: '%.*s%s' is not a repetition count; give a whole number from 1 to %d",
                 VALUE(v), WB_MAX_REPS);
            return WB_EXIT_USAGE;
        }
        a->reps = (int)r;
        return 1;
    }
    if (!strcmp(f, "--values"))
        return parse_type_values(lab, f, v, a, err, errlen) ? WB_EXIT_USAGE : 1;
    return 0;
}

/* argv[*i] and, for an option with a value, argv[*i + 1] (then *i steps
 * over it): 0, or WB_EXIT_USAGE with err. *csv, *json: the format flags. */
static int parse_option(const wb_lab *lab, unsigned offers, int argc, char **argv, int *i, wb_args *a,
                        int *csv, int *json, char *err, size_t errlen)
{
    const char *f = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    int takes_value = !strcmp(f, "-n") || !strcmp(f, "--nx") || !strcmp(f, "--ny") ||
                      !strcmp(f, "-b") || !strcmp(f, "-k") || !strcmp(f, "-r") ||
                      !strcmp(f, "--seed") || !strcmp(f, "--type") || !strcmp(f, "--values");
    int r;
    if (IS_CHOICE(lab, f)) {
        ++*i;
        return parse_list(lab, f, v, a, err, errlen) ? WB_EXIT_USAGE : 0;
    }
    if (takes_value && !v) {
        fail(err, errlen, "%s needs a value; run ./%s -h for the options", f, lab->lab);
        return WB_EXIT_USAGE;
    }
    if (!strcmp(f, "-h") || !strcmp(f, "--help"))
        a->help = 1;
    else if (!strcmp(f, "--list"))
        a->list = 1;
    else if (!strcmp(f, "--csv"))
        *csv = 1;
    else if (!strcmp(f, "--json"))
        *json = 1;
    else if (!strcmp(f, "--check"))
        a->check = 1;
    else if (!strcmp(f, "--dry-run") || !strcmp(f, "--capabilities"))
        *(f[2] == 'd' ? &a->dry_run : &a->capabilities) = 1;
    else if (!strcmp(f, "--explain") || !strcmp(f, "--exercises")) {
        int ex = !strcmp(f, "--exercises");
        if (!(offers & (ex ? WB_OFFER_EXERCISES : WB_OFFER_EXPLAIN))) {
            fail(err, errlen, "%s: %s has none; leave it out (./%s --capabilities)", f, lab->lab, lab->lab);
            return WB_EXIT_USAGE;
        }
        *(ex ? &a->exercises : &a->explain) = 1;
    }
    else if (lab->extra_flag && !strcmp(f, lab->extra_flag))
        a->extra = 1;
    else if ((r = parse_valued(lab, f, v, a, err, errlen)) != 0) {
        if (r != 1)
            return WB_EXIT_USAGE;
        ++*i;
    } else if (f[0] == '-') {
        fail(err, errlen, "unknown option '%.*s%s'; run ./%s -h for the options", NAMED(f), lab->lab);
        return WB_EXIT_USAGE;
    } else {
        fail(err, errlen, "unexpected argument '%.*s%s'; options start with '-' (run ./%s -h)",
             VALUE(f), lab->lab);
        return WB_EXIT_USAGE;
    }
    return 0;
}

int wb_parse_args(const wb_lab *lab, unsigned offers, int argc, char **argv, wb_args *a, char *err,
                  size_t errlen)
{
    int i, csv = 0, json = 0;
    set_defaults(lab, a);
    err[0] = '\0';
    for (i = 1; i < argc; ++i) /* --check first: it lets the options below take lists */
        if (!strcmp(argv[i], "--check"))
            a->check = 1;
    for (i = 1; i < argc; ++i)
        if (parse_option(lab, offers, argc, argv, &i, a, &csv, &json, err, errlen))
            return WB_EXIT_USAGE;
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
    return complete_lists(lab, a, err, errlen);
}

wb_shape wb_args_shape(int argc, char **argv)
{
    int i;
    for (i = 1; i + 1 < argc; ++i)
        if (!strcmp(argv[i], "-n") && (strchr(argv[i + 1], 'x') || strchr(argv[i + 1], 'X')))
            return WB_MATRIX;
    return WB_LENGTH;
}
