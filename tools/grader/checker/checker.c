/*
 * checker.c - the grader's verdict on a run of a lab, from a process that
 * never runs the student's code (docs/instructor.md, "How grading from
 * sources decides a verdict"). Built from the workbook's own C code only
 * (common/numbers.c's input generators, common/report.c's digest):
 *
 *   build/checker/checker --lab LAB --seed S [-n N] [--matrix NXxNY]
 *                         [--names FILE] RUN.csv
 *
 * LAB, S, N and NXxNY are what the grader chose for the run (./LAB
 * --exercises --csv --seed S -n N, or -n NXxNY for lab06); lab05's matrix
 * rows, at the lab's own exercise shape, must all share one shape (--matrix
 * names it, if given). For every row of RUN.csv it makes that row's input
 * again, exactly as the labs do, computes what the row must have computed
 * (the exact int sum, or the maximum for reduceMax*; lab05's matrix total,
 * or the FNV-1a digest of the row or column sums; the digest of lab06's
 * transpose, or of the input for a copy) and compares it with the row's
 * `result` column. A row passes only when its result is that, its lab's own
 * status says PASS, and it is the one row of its kernel at the size the
 * grader chose (a duplicated row, a row at another size or of another lab,
 * a kernel not in --names' list (one name a line), a row without a result
 * or with fields missing: FAIL). A todo row (an exercise not written) stays
 * todo.
 *
 * Prints one line per data row, tab-separated:
 *   LINE  PASS|FAIL|todo  KERNEL  SIZE  REASON
 * (LINE: the row's line in RUN.csv), and a summary on stderr. Exit status:
 * 0 no row failed, 1 a row failed (or the file has no rows), 2 bad usage
 * or an unreadable file.
 */
#define _POSIX_C_SOURCE 200809L
#include "workbook.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 4096
#define MAX_COLS 64

typedef struct {
    long line;
    int ok_fields; /* every column this program reads was there */
    char lab[32], kernel[96], role[16], type[16], status[16], result[48];
    long long n, nx, ny;
    int has_result;
    int dup;          /* another row of the same kernel and size */
    const char *why;  /* set when the row fails before its result is looked at */
} row_t;

static row_t rows[MAX_ROWS];
static int nrows;

static void usage_exit(const char *msg)
{
    fprintf(stderr, "checker: %s\nusage: checker --lab LAB --seed S [-n N] [--matrix NXxNY] [--names FILE] RUN.csv\n",
            msg);
    exit(2);
}

/* Split line (modified in place) at commas into f[0..); returns the count. */
static int split_csv(char *line, char **f, int max)
{
    int k = 0;
    char *p = line;
    f[k++] = p;
    for (; *p; ++p)
        if (*p == ',') {
            *p = '\0';
            if (k == max)
                return max + 1;
            f[k++] = p + 1;
        }
    return k;
}

static int parse_ll(const char *s, long long *v)
{
    char *end;
    if (!*s)
        return 0;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return !errno && *end == '\0';
}

static int parse_shape(const char *s, long long *nx, long long *ny)
{
    char *end;
    errno = 0;
    *nx = strtoll(s, &end, 10);
    if (errno || *end != 'x' || *nx < 1)
        return 0;
    *ny = strtoll(end + 1, &end, 10);
    return !errno && *end == '\0' && *ny >= 1;
}

/* A field, cut to fit, anything outside printable ASCII as '?' (the
 * verdict lines are tab-separated and quoted in the report) */
static void copy_field(char *dst, size_t len, const char *src)
{
    size_t i;
    for (i = 0; src && src[i] && i + 1 < len; ++i)
        dst[i] = (unsigned char)src[i] < 0x20 || (unsigned char)src[i] > 0x7e ? '?' : src[i];
    dst[i] = '\0';
}

/* The columns this program reads, by name. */
enum { C_LAB, C_KERNEL, C_N, C_NX, C_NY, C_TYPE, C_ROLE, C_STATUS, C_RESULT, C_COUNT };
static const char *const col_names[C_COUNT] = {"lab", "kernel", "n", "nx", "ny", "type", "role", "status", "result"};

