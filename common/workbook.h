/*
 * workbook.h - the one shared header of the CUDA C reduction/transpose workbook.
 *
 * Every lab includes this file and nothing else of ours. It carries the
 * boring parts so that a lab file holds only what it teaches:
 *
 *   - exit statuses and the kernel table type ("the list of kernels is data");
 *   - the one command-line parser of every lab (-n -b -k -r --seed --csv
 *     --json --explain --list -h, plus a lab's own flag such as --trace);
 *   - statistics (median, quartiles) and the bandwidth arithmetic;
 *   - the result report: a table for people, CSV and JSON for programs,
 *     and the closing summary line;
 *   - the int input whose exact sum always fits in an int, and its reference;
 *   - (CUDA only) error checks that name file, line and call, the device
 *     banner, event timing with an L2 flush before every repetition, the
 *     copy ceiling measured in the same run, and the reduction harness that
 *     labs 02-05 share.
 *
 * The C part builds with gcc alone (common/args.c: the command line;
 * numbers.c: statistics, inputs, bounds; report.c: the table; report_data.c:
 * CSV, JSON and --check; workbook.c: small helpers), so lab01 and the CPU
 * tests need no CUDA toolkit. The CUDA part (common/gpu.cu, common/reduce.cu)
 * is declared only when the including file is compiled by nvcc.
 */
#ifndef WORKBOOK_H
#define WORKBOOK_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Exit statuses: the verdict of every lab is its exit status.              */
/* ------------------------------------------------------------------------ */
enum {
    WB_EXIT_OK = 0,    /* every kernel verified */
    WB_EXIT_WRONG = 1, /* a kernel gave a wrong result */
    WB_EXIT_USAGE = 2, /* bad command line */
    WB_EXIT_CUDA = 3   /* no usable CUDA device, or a CUDA error */
};

#define WB_MAX_KERNELS 32
#define WB_MAX_ROWS 512
#define WB_MAX_LIST 128 /* items of one --check list (-n 1,2,3) */
#define WB_INT_MAX 2147483647LL

/* ------------------------------------------------------------------------ */
/* Kernel tables. A lab's table is an array of its own struct whose FIRST    */
/* member is a wb_kernel_info; WB_TABLE(arr) describes it to the common code */
/* so that --list, -k, the rows and the tests all come from one place.       */
/* ------------------------------------------------------------------------ */
typedef struct {
    const char *name;   /* as in the book: "reduceNeighbored" */
    const char *lesson; /* one line: what this kernel shows (an exercise: the task) */
    /* exercises only (NULL for the kernels a lab ships): */
    const char *kind;    /* "write" (a kernel to write) or "fix" (a famous bug to fix) */
    const char *against; /* the shipped kernel whose row it is measured against */
} wb_kernel_info;

typedef struct {
    const void *first; /* address of element 0's wb_kernel_info */
    size_t stride;     /* sizeof one element */
    int count;
} wb_table;

#define WB_TABLE(arr) \
    { &(arr)[0].info, sizeof((arr)[0]), (int)(sizeof(arr) / sizeof((arr)[0])) }

/* The i-th kernel's name and lesson. */
const wb_kernel_info *wb_table_at(wb_table t, int i);

/* ------------------------------------------------------------------------ */
/* Command line                                                             */
/* ------------------------------------------------------------------------ */
typedef enum { WB_LENGTH, WB_MATRIX } wb_shape;
typedef enum { WB_TABLE_OUT, WB_CSV, WB_JSON } wb_format;

/* The element type (--type) and the input values (--values). */
typedef enum { WB_INT = 0, WB_FLOAT = 1, WB_DOUBLE = 2 } wb_type;
typedef enum {
    WB_VALUES_EXACT = 0,  /* integers whose every partial sum is exact in the type: exact checks */
    WB_VALUES_UNIFORM = 1 /* [-1, 1) (float or double): checked against an error bound */
} wb_values;
#define WB_TYPE_BIT(t) (1u << (t))
#define WB_ALL_TYPES (WB_TYPE_BIT(WB_INT) | WB_TYPE_BIT(WB_FLOAT) | WB_TYPE_BIT(WB_DOUBLE))

/* "int", "float", "double" */
const char *wb_type_name(wb_type t);

/* The one place where the run's element type t (--type) becomes a C type:
 * the expression for int, float or double, only that one evaluated. C code
 * writes WB_BY_TYPE(t, k->reduce(a, n), k->reduce_float(a, n), ...); CUDA
 * code calls wb_with_type (the end of this file), which turns it into T. */
#define WB_BY_TYPE(t, for_int, for_float, for_double) \
    ((t) == WB_FLOAT ? (for_float) : (t) == WB_DOUBLE ? (for_double) : (for_int))

/* Bytes per element of type t. */
static inline size_t wb_type_size(wb_type t)
{
    return WB_BY_TYPE(t, sizeof(int), sizeof(float), sizeof(double));
}

