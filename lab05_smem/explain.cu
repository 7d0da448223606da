/*
 * explain.cu - lab05 --explain: a lecture on a tiny block, on the CPU.
 *
 * Four pictures, each computed (not drawn by hand) from a small seeded input:
 *   1. what lives in shared memory after each step of reduceSmem's tree;
 *   2. which bank each lane of a warp touches: the interleaved tree of this
 *      lab (no conflict) against the neighbored pairing of lab02 (conflicts);
 *   3. how __shfl_xor_sync combines the lanes of a warp, and how the warps
 *      of a block meet in shared memory (reduceShfl);
 *   4. which thread of reduceModern reads which int4, and who takes the tail.
 * No GPU is needed: --explain runs before the device is opened.
 */
#include "workbook.h"

#include <string.h>

/* lab05.cu: reduceModern's int4 loads in flight per thread, and its loop
 * shape (1 tiles, 0 grid-stride over vectors) */

#define BANKS 32
#define SHOW 16 /* threads or lanes shown in pictures 1 and 3: one screen wide */

/* Single-digit inputs keep every column narrow; the sums still fit. */
static void tiny_input(int *v, int count, unsigned long long seed)
{
    unsigned long long s = seed;
    int i;
    for (i = 0; i < count; ++i) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        v[i] = (int)((s >> 33) % 10);
    }
}

static void print_cells(const char *label, const int *v, const unsigned char *live, int count)
{
    int i;
    printf("  %-24s", label);
    for (i = 0; i < count; ++i) {
        if (!live || live[i])
            printf("%4d", v[i]);
        else
            printf("   .");
    }
    printf("\n");
}

/* 1. reduceSmem's tree on one block of SHOW threads. */
static void picture_smem(unsigned long long seed)
{
    int smem[SHOW], idx[SHOW], stride, i, total = 0;
    unsigned char live[SHOW];
    char label[64];

    tiny_input(smem, SHOW, seed);
    for (i = 0; i < SHOW; ++i) {
        idx[i] = i;
        live[i] = 1;
        total += smem[i];
    }
    printf("1. Shared memory as the block's scratchpad (reduceSmem, one block of %d threads;\n"
           "   the real kernels take 32 to 1024, the steps are the same)\n\n", SHOW);
    printf("   smem[tid] = g_idata[idx]: one global load per thread, then __syncthreads().\n"
           "   Every step after that reads and writes shared memory only: on the chip, ~30 cycles,\n"
           "   instead of global memory (L2 or DRAM, hundreds of cycles) as reduceGmem does.\n\n");
    print_cells("tid", idx, NULL, SHOW);
    print_cells("smem after the load", smem, live, SHOW);
    for (stride = SHOW / 2; stride >= 1; stride /= 2) {
        for (i = 0; i < stride; ++i)
            smem[i] += smem[i + stride];
        for (i = stride; i < 2 * stride; ++i)
            live[i] = 0;
        snprintf(label, sizeof label, "tid < %d: += smem[tid+%d]", stride, stride);
        print_cells(label, smem, live, SHOW);
    }
    printf("\n   smem[0] = %d = the block's sum; thread 0 writes it to g_odata[blockIdx.x].\n"
           "   ('.' = a value already added into a lower slot.) Between steps: __syncthreads() while\n"
           "   the stride is 64 or more, __syncwarp() in the last warp, where only threads\n"
           "   tid < stride work, so no thread reads a slot another one writes in the same step.\n\n",
           total);
}

/*
 * One warp's shared-memory access: lane l touches word words[l]. Prints the
 * banks and returns the number of passes (the most distinct words that fall
 * into one bank; lanes reading the same word share it: a broadcast).
 */
static int bank_passes(const int *words)
{
    int bank, l, m, most = 1;
    for (bank = 0; bank < BANKS; ++bank) {
        int distinct = 0;
        for (l = 0; l < 32; ++l) {
            int seen = 0;
            if (words[l] % BANKS != bank)
                continue;
            for (m = 0; m < l; ++m)
                if (words[m] == words[l])
                    seen = 1;
            if (!seen)
                ++distinct;
        }
        if (distinct > most)
            most = distinct;
    }
    return most;
}

