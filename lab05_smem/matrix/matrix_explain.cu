/*
 * matrix_explain.cu - lab05 -n NXxNY --explain: who adds what, on a tiny
 * matrix, on the CPU (no GPU is used).
 *
 * The matrix (at most 16x8, else 12x6) with its row and column sums; which
 * block of reduce2D, shrunk to 2x2 blocks on a 2x2 grid, adds each element;
 * and which words the lanes of one warp read in the first step of each row
 * and column kernel of matrix.cu. Chapter: docs/lab05-matrix.md.
 */
#include "workbook.h"
#include "matrix.h"

#include <stdio.h>

#define EX_MAX_NX 16
#define EX_MAX_NY 8

void lab05_matrix_explain(const wb_args *a)
{
    int nx = a->nx, ny = a->ny, v[EX_MAX_NX * EX_MAX_NY], r, c, bx = 2, by = 2, gx = 2, gy = 2;
    long long rows[EX_MAX_NY] = {0}, cols[EX_MAX_NX] = {0}, total = 0, part[4] = {0};
    if (nx > EX_MAX_NX || ny > EX_MAX_NY || !a->n_given) {
        printf("(a matrix of at most %dx%d fits on the page: showing 12x6)\n\n", EX_MAX_NX, EX_MAX_NY);
        nx = 12;
        ny = 6;
    }
    for (r = 0; r < nx * ny; ++r) { /* single digits keep the columns narrow */
        unsigned long long s = a->seed * 0x9E3779B97F4A7C15ULL + (unsigned long long)r * 0xBF58476D1CE4E5B9ULL;
        v[r] = (int)((s >> 40) % 10);
    }
    for (r = 0; r < ny; ++r)
        for (c = 0; c < nx; ++c) {
            rows[r] += v[r * nx + c];
            cols[c] += v[r * nx + c];
            total += v[r * nx + c];
        }

    printf("lab05 matrix mode: %d rows of %d ints, row-major: element (r, c) is a[r*%d + c].\n", ny, nx, nx);
    printf("A row is %d neighbouring words; a column is words %d apart.\n\n", nx, nx);
    printf("       c:");
    for (c = 0; c < nx; ++c)
        printf("%3d", c);
    printf("  | row sum\n");
    for (r = 0; r < ny; ++r) {
        printf("  row %2d:", r);
        for (c = 0; c < nx; ++c)
            printf("%3d", v[r * nx + c]);
        printf("  | %4lld\n", rows[r]);
    }
    printf("  col sum:");
    for (c = 0; c < nx; ++c)
        printf("%3lld", cols[c]); /* at most 9 * EX_MAX_NY: two digits */
    printf("  | %4lld total\n\n", total);

    /* reduce2D, shrunk to 2x2 blocks on a 2x2 grid */
    printf("reduce2D, shrunk to 2x2 blocks on a 2x2 grid (the chapter: 16x16 on 64x64). The grid has\n"
           "%d threads across and %d down, so thread (ix, iy) adds rows iy, iy+%d, ... and in each\n"
           "columns ix, ix+%d, ...  The letter of the block that adds each element:\n",
           bx * gx, by * gy, by * gy, bx * gx);
    for (r = 0; r < ny; ++r) {
        printf("  row %2d: ", r);
        for (c = 0; c < nx; ++c) {
            int b = (c % (bx * gx)) / bx + gx * ((r % (by * gy)) / by);
            part[b] += v[r * nx + c];
            printf("%3c", 'A' + b);
        }
        printf("\n");
    }
    printf("Each block's 4 threads store their sums in ONE 1D shared array at\n"
           "tid = threadIdx.x + blockDim.x * threadIdx.y, and the tree adds s_block[tid + 2], then\n"
           "s_block[tid + 1]. One partial sum per block: A %lld, B %lld, C %lld, D %lld;\n"
           "the host adds them: %lld.\n\n",
           part[0], part[1], part[2], part[3], part[0] + part[1] + part[2] + part[3]);

    /* who reads what in one step of a warp (4 lanes shown) */
    printf("Who reads what in the first step of one warp (4 lanes shown; a warp has 32):\n");
    printf("  rowSumNaive      a thread per row:    lanes read a[%d], a[%d], a[%d], a[%d]: %d apart,\n"
           "                                        one memory line each\n",
           0, nx, 2 * nx, 3 * nx, nx);
    printf("  rowSumWarp       a warp per row:      lanes read a[0..3], a[4..7], ... of row 0, an int4\n"
           "                                        each: neighbours, one line for the warp\n");
    printf("  rowSumBlock      a block per row:     the same, with every thread of the block on row 0\n");
    printf("  colSumNaive      a thread per column: lanes read a[0], a[1], a[2], a[3]: neighbours, but\n"
           "                                        only %d threads in all, each down %d rows\n",
           nx, ny);
    printf("  colSumCoalesced  a warp on a strip:   lanes read a[0..3], a[4..7], ... of one row, the\n"
           "                                        block's other warps the next rows of its chunk;\n"
           "                                        a second kernel adds the chunks' column sums\n");
    printf("  colSumOnePass    the same reads:      chunks of 64 rows (longer on a GPU with more memory\n"
           "                                        bandwidth per SM); each block atomicAdds its column\n"
           "                                        sums, the strip's last block writes them\n");
    printf("Column %d's sum, %lld, is the sum of its chunks whatever their order: integers add exactly.\n",
           0, cols[0]);
}

