/*
 * trace_inject.c - the host side of the trace: an injection library built
 * on the Compute Sanitizer API, loaded into a lab with CUDA_INJECTION64_PATH.
 * Plain C (C11, POSIX): nothing but libc and libsanitizer-public.so.
 *
 * It patches every module the program loads (global and shared memory
 * accesses, __syncthreads(), __syncwarp(): trace_patch.cu) and records ONE
 * launch: the first launch of the kernel named by WB_TRACE_KERNEL (its
 * identifier, as in the source: "reduceNeighbored" matches
 * reduceNeighbored<int> but not reduceNeighboredLess). Every other launch,
 * the harness's poison kernels and later launches of the same kernel
 * included, runs patched but records nothing (its callback data is NULL).
 * The record file (WB_TRACE_OUT) says "not-launched" from the start; when
 * the traced launch ends, its record is copied back and written there as
 * text (the format is below; tools/trace/trace_draw.c reads it). Started by
 * tools/trace/trace.sh; the environment it reads:
 *
 *   WB_TRACE_KERNEL   the kernel's name (required; "copyRow+ldcg" is copyRow)
 *   WB_TRACE_OUT      the record file (required)
 *   WB_TRACE_PATCHES  wbtrace_patch.fatbin (required)
 *   WB_TRACE_MAX      entries the device buffer holds (default 1048576, 40 MiB)
 *   WB_TRACE_SHARED_VALUES  0: do not read the values shared loads return
 *   WB_TRACE_DEBUG    1: each step on stderr
 *
 * The record (one line each, fields separated by one blank):
 *   wbtrace 1
 *   want NAME                 kernel MANGLED          name NAME-OR-DEMANGLED
 *   grid X Y Z                block X Y Z
 *   capacity C  claimed N  requests R                 (N > C: entries dropped)
 *   status traced | failed WHY | not-launched
 *   launched NAME...          other kernels launched (up to 8; not-launched only)
 *   a REQ KIND OP BLOCK THREAD PC ADDR SIZE VALUE     one per thread and access
 *     KIND g global, s shared, b barrier, w syncwarp; OP r, w, a (atomic), - ;
 *     PC the offset in the kernel (hex), ADDR hex (shared: offset in the
 *     block's shared memory), VALUE decimal or '-' (barrier: thread count)
 *   end
 */
#include <sanitizer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wbtrace.h"

#define MAX_CONTEXTS 16

static struct {
    char want[256], out[4096], patches[4096];
    uint32_t capacity, flags;
    int debug;
    int state; /* 0 waiting, 1 launched (armed), 2 written */
    char failure[512];
    CUcontext patched[MAX_CONTEXTS];
    int npatched;
    /* the traced launch */
    char mangled[1024];
    unsigned grid[3], block[3];
    uint64_t function_pc;
    CUcontext context;
    wbt_tracker *dev_tracker;
    wbt_entry *dev_entries;
    /* the other kernels launched before it (named when it never is) */
    char launched[8][64];
    int nlaunched;
} g;

#define DEBUG(...)                                    \
    do {                                              \
        if (g.debug) {                                \
            fprintf(stderr, "wbtrace: " __VA_ARGS__); \
            fflush(stderr);                           \
        }                                             \
    } while (0)

static const char *result_text(SanitizerResult r)
{
    const char *s = NULL;
    if (sanitizerGetResultString(r, &s) != SANITIZER_SUCCESS || !s)
        return "unknown error";
    return s;
}

static void fail(const char *what, SanitizerResult r)
{
    if (!g.failure[0])
        snprintf(g.failure, sizeof g.failure, "%s: %s", what, result_text(r));
    fprintf(stderr, "wbtrace: %s: %s\n", what, result_text(r));
}

/*
 * The identifier of a kernel's (Itanium-mangled) name, as written in the
 * source: "_Z16reduceNeighboredIiEvPT_S1_j" -> "reduceNeighbored",
 * "_ZN3cub6detail...E" -> its last component, an unmangled (extern "C")
 * name -> itself. Returns 0 if the name cannot be read.
 */