/* What a lab accepts; defaults. One static const of these per lab. */
typedef struct {
    const char *lab;          /* "lab02" */
    const char *title;        /* "neighbored pairing and warp divergence" */
    wb_shape shape;           /* a length (-n N) or a matrix (-n NXxNY, --nx, --ny) */
    long long default_n;      /* WB_LENGTH */
    long long max_n;          /* largest length accepted, with the reason below */
    const char *max_n_reason; /* "the exact int sum must fit in an int" */
    int default_nx, default_ny;           /* WB_MATRIX */
    int default_block_x, default_block_y; /* block_y only for WB_MATRIX */
    int uses_block;           /* 0: -b is refused (lab01 runs on the CPU) */
    int default_reps;
    const char *extra_flag;   /* a lab's own flag with no value ("--trace",
                                 "--sweep"), or NULL */
    const char *extra_help;   /* one line for -h about it */
    wb_table kernels;
    /* The student's exercises (an empty table for a program without them):
     * rows of the same struct as `kernels`, with kind and against set. */
    wb_table exercises;
    const char *exercise_file;   /* "lab04_unroll/exercises.cuh" */
    long long exercise_n;        /* --exercises without -n runs at this length */
    int exercise_nx, exercise_ny;/* ... or this matrix */
    /* CUDA labs: reads and clears the flag that WB_TODO() sets (see below);
     * NULL on the CPU, where wb_cpu_todo is read directly */
    int (*todo_take)(void);
    /* The element types --type accepts: WB_TYPE_BIT()s or WB_ALL_TYPES; 0
     * means int only (every type is --type int by default). */
    unsigned types;
    /* 1: --finish host|device is accepted (labs 02-04: their kernels can be
     * relaunched on their own partial sums); 0: --finish is refused */
    int device_finish;
} wb_lab;

/* No exercises (a program that has none, such as lab05-finish). */
#define WB_NO_EXERCISES {NULL, 0, 0}

/* Exercise runs default to a length that is no multiple of any block or
 * unroll factor (2^24 - 3), so a kernel that drops a tail fails. */
#define WB_EXERCISE_N ((1LL << 24) - 3)

/* The wb_lab of a reduction lab (labs 02-05): an int input of any length up
 * to INT_MAX (so that the exact sum fits), blocks of 32..1024 threads with
 * 512 by default (as the book), 20 repetitions; `exercises` is
 * WB_TABLE(the exercise array) or WB_NO_EXERCISES, `file` the student file. */
#define WB_REDUCTION_LAB(name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(0, WB_TODO_TAKE, name, title, extra_flag, extra_help, table, file, exercises)
/* The same for labs 02-04, which also take --finish host|device. */
#define WB_RELAUNCHING_LAB(name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(1, WB_TODO_TAKE, name, title, extra_flag, extra_help, table, file, exercises)
/* The same for a lab whose exercises are compiled in a file of their own
 * (lab05: exercises.cu): `todo` is that file's reader of the WB_TODO() flag,
 * `exercises` the wb_table it exports. */
#define WB_REDUCTION_LAB_APART(todo, name, title, extra_flag, extra_help, table, exercises, file) \
    WB_REDUCTION_LAB_(0, todo, name, title, extra_flag, extra_help, table, file, exercises)
/* (variadic: `exercises` arrives with the commas of WB_TABLE expanded) */
#define WB_REDUCTION_LAB_(finish_, todo_, name_, title_, flag_, help_, table_, file_, ...)       \
    {                                                                                           \
        .lab = name_, .title = title_, .shape = WB_LENGTH, .default_n = 1 << 24,                \
        .max_n = WB_INT_MAX, .max_n_reason = "the exact int sum must fit in an int",            \
        .default_block_x = 512, .uses_block = 1, .default_reps = 20, .extra_flag = flag_,       \
        .extra_help = help_, .kernels = WB_TABLE(table_), .exercises = __VA_ARGS__,             \
        .exercise_file = file_, .exercise_n = WB_EXERCISE_N, .todo_take = todo_,                \
        .types = WB_ALL_TYPES, .device_finish = finish_                                         \
    }

typedef struct {
    long long n;        /* WB_LENGTH: the length; WB_MATRIX: nx*ny */
    int nx, ny;         /* WB_MATRIX */
    int block_x, block_y;
    int reps;
    unsigned long long seed;
    wb_format format;
    int explain, list, help, extra;
    int n_given, block_given;
    wb_type type;                    /* --type (WB_INT by default) */
    wb_values values;                /* --values (WB_VALUES_EXACT by default) */
    int exercises;                   /* --exercises (or -k named an exercise) */
    int finish_device;               /* --finish device: the kernel relaunched on its partial sums */
    int selected[WB_MAX_KERNELS];    /* 1 for each kernel -k chose (all without -k) */
    int ex_selected[WB_MAX_KERNELS]; /* 1 for each exercise -k chose (all without -k) */
    /* --check: verify every selected kernel on every configuration of the
     * lists below, untimed (wb_check_*). Without --check each list holds
     * the one value of the run (the fields above); with it -n, -b, --type,
     * --finish and --seed take comma lists ("1,33,1000003"). */
    int check;
    int n_count, block_count, type_count, finish_count, seed_count;
    long long n_list[WB_MAX_LIST];   /* lengths; matrices: nx_list x ny_list */
    int nx_list[WB_MAX_LIST], ny_list[WB_MAX_LIST];
    int bx_list[WB_MAX_LIST], by_list[WB_MAX_LIST];
    wb_type type_list[WB_MAX_LIST];
    int finish_list[WB_MAX_LIST];    /* 0 host, 1 device */
    unsigned long long seed_list[WB_MAX_LIST];
} wb_args;

/*
 * Parse argv for `lab`. Returns 0 and fills *a, or returns WB_EXIT_USAGE with
 * one line in err saying what was wrong and what is accepted. Never exits,
 * never prints: the tests call it directly.
 */
int wb_parse_args(const wb_lab *lab, int argc, char **argv, wb_args *a,
                  char *err, size_t errlen);

