/*
 * lab05 - shared memory, warp shuffles, and the library as the yardstick.
 *
 * Build and run:
 *     make lab05 && ./lab05            every kernel at n = 2^24, block 512
 *     ./lab05 --sweep                  every kernel at n = 2^10, 2^12, ... 2^28
 *     ./lab05 --sweep -n 2^20          the sweep up to 2^20
 *     ./lab05 --explain                shared memory, banks and shuffles on a tiny block (no GPU)
 *     ./lab05 -k reduceModern,cub::DeviceReduce::Sum -n 2^28
 *     ./lab05 --csv                    machine-readable (columns: docs/output.md)
 *     ./lab05 --exercises              your exercises (exercises.cuh) beside their reference rows
 *     ./lab05 -n 8192x8192             the matrix mode (matrix/): the whole matrix, its rows and
 *                                      its columns; NX columns x NY rows, as lab06 takes it
 *
 * The kernels, in the order of the table (the story of the chapter):
 *   1 reduceGmem              the tree in place in global memory (baseline)
 *   2 reduceSmem              the same tree in a static __shared__ array
 *   3 reduceSmemUnroll4       4 elements per thread first
 *   4 reduceSmemUnroll4Dyn    the same, extern __shared__ sized at launch
 *   5 reduceShfl              4 per thread, then warp shuffles
 *   6 reduceModern            one pass: int4 loads, grid-stride, shuffles, one atomic per block
 *                             (reduceModernSmall when the input fits in one tile: one block)
 *   7 reduceAtomic            reduceModern's loads, then atomicAdd of every block's sum
 *   8 cub::DeviceReduce::Sum  NVIDIA's library, the yardstick
 * The first-pass rows leave one partial sum per block (the host adds them,
 * as the book does); the one-pass rows (.one_pass) leave the one number on
 * the device. The program's .timed line says which are which, from the table.
 *
 * The exercises (exercises.cuh, the file a student edits): reduceSmemShfl
 * and reduceMaxSmem to write, reduceSmemNoSyncwarp to fix; each row follows
 * reduceSmem's. reduce2DNumba (fix it) is the matrix mode's: its row follows
 * reduce2D's, at 20000x700 in a plain --exercises run.
 *
 * Every kernel is checked exactly against the CPU sum on every run; the exit
 * status is the verdict. The chapter is docs/lab05.md.
 */
#include "workbook.h"
#include "reduce_smem.cuh"
#include "reduce_shfl.cuh"
#include "modern.cuh"
#include "cub_sum.cuh"
#include "exercises.h"   /* the exercise tables (exercises.cu) */
#include "matrix/matrix.h" /* the matrix mode */

#include <stdlib.h>
#include <string.h>

/* explain.cu: the --explain lecture (CPU only); reduceModern's picture
 * is drawn with this build's unroll and loop shape */
void lab05_explain(const wb_args *a, int modern_unroll, int modern_tiled);

/* ---------------------------------------------------------------------- */
/* The table of kernels                                                    */
/* ---------------------------------------------------------------------- */

/* The rows of ./lab05, --list and -k, at any block of 32..1024 and in every
 * element type. reduceGmem reduces in place (in_place: the input is restored
 * before every run); the one-pass rows leave the sum in partial[0]
 * (one_pass) and size their own grid (grid_for). */