static void read_csv(const char *path)
{
    FILE *in = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int pos[C_COUNT], ncols = 0, have_header = 0, i;
    if (!in) {
        fprintf(stderr, "checker: cannot read %s: %s\n", path, strerror(errno));
        exit(2);
    }
    while (getline(&line, &cap, in) >= 0) {
        char *f[MAX_COLS + 1];
        int nf;
        row_t *r;
        size_t len = strlen(line);
        ++lineno;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (lineno == 1 && !strncmp(line, "\357\273\277", 3)) /* a byte-order mark */
            memmove(line, line + 3, strlen(line + 3) + 1);
        if (!line[0])
            continue;
        if (!strncmp(line, "lab,device,kernel,", 18)) { /* a header: the columns by name */
            nf = split_csv(line, f, MAX_COLS);
            for (i = 0; i < C_COUNT; ++i) {
                int j;
                pos[i] = -1;
                for (j = 0; j < nf && j < MAX_COLS; ++j)
                    if (!strcmp(f[j], col_names[i]))
                        pos[i] = j;
            }
            ncols = nf;
            have_header = 1;
            continue;
        }
        if (nrows == MAX_ROWS) {
            fprintf(stderr, "checker: %s: more than %d rows; no lab run writes that many\n", path, MAX_ROWS);
            exit(2);
        }
        r = &rows[nrows++];
        memset(r, 0, sizeof *r);
        r->line = lineno;
        if (!have_header) {
            r->why = "before any header line: not a lab's --csv output";
            continue;
        }
        nf = split_csv(line, f, MAX_COLS);
        if (nf != ncols) {
            r->why = "its field count differs from the header's";
            continue;
        }
        for (i = 0; i < C_COUNT; ++i)
            if (pos[i] < 0 && i != C_RESULT)
                break;
        if (i < C_COUNT) {
            r->why = "the header lacks a column the checker reads";
            continue;
        }
        copy_field(r->lab, sizeof r->lab, f[pos[C_LAB]]);
        copy_field(r->kernel, sizeof r->kernel, f[pos[C_KERNEL]]);
        copy_field(r->role, sizeof r->role, f[pos[C_ROLE]]);
        copy_field(r->type, sizeof r->type, f[pos[C_TYPE]]);
        copy_field(r->status, sizeof r->status, f[pos[C_STATUS]]);
        r->has_result = pos[C_RESULT] >= 0;
        if (r->has_result)
            copy_field(r->result, sizeof r->result, f[pos[C_RESULT]]);
        if (!parse_ll(f[pos[C_N]], &r->n) || !parse_ll(f[pos[C_NX]], &r->nx) || !parse_ll(f[pos[C_NY]], &r->ny)) {
            r->why = "n, nx or ny is not a whole number";
            continue;
        }
        r->ok_fields = 1;
    }
    free(line);
    fclose(in);
}

/* ------------------------------------------------------------------------ */
/* What a row must have computed                                             */
/* ------------------------------------------------------------------------ */
static unsigned long long seed;

/* The 1D input (labs 01-05): n ints, as wb_fill_ints makes them */
static struct {
    long long n;
    int *a;
    long long sum, max;
} one_d = {-1, NULL, 0, 0};

static void make_1d(long long n)
{
    long long i;
    if (one_d.n == n)
        return;
    free(one_d.a);
    one_d.n = n;
    one_d.a = malloc((size_t)n * sizeof(int));
    if (!one_d.a) {
        fprintf(stderr, "checker: no memory for n = %lld\n", n);
        exit(2);
    }
    wb_fill_ints(one_d.a, (size_t)n, seed);
    one_d.sum = wb_sum_ints(one_d.a, (size_t)n);
    one_d.max = one_d.a[0];
    for (i = 1; i < n; ++i)
        if (one_d.a[i] > one_d.max)
            one_d.max = one_d.a[i];
}

/* lab05's matrix (nx columns, ny rows of ints by the 1D rule): its total,
 * and the digests of its row sums and column sums as int arrays */
static struct {
    long long nx, ny, total;
    char rows[17], cols[17];
} mat = {-1, -1, 0, "", ""};

/* a digest as the run writes it: the result column's own format
 * (wb_row_result_bytes), 16 hex digits into buf[17] */
static void digest_text(char *buf, const void *bytes, size_t len)
{
    wb_row w;
    wb_row_result_bytes(&w, bytes, len);
    snprintf(buf, 17, "%.16s", w.result);
}

static void make_matrix(long long nx, long long ny)
{
    size_t n = (size_t)(nx * ny), r, c;
    int *a, *rs, *cs;
    if (mat.nx == nx && mat.ny == ny)
        return;
    a = malloc(n * sizeof(int));
    rs = calloc((size_t)ny, sizeof(int));
    cs = calloc((size_t)nx, sizeof(int));
    if (!a || !rs || !cs) {
        fprintf(stderr, "checker: no memory for %lldx%lld\n", nx, ny);
        exit(2);
    }
    wb_fill_ints(a, n, seed);
    mat.total = 0;
    for (r = 0; r < (size_t)ny; ++r)
        for (c = 0; c < (size_t)nx; ++c) { /* every sum fits an int: the value-range rule */
            rs[r] += a[r * nx + c];
            cs[c] += a[r * nx + c];
            mat.total += a[r * nx + c];
        }
    digest_text(mat.rows, rs, (size_t)ny * sizeof(int));
    digest_text(mat.cols, cs, (size_t)nx * sizeof(int));
    mat.nx = nx;
    mat.ny = ny;
    free(a);
    free(rs);
    free(cs);
}

