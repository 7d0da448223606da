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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARP 32
#define BANKS 32
#define WIDTH 100
#define REGION_GAP (1ULL << 20) /* global addresses further apart than this: another buffer */
#define DRAW_THREADS 64         /* the tree draws at most this many threads of its block */
#define FLAGS_SHOWN 6           /* unordered accesses listed per step */
#define LANES_SHOWN 8           /* requests listed per instruction in the divergence part */

typedef struct {
    uint64_t addr, value, pc;
    uint32_t req, block, thread;
    char kind; /* g s b w */
    char op;   /* r w a - */
    int size, has_value;
} entry;

typedef struct {
    uint32_t req, block, warp;
    int first, count; /* entries[first .. first+count) */
    int instr;        /* index into instrs */
    int step, wstep;  /* barriers and syncwarps this warp passed before it */
    uint32_t mask;    /* active lanes */
    int bytes, sectors, degree;
} request;

typedef struct {
    char kind, op;
    int size;
    uint64_t pc;
    char label[16];  /* g1, s2, b1 */
    uint32_t first_req;
    int requests, lanes, bytes, sectors, least, worst, degree_sum, worst_req;
    int full; /* every request had every lane of its warp */
} instr;

typedef struct {
    uint64_t lo, hi;
    char name;
    uint32_t first_req;
} region;

static entry *E;
static int nE;
static request *R;
static int nR;
static instr *I;
static int nI;
static region G[26];
static int nG;
static unsigned grid[3], blk[3];
static unsigned long long capacity, claimed, nrequests;
static char kernel_name[1024] = "?", status[1024] = "?", want[1024] = "?", launched[1024];

static void die(int code, const char *msg)
{
    fprintf(stderr, "trace_draw: %s\n", msg);
    exit(code);
}

static void *grow(void *p, size_t n, size_t size)
{
    p = realloc(p, n * size);
    if (!p)
        die(3, "out of memory");
    return p;
}

/* ---------------------------------------------------------------------- */
/* Reading the record                                                      */
/* ---------------------------------------------------------------------- */
static void read_record(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int cap = 0, ended = 0, magic = 0;
    if (!f) {
        fprintf(stderr, "trace_draw: cannot read %s\n", path);
        exit(3);
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!magic) {
            if (strcmp(line, "wbtrace 1") != 0)
                die(3, "not a trace record (no 'wbtrace 1' line first)");
            magic = 1;
        } else if (line[0] == 'a' && line[1] == ' ') {
            entry e;
            char kind, op, value[32];
            unsigned long long pc, addr;
            memset(&e, 0, sizeof e);
            if (sscanf(line + 2, "%u %c %c %u %u %llx %llx %d %31s", &e.req, &kind, &op, &e.block, &e.thread, &pc,
                       &addr, &e.size, value) != 9)
                die(3, "a malformed access line in the record");
            e.kind = kind;
            e.op = op;
            e.pc = pc;
            e.addr = addr;
            e.has_value = strcmp(value, "-") != 0;
            e.value = e.has_value ? strtoull(value, NULL, 10) : 0;
            if (nE == cap) {
                cap = cap ? 2 * cap : 4096;
                E = grow(E, (size_t)cap, sizeof *E);
            }
            E[nE++] = e;
        } else if (!strncmp(line, "name ", 5))
            snprintf(kernel_name, sizeof kernel_name, "%s", line + 5);
        else if (!strncmp(line, "want ", 5))
            snprintf(want, sizeof want, "%s", line + 5);
        else if (!strncmp(line, "status ", 7))
            snprintf(status, sizeof status, "%s", line + 7);
        else if (!strncmp(line, "grid ", 5))
            sscanf(line + 5, "%u %u %u", &grid[0], &grid[1], &grid[2]);
        else if (!strncmp(line, "block ", 6))
            sscanf(line + 6, "%u %u %u", &blk[0], &blk[1], &blk[2]);
        else if (!strncmp(line, "capacity ", 9))
            capacity = strtoull(line + 9, NULL, 10);
        else if (!strncmp(line, "claimed ", 8))
            claimed = strtoull(line + 8, NULL, 10);
        else if (!strncmp(line, "requests ", 9))
            nrequests = strtoull(line + 9, NULL, 10);
        else if (!strncmp(line, "launched ", 9))
            snprintf(launched, sizeof launched, "%s", line + 9);
        else if (!strcmp(line, "end"))
            ended = 1;
    }
    fclose(f);
    if (!magic)
        die(3, "an empty record");
    if (!strcmp(status, "not-launched")) {
        if (launched[0]) /* e.g. a launcher that picks another kernel for this n */
            fprintf(stderr, "trace: no kernel named %s was launched on this input; it launched: %s\n", want,
                    launched);
        else
            fprintf(stderr, "trace: no kernel named %s was launched (is it in ./labNN --list, not a library "
                            "row?)\n", want);
        exit(3);
    }
    if (strncmp(status, "traced", 6) != 0) {
        fprintf(stderr, "trace: the launch could not be traced: %s\n", status);
        exit(3);
    }
    if (!ended)
        die(3, "the record ends early (no 'end' line): the traced program died while writing it");
}

