#!/bin/sh
# tools/grader/grade_sources.sh - grade a class from the students' exercise files:
# build each student's labs from their files alone against the workbook built
# once, run them on this machine's GPU(s) with a time limit, grade those runs
# (POSIX sh).
#
#   sh tools/grader/grade_sources.sh SOURCES [--csv]      (make grade SOURCES=dir [FORMAT=csv])
#   SLURM=1 sh tools/grader/grade_sources.sh SOURCES      (make grade SOURCES=dir SLURM=1)
#
# SOURCES holds one entry per student, as a course collects them
# (tools/grader/intake.sh takes them in first, docs/instructor.md): (a) a folder laid
# out as the workbook: alice/lab01_cpu_reduce/exercises.c,
# alice/lab04_unroll/exercises.cuh, ...; (b) a course site's export, a folder
# per student with any name (kept as the name shown; the grader's name for
# the student is made of it) holding the exercise files (placed by their
# contents) or make submit's archive; (c) a full clone of the workbook per
# student. Only the exercise files are taken, as plain files, into
# SOURCES.intake/students/<student>/ in the workbook's layout (what the
# grading reads from then on; SOURCES.intake/notes/<student> says what was
# taken, refused or ignored): a link, a device, a FIFO, a file over the size limit,
# an archive member with an absolute or .. path is refused and named in the
# report, and the student still has a row. A lab the student has no file for
# is not built: it is missing.
#
# The workbook is copied without its solutions (tools/handout.sh) and built
# once, the labs of the class and the grader's checker (make student-objects
# checker; GRADE_WORK holds it, a temporary folder by default), while the
# solutions calibrate the speed bars and the runs' time limits
# (tools/grader/calibrate.sh): the calibration holds every GPU's lock from the start
# until it ends, so no student's run shares a GPU with it and every run is
# limited by it. Once the workbook is built, its checker's cksum is taken
# and the students' jobs start: each student's lab is its exercise file
# compiled alone, linked with those objects (tools/grader/build_student.sh, in the
# sandbox), while the calibration may still run. Each lab runs
# ./labNN --exercises --csv with a time limit (tools/grader/grade_task.sh: 10 x
# the solution's longest run of that lab on that GPU model, at least 20 s,
# at most GRADE_TIMEOUT); a compile error, a crash, a
# hang or a CUDA error gives that lab 0 with the reason, and the class goes
# on. The runs go to GRADE_RUNS (default SOURCES.runs/, next to SOURCES):
# RUNS/alice/labNN.csv, RUNS/alice/labNN.fail; then tools/grader/grade grades RUNS
# exactly as hand-ins (grade again with make grade RESULTS=RUNS).
#
# With several GPUs (nvidia-smi -L; CUDA_VISIBLE_DEVICES or GRADE_GPUS="0 1"
# to choose), each runs one lab at a time, while the next students build.
# The last line before the report sums the students' build and run seconds.
# SLURM=1 writes the job scripts (tools/grader/grade_slurm.sh) into SOURCES.slurm/
# (next to RUNS): an array job, one task per student (task.sh, which also
# runs as `SLURM_ARRAY_TASK_ID=K sh task.sh`), and the collect job, which
# gives every student a row and writes report.txt and gradebook.csv there;
# it makes the class's handout copy in SOURCES.slurm/workbook, prints the
# sbatch commands (a build job, the array, collect) and builds nothing. GRADE_SBATCH_OPTS
# (partition, account, cpus, gres, time) and GRADE_SETUP (e.g. module load
# cuda) are theirs. Earlier runs in RUNS are removed first: the students' of
# this class, and what an earlier grading left in any folder holding a
# sources.txt (its sources.txt, *.csv, *.fail, *.run and *.check).
#
# Every build and every run of a student's code runs in a sandbox
# (bubblewrap, tools/grader/sandbox.sh: their own copy, no network, no view of the
# class, the runs or $HOME); without bubblewrap, or where user namespaces are
# off, it refuses with one line saying what to install. GRADE_SANDBOX=none
# grades anyway, the students' code with your rights: the report and the
# gradebook say "graded WITHOUT a sandbox".
#
# Environment: GRADE_TIMEOUT (the most seconds a lab may run, default 60),
# GRADE_JOBS (students graded at once, default the CPU count, at least the
# GPUs + 1),
# GRADE_KEEP=1 (keep the copies), and tools/grader/grade_task.sh's.
# Then each student's feedback, SOURCES.feedback/<student>.md, and the class
# on one page, SOURCES.report/report.html beside report.txt (the report
# printed) and gradebook.csv (tools/grader/grade --feedback, --html); SLURM=1: the
# collect job writes them (report.html beside its report.txt).
# Exit status: tools/grader/grade's (0 every point earned and nothing flagged, 1
# otherwise), 2 bad usage or nothing to grade.
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$(dirname "$here")")
usage="usage: make grade SOURCES=dir [FORMAT=csv] [SLURM=1] (or sh tools/grader/grade_sources.sh dir [--csv])"
src=; fmt=
for a in "$@"; do
    case $a in
        -h|--help) echo "$usage"; exit 0 ;;
        --csv|--text|--format=*) fmt=$a ;;
        -*) echo "grade: unknown option '$a'; $usage" >&2; exit 2 ;;
        *) if [ -n "$src" ]; then echo "grade: one SOURCES folder only; $usage" >&2; exit 2; fi; src=$a ;;
    esac
