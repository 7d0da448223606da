/*
 * cub_sum.cuh - the reference row of lab05 (and lab05-finish):
 * cub::DeviceReduce::Sum, launched through the same harness as our kernels.
 * The one place in the workbook that calls a C++ library.
 *
 * Header-only, so the launcher is static: include it from one .cu.
 */
#ifndef CUB_SUM_CUH
#define CUB_SUM_CUH

#include "workbook.h"

#include <cub/device/device_reduce.cuh>

#define CUB_NAME "cub::DeviceReduce::Sum"

/* CUB's temporary storage, allocated on the first call for a length (the
 * harness's verification run, never a timed one) and kept: a timed call
 * is CUB's two kernels and nothing else. */
static void *cub_temp = NULL;
static size_t cub_temp_bytes = 0;
static long long cub_sized_for = -1;

template <typename T>
static void cubSumT(T *data, T *partial, unsigned n)
{
    if ((long long)n != cub_sized_for) {
        size_t need = 0;
        /* with a NULL buffer, Sum only says how many bytes it needs */
        CHECK(cub::DeviceReduce::Sum(NULL, need, data, partial, (int)n));
        if (need > cub_temp_bytes) {
            if (cub_temp)
                CHECK(cudaFree(cub_temp));
            cub_temp = wb_device_alloc(need, "CUB's temporary storage", "lab05");
            cub_temp_bytes = need;
        }
        cub_sized_for = n;
    }
    CHECK(cub::DeviceReduce::Sum(cub_temp, cub_temp_bytes, data, partial, (int)n));
    CHECK_LAUNCH("cub::DeviceReduce::Sum");
}

static void launch_cubSum(void *data, void *partial, unsigned n, unsigned grid, unsigned block,
                          wb_type type)
{
    (void)grid;
    (void)block; /* CUB chooses its own grid and block */
    /* the temporary storage depends on the type too: size it again when
     * the type changes */
    static wb_type sized_type = WB_INT;
    if (type != sized_type)
        cub_sized_for = -1;
    sized_type = type;
    wb_with_type(type, [&](auto z) {
        using T = decltype(z);
        cubSumT((T *)data, (T *)partial, n);
    });
}

/* The row shows grid "-": CUB sizes its grids itself. */
static unsigned grid_cubSum(unsigned n, unsigned block, const wb_gpu *g, wb_type type)
{
    (void)type;
    (void)n;
    (void)block;
    (void)g;
    return 0;
}

/* Its row of a table (lab05's, lab05-finish's), the lesson the lab's, then
 * as WB_KERNEL (.types where the lab runs more than int): one pass, the
 * sum in partial[0], CUB's own grid. */
#define CUB_ROW(lesson, ...)                                                                       \
    WB_KERNEL(CUB_NAME, lesson, launch_cubSum, .per_thread = 1, .one_pass = 1,                    \
              .grid_for = grid_cubSum, __VA_ARGS__)

/* Give CUB's temporary storage back (at the end of main). */
static void cubSum_release(void)
{
    if (cub_temp)
        CHECK(cudaFree(cub_temp));
    cub_temp = NULL;
    cub_temp_bytes = 0;
    cub_sized_for = -1;
}

#endif /* CUB_SUM_CUH */
