/*
 * trace_patch.cu - the device side of the trace: callbacks that the Compute
 * Sanitizer API patches in front of every global and shared memory access,
 * every __syncthreads() and every __syncwarp() of the traced kernel.
 *
 * Built apart from the labs, as a tools patch (tools/trace/trace.sh):
 *     nvcc --fatbin --compile-as-tools-patch -I<sanitizer>/include -o wbtrace_patch.fatbin trace_patch.cu
 * and loaded by the injection library (trace_inject.c) with
 * sanitizerAddPatchesFromFile. Every thread that executes a patched
 * instruction calls its callback; the lanes of a warp that execute it
 * together share one request number and consecutive entries of the buffer
 * (wbtrace.h). Launches the tracer does not want get a NULL userdata and
 * record nothing.
 */
#include <sanitizer_patching.h>

#include <type_traits>

#include "wbtrace.h"

/* The linear index of the calling thread in its block, and of its block. */
static __device__ __forceinline__ uint32_t linear_thread(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ uint32_t linear_block(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

static __device__ __forceinline__ uint32_t lane_id(void)
{
    uint32_t lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

/* Claim this lane's entry: the first active lane takes a request number and
 * room for every active lane, and hands both to the others. Returns NULL
 * when the buffer is full (claimed keeps counting: the host says so). */
static __device__ __forceinline__ wbt_entry *claim(wbt_tracker *t, uint32_t *req)
{
    uint32_t mask = __activemask();
    uint32_t lane = lane_id();
    uint32_t leader = __ffs(mask) - 1;
    uint32_t base = 0, r = 0;
    if (lane == leader) {
        r = atomicAdd(&t->requests, 1u);
        base = atomicAdd(&t->claimed, (uint32_t)__popc(mask));
    }
    r = __shfl_sync(mask, r, leader);
    base = __shfl_sync(mask, base, leader);
    base += __popc(mask & ((1u << lane) - 1u));
    *req = r;
    if (base >= t->capacity)
        return NULL;
    return &t->entries[base];
}

static __device__ __forceinline__ void fill(wbt_entry *e, uint32_t req, uint64_t pc, uint8_t kind, uint8_t op,
                                            uint64_t addr, uint8_t size, uint64_t value)
{
    e->addr = addr;
    e->value = value;
    e->pc = pc;
    e->req = req;
    e->block = linear_block();
    e->thread = (uint16_t)linear_thread();
    e->kind = kind;
    e->op = op;
    e->size = size;
}

/* The value at p (size 1, 2, 4 or 8 bytes), as the instruction will load it. */
static __device__ __forceinline__ uint64_t load_global(const void *p, uint32_t size)
{
    switch (size) {
    case 1: return *(const volatile uint8_t *)p;
    case 2: return *(const volatile uint16_t *)p;
    case 4: return *(const volatile uint32_t *)p;
    default: return *(const volatile uint64_t *)p;
    }
}

static __device__ __forceinline__ uint64_t load_shared(uint32_t offset, uint32_t size)
{
    uint32_t lo = 0, hi = 0;
    if (size == 8)
        asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(lo), "=r"(hi) : "r"(offset));
    else if (size == 4)
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(lo) : "r"(offset));
    else
        return 0;
    return ((uint64_t)hi << 32) | lo;
}

/* The value a store writes (pData), as 8 bytes at most. */
static __device__ __forceinline__ uint64_t stored_value(const void *p, uint32_t size)
{
    switch (size) {
    case 1: return *(const uint8_t *)p;
    case 2: return *(const uint16_t *)p;
    case 4: return *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

static __device__ __forceinline__ void record_access(void *userdata, uint64_t pc, void *ptr, uint32_t size,
                                              uint32_t flags, const void *pData, uint8_t kind)
{
    wbt_tracker *t = (wbt_tracker *)userdata;
    uint32_t req;
    uint8_t op = (uint8_t)(flags & (WBT_READ | WBT_WRITE));
    uint64_t value = 0;
    wbt_entry *e = claim(t, &req);
    if (!e)
        return;
    if (op == WBT_WRITE && pData && size <= 8) {
        value = stored_value(pData, size);
        op |= WBT_HAS_VALUE;
    } else if (op == WBT_READ && size <= 8) {
        if (kind == WBT_GLOBAL) {
            value = load_global(ptr, size);
            op |= WBT_HAS_VALUE;
        } else if ((t->flags & WBT_LOAD_SHARED_VALUES) && (size == 4 || size == 8)) {
            value = load_shared((uint32_t)(uintptr_t)ptr, size);
            op |= WBT_HAS_VALUE;
        }
    }
    fill(e, req, pc, kind, op, (uint64_t)(uintptr_t)ptr, (uint8_t)size, value);
}

/* A barrier or a __syncwarp(): one entry per lane, no address. */
static __device__ __forceinline__ void record_sync(void *userdata, uint64_t pc, uint8_t kind, uint64_t what,
                                                   uint64_t value)
{
    uint32_t req;
    wbt_entry *e = claim((wbt_tracker *)userdata, &req);
    if (e)
        fill(e, req, pc, kind, 0, what, 0, value);
}

/* The two memory callbacks, one per kind of memory (the API names them
 * apart: SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS and ..._SHARED_...). */
#define WBT_MEMORY_CALLBACK(name, kind)                                                                  \
    extern "C" __device__ __noinline__ SanitizerPatchResult name(void *userdata, uint64_t pc, void *ptr, \
                                                                 uint32_t accessSize, uint32_t flags,   \
                                                                 const void *pData)                     \
    {                                                                                                    \
        if (userdata)                                                                                    \
            record_access(userdata, pc, ptr, accessSize, flags, pData, kind);                            \
        return SANITIZER_PATCH_SUCCESS;                                                                  \
    }
WBT_MEMORY_CALLBACK(wbtGlobal, WBT_GLOBAL)
WBT_MEMORY_CALLBACK(wbtShared, WBT_SHARED)

/* Newer toolkits pass a fifth argument, flags (trace.sh defines
 * WBT_BARRIER_FLAGS where the header says so); it is not needed here. */
extern "C" __device__ __noinline__ SanitizerPatchResult wbtBarrier(void *userdata, uint64_t pc, uint32_t barIndex,
                                                                   uint32_t threadCount
#ifdef WBT_BARRIER_FLAGS
                                                                   , uint32_t flags
#endif
)
{
#ifdef WBT_BARRIER_FLAGS
    (void)flags;
#endif
    if (userdata)
        record_sync(userdata, pc, WBT_BARRIER, barIndex, threadCount);
    return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult wbtSyncwarp(void *userdata, uint64_t pc, uint32_t mask)
{
    if (userdata)
        record_sync(userdata, pc, WBT_SYNCWARP, mask, 0);
    return SANITIZER_PATCH_SUCCESS;
}

/* Each callback has the type its instrumentation point expects. */
static_assert(std::is_same<decltype(&wbtGlobal), SanitizerCallbackMemoryAccess>::value, "wbtGlobal");
static_assert(std::is_same<decltype(&wbtShared), SanitizerCallbackMemoryAccess>::value, "wbtShared");
static_assert(std::is_same<decltype(&wbtBarrier), SanitizerCallbackBarrier>::value,
              "wbtBarrier: the toolkit's barrier callback has another signature (see WBT_BARRIER_FLAGS)");
static_assert(std::is_same<decltype(&wbtSyncwarp), SanitizerCallbackSyncwarp>::value, "wbtSyncwarp");