/* ---------------------------------------------------------------------- */
/* Requests, instructions, steps                                           */
/* ---------------------------------------------------------------------- */
static int by_req_thread(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->req != y->req)
        return x->req < y->req ? -1 : 1;
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static int threads_per_block(void) { return (int)(blk[0] * blk[1] * blk[2]); }
static int warps_per_block(void) { return (threads_per_block() + WARP - 1) / WARP; }
static int blocks(void) { return (int)(grid[0] * grid[1] * grid[2]); }

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

static void build(void)
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

static void find_regions(void)
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
static void slot_name(const entry *e, char *buf, size_t len)
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

/* ---------------------------------------------------------------------- */
/* Unordered and stale accesses                                            */
/* ---------------------------------------------------------------------- */
typedef struct {
    uint64_t word;
    int entry, req; /* index into E and R */
} touch;

typedef struct {
    uint32_t block;
    int step, reader, writer; /* entry indices: `reader` may be a write (write-write) */
    int stale;                /* 1: a shared read before any write */
} hazard;

static hazard *H;
static int nH;
static int *req_of; /* entry -> request */

static int by_word(const void *a, const void *b)
{
    const touch *x = a, *y = b;
    if (x->word != y->word)
        return x->word < y->word ? -1 : 1;
    return x->entry - y->entry;
}

static void add_hazard(uint32_t block, int step, int a, int b, int stale)
{
    H = grow(H, (size_t)nH + 1, sizeof *H);
    H[nH].block = block;
    H[nH].step = step;
    H[nH].reader = a;
    H[nH].writer = b;
    H[nH].stale = stale;
    ++nH;
}

/* Two accesses of one block are ordered when a barrier lies between them,
 * or they are the same thread's, or one warp's with a __syncwarp() between. */
static int ordered(int a, int b)
{
    const request *x = &R[req_of[a]], *y = &R[req_of[b]];
    if (E[a].thread == E[b].thread || x->step != y->step)
        return 1;
    return x->warp == y->warp && x->wstep != y->wstep;
}

static void find_hazards(void)
{
    touch *t = NULL;
    int nt = 0, i, j, k;
    req_of = malloc(sizeof *req_of * (size_t)(nE ? nE : 1));
    if (!req_of)
        die(3, "out of memory");
    for (i = 0; i < nR; ++i)
        for (j = R[i].first; j < R[i].first + R[i].count; ++j)
            req_of[j] = i;
    /* one key per (space, block, 4-byte word): global words are keyed by
     * block too, since only a block's own threads can be ordered by its
     * barriers */
    for (i = 0; i < nE; ++i) {
        uint64_t w, lo, hi;
        if (E[i].kind != 'g' && E[i].kind != 's')
            continue;
        lo = E[i].addr / 4;
        hi = (E[i].addr + (uint64_t)(E[i].size ? E[i].size : 4) - 1) / 4;
        for (w = lo; w <= hi; ++w) {
            t = grow(t, (size_t)nt + 1, sizeof *t);
            t[nt].word = (w << 1 | (E[i].kind == 's')) ^ ((uint64_t)E[i].block << 44);
            t[nt].entry = i;
            t[nt].req = req_of[i];
            ++nt;
        }
    }
    qsort(t, (size_t)nt, sizeof *t, by_word);
    for (i = 0; i < nt;) {
        for (j = i; j < nt && t[j].word == t[i].word; ++j)
            ;
        /* i..j: every touch of one word by one block */
        for (k = i; k < j; ++k) {
            const entry *a = &E[t[k].entry];
            int m, written_before = 0, hazard_here = 0;
            for (m = i; m < j && m - i < 256; ++m) {
                const entry *b = &E[t[m].entry];
                if (m == k || b->op == 'r' || b->op == 'a')
                    continue;
                /* b writes the word */
                if (!ordered(t[k].entry, t[m].entry)) {
                    /* each pair once: a read against a write, or the later of two writes */
                    if (a->op == 'r' || (a->op == 'w' && t[k].entry > t[m].entry)) {
                        add_hazard(a->block, R[t[k].req].step, t[k].entry, t[m].entry, 0);
                        hazard_here = 1;
                    }
                } else if (R[t[m].req].step < R[t[k].req].step ||
                           (b->thread == a->thread && b->req < a->req) ||
                           (R[t[m].req].warp == R[t[k].req].warp && R[t[m].req].step == R[t[k].req].step &&
                            R[t[m].req].wstep < R[t[k].req].wstep))
                    written_before = 1;
            }
            if (a->kind == 's' && a->op == 'r' && !written_before && !hazard_here)
                add_hazard(a->block, R[t[k].req].step, t[k].entry, -1, 1);
        }
        i = j;
    }
    free(t);
}

