/*
 * wbtrace.h - what the trace's device patches (trace_patch.cu) and its
 * injection library (trace_inject.c) share: the record of one launch.
 *
 * The patches append one entry per thread and memory access (or barrier) to
 * a bounded buffer in device memory. The threads of a warp that execute one
 * instruction together take one request number (their warp-level request)
 * and consecutive entries. When the buffer is full, `claimed` keeps
 * counting: claimed > capacity means entries were dropped, and the record
 * says so.
 */
#ifndef WBTRACE_H
#define WBTRACE_H

#include <stdint.h>

enum {
    WBT_GLOBAL = 1,  /* a global memory access */
    WBT_SHARED = 2,  /* a shared memory access (addr: offset in the block's shared window) */
    WBT_BARRIER = 3, /* __syncthreads() (addr: barrier index, value: thread count, 0 = all) */
    WBT_SYNCWARP = 4 /* __syncwarp() (addr: its mask) */
};

enum {
    WBT_READ = 0x1,     /* as Sanitizer_DeviceMemoryFlags: both = an atomic */
    WBT_WRITE = 0x2,
    WBT_HAS_VALUE = 0x10 /* `value` holds the value stored, or the one about to be loaded */
};

typedef struct {
    uint64_t addr;
    uint64_t value;
    uint64_t pc;
    uint32_t req;    /* the warp-level request: one number per instruction a warp issues */
    uint32_t block;  /* linear block index */
    uint16_t thread; /* linear thread index in the block (warp = thread / 32, lane = thread % 32) */
    uint8_t kind;    /* WBT_GLOBAL ... */
    uint8_t op;      /* WBT_READ | WBT_WRITE | WBT_HAS_VALUE */
    uint8_t size;    /* bytes of the access */
    uint8_t pad[3];
} wbt_entry;

/* tracker flags (set by the host) */
enum { WBT_LOAD_SHARED_VALUES = 0x1 };

typedef struct {
    uint32_t claimed;  /* entries asked for (may pass capacity) */
    uint32_t requests; /* request numbers handed out */
    uint32_t capacity;
    uint32_t flags;
    wbt_entry *entries;
} wbt_tracker;

#endif /* WBTRACE_H */