static int identifier(const char *mangled, char *out, size_t len)
{
    const char *p = mangled;
    size_t n = 0;
    out[0] = '\0';
    if (!p)
        return 0;
    if (strncmp(p, "_Z", 2) != 0) {
        snprintf(out, len, "%s", p);
        return 1;
    }
    p += 2;
    if (*p == 'L')
        ++p; /* internal linkage */
    if (*p == 'N') { /* nested: take the last <length><name> before E or I */
        ++p;
        while (*p >= '0' && *p <= '9') {
            n = strtoul(p, (char **)&p, 10);
            if (strlen(p) < n)
                return 0;
            snprintf(out, len, "%.*s", (int)n, p);
            p += n;
        }
        return out[0] != '\0';
    }
    if (*p < '0' || *p > '9')
        return 0;
    n = strtoul(p, (char **)&p, 10);
    if (strlen(p) < n)
        return 0;
    snprintf(out, len, "%.*s", (int)n, p);
    return 1;
}

/* Write the header, the entries and "end"; entries may be NULL. */
static void write_record(const char *status, const wbt_tracker *t, const wbt_entry *e, uint32_t count)
{
    FILE *f = fopen(g.out, "w");
    uint32_t i;
    if (!f) {
        fprintf(stderr, "wbtrace: cannot write %s\n", g.out);
        return;
    }
    fprintf(f, "wbtrace 1\nwant %s\nkernel %s\nname %s\n", g.want, g.mangled[0] ? g.mangled : "-",
            g.mangled[0] ? g.mangled : "-");
    fprintf(f, "grid %u %u %u\nblock %u %u %u\n", g.grid[0], g.grid[1], g.grid[2], g.block[0], g.block[1],
            g.block[2]);
    fprintf(f, "capacity %u\nclaimed %u\nrequests %u\nstatus %s\n", t ? t->capacity : g.capacity,
            t ? t->claimed : 0u, t ? t->requests : 0u, status);
    if (!strcmp(status, "not-launched") && g.nlaunched) {
        fprintf(f, "launched");
        for (i = 0; i < (uint32_t)g.nlaunched; ++i)
            fprintf(f, " %s", g.launched[i]);
        fprintf(f, "\n");
    }
    for (i = 0; i < count; ++i, ++e) {
        char kind = e->kind == WBT_GLOBAL ? 'g' : e->kind == WBT_SHARED ? 's' : e->kind == WBT_BARRIER ? 'b' : 'w';
        int rw = e->op & (WBT_READ | WBT_WRITE);
        char op = rw == WBT_READ ? 'r' : rw == WBT_WRITE ? 'w' : rw ? 'a' : '-';
        unsigned long long pc = e->pc >= g.function_pc ? e->pc - g.function_pc : e->pc;
        fprintf(f, "a %u %c %c %u %u %llx %llx %u ", e->req, kind, op, e->block, (unsigned)e->thread, pc,
                (unsigned long long)e->addr, (unsigned)e->size);
        if (e->kind == WBT_BARRIER || (e->op & WBT_HAS_VALUE))
            fprintf(f, "%llu\n", (unsigned long long)e->value);
        else
            fprintf(f, "-\n");
    }
    fprintf(f, "end\n");
    fclose(f);
}

static void write_failure(void)
{
    char status[600];
    snprintf(status, sizeof status, "failed %s", g.failure);
    write_record(status, NULL, NULL, 0);
}

