/*
 * draw.h - what the parts of trace_draw share: the record's entries, the
 * warp-level requests, the instructions, the global buffers, the unordered
 * accesses found, and the functions one part calls in another.
 */
#ifndef TRACE_DRAW_H
#define TRACE_DRAW_H

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

typedef struct {
    uint32_t block;
    int step, reader, writer; /* entry indices: `reader` may be a write (write-write) */
    int stale;                /* 1: a shared read before any write */
} hazard;

/* the record and what is built from it (trace_draw.c) */
extern entry *E;
extern int nE;
extern request *R;
extern int nR;
extern instr *I;
extern int nI;
extern region G[26];
extern int nG;
extern unsigned grid[3], blk[3];
extern unsigned long long capacity, claimed, nrequests;
extern char kernel_name[1024], status[1024], want[1024], launched[1024];
extern int show_values, brief; /* -v, --brief */

/* the unordered and stale accesses, and each entry's request (draw_hazards.c) */
extern hazard *H;
extern int nH;
extern int *req_of; /* entry -> request */

/* exits with `code` after "trace_draw: msg"; realloc or exit */
void die(int code, const char *msg);
void *grow(void *p, size_t n, size_t size);

/* reading the record (draw_record.c) */
void read_record(const char *path);

/* requests, instructions, steps, buffers (draw_steps.c) */
int threads_per_block(void);
int warps_per_block(void);
int blocks(void);
void build(void);
void find_regions(void);
void slot_name(const entry *e, char *buf, size_t len);

/* unordered and stale accesses (draw_hazards.c) */
void find_hazards(void);
int shared_global_writes(int *a, int *b);

/* the tree, in text (draw_tree.c) */
int max_step_of_block(uint32_t b);
void step_label(int s, int last, char *buf, size_t len);
void draw_tree(uint32_t b);

/* the tree as an SVG (draw_svg.c) */
void draw_svg(uint32_t b, const char *path);

/* coalescing, banks, divergence, the summary (draw_parts.c) */
void draw_coalescing(void);
void draw_banks(void);
void draw_divergence(void);
void draw_summary(uint32_t b);

#endif
