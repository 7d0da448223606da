/*
 * kernels/explain_tree.cuh - lecture mode (--explain) of labs 02 and 03, on the
 * CPU: the kernels of reduce_neighbored.cuh and reduce_interleaved.cuh, step
 * by step.
 *
 * For one small block (32 or 64 threads) it runs each kernel's own index
 * logic on the host, step by step, and prints which threads work, how many
 * warps are active (a warp with one working thread must still issue the
 * step's instructions: divergence), and how many 32-byte sectors each warp's
 * loads touch (what ncu calls sectors per request: coalescing). It carries
 * out the additions too and checks the block's sum, and that no two threads
 * touch the same element in one step. Then it counts warp-steps, load
 * requests and sectors per block for the drawn block and for the run's
 * block (-b, default 512): times the grid, those are ncu's own counts.
 *
 * No device is needed. Included by lab02.cu and lab03.cu.
 */
#ifndef EXPLAIN_TREE_CUH
#define EXPLAIN_TREE_CUH

#include <stdio.h>
#include <string.h>

#include "args.h"
#include "base.h"

#define EXPLAIN_WARP 32
#define EXPLAIN_DRAW_MAX 64   /* widest block drawn thread by thread */
#define EXPLAIN_MAX_BLOCK 1024 /* widest block counted */
#define EXPLAIN_INTS_PER_SECTOR 8 /* 32-byte sectors of 4-byte ints */

/* One kernel as the explainer sees it: its test for "does thread tid work at
 * this stride", written with the kernel's own expression, returning the
 * element the thread adds into (it reads that element and the one `stride`
 * further) or -1 when the thread idles. */
typedef struct {
    const char *name;
    const char *rule;   /* the kernel's lines, as written in it */
    int halving;        /* 0: stride 1, 2, 4, ... < block; 1: block/2, ..., 1 */
    int (*element)(unsigned int tid, unsigned int stride, unsigned int blockDimX);
} tree_kernel;

/* reduceNeighbored: if ((tid % (2 * stride)) == 0) idata[tid] += idata[tid + stride]; */
static inline int neighbored_element(unsigned int tid, unsigned int stride, unsigned int blockDimX)
{
    (void)blockDimX;
    return (tid % (2 * stride)) == 0 ? (int)tid : -1;
}

/* reduceNeighboredLess: index = 2 * stride * tid;
 *                       if (index < blockDim.x) idata[index] += idata[index + stride]; */
static inline int neighbored_less_element(unsigned int tid, unsigned int stride, unsigned int blockDimX)
{
    unsigned int index = 2 * stride * tid;
    return index < blockDimX ? (int)index : -1;
}

/* reduceInterleaved: if (tid < stride) idata[tid] += idata[tid + stride]; */
static inline int interleaved_element(unsigned int tid, unsigned int stride, unsigned int blockDimX)
{
    (void)blockDimX;
    return tid < stride ? (int)tid : -1;
}

/* The three kernels as the explainer sees them, for the tables of lab02 and lab03. */
#define EXPLAIN_NEIGHBORED                                                                           \
    {"reduceNeighbored", "if ((tid % (2 * stride)) == 0) idata[tid] += idata[tid + stride];   stride = 1, 2, 4, ...", \
     0, neighbored_element}
#define EXPLAIN_NEIGHBORED_LESS                                                                      \
    {"reduceNeighboredLess", "index = 2 * stride * tid; if (index < blockDim.x) idata[index] += idata[index + stride];", \
     0, neighbored_less_element}
#define EXPLAIN_INTERLEAVED                                                                          \
    {"reduceInterleaved", "if (tid < stride) idata[tid] += idata[tid + stride];   stride = blockDim.x/2, ..., 2, 1",   \
     1, interleaved_element}

