/*
 * draw_tree.c - draws the tree in text: per step, which thread read which
 * slots and wrote where, with the unordered accesses flagged.
 */
#include "draw.h"

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

int max_step_of_block(uint32_t b)
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
void step_label(int s, int last, char *buf, size_t len)
{
    if (s < last || last == 0)
        snprintf(buf, len, "%d", s + 1);
    else
        snprintf(buf, len, "end");
}

/* Step s's unordered accesses in block b, FLAGS_SHOWN at most (half that
 * with --brief), then how many more. */
static void print_flags(uint32_t b, int s)
{
    char item[400];
    int i, flagged = 0, shown = brief ? FLAGS_SHOWN / 2 : FLAGS_SHOWN;
    for (i = 0; i < nH; ++i) {
        if (H[i].block != b || H[i].step != s)
            continue;
        if (flagged++ < shown) {
            describe_hazard(&H[i], item, sizeof item);
            printf("      !! %s\n", item);
        }
    }
    if (flagged > shown)
        printf("      !! ... and %d more in this step\n", flagged - shown);
}

/* Step s of block b: its row of threads ('#' for each that accessed
 * memory), working threads, warps and sectors per load; then (without
 * --brief) what each thread read and wrote; then its flags. */
static void draw_step(uint32_t b, int s, int last, int drawn, int art)
{
    int nthreads = threads_per_block(), nw = warps_per_block();
    char row[DRAW_THREADS + DRAW_THREADS / WARP + 1], of[32], item[400], stepname[16];
    int pos = 0, working = 0, warps = 0, loads = 0, load_sectors = 0, col, t, i;
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
    print_flags(b, s);
    free(active);
    free(wact);
}

void draw_tree(uint32_t b)
{
    int nthreads = threads_per_block(), drawn = nthreads < DRAW_THREADS ? nthreads : DRAW_THREADS;
    int s, last = max_step_of_block(b), art = drawn + (drawn - 1) / WARP;
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
    if (drawn < nthreads)
        printf("   (threads 0..%d drawn; the counts cover all %d)\n", drawn - 1, nthreads);
    printf("  %4s  %-*s %7s %7s %7s\n", "step", art < 28 ? 28 : art,
           drawn <= 32 ? "threads ('#' accessed memory)" : "threads ('#' accessed, by warp)", "working", "warps",
           "sectors");
    for (s = 0; s <= last; ++s)
        draw_step(b, s, last, drawn, art);
    if (last)
        printf("  %d barrier%s (__syncthreads()) in this block: %d step%s, then the part after the last\n\n",
               last, last == 1 ? "" : "s", last, last == 1 ? "" : "s");
    else
        printf("  no barrier (__syncthreads()) in this block: one step\n\n");
}
