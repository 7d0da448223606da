/*
 * args.h - what a command line asks for (wb_args) and the one parser of
 * every lab's command line (the counts and shapes it reads: numbers.h).
 */
#ifndef WB_ARGS_H
#define WB_ARGS_H

#include <stddef.h>

#include "base.h"
#include "lab.h"
#include "numbers.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a run prints its report: a table for people, CSV or JSON. */
typedef enum { WB_TABLE_OUT, WB_CSV, WB_JSON } wb_format;

typedef struct {
    long long n;        /* WB_LENGTH: the length; WB_MATRIX: nx*ny */
    int nx, ny;         /* WB_MATRIX */
    int block_x, block_y;
    int reps;
    unsigned long long seed;
    wb_format format;
    int explain, list, help, extra;
    int dry_run;      /* --dry-run: parse, print the plan, open no device */
    int capabilities; /* --capabilities: print what the program offers */
    int n_given, block_given;
    wb_type type;                    /* --type (WB_INT by default) */
    wb_values values;                /* --values (WB_VALUES_EXACT by default) */
    int exercises;                   /* --exercises (or -k named an exercise) */
    int choice;                      /* the lab's own two-word option (wb_lab.choice): 0 or 1 */
    int selected[WB_MAX_KERNELS];    /* 1 for each kernel -k chose (all without -k) */
    int ex_selected[WB_MAX_KERNELS]; /* 1 for each exercise -k chose (all without -k) */
    /* --check: verify every selected kernel on every configuration of the
     * lists below, untimed (wb_check_*). Without --check each list holds
     * the one value of the run (the fields above); with it -n, -b, --type,
     * --seed and the lab's choice take comma lists ("1,33,1000003"). */
    int check;
    int n_count, block_count, type_count, choice_count, seed_count;
    long long n_list[WB_MAX_LIST];   /* lengths; matrices: nx_list x ny_list */
    int nx_list[WB_MAX_LIST], ny_list[WB_MAX_LIST];
    int bx_list[WB_MAX_LIST], by_list[WB_MAX_LIST];
    wb_type type_list[WB_MAX_LIST];
    int choice_list[WB_MAX_LIST];    /* 0 the choice's first word, 1 its second */
    unsigned long long seed_list[WB_MAX_LIST];
} wb_args;

/*
 * Parse argv for `lab`, whose program offers `offers` (WB_OFFER_* of lab.h:
 * an option of an offer it lacks is refused here). Returns 0 and fills *a,
 * or returns WB_EXIT_USAGE with one line in err saying what was wrong and
 * what is accepted. Never exits, never prints: the tests call it directly.
 */
int wb_parse_args(const wb_lab *lab, unsigned offers, int argc, char **argv, wb_args *a,
                  char *err, size_t errlen);

/* The shape -n asks for: WB_MATRIX when its value has an `x` (NXxNY), else
 * WB_LENGTH. A program with a matrix mode (lab05) runs it for WB_MATRIX. */
wb_shape wb_args_shape(int argc, char **argv);


#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WB_ARGS_H */