static void print_bank_row(const char *what, const int *words)
{
    int l, passes = bank_passes(words);
    /* three lines, to fit 100 columns: the access, its 32 banks, the verdict */
    printf("  %s\n    banks:", what);
    for (l = 0; l < 32; ++l)
        printf(" %d", words[l] % BANKS);
    printf("\n    -> %s", passes == 1 ? "32 lanes, 32 different banks: one pass, no conflict" : "");
    if (passes > 1) {
        int l0 = 0, l1 = -1;
        for (l = 1; l < 32 && l1 < 0; ++l)
            if (words[l] % BANKS == words[l0] % BANKS && words[l] != words[l0])
                l1 = l;
        printf("%d-way bank conflict: %d passes (lanes %d and %d both hit bank %d)", passes, passes, l0,
               l1, words[l0] % BANKS);
    }
    printf("\n");
}

/* 2. Banks: the interleaved tree against neighbored pairing. */
static void picture_banks(void)
{
    int words[32], l, stride;
    char what[80];
    printf("2. Banks: shared memory is 32 banks of 4-byte words; word w lives in bank w %% 32.\n"
           "   A warp's access takes one pass when its 32 lanes touch 32 different banks (or the\n"
           "   same word: a broadcast); k lanes on k different words of one bank take k passes.\n\n");
    printf("   This lab's tree, block 512, step `tid < 128: smem[tid] += smem[tid + 128]`, warp 0:\n");
    for (l = 0; l < 32; ++l)
        words[l] = l;
    print_bank_row("lanes 0..31 write smem[0..31]", words);
    for (l = 0; l < 32; ++l)
        words[l] = l + 128;
    print_bank_row("lanes 0..31 read smem[128..159]", words);
    printf("\n   Neighbored pairing in shared memory (lab02's reduceNeighboredLess with smem):\n"
           "   `index = 2 * stride * tid; smem[index] += smem[index + stride]`, warp 0:\n");
    for (stride = 1; stride <= 16; stride *= 4) {
        for (l = 0; l < 32; ++l)
            words[l] = 2 * stride * l;
        snprintf(what, sizeof what, "stride %2d: lane l reads smem[%d*l]", stride, 2 * stride);
        print_bank_row(what, words);
    }
    printf("\n   Consecutive lanes on consecutive words is the rule for shared memory as for global\n"
           "   memory: the interleaved tree follows it at every step (one pass per access; ncu\n"
           "   counts it as l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum per shared load).\n\n");
}

/* 3. The shuffle tree: half a warp, then the warps of a block. */
static void picture_shuffles(unsigned long long seed)
{
    int v[SHOW], next[SHOW], lane[SHOW], offset, i, total = 0;
    int warp_sums[4], in[128], w;
    char label[64];

    tiny_input(v, SHOW, seed + 1);
    for (i = 0; i < SHOW; ++i) {
        lane[i] = i;
        total += v[i];
    }
    printf("3. Warp shuffles (reduceShfl, reduceModern): lanes read each other's registers.\n"
           "   v += __shfl_xor_sync(0xffffffff, v, offset): lane i adds the v of lane i ^ offset.\n"
           "   No shared memory, no barrier: the whole warp does each step in one instruction.\n"
           "   Shown on %d lanes; a real warp has 32 and starts with offset 16.\n\n", SHOW);
    print_cells("lane", lane, NULL, SHOW);
    print_cells("v (each lane's own sum)", v, NULL, SHOW);
    for (offset = SHOW / 2; offset >= 1; offset /= 2) {
        for (i = 0; i < SHOW; ++i)
            next[i] = v[i] + v[i ^ offset];
        memcpy(v, next, sizeof v);
        snprintf(label, sizeof label, "offset %d (i <-> i^%d)", offset, offset);
        print_cells(label, v, NULL, SHOW);
    }
    printf("\n   After log2(32) = 5 steps every lane holds the warp's sum (%d here): a butterfly.\n",
           total);

    tiny_input(in, 128, seed + 2);
    for (w = 0; w < 4; ++w) {
        warp_sums[w] = 0;
        for (i = 0; i < 32; ++i)
            warp_sums[w] += in[32 * w + i];
    }
    printf("   A block of 128 threads = 4 warps: each warp shuffles its 32 values; lane 0 of warp w\n"
           "   writes warp_sums[w]; __syncthreads(); warp 0 loads warp_sums[lane] (0 past the 4th)\n"
           "   and shuffles once more:\n"
           "     warp_sums = [%d %d %d %d] -> thread 0 holds %d\n"
           "   One barrier per block instead of one per step of the tree.\n\n",
           warp_sums[0], warp_sums[1], warp_sums[2], warp_sums[3],
           warp_sums[0] + warp_sums[1] + warp_sums[2] + warp_sums[3]);
}