/* Global words that more than one block writes (atomics aside): blocks are
 * never ordered, so the last writer wins by chance. Returns how many words;
 * two entries that write the first one go to *a and *b. */
static int by_addr(const void *x, const void *y)
{
    const entry *p = &E[*(const int *)x], *q = &E[*(const int *)y];
    if (p->addr / 4 != q->addr / 4)
        return p->addr / 4 < q->addr / 4 ? -1 : 1;
    return *(const int *)x - *(const int *)y;
}

static int shared_global_writes(int *a, int *b)
{
    int *w = NULL, n = 0, i, j, k, count = 0;
    for (i = 0; i < nE; ++i)
        if (E[i].kind == 'g' && E[i].op == 'w') {
            w = grow(w, (size_t)n + 1, sizeof *w);
            w[n++] = i;
        }
    if (n)
        qsort(w, (size_t)n, sizeof *w, by_addr);
    for (i = 0; i < n; i = j) {
        for (j = i; j < n && E[w[j]].addr / 4 == E[w[i]].addr / 4; ++j)
            ;
        for (k = i + 1; k < j && E[w[k]].block == E[w[i]].block; ++k)
            ;
        if (k < j && !count++)
            *a = w[i], *b = w[k];
    }
    free(w);
    return count;
}

/* ---------------------------------------------------------------------- */
/* Drawing                                                                 */
/* ---------------------------------------------------------------------- */
static int show_values, brief;

/* Print `item` after the text already on the line (col characters), wrapping
 * at WIDTH with a 6-blank indent. Returns the new column. */
static int put_item(int col, const char *item)
{
    char cut[WIDTH];
    int len = (int)strlen(item);
    if (len > WIDTH - 8) { /* one item never passes the line's end */
        snprintf(cut, sizeof cut, "%.*s..", WIDTH - 10, item);
        item = cut;
        len = (int)strlen(item);
    }
    if (col > 6 && col + 2 + len > WIDTH) {
        printf("\n      ");
        col = 6;
    } else if (col > 6) {
        printf("  ");
        col += 2;
    }
    printf("%s", item);
    return col + len;
}

/* "A0,A1" from the entries of thread `th` of block `b` in step `s` with op
 * `op` (r or w/a), at most 4 named and a count past that. */
static void slots_of(uint32_t b, uint32_t th, int s, char op, char *buf, size_t len)
{
    int i, n = 0, pos = 0, total = 0;
    buf[0] = '\0';
    for (i = 0; i < nE; ++i) {
        const entry *e = &E[i];
        char name[48];
        if (e->block != b || e->thread != th || (e->kind != 'g' && e->kind != 's') || R[req_of[i]].step != s)
            continue;
        if ((op == 'r') != (e->op == 'r'))
            continue;
        ++total;
        if (n == 4)
            continue;
        slot_name(e, name, sizeof name);
        if (show_values && e->has_value)
            pos += snprintf(buf + pos, len - (size_t)pos, "%s%s=%lld", n ? "," : "", name, (long long)e->value);
        else
            pos += snprintf(buf + pos, len - (size_t)pos, "%s%s", n ? "," : "", name);
        ++n;
        if ((size_t)pos >= len - 16)
            break;
    }
    if (total > n)
        snprintf(buf + pos, len - (size_t)pos, ",..(%d)", total);
}

