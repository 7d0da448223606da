/*
 * bad_matrix.cu - lab05's matrix runner (lab05_smem/matrix/matrix_run.cu) against
 * three broken row-sum kernels: one that writes nothing, one that writes
 * half the rows' sums, one that writes one past the last. Each row must
 * FAIL in every configuration (tests/gpu/gpu_harness.sh).
 */
#include "workbook.h"
#include "matrix/matrix.h"

/* Row r's right sum, by one thread. */
__device__ int row_sum(const int *a, int nx, int r)
{
    int s = 0;
    for (int c = 0; c < nx; ++c)
        s += a[(size_t)r * nx + c];
    return s;
}

__global__ void rowsNothing(const int *a, int *out, int nx, int ny) {}

__global__ void rowsHalf(const int *a, int *out, int nx, int ny)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < ny / 2)
        out[r] = row_sum(a, nx, r);
}

__global__ void rowsPast(const int *a, int *out, int nx, int ny)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < ny)
        out[r] = row_sum(a, nx, r);
    if (r == 0)
        out[ny] = 0;
}

M_LAUNCHER(rowsNothing)
M_LAUNCHER(rowsHalf)
M_LAUNCHER(rowsPast)

/* a thread per row, blocks of -b's threads */
static void per_row(int nx, int ny, int bx, int by, const wb_gpu *g, dim3 *grid, dim3 *block, size_t *scratch)
{
    (void)nx;
    (void)g;
    *block = dim3((unsigned)(bx * by));
    *grid = dim3((unsigned)wb_ceil_div(ny, bx * by));
    *scratch = 0;
}

static const m_kernel kernels[] = {
    {{"rowsNothing", "writes no row sum"}, run_rowsNothing, per_row, M_ROWS, 0},
    {{"rowsHalf", "writes the first half of the row sums"}, run_rowsHalf, per_row, M_ROWS, 0},
    {{"rowsPast", "writes the row sums and one more after them"}, run_rowsPast, per_row, M_ROWS, 0},
};

static const wb_lab lab = {
    .lab = "bad_matrix", .title = "the matrix runner's broken kernels", .shape = WB_MATRIX,
    .default_nx = 64, .default_ny = 64, .default_block_x = 16, .default_block_y = 16, .uses_block = 1,
    .default_reps = 2, .kernels = WB_TABLE(kernels), .exercises = WB_NO_EXERCISES,
};

static const wb_program program = {.lab = &lab, .runner = &lab05_matrix_runner};

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