/* 4. reduceModern's map from threads to int4 vectors, on a tiny grid: the
 * same loops as the kernel, run on the CPU. */
static void picture_modern(int modern_unroll, int modern_tiled)
{
    const unsigned grid = 2, block = 4, n = 214;
    unsigned n4 = n / 4, stride = grid * block, u, T;
    unsigned unroll = (unsigned)modern_unroll, tile = unroll * block, full = n4 / tile;
    printf("4. reduceModern on a tiny grid: %u blocks of %u threads, n = %u ints = %u int4 vectors\n"
           "   + %u tail ints. Vector v = ints 4v..4v+3: one 16-byte load.\n",
           grid, block, n, n4, n % 4);
    if (modern_tiled)
        printf("   A tile = %u loads x %u threads = %u consecutive vectors; there are %u whole tiles.\n"
               "   Block b takes tiles b, b+%u, ... (a grid-stride loop over tiles); in a tile, thread\n"
               "   tid loads vectors tid, tid+%u, tid+%u, tid+%u: %u loads in flight before the first add,\n"
               "   and a warp's 32 loads are 512 consecutive bytes. The %u vectors after the last\n"
               "   whole tile are a partial tile for block %u (%u tiles %% %u blocks: the first block\n"
               "   with a tile fewer), spread over as few threads as hold them %u apiece (whole warps;\n"
               "   here the 4-thread block). Block 0's first threads take the tail ints.\n\n",
               unroll, block, tile, full, grid, block, 2 * block, 3 * block, unroll, n4 - full * tile,
               full % grid, full, grid, unroll);
    else
        printf("   Grid-stride over vectors: thread t reads vectors t, t+%u, t+%u, ... (%u per trip;\n"
               "   the last trip loads only the vectors that exist).\n\n",
               stride, 2 * stride, unroll);
    for (T = 0; T < stride; ++T) {
        unsigned b = T / block, tid = T % block, i, t;
        printf("   block %u thread %u (t = %u): ", b, tid, T);
        if (modern_tiled) {
            for (t = b; t < full; t += grid) {
                printf("tile %u [", t);
                for (u = 0; u < unroll; ++u)
                    printf("%s%u", u ? " " : "", t * tile + tid + u * block);
                printf("] ");
            }
            if (n4 > full * tile && b == full % grid) {
                /* the kernel's width, in whole warps; this toy block is its own "warp" */
                unsigned left = n4 - full * tile, unit = block < 32 ? block : 32;
                unsigned width = (left + unroll - 1) / unroll;
                width = (width + unit - 1) / unit * unit;
                if (tid < width && tid < left) {
                    printf("partial [");
                    for (u = 0; u < unroll && tid + u * width < left; ++u)
                        printf("%s%u", u ? " " : "", full * tile + tid + u * width);
                    printf("] ");
                }
            }
            i = n4; /* nothing one at a time */
        } else {
            for (i = T; i < n4; i += unroll * stride) {
                printf("[");
                for (u = 0; u < unroll && i + u * stride < n4; ++u)
                    printf("%s%u", u ? " " : "", i + u * stride);
                printf("] ");
            }
        }
        if (T < n % 4)
            printf(" + tail int %u", n4 * 4 + T);
        printf("\n");
    }
    printf("\n   ([a b ...] = loads issued together.) In a real run the grid is the number of blocks\n"
           "   that fit on the GPU at once (132 SMs x 4 blocks of 512 = 528 on an H100), so each\n"
           "   block loops over many tiles. Then the block's sum comes from shuffles, and thread 0\n"
           "   does ONE 64-bit atomicAdd that adds both the sum (biased by 2^31, low 48 bits) and 1\n"
           "   to a count of finished blocks (top 16 bits). The block that gets back a count of\n"
           "   gridDim.x - 1 is the last: what it got back plus its own term is the total. It\n"
           "   writes g_odata[0] and zeroes the word for the next launch: one launch, one number.\n"
           "   When the whole input fits in one tile (4 int4s per thread of one block), the row runs\n"
           "   reduceModernSmall instead: one block, the input as one partial tile, no atomic.\n");
}

void lab05_explain(const wb_args *a, int modern_unroll, int modern_tiled)
{
    printf("lab05 --explain: shared memory, banks and shuffles on a tiny block (seed %llu)\n\n", a->seed);
    picture_smem(a->seed);
    picture_banks();
    picture_shuffles(a->seed);
    picture_modern(modern_unroll, modern_tiled);
}