static int max_step_of_block(uint32_t b)
{
    int i, m = 0;
    for (i = 0; i < nR; ++i)
        if (R[i].block == b && R[i].step > m)
            m = R[i].step;
    return m;
}

static void describe_hazard(const hazard *h, char *buf, size_t len)
{
    char a[48], b[48];
    const entry *x = &E[h->reader];
    slot_name(x, a, sizeof a);
    if (h->stale) {
        snprintf(buf, len, "stale: t%u reads %s before any thread wrote it", x->thread, a);
        return;
    }
    slot_name(&E[h->writer], b, sizeof b);
    snprintf(buf, len, "unordered: t%u %s %s, t%u writes it in this step (%s)", x->thread,
             x->op == 'r' ? "reads" : "writes", a, E[h->writer].thread,
             R[req_of[h->reader]].warp == R[req_of[h->writer]].warp ? "one warp, no __syncwarp()"
                                                                     : "no barrier between");
}

/* Step s of a block whose last step is `last`: "1", "2", ..., and "end"
 * for the part after the last barrier. */
static void step_label(int s, int last, char *buf, size_t len)
{
    if (s < last || last == 0)
        snprintf(buf, len, "%d", s + 1);
    else
        snprintf(buf, len, "end");
}

static void draw_tree(uint32_t b)
{
    int nthreads = threads_per_block(), drawn = nthreads < DRAW_THREADS ? nthreads : DRAW_THREADS;
    int s, last = max_step_of_block(b), art = drawn + (drawn - 1) / WARP, i;
    int nw = warps_per_block();
    if (brief)
        printf("1. The tree: block %u of %d, step by step (a step ends at a __syncthreads())\n", b, blocks());
    else {
        printf("1. The tree: block %u of %d (%d thread%s, %d warp%s), step by step; a step ends where the\n"
               "   threads pass a __syncthreads(). tN r>w: what thread N read (r) and wrote (w) in the step.\n",
               b, blocks(), nthreads, nthreads > 1 ? "s" : "", nw, nw > 1 ? "s" : "");
        printf("   A12: element 12 of the first global buffer the kernel touched (B: the second, ...);\n"
               "   s12: shared word 12 (in units of the access size). sectors: per global load request.\n");
    }
    (void)i;
    if (drawn < nthreads)
        printf("   (threads 0..%d drawn; the counts cover all %d)\n", drawn - 1, nthreads);
    printf("  %4s  %-*s %7s %7s %7s\n", "step", art < 28 ? 28 : art,
           drawn <= 32 ? "threads ('#' accessed memory)" : "threads ('#' accessed, by warp)", "working", "warps",
           "sectors");
    for (s = 0; s <= last; ++s) {
        char row[DRAW_THREADS + DRAW_THREADS / WARP + 1], of[32], item[400], stepname[16];
        int pos = 0, working = 0, warps = 0, loads = 0, load_sectors = 0, col, flagged = 0, t;
        unsigned char *active = calloc((size_t)nthreads, 1), *wact = calloc((size_t)nw, 1);
        if (!active || !wact)
            die(3, "out of memory");
        for (i = 0; i < nR; ++i) {
            const request *r = &R[i];
            int j;
            if (r->block != b || r->step != s || (I[r->instr].kind != 'g' && I[r->instr].kind != 's'))
                continue;
            for (j = r->first; j < r->first + r->count; ++j)
                active[E[j].thread] = 1;
            wact[r->warp] = 1;
            if (I[r->instr].kind == 'g' && I[r->instr].op == 'r') {
                ++loads;
                load_sectors += r->sectors;
            }
        }
        for (t = 0; t < nthreads; ++t)
            working += active[t];
        for (t = 0; t < nw; ++t)
            warps += wact[t];
        for (t = 0; t < drawn; ++t) {
            if (t && t % WARP == 0)
                row[pos++] = ' ';
            row[pos++] = active[t] ? '#' : '.';
        }
        row[pos] = '\0';
        snprintf(of, sizeof of, "%d of %d", warps, nw);
        step_label(s, last, stepname, sizeof stepname);
        printf("  %4s  %-*s %7d %7s ", stepname, art < 28 ? 28 : art, row, working, of);
        if (loads)
            printf("%7.1f\n", (double)load_sectors / loads);
        else
            printf("%7s\n", "-");
        col = 6;
        if (!brief)
            printf("      ");
        for (t = 0; t < drawn && !brief; ++t) {
            char rd[160], wr[160];
            if (!active[t])
                continue;
            slots_of(b, (uint32_t)t, s, 'r', rd, sizeof rd);
            slots_of(b, (uint32_t)t, s, 'w', wr, sizeof wr);
            snprintf(item, sizeof item, "t%d %s>%s", t, rd[0] ? rd : "-", wr[0] ? wr : "-");
            col = put_item(col, item);
        }
        if (!brief)
            printf("\n");
        for (i = 0; i < nH; ++i) {
            if (H[i].block != b || H[i].step != s)
                continue;
            if (flagged++ < (brief ? FLAGS_SHOWN / 2 : FLAGS_SHOWN)) {
                describe_hazard(&H[i], item, sizeof item);
                printf("      !! %s\n", item);
            }
        }
        if (flagged > (brief ? FLAGS_SHOWN / 2 : FLAGS_SHOWN))
            printf("      !! ... and %d more in this step\n", flagged - (brief ? FLAGS_SHOWN / 2 : FLAGS_SHOWN));
        free(active);
        free(wact);
    }
    if (last)
        printf("  %d barrier%s (__syncthreads()) in this block: %d step%s, then the part after the last\n\n",
               last, last == 1 ? "" : "s", last, last == 1 ? "" : "s");
    else
        printf("  no barrier (__syncthreads()) in this block: one step\n\n");
}