/*
 * What every lab's main calls first: parse; on an error print "labNN: <err>"
 * and the hint to run -h on stderr and exit 2; on -h print the usage and
 * exit 0; on --list print the kernels and exit 0. All before any CUDA call,
 * so -h and --list work on a machine without a GPU.
 */
void wb_args_or_exit(const wb_lab *lab, int argc, char **argv, wb_args *a);

void wb_print_usage(const wb_lab *lab, FILE *f);
void wb_print_list(const wb_lab *lab, FILE *f);

/*
 * Parse a count: digits with an optional binary suffix K, M or G (16M =
 * 16*2^20), or a power written 2^k. Returns 0 on success; -1 if it is not
 * such a number or is 0; -2 if it is larger than max.
 */
int wb_parse_count(const char *s, long long max, long long *out);

/* "8192x4096" into nx, ny (each 1..max). Same return values. */
int wb_parse_pair(const char *s, long long max, int *x, int *y);

/* ------------------------------------------------------------------------ */
/* Statistics and bandwidth                                                  */
/* ------------------------------------------------------------------------ */
typedef struct {
    double median, q1, q3, min, max; /* milliseconds */
    int count;
} wb_stats;

/* Sorts samples[0..count) in place and summarises them (count >= 1). */
wb_stats wb_summarize(double *samples, int count);

/* Interquartile range over the median, in percent: the run-to-run spread. */
double wb_spread_pct(wb_stats s);

/* GB/s (10^9 bytes per second) for bytes moved in ms milliseconds. */
double wb_gbps(double bytes, double ms);

/* ------------------------------------------------------------------------ */
/* Input and reference                                                       */
/* ------------------------------------------------------------------------ */
/*
 * The value-range rule: inputs are uniform integers in [0, vmax] with
 * vmax = min(255, floor(INT_MAX / n)), so the exact sum is at most
 * n * vmax <= INT_MAX and an int accumulator never overflows. Returns 0
 * when n > INT_MAX (no positive range fits; labs refuse such n).
 */
int wb_int_value_max(long long n);

/* The seeded generator every input comes from (splitmix64): advances
 * *state and returns the next 64 random bits. */
unsigned long long wb_splitmix64(unsigned long long *state);

/* Fill a[0..n) by the rule above from a seeded generator (splitmix64). */
void wb_fill_ints(int *a, size_t n, unsigned long long seed);

/* Fill a[0..n) with floats in [-1, 1) from a seeded generator. */
void wb_fill_floats(float *a, size_t n, unsigned long long seed);

/* The exact sum of a[0..n), in 64 bits. */
long long wb_sum_ints(const int *a, size_t n);

/*
 * float and double (--type). The exact input (--values exact, the default)
 * follows the int rule with the type's largest exact integer in place of
 * INT_MAX: integers in [0, vmax], vmax = min(255, floor(L / n)) with
 * L = 2^24 (float) or 2^53 (double). Every partial sum, in any order, is then
 * an integer of at most L, exact in the type: the check stays exact, and a
 * dropped element shows. Float above n = 2^24 has no such range (vmax 0):
 * the labs then check against the error bound and say so in the row.
 *
 * The uniform input (--values uniform) draws from [-1, 1) in steps of 2^-24
 * (float) or 2^-52 (double): every value, and every sum of them the type
 * rounds to, is an integer times that step, so the exact sum is an integer
 * sum (wb_exact) and each row's error is exact too.
 */
long long wb_exact_value_max(wb_type t, long long n); /* vmax above; 0: none */
void wb_fill_float_values(float *a, size_t n, wb_values v, unsigned long long seed);
void wb_fill_double_values(double *a, size_t n, wb_values v, unsigned long long seed);

/* The grid of the uniform values: 24 (float: steps of 2^-24) or 52 (double). */
int wb_uniform_step_bits(wb_type t);

/* An exact sum: sum(a[i] * 2^step_bits) as a 128-bit integer (two words),
 * and sum |a[i]| (for the bounds). step_bits 0 for the exact input. */
typedef struct {
    long long hi;          /* the integer is hi * 2^64 + lo */
    unsigned long long lo;
    int step_bits;
    double abs_sum;        /* sum of |a[i]| (rounded to double) */
} wb_exact;

/* The exact sum of a[0..n): every a[i] * 2^step_bits must be an integer
 * (the labs' inputs are). */
wb_exact wb_exact_sum_floats(const float *a, size_t n, int step_bits);
wb_exact wb_exact_sum_doubles(const double *a, size_t n, int step_bits);

/* The input of a float or double run (t) in a[0..n) (wb_fill_float_values or
 * wb_fill_double_values), and its exact sum (uniform values: on their grid). */
wb_exact wb_fill_real(wb_type t, void *a, size_t n, wb_values v, unsigned long long seed);

/* The exact sum as the nearest double; |got - exact sum| (exact while got
 * lies on the grid of 2^-step_bits, as every sum of the inputs does). */
double wb_exact_value(const wb_exact *e);
double wb_exact_error(const wb_exact *e, double got);

/* Unit roundoff u of the type: 2^-24 (float), 2^-53 (double), 0 (int). */
double wb_unit_roundoff(wb_type t);

/* ceil(log2(n)) for n >= 1: the levels of a pairwise tree over n leaves. */
int wb_ceil_log2(long long n);