static const wb_reduce_kernel kernels[] = {
    WB_KERNEL("reduceGmem",
              "the book's tree in place in global memory, last warp unrolled (the baseline)",
              launch_reduceGmem, .per_thread = 1, .in_place = 1, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceSmem",
              "the same tree in a static __shared__ array: one global load per element",
              launch_reduceSmem, .per_thread = 1, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceSmemUnroll4",
              "each thread adds 4 elements first: 4 loads in flight, 1/4 of the blocks",
              launch_reduceSmemUnroll4, .per_thread = 4, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceSmemUnroll4Dyn",
              "the same with extern __shared__, its size given at launch",
              launch_reduceSmemUnroll4Dyn, .per_thread = 4, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceShfl",
              "4 per thread, then warp shuffles: registers, no shared-memory tree",
              launch_reduceShfl, .per_thread = 4, .types = WB_ALL_TYPES),
    WB_KERNEL("reduceModern",
              "one pass: int4 loads, one full grid looping over tiles, shuffles, one atomic per "
              "block",
              launch_reduceModernRow, .per_thread = 4, .one_pass = 1, .grid_for = grid_reduceModern,
              .types = WB_ALL_TYPES),
    WB_KERNEL("reduceAtomic",
              "reduceModern's loads, then every block atomicAdds into one total: the usual finish",
              launch_reduceAtomic, .per_thread = 4, .one_pass = 1, .grid_for = grid_reduceModern,
              .types = WB_ALL_TYPES),
    CUB_ROW("NVIDIA's library (ships with the toolkit): two launches to one number",
            .types = WB_ALL_TYPES),
};

/* What a row's time is, which rows are first passes and which one-pass
 * (their positions, their count and names, cub:: as "CUB"), from the table
 * above: a row inserted moves them. */
static const char *timed_text(void)
{
    static const char *const count[] = {"no", "one", "two", "three", "four", "five", "six", "seven",
                                        "eight", "nine", "ten", "eleven", "twelve"};
    static char text[512];
    char firsts[128] = "", ones[256] = "";
    int nrows = (int)(sizeof kernels / sizeof kernels[0]), nfirst = 0, none = 0;
    for (int i = 0; i < nrows; ++i) {
        const char *name = kernels[i].info.name;
        size_t f = strlen(firsts), o = strlen(ones);
        if (kernels[i].one_pass) { /* reduceModern, reduceAtomic, CUB */
            snprintf(ones + o, sizeof ones - o, "%s%s", none ? ", " : "",
                     strncmp(name, "cub::", 5) ? name : "CUB");
            ++none;
        } else if (i == 0 || kernels[i - 1].one_pass) { /* a run of first passes starts: 1 */
            snprintf(firsts + f, sizeof firsts - f, "%s%d", nfirst ? ", " : "", i + 1);
            ++nfirst;
        } else if (i + 1 == nrows || kernels[i + 1].one_pass) { /* and ends: -5 */
            snprintf(firsts + f, sizeof firsts - f, "-%d", i + 1);
            ++nfirst;
        } else
            ++nfirst;
    }
    snprintf(text, sizeof text,
             "the kernel alone (CUDA events): the first pass for kernel%s %s (one partial sum per "
             "block), the whole reduction to one number on the device for the %s one-pass row%s (%s)",
             nfirst == 1 ? "" : "s", firsts,
             none < (int)(sizeof count / sizeof count[0]) ? count[none] : "many", none == 1 ? "" : "s",
             ones);
    return text;
}

/* The exercises' table and their WB_TODO() flag are exercises.cu's. */
static const wb_lab lab = WB_REDUCTION_LAB_APART(
    lab05_exercises_todo_take, "lab05", "shared memory, warp shuffles, and the library as the yardstick",
    "--sweep", "every selected kernel over n = 2^10, 2^12, ... 2^28 (-n sets the largest)", kernels,
    lab05_exercises, "lab05_smem/exercises.cuh");

/* ---------------------------------------------------------------------- */
/* One pass against CUB, at each n of the report                           */
/* ---------------------------------------------------------------------- */
static const wb_reduce_kernel *kernel_named(const char *name)
{
    int i;
    for (i = 0; i < lab.kernels.count; ++i)
        if (!strcmp(kernels[i].info.name, name))
            return &kernels[i];
    return NULL;
}

static int sweeping; /* --sweep: the notes add a word on the ceiling line */

/*
 * After the table: at each n, the fastest of our one-pass kernels against
 * CUB, both timed with events as the whole reduction on the device (the
 * host-clock total adds a cudaMemcpy of one int, ~10 us, that would drown
 * the difference at small n).
 */