/* ---------------------------------------------------------------------- */
/* The tree as an SVG (--svg FILE): for chapters and slides                 */
/* ---------------------------------------------------------------------- */
#define SVG_SLOTS 160 /* memory slots (columns) drawn at most */

typedef struct {
    char name[48];
    char space; /* the region letter, or 's' for shared */
    uint64_t index;
} slot;

static slot *S;
static int nS;

static int slot_cmp(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->space != y->space)
        return x->space == 's' ? 1 : y->space == 's' ? -1 : x->space - y->space;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The column of entry e's slot, or -1 when it is not drawn. */
static int slot_column(const entry *e)
{
    char name[48];
    int i;
    slot_name(e, name, sizeof name);
    for (i = 0; i < nS && i < SVG_SLOTS; ++i)
        if (!strcmp(S[i].name, name))
            return i;
    return -1;
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; ++s)
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
}

/* Block b's tree: one band per step; at its top the slots its threads read
 * (light), at its bottom the slots they wrote (dark), a line from each read
 * to the write of the same thread; red where an access is unordered. */
static void draw_svg(uint32_t b, const char *path)
{
    int nthreads = threads_per_block(), drawn = nthreads < DRAW_THREADS ? nthreads : DRAW_THREADS;
    int last = max_step_of_block(b), s, i, j, cols, w, h, *col;
    const int left = 70, top = 78, band = 78;
    int cell, every;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "trace_draw: cannot write %s\n", path);
        exit(2);
    }
    for (i = 0; i < nE; ++i) {
        const entry *e = &E[i];
        char name[48];
        if (e->block != b || (int)e->thread >= drawn || (e->kind != 'g' && e->kind != 's'))
            continue;
        slot_name(e, name, sizeof name);
        for (j = 0; j < nS && strcmp(S[j].name, name); ++j)
            ;
        if (j < nS)
            continue;
        S = grow(S, (size_t)nS + 1, sizeof *S);
        snprintf(S[nS].name, sizeof S[nS].name, "%s", name);
        S[nS].space = name[0];
        S[nS].index = strtoull(name + 1, NULL, 10);
        ++nS;
    }
    qsort(S, (size_t)nS, sizeof *S, slot_cmp);
    cols = nS < SVG_SLOTS ? nS : SVG_SLOTS;
    cell = cols ? 1150 / cols : 18; /* about 1,200 pixels wide at most */
    cell = cell > 18 ? 18 : cell < 7 ? 7 : cell;
    every = (22 + cell - 1) / cell; /* a slot's name every `every` columns */
    /* the column of each of block b's memory accesses, -1 when not drawn */
    col = malloc(sizeof *col * (size_t)(nE ? nE : 1));
    if (!col)
        die(3, "out of memory");
    for (i = 0; i < nE; ++i)
        col[i] = E[i].block == b && (E[i].kind == 'g' || E[i].kind == 's') ? slot_column(&E[i]) : -1;
    w = left + (cols ? cols : 1) * cell + 30;
    if (w < 760)
        w = 760;
    h = top + (last + 1) * band + 60;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n", w, h, w, h);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
    fprintf(f, "<text x=\"16\" y=\"26\" font-size=\"17\" font-weight=\"bold\">");
    xml_text(f, kernel_name);
    fprintf(f, "</text>\n<text x=\"16\" y=\"46\" fill=\"#444444\">block %u of %d, threads 0..%d of %d: "
               "what each thread read and wrote, step by step, traced on the GPU</text>\n",
            b, blocks(), drawn - 1, nthreads);
    fprintf(f, "<text x=\"16\" y=\"63\" fill=\"#444444\">light: read in the step; dark: written; a line joins "
               "a thread's reads to its write; red: unordered%s</text>\n",
            nS > SVG_SLOTS ? "; the first 160 slots drawn" : "");
    for (i = 0; i < cols; i += every)
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"8\" text-anchor=\"middle\" "
                   "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">%s</text>\n",
                left + i * cell + cell / 2, top - 4, S[i].name);
    for (s = 0; s <= last; ++s) {
        int y0 = top + s * band, yr = y0 + 4, yw = y0 + band - 26;
        char label[16];
        unsigned char *rd = calloc((size_t)(cols ? cols : 1), 1), *wr = calloc((size_t)(cols ? cols : 1), 1);
        unsigned char *bad = calloc((size_t)(cols ? cols : 1), 1);
        if (!rd || !wr || !bad)
            die(3, "out of memory");
        step_label(s, last, label, sizeof label);
        fprintf(f, "<text x=\"16\" y=\"%d\" fill=\"#333333\">step %s</text>\n", y0 + band / 2, label);
        for (i = 0; i < nH; ++i) {
            int c;
            if (H[i].block != b || H[i].step != s)
                continue;
            if ((c = col[H[i].reader]) >= 0)
                bad[c] = 1;
        }
        /* the lines: per drawn thread, each read to each write of the step */
        for (i = 0; i < nE; ++i) {
            const entry *r = &E[i];
            int cr = col[i];
            if (cr < 0 || (int)r->thread >= drawn || r->op != 'r' || R[req_of[i]].step != s)
                continue;
            rd[cr] = 1;
            for (j = 0; j < nE; ++j) {
                const entry *x = &E[j];
                int cw = col[j];
                if (cw < 0 || x->thread != r->thread || x->op == 'r' || R[req_of[j]].step != s)
                    continue;
                fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.2\"/>\n",
                        left + cr * cell + cell / 2, yr + cell - 4, left + cw * cell + cell / 2, yw,
                        bad[cr] ? "#cc3311" : "#4477aa");
            }
        }
        for (j = 0; j < nE; ++j)
            if (col[j] >= 0 && (int)E[j].thread < drawn && E[j].op != 'r' && R[req_of[j]].step == s)
                wr[col[j]] = 1;
        for (i = 0; i < cols; ++i) {
            if (rd[i])
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#bbccee\" stroke=\"%s\"/>\n",
                        left + i * cell + 1, yr, cell - 2, cell - 4, bad[i] ? "#cc3311" : "#4477aa");
            if (wr[i])
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#224488\"/>\n",
                        left + i * cell + 1, yw, cell - 2, cell - 4);
        }
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>\n", 12, y0 + band - 4,
                w - 12, y0 + band - 4);
        free(rd);
        free(wr);
        free(bad);
    }
    fprintf(f, "<text x=\"16\" y=\"%d\" fill=\"#555555\">A, B, ...: global buffers in the order the kernel "
               "first touched them; s: shared words. A step ends at a __syncthreads().</text>\n",
            h - 24);
    fprintf(f, "</svg>\n");
    fclose(f);
    free(col);
}

