/*
 * trace.h - ./labNN --trace KERNEL [-n N] [-b B]: the real accesses of one
 * kernel of the lab's table, recorded on the GPU and drawn.
 *
 * ./labNN --trace KERNEL ... --svg FILE also writes the tree as an SVG;
 * --brief draws the tree's steps and flagged accesses and the summary only.
 *
 * A lab's main calls wb_trace_redirect(argc, argv) first. Without --trace it
 * returns at once. With it, the program hands itself to
 * tools/trace/trace.sh (found beside the binary, or in the working
 * directory), which runs this same binary again as `--check -k KERNEL -n N
 * -b B` under the trace's injection library (CUDA_INJECTION64_PATH: the
 * Compute Sanitizer API) and draws the record; its exit status is the
 * program's (0 PASS, 1 FAIL, 2 usage, 3 no trace: see trace.sh). The same
 * as `make trace LAB=labNN KERNEL=NAME [N=..] [B=..]`, which also builds
 * the lab first. Header-only (static), POSIX.
 */
#ifndef WB_TRACE_H
#define WB_TRACE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* dir (of size len) := the folder of path, "." if it has none. */
static void wb_trace_dirname(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (!slash) {
        snprintf(dir, len, ".");
        return;
    }
    if (n >= len)
        n = len - 1;
    memcpy(dir, path, n);
    dir[n] = '\0';
}

/* A --trace command line: the kernel, -n, -b (empty when not given), --svg,
 * --brief and --dry-run. */
typedef struct {
    const char *kernel, *n, *b, *svg;
    int brief, dry_run;
} wb_trace_cmd;

/* 1 and *t filled when --trace is among the arguments (exit 2, one line, on
 * an option the trace does not take); 0 without --trace. */
static int wb_trace_parse(int argc, char **argv, wb_trace_cmd *t)
{
    const char *lab = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int i, traced = 0;
    memset(t, 0, sizeof *t);
    t->n = t->b = "";
    for (i = 1; i < argc; ++i)
        traced |= strcmp(argv[i], "--trace") == 0;
    if (!traced)
        return 0;
    for (i = 1; i < argc; ++i) {
        const char **into;
        if (!strcmp(argv[i], "--brief") || !strcmp(argv[i], "--dry-run")) {
            *(argv[i][2] == 'b' ? &t->brief : &t->dry_run) = 1;
            continue;
        }
        into = !strcmp(argv[i], "--trace") ? &t->kernel : !strcmp(argv[i], "-n") ? &t->n
                                                                  : !strcmp(argv[i], "-b") ? &t->b
                                                                  : !strcmp(argv[i], "--svg") ? &t->svg
                                                                                              : NULL;
        if (into == &t->kernel && (i + 1 >= argc || argv[i + 1][0] == '-')) {
            fprintf(stderr, "%s: --trace needs a kernel of the table (--list): --trace NAME [-n N] [-b B]\n", lab);
            exit(2);
        }
        if (!into || i + 1 >= argc || argv[i + 1][0] == '-') {
            fprintf(stderr, "%s: --trace takes -n N, -b B, --svg FILE, --brief; not '%s' (or it lacks "
                            "its value)\n", lab, argv[i]);
            exit(2);
        }
        *into = argv[++i];
    }
    return 1;
}

/* With --trace KERNEL among the arguments (and no --dry-run, which the
 * program's main answers): exec tools/trace/trace.sh on this binary (never
 * returns; exit 2 on a bad command line, 3 when the script cannot be
 * found). Without: returns. */
static void wb_trace_redirect(int argc, char **argv)
{
    const char *lab = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    char exe[PATH_MAX], dir[PATH_MAX], script[PATH_MAX + 32];
    ssize_t got;
    const char *cmd[12];
    int c = 0;
    wb_trace_cmd t;
    if (!wb_trace_parse(argc, argv, &t) || t.dry_run)
        return;
    got = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (got <= 0)
        snprintf(exe, sizeof exe, "%s", argv[0]);
    else
        exe[got] = '\0';
    wb_trace_dirname(exe, dir, sizeof dir);
    snprintf(script, sizeof script, "%s/tools/trace/trace.sh", dir);
    if (access(script, R_OK) != 0)
        snprintf(script, sizeof script, "tools/trace/trace.sh");
    if (access(script, R_OK) != 0) {
        fprintf(stderr, "%s: --trace needs the workbook's tools/trace/trace.sh (beside %s, or here); "
                        "run it from the workbook's folder\n", lab, exe);
        exit(3);
    }
    fflush(NULL);
    cmd[c++] = "sh", cmd[c++] = script, cmd[c++] = exe, cmd[c++] = t.kernel, cmd[c++] = t.n, cmd[c++] = t.b;
    if (t.svg)
        cmd[c++] = "--svg", cmd[c++] = t.svg;
    if (t.brief)
        cmd[c++] = "--brief";
    cmd[c] = NULL;
    execvp("sh", (char *const *)cmd);
    fprintf(stderr, "%s: --trace: cannot run sh %s\n", lab, script);
    exit(3);
}

#endif /* WB_TRACE_H */
