/*
 * tests/cheats/sandbox.h - the cheating students who go after the machine,
 * not the CSV (tests/cheats/make_cheats.sh pastes it at the top of their
 * exercise files, after CHEAT_LAB, CHEAT_KIND_<kind> and the paths below).
 * C that also compiles as CUDA C++. Each runs from a constructor, before
 * the lab's main; the lab then runs as handed out (the stub), so a cheat
 * the sandbox stops earns the stub's points, no more.
 *
 * A breach (something the sandbox should have stopped: a file of another
 * read, a file outside its folder written, a network reached, more disk or
 * processes than the limits allow) is written to CHEAT_DROP/breaches where
 * that folder can be reached, and ends the run with exit 7, so the test
 * sees it twice: a file in the drop folder and a lab that scores 0.
 *
 * Paths (absolute, the test's): CHEAT_DROP (a folder anyone may write),
 * CHEAT_CLASS (the class), CHEAT_RUNS (its runs), CHEAT_VICTIM (a
 * classmate's exercise file), CHEAT_SOLUTION (the solution, or "").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <poll.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

static int cheat_breaches;

/* a breach: noted in the drop folder (where it can be reached) and on stderr */
static void cheat_breach(const char *what, const char *path)
{
    char line[1200];
    int fd, n;
    n = snprintf(line, sizeof line, "%s %s: %s %s\n", CHEAT_LAB, CHEAT_NAME, what, path);
    fd = open(CHEAT_DROP "/breaches", O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd >= 0) {
        if (write(fd, line, (size_t)n) < 0) { /* nothing more to do */ }
        close(fd);
    }
    fputs(line, stderr);
    cheat_breaches++;
}

static void cheat_sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

/* the whole file PATH into BUF (at most CAP - 1 bytes); its length, or -1 */
static long cheat_slurp(const char *path, char *buf, size_t cap)
{
    size_t len = 0;
    ssize_t got;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    while (len + 1 < cap && (got = read(fd, buf + len, cap - 1 - len)) > 0)
        len += (size_t)got;
    close(fd);
    buf[len] = '\0';
    return (long)len;
}

#ifdef CHEAT_KIND_escape
/* The attack of the issue that asked for the sandbox: a process that outlives
 * the run, finds the runs folder on an ancestor's command line (an argument
 * that is a folder holding LAB.run), waits for the checker's LAB.check and
 * turns every FAIL and todo into PASS there and in LAB.csv. */
static int cheat_runs_dir(char *out, size_t cap)
{
    char path[64], buf[8192], cand[4200], *p;
    long pid = (long)getppid(), len, ppid;
    struct stat sb;
    int depth;
    for (depth = 0; depth < 12 && pid > 1; ++depth) {
        snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
        len = cheat_slurp(path, buf, sizeof buf);
        for (p = buf; len > 0 && p < buf + len; p += strlen(p) + 1) {
            snprintf(cand, sizeof cand, "%s/%s.run", p, CHEAT_LAB);
            if (p[0] == '/' && stat(cand, &sb) == 0) {
                snprintf(out, cap, "%s", p);
                return 1;
            }
        }
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        if (cheat_slurp(path, buf, sizeof buf) <= 0 || !(p = strrchr(buf, ')')) || sscanf(p + 2, "%*c %ld", &ppid) != 1)
            break;
        pid = ppid;
    }
    /* the path the test knows, as a student who guessed it would */
    snprintf(cand, sizeof cand, "%s/%s/%s.run", CHEAT_RUNS, CHEAT_NAME, CHEAT_LAB);
    if (stat(cand, &sb) == 0) {
        snprintf(out, cap, "%s/%s", CHEAT_RUNS, CHEAT_NAME);
        return 1;
    }
    return 0;
}