static const char *op_name(char op)
{
    return op == 'r' ? "load" : op == 'w' ? "store" : op == 'a' ? "atomic" : "-";
}

static void draw_coalescing(void)
{
    int i, any = 0;
    printf("2. Coalescing: the warp-level requests to global memory (every block), by instruction.\n"
           "   A sector is 32 bytes; 'least' is what the same bytes need when contiguous.\n");
    printf("  %-5s %-8s %-12s %8s %9s %9s %11s %6s %10s\n", "instr", "pc", "access", "requests", "lanes/req",
           "bytes/req", "sectors/req", "least", "efficiency");
    for (i = 0; i < nI; ++i) {
        char what[32];
        const instr *in = &I[i];
        if (in->kind != 'g')
            continue;
        any = 1;
        snprintf(what, sizeof what, "%s %d B", op_name(in->op), in->size);
        printf("  %-5s +%-7llx %-12s %8d %9.1f %9.1f %11.2f %6.2f %9.0f%%\n", in->label, (unsigned long long)in->pc,
               what, in->requests, (double)in->lanes / in->requests, (double)in->bytes / in->requests,
               (double)in->sectors / in->requests, (double)in->least / in->requests,
               100.0 * in->bytes / (32.0 * in->sectors));
    }
    if (!any)
        printf("  (no global memory access)\n");
    printf("\n");
}

