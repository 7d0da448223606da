/*
 * explain_tree.cuh - lecture mode (--explain) of labs 02 and 03, on the CPU.
 *
 * For one small block (32 or 64 threads) it runs each kernel's own index
 * logic on the host, step by step, and prints which threads work, how many
 * warps are active (a warp with one working thread must still issue the
 * step's instructions: divergence), and how many 32-byte sectors each warp's
 * loads touch (what ncu calls sectors per request: coalescing). It also
 * carries out the additions on a small array and checks the block's sum, and
 * that no two threads touch the same element in one step.
 *
 * No device is needed. Included by lab02.cu and lab03.cu.
 */
#ifndef EXPLAIN_TREE_CUH
#define EXPLAIN_TREE_CUH

#include "workbook.h"

#include <stdio.h>
#include <string.h>

#define EXPLAIN_WARP 32
#define EXPLAIN_MAX_BLOCK 64
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

/* Distinct 32-byte sectors among the given element indices (at most 32). */
static int explain_sectors(const int *elem, int count)
{
    int seen[EXPLAIN_MAX_BLOCK * 2 / EXPLAIN_INTS_PER_SECTOR + 1], i, s = 0;
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

typedef struct {
    int steps, additions, warp_steps, sectors, requests, correct;
} explain_totals;

/* Print one kernel's steps for a block of `block` threads; returns totals. */
static explain_totals explain_kernel(const tree_kernel *k, unsigned int block)
{
    int data[EXPLAIN_MAX_BLOCK], touched[EXPLAIN_MAX_BLOCK];
    unsigned int warps = block / EXPLAIN_WARP, stride, tid, w;
    explain_totals t;
    long long expected = 0;
    int race = 0, outside = 0;

    memset(&t, 0, sizeof t);
    for (tid = 0; tid < block; ++tid) {
        data[tid] = (int)tid;
        expected += tid;
    }
    printf("%s\n    %s\n", k->name, k->rule);
    printf("  %6s  %-*s  %7s  %6s  %s\n", "stride", (int)(block + warps - 1),
           block == 64 ? "threads 0..63 ('#' adds a pair, '.' idles)" : "threads 0..31 ('#' adds, '.' idles)",
           "working", "warps", "sectors per warp load");

    for (stride = k->halving ? block / 2 : 1; k->halving ? stride > 0 : stride < block;
         stride = k->halving ? stride / 2 : stride * 2) {
        char row[EXPLAIN_MAX_BLOCK + EXPLAIN_MAX_BLOCK / EXPLAIN_WARP + 1];
        int pos = 0, working = 0, active = 0, step_sectors = 0;
        memset(touched, 0, sizeof touched);
        for (w = 0; w < warps; ++w) {
            int dst[EXPLAIN_WARP], src[EXPLAIN_WARP], count = 0;
            if (w)
                row[pos++] = ' ';
            for (tid = w * EXPLAIN_WARP; tid < (w + 1) * EXPLAIN_WARP; ++tid) {
                int e = k->element(tid, stride, block);
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
                t.requests += 2;
            }
        }
        row[pos] = '\0';
        /* the additions themselves, after the step's reads (the barrier) */
        for (tid = 0; tid < block; ++tid) {
            int e = k->element(tid, stride, block);
            if (e >= 0 && (unsigned int)e + stride < block)
                data[e] += data[e + stride];
        }
        printf("  %6u  %s  %7d  %2d of %d  %5.1f\n", stride, row, working, active, (int)warps,
               active ? step_sectors / (2.0 * active) : 0.0);
        ++t.steps;
        t.additions += working;
        t.warp_steps += active;
        t.sectors += step_sectors;
    }
    t.correct = data[0] == expected && !race && !outside;
    printf("  %d steps, %d additions, %d warp-steps (a warp issuing one step), %d sectors loaded; "
           "idata[0] = %d, sum of 0..%u = %lld: %s\n\n",
           t.steps, t.additions, t.warp_steps, t.sectors, data[0], block - 1, expected,
           t.correct ? "correct" : (race ? "WRONG (two threads touched one element)"
                                         : outside ? "WRONG (read outside the block)" : "WRONG"));
    return t;
}

/*
 * The whole lecture: the selected kernels (selected[i] for ks[i]) for a block
 * of 64 threads, or of a->block_x if that is 32 or 64. `lab` names the
 * program; `notice` is the closing paragraph. Returns WB_EXIT_OK, or
 * WB_EXIT_WRONG if a simulated kernel did not produce the block's sum.
 */
static int explain_tree(const char *lab, const tree_kernel *ks, int count, const wb_args *a,
                        const char *notice)
{
    unsigned int block = 64;
    explain_totals t[WB_MAX_KERNELS];
    int i, ok = 1;

    if (a->block_given && (a->block_x == 32 || a->block_x == 64))
        block = (unsigned int)a->block_x;
    printf("%s --explain: one block of %u threads (%u warp%s of %d) reducing %u ints in place, as each\n"
           "kernel's own index logic decides, run here on the CPU. Element i starts as i.\n",
           lab, block, block / EXPLAIN_WARP, block > EXPLAIN_WARP ? "s" : "", EXPLAIN_WARP, block);
    if (a->block_given && block != (unsigned int)a->block_x)
        printf("(-b %d is too wide to draw; showing a block of %u. Try -b 32 or -b 64.)\n", a->block_x,
               block);
    printf("  working  threads that add a pair at this step\n"
           "  warps    active warps: a warp with at least one working thread issues the step's\n"
           "           instructions for all its 32 lanes, and its idle lanes wait (divergence)\n"
           "  sectors  32-byte pieces of memory one warp's load of idata[] touches; 4 is the\n"
           "           least for 32 ints (ncu: sectors per request)\n\n");

    for (i = 0; i < count; ++i) {
        if (!a->selected[i])
            continue;
        t[i] = explain_kernel(&ks[i], block);
        ok = ok && t[i].correct;
    }
    printf("  %-22s %10s %10s %14s\n", "summary", "warp-steps", "additions", "sectors loaded");
    for (i = 0; i < count; ++i)
        if (a->selected[i])
            printf("  %-22s %10d %10d %14d\n", ks[i].name, t[i].warp_steps, t[i].additions, t[i].sectors);
    printf("\n%s\n", notice);
    return ok ? WB_EXIT_OK : WB_EXIT_WRONG;
}

#endif /* EXPLAIN_TREE_CUH */
