/*
 * bad_transpose.cu - lab06's runner (lab06_transpose/run.cu) against three
 * broken transposes: one that writes nothing, one that writes half the
 * output, one that writes one element past its end. Each row must FAIL in
 * every configuration (tests/gpu/gpu_harness.sh).
 */
#include "workbook.h"
#include "lab06.cuh"

__global__ void transposeNothing(float *out, const float *in, int nx, int ny) {}

__global__ void transposeHalf(float *out, const float *in, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny / 2)
        out[(size_t)x * ny + y] = in[(size_t)y * nx + x];
}

__global__ void transposePast(float *out, const float *in, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny)
        out[(size_t)x * ny + y] = in[(size_t)y * nx + x];
    if (x == 0 && y == 0)
        out[(size_t)nx * ny] = 0.0f;
}

LAUNCHER(launch_transposeNothing, transposeNothing) /* lab06.cuh's */
LAUNCHER(launch_transposeHalf, transposeHalf)
LAUNCHER(launch_transposePast, transposePast)

/* {name, lesson}, launch, is_copy, over_out, unroll, tile, fixed block */
static const t_kernel kernels[] = {
    {{"transposeNothing", "writes nothing"}, launch_transposeNothing, 0, 0, 1, 0, 0, 0},
    {{"transposeHalf", "writes the first half of the output"}, launch_transposeHalf, 0, 0, 1, 0, 0, 0},
    {{"transposePast", "writes the output and one element after it"}, launch_transposePast, 0, 0, 1, 0, 0, 0},
};

static const wb_lab lab = {
    .lab = "bad_transpose", .title = "lab06's runner's broken kernels", .shape = WB_MATRIX,
    .default_nx = 64, .default_ny = 64, .default_block_x = 16, .default_block_y = 16, .uses_block = 1,
    .default_reps = 2, .kernels = WB_TABLE(kernels), .exercises = WB_NO_EXERCISES,
};

static const wb_program program = {.lab = &lab, .runner = &lab06_runner,
                                   .check_args = check_grids, .check_type = WB_FLOAT + 1};

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
