/*
 * lab04.cuh - what lab04's files share: its two modes beside the table, each
 * in its own file and each given lab04.cu's table of kernels.
 */
#ifndef LAB04_CUH
#define LAB04_CUH

#include "workbook.h"

/* --explain (explain.cu): for the block and length of the command line,
 * what one block of each of kernels[0..count) does: its barriers, the steps
 * of its last warp and the active warps of each step. CPU only. */
void lab04_explain(const wb_args *a, const wb_reduce_kernel *kernels, int count);

/* --latency (latency.cu): the DRAM latency idle and under load, the bytes in
 * flight that reach the bandwidth, and what each of kernels[0..count) can
 * have in flight. Opens the device; returns the exit status. */
int lab04_latency(const wb_args *a, const wb_reduce_kernel *kernels, int count);

#endif /* LAB04_CUH */
