/*
 * draw_steps.c - groups the entries into warp-level requests, instructions
 * and steps (barriers), with their sectors and bank conflicts; finds the
 * global buffers and names each accessed slot.
 */
#include "draw.h"

static int by_req_thread(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->req != y->req)
        return x->req < y->req ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

int threads_per_block(void) { return (int)(blk[0] * blk[1] * blk[2]); }
int warps_per_block(void) { return (threads_per_block() + WARP - 1) / WARP; }
int blocks(void) { return (int)(grid[0] * grid[1] * grid[2]); }

/* Distinct 32-byte sectors of the request's bytes. */
static int request_sectors(const request *r)
{
    uint64_t seen[4 * WARP];
    int n = 0, i, j;
    for (i = r->first; i < r->first + r->count; ++i) {
        uint64_t s, lo = E[i].addr / 32, hi = (E[i].addr + (uint64_t)(E[i].size ? E[i].size : 1) - 1) / 32;
        for (s = lo; s <= hi; ++s) {
            for (j = 0; j < n && seen[j] != s; ++j)
                ;
            if (j == n && n < 4 * WARP)
                seen[n++] = s;
        }
    }
    return n;
}

/* The bank of a lane's first word; the conflict degree of a request: the
 * most distinct 4-byte words any bank must deliver (one word read by many
 * lanes is a broadcast, no conflict), per phase for 8- and 16-byte accesses. */
static int request_degree(const request *r)
{
    uint64_t words[BANKS][4 * WARP];
    int nw[BANKS], i, b, worst = 0, per_lane = 1;
    memset(nw, 0, sizeof nw);
    for (i = r->first; i < r->first + r->count; ++i) {
        uint64_t w, lo = E[i].addr / 4, hi = (E[i].addr + (uint64_t)(E[i].size ? E[i].size : 4) - 1) / 4;
        if ((int)(hi - lo + 1) > per_lane)
            per_lane = (int)(hi - lo + 1);
        for (w = lo; w <= hi; ++w) {
            int k;
            b = (int)(w % BANKS);
            for (k = 0; k < nw[b] && words[b][k] != w; ++k)
                ;
            if (k == nw[b] && nw[b] < 4 * WARP)
                words[b][nw[b]++] = w;
        }
    }
    for (b = 0; b < BANKS; ++b)
        if (nw[b] > worst)
            worst = nw[b];
    worst = (worst + per_lane - 1) / per_lane;
    return worst < 1 ? 1 : worst;
}

static int find_instr(const entry *e)
{
    int i;
    for (i = 0; i < nI; ++i)
        if (I[i].kind == e->kind && I[i].op == e->op && I[i].pc == e->pc && I[i].size == e->size)
            return i;
    I = grow(I, (size_t)nI + 1, sizeof *I);
    memset(&I[nI], 0, sizeof I[nI]);
    I[nI].kind = e->kind;
    I[nI].op = e->op;
    I[nI].pc = e->pc;
    I[nI].size = e->size;
    I[nI].first_req = e->req;
    I[nI].full = 1;
    I[nI].worst_req = -1;
    return nI++;
}

