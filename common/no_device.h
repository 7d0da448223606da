/*
 * no_device.h - why no CUDA device can be used, in a few words, and what to
 * do: the one wording of the labs and of the device query behind
 * tools/gpu.sh. Header only; nvcc.
 */
#ifndef WB_NO_DEVICE_H
#define WB_NO_DEVICE_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

/* Why no device can be used, and what to do, into buf. The runtime says
 * "driver version is insufficient" both when the driver is too old and
 * when there is no NVIDIA driver at all (no libcuda): the kernel module's
 * /proc file tells the two apart, and holds the driver's version. */
static const char *wb_no_device_reason(cudaError_t err, char *buf, size_t len)
{
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    char line[256] = "", version[16] = "";
    int have_driver = f != NULL, runtime = 0;
    const char *p;
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  ...": the
     * first word that starts with a digit and holds a dot */
    for (p = line; *p; p += strcspn(p, " \t\n"), p += strspn(p, " \t\n")) {
        size_t w = strcspn(p, " \t\n");
        if (*p >= '0' && *p <= '9' && memchr(p, '.', w)) {
            snprintf(version, sizeof version, "%.*s", (int)w, p);
            break;
        }
    }
    cudaRuntimeGetVersion(&runtime);
    if (!have_driver && (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice))
        snprintf(buf, len, "no NVIDIA driver is loaded (docs/setup.md; lab01 needs no GPU)");
    else if (err == cudaErrorInsufficientDriver)
        snprintf(buf, len, "driver %s is too old for CUDA %d.%d (docs/setup.md)", version[0] ? version : "here",
                 runtime / 1000, runtime % 1000 / 10);
    else if (err == cudaErrorNoDevice || err == cudaSuccess)
        snprintf(buf, len, "the driver sees no GPU: check nvidia-smi, CUDA_VISIBLE_DEVICES");
    else
        snprintf(buf, len, "%s, %s; docs/setup.md", cudaGetErrorName(err), cudaGetErrorString(err));
    return buf;
}

#endif
