/*
 * scanlab.cu - the smallest lab that is not a reduction (docs/maintainers.md):
 * inclusive prefix sums, out[i] = in[0] + ... + in[i]. A table, a runner and
 * its kernels; common/ does the rest (-h, --list, -k, --check, --csv,
 * --exercises, the poison and the guard, the exit statuses).
 */
#include "workbook.h"

#include <stdlib.h>

/* The inclusive scan of the block's values (Hillis and Steele): at step d
 * each thread adds the value d places before its own; a barrier between the
 * step's reads and its writes. Every thread calls it once. */
__device__ int blockScan(int v)
{
    __shared__ int s[1024];
    s[threadIdx.x] = v;
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        __syncthreads();
        int u = threadIdx.x >= d ? s[threadIdx.x - d] : 0;
        __syncthreads();
        v += u;
        s[threadIdx.x] = v;
    }
    return v;
}

/* Block b's scan of its part of in[0..n) into out (past n a thread adds 0),
 * its total to sums[b]. in may be out: each thread reads and writes its own. */
__global__ void scanSmem(const int *in, int *out, int *sums, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = blockScan(i < n ? in[i] : 0);
    if (i < n)
        out[i] = v;
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = v;
}

/* The exercises: one to write (a stub), one to fix (every sum one behind). */
__global__ void scanShfl(const int *in, int *out, int *sums, unsigned n) { WB_TODO(); }
__global__ void scanExclusive(const int *in, int *out, int *sums, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0, v = blockScan(x);
    if (i < n)
        out[i] = v - x; /* the bug: its own element left out */
    if (threadIdx.x == blockDim.x - 1)
        sums[blockIdx.x] = v;
}

/* Block b + 1's elements get the scanned total of blocks 0..b. */
__global__ void addOffsets(int *out, const int *sums, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += sums[blockIdx.x];
}

/* The tables: a row is a wb_kernel_info first, then what the runner needs. */
typedef struct { wb_kernel_info info; void (*scan)(const int *, int *, int *, unsigned); } scan_kernel;
static const scan_kernel kernels[] = {
    {{"scanSmem", "each block's scan in shared memory, then the blocks' totals"}, scanSmem}};
static const scan_kernel exercises[] = {
    {{"scanShfl", "the block's scan with warp shuffles", "write", "scanSmem"}, scanShfl},
    {{"scanExclusive", "a scan that comes out one element behind", "fix", "scanSmem"}, scanExclusive}};
static const wb_lab lab = {
    .lab = "scanlab", .title = "inclusive prefix sums: an example lab", .shape = WB_LENGTH,
    .default_n = 1 << 24, .max_n = WB_INT_MAX, .max_n_reason = "an int index", .n_words = "elements to scan",
    .default_block_x = 512, .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(kernels),
    .exercises = WB_TABLE(exercises), .exercise_file = "tests/example/scanlab.cu", .exercise_n = WB_EXERCISE_N,
    .todo_take = WB_TODO_TAKE};

/* The whole scan: k's block scans, then their totals scanned (in place, the
 * next level's totals after them) and added to the blocks after the first. */
static void scan_all(const scan_kernel *k, const int *in, int *out, int *sums, unsigned n, unsigned block)
{
    unsigned grid = (unsigned)wb_ceil_div(n, block);
    k->scan<<<grid, block>>>(in, out, sums, n);
    CHECK_LAUNCH("the block scan");
    if (grid == 1)
        return;
    scan_all(k, sums, sums, sums + grid, grid, block);
    addOffsets<<<grid - 1, block>>>(out + block, sums, n - block);
    CHECK_LAUNCH("addOffsets");
}

/* The runner: one input per seed and length. */
typedef struct { unsigned n; size_t nsums; int *want, *got, *d_in, *d_out, *d_sums; } input;

