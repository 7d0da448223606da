/*
 * trace_draw.c - draws the record of one traced launch (tools/trace/trace.sh),
 * in the style of the labs' --explain, within 100 columns.
 *
 *   trace_draw [-v] [-B BLOCK] [--svg FILE] [--brief] RECORD
 *
 *   -v          show the values read and written in the tree
 *   -B BLOCK    draw the tree of this block (default 0)
 *   --svg FILE  also write the tree as an SVG picture (chapters, slides)
 *   --brief     the tree's step rows and flagged accesses, then the summary
 *               (parts 2 to 4 and the per-thread items left out)
 *
 * The record (written by trace_inject.c) holds every global and shared
 * memory access and every barrier of one launch, one line per thread; the
 * lanes of a warp that executed one instruction together share a request
 * number. From it this draws:
 *   1. the tree: per step (a step ends where the block's threads pass a
 *      __syncthreads()), which thread read which elements and wrote where;
 *      a slot that one thread writes and another reads or writes in the same
 *      step, with no barrier between (nor a __syncwarp() in one warp), is
 *      flagged "unordered"; a shared slot read before any thread wrote it,
 *      "stale";
 *   2. coalescing: per instruction, the warp-level requests to global
 *      memory: lanes, bytes, 32-byte sectors touched, efficiency;
 *   3. shared-memory banks: per instruction, the conflict degree of each
 *      request (4-byte banks, 32 of them), and the bank of each lane of the
 *      worst request;
 *   4. divergence: the active lanes of each request of one warp;
 *   5. a summary: requests, sectors, sectors per request, the worst bank
 *      conflict, barriers per block, unordered accesses.
 * Exit status: 0 drawn; 3 the record is incomplete (the device buffer
 * overflowed: the drawing says so and is not whole) or not a trace; 2 usage.
 * Plain C (C11), no CUDA: tests/trace.sh also runs it on a hand-made record.
 */
#include "draw.h"

/* the record and what is built from it, read by every part (draw.h) */
entry *E;
int nE;
request *R;
int nR;
instr *I;
int nI;
region G[26];
int nG;
unsigned grid[3], blk[3];
unsigned long long capacity, claimed, nrequests;
char kernel_name[1024] = "?", status[1024] = "?", want[1024] = "?", launched[1024];
int show_values, brief;


int main(int argc, char **argv)
{
    int i;
    uint32_t b = 0;
    const char *path = NULL, *svg = NULL;
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--svg") && i + 1 < argc)
            svg = argv[++i];
        else if (!strcmp(argv[i], "--brief"))
            brief = 1;
        else if (!strcmp(argv[i], "-v"))
            show_values = 1;
        else if (!strcmp(argv[i], "-B") && i + 1 < argc)
            b = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: trace_draw [-v] [-B BLOCK] [--svg FILE] [--brief] RECORD\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: trace_draw [-v] [-B BLOCK] [--svg FILE] [--brief] RECORD\n");
        return 2;
    }
    read_record(path);
    build();
    if (b >= (uint32_t)blocks()) {
        fprintf(stderr, "trace_draw: -B %u: the grid has %d blocks\n", b, blocks());
        return 2;
    }
    find_regions();
    find_hazards();
    if (claimed > capacity)
        printf("INCOMPLETE: the device buffer held %llu of %llu accesses; what follows is only the\n"
               "beginning of the launch. Trace a smaller input (-n), or raise WB_TRACE_MAX.\n\n",
               capacity, claimed);
    if (brief)
        printf("trace of %s\n  on the GPU: grid %ux%ux%u, block %ux%ux%u\n", kernel_name, grid[0], grid[1], grid[2],
               blk[0], blk[1], blk[2]);
    else
        printf("trace of %s\n  on the GPU: grid %ux%ux%u, block %ux%ux%u; every global and shared access and\n"
               "  barrier of this one launch, recorded by the Compute Sanitizer API\n\n",
               kernel_name, grid[0], grid[1], grid[2], blk[0], blk[1], blk[2]);
    draw_tree(b);
    if (!brief) {
        draw_coalescing();
        draw_banks();
        draw_divergence();
    }
    draw_summary(b);
    if (svg)
        draw_svg(b, svg);
    if (claimed > capacity) {
        printf("INCOMPLETE: %llu accesses were not recorded: the counts above are partial.\n",
               claimed - capacity);
        return 3;
    }
    return 0;
}