/* Distinct 32-byte sectors among the given element indices. */
static int explain_sectors(const int *elem, int count)
{
    unsigned char seen[EXPLAIN_MAX_BLOCK / EXPLAIN_INTS_PER_SECTOR];
    int i, s = 0;
    memset(seen, 0, sizeof seen);
    for (i = 0; i < count; ++i) {
        int sec = elem[i] / EXPLAIN_INTS_PER_SECTOR;
        if (!seen[sec]) {
            seen[sec] = 1;
            ++s;
        }
    }
    return s;
}

/* What one block of a kernel does, counted. requests and sectors include
 * the last line's read of idata[0] by thread 0, so that times the grid they
 * are what ncu counts for the whole kernel. */
typedef struct {
    int steps, additions, warp_steps, requests, sectors, correct;
    const char *why; /* when not correct */
} explain_totals;

/* Run kernel k's index logic for one block of `block` threads (element i
 * starting as i), drawing each step when `draw` is set; returns the counts. */
static explain_totals explain_kernel(const tree_kernel *k, unsigned int block, int draw)
{
    static int data[EXPLAIN_MAX_BLOCK];
    static unsigned char touched[EXPLAIN_MAX_BLOCK];
    unsigned int warps = block / EXPLAIN_WARP, stride, tid, w;
    explain_totals t;
    long long expected = 0;
    int race = 0, outside = 0;
    /* the drawing's column: a character per thread and a blank between warps */
    int art_width = (int)(block + warps - 1) < 35 ? 35 : (int)(block + warps - 1);

    memset(&t, 0, sizeof t);
    for (tid = 0; tid < block; ++tid) {
        data[tid] = (int)tid;
        expected += tid;
    }
    if (draw) {
        printf("%s\n    %s\n", k->name, k->rule);
        /* within 100 columns: "sectors" is per warp load (the legend above) */
        printf("  %6s  %-*s %7s %6s %7s\n", "stride", art_width,
               block == 64 ? "threads 0..63 ('#' adds a pair, '.' idles)"
                           : "threads 0..31 ('#' adds, '.' idles)",
               "working", "warps", "sectors");
    }
    for (stride = k->halving ? block / 2 : 1; k->halving ? stride > 0 : stride < block;
         stride = k->halving ? stride / 2 : stride * 2) {
        char row[EXPLAIN_DRAW_MAX + EXPLAIN_DRAW_MAX / EXPLAIN_WARP + 1];
        int pos = 0, working = 0, active = 0, step_sectors = 0;
        memset(touched, 0, block);
        for (w = 0; w < warps; ++w) {
            int dst[EXPLAIN_WARP], src[EXPLAIN_WARP], count = 0;
            if (draw && w)
                row[pos++] = ' ';
            for (tid = w * EXPLAIN_WARP; tid < (w + 1) * EXPLAIN_WARP; ++tid) {
                int e = k->element(tid, stride, block);
                if (draw)
                    row[pos++] = e >= 0 ? '#' : '.';
                if (e < 0)
                    continue;
                if ((unsigned int)e + stride >= block) {
                    ++outside;
                    continue;
                }
                if (touched[e] || touched[e + stride])
                    ++race;
                touched[e] = touched[e + stride] = 1;
                dst[count] = e;
                src[count] = e + (int)stride;
                ++count;
            }
            if (count) {
                ++active;
                working += count;
                /* two load instructions per warp: idata[e] and idata[e + stride] */
                step_sectors += explain_sectors(dst, count) + explain_sectors(src, count);
            }
        }
        /* the additions themselves, after the step's reads (the barrier) */
        for (tid = 0; tid < block; ++tid) {
            int e = k->element(tid, stride, block);
            if (e >= 0 && (unsigned int)e + stride < block)
                data[e] += data[e + stride];
        }
        if (draw) {
            char of[32];
            row[pos] = '\0';
            snprintf(of, sizeof of, "%d of %d", active, (int)warps);
            printf("  %6u  %-*s %7d %6s %7.1f\n", stride, art_width, row, working, of,
                   active ? step_sectors / (2.0 * active) : 0.0);
        }
        ++t.steps;
        t.additions += working;
        t.warp_steps += active;
        t.requests += 2 * active;
        t.sectors += step_sectors;
    }
    /* if (tid == 0) g_odata[blockIdx.x] = idata[0]; : one more load, one sector */
    t.requests += 1;
    t.sectors += 1;
    t.correct = data[0] == expected && !race && !outside;
    t.why = race ? "WRONG (two threads touched one element in one step)"
                 : outside ? "WRONG (a thread read outside the block)" : "WRONG (not the block's sum)";
    if (draw)
        printf("  %d steps, %d additions, %d warp-steps (a warp issuing one step);\n"
               "  idata[0] = %d, sum of 0..%u = %lld: %s\n\n",
               t.steps, t.additions, t.warp_steps, data[0], block - 1, expected,
               t.correct ? "correct" : t.why);
    return t;
}