static void open_input(wb_run *run, const wb_input_cfg *cfg)
{
    input *in = (input *)calloc(1, sizeof *in);
    int i;
    in->n = (unsigned)cfg->n;
    in->nsums = in->n / 31 + 8; /* every level's totals at -b 32 or more: n/32 + n/32^2 + ..., 1 per level */
    in->want = (int *)malloc(2 * (size_t)in->n * sizeof(int));
    in->got = in->want + in->n; /* the input, until a run's sums come back */
    wb_fill_ints(in->got, in->n, cfg->seed); /* every sum fits in an int, none negative */
    for (in->want[0] = in->got[0], i = 1; i < (int)in->n; ++i)
        in->want[i] = in->want[i - 1] + in->got[i];
    in->d_in = (int *)wb_device_alloc(in->n * sizeof(int), "the input", lab.lab);
    in->d_out = (int *)wb_device_alloc(in->n * sizeof(int) + WB_GUARD_BYTES, "the prefix sums", lab.lab);
    in->d_sums = (int *)wb_device_alloc(in->nsums * sizeof(int), "the block totals", lab.lab);
    CHECK(cudaMemcpy(in->d_in, in->got, in->n * sizeof(int), cudaMemcpyHostToDevice));
    if (cfg->timed)
        wb_measure_ceiling((wb_gpu *)run->dev, run->r, in->d_out, in->d_in, in->n * sizeof(int), run->a->reps);
    run->input = in;
}

typedef struct { const scan_kernel *k; input *in; unsigned block; } scan_ctx;

static void poison(void *p, int) /* the sums, the guard after them, the totals */
{
    input *in = ((scan_ctx *)p)->in;
    wb_poison_guarded(in->d_out, in->n * sizeof(int), WB_POISON_BYTE);
    wb_poison(in->d_sums, in->nsums * sizeof(int), WB_POISON_BYTE);
}

static void scan(void *p, wb_run_what)
{
    scan_ctx *c = (scan_ctx *)p;
    scan_all(c->k, c->in->d_in, c->in->d_out, c->in->d_sums, c->in->n, c->block);
}

/* Every sum against the host's, exactly (one still poisoned was never
 * written); the guard after them after the verified run. */
static void judge(void *p, wb_row *row, const char *when)
{
    input *in = ((scan_ctx *)p)->in;
    int i = 0;
    if (when && !row->pass)
        return;
    CHECK(cudaMemcpy(in->got, in->d_out, in->n * sizeof(int), cudaMemcpyDeviceToHost));
    while (i < (int)in->n && in->got[i] == in->want[i])
        ++i;
    row->pass = i == (int)in->n;
    if (!row->pass)
        snprintf(row->check, sizeof row->check, "element %d: %d%s%s%s, expected %d", i, in->got[i],
                 wb_first_poisoned(&in->got[i], 1, sizeof(int), WB_POISON_BYTE) ? "" : " (never written)",
                 when ? " in a " : "", when ? when : "", in->want[i]);
    else if (!when && !wb_guard_intact(in->d_out, in->n * sizeof(int), WB_POISON_BYTE))
        row->pass = 0, snprintf(row->check, sizeof row->check, "wrote past its last prefix sum");
    else if (!when)
        snprintf(row->check, sizeof row->check, "all %u prefix sums exact", in->n);
    if (!when)
        wb_row_result_bytes(row, in->got, in->n * sizeof(int));
}

static const wb_row_ops ops = {poison, scan, judge, 0};

static void run_row(const wb_run *run, const wb_kernel_info *k, int bx, int, int, wb_row_mode mode, wb_row *row)
{
    scan_ctx c = {(const scan_kernel *)k, (input *)run->input, (unsigned)bx};
    wb_row_init(row, k, c.in->n, 2.0 * c.in->n * sizeof(int)); /* read once, written once */
    row->grid_x = (unsigned)wb_ceil_div(c.in->n, bx), row->grid_y = 1, row->block_x = c.block, row->block_y = 1;
    wb_run_row((wb_gpu *)run->dev, run->r, run->lab, run->a->reps, mode, &ops, &c, row);
}

static void close_input(wb_run *run)
{
    input *in = (input *)run->input;
    CHECK(cudaFree(in->d_in));
    CHECK(cudaFree(in->d_out));
    CHECK(cudaFree(in->d_sums));
    free(in->want);
    free(in);
}

static const wb_runner runner = {open_input, run_row, close_input, "the whole scan, every level (CUDA events)", NULL};
static const wb_program program = {.lab = &lab, .runner = &runner};

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