static void module_loaded(const Sanitizer_ResourceModuleData *m)
{
    static const struct {
        Sanitizer_InstructionId id;
        const char *callback;
    } points[] = {
        {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, "wbtGlobal"},
        {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "wbtShared"},
        {SANITIZER_INSTRUCTION_BARRIER, "wbtBarrier"},
        {SANITIZER_INSTRUCTION_SYNCWARP, "wbtSyncwarp"},
    };
    SanitizerResult r;
    int i, known = 0;
    DEBUG("module loaded\n");
    for (i = 0; i < g.npatched; ++i)
        known |= g.patched[i] == m->context;
    if (!known) {
        r = sanitizerAddPatchesFromFile(g.patches, m->context);
        if (r != SANITIZER_SUCCESS) {
            fail("cannot load the patches", r);
            return;
        }
        if (g.npatched < MAX_CONTEXTS)
            g.patched[g.npatched++] = m->context;
        DEBUG("patches loaded\n");
    }
    for (i = 0; i < (int)(sizeof points / sizeof points[0]); ++i) {
        r = sanitizerPatchInstructions(points[i].id, m->module, points[i].callback);
        if (r != SANITIZER_SUCCESS) {
            fail(points[i].callback, r);
            return;
        }
    }
    r = sanitizerPatchModule(m->module);
    if (r != SANITIZER_SUCCESS)
        fail("cannot patch a module", r);
    DEBUG("module patched\n");
}

static void launch_begin(const Sanitizer_LaunchData *l)
{
    char id[256] = "";
    wbt_tracker h;
    uint64_t size = 0;
    SanitizerResult r;
    int wanted = g.state == 0 && l->functionName && identifier(l->functionName, id, sizeof id) &&
                 strcmp(id, g.want) == 0;
    DEBUG("launch begin: %s (%s)\n", l->functionName ? l->functionName : "(no name)",
          wanted ? "traced" : "not traced");
    if (!wanted) {
        sanitizerSetCallbackData(l->function, NULL);
        if (g.state == 0 && id[0] && strncmp(id, "wb", 2) != 0) { /* the harness's own kernels: wb... */
            int k, seen = 0;
            for (k = 0; k < g.nlaunched; ++k)
                seen |= strcmp(g.launched[k], id) == 0;
            if (!seen && g.nlaunched < 8 && strlen(id) < sizeof g.launched[0]) {
                snprintf(g.launched[g.nlaunched++], sizeof g.launched[0], "%s", id);
                write_record("not-launched", NULL, NULL, 0);
            }
        }
        return;
    }
    snprintf(g.mangled, sizeof g.mangled, "%s", l->functionName);
    g.grid[0] = l->gridDim_x, g.grid[1] = l->gridDim_y, g.grid[2] = l->gridDim_z;
    g.block[0] = l->blockDim_x, g.block[1] = l->blockDim_y, g.block[2] = l->blockDim_z;
    g.context = l->context;
    if (sanitizerGetFunctionPcAndSize(l->module, l->functionName, &g.function_pc, &size) != SANITIZER_SUCCESS)
        g.function_pc = 0;
    r = sanitizerAlloc(l->context, (void **)&g.dev_entries, sizeof(wbt_entry) * (size_t)g.capacity);
    if (r == SANITIZER_SUCCESS)
        r = sanitizerAlloc(l->context, (void **)&g.dev_tracker, sizeof(wbt_tracker));
    if (r != SANITIZER_SUCCESS) {
        fail("cannot allocate the trace buffer on the device", r);
        sanitizerSetCallbackData(l->function, NULL);
        g.state = 2;
        write_failure();
        return;
    }
    memset(&h, 0, sizeof h);
    h.capacity = g.capacity;
    h.flags = g.flags;
    h.entries = g.dev_entries;
    sanitizerMemcpyHostToDeviceAsync(g.dev_tracker, &h, sizeof h, l->hStream);
    sanitizerSetCallbackData(l->function, g.dev_tracker);
    g.state = 1;
    write_record("failed the traced launch began but never ended", NULL, NULL, 0);
}