/*
 * The rounding error bound of an order of additions (Higham, Accuracy and
 * Stability of Numerical Algorithms, ch. 4): each element goes through at
 * most k = (leaf_len - 1) + depth additions, where leaf_len is how many
 * elements one leaf (a thread, a loop) adds in sequence and depth the levels
 * of the tree above the leaves; |error| <= gamma_k * sum|x| with
 * gamma_k = k*u / (1 - k*u), which holds while k*u < 1. The sequential loop
 * is (n, 0): about (n-1)*u*sum|x|; a pairwise tree is (1, ceil(log2 n)):
 * about log2(n)*u*sum|x|. Where k*u >= 1 there is no such bound: the
 * function returns -1 (the float loop above n = 2^24).
 */
double wb_error_bound(wb_type t, long long leaf_len, int depth, double abs_sum);

/* Where there is no bound (k*u >= 1), what a row is checked against
 * instead: a tolerance, not a bound: sqrt(k)*u*sum|x|, the size of k
 * roundings of at most u*sum|x| each whose signs do not line up (they add
 * like a random walk). A sum can be right and miss it only if its roundings
 * all lean one way. */
double wb_error_tolerance(wb_type t, long long leaf_len, int depth, double abs_sum);

/* Monotonic wall clock in milliseconds (POSIX clock_gettime). */
double wb_now_ms(void);

/* A power of two? (x >= 1) */
int wb_is_pow2(long long x);

/* ceil(a / b) for b > 0 */
long long wb_ceil_div(long long a, long long b);

/* ------------------------------------------------------------------------ */
/* Report: one row per kernel; a table for people, CSV and JSON for programs */
/* ------------------------------------------------------------------------ */
typedef struct {
    const char *kernel;
    long long n;            /* elements */
    int nx, ny;             /* matrices; 0 for lengths */
    unsigned grid_x, grid_y, block_x, block_y; /* 0 on the CPU */
    double bytes;           /* bytes the algorithm must move */
    wb_stats time;          /* what the lab's `timed` line says (GPU: the kernel's first pass) */
    double total_ms;        /* median of the whole reduction to one number, or < 0 if n/a */
    int pass;               /* verified against the CPU reference */
    int todo;               /* an exercise not written yet (WB_TODO()): not run, not timed */
    const char *role;       /* NULL for a shipped kernel; an exercise's kind: "write", "fix" */
    const char *against;    /* an exercise: the kernel its speedup is against */
    char check[96];         /* what was compared: "sum 2139095040 (expected 2139095040)" */
    /* float/double against an error bound (--values uniform, or float above
     * n = 2^24): has_bound 1, |sum - exact sum| and the bound of the row's
     * order of additions; 0 for an exact check (CSV error, bound empty) */
    int has_bound;
    double error, bound;
    int no_bound; /* k*u >= 1: `bound` is wb_error_tolerance's, not a bound */
    /* the whole reductions run (verified + timed) and how many different
     * results (bits) they gave: 1 for an int sum, and for a float sum whose
     * order of additions is fixed; 0: not counted */
    int runs, distinct;
    const char *finish;     /* how total_ms reached one number: "host" or "device"; NULL: no total */
    char finish_grids[64];  /* the device finish: the grid of each launch, "32768, 64, 1"; else "" */
    /* derived by wb_report_add: */
    double ceiling_gbps; /* the report's ceiling when the row was added */
    double gbps, pct_of_copy, speedup, total_gbps, spread_pct;
} wb_row;

typedef struct wb_report {
    const char *lab;
    char device[160];       /* "NVIDIA H100 80GB HBM3" */
    char device_detail[160];/* "cc 9.0, 132 SMs, 50 MB L2, CUDA 13.0" */
    double ceiling_gbps;    /* device-to-device copy of the same bytes, measured in this run */
    double peak_gbps;       /* theoretical, from the device attributes; 0 if unknown */
    char ceiling_what[96];  /* "device-to-device copy of 64 MiB, read+write counted" */
    const char *timed;      /* what time_ms is: "first pass of the kernel (the host adds the partial sums)" */
    const char *total_what; /* what total_ms is, or NULL */
    const char *build;      /* build note for the banner ("-dlcm=cg"), or NULL */
    const char *baseline;   /* kernel the speedups are against (its row of the same n);
                               NULL or absent: the first row of the same n */
    const char *speedup_note; /* the banner's speedup line ends with it, or NULL */
    /* lines a lab adds under its table, before the summary line (the table
     * format only; end them with a blank line), or NULL */
    void (*notes)(const struct wb_report *r, FILE *out);
    int reps;
    const char *type;       /* the element type: "int" (the default), "float" */
    char build_id[64];      /* "sm_90+dlcm=cg+solutions": see wb_build_id */
    char run_at[32];        /* "2026-11-23T14:05:09Z" (UTC), set by wb_report_init */
    char fingerprint[16];   /* wb_build_fingerprint */
    /* the closing line of a run without --exercises (ex_total 0: none) */
    int ex_total, ex_done, ex_todo;
    const char *ex_file;
    int nrows;
    wb_row rows[WB_MAX_ROWS];
} wb_report;

/* What the Makefile compiles into every program (build/<binary>/buildinfo.c):
 * the GPU code, DLCM and SOLUTIONS of the build ("sm_90", "fat+solutions",
 * "cpu"), and the cksum of the student's exercise file as 8 hex digits
 * ("" for a program without one). */
extern const char wb_build_id[];
extern const char wb_build_fingerprint[];

/* Empty report for `lab`, stamped with the build, the fingerprint and the
 * time of the run. */
void wb_report_init(wb_report *r, const char *lab);

/* A row for the kernel or exercise `info` on n elements that must move
 * `bytes`: every other field zero, no total (total_ms < 0). The lab sets its
 * grid, block and matrix shape, then verifies and times. */
