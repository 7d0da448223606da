/*
 * lab06.cuh - what lab06's files share: the --explain lecture mode
 * (explain.cu), called by main (lab06.cu) before any CUDA call.
 */
#ifndef LAB06_CUH
#define LAB06_CUH

#include "workbook.h"

/* Print, for a tiny matrix and for the matrix and block of the command
 * line, which elements the threads of one warp read and write for each
 * kernel, how many 32-byte sectors one warp-wide request touches, and the
 * shared-memory banks of the tiled kernels. CPU only. */
void lab06_explain(const wb_args *a);

#endif /* LAB06_CUH */
