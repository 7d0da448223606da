/*
 * draw_record.c - reads the record of one traced launch (trace_inject.c
 * writes it) into the entries E and the launch's grid, block, kernel and
 * buffer counts.
 */
#include "draw.h"

void die(int code, const char *msg)
{
    fprintf(stderr, "trace_draw: %s\n", msg);
    exit(code);
}

void *grow(void *p, size_t n, size_t size)
{
    p = realloc(p, n * size);
    if (!p)
        die(3, "out of memory");
    return p;
}

/* ---------------------------------------------------------------------- */
/* Reading the record                                                      */
/* ---------------------------------------------------------------------- */
void read_record(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int cap = 0, ended = 0, magic = 0;
    if (!f) {
        fprintf(stderr, "trace_draw: cannot read %s\n", path);
        exit(3);
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!magic) {
            if (strcmp(line, "wbtrace 1") != 0)
                die(3, "not a trace record (no 'wbtrace 1' line first)");
            magic = 1;
        } else if (line[0] == 'a' && line[1] == ' ') {
            entry e;
            char kind, op, value[32];
            unsigned long long pc, addr;
            memset(&e, 0, sizeof e);
            if (sscanf(line + 2, "%u %c %c %u %u %llx %llx %d %31s", &e.req, &kind, &op, &e.block, &e.thread, &pc,
                       &addr, &e.size, value) != 9)
                die(3, "a malformed access line in the record");
            e.kind = kind;
            e.op = op;
            e.pc = pc;
            e.addr = addr;
            e.has_value = strcmp(value, "-") != 0;
            e.value = e.has_value ? strtoull(value, NULL, 10) : 0;
            if (nE == cap) {
                cap = cap ? 2 * cap : 4096;
                E = grow(E, (size_t)cap, sizeof *E);
            }
            E[nE++] = e;
        } else if (!strncmp(line, "name ", 5))
            snprintf(kernel_name, sizeof kernel_name, "%s", line + 5);
        else if (!strncmp(line, "want ", 5))
            snprintf(want, sizeof want, "%s", line + 5);
        else if (!strncmp(line, "status ", 7))
            snprintf(status, sizeof status, "%s", line + 7);
        else if (!strncmp(line, "grid ", 5))
            sscanf(line + 5, "%u %u %u", &grid[0], &grid[1], &grid[2]);
        else if (!strncmp(line, "block ", 6))
            sscanf(line + 6, "%u %u %u", &blk[0], &blk[1], &blk[2]);
        else if (!strncmp(line, "capacity ", 9))
            capacity = strtoull(line + 9, NULL, 10);
        else if (!strncmp(line, "claimed ", 8))
            claimed = strtoull(line + 8, NULL, 10);
        else if (!strncmp(line, "requests ", 9))
            nrequests = strtoull(line + 9, NULL, 10);
        else if (!strncmp(line, "launched ", 9))
            snprintf(launched, sizeof launched, "%s", line + 9);
        else if (!strcmp(line, "end"))
            ended = 1;
    }
    fclose(f);
    if (!magic)
        die(3, "an empty record");
    if (!strcmp(status, "not-launched")) {
        if (launched[0]) /* e.g. a launcher that picks another kernel for this n */
            fprintf(stderr, "trace: no kernel named %s was launched on this input; it launched: %s\n", want,
                    launched);
        else
            fprintf(stderr, "trace: no kernel named %s was launched (is it in ./labNN --list, not a library "
                            "row?)\n", want);
        exit(3);
    }
    if (strncmp(status, "traced", 6) != 0) {
        fprintf(stderr, "trace: the launch could not be traced: %s\n", status);
        exit(3);
    }
    if (!ended)
        die(3, "the record ends early (no 'end' line): the traced program died while writing it");
}
