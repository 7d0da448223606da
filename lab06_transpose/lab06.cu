/*
 * lab06 - matrix transpose: coalescing of loads versus stores, and the L1 cache.
 *
 * Build and run:
 *     make lab06 && ./lab06              every kernel at 2048x2048 floats, 16x16 blocks
 *     ./lab06 -n 8192                    8192x8192 (256 MiB per matrix: far more than the L2)
 *     ./lab06 -n 8192x4096 -b 32x8       a rectangle, another block shape
 *     ./lab06 -k transposeNaiveRow,transposeNaiveCol
 *     ./lab06 --explain                  who reads and writes what, per warp (CPU only)
 *     make lab06 DLCM=cg && ./lab06      the same program built with -Xptxas -dlcm=cg
 *                                        (DLCM=ca: -dlcm=ca); the banner says which
 *
 * The kernels (transpose.cuh), in the order of the table:
 *   copyRow, copyCol                       the bounds: the same bytes, no transposition
 *   transposeNaiveRow, transposeNaiveCol   one access coalesced, the other strided
 *   transposeUnroll4Row, transposeUnroll4Col  four elements per thread
 *   transposeSmem, transposeSmemPad        a shared-memory tile, without and with padding
 * and each of the first six again as "NAME+ldcg", with every load an __ldcg()
 * (L1 bypassed), so one table shows what the L1 cache does.
 *
 * The input is ny rows of nx floats; every kernel's output is compared bit
 * for bit with a transpose done on the host (the copies with the input),
 * after the output buffer was filled with 0xFF bytes (NaN), so a kernel that
 * writes nothing cannot pass. The exit status is the verdict.
 * The chapter is docs/lab06.md.
 */
#include "workbook.h"
#include "transpose.cuh"
#include "lab06.cuh"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* The table of kernels                                                    */
/* ---------------------------------------------------------------------- */
typedef void (*t_launch)(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block);

typedef struct {
    wb_kernel_info info;
    t_launch launch;
    int is_copy;   /* verified against the input itself, not its transpose */
    int over_out;  /* the grid covers the output (ny columns, nx rows), not the input */
    int unroll;    /* elements per thread along x: grid.x = ceil(columns / (block.x * unroll)) */
    int tile;      /* >0: one block per tile x tile tile, block fixed_x x fixed_y whatever -b says */
    int fixed_x, fixed_y;
} t_kernel;