void wb_row_init(wb_row *row, const wb_kernel_info *info, long long n, double bytes);

/* A bound-checked row (--values uniform, float above 2^24): its error
 * against the bound of (leaf_len, depth), or the tolerance where there is
 * none. Sets row->has_bound, error, bound, no_bound, pass, and check:
 * "error 1.2e-06 <= bound 3.4e-04" (prefix before it, suffix after; a
 * bound-free row says "error ... <= tol ... (no bound)"). */
void wb_judge_bound(wb_row *row, wb_type t, long long leaf_len, int depth, double abs_sum, double error,
                    const char *prefix, const char *suffix);

/* "2026-11-23T14:05:09Z" for now (UTC) into buf. */
void wb_utc_now(char *buf, size_t len);

/* Append a row, computing gbps, pct_of_copy (against the report's ceiling
 * now), total_gbps, spread and the speedup against the baseline row of the
 * same n (add the baseline's row first). */
void wb_report_add(wb_report *r, const wb_row *row);

/* Print the report in the chosen format; the table (then the lab's notes)
 * ends with the summary line, CSV and JSON carry the same numbers and
 * nothing else. Every line of the table format fits in WB_WIDTH columns
 * (kernel names up to 28 characters; a long text is wrapped): the block goes
 * to the header when every row has the same one, a sweep's sizes head
 * groups of rows instead of taking a column. */
void wb_report_print(const wb_report *r, wb_format f, FILE *out);

/* Our time against the library's, in words that agree with the ratio:
 * "1.04x faster than the library", "level with the library (within 1%)",
 * "the library is 1.02x faster" (ours = our time, lib = the library's). */
void wb_versus_library(char *buf, size_t len, double ours, double lib);

/* The widest line a program prints for people: a projector with a large
 * font shows 100 columns whole. */
#define WB_WIDTH 100

/* Print text word-wrapped to WB_WIDTH columns: the first line starts with
 * `lead`, each following one with `indent` blanks; a '\n' in text starts a
 * new (indented) line. Runs of blanks inside a line are kept. Ends with a
 * newline. */
void wb_print_wrapped(FILE *out, const char *lead, int indent, const char *text);

/* The CSV header line (documented column set), without newline. */
extern const char *const wb_csv_header;

/* ------------------------------------------------------------------------ */
/* --check: verdicts only, one CSV row per kernel and configuration          */
/* ------------------------------------------------------------------------ */
/* The header of --check's CSV (docs/output.md), without newline. */
extern const char *const wb_check_header;

/* One configuration of a --check run: what the row's key columns say. */
typedef struct {
    char size[48];      /* "1000003" or "33x17" */
    char block[32];     /* the block asked for: "512" or "32x8" ("" on the CPU) */
    wb_type type;
    wb_values values;
    const char *finish; /* "host", "device", or NULL: the lab has no choice */
    unsigned long long seed;
} wb_check_cfg;

/* The configuration of list items (ni, bi, ti, fi, si) of a's lists. */
void wb_check_cfg_of(wb_check_cfg *c, const wb_lab *lab, const wb_args *a, int ni, int bi, int ti, int fi,
                     int si);

typedef struct {
    const char *lab;
    int rows, passed, failed, todo;
    double t0;
} wb_checker;

/* Print the header on out and start counting. */
void wb_check_begin(wb_checker *c, const char *lab, FILE *out);
/* One row (its kernel, role and verdict from row), flushed at once: a run
 * that dies later still leaves the rows before it. */
void wb_check_add(wb_checker *c, const wb_row *row, const wb_check_cfg *cfg, FILE *out);
/* "lab02 --check: 96 rows, 96 PASS, 0 FAIL, 0 todo (2.1 s)" on err; returns
 * the exit status (WB_EXIT_WRONG when a row failed). */
int wb_check_end(const wb_checker *c, FILE *err);

/* A library call (CUB) picks its own grid and block: --check runs it at the
 * first block of the list only. */
int wb_is_library(const char *kernel);

/* What a lab does for wb_check_run. */
typedef struct {
    /* make the input of type item ti, seed item si, length or shape item ni */
    void (*open)(void *ctx, const wb_args *a, int ti, int si, int ni);
    /* run row k on it with finish item fi and block item bi: verified, then
     * run again from a poisoned start and checked again (WB_ROW_CHECK) */
    void (*row)(void *ctx, const wb_args *a, const wb_kernel_info *k, int fi, int bi, wb_row *row);
    void (*close)(void *ctx);
} wb_check_steps;

/* --check: the rows order[0..nrows) on every combination of a's lists, one
 * input per (type, seed, length), one CSV row each on stdout; a library row
 * at the first block only. `type` names the CSV's type when the lab has no
 * --type (lab06: float), else -1. Returns the exit status. */
int wb_check_run(const wb_lab *lab, const wb_args *a, const wb_kernel_info *const *order, int nrows,
                 int type, const wb_check_steps *s, void *ctx);

/* A bar of `width` characters showing pct (0..100, '>' past 100); the table
 * draws WB_BAR_WIDTH of them, one '#' per 10% of the copy ceiling. */
#define WB_BAR_WIDTH 10
void wb_bar(double pct, int width, char *buf);

/* WB_EXIT_OK when every row passed (todo rows do not count), WB_EXIT_WRONG
 * otherwise. */
int wb_report_status(const wb_report *r);

