/*
 * holdmem.cu - holds all but N GiB of device 0's memory until it is killed,
 * so that `make test` can be tried on a GPU that others share:
 *
 *   build/tests/holdmem 4 &    # prints "holding H MiB, F MiB free" when ready
 *   make test
 *   kill %1
 *
 * N may be a decimal (0.5). Where less than N GiB is free already it holds
 * nothing and says so. Exit 2 for a bad N, 3 when CUDA fails (file, line and
 * call named); otherwise it runs until SIGTERM or SIGINT.
 */
#include <cuda_runtime.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TRY(call)                                                                                  \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "holdmem: %s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                    cudaGetErrorString(e_));                                                       \
            return 3;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    const size_t chunk = (size_t)256 << 20, mib = (size_t)1 << 20;
    size_t free_b = 0, total_b = 0, keep, held = 0;
    char *end = NULL;
    double gib = argc == 2 ? strtod(argv[1], &end) : -1;
    if (argc != 2 || end == argv[1] || *end || !(gib >= 0) || gib > 1e6) {
        fprintf(stderr, "holdmem: give the GiB to leave free, e.g. build/tests/holdmem 4\n");
        return 2;
    }
    keep = (size_t)(gib * 1073741824.0);
    TRY(cudaSetDevice(0));
    TRY(cudaMemGetInfo(&free_b, &total_b));
    /* chunks of 256 MiB, then smaller ones, until only `keep` is left */
    while (free_b > keep) {
        size_t want = free_b - keep < chunk ? free_b - keep : chunk;
        void *p;
        if (want < 2 * mib) /* the allocator's granule */
            break;
        if (cudaMalloc(&p, want) != cudaSuccess) {
            cudaGetLastError();
            if (want <= 2 * mib)
                break;
            free_b = keep + want / 2; /* the last bytes come in smaller pieces */
            continue;
        }
        held += want;
        TRY(cudaMemGetInfo(&free_b, &total_b));
    }
    printf("holding %zu MiB, %zu MiB free%s\n", held / mib, free_b / mib,
           held ? "" : " (no more than that was free: nothing held)");
    fflush(stdout);
    for (;;)
        pause(); /* until killed; the memory goes with the process */
}
