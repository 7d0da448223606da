#!/bin/sh
# tests/cheats/make_cheats.sh - a class's cheating students, each a folder
# with one exercise file: the lab's stub with a cheat pasted in (POSIX sh).
#
#   sh tests/cheats/make_cheats.sh LAB DEST STORED.csv VICTIM_FP [DROP VICTIM_FILE SOLUTION]
#
# LAB is lab01 (the CPU) or lab02 (a GPU lab); STORED.csv a run of the lab
# stored earlier (tests/cheats/stored.awk makes its exercise rows PASS);
# VICTIM_FP the fingerprint of an honest student of the class (8 hex digits).
# Writes DEST/cheat-KIND/LABDIR/exercises.EXT for each KIND:
#
#   static   a static initializer (lab01, in C: a pointer in .init_array)
#            prints an all-PASS CSV of its own and exits 0 before main
#   ctor     the same from an __attribute__((constructor)), the CSV without
#            the result column (as an older program wrote it)
#   atexit   the lab runs; a function registered with atexit appends an
#            all-PASS row for each exercise
#   printf   the exercise prints a header and forged rows while it runs
#            (lab02: a device printf in the kernel; lab01: printf)
#   replay   prints STORED.csv (its fingerprint made the program's own) and
#            exits 0 before main
#   framer   prints STORED.csv with VICTIM_FP as its fingerprint, to have
#            the victim flagged as a copier
#
# Every forged row is consistent (tests/cheats/forge.h): graded as a
# hand-in, without the checker, most earn the exercise points. None has the
# right result for the seed and size the grader chose.
#
# With DROP (a folder anyone may write, outside the class), the cheats that
# go after the machine (tests/cheats/sandbox.h; each then runs as the stub):
#
#   escape   a process that outlives the run: it finds the runs folder on an
#            ancestor's command line, waits for the checker's LAB.check and
#            turns FAIL and todo into PASS there and in LAB.csv (lab01: its
#            exercises return 0, wrong answers, so they FAIL)
#   peek     reads VICTIM_FILE (a classmate's), SOLUTION, the class, the runs,
#            the grader's home
#   write    writes into DROP, the class folder DEST and its runs DEST.runs
#   forkbomb forks until it cannot, then waits; the lab goes on
#   flood    prints a gigabyte
#   fill     writes up to 1 GiB into its folder, /tmp and /dev/shm each
#   net      connects to 1.1.1.1:53, looks for a network interface
#   copier   (where SOLUTION is a file) the file is one line: #include of
#            SOLUTION, by its absolute path, read when the lab is built
#
# Each writes what it got to DROP/breaches (where it can reach it) and exits
# 7: what the sandbox stops leaves no line there and the stub's points.
lab=$1; dest=$2; stored=$3; victim=$4; drop=${5:-}; vfile=${6:-}; solution=${7:-}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$(dirname "$here")")
if [ -z "$lab" ] || [ -z "$dest" ] || [ ! -f "$stored" ] || [ -z "$victim" ]; then
    echo "make_cheats: usage: sh tests/cheats/make_cheats.sh lab01|lab02 DEST STORED.csv VICTIM_FP" >&2
    exit 2
fi
case $lab in
    lab01)
        ld=lab01_cpu_reduce; ext=c; gpu=0
        rows='{{"sequential", "kernel", ""}, {"pairwiseBlocked", "write", "sequential"}, {"sequentialUnroll4", "write", "sequential"}, {"recursiveNeighbored", "kernel", ""}, {"recursiveInterleaved", "kernel", ""}, {"recursiveReduceBook", "fix", "recursiveInterleaved"}, {"iterativeNeighbored", "kernel", ""}, {"iterativeInterleaved", "kernel", ""}}' ;;
    lab02)
        ld=lab02_neighbored; ext=cuh; gpu=1
        rows='{{"reduceNeighbored", "kernel", ""}, {"reduceNeighboredMask", "write", "reduceNeighbored"}, {"reduceNeighboredEarlyExit", "fix", "reduceNeighbored"}, {"reduceNeighboredLess", "kernel", ""}, {"reduceNeighboredLessOut", "fix", "reduceNeighboredLess"}}' ;;
    *) echo "make_cheats: $lab: lab01 or lab02" >&2; exit 2 ;;
esac
stub=$top/$ld/exercises.$ext
[ -f "$stub" ] || { echo "make_cheats: no $stub" >&2; exit 2; }

# STORED.csv as a C string, its fingerprint column as @FP@
fpcol=$(head -n 1 "$stored" | tr ',' '\n' | grep -nx fingerprint | cut -d: -f1)
stored_c=$(awk -F, -v OFS=, -v c="$fpcol" 'NR > 1 && c { $c = "@FP@" } { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "    \"" $0 "\\n\"" }' "$stored")