static void bank_row(const request *r)
{
    int lane, i;
    int bank[WARP];
    for (lane = 0; lane < WARP; ++lane)
        bank[lane] = -1;
    for (i = r->first; i < r->first + r->count; ++i)
        bank[E[i].thread % WARP] = (int)((E[i].addr / 4) % BANKS);
    printf("    ");
    for (lane = 0; lane < WARP; ++lane)
        if (bank[lane] < 0)
            printf("  .");
        else
            printf("%3d", bank[lane]);
    printf("\n");
}

static void draw_banks(void)
{
    int i, any = 0;
    printf("3. Shared-memory banks: 32 banks of 4 bytes; word w is in bank w %% 32. A request whose\n"
           "   lanes need n different words of one bank takes n passes (an n-way conflict).\n");
    for (i = 0; i < nI; ++i) {
        char what[32];
        const instr *in = &I[i];
        if (in->kind != 's')
            continue;
        if (!any)
            printf("  %-5s %-8s %-12s %8s %9s %12s %12s\n", "instr", "pc", "access", "requests", "lanes/req",
                   "worst", "average");
        any = 1;
        snprintf(what, sizeof what, "%s %d B", op_name(in->op), in->size);
        printf("  %-5s +%-7llx %-12s %8d %9.1f %8d-way %11.2f\n", in->label, (unsigned long long)in->pc, what,
               in->requests, (double)in->lanes / in->requests, in->worst, (double)in->degree_sum / in->requests);
    }
    if (!any) {
        printf("  (no shared memory access)\n\n");
        return;
    }
    for (i = 0; i < nI; ++i) {
        const instr *in = &I[i];
        const request *r;
        if (in->kind != 's' || in->worst_req < 0)
            continue;
        r = &R[in->worst_req];
        if (in->worst == 1 && i != 0) {
            int j, first_s = 1;
            for (j = 0; j < i; ++j)
                if (I[j].kind == 's')
                    first_s = 0;
            if (!first_s)
                continue; /* conflict-free: the first such row is drawn as the example */
        }
        printf("  %s, the bank of lanes 0..31 in its worst request (block %u, warp %u):\n", in->label, r->block,
               r->warp);
        bank_row(r);
        if (in->worst > 1)
            printf("    -> %d-way conflict: %d passes for one warp's request\n", in->worst, in->worst);
        else
            printf("    -> no conflict: one pass serves the warp's request\n");
    }
    printf("\n");
}

static void draw_divergence(void)
{
    int i, full = 0, last = max_step_of_block(0);
    char stepname[16];
    printf("4. Active lanes per request (warp 0 of block 0; '#' an active lane, '.' an idle one).\n");
    printf("   every request with all lanes of its warp active:");
    {
        int col = 52;
        for (i = 0; i < nI; ++i)
            if (I[i].full && I[i].kind != 'w') {
                if (col + 1 + (int)strlen(I[i].label) > WIDTH) {
                    printf("\n     ");
                    col = 5;
                }
                col += printf(" %s", I[i].label);
                ++full;
            }
    }
    printf("%s\n", full ? "" : " none");
    for (i = 0; i < nI; ++i) {
        int j, shown = 0, total = 0;
        if (I[i].full || I[i].kind == 'w')
            continue;
        for (j = 0; j < nR; ++j) {
            const request *r = &R[j];
            char lanes[WARP + 1];
            int l;
            if (r->instr != i || r->block != 0 || r->warp != 0)
                continue;
            ++total;
            if (shown == LANES_SHOWN)
                continue;
            for (l = 0; l < WARP; ++l)
                lanes[l] = (r->mask >> l) & 1u ? '#' : '.';
            lanes[WARP] = '\0';
            step_label(r->step, last, stepname, sizeof stepname);
            printf("  %-5s %-8s %s %2d lane%s  step %s\n", shown ? "" : I[i].label,
                   shown ? "" : op_name(I[i].op), lanes, __builtin_popcount(r->mask),
                   __builtin_popcount(r->mask) == 1 ? " " : "s", stepname);
            ++shown;
        }
        if (total > shown)
            printf("  %-5s %-8s ... %d more requests of this warp\n", "", "", total - shown);
        if (!total)
            printf("  %-5s %-8s (not issued by warp 0 of block 0)\n", I[i].label, op_name(I[i].op));
    }
    printf("\n");
}

