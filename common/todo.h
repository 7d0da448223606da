/*
 * todo.h - WB_TODO(), the body of an exercise stub, in C (lab01) and in a
 * kernel, and WB_TODO_TAKE, how a CUDA lab reads the flag it sets.
 */
#ifndef WB_TODO_H
#define WB_TODO_H

#ifdef __CUDACC__
#include <cuda_runtime.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Exercises: WB_TODO()                                                      */
/* ------------------------------------------------------------------------ */
/*
 * An exercise stub's body is WB_TODO(); until the student deletes it, the
 * exercise's row says `todo` (not run, not timed, no effect on the exit
 * status). In CUDA code the kernel sets a device flag and returns; in C the
 * function sets wb_cpu_todo and returns 0.
 */
extern int wb_cpu_todo;
#ifndef __CUDACC__
#define WB_TODO()            \
    do {                     \
        wb_cpu_todo = 1;     \
        return 0;            \
    } while (0)
#endif
#ifdef __CUDACC__
/* WB_TODO() in a kernel (see above): every thread marks the flag of this
 * translation unit and leaves. WB_TODO_TAKE reads and clears it; the lab's
 * wb_lab hands it to the harness (wb_lab.todo_take). */
static __device__ int wb_todo_flag;
#define WB_TODO()         \
    do {                  \
        wb_todo_flag = 1; \
        return;           \
    } while (0)
static inline int wb_todo_take_here(void)
{
    int seen = 0, zero = 0;
    if (cudaMemcpyFromSymbol(&seen, wb_todo_flag, sizeof seen) != cudaSuccess ||
        cudaMemcpyToSymbol(wb_todo_flag, &zero, sizeof zero) != cudaSuccess)
        return 0; /* the next CHECK reports the error */
    return seen;
}
#define WB_TODO_TAKE wb_todo_take_here
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_TODO_H */