/* Counting the exercises for the closing line of a run without --exercises:
 * wb_report_exercises_begin returns how many are selected and sets r's
 * ex_total and ex_file (0, and nothing set, with --exercises or none); then
 * each one's verified row goes to wb_report_exercise_verdict (done or todo). */
int wb_report_exercises_begin(wb_report *r, const wb_lab *lab, const wb_args *a);
void wb_report_exercise_verdict(wb_report *r, const wb_row *row);

/* The closing line of a run without --exercises, "exercises: 1 of 3 done
 * ... (./lab04 --exercises runs them)"; nothing when the lab has none. */
void wb_print_exercise_line(const wb_report *r, FILE *out);

/*
 * The rows of a run, in order: the selected kernels; with --exercises each
 * selected exercise right after the kernel it is measured against (that
 * kernel runs even if -k left it out). Fills order[] (room for
 * 2 * WB_MAX_KERNELS) with each row's entry of the lab's own tables (its
 * wb_kernel_info is the entry's first member: cast it back to the lab's
 * struct) and returns the count.
 */
int wb_plan_rows(const wb_lab *lab, const wb_args *a, const wb_kernel_info **order);

/* The exercise of `lab` named `name`, or -1. */
int wb_exercise_index(const wb_lab *lab, const char *name);

/* ------------------------------------------------------------------------ */
/* Exercises: WB_TODO()                                                      */
/* ------------------------------------------------------------------------ */
/*
 * An exercise stub's body is WB_TODO(); until the student deletes it, the
 * exercise's row says `todo` (not run, not timed, no effect on the exit
 * status). In CUDA code the kernel sets a device flag and returns; in C the
 * function sets wb_cpu_todo and returns 0.
 */
extern int wb_cpu_todo;
#ifndef __CUDACC__
#define WB_TODO()            \
    do {                     \
        wb_cpu_todo = 1;     \
        return 0;            \
    } while (0)
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ======================================================================== */
/* CUDA part: only when compiled by nvcc.                                    */
/* ======================================================================== */
#ifdef __CUDACC__
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* WB_TODO() in a kernel (see above): every thread marks the flag of this
 * translation unit and leaves. WB_TODO_TAKE reads and clears it; the lab's
 * WB_REDUCTION_LAB hands it to the harness. */
static __device__ int wb_todo_flag;
#define WB_TODO()         \
    do {                  \
        wb_todo_flag = 1; \
        return;           \
    } while (0)
static inline int wb_todo_take_here(void)
{
    int seen = 0, zero = 0;
    if (cudaMemcpyFromSymbol(&seen, wb_todo_flag, sizeof seen) != cudaSuccess ||
        cudaMemcpyToSymbol(wb_todo_flag, &zero, sizeof zero) != cudaSuccess)
        return 0; /* the next CHECK reports the error */
    return seen;
}
#define WB_TODO_TAKE wb_todo_take_here

/* Print "file:line: call failed: <error name>: <error string>" and exit 3. */
void wb_cuda_fail(cudaError_t err, const char *call, const char *file, int line);

/* Check a CUDA runtime call; the message names the call's own text. */
#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t wb_err_ = (call);                                      \
        if (wb_err_ != cudaSuccess)                                        \
            wb_cuda_fail(wb_err_, #call, __FILE__, __LINE__);              \
    } while (0)

/* After every kernel launch: a bad configuration shows up here. */
#define CHECK_LAUNCH(what)                                                 \
    do {                                                                   \
        cudaError_t wb_err_ = cudaGetLastError();                          \
        if (wb_err_ != cudaSuccess)                                        \
            wb_cuda_fail(wb_err_, "launch of " what, __FILE__, __LINE__);  \
    } while (0)

typedef struct {
    int id;
    cudaDeviceProp prop;
    double peak_gbps;    /* memory clock x bus width x 2 (DDR) */
    size_t l2_bytes;
    int sm_count;
    char name[160];
    char detail[160];    /* "cc 9.0, 132 SMs, 50 MB L2, 80 GiB, CUDA 13.0, driver 13.0" */
    void *flush_buf;     /* 2 x L2, read before every timed repetition */
    size_t flush_bytes;
    int *flush_sink;
    volatile int *hold_flag;     /* mapped host memory: see wb_time_events */
    int *hold_flag_dev;
} wb_gpu;

/* Open device 0. No usable device: one line naming the runtime's own
 * message on stderr, exit 3. */
void wb_gpu_open(wb_gpu *g, const char *lab);
void wb_gpu_close(wb_gpu *g);

/* Copy the device name, details and peak into a report. */
void wb_report_device(wb_report *r, const wb_gpu *g);

/* cudaMalloc that turns "out of memory" into a usage error (exit 2):
 * "lab02: -n 4G needs 16.0 GiB of device memory for the input; the device
 * has 79.1 GiB free". Other failures exit 3 as CHECK does. */
void *wb_device_alloc(size_t bytes, const char *what, const char *lab);

/* Evict the L2 cache: read a buffer twice its size (clean lines, no
 * write-backs left to steal bandwidth from the next kernel). */
void wb_flush_l2(wb_gpu *g);

typedef void (*wb_work_fn)(void *ctx);

/* ---------------------------------------------------------------------- */
/* The row runner: one kernel's row, the same steps in every GPU lab       */
/* ---------------------------------------------------------------------- */
typedef enum {
    WB_ROW_TIMED, /* verify, time, check the last timed run again, add the row to the report */
    WB_ROW_COUNT, /* verify only, for the closing line's count of exercises done */
    WB_ROW_CHECK  /* --check: verify, then a second poisoned run checked again; no timing */
} wb_row_mode;

