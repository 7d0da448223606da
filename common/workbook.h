/*
 * workbook.h - the one header a lab includes: every part of common/, the
 * CUDA parts (gpu.h, reduce.h) only when nvcc compiles the includer. The C
 * parts build with gcc alone, so lab01 and the CPU tests need no toolkit.
 * Each header says what it holds.
 */
#ifndef WORKBOOK_H
#define WORKBOOK_H

#include "text.h"
#include "args.h"
#include "numbers.h"
#include "report.h"
#include "check.h"
#include "program.h"
#include "todo.h"
#include "gpu.h"
#include "reduce.h"

#endif /* WORKBOOK_H */
