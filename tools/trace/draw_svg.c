/*
 * draw_svg.c - draws the tree as an SVG picture (--svg FILE), for chapters
 * and slides.
 */
#include "draw.h"

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

/* The picture's geometry: columns of `cell` pixels from `left`, one band
 * of `band` pixels per step from `top`; col[i]: entry i's column or -1. */
typedef struct {
    int left, top, band, cell, cols, drawn, w, h;
    const int *col;
} svg_geo;

/* S: every slot that block b's first `drawn` threads accessed, in order. */
static void collect_slots(uint32_t b, int drawn)
{
    int i, j;
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
}

/* The title, the legend and the slots' names over their columns. */
static void svg_head(FILE *f, uint32_t b, const svg_geo *g)
{
    int i, every = (22 + g->cell - 1) / g->cell; /* a slot's name every `every` columns */
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n", g->w, g->h, g->w,
            g->h);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", g->w, g->h);
    fprintf(f, "<text x=\"16\" y=\"26\" font-size=\"17\" font-weight=\"bold\">");
    xml_text(f, kernel_name);
    fprintf(f, "</text>\n<text x=\"16\" y=\"46\" fill=\"#444444\">block %u of %d, threads 0..%d of %d: "
               "what each thread read and wrote, step by step, traced on the GPU</text>\n",
            b, blocks(), g->drawn - 1, threads_per_block());
    fprintf(f, "<text x=\"16\" y=\"63\" fill=\"#444444\">light: read in the step; dark: written; a line joins "
               "a thread's reads to its write; red: unordered%s</text>\n",
            nS > SVG_SLOTS ? "; the first 160 slots drawn" : "");
    for (i = 0; i < g->cols; i += every)
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"8\" text-anchor=\"middle\" "
                   "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">%s</text>\n",
                g->left + i * g->cell + g->cell / 2, g->top - 4, S[i].name);
}

/* Step s's band: the slots read (light) and written (dark), a line from
 * each read to the write of the same thread; red where unordered. */
static void svg_step(FILE *f, uint32_t b, int s, int last, const svg_geo *g)
{
    const int *col = g->col, left = g->left, cell = g->cell;
    int y0 = g->top + s * g->band, yr = y0 + 4, yw = y0 + g->band - 26, i, j;
    char label[16];
    size_t ncols = (size_t)(g->cols ? g->cols : 1);
    unsigned char *rd = calloc(ncols, 1), *wr = calloc(ncols, 1), *bad = calloc(ncols, 1);
    if (!rd || !wr || !bad)
        die(3, "out of memory");
    step_label(s, last, label, sizeof label);
    fprintf(f, "<text x=\"16\" y=\"%d\" fill=\"#333333\">step %s</text>\n", y0 + g->band / 2, label);
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
        if (cr < 0 || (int)r->thread >= g->drawn || r->op != 'r' || R[req_of[i]].step != s)
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
        if (col[j] >= 0 && (int)E[j].thread < g->drawn && E[j].op != 'r' && R[req_of[j]].step == s)
            wr[col[j]] = 1;
    for (i = 0; i < g->cols; ++i) {
        if (rd[i])
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#bbccee\" stroke=\"%s\"/>\n",
                    left + i * cell + 1, yr, cell - 2, cell - 4, bad[i] ? "#cc3311" : "#4477aa");
        if (wr[i])
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#224488\"/>\n",
                    left + i * cell + 1, yw, cell - 2, cell - 4);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>\n", 12, y0 + g->band - 4,
            g->w - 12, y0 + g->band - 4);
    free(rd);
    free(wr);
    free(bad);
}

/* Block b's tree: one band per step; at its top the slots its threads read
 * (light), at its bottom the slots they wrote (dark), a line from each read
 * to the write of the same thread; red where an access is unordered. */
void draw_svg(uint32_t b, const char *path)
{
    int nthreads = threads_per_block(), last = max_step_of_block(b), s, i, *col;
    svg_geo g = {70, 78, 78, 0, 0, nthreads < DRAW_THREADS ? nthreads : DRAW_THREADS, 0, 0, NULL};
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "trace_draw: cannot write %s\n", path);
        exit(2);
    }
    collect_slots(b, g.drawn);
    g.cols = nS < SVG_SLOTS ? nS : SVG_SLOTS;
    g.cell = g.cols ? 1150 / g.cols : 18; /* about 1,200 pixels wide at most */
    g.cell = g.cell > 18 ? 18 : g.cell < 7 ? 7 : g.cell;
    /* the column of each of block b's memory accesses, -1 when not drawn */
    col = malloc(sizeof *col * (size_t)(nE ? nE : 1));
    if (!col)
        die(3, "out of memory");
    for (i = 0; i < nE; ++i)
        col[i] = E[i].block == b && (E[i].kind == 'g' || E[i].kind == 's') ? slot_column(&E[i]) : -1;
    g.col = col;
    g.w = g.left + (g.cols ? g.cols : 1) * g.cell + 30;
    if (g.w < 760)
        g.w = 760;
    g.h = g.top + (last + 1) * g.band + 60;
    svg_head(f, b, &g);
    for (s = 0; s <= last; ++s)
        svg_step(f, b, s, last, &g);
    fprintf(f, "<text x=\"16\" y=\"%d\" fill=\"#555555\">A, B, ...: global buffers in the order the kernel "
               "first touched them; s: shared words. A step ends at a __syncthreads().</text>\n",
            g.h - 24);
    fprintf(f, "</svg>\n");
    fclose(f);
    free(col);
}
