/*
 * matrix.h - lab05's matrix mode: a kernel's outputs, launch and shape, the
 * row of its table (m_kernel), and the mode's program, runner, --explain
 * and rows under the 1D run.
 *
 *     ./lab05 -n 8192x8192            a matrix of 8192 columns and 8192 rows (NXxNY, as lab06)
 *     ./lab05 -n 20000x20000 -b 32x8  another block shape (W*H a power of two, 32..1024)
 *     ./lab05 -n 12x6 --explain       who adds what, on a tiny matrix (no GPU)
 *
 * A plain `./lab05` (or -n with no `x`) is the 1D lab; an `-n` with an `x`
 * runs lab05_matrix_program instead.
 */
#ifndef LAB05_MATRIX_H
#define LAB05_MATRIX_H

#include "workbook.h"

/* What a kernel produces from the ny x nx int matrix a (row-major):
 *   M_TOTAL  the sum of every element: one number in out[0], or one partial
 *            sum per block in out[0..blocks) that the host adds (partials 1)
 *   M_ROWS   out[r] = the sum of row r, r < ny
 *   M_COLS   out[c] = the sum of column c, c < nx                          */
typedef enum { M_TOTAL, M_ROWS, M_COLS } m_output;

/* One launch (or the few launches a kernel needs) on a: out as above;
 * scratch holds scratch_ints(...) ints for a kernel that needs room for
 * partial results. Each checks its launches. */
typedef void (*m_launch)(const int *a, int *out, int *scratch, int nx, int ny, dim3 grid, dim3 block);

/* run_KERNEL: an m_launch of one launch of KERNEL(a, out, nx, ny), checked. */
#define M_LAUNCHER(kernel)                                                                          \
    static void run_##kernel(const int *a, int *out, int *scratch, int nx, int ny, dim3 grid, dim3 block) \
    {                                                                                               \
        (void)scratch;                                                                              \
        kernel<<<grid, block>>>(a, out, nx, ny);                                                    \
        CHECK_LAUNCH(#kernel);                                                                      \
    }
/* The grid and block kernel k runs with on an ny x nx matrix when -b says
 * bx x by; *scratch: the ints of scratch it needs (0 for none). */
typedef void (*m_shape)(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                        size_t *scratch);

typedef struct {
    wb_kernel_info info;
    m_launch launch;
    m_shape shape;
    m_output output;
    int partials; /* M_TOTAL only: one partial sum per block (the host adds them) */
} m_kernel;

/* reduce2D's grid is at most GRID_2D_SIDE x GRID_2D_SIDE blocks (the
 * chapter's 64x64): its partial sums fit in that many ints. */
#define GRID_2D_SIDE 64

/* reduce2D's shape, for the exercise that is measured against it (matrix.cu) */
void lab05_reduce2D_shape(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block,
                          size_t *scratch);

#include "exercises.h" /* lab05_matrix_exercises, the mode's exercise rows */

/* matrix_run.cu: the runner of the matrix mode (program.h): each input a
 * matrix drawn from the seed with its exact row, column and total sums;
 * every output of a row checked against them, outputs poisoned first. */
extern const wb_runner lab05_matrix_runner;

/* matrix.cu: the matrix mode as a program; ./lab05 runs it for -n NXxNY
 * (wb_main_rows picks it), then lab05_matrix_end: the notes against the
 * library under the table, and wb_main_end. lab05_matrix_release frees
 * CUB's segmented buffers (none: nothing). */
extern const wb_program lab05_matrix_program;
int lab05_matrix_end(wb_run *run);
void lab05_matrix_release(void);

/* --explain of the matrix mode (matrix_explain.cu): a tiny matrix, its sums,
 * and who adds and reads what in each kernel. CPU only. */
void lab05_matrix_explain(const wb_args *a);

/*
 * The 1D run's share of the matrix exercises: with --exercises (timed = 1)
 * their rows, each under the row of the kernel it is measured against, at
 * the matrix exercise shape, with the 1D run's -r and --seed; without
 * (timed = 0) each checked once and counted in the report's closing line.
 * The 1D report's ceiling line is left as it was (each row carries its own).
 */
void lab05_matrix_exercise_rows(wb_run *run, int timed);

#endif /* LAB05_MATRIX_H */
