/*
 * lab.c - a lab's tables: the i-th row, a row by name, an exercise by name;
 * and the flag WB_TODO() sets in C code. C11, no CUDA.
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
