/*
 * lab05-finish - the last step of a one-pass reduction, four ways, against
 * CUB. The question of docs/lab05-finish.md: where do reduceModern's last
 * microseconds go at n = 2^20, and can a cheaper finish win them back?
 *
 * Build and run (from the top of the workbook):
 *     make lab05-finish && ./lab05-finish          n = 2^20, block 512, 200 repetitions
 *     ./lab05-finish -n 2^28 -r 20                 the same at the large end
 *     ./lab05-finish --csv                         machine-readable (docs/output.md)
 *
 * Every kernel here does the same loads as reduceModern (modernThreadSum:
 * int4 tiles over a grid that fills the GPU once) and the same block sum
 * (blockReduceShfl); only what happens to the block's sum differs:
 *   1 modernPartials      no finish on the device: one partial per block,
 *                         which the host adds (the row's time ms is then
 *                         the loads and block sums alone, a floor that no
 *                         finish can go under)
 *   2 reduceModern        lab05's kernel: one returning 64-bit atomicAdd
 *                         per block; the last block writes the result
 *   3 modernMemsetAtomic  cudaMemsetAsync(result, 0) first, then one
 *                         atomicAdd per block straight into the result
 *   4 modernFlagAtomic    block 0 zeroes the result and raises a flag
 *                         (release); the others wait for the flag
 *                         (acquire), then atomicAdd into the result
 *   5 cub::DeviceReduce::Sum  the bar
 * Every row is checked exactly, as in every lab; time ms is the event time
 * of the whole reduction on the device for rows 2-5, of the first pass for
 * row 1. Its chapter, docs/lab05-finish.md,
 * shows an H100 run.
 */
#include "workbook.h"
#include "../modern.cuh"
#include "../cub_sum.cuh"

#include <string.h>

/* 1. The floor: the loads and the block sum, then a plain store per block. */
__global__ void modernPartials(const int *__restrict__ g_idata, int *g_odata, unsigned int n)
{
    __shared__ int warp_sums[32];
    int sum = blockReduceShfl(modernThreadSum(g_idata, n), warp_sums);
    if (threadIdx.x == 0)
        g_odata[blockIdx.x] = sum;
}

/* 3. The result was zeroed by a memset in the same stream: add to it. The
 * atomicAdd's value is not used, so it compiles to a fire-and-forget RED:
 * no block waits for an answer. */
__global__ void modernMemsetAtomic(const int *__restrict__ g_idata, int *g_odata, unsigned int n)
{
    __shared__ int warp_sums[32];
    int sum = blockReduceShfl(modernThreadSum(g_idata, n), warp_sums);
    if (threadIdx.x == 0)
        atomicAdd(g_odata, sum);
}

/* 4. No memset: block 0 zeroes the result itself and then publishes the
 * launch's number in finish_flag with a release store, so that any block
 * that reads that number with an acquire load also sees the zero. Every
 * other block waits for the flag before its atomicAdd. The grid is
 * reduceModern's (grid_reduceModern: no more blocks than fit on the GPU at
 * once), so block 0 is running while the others wait; a wait of more than
 * 100 ms traps (a CUDA error, exit 3) instead of hanging. */
__device__ unsigned int finish_flag = 0;

__global__ void modernFlagAtomic(const int *__restrict__ g_idata, int *g_odata, unsigned int n,
                                 unsigned int launch)
{
    __shared__ int warp_sums[32];
    int sum;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        g_odata[0] = 0;
        asm volatile("st.release.gpu.global.u32 [%0], %1;" : : "l"(&finish_flag), "r"(launch) : "memory");
    }
    sum = blockReduceShfl(modernThreadSum(g_idata, n), warp_sums);
    if (threadIdx.x == 0) {
        if (blockIdx.x != 0) {
            unsigned int seen;
            long long t0, t;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
            for (;;) {
                asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(&finish_flag) : "memory");
                if (seen == launch)
                    break;
                asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
                if (t - t0 > 100000000LL)
                    __trap();
            }
        }
        atomicAdd(g_odata, sum);
    }
}

/* int only (lab05-finish has no --type): the launchers ignore the type */
static void launch_modernPartials(void *data, void *partial, unsigned n, unsigned grid, unsigned block,
                                  wb_type type)
{
    (void)type;
    modernPartials<<<grid, block>>>((const int *)data, (int *)partial, n);
    CHECK_LAUNCH("modernPartials");
}

static void launch_modernMemsetAtomic(void *data, void *partial, unsigned n, unsigned grid,
                                      unsigned block, wb_type type)
{
    (void)type;
    /* inside the timed region, like everything a launcher does */
    CHECK(cudaMemsetAsync(partial, 0, sizeof(int), 0));
    modernMemsetAtomic<<<grid, block>>>((const int *)data, (int *)partial, n);
    CHECK_LAUNCH("modernMemsetAtomic");
}

static void launch_modernFlagAtomic(void *data, void *partial, unsigned n, unsigned grid,
                                    unsigned block, wb_type type)
{
    /* a new number every launch, never 0 (the flag's first value) */
    static unsigned int launch = 0;
    (void)type;
    if (++launch == 0)
        launch = 1;
    modernFlagAtomic<<<grid, block>>>((const int *)data, (int *)partial, n, launch);
    CHECK_LAUNCH("modernFlagAtomic");
}

/* The rows, int only (no .types), at any block of 32..1024: the one-pass
 * rows leave the sum in partial[0] (one_pass); every row sizes its own grid
 * (grid_for). */