static void draw_summary(uint32_t b)
{
    int i, ld = 0, lds = 0, st = 0, sts = 0, bld = 0, blds = 0, bst = 0, bsts = 0, sreq = 0, worst = 0;
    int unordered = 0, stale = 0, barriers = max_step_of_block(b), syncwarps = 0, at = 0;
    for (i = 0; i < nR; ++i) {
        const request *r = &R[i];
        const instr *in = &I[r->instr];
        if (in->kind == 'g' && in->op == 'r') {
            ++ld;
            lds += r->sectors;
            if (r->block == b)
                ++bld, blds += r->sectors;
        } else if (in->kind == 'g') {
            ++st;
            sts += r->sectors;
            if (r->block == b)
                ++bst, bsts += r->sectors;
            at += in->op == 'a';
        } else if (in->kind == 's') {
            ++sreq;
            if (r->degree > worst)
                worst = r->degree;
        } else if (in->kind == 'w' && r->block == b && r->warp == 0)
            ++syncwarps;
    }
    for (i = 0; i < nH; ++i) {
        if (H[i].stale)
            ++stale;
        else
            ++unordered;
    }
    printf("%d. Summary of the launch: %d block%s of %d thread%s.\n", brief ? 2 : 5, blocks(),
           blocks() > 1 ? "s" : "", threads_per_block(), threads_per_block() > 1 ? "s" : "");
#define S_(n) ((n) == 1 ? "" : "s")
    if (brief)
        printf("  global: %d load request%s, %.2f sectors each; %d store/atomic request%s, %.2f sectors "
               "each\n", ld, S_(ld), ld ? (double)lds / ld : 0.0, st, S_(st), st ? (double)sts / st : 0.0);
    else {
        printf("  global: %d load request%s, %d sector%s (%.2f per request); %d store/atomic request%s,\n"
               "          %d sector%s (%.2f per request)\n",
               ld, S_(ld), lds, S_(lds), ld ? (double)lds / ld : 0.0, st, S_(st), sts, S_(sts),
               st ? (double)sts / st : 0.0);
        printf("  per block (block %u): %d load request%s, %d load sector%s (%.2f per request); %d store\n"
               "          request%s, %d store sector%s\n",
               b, bld, S_(bld), blds, S_(blds), bld ? (double)blds / bld : 0.0, bst, S_(bst), bsts, S_(bsts));
    }
    /* --brief puts the shared requests and the barriers on one line */
    if (sreq)
        printf(brief ? "  shared: %d request%s, worst bank conflict %d-way%s; "
                     : "  shared: %d request%s; worst bank conflict: %d-way%s\n",
               sreq, S_(sreq), worst, worst == 1 ? " (none)" : "");
    else
        printf(brief ? "  shared: none; " : "  shared: no requests\n");
    printf(brief ? "barriers: %d; __syncwarp() in warp 0: %d\n"
                 : "  barriers per block: %d (__syncthreads()); __syncwarp() in warp 0: %d\n",
           barriers, syncwarps);
#undef S_
    printf("  unordered accesses: %d; stale shared reads: %d%s\n", unordered, stale,
           unordered + stale ? "   (!! in the tree)" : "");
    {
        int x = -1, y = -1, n = shared_global_writes(&x, &y);
        char name[48];
        if (n) {
            slot_name(&E[x], name, sizeof name);
            printf("  !! %d global word%s written by more than one block (blocks run in no order): %s\n"
                   "     by blocks %u and %u\n", n, n == 1 ? "" : "s", name, E[x].block, E[y].block);
        }
    }
    if (!brief)
        printf("  record: %llu accesses and barriers of %llu the buffer holds, %s\n", (unsigned long long)nE,
               capacity, claimed > capacity ? "SOME DROPPED" : "none dropped");
}

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