/* lab06's input (floats, wb_fill_floats), the digests of it and of its transpose */
static struct {
    long long nx, ny;
    char in[17], t[17];
} tr = {-1, -1, "", ""};

static void make_transpose(long long nx, long long ny)
{
    size_t n = (size_t)(nx * ny), x, y;
    float *in, *out;
    if (tr.nx == nx && tr.ny == ny)
        return;
    in = malloc(n * sizeof(float));
    out = malloc(n * sizeof(float));
    if (!in || !out) {
        fprintf(stderr, "checker: no memory for %lldx%lld\n", nx, ny);
        exit(2);
    }
    wb_fill_floats(in, n, seed);
    for (y = 0; y < (size_t)ny; ++y)
        for (x = 0; x < (size_t)nx; ++x)
            out[x * ny + y] = in[y * nx + x];
    digest_text(tr.in, in, n * sizeof(float));
    digest_text(tr.t, out, n * sizeof(float));
    tr.nx = nx;
    tr.ny = ny;
    free(in);
    free(out);
}

/* lab05's matrix kernels: what each leaves (by the lab's names) */
static const char *matrix_expected(const char *kernel, char *buf, size_t len)
{
    if (!strncmp(kernel, "rowSum", 6) || !strcmp(kernel, "cub::DeviceSegmentedReduce::Sum"))
        return mat.rows;
    if (!strncmp(kernel, "colSum", 6))
        return mat.cols;
    snprintf(buf, len, "%lld", mat.total); /* reduce2D* (the sum of its partials), cub::DeviceReduce::Sum */
    return buf;
}

/* ------------------------------------------------------------------------ */
/* The verdicts                                                              */
/* ------------------------------------------------------------------------ */
static int in_names(char **names, int count, const char *k)
{
    int i;
    for (i = 0; i < count; ++i)
        if (!strcmp(names[i], k))
            return 1;
    return 0;
}

static char **read_names(const char *path, int *count)
{
    FILE *f = fopen(path, "r");
    char **names = NULL, *line = NULL;
    size_t cap = 0;
    int n = 0;
    if (!f) {
        fprintf(stderr, "checker: cannot read the names %s: %s\n", path, strerror(errno));
        exit(2);
    }
    while (getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            continue;
        names = realloc(names, (size_t)(n + 1) * sizeof *names);
        if (!names || !(names[n] = strdup(line)))
            exit(2);
        ++n;
    }
    free(line);
    fclose(f);
    *count = n;
    return names;
}

