/*
 * draw_hazards.c - finds the unordered accesses (one thread writes a slot
 * that another reads or writes in the same step, with no barrier between) and
 * the stale shared reads.
 */
#include "draw.h"

typedef struct {
    uint64_t word;
    int entry, req; /* index into E and R */
} touch;

hazard *H;
int nH;
int *req_of; /* entry -> request */

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

void find_hazards(void)
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

int shared_global_writes(int *a, int *b)
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
