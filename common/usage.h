/*
 * usage.h - what a lab says about itself without running: -h, --list and
 * --list --csv, each fitting WB_WIDTH columns.
 */
#ifndef WB_USAGE_H
#define WB_USAGE_H

#include <stdio.h>

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -h: the synopsis, then every option the lab takes, with its defaults;
 * --explain only when the program offers it (offers: WB_OFFER_* of lab.h). */
void wb_print_usage(const wb_lab *lab, unsigned offers, FILE *f);

/* --list: each kernel's lesson (an exercise's kind, task and reference row)
 * beside its name. */
void wb_print_list(const wb_lab *lab, FILE *f);

/* --list --csv: kernel,kind,against,lesson; kind is "kernel" for the lab's
 * own rows, "write" or "fix" for its exercises (a program with a matrix
 * mode lists that mode's rows under -n NXxNY --list --csv) */
void wb_print_list_csv(const wb_lab *lab, FILE *f);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_USAGE_H */