void build(void)
{
    int i, *bar, *sw, nw = warps_per_block(), counts[4] = {0, 0, 0, 0};
    long long slots = (long long)blocks() * nw;
    if (threads_per_block() <= 0 || blocks() <= 0)
        die(3, "the record has no grid or block");
    if (slots > 50000000LL)
        die(3, "the grid is too large to draw: trace a smaller input");
    qsort(E, (size_t)nE, sizeof *E, by_req_thread);
    for (i = 0; i < nE;) {
        int j = i;
        request r;
        memset(&r, 0, sizeof r);
        r.req = E[i].req;
        r.block = E[i].block;
        r.warp = E[i].thread / WARP;
        r.first = i;
        while (j < nE && E[j].req == r.req) {
            r.mask |= 1u << (E[j].thread % WARP);
            r.bytes += E[j].size;
            ++j;
        }
        r.count = j - i;
        r.instr = find_instr(&E[i]);
        R = grow(R, (size_t)nR + 1, sizeof *R);
        R[nR++] = r;
        i = j;
    }
    /* steps: requests are numbered in the order each warp issued them */
    bar = calloc((size_t)slots, sizeof *bar);
    sw = calloc((size_t)slots, sizeof *sw);
    if (!bar || !sw)
        die(3, "out of memory");
    for (i = 0; i < nR; ++i) {
        request *r = &R[i];
        instr *in = &I[r->instr];
        long long k = (long long)r->block * nw + r->warp;
        int warp_lanes = threads_per_block() - (int)r->warp * WARP;
        uint32_t full = warp_lanes >= WARP ? 0xFFFFFFFFu : (1u << warp_lanes) - 1u;
        if (r->block >= (uint32_t)blocks())
            die(3, "a block index outside the grid in the record");
        r->step = bar[k];
        r->wstep = sw[k];
        if (in->kind == 'b')
            ++bar[k];
        if (in->kind == 'w')
            ++sw[k];
        in->requests++;
        in->lanes += r->count;
        if (r->mask != full)
            in->full = 0;
        if (in->kind == 'g') {
            r->sectors = request_sectors(r);
            in->bytes += r->bytes;
            in->sectors += r->sectors;
            in->least += (r->bytes + 31) / 32;
        } else if (in->kind == 's') {
            r->degree = request_degree(r);
            in->bytes += r->bytes;
            in->degree_sum += r->degree;
            if (r->degree > in->worst) {
                in->worst = r->degree;
                in->worst_req = i;
            }
        }
    }
    free(bar);
    free(sw);
    /* labels in order of first issue: g1 g2 ... s1 ... b1 ... */
    for (i = 0; i < nI; ++i) {
        int n = 1, j;
        for (j = 0; j < nI; ++j)
            if (I[j].kind == I[i].kind && I[j].first_req < I[i].first_req)
                ++n;
        snprintf(I[i].label, sizeof I[i].label, "%c%d", I[i].kind, n);
        counts[I[i].kind == 'g' ? 0 : I[i].kind == 's' ? 1 : I[i].kind == 'b' ? 2 : 3]++;
    }
    (void)counts;
}

/* Global buffers: addresses clustered; named A, B, ... in the order the
 * kernel first touched them. */
static int by_addr_entry(const void *x, const void *y)
{
    const entry *p = &E[*(const int *)x], *q = &E[*(const int *)y];
    return p->addr < q->addr ? -1 : p->addr > q->addr;
}

void find_regions(void)
{
    int i, j, n = 0, *g = malloc(sizeof *g * (size_t)(nE ? nE : 1));
    uint64_t end = 0;
    if (!g)
        die(3, "out of memory");
    for (i = 0; i < nE; ++i)
        if (E[i].kind == 'g')
            g[n++] = i;
    qsort(g, (size_t)n, sizeof *g, by_addr_entry);
    /* a new buffer where the addresses jump: REGION_GAP bytes, or at least
     * 256 bytes untouched and then a 256-byte boundary (cudaMalloc aligns
     * every allocation to 256 bytes at least, and packs small ones) */
    for (i = 0; i < n; ++i) {
        const entry *e = &E[g[i]];
        if (nG == 0 || e->addr >= end + REGION_GAP || (e->addr >= end + 256 && e->addr % 256 == 0)) {
            if (nG == 26)
                break;
            G[nG].lo = G[nG].hi = e->addr;
            G[nG].first_req = e->req;
            ++nG;
        }
        j = nG - 1;
        G[j].hi = e->addr;
        if (e->req < G[j].first_req)
            G[j].first_req = e->req;
        if (e->addr + (uint64_t)e->size > end)
            end = e->addr + (uint64_t)e->size;
    }
    free(g);
    for (i = 0; i < nG; ++i) {
        n = 0;
        for (j = 0; j < nG; ++j)
            if (G[j].first_req < G[i].first_req)
                ++n;
        G[i].name = (char)('A' + n);
        G[i].lo &= ~(uint64_t)255; /* cudaMalloc aligns to 256 bytes at least */
    }
}

/* "A12" (element 12 of buffer A) or "s40" (shared word 40). */
void slot_name(const entry *e, char *buf, size_t len)
{
    int j, size = e->size > 0 ? e->size : 4;
    if (e->kind == 's') {
        snprintf(buf, len, "s%llu", (unsigned long long)(e->addr / (uint64_t)size));
        return;
    }
    for (j = 0; j < nG; ++j)
        if (e->addr >= G[j].lo && e->addr <= G[j].hi) {
            snprintf(buf, len, "%c%llu", G[j].name, (unsigned long long)((e->addr - G[j].lo) / (uint64_t)size));
            return;
        }
    snprintf(buf, len, "?%llx", (unsigned long long)e->addr);
}