done
if [ -z "$src" ] || [ ! -d "$src" ]; then
    echo "grade: SOURCES='$src' is not a folder (one folder per student inside); $usage" >&2
    exit 2
fi
src=$(cd "$src" && pwd)
runs=${GRADE_RUNS:-$src.runs}
mkdir -p "$runs" || exit 2
runs=$(cd "$runs" && pwd)
case $runs/ in "$src"/*) echo "grade: GRADE_RUNS=$runs is inside SOURCES; give another folder" >&2; exit 2 ;; esac
T=${GRADE_TIMEOUT:-60}
case $T in ''|*[!0-9]*|0) echo "grade: GRADE_TIMEOUT='$T' is not a number of seconds" >&2; exit 2 ;; esac
export GRADE_TIMEOUT=$T
[ "${SLURM:-}" = 1 ] && { sh "$here/grade_slurm.sh" busy "$runs" || exit 2; } # (its jobs still queued: nothing touched)
# the sandbox the students' code runs in (on a cluster: each task checks its node), before anything is touched
if [ "${SLURM:-}" != 1 ] && [ "${GRADE_SANDBOX:-bwrap}" != none ] && ! why=$(sh "$here/sandbox.sh" check); then
    echo "grade: no sandbox for the students' code: $why" >&2
    exit 2
fi
# (SLURM=1 runs no student code here: each task reads the class's own settings)
[ "${SLURM:-}" != 1 ] && [ "${GRADE_SANDBOX:-bwrap}" = none ] &&
    echo "grade: GRADE_SANDBOX=none: the students' code runs WITHOUT a sandbox, with your rights" >&2

# the hand-ins taken in (tools/grader/intake.sh): SOURCES.intake/students/<student>/,
# plain files in the workbook's layout, from here on the class's SOURCES
case $runs in *.runs) base=${runs%.runs} ;; *) base=$runs ;; esac
stage=$base.intake
sh "$here/intake.sh" "$src" "$stage" || exit 2
class=$(basename "$src")
src=$stage/students

# the students: every folder intake wrote (names: letters, digits, . _ -)
ls "$src" | LC_ALL=C sort >"$runs/.students.all"
: >"$runs/.students"
while IFS= read -r s; do
    [ -d "$src/$s" ] || { echo "grade: $s in $src is not a folder: ignored (one folder per student)" >&2; continue; }
    case $s in
        handin) echo "grade: $src/handin is make handin's folder name, not a student's: rename it" >&2; continue ;;
        *[!A-Za-z0-9._-]*|-*) echo "grade: '$s' is not a usable student name (letters, digits, . _ -): ignored" >&2; continue ;;
    esac
    echo "$s" >>"$runs/.students"
done <"$runs/.students.all"
rm -f "$runs/.students.all"
N=$(wc -l <"$runs/.students" | tr -d ' ')
if [ "$N" -eq 0 ]; then echo "grade: no student folder in $src (alice/lab02_neighbored/exercises.cuh, ...)" >&2; exit 2; fi

# earlier runs: this class's students', and folders only an earlier grading wrote
while IFS= read -r s; do rm -rf "${runs:?}/$s"; done <"$runs/.students"
for d in "$runs"/*/; do
    [ -f "$d/sources.txt" ] || continue
    rm -f "$d"sources.txt "$d"*.csv "$d"*.fail "$d"*.run "$d"*.check
    rmdir "$d" 2>/dev/null
