/*
 * check.c - --check's verdicts: the CSV of one row per kernel and
 * configuration, and their counts. C11, no CUDA.
 */
#include "check.h"

#include <string.h>

#include "base.h"

const char *const wb_check_header = "lab,kernel,role,size,block,grid,type,values,finish,seed,status,check";

int wb_is_library(const char *kernel) { return !strncmp(kernel, "cub::", 5) || !strncmp(kernel, "cublas", 6); }

void wb_check_cfg_of(wb_check_cfg *c, const wb_lab *lab, const wb_args *a, int ni, int bi, int ti, int fi,
                     int si)
{
    memset(c, 0, sizeof *c);
    if (lab->shape == WB_MATRIX)
        snprintf(c->size, sizeof c->size, "%dx%d", a->nx_list[ni], a->ny_list[ni]);
    else
        snprintf(c->size, sizeof c->size, "%lld", a->n_list[ni]);
    if (lab->uses_block && lab->shape == WB_MATRIX)
        snprintf(c->block, sizeof c->block, "%dx%d", a->bx_list[bi], a->by_list[bi]);
    else if (lab->uses_block)
        snprintf(c->block, sizeof c->block, "%d", a->bx_list[bi]);
    c->type = a->type_list[ti];
    c->values = a->values;
    c->finish = lab->choice ? lab->choice->word[a->choice_list[fi]] : NULL;
    c->seed = a->seed_list[si];
}

void wb_check_begin(wb_checker *c, const char *lab, FILE *out)
{
    memset(c, 0, sizeof *c);
    c->lab = lab;
    c->planned = -1;
    c->t0 = wb_now_ms();
    fprintf(out, "%s\n", wb_check_header);
    fflush(out);
}

void wb_check_add(wb_checker *c, const wb_row *row, const wb_check_cfg *cfg, FILE *out)
{
    char check[sizeof row->check], grid[32];
    size_t i;
    for (i = 0; row->check[i] && i + 1 < sizeof check; ++i) /* the last column, without commas */
        check[i] = row->check[i] == ',' ? ';' : row->check[i] == '\n' ? ' ' : row->check[i];
    check[i] = '\0';
    if (row->grid_x > 0)
        wb_grid_csv(grid, sizeof grid, row->grid_x, row->grid_y);
    else
        snprintf(grid, sizeof grid, "%s", row->block_x ? "0" : ""); /* a library's own grid; the CPU */
    fprintf(out, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%llu,%s,%s\n", c->lab, row->kernel, row->role ? row->role : "kernel",
            cfg->size, cfg->block, grid, wb_type_name(cfg->type), cfg->values == WB_VALUES_UNIFORM ? "uniform" : "exact",
            cfg->finish ? cfg->finish : "", cfg->seed, row->todo ? "todo" : row->pass ? "PASS" : "FAIL", check);
    fflush(out);
    ++c->rows;
    if (row->todo)
        ++c->todo;
    else if (row->pass)
        ++c->passed;
    else
        ++c->failed;
}

int wb_check_end(const wb_checker *c, FILE *err)
{
    int dropped = c->planned >= 0 && c->planned != c->rows;
    fprintf(err, "%s --check: %d rows", c->lab, c->rows);
    if (c->planned >= 0)
        fprintf(err, " (%d planned%s)", c->planned, dropped ? ": the harness lost some" : "");
    fprintf(err, ", %d PASS, %d FAIL, %d todo (%.1f s)\n", c->passed, c->failed, c->todo,
            (wb_now_ms() - c->t0) / 1000.0);
    return c->failed || dropped ? WB_EXIT_WRONG : WB_EXIT_OK;
}