/* One launcher per kernel and load flavour; each checks its launch. */
#define LAUNCHER(fn, kernel)                                                                \
    static void fn(float *out, const float *in, int nx, int ny, dim3 grid, dim3 block)     \
    {                                                                                       \
        kernel<<<grid, block>>>(out, in, nx, ny);                                           \
        CHECK_LAUNCH(#kernel);                                                              \
    }
LAUNCHER(run_copyRow, copyRow<false>)
LAUNCHER(run_copyRow_cg, copyRow<true>)
LAUNCHER(run_copyCol, copyCol<false>)
LAUNCHER(run_copyCol_cg, copyCol<true>)
LAUNCHER(run_naiveRow, transposeNaiveRow<false>)
LAUNCHER(run_naiveRow_cg, transposeNaiveRow<true>)
LAUNCHER(run_naiveCol, transposeNaiveCol<false>)
LAUNCHER(run_naiveCol_cg, transposeNaiveCol<true>)
LAUNCHER(run_unroll4Row, transposeUnroll4Row<false>)
LAUNCHER(run_unroll4Row_cg, transposeUnroll4Row<true>)
LAUNCHER(run_unroll4Col, transposeUnroll4Col<false>)
LAUNCHER(run_unroll4Col_cg, transposeUnroll4Col<true>)
LAUNCHER(run_smem, transposeSmem)
LAUNCHER(run_smemPad, transposeSmemPad)

static const t_kernel kernels[] = {
    {{"copyRow", "load a row, store a row: both coalesced; the bound for one element per thread"},
     run_copyRow, 1, 0, 1, 0, 0, 0},
    {{"copyRow+ldcg", "copyRow with __ldcg() loads (L2 only, L1 bypassed)"},
     run_copyRow_cg, 1, 0, 1, 0, 0, 0},
    {{"copyCol", "load a column, store a column: both strided; the lower bound"},
     run_copyCol, 1, 0, 1, 0, 0, 0},
    {{"copyCol+ldcg", "copyCol with __ldcg() loads: no L1 to catch the rest of each sector"},
     run_copyCol_cg, 1, 0, 1, 0, 0, 0},
    {{"transposeNaiveRow", "load rows (coalesced), store columns (strided)"},
     run_naiveRow, 0, 0, 1, 0, 0, 0},
    {{"transposeNaiveRow+ldcg", "transposeNaiveRow with __ldcg() loads"},
     run_naiveRow_cg, 0, 0, 1, 0, 0, 0},
    {{"transposeNaiveCol", "load columns (strided, but L1 keeps the rest of each sector), store rows"},
     run_naiveCol, 0, 1, 1, 0, 0, 0},
    {{"transposeNaiveCol+ldcg", "transposeNaiveCol with __ldcg() loads: what the L1 was worth"},
     run_naiveCol_cg, 0, 1, 1, 0, 0, 0},
    {{"transposeUnroll4Row", "NaiveRow with four elements per thread: four loads in flight"},
     run_unroll4Row, 0, 0, 4, 0, 0, 0},
    {{"transposeUnroll4Row+ldcg", "transposeUnroll4Row with __ldcg() loads"},
     run_unroll4Row_cg, 0, 0, 4, 0, 0, 0},
    {{"transposeUnroll4Col", "NaiveCol with four elements per thread"},
     run_unroll4Col, 0, 1, 4, 0, 0, 0},
    {{"transposeUnroll4Col+ldcg", "transposeUnroll4Col with __ldcg() loads"},
     run_unroll4Col_cg, 0, 1, 4, 0, 0, 0},
    {{"transposeSmem", "64x64 tile in shared memory, 32x16 threads (whatever -b says): both "
                       "accesses coalesced, but a column of the tile is one bank (32-way conflict)"},
     run_smem, 0, 0, 1, TILE, 32, TILE_ROWS},
    {{"transposeSmemPad", "the same tile padded by one column: a column spreads over 32 banks"},
     run_smemPad, 0, 0, 1, TILE, 32, TILE_ROWS},
};

static const wb_lab lab = {
    "lab06",
    "matrix transpose: coalesced loads versus stores, and the L1 cache",
    WB_MATRIX,
    0, 0, NULL,
    2048, 2048, /* the seed's matrix */
    16, 16,     /* the seed's block */
    1,
    20,
    NULL, NULL,
    WB_TABLE(kernels),
};

#define GRID_Y_MAX 65535LL /* gridDim.y and gridDim.z limit on every GPU */

/* The block kernel k runs with under -b bx x by. */
static dim3 block_for(const t_kernel *k, int bx, int by)
{
    if (k->tile)
        return dim3((unsigned)k->fixed_x, (unsigned)k->fixed_y);
    return dim3((unsigned)bx, (unsigned)by);
}

/* The grid kernel k needs for an nx x ny input with that block, as 64-bit
 * counts so that the caller can check them against the limits. */
static void grid_for(const t_kernel *k, int nx, int ny, dim3 block, long long *gx, long long *gy)
{
    long long cols = k->over_out ? ny : nx; /* the extent the grid's x covers */
    long long rows = k->over_out ? nx : ny;
    if (k->tile) {
        *gx = wb_ceil_div(nx, k->tile);
        *gy = wb_ceil_div(ny, k->tile);
        return;
    }
    *gx = wb_ceil_div(cols, (long long)block.x * k->unroll);
    *gy = wb_ceil_div(rows, block.y);
}

/* Refuse (exit 2) a shape whose grid would exceed gridDim.y <= 65535 for a
 * selected kernel. Before any CUDA call. */
static void check_grids(const wb_args *a)
{
    int i;
    for (i = 0; i < lab.kernels.count; ++i) {
        const t_kernel *k = &kernels[i];
        dim3 block = block_for(k, a->block_x, a->block_y);
        long long gx, gy;
        if (!a->selected[i])
            continue;
        grid_for(k, a->nx, a->ny, block, &gx, &gy);
        if (gy > GRID_Y_MAX) {
            fprintf(stderr,
                    "lab06: -n %dx%d with blocks of %ux%u: %s needs %lld blocks along y, more than the "
                    "%lld a grid allows; give a taller block (-b WxH with a larger H) or fewer rows\n",
                    a->nx, a->ny, block.x, block.y, k->info.name, gy, GRID_Y_MAX);
            exit(WB_EXIT_USAGE);
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Reference and verification                                              */
/* ---------------------------------------------------------------------- */

/* out[x * ny + y] = in[y * nx + x], in 32x32 blocks so both stay in cache. */
static void transpose_host(float *out, const float *in, int nx, int ny)
{
    const int B = 32;
    int yb, xb, y, x;
    for (yb = 0; yb < ny; yb += B)
        for (xb = 0; xb < nx; xb += B)
            for (y = yb; y < yb + B && y < ny; ++y)
                for (x = xb; x < xb + B && x < nx; ++x)
                    out[(size_t)x * ny + y] = in[(size_t)y * nx + x];
}

/* Compare got with want bit for bit (NaN included); write what was found
 * into check. rows x cols is the shape of the output. Returns 1 if equal. */
static int same_bits(const float *got, const float *want, int cols, int rows, char *check, size_t len)
{
    size_t n = (size_t)cols * rows, i, wrong = 0, first = 0;
    if (memcmp(got, want, n * sizeof(float)) == 0) {
        snprintf(check, len, "all %zu elements bitwise equal to the reference", n);
        return 1;
    }
    for (i = 0; i < n; ++i) {
        uint32_t g, w;
        memcpy(&g, &got[i], sizeof g);
        memcpy(&w, &want[i], sizeof w);
        if (g != w && wrong++ == 0)
            first = i;
    }
    {
        char msg[256];
        size_t m;
        snprintf(msg, sizeof msg, "%zu of %zu wrong; first at row %zu col %zu: %g, expected %g", wrong,
                 n, first / (size_t)cols, first % (size_t)cols, got[first], want[first]);
        m = strlen(msg) < len ? strlen(msg) : len - 1; /* the report keeps len - 1 characters */
        memcpy(check, msg, m);
        check[m] = '\0';
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Running the table                                                       */
/* ---------------------------------------------------------------------- */
typedef struct {
    const t_kernel *k;
    float *out;
    const float *in;
    int nx, ny;
    dim3 grid, block;
} run_ctx;

static void launch_once(void *p)
{
    run_ctx *c = (run_ctx *)p;
    c->k->launch(c->out, c->in, c->nx, c->ny, c->grid, c->block);
}

/* What the banner's "build" line says: how the binary's loads are compiled. */
static const char *build_note(void)
{
    static char note[200];
#ifdef WB_DLCM
    snprintf(note, sizeof note, "loads: -Xptxas -dlcm=%s (%s); the +ldcg rows use __ldcg() (L1 bypassed)",
             WB_DLCM, strcmp(WB_DLCM, "cg") == 0 ? "L1 bypassed" : "cached in L1");
#else
    snprintf(note, sizeof note,
             "loads: compiler default (no -dlcm: cached in L1 on cc 7.0+); the +ldcg rows use __ldcg() "
             "(L1 bypassed)");
#endif
    return note;
}

int main(int argc, char **argv)
{
    static wb_report r;
    wb_args a;
    wb_gpu g;
    size_t n, bytes;
    float *host_in, *host_ref, *host_out, *d_in, *d_out;
    int i;

    wb_args_or_exit(&lab, argc, argv, &a);
    check_grids(&a);
    if (a.explain) {
        lab06_explain(&a);
        return WB_EXIT_OK;
    }

    n = (size_t)a.nx * a.ny;
    bytes = n * sizeof(float);
    host_in = (float *)malloc(bytes);
    host_ref = (float *)malloc(bytes);
    host_out = (float *)malloc(bytes);
    if (!host_in || !host_ref || !host_out) {
        fprintf(stderr, "lab06: -n %dx%d needs 3 x %.2f GiB of host memory; choose a smaller -n\n", a.nx,
                a.ny, bytes / 1073741824.0);
        return WB_EXIT_USAGE;
    }
    wb_fill_floats(host_in, n, a.seed);
    transpose_host(host_ref, host_in, a.nx, a.ny);

    wb_gpu_open(&g, lab.lab);
    wb_report_init(&r, lab.lab);
    wb_report_device(&r, &g);
    r.timed = "one launch of the kernel (CUDA events); GB/s = 2 x nx x ny x 4 bytes / time";
    r.build = build_note();
    r.reps = a.reps;

    d_in = (float *)wb_device_alloc(bytes, "the input matrix", lab.lab);
    d_out = (float *)wb_device_alloc(bytes, "the output matrix", lab.lab);
    CHECK(cudaMemcpy(d_in, host_in, bytes, cudaMemcpyHostToDevice));
    wb_measure_ceiling(&g, &r, d_out, d_in, bytes, a.reps);

    for (i = 0; i < lab.kernels.count; ++i) {
        const t_kernel *k = &kernels[i];
        run_ctx c;
        wb_row row;
        long long gx, gy;
        if (!a.selected[i])
            continue;
        c.k = k;
        c.out = d_out;
        c.in = d_in;
        c.nx = a.nx;
        c.ny = a.ny;
        c.block = block_for(k, a.block_x, a.block_y);
        grid_for(k, a.nx, a.ny, c.block, &gx, &gy);
        c.grid = dim3((unsigned)gx, (unsigned)gy);

        memset(&row, 0, sizeof row);
        row.kernel = k->info.name;
        row.n = (long long)n;
        row.nx = a.nx;
        row.ny = a.ny;
        row.grid_x = c.grid.x;
        row.grid_y = c.grid.y;
        row.block_x = c.block.x;
        row.block_y = c.block.y;
        row.bytes = 2.0 * (double)bytes;
        row.total_ms = -1;

        /* verify first: poisoned output (0xFF bytes are a NaN no kernel copies), one launch */
        CHECK(cudaMemset(d_out, 0xFF, bytes));
        launch_once(&c);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(host_out, d_out, bytes, cudaMemcpyDeviceToHost));
        if (k->is_copy)
            row.pass = same_bits(host_out, host_in, a.nx, a.ny, row.check, sizeof row.check);
        else
            row.pass = same_bits(host_out, host_ref, a.ny, a.nx, row.check, sizeof row.check);

        row.time = wb_time_events(&g, launch_once, NULL, &c, a.reps);
        wb_report_add(&r, &row);
    }

    wb_report_print(&r, a.format, stdout);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    wb_gpu_close(&g);
    free(host_in);
    free(host_ref);
    free(host_out);
    return wb_report_status(&r);
}