done
# what intake took, refused and ignored of each student's hand-in (their name as handed
# in), the feedback and the page (tools/grader/grade: GRADE_INTAKE, GRADE_FEEDBACK, GRADE_HTML;
# a Slurm class's collect job takes them from class.sh: the page beside its report.txt)
GRADE_INTAKE=$stage/notes
GRADE_FEEDBACK=$base.feedback
if [ "${SLURM:-}" = 1 ]; then GRADE_HTML=$base.slurm/report.html; else GRADE_HTML=$base.report/report.html; fi
export GRADE_INTAKE GRADE_FEEDBACK GRADE_HTML
rm -rf "$GRADE_FEEDBACK"; rm -f "$GRADE_HTML"
[ -f "$runs/slurm/array.sbatch" ] && rm -rf "${runs:?}/slurm" # the old layout: the jobs were in RUNS
head -n 1 "$runs/gradebook.csv" 2>/dev/null | grep -q '^student,' && rm -f "$runs/gradebook.csv" "$runs/report.txt"

if [ "${SLURM:-}" = 1 ]; then
    sh "$here/grade_slurm.sh" write "$src" "$runs" "$runs/.students"
    st=$?
    rm -f "$runs/.students"
    exit $st
fi

# the GPUs: GRADE_GPUS, else CUDA_VISIBLE_DEVICES, else every GPU CUDA can use
# (tools/gpu.sh count, else nvidia-smi -L)
gpus=${GRADE_GPUS:-}
[ -z "$gpus" ] && [ -n "${CUDA_VISIBLE_DEVICES:-}" ] && gpus=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' ' ')
ng=; ncc=
if [ -z "$gpus" ]; then
    if [ -f "$top/tools/gpu.sh" ]; then ng=$(sh "$top/tools/gpu.sh" count 2>/dev/null | head -n 1)
    else ng=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU'); fi
    case $ng in '' | *[!0-9]*) ng=0 ;; esac
    gpus=$(awk -v n="$ng" 'BEGIN { for (i = 0; i < n; i++) printf "%d ", i }')
    # (the students' tasks take these, GRADE_NODE_GPUS and GRADE_NODE_CC, rather than
    # ask CUDA again while another's run is timed)
    [ "$ng" -gt 0 ] && [ -f "$top/tools/gpu.sh" ] && ncc=$(sh "$top/tools/gpu.sh" cc 2>/dev/null)
fi
[ -z "$gpus" ] && gpus=0
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
J=${GRADE_JOBS:-$ncpu}
[ "$J" -ge 1 ] 2>/dev/null || J=1
ngpu=$(echo $gpus | wc -w)
[ "$J" -lt $((ngpu + 1)) ] && J=$((ngpu + 1))