/* Every selected kernel for one block of `block` threads: drawn step by
 * step (draw), or counted, a row each under one header. Returns 1 if every
 * one produced the block's sum. */
static int explain_each(const tree_kernel *ks, int count, const wb_args *a, unsigned int block, int draw)
{
    int i, ok = 1;
    if (!draw)
        printf("  %-22s %10s %10s %13s %12s %16s\n", "", "warp-steps", "additions", "load requests",
               "load sectors", "sectors/request");
    for (i = 0; i < count; ++i) {
        explain_totals t;
        if (!a->selected[i])
            continue;
        t = explain_kernel(&ks[i], block, draw);
        ok = ok && t.correct;
        if (!draw)
            printf("  %-22s %10d %10d %13d %12d %16.2f%s%s\n", ks[i].name, t.warp_steps, t.additions,
                   t.requests, t.sectors, (double)t.sectors / t.requests, t.correct ? "" : "\n    ",
                   t.correct ? "" : t.why);
    }
    return ok;
}

/*
 * The whole lecture: the selected kernels (selected[i] for ks[i]) drawn for
 * a block of 64 threads, or of a->block_x if that is 32 or 64, then counted
 * per block for the drawn block and for the run's block (-b, default 512).
 * `lab` names the program; `notice` is the closing paragraph. Returns
 * WB_EXIT_OK, or WB_EXIT_WRONG if a simulated kernel did not produce the
 * block's sum.
 */
static int explain_tree(const char *lab, const tree_kernel *ks, int count, const wb_args *a,
                        const char *notice)
{
    unsigned int block = 64, run_block = (unsigned int)a->block_x;
    int ok;

    if (run_block == 32 || run_block == 64)
        block = run_block;
    printf("%s --explain: one block of %u threads (%u warp%s of %d) reducing %u ints in place, as each\n"
           "kernel's own index logic decides, run here on the CPU. Element i starts as i.\n",
           lab, block, block / EXPLAIN_WARP, block > EXPLAIN_WARP ? "s" : "", EXPLAIN_WARP, block);
    printf("  working  threads that add a pair at this step\n"
           "  warps    active warps: a warp with at least one working thread issues the step's\n"
           "           loads, add and store for all its 32 lanes; its idle lanes wait (divergence)\n"
           "  sectors  32-byte pieces of memory one warp's load of idata[] touches; 4 is the\n"
           "           least for 32 ints (ncu: sectors per request)\n\n");

    ok = explain_each(ks, count, a, block, 1);
    printf("Counted per block of %u threads (loads: two per active warp and step, plus thread 0's\n"
           "final read of idata[0]):\n", block);
    ok = explain_each(ks, count, a, block, 0) && ok;
    if (run_block != block) {
        printf("\nThe same for one block of %u threads (-b %u, not drawn). Times the grid, the load\n"
               "requests and sectors are what ncu counts as l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\n"
               "and l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum for the whole kernel:\n",
               run_block, run_block);
        ok = explain_each(ks, count, a, run_block, 0) && ok;
    }
    printf("\n%s\n", notice);
    return ok ? WB_EXIT_OK : WB_EXIT_WRONG;
}

#endif /* EXPLAIN_TREE_CUH */
