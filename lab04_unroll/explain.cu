/*
 * explain.cu - lab04 --explain: what one block does in each kernel, counted
 * on the CPU (no GPU is used).
 *
 * For the block (-b) and length (-n) of the command line: each kernel's
 * elements per thread, the barriers one block executes and the steps of its
 * last warp, the grid at this n and the barriers of the whole grid; then the
 * active warps of each step of one block, drawn. The kernels come from
 * lab04.cu's table; how each writes its tree is named below.
 * Chapter: docs/lab04.md.
 */
#include "workbook.h"
#include "lab04.cuh"

#include <stdio.h>
#include <string.h>

/* How a kernel's tree is written. */
typedef enum {
    TREE_LOOP,    /* a loop down to stride 1, __syncthreads() after every step */
    TREE_WARP,    /* the loop down to stride 64, then the last warp with __syncwarp() */
    TREE_WRITTEN, /* four written-out steps (512..64), each followed by __syncthreads()
                     whether its test holds or not, then the last warp */
    TREE_TEMPLATE /* as TREE_WRITTEN, but the steps (and barriers) a block size does
                     not need are not compiled */
} tree_shape;

/* The kernels whose tree is not a plain loop (TREE_LOOP), by name. */
static const struct {
    const char *name;
    tree_shape shape;
} shapes[] = {
    {"reduceUnrollWarps8", TREE_WARP},
    {"reduceCompleteUnrollWarps8", TREE_WRITTEN},
    {"reduceCompleteUnroll", TREE_TEMPLATE},
};

static tree_shape shape_of(const wb_reduce_kernel *k)
{
    size_t i;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        if (!strcmp(shapes[i].name, k->info.name))
            return shapes[i].shape;
    return TREE_LOOP;
}

typedef struct {
    int barriers;  /* __syncthreads() one block executes, first phase included */
    int warp_steps;/* steps done by one warp with __syncwarp() only */
    char steps[256];
} block_story;

static void append(char *buf, size_t len, const char *text)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s", text);
}

/* Count the barriers and draw the active warps of each step for a block of
 * `block` threads (a power of two, 32..1024) doing `unroll` loads first. */
static block_story tell_block(tree_shape shape, unsigned unroll, unsigned block)
{
    block_story s;
    unsigned warps = block / 32, stride;
    char item[32];
    memset(&s, 0, sizeof s);
    snprintf(item, sizeof item, "[%u]|", warps);
    if (unroll > 1) {
        append(s.steps, sizeof s.steps, item);
        s.barriers = 1;
    } else { /* no first phase: keep the steps in line with the others */
        memset(item, ' ', strlen(item));
        append(s.steps, sizeof s.steps, item);
    }
    if (shape == TREE_WRITTEN) {
        /* the four written-out steps run (or wait) whatever the block size */
        for (stride = 512; stride >= 64; stride /= 2) {
            if (block >= 2 * stride)
                snprintf(item, sizeof item, " %u |", stride / 32);
            else
                snprintf(item, sizeof item, " - |");
            append(s.steps, sizeof s.steps, item);
            ++s.barriers;
        }
    }
    for (stride = block / 2; stride >= 1; stride /= 2) {
        int in_warp = shape != TREE_LOOP && stride <= 32;
        if (shape == TREE_WRITTEN && stride > 32)
            continue; /* drawn above */
        if (in_warp) {
            snprintf(item, sizeof item, stride > 1 ? " 1 :" : " 1");
            ++s.warp_steps;
        } else {
            snprintf(item, sizeof item, " %u |", stride >= 32 ? stride / 32 : 1);
            ++s.barriers;
        }
        append(s.steps, sizeof s.steps, item);
    }
    return s;
}

void lab04_explain(const wb_args *a, const wb_reduce_kernel *kernels, int count)
{
    unsigned block = (unsigned)a->block_x, n = (unsigned)a->n;
    int i;
    printf("lab04 --explain: one block of %u threads (%u warp%s) in each kernel, n = %u\n", block,
           block / 32, block > 32 ? "s" : "", n);
    printf("(counted on the CPU; no GPU is used. -b and -n change the block and the length.)\n\n");
    printf("%-28s %8s %8s %9s %6s %10s %12s\n", "", "adds per", "a block", "barriers", "warp",
           "grid", "barriers");
    printf("%-28s %8s %8s %9s %6s %10s %12s\n", "kernel", "thread", "covers", "per block", "steps",
           "at this n", "in the grid");
    for (i = 0; i < count; ++i) {
        const wb_reduce_kernel *k = &kernels[i];
        block_story s = tell_block(shape_of(k), k->per_thread, block);
        unsigned grid = wb_reduce_grid(k, n, block, NULL, WB_INT);
        char adds[16];
        if (k->per_thread > 1)
            snprintf(adds, sizeof adds, "%u", k->per_thread);
        else
            snprintf(adds, sizeof adds, "-");
        printf("%-28s %8s %8u %9d %6d %10u %12llu\n", k->info.name, adds, block * k->per_thread,
               s.barriers, s.warp_steps, grid, (unsigned long long)grid * (unsigned)s.barriers);
    }

    printf("\nActive warps at each step of one block (of %u):\n", block / 32);
    printf("  [w]  the first phase: w warps each load per_thread elements and add them\n");
    printf("  k |  a step in which k warps add, then __syncthreads() (every warp of the block waits)\n");
    printf("  - |  a written-out step this block size skips: nobody adds, but everyone still waits\n");
    printf("  1 :  a step of the last warp, ordered by __syncwarp() alone (no block barrier)\n\n");
    for (i = 0; i < count; ++i) {
        block_story s = tell_block(shape_of(&kernels[i]), kernels[i].per_thread, block);
        char name[48];
        if (shape_of(&kernels[i]) == TREE_TEMPLATE)
            snprintf(name, sizeof name, "%s<%u>", kernels[i].info.name, block);
        else
            snprintf(name, sizeof name, "%s", kernels[i].info.name);
        printf("%-28s %s\n", name, s.steps);
    }

    printf("\nWhat to read here:\n");
    printf("  - Unrolling by U divides the grid by U: the same tree, and its barriers, are paid once\n"
           "    per U*%u elements instead of once per %u (the last column).\n", block, block);
    printf("  - In the first phase every warp is busy and each thread has U independent loads in\n"
           "    flight; in the tree at most half the warps work and each step waits for the one\n"
           "    before. The more of a block's life is spent loading, the more bytes are in flight.\n");
    printf("  - From reduceUnrollWarps8 on, the last %d steps run in one warp with __syncwarp(): no\n"
           "    block barrier, but still ordered (the book's volatile-only version is not, since Volta).\n",
           block >= 64 ? 6 : 5);
    printf("  - How many bytes must be in flight to saturate DRAM: ./lab04 --latency measures this\n"
           "    GPU's latency and copy ceiling and applies Little's law.\n");
}

