/* tests/harness/lab06_first.cuh - lab06's exercises file for one test
 * (tests/gpu/gpu_lab06.sh, build/tests/lab06-first): a transposeSmem32x8
 * that is right on its first launch only (element (0, 0) is written then and
 * never again), which lab06 must FAIL: the output after the timed
 * repetitions is compared too. Never a lab's own exercises. */
#include "workbook.h"
#define TILE_DIM 32
#define BLOCK_ROWS 8
#define BDIMX 32
#define BDIMY 16
#define IPAD 2
__device__ unsigned first_only_launches;
/* a right transpose, except that element (0, 0) is written on the first launch only */
__global__ void transposeSmem32x8(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        int y = blockIdx.y * TILE_DIM + threadIdx.y + j;
        if (x < nx && y < ny && (x > 0 || y > 0))
            out[x * ny + y] = in[y * nx + x];
    }
    if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0 && first_only_launches++ == 0)
        out[0] = in[0];
}
__global__ void transposeSmemRect(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    WB_TODO();
}
__global__ void transposeSmemNoSync(float *out, const float *__restrict__ in, const int nx, const int ny)
{
    WB_TODO();
}
