/*
 * workbook.h - the one header of the CUDA C reduction/transpose workbook.
 *
 * Every lab includes this file and nothing else of ours. It carries the
 * boring parts so that a lab file holds only what it teaches, in rooms named
 * after the files that implement them:
 *
 *   args.h     exit statuses, the kernel table type ("the list of kernels is
 *              data"), the element types, and the one command-line parser of
 *              every lab (-n -b -k -r --seed --csv --json --explain --list
 *              -h, plus a lab's own flag such as --trace);
 *   numbers.h  statistics (median, quartiles), the bandwidth arithmetic, the
 *              inputs whose exact sums are known, and the rounding bounds;
 *   report.h   the result report: a table for people, CSV and JSON for
 *              programs, --check's verdicts, and the closing summary line;
 *   todo.h     WB_TODO(), the body of an exercise stub;
 *   gpu.h      (CUDA only) error checks that name file, line and call, the
 *              device banner, event timing with an L2 flush before every
 *              repetition, the copy ceiling measured in the same run, and
 *              wb_with_type, where the run's element type becomes T;
 *   reduce.h   (CUDA only) the reduction harness that labs 02-05 share.
 *
 * The C part builds with gcc alone (common/args.c: the command line;
 * numbers.c: statistics, inputs, bounds; report.c: the table; report_data.c:
 * CSV, JSON and --check; workbook.c: small helpers), so lab01 and the CPU
 * tests need no CUDA toolkit. The CUDA part (common/gpu.cu, common/reduce.cu)
 * is declared only when the including file is compiled by nvcc.
 */
#ifndef WORKBOOK_H
#define WORKBOOK_H

#include "args.h"
#include "numbers.h"
#include "report.h"
#include "check.h"
#include "program.h"
#include "todo.h"
#include "gpu.h"
#include "reduce.h"

#endif /* WORKBOOK_H */