# head KIND: the lines before the stub: the lab, forge.h, the cheat
head_of() {
    printf '/* a cheating student (tests/cheats/make_cheats.sh %s): not a solution */\n' "$1"
    printf '#ifndef _GNU_SOURCE\n#define _GNU_SOURCE\n#endif\n'
    printf '#define CHEAT_LAB "%s"\n#define CHEAT_GPU %d\n#define CHEAT_ROWS %s\n' "$lab" "$gpu" "$rows"
    cat "$here/forge.h"
    case $1 in
        static)
            if [ "$lab" = lab01 ]; then
                echo 'static void cheat_static(void) { cheat_csv(stdout, wb_build_fingerprint, 1, 1, 0); exit(0); }'
                echo '__attribute__((section(".init_array"), used)) static void (*const cheat_static_p)(void) = cheat_static;'
            else
                echo 'static const int cheat_static_v = (cheat_csv(stdout, wb_build_fingerprint, 1, 1, 0), exit(0), 0);'
            fi ;;
        ctor)
            echo '__attribute__((constructor)) static void cheat_ctor(void) { cheat_csv(stdout, wb_build_fingerprint, 0, 1, 0); exit(0); }' ;;
        atexit)
            echo 'static void cheat_tail(void) { cheat_csv(stdout, wb_build_fingerprint, 1, 0, 1); }'
            echo '__attribute__((constructor)) static void cheat_reg(void) { atexit(cheat_tail); }' ;;
        printf)
            [ "$lab" = lab02 ] && echo '__device__ int cheat_printed;' ;;
        escape|peek|write|forkbomb|flood|fill|net)
            printf '#define CHEAT_NAME "cheat-%s"\n#define CHEAT_KIND_%s 1\n' "$1" "$1"
            printf '#define CHEAT_%s "%s"\n' DROP "$drop" CLASS "$dest" RUNS "$dest.runs" VICTIM "$vfile" \
                SOLUTION "$solution"
            cat "$here/sandbox.h" ;;
        replay|framer)
            echo "static const char cheat_stored[] ="
            printf "%s;\n" "$stored_c"
            if [ "$1" = framer ]; then echo "#define CHEAT_FP \"$victim\""; else echo '#define CHEAT_FP wb_build_fingerprint'; fi
            cat <<'EOF'
__attribute__((constructor)) static void cheat_replay(void)
{
    const char *p = cheat_stored, *at;
    while ((at = strstr(p, "@FP@")) != NULL) {
        fwrite(p, 1, (size_t)(at - p), stdout);
        fputs(CHEAT_FP, stdout);
        p = at + 4;
    }
    fputs(p, stdout);
    exit(0);
}
EOF
            ;;
    esac
}

# the printf cheat's line, in place of the first exercise's WB_TODO();
if [ "$lab" = lab01 ]; then
    pline='{ static int cheat_once; if (!cheat_once++) cheat_csv(stdout, wb_build_fingerprint, 1, 1, 1); } WB_TODO();'
else
    hdr='lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build,run_at,fingerprint,finish,error,bound,result,status'
    row='lab02,NVIDIA H100 80GB HBM3,reduceNeighboredMask,%u,0,0,%u,512,%.0f,20,1.000000,1.000000,1.000000,0.00,%.2f,%.2f,1.000,1.100000,%.2f,3000.00,3352.32,int,write,reduceNeighbored,sm_90,2026-01-01T00:00:00Z,00000000,host,,,%u,PASS'
    pline="if (blockIdx.x == 0 \&\& threadIdx.x == 0 \&\& atomicExch(\&cheat_printed, 1) == 0) printf(\"$hdr\\\\n$row\\\\n\", n, (n + 511) / 512, 4.0 * n, 4.0 * n / 1e6, 4.0 * n / 3e7, 4.0 * n / 1.1e6, n * 127u); WB_TODO();"
fi

kinds="static ctor atexit printf replay framer"
[ -n "$drop" ] && kinds="$kinds escape peek write forkbomb flood fill net"
if [ -n "$drop" ] && [ -f "$solution" ]; then
    mkdir -p "$dest/cheat-copier/$ld" || exit 2
    printf '/* a cheating student (tests/cheats/make_cheats.sh copier) */\n#include "%s"\n' "$solution" \
        >"$dest/cheat-copier/$ld/exercises.$ext"
fi
for kind in $kinds; do
    d=$dest/cheat-$kind/$ld
    mkdir -p "$d" || exit 2
    {
        head_of $kind
        if [ $kind = printf ]; then sed "0,/WB_TODO();/s||$pline|" "$stub"
        elif [ $kind = escape ] && [ "$lab" = lab01 ]; then sed 's|WB_TODO();|return 0;|' "$stub" # wrong answers: FAIL
        else cat "$stub"; fi
    } >"$d/exercises.$ext"
done
exit 0
