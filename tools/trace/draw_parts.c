/*
 * draw_parts.c - draws parts 2 to 5: coalescing of the global requests,
 * shared-memory bank conflicts, divergence of one warp, and the summary.
 */
#include "draw.h"

static const char *op_name(char op)
{
    return op == 'r' ? "load" : op == 'w' ? "store" : op == 'a' ? "atomic" : "-";
}

void draw_coalescing(void)
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

void draw_banks(void)
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

void draw_divergence(void)
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

void draw_summary(uint32_t b)
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