int main(int argc, char **argv)
{
    const char *lab = NULL, *path = NULL, *names_path = NULL;
    long long n_chosen = -1, mx = -1, my = -1;
    int seed_given = 0, i, j, npass = 0, nfail = 0, ntodo = 0, nnames = 0;
    char **names = NULL;
    for (i = 1; i < argc; ++i) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--lab") && v) {
            lab = v;
            ++i;
        } else if (!strcmp(argv[i], "--seed") && v) {
            char *end;
            errno = 0;
            seed = strtoull(v, &end, 10);
            if (errno || *end || !*v || *v == '-')
                usage_exit("--seed takes a whole number from 0 to 2^64 - 1");
            seed_given = 1;
            ++i;
        } else if (!strcmp(argv[i], "-n") && v) {
            if (!parse_ll(v, &n_chosen) || n_chosen < 1 || n_chosen > 0x7fffffffLL)
                usage_exit("-n takes a length from 1 to 2^31 - 1");
            ++i;
        } else if (!strcmp(argv[i], "--matrix") && v) {
            if (!parse_shape(v, &mx, &my) || mx * my > 0x7fffffffLL)
                usage_exit("--matrix takes NXxNY (at most 2^31 - 1 elements)");
            ++i;
        } else if (!strcmp(argv[i], "--names") && v) {
            names_path = v;
            ++i;
        } else if (argv[i][0] == '-' || path)
            usage_exit("unknown argument, or a second file");
        else
            path = argv[i];
    }
    if (!lab || !seed_given || !path)
        usage_exit("--lab, --seed and the run's CSV are needed");
    if (strcmp(lab, "lab06") && n_chosen < 0)
        usage_exit("a reduction lab needs -n");
    if (!strcmp(lab, "lab06") && mx < 0)
        usage_exit("lab06 needs --matrix");
    if (names_path)
        names = read_names(names_path, &nnames);
    read_csv(path);

    /* duplicates: every row of a kernel and size that appears more than once */
    for (i = 0; i < nrows; ++i)
        for (j = i + 1; j < nrows; ++j)
            if (rows[i].ok_fields && rows[j].ok_fields && !strcmp(rows[i].kernel, rows[j].kernel) &&
                rows[i].n == rows[j].n && rows[i].nx == rows[j].nx && rows[i].ny == rows[j].ny)
                rows[i].dup = rows[j].dup = 1;

    for (i = 0; i < nrows; ++i) {
        row_t *r = &rows[i];
        char size[64], why[256], buf[32];
        const char *verdict = "FAIL", *want = NULL;
        int matrix = r->nx > 0 || r->ny > 0;
        if (matrix)
            snprintf(size, sizeof size, "%lldx%lld", r->nx, r->ny);
        else
            snprintf(size, sizeof size, "%lld", r->n);
        why[0] = '\0';
        if (r->why)
            snprintf(why, sizeof why, "%s", r->why);
        else if (strcmp(r->lab, lab))
            snprintf(why, sizeof why, "a row of %.30s; the grader ran %.30s", r->lab, lab);
        else if (names && !in_names(names, nnames, r->kernel))
            snprintf(why, sizeof why, "no kernel or exercise of %s is called that", lab);
        else if (r->dup)
            snprintf(why, sizeof why, "%s at %s appears more than once: one run writes one row", r->kernel, size);
        else if (strcmp(r->type, !strcmp(lab, "lab06") ? "float" : "int"))
            snprintf(why, sizeof why, "type %.20s; the grader ran %s", r->type, !strcmp(lab, "lab06") ? "float" : "int");
        else if (!strcmp(lab, "lab06") || (matrix && !strcmp(lab, "lab05"))) {
            if (r->nx < 1 || r->ny < 1 || r->n != r->nx * r->ny)
                snprintf(why, sizeof why, "n %lld is not nx*ny", r->n);
            else if (mx < 0) { /* lab05's matrix rows: one shape, the first one's */
                mx = r->nx;
                my = r->ny;
            }
            if (!why[0] && (r->nx != mx || r->ny != my))
                snprintf(why, sizeof why, "size %s; the grader ran %lldx%lld", size, mx, my);
        } else if (matrix || r->n != n_chosen)
            snprintf(why, sizeof why, "size %s; the grader ran n = %lld", size, n_chosen);

        if (!why[0] && !strcmp(r->status, "todo")) {
            if (!strcmp(r->role, "kernel"))
                snprintf(why, sizeof why, "todo on a shipped kernel's row");
            else if (r->result[0])
                snprintf(why, sizeof why, "todo with a result: a todo row is not run");
            else {
                verdict = "todo";
                snprintf(why, sizeof why, "not written yet");
            }
        } else if (!why[0] && !r->has_result)
            snprintf(why, sizeof why, "the file has no result column: the run says nothing the checker can check");
        else if (!why[0] && !r->result[0])
            snprintf(why, sizeof why, "no result: the run did not say what it computed");
        else if (!why[0]) {
            if (!strcmp(lab, "lab06")) {
                make_transpose(r->nx, r->ny);
                want = !strncmp(r->kernel, "copy", 4) ? tr.in : tr.t;
            } else if (matrix) {
                make_matrix(r->nx, r->ny);
                want = matrix_expected(r->kernel, buf, sizeof buf);
            } else {
                make_1d(r->n);
                snprintf(buf, sizeof buf, "%lld", !strncmp(r->kernel, "reduceMax", 9) ? one_d.max : one_d.sum);
                want = buf;
            }
            if (strcmp(r->result, want))
                snprintf(why, sizeof why, "result %.40s, expected %s%s", r->result, want,
                         !strcmp(r->status, "PASS") ? " (the lab's own check said PASS)" : "");
            else if (strcmp(r->status, "PASS"))
                snprintf(why, sizeof why, "result right, but the lab's own check says %.10s", r->status);
            else {
                verdict = "PASS";
                snprintf(why, sizeof why, "result %s as recomputed", want);
            }
        }
        if (!strcmp(verdict, "PASS"))
            ++npass;
        else if (!strcmp(verdict, "todo"))
            ++ntodo;
        else
            ++nfail;
        printf("%ld\t%s\t%s\t%s\t%s\n", r->line, verdict, r->kernel[0] ? r->kernel : "?", size, why);
    }
    fprintf(stderr, "checker: %s seed %llu: %d rows, %d PASS, %d FAIL, %d todo\n", lab, seed, nrows, npass, nfail,
            ntodo);
    return nfail || nrows == 0 ? 1 : 0;
}
