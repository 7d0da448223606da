/*
 * lab.c - a lab's tables: the i-th row, a row by name, an exercise by name;
 * the flag WB_TODO() sets in C code; what a lab offers. C11, no CUDA.
 */
#include "lab.h"

#include <string.h>

int wb_cpu_todo;

const wb_kernel_info *wb_table_at(wb_table t, int i)
{
    return (const wb_kernel_info *)((const char *)t.first + (size_t)i * t.stride);
}

int wb_table_find(wb_table t, const char *name, size_t len)
{
    int i;
    for (i = 0; i < t.count; ++i) {
        const char *k = wb_table_at(t, i)->name;
        if (strlen(k) == len && strncmp(k, name, len) == 0)
            return i;
    }
    return -1;
}

int wb_exercise_index(const wb_lab *lab, const char *name)
{
    return wb_table_find(lab->exercises, name, strlen(name));
}

const char *wb_offer_name(int i)
{
    static const char *const names[WB_NOFFERS] = {"explain", "exercises", "trace",  "types",
                                                  "finish",  "matrix",    "sweep",  "latency"};
    return i >= 0 && i < WB_NOFFERS ? names[i] : "";
}

unsigned wb_lab_offers(const wb_lab *lab)
{
    const char *f = lab->extra_flag ? lab->extra_flag : "";
    unsigned o = 0;
    if (lab->exercises.count > 0)
        o |= WB_OFFER_EXERCISES;
    if (lab->gpu_trace || !strcmp(f, "--trace"))
        o |= WB_OFFER_TRACE;
    if (lab->types & ~WB_TYPE_BIT(WB_INT))
        o |= WB_OFFER_TYPES;
    if (lab->choice)
        o |= WB_OFFER_FINISH;
    if (!strcmp(f, "--sweep"))
        o |= WB_OFFER_SWEEP;
    if (!strcmp(f, "--latency"))
        o |= WB_OFFER_LATENCY;
    return o;
}