work=${GRADE_WORK:-}
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/grade-work.XXXXXX") || exit 2
    [ "${GRADE_KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
trap 'exit 2' INT TERM
rm -rf "$work/locks"; mkdir -p "$work/locks" || exit 2
now() { awk 'BEGIN { srand(); print srand() }'; }
t0=$(now)

# the workbook, copied (no solutions) and built once: the labs any student has a
# file for (tools/labs.conf), and the grader's checker (tools/grader/checker/: run
# outside the sandbox), while the solutions calibrate the speed bars
labs=$(sh "$here/grade_task.sh" --labs "$src"/*/ | awk '{ printf "%s%s", s, $1; s = " " }')
echo "grade: $N students from $class/; GPUs $(echo $gpus | tr ' ' ','); at most ${T} s a run" >&2
echo "grade: labs: ${labs:-none}" >&2
rm -rf "$work/base"
sh "$top/tools/handout.sh" "$work/base" >/dev/null || exit 2
chmod 711 "$work" # (the sandbox's user reads the workbook in it: run as root, nobody)
( make -C "$work/base" -k -j"$ncpu" --no-print-directory student-objects checker STUDENT_LABS="$labs" \
    >"$work/base.log" 2>&1; echo $? >"$work/base.st" ) &
bpid=$!
# the speed bars of these GPUs, and the runs' time limits: the solutions run first
# (tools/grader/calibrate.sh, into RUNS/calibration/). Every GPU's lock is the calibration's
# until it ends: taken here, before any student's job exists, so no student's run
# shares a GPU with it and each runs with the limits it set; the students build meanwhile
for g in $gpus; do mkdir "$work/locks/gpu$g" || exit 2; done
# shellcheck disable=SC2086
( GRADE_GPUS="$gpus" sh "$here/calibrate.sh" "$runs" $labs
  for g in $gpus; do rmdir "$work/locks/gpu$g"; done ) &
cpid=$!
wait "$bpid"
if [ "$(cat "$work/base.st" 2>/dev/null)" != 0 ]; then
    echo "grade: the workbook itself did not build every lab (those labs are the node's fault):" >&2
    grep -i 'error\|not found' "$work/base.log" | head -n 3 | cut -c1-96 | sed 's/^/  /' >&2
fi
# the checker's cksum, taken once before any student's code runs (each task checks it)
GRADE_CHECKER_CKSUM=$(cksum <"$work/base/build/checker/checker" 2>/dev/null)
export GRADE_CHECKER_CKSUM
echo "grade: workbook built in $(( $(now) - t0 )) s; the students build" \
    "(their GPU runs after the calibration)" >&2

# one job per student; make is the job pool (GRADE_JOBS at once); each run waits for a free GPU
k=0
{
    printf 'all:'
    i=0; while [ $i -lt "$N" ]; do i=$((i + 1)); printf ' s%d' $i; done
    printf '\n'
    while IFS= read -r s; do
        k=$((k + 1))
        printf 's%d:\n\t@GRADE_SANDBOX_CHECKED=1 GRADE_K=%d GRADE_N=%d GRADE_LOCKS="%s" GRADE_GPUS="%s"' \
            $k $k "$N" "$work/locks" "$gpus"
        printf ' GRADE_NODE_GPUS="%s" GRADE_NODE_CC="%s" sh "%s" "%s" "%s" "%s"\n' \
            "$ng" "$ncc" "$here/grade_task.sh" "$src/$s" "$runs/$s" "$work/base"
    done <"$runs/.students"
} >"$work/jobs.mk"
MAKEFLAGS= MFLAGS= make -s -k -j"$J" -f "$work/jobs.mk" all || true
wait "$cpid" # (it ended before any GPU run: this waits only where no student ran on a GPU)
# (each student's sources.txt: `seconds: build B s, run R s`)
sums=$(while IFS= read -r s; do cat "$runs/$s/sources.txt" 2>/dev/null; done <"$runs/.students" |
    awk '$1 == "seconds:" { b += $3; r += $6 } END { printf "builds %.0f s, runs %.0f s", b, r }')
rm -f "$runs/.students"
echo "grade: $N students built and run, $(( $(now) - t0 )) s from the start; $sums (summed)" >&2
echo "grade: grading $(basename "$runs")/" >&2
echo "grade: feedback: $(basename "$GRADE_FEEDBACK")/; report.txt, gradebook.csv, report.html:" \
    "$(basename "$base").report/" | cut -c 1-100 >&2
echo >&2
# report.txt, gradebook.csv, and the one asked for on stdout (with the feedback and the page)
mkdir -p "$base.report" || exit 2
GRADE_FEEDBACK= GRADE_HTML= sh "$here/grade" "$runs" --csv >"$base.report/gradebook.csv" 2>/dev/null
case $fmt in
    --csv | --format=csv)
        GRADE_FEEDBACK= GRADE_HTML= sh "$here/grade" "$runs" --text >"$base.report/report.txt" 2>/dev/null
        sh "$here/grade" "$runs" $fmt ;;
    *)
        sh "$here/grade" "$runs" $fmt >"$base.report/report.txt"
        st=$?
        cat "$base.report/report.txt"
        exit $st ;;
esac
