/*
 * maxlab.cu - the smallest program on wb_main (docs/maintainers.md): the
 * largest of n ints, one maximum per block, the host takes the largest of
 * those. A table, a runner and its kernels; common/ does the rest (-h,
 * --list, -k, --check, --csv, --exercises, the poison, the exit statuses).
 */
#include "workbook.h"

#include <limits.h>
#include <stdlib.h>

/* Each block's largest element to out[blockIdx.x] (blocks of 32..1024). */
__global__ void blockMax(const int *in, int *out, unsigned n)
{
    __shared__ int s[1024];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : INT_MIN;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] = max(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

/* The exercises: one to write (a stub), one to fix (it writes past its end). */
__global__ void blockMaxShfl(const int *in, int *out, unsigned n) { WB_TODO(); }
__global__ void blockMaxTwice(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 2) /* threads 0 and 1 both write: one lands after the block's slot */
        out[blockIdx.x + threadIdx.x] = i < n ? in[i] : INT_MIN;
}

typedef void (*max_launch)(const int *in, int *out, unsigned n, unsigned grid, unsigned block);
#define LAUNCHER(kernel)                                                                    \
    static void launch_##kernel(const int *in, int *out, unsigned n, unsigned grid, unsigned block) \
    {                                                                                       \
        kernel<<<grid, block>>>(in, out, n);                                                \
        CHECK_LAUNCH(#kernel);                                                              \
    }
LAUNCHER(blockMax)
LAUNCHER(blockMaxShfl)
LAUNCHER(blockMaxTwice)

/* The tables: a row is a wb_kernel_info first, then what the runner needs. */
typedef struct { wb_kernel_info info; max_launch launch; } max_kernel;
static const max_kernel kernels[] = {{{"blockMax", "a tree of max in shared memory, a maximum per block"},
                                      launch_blockMax}};
static const max_kernel exercises[] = {
    {{"blockMaxShfl", "the same with warp shuffles", "write", "blockMax"}, launch_blockMaxShfl},
    {{"blockMaxTwice", "a maximum per block that lands twice", "fix", "blockMax"}, launch_blockMaxTwice},
};
static const wb_lab lab = {
    .lab = "maxlab", .title = "the largest element: an example lab", .shape = WB_LENGTH, .default_n = 1 << 24,
    .max_n = WB_INT_MAX, .max_n_reason = "an int index", .default_block_x = 512, .uses_block = 1,
    .default_reps = 20, .kernels = WB_TABLE(kernels), .exercises = WB_TABLE(exercises),
    .exercise_file = "tests/example/maxlab.cu", .exercise_n = WB_EXERCISE_N, .todo_take = WB_TODO_TAKE};

/* The runner: one input per seed and length, sized for every -b. */
typedef struct { unsigned n, max_grid; int want, *host_out, *d_in, *d_out, *d_copy; } input;

static void open_input(wb_run *run, const wb_input_cfg *cfg)
{
    input *in = (input *)calloc(1, sizeof *in);
    int *host = (int *)malloc((size_t)cfg->n * sizeof(int)), i;
    in->n = (unsigned)cfg->n;
    for (i = 0; i < cfg->nblocks; ++i) /* the most blocks of any -b */
        if (wb_ceil_div(in->n, cfg->bx[i]) > in->max_grid)
            in->max_grid = (unsigned)wb_ceil_div(in->n, cfg->bx[i]);
    in->host_out = (int *)malloc(in->max_grid * sizeof(int));
    wb_fill_ints(host, in->n, cfg->seed);
    for (in->want = host[0], i = 1; i < (int)in->n; ++i)
        in->want = host[i] > in->want ? host[i] : in->want;
    in->d_in = (int *)wb_device_alloc(in->n * sizeof(int), "the input", "maxlab");
    in->d_out = (int *)wb_device_alloc(in->max_grid * sizeof(int) + WB_GUARD_BYTES, "the maxima", "maxlab");
    CHECK(cudaMemcpy(in->d_in, host, in->n * sizeof(int), cudaMemcpyHostToDevice));
    free(host);
    if (cfg->timed) {
        in->d_copy = (int *)wb_device_alloc(in->n * sizeof(int), "the copy", "maxlab");
        wb_measure_ceiling((wb_gpu *)run->dev, run->r, in->d_copy, in->d_in, in->n * sizeof(int), run->a->reps);
    }
    run->input = in;
}

typedef struct { const max_kernel *k; input *in; unsigned grid, block; } max_ctx;

static void launch(void *p, wb_run_what)
{
    max_ctx *c = (max_ctx *)p;
    c->k->launch(c->in->d_in, c->in->d_out, c->in->n, c->grid, c->block);
}

static void poison(void *p, int) /* the maxima and the guard after them */
{
    max_ctx *c = (max_ctx *)p;
    wb_poison_guarded(c->in->d_out, c->grid * sizeof(int), WB_POISON_BYTE);
}

static void judge(void *p, wb_row *row, const char *when)
{
    max_ctx *c = (max_ctx *)p;
    int got = INT_MIN, unwritten, i;
    if (when && !row->pass)
        return;
    CHECK(cudaMemcpy(c->in->host_out, c->in->d_out, c->grid * sizeof(int), cudaMemcpyDeviceToHost));
    unwritten = wb_first_poisoned(c->in->host_out, c->grid, sizeof(int), WB_POISON_BYTE);
    for (i = 0; i < (int)c->grid; ++i)
        got = c->in->host_out[i] > got ? c->in->host_out[i] : got;
    row->pass = got == c->in->want && unwritten < 0;
    if (unwritten >= 0)
        snprintf(row->check, sizeof row->check, "block %d never wrote its maximum", unwritten);
    else if (!when && !wb_guard_intact(c->in->d_out, c->grid * sizeof(int), WB_POISON_BYTE))
        row->pass = 0, snprintf(row->check, sizeof row->check, "wrote past its last maximum");
    else
        snprintf(row->check, sizeof row->check, "max %d%s%s, expected %d", got, when ? " in a " : "",
                 when ? when : "", c->in->want);
}

static const wb_row_ops ops = {poison, launch, judge, 0};

static void run_row(const wb_run *run, const wb_kernel_info *k, int bx, int by, int finish, wb_row_mode mode,
                    wb_row *row)
{
    max_ctx c = {(const max_kernel *)k, (input *)run->input, 0, (unsigned)bx};
    (void)by, (void)finish;
    c.grid = (unsigned)wb_ceil_div(c.in->n, bx);
    wb_row_init(row, k, c.in->n, c.in->n * 4.0);
    row->grid_x = c.grid, row->grid_y = 1, row->block_x = c.block, row->block_y = 1;
    wb_run_row((wb_gpu *)run->dev, run->r, run->lab, run->a->reps, mode, &ops, &c, row);
}

static void close_input(wb_run *run)
{
    input *in = (input *)run->input;
    CHECK(cudaFree(in->d_in));
    CHECK(cudaFree(in->d_out));
    if (in->d_copy)
        CHECK(cudaFree(in->d_copy));
    free(in->host_out);
    free(in);
}

static const wb_runner runner = {open_input, run_row, close_input, "one launch (CUDA events)", NULL};
static const wb_program program = {.lab = &lab, .runner = &runner};

int main(int argc, char **argv) { return wb_main(&program, argc, argv); }