static void print_versus_cub(const wb_report *r, FILE *out)
{
    int i, j, header = 0;
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *cub = &r->rows[i], *best = NULL;
        char words[64];
        if (strcmp(cub->kernel, CUB_NAME) != 0)
            continue;
        for (j = 0; j < r->nrows; ++j) {
            const wb_row *w = &r->rows[j];
            const wb_reduce_kernel *k = kernel_named(w->kernel);
            if (w->n != cub->n || !k || !k->one_pass || !strcmp(w->kernel, CUB_NAME) || !w->pass)
                continue;
            if (!best || w->time.median < best->time.median)
                best = w;
        }
        if (!best || cub->time.median <= 0)
            continue;
        if (!header) {
            fprintf(out, "one pass against the library (time ms: the whole reduction on the device, "
                         "CUDA events, medians):\n");
            header = 1;
        }
        /* "CUB": the cub::DeviceReduce::Sum row, so that the line fits 100 columns */
        wb_versus_library(words, sizeof words, best->time.median, cub->time.median);
        fprintf(out, "  n = %10lld  %s %.4f ms, CUB %.4f ms: %s\n", cub->n, best->kernel, best->time.median,
                cub->time.median, words);
    }
    if (header)
        fprintf(out, "\n");
    if (sweeping)
        fprintf(out, "(the ceiling line above is the last n's; each row's %% copy is against the copy\n"
                     "of its own n, on the line that heads its size)\n\n");
}

/* No -k: every kernel and exercise selected (the matrix exercise joins in). */
static int all_selected(const wb_args *a)
{
    int i;
    for (i = 0; i < lab.kernels.count; ++i)
        if (!a->selected[i])
            return 0;
    for (i = 0; i < lab.exercises.count; ++i)
        if (!a->ex_selected[i])
            return 0;
    return 1;
}

/* After the 1D rows: the matrix exercise's rows with --exercises, else its
 * count (no -k). */
static void matrix_exercise(wb_run *run)
{
    const wb_args *a = run->a;
    sweeping = a->extra; /* the notes add a word on the ceiling line */
    if (all_selected(a) && (a->exercises || run->r->ex_total > 0))
        lab05_matrix_exercise_rows(run, a->exercises);
}

/* --explain: explain.cu, with this build's reduceModern */
static void explain(const wb_args *a)
{
    lab05_explain(a, MODERN_UNROLL, MODERN_TILED);
}

static const wb_program program = WB_REDUCTION_PROGRAM(
    lab, .explain = explain, .mode = WB_MODE_SWEEP, .sweep_first = 1LL << 10, .sweep_last = 1LL << 28,
    .matrix = &lab05_matrix_program,
    .matrix_usage = "\nmatrix mode: ./lab05 -n NXxNY [-b WxH] ... sums a matrix of NX columns and NY rows:\n"
                    "  the whole matrix, each row, each column (./lab05 --list names the kernels;\n"
                    "  ./lab05 -n 8x8 -h for its options)\n",
    .matrix_list_head = "\nmatrix mode (./lab05 -n NXxNY, e.g. -n 8192x8192; NX columns, NY rows):\n",
    .timed = timed_text(),
    .total_what = "the whole reduction on the host clock: kernel + copy of the partial sums (one int for the "
                  "one-pass rows) + their sum on the host, as the book does it",
    .speedup_note = "the one-pass rows are whole reductions, the others first passes",
    .baseline = "reduceGmem"); /* speedups against it, else against the first kernel chosen */

int main(int argc, char **argv)
{
    wb_run run;
    int status = wb_main_rows(&program, argc, argv, &run);
    if (status < 0 && run.program == &lab05_matrix_program) {
        status = lab05_matrix_end(&run);
    } else if (status < 0) {
        matrix_exercise(&run);
        wb_reduce_notes(&run);
        print_versus_cub(run.r, wb_report_notes(run.r));
        status = wb_main_end(&run);
    }
    cubSum_release();
    lab05_matrix_release();
    return status;
}
