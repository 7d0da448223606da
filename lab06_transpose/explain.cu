/*
 * explain.cu - lab06 --explain: who reads and writes what, one warp at a time.
 *
 * CPU only: nothing here touches the GPU. It recomputes on the host the
 * indices each kernel of transpose.cuh uses (the same formulas, written out
 * again so that they can be printed) and counts, for one warp-wide load or
 * store, the distinct 32-byte sectors it touches: the unit in which the L1
 * and L2 caches move global memory. A request of 32 lanes x 4 bytes needs at
 * least 4 sectors; every sector more is bandwidth spent on bytes nobody asked for.
 */
#include "lab06.cuh"

#include <stdio.h>
#include <string.h>

typedef enum { COPY_ROW, COPY_COL, NAIVE_ROW, NAIVE_COL, UNROLL_ROW, UNROLL_COL } kind;

typedef struct {
    kind k;
    const char *name;
    const char *formula; /* the kernel's one line */
} pattern;

static const pattern patterns[] = {
    {COPY_ROW, "copyRow", "out[iy*nx + ix] = in[iy*nx + ix]      grid over in"},
    {COPY_COL, "copyCol", "out[ix*ny + iy] = in[ix*ny + iy]      grid over in"},
    {NAIVE_ROW, "transposeNaiveRow", "out[ix*ny + iy] = in[iy*nx + ix]      grid over in"},
    {NAIVE_COL, "transposeNaiveCol", "out[iy*ny + ix] = in[ix*nx + iy]      grid over out"},
    {UNROLL_ROW, "transposeUnroll4Row", "NaiveRow at ix, ix+bx, ix+2bx, ix+3bx  grid over in"},
    {UNROLL_COL, "transposeUnroll4Col", "NaiveCol at ix, ix+bx, ix+2bx, ix+3bx  grid over out"},
};
#define NPATTERNS ((int)(sizeof patterns / sizeof patterns[0]))

/*
 * Thread (tx, ty) of block (0, 0), block shape bx x by, on an nx x ny input:
 * the element index it loads and the one it stores in its first access.
 * Returns 0 if the thread is outside the matrix (it does nothing).
 */
static int thread_access(kind k, int nx, int ny, int bx, int tx, int ty, long long *ld, long long *st)
{
    long long ix = tx, iy = ty;
    (void)bx;
    switch (k) {
    case COPY_ROW:
        if (ix >= nx || iy >= ny)
            return 0;
        *ld = *st = iy * nx + ix;
        return 1;
    case COPY_COL:
        if (ix >= nx || iy >= ny)
            return 0;
        *ld = *st = ix * ny + iy;
        return 1;
    case NAIVE_ROW:
    case UNROLL_ROW:
        if (ix >= nx || iy >= ny)
            return 0;
        *ld = iy * nx + ix;
        *st = ix * ny + iy;
        return 1;
    case NAIVE_COL:
    case UNROLL_COL:
        if (ix >= ny || iy >= nx) /* the grid covers the output */
            return 0;
        *ld = ix * nx + iy;
        *st = iy * ny + ix;
        return 1;
    }
    return 0;
}

/* Distinct 32-byte sectors touched by `count` accesses of `size` bytes at
 * element indices idx[] (4-byte elements, buffer 256-byte aligned). */
static int sectors(const long long *idx, int count, int size)
{
    long long seen[64];
    int nseen = 0, i, j;
    for (i = 0; i < count; ++i) {
        long long first = idx[i] * 4 / 32, last = (idx[i] * 4 + size - 1) / 32, s;
        for (s = first; s <= last; ++s) {
            for (j = 0; j < nseen && seen[j] != s; ++j)
                ;
            if (j == nseen && nseen < 64)
                seen[nseen++] = s;
        }
    }
    return nseen;
}

/* ---------------------------------------------------------------------- */
/* Part 1: pictures on an 8x8 matrix with a toy block of 8x4 (one warp)    */
/* ---------------------------------------------------------------------- */
#define TOY 8

static void toy_picture(const pattern *p)
{
    int in_lane[TOY][TOY], out_lane[TOY][TOY], lane, r, c;
    long long ld[32] = {0}, st[32] = {0};
    memset(in_lane, -1, sizeof in_lane);
    memset(out_lane, -1, sizeof out_lane);
    for (lane = 0; lane < 32; ++lane) {
        int tx = lane % 8, ty = lane / 8;
        if (!thread_access(p->k, TOY, TOY, 8, tx, ty, &ld[lane], &st[lane]))
            continue; /* never on the toy: every lane is inside the 8x8 matrix */
        in_lane[ld[lane] / TOY][ld[lane] % TOY] = lane;
        out_lane[st[lane] / TOY][st[lane] % TOY] = lane;
    }
    printf("%s   %s\n", p->name, p->formula);
    printf("    lane that reads each element of in       lane that writes each element of out\n");
    for (r = 0; r < TOY; ++r) {
        printf("   ");
        for (c = 0; c < TOY; ++c)
            in_lane[r][c] < 0 ? printf("  .") : printf("%3d", in_lane[r][c]);
        printf("                ");
        for (c = 0; c < TOY; ++c)
            out_lane[r][c] < 0 ? printf("  .") : printf("%3d", out_lane[r][c]);
        printf("\n");
    }
    printf("    load: %d sectors for 128 bytes (4 is the least)   store: %d sectors\n\n",
           sectors(ld, 32, 4), sectors(st, 32, 4));
}

