/*
 * cpu_device.c - one CPU core as the device the rows run on (lab01, and the
 * CPU tests and tools that link the one main). C11, no CUDA.
 */
#include "device.h"

#include <stdio.h>
#include <string.h>

void *wb_device_open(const char *lab)
{
    (void)lab;
    return NULL;
}

/* The processor's model name (/proc/cpuinfo), and how the rows were built. */
void wb_device_describe(const void *dev, wb_report *r)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    (void)dev;
    snprintf(r->device, sizeof r->device, "CPU");
    snprintf(r->device_detail, sizeof r->device_detail, "one core, gcc %s, -O2", __VERSION__);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (colon && !strncmp(line, "model name", 10)) {
            colon += 2;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(r->device, sizeof r->device, "%s", colon);
            break;
        }
    }
    fclose(f);
}

void wb_device_close(void *dev) { (void)dev; }