typedef struct {
    /* one checked run from a pristine input and poisoned outputs: sets
     * row->pass and row->check, or row->todo for an unwritten exercise */
    void (*verify)(void *ctx, wb_row *row);
    wb_work_fn launch; /* what the events time (the first pass, one launch) */
    wb_work_fn reset;  /* before every repetition: input restored, outputs poisoned (asynchronous) */
    wb_work_fn whole;  /* the whole reduction on the host clock (total_ms), or NULL */
    /* after the last run (timed, or --check's second): are its outputs still
     * right? Clears row->pass and says why, naming `when` ("timed repetition") */
    void (*recheck)(void *ctx, wb_row *row, const char *when);
} wb_row_ops;

/* The row of one kernel on one configuration, in the given mode: TIMED adds
 * it to r, COUNT counts its verdict in r, CHECK leaves it in *row for
 * wb_check_add. row comes from wb_row_init with the grid and block set. */
void wb_run_row(wb_gpu *g, wb_report *r, int reps, wb_row_mode mode, const wb_row_ops *ops, void *ctx,
                wb_row *row);

/*
 * Time work(ctx) with CUDA events: one warm-up, then `reps` repetitions,
 * each preceded (outside the timed region) by reset(ctx) if given and an
 * L2 flush. The stream is held until the host has queued the whole
 * repetition, so host launch latency stays out of the figure: work and reset
 * must only queue asynchronous work (a synchronous call in them costs up to
 * 10 ms per repetition, never a hang). Returns the summary (milliseconds).
 */
wb_stats wb_time_events(wb_gpu *g, wb_work_fn work, wb_work_fn reset, void *ctx, int reps);

/*
 * The same with the host's monotonic clock around work(ctx) and a device
 * synchronize: for work that ends on the host (the whole reduction when
 * the host adds the partial sums).
 */
wb_stats wb_time_host(wb_gpu *g, wb_work_fn work, wb_work_fn reset, void *ctx, int reps);

/*
 * The ceiling: a device-to-device cudaMemcpy of `bytes` from src to dst
 * (the caller's own buffers), timed like the kernels; returns GB/s counting
 * read + write (2 * bytes) and sets the report's ceiling fields.
 */
double wb_measure_ceiling(wb_gpu *g, wb_report *r, void *dst, const void *src, size_t bytes,
                          int reps);

/* ---------------------------------------------------------------------- */
/* The reduction harness of labs 02-05                                     */
/* ---------------------------------------------------------------------- */
/*
 * One first pass: reduce data[0..n) to one partial sum per block in
 * partial[0..grid). `data` holds n ints followed by zeros up to
 * grid * block * per_thread (the identity pads every block to whole), so an
 * in-place tree may read its whole block without a bounds test. A one-pass
 * kernel writes the final sum to partial[0] instead.
 */
typedef void (*wb_reduce_launch)(void *data, void *partial, unsigned n,
                                 unsigned grid, unsigned block, wb_type type);

/* Which element types a kernel runs in: a mask of WB_TYPE_BIT(t) (above).
 * 0 means int only (an exercise: the student writes an int kernel). */

typedef struct {
    wb_kernel_info info;
    wb_reduce_launch launch;
    unsigned min_block, max_block; /* accepted power-of-two blocks */
    unsigned per_thread;  /* elements each thread adds before the tree: the
                             grid is ceil(n / (block * per_thread)) */
    int in_place;         /* overwrites data: restored before every repetition */
    int one_pass;         /* the launch leaves the final sum in partial[0] */
    /* For kernels whose grid is not ceil(n / (block * per_thread)) (a
     * grid-stride loop sized to the device): return it; else NULL. */
    unsigned (*grid_for)(unsigned n, unsigned block, const wb_gpu *g, wb_type type);
    /* The kernel checks n itself: the padding after the n ints is filled
     * with poison (0x55555555), not zeros, so a kernel that reads past n
     * gives a wrong sum. 0: zero padding, as the book's kernels assume. */
    int guards_n;
    int op; /* WB_OP_SUM (0) or WB_OP_MAX: what the kernel reduces with */
    unsigned types; /* WB_ALL_TYPES, or 0: int only */
    /* 1: one pairwise tree over the whole input (gpuRecursiveReduce), not
     * per-block trees and a finish: its rounding bound is the tree's */
    int pairwise;
} wb_reduce_kernel;

enum { WB_OP_SUM = 0, WB_OP_MAX = 1 };

/* A row of a kernel table: the name, the lesson and the launch, at any block
 * of 32..1024; then the fields in which the rows differ, named, in the
 * order of the struct above (a field left out is 0):
 *     WB_KERNEL("reduceUnrolling8", "8 elements per thread: ...",
 *               launch_reduceUnrolling8, .per_thread = 8, .in_place = 1, .types = WB_ALL_TYPES) */
#define WB_KERNEL(name_, lesson_, launch_, ...)                                                 \
    {.info = {.name = name_, .lesson = lesson_}, .launch = launch_, .min_block = 32,             \
     .max_block = 1024, __VA_ARGS__}
/* An exercise's row (CUDA labs): the student's int kernel KERNEL(int
 * *g_idata, int *g_odata, unsigned int n), whose name is the row's, "write"
 * (a kernel to write) or "fix" (a famous bug to fix), the shipped row it is
 * measured against, the task; then as WB_KERNEL (int only: no .types). Its
 * launch is KERNEL<<<grid, block>>> on the ints, checked (WB_INT_LAUNCH). */
