/*
 * policy.h - what the workbook's fastest kernels read of the GPU at hand to
 * choose their launch shapes, as CUB's tuning policies do (header-only,
 * CUDA only; the choices themselves are beside each kernel's launcher).
 *
 * One property decides today: the DRAM bandwidth each SM must keep busy,
 * the theoretical peak over the SM count (wb_policy_gbps_per_sm):
 *   NVIDIA H100 80GB HBM3  3352 GB/s, 132 SMs: 25.4 GB/s per SM
 *   NVIDIA H200            4814 GB/s, 132 SMs: 36.5 GB/s per SM
 * Both are compute capability 9.0, with the same SMs, clocks and shared
 * memory: an architecture table (CUB's) cannot tell them apart, the
 * bandwidth per SM can. At or above WB_POLICY_RICH_GBPS_PER_SM a GPU is
 * "memory-rich": a kernel's fixed on-chip costs (atomics, a tail of short
 * blocks) weigh more against its shorter DRAM time. The threshold sits
 * between the two GPUs measured (docs/tuning.md); a GPU far from both
 * takes the side its bandwidth per SM puts it on, unmeasured.
 *
 * Built with -DWB_TUNE=1, each choice may be overridden from the
 * environment for a tuning run (wb_tune; docs/tuning.md says which names).
 */
#ifndef WB_POLICY_H
#define WB_POLICY_H

#include <stdlib.h>

#include "gpu.h" /* CHECK */

#define WB_POLICY_RICH_GBPS_PER_SM 30.0

/* The current device's theoretical DRAM GB/s over its SM count, read once
 * per program (memory clock x bus width x 2, as the banner's peak). */
static inline double wb_policy_gbps_per_sm(void)
{
    static double per_sm = -1;
    if (per_sm < 0) {
        int dev = 0, mem_khz = 0, bus_bits = 0, sms = 1;
        CHECK(cudaGetDevice(&dev));
        CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
        CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
        CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        per_sm = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9 / (sms > 0 ? sms : 1);
    }
    return per_sm;
}

/* 1 on a memory-rich GPU (the H200), 0 otherwise (the H100, and every GPU
 * with less bandwidth per SM) */
static inline int wb_policy_rich(void) { return wb_policy_gbps_per_sm() >= WB_POLICY_RICH_GBPS_PER_SM; }

/* A policy's value, or with -DWB_TUNE=1 the environment's NAME when set. */
#ifdef WB_TUNE
static inline int wb_tune(const char *name, int value)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : value;
}
#else
#define wb_tune(name, value) (value)
#endif

#endif /* WB_POLICY_H */
