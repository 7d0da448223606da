/*
 * gpu_query.cu - the device query behind tools/gpu.sh: what CUDA itself
 * sees (CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER respected), not
 * nvidia-smi. Runtime calls only, no kernel: built once by tools/gpu.sh.
 *
 *   gpu_query count   the usable devices; 0 and the reason on stderr, exit 1
 *   gpu_query cc      device 0's compute capability without the dot: 90
 *   gpu_query name    device 0's name: NVIDIA H200
 *   gpu_query free    device 0's free memory in MiB (this query's own
 *                     context already taken: a little less than is free)
 *   gpu_query total   device 0's memory in MiB
 *
 * Exit 0 with the answer on stdout; 1 with no usable device (the reason on
 * stderr); 2 for a bad word; 3 when a CUDA call fails after the device was
 * found (file, line and call named).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "no_device.h"

static int fail(cudaError_t err, const char *call, int line)
{
    fprintf(stderr, "gpu_query.cu:%d: %s failed: %s (%s)\n", line, call, cudaGetErrorString(err),
            cudaGetErrorName(err));
    return 3;
}
#define TRY(call)                                                                                  \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return fail(e_, #call, __LINE__);                                                      \
    } while (0)

int main(int argc, char **argv)
{
    const char *what = argc == 2 ? argv[1] : "";
    int count = 0;
    cudaDeviceProp prop;
    cudaError_t err;
    if (strcmp(what, "count") && strcmp(what, "cc") && strcmp(what, "name") && strcmp(what, "free") &&
        strcmp(what, "total")) {
        fprintf(stderr, "usage: gpu_query count|cc|name|free|total\n");
        return 2;
    }
    err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        char reason[300];
        if (!strcmp(what, "count"))
            printf("0\n");
        fprintf(stderr, "no usable CUDA device: %s\n", wb_no_device_reason(err, reason, sizeof reason));
        return 1;
    }
    if (!strcmp(what, "count")) {
        printf("%d\n", count);
        return 0;
    }
    TRY(cudaGetDeviceProperties(&prop, 0));
    if (!strcmp(what, "cc"))
        printf("%d%d\n", prop.major, prop.minor);
    else if (!strcmp(what, "name"))
        printf("%s\n", prop.name);
    else if (!strcmp(what, "total"))
        printf("%zu\n", prop.totalGlobalMem >> 20);
    else {
        size_t free_b = 0, total_b = 0;
        err = cudaSetDevice(0);
        if (err == cudaErrorMemoryAllocation) { /* not even room for this query's context */
            printf("0\n");
            return 0;
        }
        TRY(err);
        TRY(cudaMemGetInfo(&free_b, &total_b));
        printf("%zu\n", free_b >> 20);
    }
    return 0;
}