/* FAIL and todo made PASS in the file PATH (written again in place) */
static void cheat_flip(const char *path)
{
    static char buf[1 << 20], outb[1 << 20];
    long len = cheat_slurp(path, buf, sizeof buf), i = 0, o = 0;
    FILE *f;
    if (len <= 0)
        return;
    while (i < len && o < (long)sizeof outb - 8) {
        if (!strncmp(buf + i, "FAIL", 4) || !strncmp(buf + i, "todo", 4)) {
            memcpy(outb + o, "PASS", 4);
            i += 4;
            o += 4;
        } else
            outb[o++] = buf[i++];
    }
    if ((f = fopen(path, "w")) != NULL) {
        fwrite(outb, 1, (size_t)o, f);
        fclose(f);
        cheat_breach("edited the grader's record", path);
    }
}

__attribute__((constructor)) static void cheat_escape(void)
{
    char dir[4200], check[4300], csv[4300];
    struct stat sb;
    long waited;
    int found = cheat_runs_dir(dir, sizeof dir); /* (from the lab's own ancestors, before it forks) */
    pid_t p = fork();
    if (p != 0) {
        if (p > 0)
            waitpid(p, NULL, 0); /* the first child ends at once: no zombie, no wait at exit */
        return;
    }
    setsid(); /* out of the run's process group and session */
    if (fork() != 0)
        _exit(0);
    {   /* nothing of the run's kept open: its output pipes close when the lab ends */
        int fd = open("/dev/null", O_RDWR);
        dup2(fd, 0);
        dup2(fd, 1);
        dup2(fd, 2);
    }
    prctl(PR_SET_NAME, "cheat-escape", 0, 0, 0);
    if (!found)
        _exit(0);
    snprintf(check, sizeof check, "%s/%s.check", dir, CHEAT_LAB);
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, CHEAT_LAB);
    for (waited = 0; waited < 60000; waited += 20) { /* the checker's verdicts, once written */
        if (stat(check, &sb) == 0 && sb.st_size > 0) {
            cheat_sleep_ms(200);
            cheat_flip(check);
            cheat_flip(csv);
            _exit(0);
        }
        cheat_sleep_ms(20);
    }
    _exit(0);
}
#endif

#ifdef CHEAT_KIND_peek
/* reads a classmate's file, the solution, the class's runs and the grader's home */
__attribute__((constructor)) static void cheat_peek(void)
{
    static char buf[1 << 16];
    const char *paths[] = {CHEAT_VICTIM, CHEAT_SOLUTION, CHEAT_CLASS, CHEAT_RUNS, CHEAT_DROP};
    const char *home = getenv("HOME");
    DIR *d;
    size_t i;
    for (i = 0; i < sizeof paths / sizeof paths[0]; ++i) {
        if (!paths[i][0])
            continue;
        if (cheat_slurp(paths[i], buf, sizeof buf) > 0)
            cheat_breach("read", paths[i]);
        else if ((d = opendir(paths[i])) != NULL) {
            cheat_breach("listed", paths[i]);
            closedir(d);
        }
    }
    /* the grader's home: its files (HOME is the sandbox's /tmp inside it) */
    if (home && strcmp(home, "/tmp") && (d = opendir(home)) != NULL) {
        cheat_breach("listed the grader's home", home);
        closedir(d);
    }
    if (cheat_breaches)
        _exit(7);
}
#endif

#ifdef CHEAT_KIND_write
/* writes outside its own folder: the drop folder, the class (beside a
 * classmate's file), the runs */
__attribute__((constructor)) static void cheat_write(void)
{
    const char *paths[] = {CHEAT_DROP "/written", CHEAT_CLASS "/PWNED", CHEAT_RUNS "/PWNED"};
    size_t i;
    int fd;
    for (i = 0; i < sizeof paths / sizeof paths[0]; ++i) {
        fd = open(paths[i], O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            if (write(fd, "pwned\n", 6) < 0) { /* written or not, it was opened */ }
            close(fd);
            cheat_breach("wrote", paths[i]);
        }
    }
    if (cheat_breaches)
        _exit(7);
}
#endif

#ifdef CHEAT_KIND_forkbomb
/* a fork bomb: every process forks until it cannot (at most 2^12 each, a
 * safety net for a machine without the sandbox), then waits forever; the
 * lab goes on. More than 1000 processes in sight is a breach. */