#define WB_EXERCISE(kernel, kind_, against_, task_, ...)                                         \
    {.info = {.name = #kernel, .lesson = task_, .kind = kind_, .against = against_},             \
     .launch = WB_INT_LAUNCH(kernel), .min_block = 32, .max_block = 1024, __VA_ARGS__}
#define WB_INT_LAUNCH(kernel)                                                                    \
    [](void *data, void *partial, unsigned n, unsigned grid, unsigned block, wb_type) {          \
        kernel<<<grid, block>>>((int *)data, (int *)partial, n);                                 \
        CHECK_LAUNCH(#kernel);                                                                   \
    }

/* The grid the harness will launch kernel k with. */
unsigned wb_reduce_grid(const wb_reduce_kernel *k, unsigned n, unsigned block, const wb_gpu *g,
                        wb_type type);

/*
 * Refuse (exit 2, one line naming the constraint) a block that a selected
 * kernel cannot take. Call before opening the device.
 */
void wb_reduce_check_blocks(const wb_lab *lab, const wb_reduce_kernel *kernels, const wb_args *a);

/*
 * Run every selected kernel of a reduction lab at length n: make the input
 * (wb_fill_ints), measure the ceiling, then for each kernel verify exactly
 * against the CPU sum (partials poisoned first; a partial left poisoned
 * fails), time the first pass with events and the whole reduction (the host
 * adds the partials; with a->finish_device the kernel is relaunched on them
 * until one value remains, every level padded and poisoned like the input)
 * with the host clock, and add one row. The first
 * selected kernel is the speedup baseline unless baseline_name names another
 * selected one. With --exercises, each selected exercise's row follows the
 * row of the kernel it is measured against; an unwritten one is a todo row.
 */
void wb_reduce_run(wb_gpu *g, wb_report *r, const wb_lab *lab,
                   const wb_reduce_kernel *kernels, const wb_args *a,
                   long long n, const char *baseline_name);

/* --check: every selected row (with --exercises, the exercises too) on
 * every combination of a's lists, verified twice (a second poisoned run),
 * untimed; one CSV row each on stdout (wb_check_add), the input made once
 * per type, seed and length. A library row (wb_is_library) runs at the
 * first block only. Returns the exit status. */
int wb_reduce_check(wb_gpu *g, const wb_lab *lab, const wb_args *a);

/* Without --exercises: verify each selected exercise once, untimed, at the
 * lab's exercise length, and count in r how many are done and todo (the
 * closing line). Nothing with --exercises (the rows say it). */
void wb_reduce_count_exercises(wb_gpu *g, wb_report *r, const wb_lab *lab,
                               const wb_reduce_kernel *kernels, const wb_args *a);

/* The usual main of a reduction lab: parse, check blocks, open the device,
 * run, print, return the exit status. `explain` is called for --explain
 * (may be NULL). */
int wb_reduce_main(const wb_lab *lab, const wb_reduce_kernel *kernels,
                   int argc, char **argv, void (*explain)(const wb_args *a));

/* What a program on the reduction harness may say differently from the
 * labs' usual main; NULL or 0 members keep the usual. */
typedef struct {
    const char *timed;      /* the report's `timed` line */
    const char *total_what; /* the report's `total` line */
    const char *baseline;   /* speedups against this kernel when it is selected */
    void (*notes)(const struct wb_report *r, FILE *out); /* lines under the table */
    void (*cleanup)(void);  /* called before the device is closed */
} wb_reduce_texts;

/* launch_KERNEL for a template kernel KERNEL<T>(T *g_idata, T *g_odata,
 * unsigned int n): the instance of the run's element type (wb_with_type,
 * below), its launch checked. `shared` is the dynamic shared memory per
 * thread, in elements (0: none). Written out, it is lab02.cu's
 * launch_reduceNeighbored. */
#define WB_REDUCE_LAUNCHER_T(kernel, shared)                                                \
    static inline void launch_##kernel(void *data, void *partial, unsigned n, unsigned grid, \
                                       unsigned block, wb_type type)                        \
    {                                                                                       \
        wb_with_type(type, [&](auto z) {                                                    \
            using T = decltype(z);                                                          \
            kernel<T><<<grid, block, (shared) * block * sizeof(T)>>>((T *)data,              \
                                                                     (T *)partial, n);      \
        });                                                                                 \
        CHECK_LAUNCH(#kernel);                                                              \
    }

/* The kernel the speedups are measured against: `preferred` when -k
 * selected it, else the first kernel selected (preferred may be NULL). */
const char *wb_reduce_baseline(const wb_lab *lab, const wb_args *a, const char *preferred);

/* wb_reduce_main with those texts (t may be NULL). */
int wb_reduce_main_with(const wb_lab *lab, const wb_reduce_kernel *kernels, int argc, char **argv,
                        void (*explain)(const wb_args *a), const wb_reduce_texts *t);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* f(T()) with T the C type of the run's element type t: the type becomes T
 * here (through WB_BY_TYPE), and everything below it is a template. f is a
 * generic lambda that returns the same type for every T (or nothing):
 *     wb_with_type(type, [&](auto z) {
 *         using T = decltype(z);
 *         kernel<T><<<grid, block>>>((T *)data, (T *)partial, n);
 *     });                                                                    */
template <typename F>
static inline auto wb_with_type(wb_type t, F f)
{
    return WB_BY_TYPE(t, f(int()), f(float()), f(double()));
}

#endif /* __CUDACC__ */

#endif /* WORKBOOK_H */