/* ---------------------------------------------------------------------- */
/* Part 2: sectors per request at the size and block of the command line   */
/* ---------------------------------------------------------------------- */
static const char *verdict(int got, int least)
{
    if (got <= least)
        return "coalesced";
    if (got >= 2 * least && got >= 8)
        return "strided";
    return "partly";
}

static void request_table(const wb_args *a)
{
    int i, bx = a->block_x, by = a->block_y, lanes = 32, lane;
    if (bx * by < 32)
        lanes = bx * by;
    printf("Part 2. At -n %dx%d with blocks of %dx%d: warp 0 of block (0,0) is threads x = 0..%d, "
           "y = 0..%d.\n", a->nx, a->ny, bx, by, (bx < 32 ? bx : 32) - 1, (lanes + bx - 1) / bx - 1);
    printf("One warp-wide request of 4-byte elements; a sector is 32 bytes; 'least' is what the\n"
           "same bytes need when they are contiguous.\n\n");
    printf("  %-22s %5s   %-17s %-17s %s\n", "kernel", "lanes", "load: sectors", "store: sectors",
           "least");
    for (i = 0; i < NPATTERNS; ++i) {
        long long ld[32], st[32];
        int active = 0, sl, ss, least;
        for (lane = 0; lane < lanes; ++lane) {
            long long l = 0, s = 0;
            if (thread_access(patterns[i].k, a->nx, a->ny, bx, lane % bx, lane / bx, &l, &s)) {
                ld[active] = l;
                st[active] = s;
                ++active;
            }
        }
        if (active == 0) {
            printf("  %-22s %5d   (the matrix is too small for warp 0 to do anything)\n",
                   patterns[i].name, 0);
            continue;
        }
        sl = sectors(ld, active, 4);
        ss = sectors(st, active, 4);
        least = (active * 4 + 31) / 32;
        printf("  %-22s %5d   %6d %-10s %6d %-10s %3d\n", patterns[i].name, active, sl,
               verdict(sl, least), ss, verdict(ss, least), least);
    }
    printf("  %-22s %5d   %6d %-10s %6d %-10s %3d   (Part 3)\n", "transposeSmem(Pad)", 32, 4,
           "coalesced", 4, "coalesced", 4);
    printf("  (transposeSmem(Pad): a 64x64 tile, block 32x16)\n");
    printf("\nThe +ldcg rows make the same requests; they only tell the L1 not to keep the sectors,\n"
           "so the rest of a sector a strided load fetched is fetched again (from L2) by the next\n"
           "warp that needs it. Unroll4 makes four such requests per thread, bx columns apart.\n\n");
}

/* ---------------------------------------------------------------------- */
/* Part 3: the shared-memory tile and its banks                            */
/* ---------------------------------------------------------------------- */
#define TILE_SIDE 64 /* transpose.cuh's TILE */

static void bank_line(const char *what, int pad)
{
    int lane, seen[32] = {0}, worst = 0;
    /* the label above its 32 banks, to fit 100 columns */
    printf("  %s, the bank of lanes 0..31:\n  ", what);
    for (lane = 0; lane < 32; ++lane) {
        int bank = (lane * (TILE_SIDE + pad)) % 32; /* tile[lane][0] */
        printf("%3d", bank);
        if (++seen[bank] > worst)
            worst = seen[bank];
    }
    if (worst == 1)
        printf("\n  -> no conflict: one shared-memory pass serves the warp's request\n");
    else
        printf("\n  -> %d-way conflict: %d shared-memory passes for one warp's request\n", worst, worst);
}

static void bank_picture(void)
{
    printf("Part 3. transposeSmem and transposeSmemPad: a block of 32x16 threads moves one 64x64 tile\n"
           "(x0, y0 = the tile's corner in in; i = 0, 32; j = 0, 16, 32, 48: 8 floats per thread).\n"
           "  1. tile[ty+j][tx+i] = in[(y0+ty+j)*nx + x0+tx+i]   rows of in: coalesced\n"
           "  2. __syncthreads()                                every thread, outside any if\n"
           "  3. out[(x0+ty+j)*ny + y0+tx+i] = tile[tx+i][ty+j] rows of out: coalesced,\n"
           "                                                    read from a COLUMN of the tile\n"
           "Shared memory has 32 banks of 4 bytes: tile[r][c] is in bank (r*width + c) %% 32.\n"
           "In step 3 lane l reads tile[l][j]; the bank of each lane for i = j = 0:\n");
    bank_line("float tile[64][64]", 0);
    bank_line("float tile[64][65]", 1);
    printf("One column of padding (4 bytes a row, 256 bytes a tile) puts the rows of a column in\n"
           "32 different banks. Step 1 writes along a row of the tile: 32 banks either way.\n");
}

void lab06_explain(const wb_args *a)
{
    int i;
    printf("lab06 --explain: who reads and writes what (CPU only; nothing runs on the GPU)\n\n");
    printf("The matrix in has ny rows of nx floats, row-major: element (row y, column x) is\n"
           "in[y*nx + x]; out = its transpose, nx rows of ny floats. ix, iy are the thread's global\n"
           "x and y; a warp is 32 threads with consecutive threadIdx.x, then threadIdx.y.\n\n");
    printf("Part 1. An 8x8 matrix (a row = 8 floats = 32 bytes = one sector) and a toy block of\n"
           "8x4 threads: one warp, lane = 8*threadIdx.y + threadIdx.x. '.' = not touched.\n\n");
    for (i = 0; i < 4; ++i)
        toy_picture(&patterns[i]);
    request_table(a);
    bank_picture();
}