/* The traced launch was queued: wait for its stream and write the record. */
static void launch_end(const Sanitizer_LaunchData *l)
{
    wbt_tracker t;
    wbt_entry *entries;
    uint32_t count;
    SanitizerResult r;
    if (g.state != 1 || !l->functionName || strcmp(g.mangled, l->functionName) != 0)
        return;
    g.state = 2;
    DEBUG("launch end: waiting for the kernel, then copying the record back\n");
    sanitizerSetCallbackData(l->function, NULL);
    /* LAUNCH_END comes when the launch is queued, not when it has run: wait
     * for its stream first (without this, a kernel of 512 threads was
     * recorded half-way through) */
    r = sanitizerStreamSynchronize(l->hStream);
    if (r != SANITIZER_SUCCESS) {
        fail("cannot wait for the traced launch", r);
        write_failure();
        return;
    }
    r = sanitizerMemcpyDeviceToHost(&t, g.dev_tracker, sizeof t, l->hStream);
    if (r != SANITIZER_SUCCESS) {
        fail("cannot copy the record back", r);
        write_failure();
        return;
    }
    count = t.claimed < t.capacity ? t.claimed : t.capacity;
    entries = malloc(sizeof(wbt_entry) * (size_t)(count ? count : 1));
    if (!entries) {
        snprintf(g.failure, sizeof g.failure, "out of host memory for the record");
        write_failure();
        return;
    }
    if (count)
        r = sanitizerMemcpyDeviceToHost(entries, g.dev_entries, sizeof(wbt_entry) * (size_t)count, l->hStream);
    if (r != SANITIZER_SUCCESS)
        fail("cannot copy the record back", r);
    DEBUG("%u entries claimed, %u requests\n", t.claimed, t.requests);
    if (g.failure[0])
        write_failure();
    else
        write_record("traced", &t, entries, count);
    free(entries);
    sanitizerFree(g.context, g.dev_entries);
    sanitizerFree(g.context, g.dev_tracker);
}

static void callback(void *userdata, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void *cbdata)
{
    (void)userdata;
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED)
        module_loaded((const Sanitizer_ResourceModuleData *)cbdata);
    else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_BEGIN)
        launch_begin((const Sanitizer_LaunchData *)cbdata);
    else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_END)
        launch_end((const Sanitizer_LaunchData *)cbdata);
}

/* The driver loads this library at cuInit (CUDA_INJECTION64_PATH) and calls
 * its InitializeInjection. It must return 1: on 0 the driver takes the
 * library as failed and unloads it, and the Sanitizer API's next callback
 * jumps into unmapped memory (the lab died of a segfault right after
 * "subscribed"). */
__attribute__((visibility("default"))) int InitializeInjection(void);
int InitializeInjection(void)
{
    static Sanitizer_SubscriberHandle handle;
    const char *want = getenv("WB_TRACE_KERNEL"), *out = getenv("WB_TRACE_OUT");
    const char *patches = getenv("WB_TRACE_PATCHES"), *max = getenv("WB_TRACE_MAX");
    const char *shared_values = getenv("WB_TRACE_SHARED_VALUES"), *debug = getenv("WB_TRACE_DEBUG");
    SanitizerResult r;
    char *plus;
    g.debug = debug && strcmp(debug, "0") != 0;
    if (!want || !out || !patches) {
        fprintf(stderr, "wbtrace: WB_TRACE_KERNEL, WB_TRACE_OUT and WB_TRACE_PATCHES must be set "
                        "(tools/trace/trace.sh sets them)\n");
        return 0;
    }
    snprintf(g.want, sizeof g.want, "%s", want);
    if ((plus = strchr(g.want, '+')) != NULL) /* lab06's "copyRow+ldcg" is the kernel copyRow */
        *plus = '\0';
    snprintf(g.out, sizeof g.out, "%s", out);
    snprintf(g.patches, sizeof g.patches, "%s", patches);
    g.capacity = max && atol(max) > 0 ? (uint32_t)atol(max) : 1u << 20;
    g.flags = shared_values && strcmp(shared_values, "0") == 0 ? 0 : WBT_LOAD_SHARED_VALUES;
    DEBUG("loaded: kernel %s, record %s\n", g.want, g.out);
    r = sanitizerSubscribe(&handle, callback, NULL);
    if (r == SANITIZER_SUCCESS)
        r = sanitizerEnableAllDomains(1, handle); /* as NVIDIA's samples do; the rest is ignored */
    if (r != SANITIZER_SUCCESS) {
        fail("cannot subscribe to the Sanitizer API's callbacks", r);
        write_failure();
        g.state = 2;
        return 0; /* nothing subscribed: the driver may unload the library */
    }
    DEBUG("subscribed\n");
    write_record("not-launched", NULL, NULL, 0);
    return 1;
}