__attribute__((constructor)) static void cheat_forkbomb(void)
{
    int depth, n = 0;
    DIR *d;
    struct dirent *e;
    pid_t p = fork();
    if (p == 0) {
        prctl(PR_SET_NAME, "cheat-bomb", 0, 0, 0);
        for (depth = 0; depth < 12; ++depth)
            if (fork() < 0)
                break;
        for (;;)
            pause();
    }
    cheat_sleep_ms(300);
    if ((d = opendir("/proc")) != NULL) {
        while ((e = readdir(d)) != NULL)
            n += e->d_name[0] >= '0' && e->d_name[0] <= '9';
        closedir(d);
    }
    if (n > 1000) {
        char what[64];
        snprintf(what, sizeof what, "%d processes", n);
        cheat_breach("forked", what);
        _exit(7);
    }
}
#endif

#ifdef CHEAT_KIND_flood
/* prints a gigabyte of CSV-looking lines, then exits as if all was well */
__attribute__((constructor)) static void cheat_flood(void)
{
    static char block[1 << 20];
    int i;
    for (i = 0; i < (int)sizeof block; ++i)
        block[i] = (i % 64 == 63) ? '\n' : "PASS,"[i % 5];
    for (i = 0; i < 1024; ++i)
        if (fwrite(block, 1, sizeof block, stdout) != sizeof block)
            break;
    fflush(stdout);
    _exit(0);
}
#endif

#ifdef CHEAT_KIND_fill
/* fills the disk: up to 1 GiB into its own folder, /tmp and /dev/shm each,
 * until a write fails; more than 256 MiB in all is a breach */
static long long cheat_fill_one(const char *path)
{
    static char block[1 << 20];
    long long total = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), i;
    ssize_t w;
    if (fd < 0)
        return 0;
    signal(SIGXFSZ, SIG_IGN); /* the file size limit: a failed write, not a death */
    for (i = 0; i < 1024; ++i) {
        w = write(fd, block, sizeof block);
        if (w <= 0)
            break;
        total += w;
    }
    close(fd);
    unlink(path);
    return total;
}

__attribute__((constructor)) static void cheat_fill(void)
{
    long long total = cheat_fill_one("cheat-fill.bin") + cheat_fill_one("/tmp/cheat-fill.bin") +
                      cheat_fill_one("/dev/shm/cheat-fill.bin");
    if (total > 256LL << 20) {
        char what[64];
        snprintf(what, sizeof what, "%lld MiB", total >> 20);
        cheat_breach("filled", what);
        _exit(7);
    }
}
#endif

#ifdef CHEAT_KIND_net
/* calls out: a TCP connection to a public resolver, and any network
 * interface but the loopback */
__attribute__((constructor)) static void cheat_net(void)
{
    static char buf[1 << 14];
    struct sockaddr_in sa;
    struct pollfd pf;
    char *line;
    int s, err = 0;
    socklen_t el = sizeof err;
    if (cheat_slurp("/proc/net/dev", buf, sizeof buf) > 0)
        for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
            while (*line == ' ')
                ++line;
            if (strchr(line, ':') && strncmp(line, "lo:", 3) && strncmp(line, "Inter", 5))
                cheat_breach("sees a network interface", line);
        }
    s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (s >= 0) {
        memset(&sa, 0, sizeof sa);
        sa.sin_family = AF_INET;
        sa.sin_port = htons(53);
        sa.sin_addr.s_addr = inet_addr("1.1.1.1");
        if (connect(s, (struct sockaddr *)&sa, sizeof sa) == 0)
            cheat_breach("connected to", "1.1.1.1:53");
        else if (errno == EINPROGRESS) {
            pf.fd = s;
            pf.events = POLLOUT;
            if (poll(&pf, 1, 2000) == 1 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0)
                cheat_breach("connected to", "1.1.1.1:53");
        }
        close(s);
    }
    if (cheat_breaches)
        _exit(7);
}
#endif