static const wb_reduce_kernel kernels[] = {
    WB_KERNEL("modernPartials",
              "the floor: reduceModern's loads and block sums, one partial per block (the host "
              "adds them)",
              launch_modernPartials, .per_thread = 4, .grid_for = grid_reduceModern),
    WB_KERNEL("reduceModern",
              "lab05's int finish: one returning 64-bit atomic per block, the last block writes",
              launch_reduceModern, .per_thread = 4, .one_pass = 1, .grid_for = grid_reduceModern),
    WB_KERNEL("modernMemsetAtomic",
              "cudaMemsetAsync the result to 0, then one fire-and-forget atomicAdd per block",
              launch_modernMemsetAtomic, .per_thread = 4, .one_pass = 1,
              .grid_for = grid_reduceModern),
    WB_KERNEL("modernFlagAtomic",
              "block 0 zeroes the result and raises a flag; the others wait, then atomicAdd",
              launch_modernFlagAtomic, .per_thread = 4, .one_pass = 1,
              .grid_for = grid_reduceModern),
    CUB_ROW("NVIDIA's library, the bar: two launches to one number"),
};

/* As a reduction lab, but n = 2^20 and 200 repetitions by default: the
 * differences are fractions of a microsecond. */
static const wb_lab lab = {
    .lab = "lab05-finish",
    .title = "four ways to finish a one-pass reduction, against CUB",
    .shape = WB_LENGTH,
    .default_n = 1 << 20,
    .max_n = WB_INT_MAX,
    .max_n_reason = "the exact int sum must fit in an int",
    .n_words = "elements to reduce",
    .default_block_x = 512,
    .uses_block = 1,
    .default_reps = 200,
    .kernels = WB_TABLE(kernels),
    .exercises = WB_NO_EXERCISES,
};

/* Under the table: each one-pass row against CUB and against the floor. */
static void print_finish_notes(const wb_report *r, FILE *out)
{
    const wb_row *cub = NULL, *floor_row = NULL;
    int i, header = 0;
    for (i = 0; i < r->nrows; ++i) {
        if (!strcmp(r->rows[i].kernel, CUB_NAME))
            cub = &r->rows[i];
        if (!strcmp(r->rows[i].kernel, "modernPartials"))
            floor_row = &r->rows[i];
    }
    for (i = 0; i < r->nrows; ++i) {
        const wb_row *w = &r->rows[i];
        if (w == cub || w == floor_row || !w->pass || w->time.median <= 0)
            continue;
        if (!header) {
            fprintf(out, "each finish (time ms: the whole reduction on the device, CUDA events, medians):\n");
            header = 1;
        }
        fprintf(out, "  %-20s %.4f ms", w->kernel, w->time.median);
        if (floor_row && floor_row->pass)
            fprintf(out, ", %+.4f ms over the floor", w->time.median - floor_row->time.median);
        if (cub && cub->pass)
            fprintf(out, ", %.2fx %s", cub->time.median / w->time.median, CUB_NAME);
        fprintf(out, "\n");
    }
    if (header)
        fprintf(out, "\n");
}

/* --explain: what each finish puts on the critical path (no GPU needed). */
static void explain_finishes(const wb_args *a)
{
    (void)a;
    printf("lab05-finish --explain: what happens after the LAST block's loads arrive\n\n"
           "A one-pass reduction is done when the last block's sum is in the result.\n"
           "Every finish starts the same way: that block's loads arrive, its warps\n"
           "shuffle and one __syncthreads() later thread 0 holds the block's sum.\n"
           "Then, counting trips between the SM and the L2 cache (where global\n"
           "atomics are done and where the result lives):\n\n"
           "  modernPartials      store the sum: 1 trip out. Not a reduction yet:\n"
           "                      the host must still add the partials. The floor.\n"
           "  reduceModern        atomicAdd(&acc, sum + a count of 1) and WAIT for\n"
           "                      the old value (1 trip out, 1 back); the block that\n"
           "                      sees count = gridDim.x - 1 is last and stores the\n"
           "                      result (1 more trip out). About 3 one-way trips.\n"
           "  modernMemsetAtomic  atomicAdd(result, sum) without waiting (a RED):\n"
           "                      1 trip out, as cheap as the floor, but the memset\n"
           "                      before the kernel is one more operation in the\n"
           "                      stream, and the GPU starts it, waits for it, then\n"
           "                      starts the kernel.\n"
           "  modernFlagAtomic    no memset: block 0 zeroes the result and raises a\n"
           "                      flag; every other block must SEE the flag before\n"
           "                      its RED (1 trip out and 1 back for the acquire\n"
           "                      load, then 1 out). Block 0's release store also\n"
           "                      waits for its zero to reach L2.\n"
           "  cub::DeviceReduce   a second kernel: the first must finish, the second\n"
           "                      start, read the partials and store the result.\n\n"
           "Run ./lab05-finish on a GPU to measure each one.\n");
}

static const wb_program program = WB_REDUCTION_PROGRAM(
    lab, .explain = explain_finishes,
    .timed = "the whole reduction to one number on the device (CUDA events), except modernPartials: its "
             "first pass alone, the floor",
    .total_what = "the whole reduction on the host clock: kernel + copy of the result (the partial sums for "
                  "modernPartials) + their sum on the host",
    .baseline = "modernPartials");

int main(int argc, char **argv)
{
    wb_run run;
    int status = wb_main_rows(&program, argc, argv, &run);
    if (status < 0) {
        print_finish_notes(run.r, wb_report_notes(run.r));
        status = wb_main_end(&run);
    }
    cubSum_release();
    return status;
}
