/*
 * device.h - where a program's rows run, as three plain calls: the GPU
 * (gpu.cu) or one CPU core (cpu_device.c), whichever the program links; and
 * the ways one row is run (timed, counted, checked).
 */
#ifndef WB_DEVICE_H
#define WB_DEVICE_H

#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a row is run. */
typedef enum {
    WB_ROW_TIMED, /* verify, time, check the last timed run again, add the row to the report */
    WB_ROW_COUNT, /* verify only, for the closing line's count of exercises done */
    WB_ROW_CHECK  /* --check: verify, then a second poisoned run checked again; no timing */
} wb_row_mode;

/* Open the device the rows run on (a wb_gpu *; NULL for the CPU); no usable
 * device: one line on stderr naming `lab`, exit 3. */
void *wb_device_open(const char *lab);
/* The report's banner lines about it: the name, the details, the peak. */
void wb_device_describe(const void *dev, wb_report *r);
void wb_device_close(void *dev);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_DEVICE_H */
