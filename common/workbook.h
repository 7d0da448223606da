/*
 * workbook.h - the one header a lab includes: every part of the workbook's
 * code, bottom layer first (docs/maintainers.md). The CUDA parts (gpu.h,
 * reduce.h) declare something only when nvcc compiles the includer; the
 * rest builds with gcc alone, so lab01 and the CPU tests need no toolkit.
 * Nothing in common/ includes this header: each file includes what it uses.
 */
#ifndef WORKBOOK_H
#define WORKBOOK_H

#include "base.h"
#include "text.h"
#include "types.h"
#include "numbers.h"
#include "todo.h"
#include "lab.h"
#include "args.h"
#include "usage.h"
#include "report.h"
#include "check.h"
#include "device.h"
#include "program.h"
#include "gpu.h"
#include "reduce.h"

#endif /* WORKBOOK_H */
