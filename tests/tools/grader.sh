#!/bin/sh
# tests/tools/grader.sh - the instructor's tools without a GPU: tools/grader/grade on a test
# class, on damaged and tampered files, and on its own errors; tools/chart;
# the argument checks of tools/profile.sh and tools/sanitize.sh. POSIX sh; run
# from the repository root (tests/run does). Prints "ok NAME" / "FAIL NAME: why"
# / "skip NAME: why".
#
# The test class is made from the labs' own output: tests/fixtures/h100/ (real
# H100 runs: labNN.csv, labNN-stubs.csv, labNN-solutions.csv,
# lab06-cg-solutions.csv, lab05-finish.csv), else, when a file is missing
# there, the synthetic set generated from tests/fixtures/synthetic/*.spec by
# tests/fixtures/make_fixture.awk (WB_GRADER_FIXTURES=synthetic forces it).
# Every student's file is one of those, copied or changed by
# tests/fixtures/transform.awk (a student's build, another run_at or
# fingerprint, times halved with every derived column recomputed), never
# typed by hand.
own_tmpd=0
[ -z "${TMPD:-}" ] && own_tmpd=1
. tests/lib.sh
[ $own_tmpd -eq 1 ] && trap 'rm -rf "$TMPD"' EXIT

W=$TMPD/grader
rm -rf "$W"
mkdir -p "$W"

# grade_case NAME WANT_STATUS PATTERN DIR [ARGS...]: sh tools/grader/grade DIR ARGS exits
# WANT_STATUS, its output matches PATTERN (grep -E), and nothing crashed:
# stderr holds no shell or awk error (only the grader's own "grade: ..." lines)
grade_case() {
    name=$1; want=$2; pat=$3; dir=$4
    shift 4
    run sh tools/grader/grade "$dir" "$@"
    if [ "$STATUS" -ne "$want" ]; then
        notok "$name" "exit $STATUS, expected $want; $(head -c 400 "$OUTF") $(head -c 200 "$ERRF")"
    elif grep -v '^grade: ' "$ERRF" | grep -q .; then
        notok "$name" "something crashed: $(head -c 300 "$ERRF")"
    elif ! grep -Eq -- "$pat" "$OUTF" "$ERRF"; then
        notok "$name" "no line matches /$pat/ in: $(head -c 600 "$OUTF") $(head -c 200 "$ERRF")"
    else
        ok "$name"
    fi
}

# expect_out NAME PATTERN: the last grade's stdout has a line matching PATTERN
expect_out() { expect_grep "$1" "$2" "$OUTF"; }
# expect_no_out NAME PATTERN: ... and none matching it
expect_no_out() {
    if grep -Eq -- "$2" "$OUTF"; then notok "$1" "a line matches /$2/: $(grep -E -- "$2" "$OUTF" | head -n 2)"
    else ok "$1"; fi
}

# case_dir NAME: a fresh, empty folder $W/NAME (its path on stdout)
case_dir() { rm -rf "${W:?}/$1"; mkdir -p "$W/$1"; echo "$W/$1"; }

# tf SRC OUT SETTINGS...: OUT is SRC changed by tests/fixtures/transform.awk
tf() {
    tsrc=$1; tout=$2; shift 2
    awk -F, -f tests/fixtures/transform.awk "$@" "$tsrc" "$tsrc" >"$tout"
}

# ---- the fixtures: real H100 outputs, else the synthetic set ------------------
SYN=$W/synthetic
mkdir -p "$SYN"
syn_ok=1
for s in tests/fixtures/synthetic/*.spec; do
    awk -f tests/fixtures/make_fixture.awk "$s" >"$SYN/$(basename "$s" .spec).csv" 2>"$W/spec.err" || syn_ok=0
done
if [ $syn_ok -eq 1 ]; then ok "the synthetic fixtures generate (tests/fixtures/synthetic/*.spec)"
else notok "the synthetic fixtures generate" "$(head -c 300 "$W/spec.err")"; fi

NEED="lab01 lab01-stubs lab01-solutions lab02 lab02-stubs lab02-solutions lab03 lab03-stubs lab03-solutions
      lab04 lab04-stubs lab04-solutions lab05 lab05-stubs lab05-solutions lab05-finish
      lab06 lab06-stubs lab06-solutions lab06-cg-solutions"
SRC=tests/fixtures/h100
missing=
for n in $NEED; do [ -f "$SRC/$n.csv" ] || missing="$missing $n.csv"; done
if [ "${WB_GRADER_FIXTURES:-}" = synthetic ]; then
    SRC=$SYN
    skip "test class from real H100 outputs" "WB_GRADER_FIXTURES=synthetic: the class is made from the synthetic fixtures"
elif [ -n "$missing" ]; then
    SRC=$SYN
    skip "test class from real H100 outputs" "tests/fixtures/h100 lacks$missing: the class is made from the synthetic fixtures"
else
    ok "test class from real H100 outputs (tests/fixtures/h100)"
fi

# ---- no output of a solutions build in the students' copy ------------------------
# solrows DIR: the files under DIR holding a CSV row whose build ends in +solutions
solrows() {
    find "$1" -type f ! -path '*/.git/*' ! -path '*/build/*' -exec awk -F, 'NF > 20 { for (i = 1; i <= NF; i++)
        if ($i ~ /^(sm_[0-9]+|fat|cpu)(\+dlcm=c[ag])?\+solutions\r?$/) { print FILENAME; nextfile } }' {} + 2>/dev/null
}
if [ -n "$(for l in $(lab_list); do ls -d "$(lab_get $l folder)/solutions" 2>/dev/null; done)" ]; then
    IN_HANDOUT=0
    HO=$W/handout
    if sh tools/handout.sh "$HO" >/dev/null 2>"$W/ho.err"; then
        bad=$(solrows "$HO" | head -n 3)
        if [ -z "$bad" ]; then ok "handout: no file holds a solutions-build row (no full marks without code)"
        else notok "handout: no file holds a solutions-build row" "$bad"; fi
    else notok "handout: written" "$(head -c 300 "$W/ho.err")"; fi
else
    IN_HANDOUT=1
    bad=$(solrows . | head -n 3)
    if [ -z "$bad" ]; then ok "this students' copy: no file holds a solutions-build row"
    else notok "this students' copy: no file holds a solutions-build row" "$bad"; fi
fi

# ---- grading from sources (lab01 runs on the CPU; the GPU labs say why they did not run) ----
# (in the sandbox where it can start here; else without: tests/cheats/ tests the sandbox)
sh tools/grader/sandbox.sh check >/dev/null 2>&1 || { GRADE_SANDBOX=none; export GRADE_SANDBOX; }
S=$W/sources
rm -rf "$S" "$S.runs"
E1=lab01_cpu_reduce/exercises.c
mkstudent() { mkdir -p "$S/$1/lab01_cpu_reduce"; sed "$2" "$E1" >"$S/$1/$E1"; }
mkstudent stub ''
echo "my notes" >"$S/stub/notes.txt"
mkstudent broken '0,/WB_TODO();/s//this is not C;/'
mkstudent hang '0,/WB_TODO();/s//{ volatile int go = 1; while (go) { } }/'
mkstudent crash '0,/WB_TODO();/s//return *(volatile int *)0;/'
mkdir -p "$S/lost" && echo "my lab01 is late" >"$S/lost/readme.txt"
# (tools/grader/intake.sh: a file out of the layout is placed by its contents; a course site's
# folder name is kept as the name shown; a link is refused, and the student has a row)
mkdir -p "$S/placed/lab01" && cp "$E1" "$S/placed/lab01/exercises.c"
mkdir -p "$S/Zoe Q_9_assignsubmission_file_" && cp "$E1" "$S/Zoe Q_9_assignsubmission_file_/my lab.c"
mkdir -p "$S/linked/lab01_cpu_reduce" && ln -s "$(pwd)/$E1" "$S/linked/$E1"
if [ -f lab01_cpu_reduce/solutions/exercises.c ]; then
    mkdir -p "$S/good/lab01_cpu_reduce"
    sed 's|"\.\./exercises\.h"|"exercises.h"|' lab01_cpu_reduce/solutions/exercises.c >"$S/good/$E1"
fi
run env GRADE_TIMEOUT=2 GRADE_LENGTH=100003 GRADE_RUN_ARGS="-r 3" GRADE_JOBS=4 sh tools/grader/grade_sources.sh "$S"
cp "$OUTF" "$W/sources.out"; cp "$ERRF" "$W/sources.err"
if [ "$STATUS" -eq 1 ] && grep -q '^==== the class ====$' "$OUTF"; then ok "sources: the class is built, run and graded (exit 1)"
else notok "sources: the class is built, run and graded" "exit $STATUS: $(tail -c 400 "$ERRF")"; fi
nprog=$(grep -c '^grade: student [0-9] of [0-9], ' "$ERRF")
nst=$(ls "$S" | wc -l | tr -d ' ')
if [ "$nprog" -eq "$nst" ]; then ok "sources: one progress line per student ($nst)"
else notok "sources: one progress line per student" "$nprog for $nst: $(grep '^grade: student' "$ERRF" | head -c 300)"; fi
expect_grep "sources: the untouched handout builds and runs (kernels 10, exercises todo)" '^stub +10 ' "$OUTF"
expect_grep "sources: anything else in a folder is named and ignored" '^ignored notes\.txt$' "$S.intake/notes/stub"
expect_grep "sources: ... in the report's list of the files ignored" '^  stub: notes\.txt$' "$OUTF"
expect_grep "sources: a stub that does not compile scores 0" '^broken +0 ' "$OUTF"
expect_grep "sources: ... with the compiler's first error, in its file" \
    '^  \| lab01_cpu_reduce/exercises\.c:[0-9]+:[0-9]+: error:' "$OUTF"
expect_grep "sources: a loop that never ends: ran past 2 s" '^  hang lab01: ran past 2 s \(killed\)' "$OUTF"
expect_grep "sources: ... the hang's record names its limit" \
    '^lab01: ran past 2 s \(killed\): .*\(the limit: GRADE_TIMEOUT: no calibrated run of this lab\)$' "$S.runs/hang/lab01.fail"
expect_grep "sources: the report gives each lab's time limit, once" '^  lab01: 2 s a run \(GRADE_TIMEOUT: ' "$OUTF"
if [ "$(grep -c '^  lab01: [0-9]* s a run' "$OUTF")" -eq 1 ]; then ok "sources: ... one line for lab01"
else notok "sources: one limit line for lab01" "$(grep '^  lab01: [0-9]* s a run' "$OUTF" | head -c 300)"; fi
expect_grep "sources: a crash names its signal" '^  crash lab01: crashed: killed by signal SEGV' "$OUTF"
expect_grep "sources: a crash scores 0 and the class goes on" '^crash +0 ' "$OUTF"
expect_grep "sources: a student whose files are all misnamed has a row (0 and the flag)" \
    '^  lost: missing lab01 .*; failed \(no lab\)$' "$OUTF"
expect_grep "sources: ... and what was ignored" '^  lost \?: no exercise file where the workbook has one' "$OUTF"
if [ -f "$S/good/$E1" ]; then
    expect_grep "sources: the solutions as a student's file earn every lab01 point" '^good +25 ' "$OUTF"
fi
expect_grep "sources: a lab01 file out of the layout is placed by its contents (intake)" '^placed +10 ' "$OUTF"
expect_grep "sources: a course site's folder name: a row under a safe name" '^Zoe_Q_9 +10 ' "$OUTF"
expect_grep "sources: ... and the name as handed in" '^  Zoe_Q_9: Zoe Q_9_assignsubmission_file_$' "$OUTF"
expect_grep "sources: a hand-in that is a link: refused, named, the student has a row" \
    '^  linked: lab01_cpu_reduce/exercises\.c: a symbolic link' "$OUTF"
expect_grep "sources: ... a row, flagged in the gradebook" '^linked,.*refused lab01_cpu_reduce/exercises\.c' \
    "$S.report/gradebook.csv"
nfb=$(ls "$S.feedback" 2>/dev/null | grep -c '\.md$')
if [ "$nfb" -eq "$nst" ] && [ -s "$S.report/report.html" ] && [ -s "$S.report/gradebook.csv" ] &&
    cmp -s "$S.report/report.txt" "$W/sources.out"; then
    ok "sources: a feedback file per student ($nfb), report.html beside report.txt and gradebook.csv"
else notok "sources: the feedback and the page" "$nfb files for $nst; $(ls "$S.report" 2>&1 | tr '\n' ' ')"; fi
if ! grep -l -e "$W" -e "$TMPD" -e "$(pwd)" "$S.feedback"/*.md >/dev/null 2>&1; then
    ok "sources: no feedback file holds a path of this machine"
else notok "sources: no path in the feedback" "$(grep -h -e "$W" -e "$(pwd)" "$S.feedback"/*.md | head -c 300)"; fi
check_width "sources: every line at most 100 columns" "$OUTF" "$ERRF"
# BASE, the workbook a student is built against: a handout copy (HB: this one
# where it is a students' copy), built for lab01 and the checker; never one
# that holds solutions (the student's file is compiled with its lab folders)
if [ "$IN_HANDOUT" -eq 1 ]; then HB=$(pwd); else HB=$HO; fi
# (the sandbox's user reads the workbook, as on a shared filesystem: our temp folders open to it)
d=$W; while [ "$d" != "${TMPDIR:-/tmp}" ] && [ "$d" != / ]; do chmod o+x "$d"; d=$(dirname "$d"); done
make -C "$HB" -s --no-print-directory student-objects checker STUDENT_LABS=lab01 >"$W/hb.log" 2>&1 ||
    notok "sources: a handout copy builds for lab01 (make student-objects checker)" "$(tail -c 300 "$W/hb.log")"
if [ "$IN_HANDOUT" -eq 0 ]; then
    expect_usage "sources: a BASE that holds solutions is refused, in one line" \
        sh tools/grader/grade_task.sh "$S/stub" "$W/sol.out" "$(pwd)"
fi
# a GPU lab where no device is usable: exit 3 with the lab's message (nothing is built)
if ! has_gpu; then
    mkdir -p "$W/gpukid/lab02_neighbored" && cp lab02_neighbored/exercises.cuh "$W/gpukid/lab02_neighbored/"
    run sh tools/grader/grade_task.sh "$W/gpukid" "$W/gpukid.out" "$HB"
    expect_grep "sources: a GPU lab without a usable device: the node's fault, not graded (no 0)" \
        "^lab02: not graded: the node's fault, not the student's file: .* has no GPU CUDA can use" "$W/gpukid.out/lab02.fail"
else
    skip "sources: a GPU lab without a usable device" "a GPU is here"
fi
# make grade SOURCES=dir passes the grader's status on, and says what it means
run make -s --no-print-directory grade SOURCES="$S/nobody-here"
if [ "$STATUS" -ne 0 ] && grep -q "^make grade: the grader's status is 2: nothing graded" "$ERRF"; then
    ok "make grade SOURCES=missing: status 2, said"
else notok "make grade SOURCES=missing" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
# SLURM=1: the job scripts in SOURCES.slurm/; each task also runs as plain sh;
# collect gives every student a row (gpu's task never runs here)
SL=$W/sl.slurm
rm -rf "$W/sl" "$W/sl.runs" "$SL"; mkdir -p "$W/sl/stub" "$W/sl/crash" "$W/sl/gpu/lab02_neighbored"
cp -R "$S/stub/." "$W/sl/stub/"; cp -R "$S/crash/." "$W/sl/crash/"
cp lab02_neighbored/exercises.cuh "$W/sl/gpu/lab02_neighbored/"
run env SLURM=1 NVCC=nvcc-not-installed GRADE_RUNS="$W/sl.runs" GRADE_TIMEOUT=5 GRADE_LENGTH=1003 \
    GRADE_SBATCH_OPTS="-p gpu --account=cs101 -c 3" sh tools/grader/grade_sources.sh "$W/sl"
if [ "$STATUS" -eq 0 ] && grep -q 'sbatch --parsable .*array.sbatch' "$OUTF" &&
    grep -q '^#SBATCH --array=1-3$' "$SL/array.sbatch" && grep -q '^#SBATCH --gres=gpu:1$' "$SL/array.sbatch" &&
    grep -q '^#SBATCH -c 3$' "$SL/array.sbatch" && grep -q '^#SBATCH -p gpu$' "$SL/collect.sbatch" &&
    ! grep -q '^#SBATCH -c' "$SL/collect.sbatch"; then
    ok "SLURM=1: an array job (one task per student, a GPU each, GRADE_SBATCH_OPTS), the collect job, the sbatch line"
else notok "SLURM=1" "exit $STATUS: $(head -c 300 "$OUTF") $(head -c 200 "$ERRF")"; fi
if grep -q '^  bid=$(sbatch --parsable .*build.sbatch' "$OUTF" && grep -q -- '-d afterany:${bid%%;\*} .*array.sbatch' "$OUTF" &&
    grep -q '^#SBATCH -c 3$' "$SL/build.sbatch" && [ -f "$SL/workbook/Makefile" ] && ! ls -d "$SL"/workbook/lab0*/solutions >/dev/null 2>&1
then ok "SLURM=1: a build job (the tasks' options) of the class's handout copy, submitted first, the array after it"
else notok "SLURM=1: the build job" "$(head -c 400 "$OUTF"); $(ls "$SL" | tr '\n' ' ')"; fi
# the workbook not built yet, then a build that fails: every lab the node's fault, never a 0
# (task 3: stub)
SLURM_ARRAY_TASK_ID=3 sh "$SL/task.sh" 2>>"$W/sl.err"
st=$?
if [ $st -eq 3 ] && grep -q "^lab01: not graded: the node's fault, .*: the class's build job never ran: the workbook is not built" \
    "$W/sl.runs/stub/lab01.fail"; then ok "SLURM=1: a task before the build job ran: the node's fault (exit 3), no 0"
else notok "SLURM=1: a task before the build job ran" "exit $st; $(head -c 300 "$W/sl.runs/stub/lab01.fail" 2>/dev/null)"; fi
expect_usage "SLURM=1: again.sh refuses while the workbook is not built, in one line, runs kept" \
    sh "$SL/again.sh" 3
[ -f "$W/sl.runs/stub/lab01.fail" ] || notok "SLURM=1: again.sh refusing keeps the runs" "stub's lab01.fail is gone"
CK=$SL/workbook/tools/grader/checker/checker.c; cp "$CK" "$W/ck.c"; echo no >>"$CK"; sh "$SL/build.sbatch" >"$W/build.log" 2>&1; cp "$W/ck.c" "$CK"
SLURM_ARRAY_TASK_ID=3 sh "$SL/task.sh" 2>>"$W/sl.err"
st=$?
if [ $st -eq 3 ] && grep -q "^lab01: not graded: the node's fault, .*: the class's build job failed (exit 2)" \
    "$W/sl.runs/stub/lab01.fail"; then ok "SLURM=1: a build job that failed: each task the node's fault (exit 3), no 0"
else notok "SLURM=1: a build job that failed" "exit $st; $(head -c 300 "$W/sl.runs/stub/lab01.fail" 2>/dev/null)"; fi
# the build (lab02's objects fail here: no nvcc, a node fault for gpu; lab01 builds), then the tasks
NVCC=nvcc-not-installed sh "$SL/build.sbatch" >"$W/build.log" 2>&1
if [ -s "$SL/state/build.ok" ] && [ -f "$SL/workbook/build/student/lab01.sh" ]; then
    ok "SLURM=1: the build job builds the class's workbook once (lab01, the checker)"
else notok "SLURM=1: the build job" "$(tail -c 400 "$W/build.log")"; fi
for k in 1 3; do
    SLURM_ARRAY_TASK_ID=$k sh "$SL/task.sh" 2>>"$W/sl.err"
done
run sh "$SL/collect.sbatch"
cp "$SL/report.txt" "$W/sl.report" 2>/dev/null
got=$(awk -F, 'NR > 1 { printf "%s%s,%s", sep, $1, $2; sep = " " }' "$SL/gradebook.csv" 2>/dev/null)
if [ "$STATUS" -eq 1 ] && [ "$got" = "crash,0 gpu,0 stub,10" ]; then
    ok "SLURM=1: two tasks run as plain sh, then collect: every student a row ($got), exit 1"
else notok "SLURM=1: tasks as plain sh, then collect" "exit $STATUS; $got; $(tail -c 300 "$W/sl.err")"; fi
if [ -s "$SL/report.html" ] && [ "$(ls "$W/sl.feedback" 2>/dev/null | grep -c '\.md$')" -eq 3 ]; then
    ok "SLURM=1: collect writes report.html beside report.txt, and each student's feedback"
else notok "SLURM=1: collect's page and feedback" "$(ls "$SL" "$W/sl.feedback" 2>&1 | tr '\n' ' ')"; fi
expect_grep "SLURM=1: a task that never ran: its row says so" '^  gpu lab02: not graded: its task never started \(task 2\)' \
    "$SL/report.txt"
if [ ! -e "$W/sl.runs/report.txt" ] && [ ! -e "$W/sl.runs/gradebook.csv" ] && ! grep -q 'credited to no one' "$SL/report.txt"; then
    ok "SLURM=1: the report and the gradebook are written outside the graded folder"
else notok "SLURM=1: the report outside the graded folder" "$(ls "$W/sl.runs" | tr '\n' ' ')"; fi
run sh "$SL/collect.sbatch"
if [ "$STATUS" -eq 1 ] && cmp -s "$SL/report.txt" "$W/sl.report"; then ok "SLURM=1: a second collect says the same"
else notok "SLURM=1: a second collect says the same" "exit $STATUS; $(diff "$W/sl.report" "$SL/report.txt" | head -c 300)"; fi
expect_usage "SLURM=1: GRADE_SBATCH_OPTS may not set the logs" \
    env SLURM=1 GRADE_RUNS="$W/sl.runs" GRADE_SBATCH_OPTS="--output=x.log" sh tools/grader/grade_sources.sh "$W/sl"
expect_usage "SLURM=1: GRADE_SBATCH_OPTS takes options only" \
    env SLURM=1 GRADE_RUNS="$W/sl.runs" GRADE_SBATCH_OPTS="gpu" sh tools/grader/grade_sources.sh "$W/sl"
# the node, not the student: a setup line that fails, a compiler that is not there
run env GRADE_SETUP='echo no such module >&2; false' sh tools/grader/grade_task.sh "$W/sl/stub" "$W/node.out" "$HB"
if [ "$STATUS" -eq 3 ] && grep -q "^lab01: not graded: the node's fault, .*: the setup line failed on node .* (exit 1): GRADE_SETUP='echo no such" \
    "$W/node.out/lab01.fail" && grep -q '^no such module$' "$W/node.out/lab01.fail"; then
    ok "a setup line that fails: the task exits 3, the lab is not graded, with the line's words"
else notok "a setup line that fails" "exit $STATUS; $(head -c 300 "$W/node.out/lab01.fail" 2>/dev/null)"; fi
run env GRADE_SETUP='NVCC=nvcc-not-installed' sh tools/grader/grade_task.sh "$W/sl/gpu" "$W/node.out" "$HB"
if [ "$STATUS" -eq 3 ] && grep -q "^lab02: not graded: the node's fault, not the student's file: node .* lacks nvcc-not-installed " \
    "$W/node.out/lab02.fail"; then
    ok "no nvcc on the node: the task exits 3, the lab is not graded (never 'does not compile')"
else notok "no nvcc on the node" "exit $STATUS; $(head -c 300 "$W/node.out/lab02.fail" 2>/dev/null)"; fi

if [ "$IN_HANDOUT" -eq 1 ]; then
    skip "the test class and the damaged files" "a students' copy holds no output of a solutions build"
    exit 0
fi

# every fixture file grades alone as what it is, with no consistency problem
for n in $NEED; do
    d=$(case_dir "fx-$n")
    cp "$SRC/$n.csv" "$d/x-$n.csv"
    run sh tools/grader/grade "$d"
    if grep -q 'REJECTED\|PHYSICS' "$OUTF" || grep -v '^grade: ' "$ERRF" | grep -q .; then
        notok "fixture $n.csv is a consistent lab output" "$(grep -A3 'REJECTED\|PHYSICS' "$OUTF" | head -c 400) $(head -c 200 "$ERRF")"
        fx_bad=1
    fi
done
[ -z "${fx_bad:-}" ] && ok "every fixture file grades without a consistency or physics problem"

# fingerprints and builds of the fixtures, for the expectations below
field() { awk -F, -v c="$2" 'NR == 2 { print $c; exit }' "$1"; }
STUB_FP1=$(field "$SRC/lab01-stubs.csv" 27)

# ---- the test class ----------------------------------------------------------
# alice   every lab from the solutions runs, as her own build (no +solutions,
#         her fingerprints), lab05-finish, and lab06 built DLCM=cg too: every point
# bob     the stubs as shipped, labs 01-04 only, in a folder bob/: lab05, lab06 missing
# carol   carol_lab01.csv (stubs), lab03-carol.csv (a name it cannot place),
#         carol-lab05-finish.csv
# dave    a byte-for-byte copy of alice's lab02
# eve     lab04 as built with SOLUTIONS=1
# frank   alice's lab03 re-stamped with another run_at: the same fingerprint
# grace   lab02 twice: the stubs, then a later run with her solution: the later counts
# henry   lab03 twice: a finished run, then a later run of the stubs: the later counts
# ivan    lab02 in the old 22-column format
# judy    a plain ./lab02 --csv (no exercise rows)
# mallory lab05 with every time halved and the copy ceiling doubled (only the
#         GPU's peak shows it), lab01 with every time halved (only physics'
#         margin over the copy ceiling shows it: lab01 has no peak)
# peggy   lab04 with her reduceUnrolling16 1.2x slower than the solution's
# results.csv  a plain ./lab04 --csv nobody put a name on
C=$W/class
rm -rf "$C"
mkdir -p "$C/bob"
for l in 01 02 03 04 05 06; do
    tf "$SRC/lab$l-solutions.csv" "$C/alice-lab$l.csv" -v student=1 -v fingerprint=a11ce0$l -v run_at=2026-11-24T09:00:$l"Z"
done
tf "$SRC/lab06-cg-solutions.csv" "$C/alice-lab06-cg.csv" -v student=1 -v fingerprint=a11ce006 -v run_at=2026-11-24T09:00:07Z
tf "$SRC/lab05-finish.csv" "$C/alice-lab05-finish.csv" -v run_at=2026-11-24T09:00:08Z
for l in 01 02 03 04; do
    tf "$SRC/lab$l-stubs.csv" "$C/bob/lab$l.csv" -v run_at=2026-11-24T10:00:$l"Z"
done
tf "$SRC/lab01-stubs.csv" "$C/carol_lab01.csv" -v run_at=2026-11-24T11:00:01Z
tf "$SRC/lab03-stubs.csv" "$C/lab03-carol.csv" -v run_at=2026-11-24T11:00:03Z
tf "$SRC/lab05-finish.csv" "$C/carol-lab05-finish.csv" -v run_at=2026-11-24T11:00:08Z
cp "$C/alice-lab02.csv" "$C/dave-lab02.csv"
cp "$SRC/lab04-solutions.csv" "$C/eve-lab04.csv"
tf "$C/alice-lab03.csv" "$C/frank-lab03.csv" -v run_at=2026-11-24T12:00:03Z
tf "$SRC/lab02-stubs.csv" "$C/grace-lab02.csv" -v run_at=2026-11-24T13:00:00Z
tf "$SRC/lab02-solutions.csv" "$C/grace-lab02-rerun.csv" -v student=1 -v fingerprint=96ace002 -v run_at=2026-11-24T14:00:00Z
tf "$SRC/lab03-solutions.csv" "$C/henry-lab03-final.csv" -v student=1 -v fingerprint=4e760003 -v run_at=2026-11-24T15:00:00Z
tf "$SRC/lab03-stubs.csv" "$C/henry-lab03.csv" -v run_at=2026-11-24T16:00:00Z
tf "$SRC/lab02.csv" "$C/ivan-lab02.csv" -v old=1
cp "$SRC/lab02.csv" "$C/judy-lab02.csv"
tf "$SRC/lab05-solutions.csv" "$C/mallory-lab05.csv" -v student=1 -v fingerprint=3a770005 -v time_factor=0.5 -v ceiling_factor=2
tf "$SRC/lab01-solutions.csv" "$C/mallory-lab01.csv" -v student=1 -v fingerprint=3a770001 -v time_factor=0.5
tf "$SRC/lab04-solutions.csv" "$C/peggy-lab04.csv" -v student=1 -v fingerprint=9e990004 -v kernel=reduceUnrolling16 -v kernel_factor=1.2
cp "$SRC/lab04.csv" "$C/results.csv"

grade_case "class: graded, exit 1 (not everyone earned every point)" 1 '^==== the class ====' "$C"
cp "$OUTF" "$W/class.out"
expect_out "class table: a column per required lab, then lab05-finish and lab06+dlcm=cg" \
    '^student +lab01 +lab02 +lab03 +lab04 +lab05 +lab06 +lab05-finish +lab06\+dlcm=cg +total$'
expect_out "class: alice (every lab, her own build) earns every point, DLCM pair and lab05-finish included" \
    '^alice +25 +25 +30 +25 +30 +25 +10 +25 +195/195$'
expect_out "class: alice's flags, under the table" \
    '^  alice: copy lab02 with dave; fingerprint lab02 with dave; fingerprint lab03 with frank$'
expect_out "DLCM pair: the default lab06 file is graded as lab06" '^alice-lab06\.csv: lab06 on .*build [a-z_0-9]+, run'
expect_out "DLCM pair: the DLCM=cg file is graded too, by the lab06 lines, as lab06+dlcm=cg" \
    '^alice-lab06-cg\.csv: lab06\+dlcm=cg on .*build [a-z_0-9]+\+dlcm=cg, run'
expect_out "DLCM pair: lab06+dlcm=cg scores its own result" 'score lab06\+dlcm=cg 25/25$'
expect_out "lab05-finish: graded (verified, versus CUB, no_slower)" 'versus: fastest of reduceModern,modern[*]Atomic is'
expect_out "lab05-finish: carol's counts in her line" '^carol +10 +missing +missing +missing +missing +missing +10 +- +20/170$'
expect_out "stubs as shipped: a todo row says not done" 'LOST +0/5 +pairwiseBlocked: not done \(todo'
expect_out "stubs as shipped: a fix-it FAIL says FAIL, named by its kernel" \
    'LOST +0/5 +recursiveReduceBook: FAIL \(the exercise gives a wrong result: fix it\)$'
expect_out "one LOST line per cause: a todo exercise's done and keeps_up lines are one" \
    'LOST +0/5 +reduceNeighboredMask: not done \(todo: the stub is untouched\) \[done, keeps_up\]$'
expect_no_out "exercises are named by kernel, never by a line of the CSV" 'LOST .*\(line [0-9]+\)'
expect_out "stubs as shipped: the kernels keep their points" '^bob/lab02\.csv: lab02 on '
expect_out "missing labs: bob's lab05 and lab06 are named and score 0" '^  bob: lab05 missing, lab06 missing$'
expect_out "missing labs: bob's line" '^bob +10 +10 +10 +10 +missing +missing +- +- +40/160$'
expect_out "missing labs: bob's flag" '^  bob: missing lab05 lab06$'
expect_out "naming slip: lab03-carol.csv is named, with the name to give it" \
    '^  lab03-carol\.csv: lab03, credited to no one: rename it carol-lab03\.csv'
expect_out "naming slip: carol is flagged for it" '^  carol: missing .*; misnamed lab03-carol\.csv$'
expect_out "naming slip: a file with no name at all (results.csv) is named" \
    '^  results\.csv: lab04, credited to no one: rename it NAME-lab04\.csv'
expect_out "naming: carol_lab01.csv (an underscore) is carol's" '^carol_lab01\.csv: lab01 on '
expect_out "copies: identical files from different students are listed together" \
    '^  alice-lab02\.csv \(alice\), dave-lab02\.csv \(dave\)$'
expect_out "copies: identical fingerprints with a PASS exercise are listed" \
    '^  lab03 fingerprint a11ce003: alice-lab03\.csv \(alice, 4 PASS\), frank-lab03\.csv \(frank, 4 PASS\)$'
if grep -q "fingerprint $STUB_FP1:" "$W/class.out"; then
    notok "copies: untouched stubs sharing the handout's fingerprint are not flagged" "$(grep "fingerprint $STUB_FP1" "$W/class.out" | head -n 1)"
else
    ok "copies: untouched stubs sharing the handout's fingerprint are not flagged"
fi
expect_out "copies: the copier's line carries the flag" '^  dave: .*; copy lab02 with alice; fingerprint lab02 with alice$'
expect_out "copies: a shared fingerprint is in both lines" '^  frank: .*; fingerprint lab03 with alice$'
expect_out "solutions build: flagged" "^  eve-lab04\.csv \(eve\): lab04 built with the instructor's solutions$"
expect_out "solutions build: its exercise points are 0, in one line" \
    "LOST +0/15 +exercises: built with the instructor's solutions \([a-z_0-9]+\+solutions\)"
expect_out "solutions build: eve keeps the kernels' points (10/25)" '^eve +missing +missing +missing +10 +missing +missing +- +- +10/160$'
expect_out "solutions build: eve is flagged" '^  eve: .*; solutions lab04$'
expect_out "re-runs: the latest run counts and the earlier file is set aside" \
    '^  grace lab02: grace-lab02-rerun\.csv \(run 2026-11-24T14:00:00Z\) counts; set aside grace-lab02\.csv$'
expect_out "re-runs: grace's lab02 is the re-run's 25" '^grace +missing +25 '
expect_out "re-runs: the set-aside file says so under its report" '^  set aside: grace handed in a later run of lab02, grace-lab02-rerun\.csv'
expect_out "re-runs: the latest counts even when it is worse (henry: 10, not 25)" '^henry +missing +missing +10 '
expect_out "old header: rejected with a line saying to re-run it" \
    '^  ivan-lab02\.csv:1: written by an older version of the labs '
expect_out "old header: the lab scores 0 and is flagged" '^  ivan: .*rejected lab02'
expect_out "plain --csv file: one LOST line for every exercise, saying what to hand in" \
    'LOST +0/15 +exercises: no exercise rows: this is a plain run; hand in \./lab02 --exercises --csv'
judy=$(awk '/^judy-lab02\.csv/ { on = 1 } on && /^$/ { exit } on && /LOST/' "$OUTF")
if [ "$(echo "$judy" | grep -c LOST)" -eq 1 ]; then ok "plain --csv file: one LOST line, not one per exercise"
else notok "plain --csv file: one LOST line" "$judy"; fi
expect_out "plain --csv file: graded (judy 10/25)" '^judy +missing +10 '
expect_out "plain --csv file: a class list of plain runs" '^  judy-lab02\.csv \(judy\): lab02$'
expect_out "plain --csv file: judy is flagged" '^  judy: .*; plain lab02$'
expect_out "forged speeds: halved times with the ceiling doubled fail the GPU's peak" \
    "^  mallory-lab05\.csv \(mallory\): reduceModern at [0-9]+ GB/s is faster than this GPU's theoretical"
expect_no_out "forged speeds: the forged files pass every consistency check (only physics catches them)" '^mallory-lab0[15]\.csv: REJECTED'
expect_out "forged speeds: the GPU lab scores 0" '^mallory +25 +missing +missing +missing +0 +missing '
expect_out "CPU rows have no physics check: lab01 at 1[3-9]x% of the copy ceiling keeps its points" \
    '^mallory-lab01\.csv: lab01 on '
expect_no_out "CPU rows: no PHYSICS line for lab01" 'PHYSICS .*sequential'
expect_out "forged speeds: mallory is flagged for lab05 only" '^  mallory: .*; physics lab05$'
expect_out "keeps_up: a correct but slow exercise loses the speed points only" \
    'LOST +0/2 +keeps_up: reduceUnrolling16 at 0\.[0-9]+x reduceUnrolling8, needs 0\.95x'
expect_out "keeps_up: peggy's lab04 23/25" '^peggy +missing +missing +missing +23 '
expect_out "class: the closing line counts the students" '^class: 12 students; 0 earned every point with nothing flagged, 12 did not'

# the gradebook CSV: --csv, FORMAT=csv
run sh tools/grader/grade "$C" --csv
cp "$OUTF" "$W/book.csv"
hdr='student,lab01,lab02,lab03,lab04,lab05,lab06,lab05-finish,lab06+dlcm=cg,total,max,flags,calibration'
if [ "$STATUS" -eq 1 ] && [ "$(head -n 1 "$W/book.csv")" = "$hdr" ] &&
    awk -F, 'NF != 13 { bad = 1 } END { exit bad || NR != 13 }' "$W/book.csv"; then
    ok "gradebook CSV: the header, one line per student, 13 fields each, exit 1"
else
    notok "gradebook CSV" "exit $STATUS: $(head -c 500 "$W/book.csv")"
fi
expect_grep "gradebook CSV: alice's line" '^alice,25,25,30,25,30,25,10,25,195,195,copy lab02 with dave; fingerprint lab02 with dave; fingerprint lab03 with frank,[^,]+ \(not calibrated\)$' "$W/book.csv"
expect_grep "gradebook CSV: a missing required lab is 0, an optional one empty" '^bob,10,10,10,10,0,0,,,40,160,missing lab05 lab06,' "$W/book.csv"
expect_grep "gradebook CSV: the class notes go to stderr" '^grade: identical files handed in by different students:$' "$ERRF"
run env FORMAT=csv sh tools/grader/grade "$C"
if [ "$STATUS" -eq 1 ] && cmp -s "$OUTF" "$W/book.csv"; then ok "gradebook CSV: FORMAT=csv is --csv"
else notok "gradebook CSV: FORMAT=csv" "exit $STATUS, or not the same as --csv: $(head -c 300 "$OUTF")"; fi
run make -s --no-print-directory grade RESULTS="$C" FORMAT=csv
if cmp -s "$OUTF" "$W/book.csv"; then ok "gradebook CSV: make grade RESULTS=dir FORMAT=csv"
else notok "gradebook CSV: make grade RESULTS=dir FORMAT=csv" "not the same as --csv: $(head -c 300 "$OUTF") $(head -c 200 "$ERRF")"; fi

# a class where everyone earned every point: exit 0
d=$(case_dir allgood)
cp "$C"/alice-* "$d/"
grade_case "class: everyone earned every point: exit 0" 0 '^class: 1 student; 1 earned every point with nothing flagged, 0 did not' "$d"
expect_out "class: a clean class lists no notes" '^==== the class ====$'
expect_no_out "class: a clean class lists no notes (nothing flagged)" '^(identical|re-runs|files whose|solutions builds|speeds|rejected|required labs)'

# a folder per student wins over the file name, and says so when they disagree
d=$(case_dir folders)
mkdir -p "$d/zoe" "$d/xavier"
cp "$C/alice-lab02.csv" "$d/zoe/lab02.csv"
tf "$C/alice-lab03.csv" "$d/xavier/yann-lab03.csv" -v fingerprint=7a110003
grade_case "naming: a folder per student (zoe/lab02.csv)" 1 '^zoe +missing +25 ' "$d"
expect_out "naming: a folder and a file name that disagree are named" \
    '^  xavier/yann-lab03\.csv: credited to xavier \(its folder\), but its name says yann$'

# ---- the cases of issue 21 ("Why"), one each -------------------------------------
# an honest lab01 at 162% of the copy ceiling: a CPU row has no physics check
d=$(case_dir cpu162)
tf "$SRC/lab01-solutions.csv" "$W/l1.csv" -v student=1 -v fingerprint=1f1f0001
pct=$(awk -F, '$3 == "sequentialUnroll4" { print $16 }' "$W/l1.csv")
tf "$W/l1.csv" "$d/olga-lab01.csv" -v time_factor="$(awk -v p="$pct" 'BEGIN { printf "%.4f", p / 162 }')"
grade_case "lab01 at 162% of the copy ceiling (a read-only pass) keeps every point" 1 'score lab01 25/25$' "$d"
expect_no_out "lab01 at 162%: no PHYSICS line" 'PHYSICS'
# other modes never replace the graded run: a later matrix run, float run, device-finish run, plain run
d=$(case_dir modes)
tf "$SRC/lab05-solutions.csv" "$d/dave-lab05.csv" -v student=1 -v fingerprint=da7e0005 -v run_at=2026-11-24T09:00:00Z
[ -f docs/results/nvidia-h100-80gb-hbm3/lab05-matrix.csv ] &&
    tf docs/results/nvidia-h100-80gb-hbm3/lab05-matrix.csv "$d/dave-lab05-matrix.csv" -v run_at=2026-11-24T10:00:00Z
tf "$SRC/lab02-solutions.csv" "$d/dave-lab02.csv" -v student=1 -v fingerprint=da7e0002 -v run_at=2026-11-24T09:00:00Z
awk -F, -v OFS=, 'NR > 1 && $1 != "lab" { $22 = "float" } 1' "$SRC/lab02.csv" >"$W/f.csv"
tf "$W/f.csv" "$d/dave-lab02-float.csv" -v run_at=2026-11-24T10:00:00Z
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "finish") c = i; if (!c) sub(/,status$/, ",finish,status") }
    NR > 1 && c && $c != "" { $c = "device" } NR > 1 && !c { $NF = ($18 != "" ? "device" : "") "," $NF } 1' \
    "$SRC/lab03.csv" >"$W/dev.csv"
tf "$W/dev.csv" "$d/dave-lab03-finish.csv" -v run_at=2026-11-24T10:00:00Z
tf "$SRC/lab03-solutions.csv" "$d/dave-lab03.csv" -v student=1 -v fingerprint=da7e0003 -v run_at=2026-11-24T09:00:00Z
tf "$SRC/lab04-solutions.csv" "$d/dave-lab04.csv" -v student=1 -v fingerprint=da7e0004 -v run_at=2026-11-24T09:00:00Z
tf "$SRC/lab04.csv" "$d/dave-lab04-plain.csv" -v run_at=2026-11-24T10:00:00Z
grade_case "modes: dave's graded runs keep their scores (lab02 25, lab03 full, lab04 25, lab05 30)" 1 \
    '^dave +missing +25 +(30|25) +25 +30 ' "$d"
expect_out "modes: a later float run is an extra run of its own" '^  dave lab02\+float: dave-lab02-float\.csv '
expect_out "modes: a later device-finish run is an extra run of its own" '^  dave lab03\+finish=device: dave-lab03-finish\.csv '
[ -f "$d/dave-lab05-matrix.csv" ] &&
    expect_out "modes: a later matrix run is an extra run of its own" '^  dave lab05\+matrix: dave-lab05-matrix\.csv '
expect_out "modes: a later plain run never replaces the --exercises run" \
    '^  dave lab04: dave-lab04\.csv \(--exercises\) counts; set aside dave-lab04-plain\.csv \(a plain run\)$'
# make handin's folder from two students, merged: each file credited by its name
d=$(case_dir merged)
mkdir -p "$d/handin"
cp "$C/alice-lab01.csv" "$d/handin/alice-lab01.csv"
tf "$SRC/lab02-solutions.csv" "$d/handin/bob-lab02.csv" -v student=1 -v fingerprint=b0b00002
cp "$C/judy-lab02.csv" "$d/handin/lab02.csv"
grade_case "handin/ merged from two students: alice's file is alice's" 1 '^alice +25 +missing ' "$d"
expect_out "handin/ merged: bob's file is bob's, not a student called handin" '^bob +missing +25 '
expect_no_out "handin/ merged: no student called handin" '^handin '
expect_out "handin/ merged: a file without a name there is credited to no one, with how to rename" \
    '^  handin/lab02\.csv: lab02, credited to no one: handin/ is every student'"'"'s folder \(make handin\)'
# a byte-order mark (a spreadsheet's CSV UTF-8), with CRLF line ends
d=$(case_dir bom)
{ printf '\357\273\277'; sed 's/$/\r/' "$C/alice-lab02.csv"; } >"$d/kim-lab02.csv"
grade_case "a byte-order mark and CRLF line ends are accepted" 1 'score lab02 25/25$' "$d"
# a student whose files are all misnamed: a gradebook row, 0 and the flag
d=$(case_dir misnamed)
cp "$C/alice-lab01.csv" "$d/lab01-zed.csv"
cp "$C/alice-lab02.csv" "$d/lab02_zed.csv"
run sh tools/grader/grade "$d" --csv
expect_grep "all files misnamed: zed has a gradebook row, 0 and the flag" \
    '^zed,0,0,0,0,0,0,0,160,missing lab01 lab02 lab03 lab04 lab05 lab06; misnamed lab01-zed\.csv; misnamed lab02_zed\.csv,$' "$OUTF"
# every line at most 100 columns (the gradebook CSV aside), and the exit statuses
check_width "the test class's report: every line at most 100 columns" "$W/class.out"
run make -s --no-print-directory grade RESULTS="$C"
if [ "$STATUS" -ne 0 ] && grep -q "^make grade: the grader's status is 1: graded; a point was lost" "$ERRF"; then
    ok "make grade RESULTS=dir: status 1 is passed on and said"
else notok "make grade RESULTS=dir: status 1" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
# make handin without a GPU: one line per GPU lab left out, status 0 when lab01 was written
if [ -x ./lab01 ] && ! has_gpu; then
    rm -rf "$W/hi" && mkdir -p "$W/hi/tools/grader" && cp tools/grader/handin.sh "$W/hi/tools/grader/" && cp ./lab01 "$W/hi/"
    for l in lab02 lab03; do [ -x ./$l ] && cp ./$l "$W/hi/"; done
    run sh "$W/hi/tools/grader/handin.sh" zoe lab01 lab02 lab03 lab04
    if [ "$STATUS" -eq 0 ] && [ -s "$W/hi/handin/zoe-lab01.csv" ] && [ "$(grep -c '^handin: lab0[234] left out: ' "$OUTF")" -eq 3 ] &&
        ! awk 'length > 100' "$OUTF" | grep -q .; then
        ok "make handin without a GPU: lab01 written, one line per GPU lab left out, status 0"
    else notok "make handin without a GPU" "exit $STATUS: $(head -c 400 "$OUTF")"; fi
else
    skip "make handin without a GPU" "./lab01 not built, or a GPU is here"
fi

# ---- real ./lab01 output --------------------------------------------------------
if [ -x ./lab01 ]; then
    d=$(case_dir live)
    ./lab01 -n 100003 -r 3 --exercises --csv >"$d/student-lab01.csv" 2>"$W/lab01.err"
    # one source, common/csv_columns.h: what the grader reads from it is what lab01 prints
    echo 'BEGIN { print HEADER; exit }' >"$W/hdr.awk"
    if head -n 1 "$d/student-lab01.csv" |
        grep -Fqx "$(awk -v conf=tools/grader/grade.conf -v columns=common/csv_columns.h -f tools/grader/grade.d/conf.awk -f "$W/hdr.awk" | grep .)"; then
        ok "grader's header = ./lab01 --csv header"
    else
        notok "grader's header = ./lab01 --csv header" "lab01 prints: $(head -n 1 "$d/student-lab01.csv")"
    fi
    grade_case "grade reads real ./lab01 --exercises --csv output (kernels 10/10, exercises as built)" 1 \
        '^  ok +10/10 +verified: all 5 kernel rows PASS' "$d"
    expect_no_out "real ./lab01 output is not rejected" 'REJECTED|PHYSICS'
else
    skip "grade reads real ./lab01 --exercises --csv output" "./lab01 not built (make lab01)"
fi

# ---- speed bars on the grading GPU: the fixture sets and tools/grader/calibrate.sh ------------
. tests/tools/calibration_checks.sh
# slug NAME: a GPU's file name, as tools/grader/calibrate.sh writes it
slug() { printf '%s' "$1" | tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9][^a-z0-9]*/-/g' -e 's/^-//' -e 's/-$//'; }
# every fixture set (a real GPU each): the solutions, as a student's files, earn every
# point with grade.conf as written, so no bar there fails an honest run on either GPU
for set in h100 h200; do
    FX=tests/fixtures/$set
    miss=; for n in $NEED; do [ -f "$FX/$n.csv" ] || miss="$miss $n.csv"; done
    if [ -n "$miss" ]; then skip "$set: the solutions earn every point" "tests/fixtures/$set lacks$miss"; continue; fi
    d=$(case_dir "honest-$set")
    for l in 01 02 03 04 05 06; do tf "$FX/lab$l-solutions.csv" "$d/ann-lab$l.csv" -v student=1 -v fingerprint=a0a0a0$l; done
    tf "$FX/lab06-cg-solutions.csv" "$d/ann-lab06-cg.csv" -v student=1 -v fingerprint=a0a0a007
    cp "$FX/lab05-finish.csv" "$d/ann-lab05-finish.csv"
    grade_case "$set: the solutions, as a student's files, earn every point of grade.conf as written" 0 \
        '^ann +25 +25 +30 +25 +30 +25 +10 +25 +195/195$' "$d"
    expect_out "$set: not calibrated, the report says where grade.conf's bars were set" \
        "^speed bars: grade.conf's as written, set on $(sed -n 's/^set_on *//p' tools/grader/grade.conf); not calibrated on "

    # a class graded from sources, as make grade SOURCES=dir leaves it in dir.runs: two
    # solutions students, one with the stubs; the calibration from the solutions' runs
    gpu=$(field "$FX/lab02-solutions.csv" 2)
    R=$(case_dir "cal-$set")
    for who in s01-solutions s02-solutions s03-handout; do
        mkdir -p "$R/$who"
        for l in 01 02 03 04 05 06; do
            if [ "$who" = s03-handout ]; then tf "$FX/lab$l-stubs.csv" "$R/$who/lab$l.csv"
            else tf "$FX/lab$l-solutions.csv" "$R/$who/lab$l.csv" -v student=1 -v fingerprint=5050$(echo "$who" | tr -cd 0-9)$l; fi
        done
    done
    run sh tools/grader/calibrate.sh --from "$R/calibration" "$FX"/lab0[2-6]-solutions.csv
    CF=$R/calibration/$(slug "$gpu").csv
    nchk=$(awk '!/^ *#/ && $1 ~ /^lab0[2-6]$/ && $3 ~ /^(faster|no_slower|near_copy|versus|keeps_up)$/' tools/grader/grade.conf | wc -l)
    nline=$(awk -F, -v g="$gpu" 'NR > 1 && $1 == g && $3 != "fastest"' "$CF" 2>/dev/null | wc -l)
    if [ "$STATUS" -eq 0 ] && [ "$(cat "$OUTF")" = "$CF" ] && [ "$nline" -eq "$nchk" ] &&
        [ "$(grep -c ',fastest,' "$CF")" -eq 1 ]; then
        ok "$set: calibrate.sh --from writes calibration/<gpu>.csv, a line per speed check ($nchk) and the fastest"
    else notok "$set: calibrate.sh --from" "exit $STATUS; $nline of $nchk lines; $(head -c 300 "$OUTF") $(head -c 200 "$ERRF")"; fi
    grade_case "$set calibrated: the class grades (the handout student loses points)" 1 '^==== the class ====$' "$R"
    cp "$OUTF" "$W/cal-$set.out"
    cal_full "$set calibrated: every solutions student earns every point" "$W/cal-$set.out" '-solutions$'
    cal_printed "$set calibrated: the report prints the calibration" "$W/cal-$set.out" "$gpu"
    expect_no_out "$set calibrated: dir/calibration/ is never graded as a hand-in" '^calibration/'
    run sh tools/grader/grade "$R" --csv
    expect_grep "$set calibrated: the gradebook names each student's calibration" \
        "^s01-solutions,.*,$gpu \\(calibrated [0-9T:Z-]+\\)$" "$OUTF"
    # a bar set above what the solution reaches on this GPU: worth 0 there, said once, the maximum drops
    sed 's/^\(lab02 .*keeps_up *reduceNeighboredMask *\)[0-9.][0-9.]*/\19.00/' tools/grader/grade.conf >"$W/hi.conf"
    run env GRADE_CONF="$W/hi.conf" sh tools/grader/grade "$R"
    cp "$OUTF" "$W/hi-$set.out"
    cal_worth0 "$set: a bar above the solution is worth 0 on that GPU, with the solution's figure" \
        "$W/hi-$set.out" "$gpu" lab02 "keeps_up reduceNeighboredMask"
    cal_full "$set: ... and the solutions still earn every point of the lower maximum" "$W/hi-$set.out" '-solutions$'
    expect_grep "$set: ... the class table's maximum of lab02 drops by its 2 points" '^\(max\) +[0-9]+ +23 ' "$W/hi-$set.out"
    # the same runs with grade.conf as written but no calibration: the report says so
    run env CALIBRATION="$CF" sh tools/grader/grade "$R"
    unwrapped "$OUTF" >"$W/calf.out"
    expect_grep "$set: CALIBRATION=file applies that file" "^speed bars calibrated on $gpu \\($CF: " "$W/calf.out"
done
# a close call (the bar within the solution's spread): the bar is lowered, never
# raised. lab03's reduceInterleavedAnyN on the H200 set (0.92x, bar 0.90x), three
# runs: one with the exercise 5% slower (0.88x); a student at 0.88x passes only calibrated
FX=tests/fixtures/h200; [ -f "$FX/lab03-solutions.csv" ] || FX=$SRC
d=$(case_dir close)
for k in 1 2 3; do
    f=1; [ $k -eq 2 ] && f=1.05
    tf "$FX/lab03-solutions.csv" "$W/close-run$k.csv" -v kernel=reduceInterleavedAnyN -v kernel_factor=$f
done
run sh tools/grader/calibrate.sh --from "$W/close-cal" "$W"/close-run[123].csv
CF=$(cat "$OUTF")
tf "$FX/lab03-solutions.csv" "$d/uma-lab03.csv" -v student=1 -v fingerprint=c105e003 -v kernel=reduceInterleavedAnyN \
    -v kernel_factor=1.05
run sh tools/grader/grade "$d"
expect_out "a close call, not calibrated: 0.88x misses grade.conf's 0.90x" 'LOST +0/2 +keeps_up: reduceInterleavedAnyN at 0\.88x'
run env CALIBRATION="$CF" sh tools/grader/grade "$d"
unwrapped "$OUTF" >"$W/close.out"
expect_grep "a close call, calibrated (3 runs, one 5% slower): the bar is lowered and 0.88x passes" \
    'ok +2/2 +keeps_up: reduceInterleavedAnyN at 0\.88x reduceInterleaved, needs 0\.8[0-8]x \(calibrated: grade\.conf 0\.90x' \
    "$W/close.out"
expect_grep "a close call: its calibration line says the runs' spread" \
    '^  lab03 keeps_up reduceInterleavedAnyN: the solution 0\.92x \(spread [0-9.]+%\), needs 0\.8[0-8]x \(grade\.conf 0\.90x\)' \
    "$W/close.out"
expect_grep "a close call: the calibration counts the runs" ',lab03,keeps_up,[0-9.]+,[0-9.]+,3,' "$CF"
# physics: a forger who halves the times, doubles the ceiling and the peak_gbps passes every
# check of the file; a calibration of the GPU (the grader's own figures) catches it
FX=tests/fixtures/h200; [ -f "$FX/lab05-solutions.csv" ] || FX=$SRC
d=$(case_dir peakforger)
tf "$FX/lab05-solutions.csv" "$W/pf.csv" -v student=1 -v fingerprint=f0f0f005 -v time_factor=0.5 -v ceiling_factor=2
awk -F, -v OFS=, 'NR > 1 && $1 != "lab" { $21 = sprintf("%.2f", 2 * $21) } 1' "$W/pf.csv" >"$d/max-lab05.csv"
run sh tools/grader/grade "$d"
expect_no_out "physics: a forger who doubles peak_gbps too is not caught without a calibration" 'PHYSICS'
run sh tools/grader/calibrate.sh --from "$W/pf-cal" "$FX/lab05-solutions.csv"
run env CALIBRATION="$(cat "$OUTF")" sh tools/grader/grade "$d"
unwrapped "$OUTF" >"$W/pf.out"
expect_grep "physics: ... a calibration of the GPU catches it (its peak and the solutions' fastest GB/s)" \
    "PHYSICS  .* faster than this GPU's theoretical [0-9]+ GB/s \\(the calibration's\\)" "$W/pf.out"
expect_grep "physics: ... and the margin over the solutions' fastest GB/s" 'PHYSICS  .* the fastest the solutions reached on ' \
    "$W/pf.out"
# a calibration of another GPU is not applied: the report says which GPUs were not calibrated
if [ -f tests/fixtures/h100/lab02-solutions.csv ] && [ -f tests/fixtures/h200/lab02-solutions.csv ]; then
    run sh tools/grader/calibrate.sh --from "$W/two" tests/fixtures/h100/lab02-solutions.csv tests/fixtures/h200/lab02-solutions.csv
    if [ "$STATUS" -eq 0 ] && [ "$(wc -l <"$OUTF")" -eq 2 ]; then ok "calibrate.sh --from: runs of two GPUs, two files"
    else notok "calibrate.sh --from: two GPUs" "exit $STATUS: $(cat "$OUTF")"; fi
    d=$(case_dir othergpu)
    tf tests/fixtures/h200/lab02-solutions.csv "$d/vic-lab02.csv" -v student=1 -v fingerprint=0e0e0002
    run env CALIBRATION="$W/two/$(slug "$(field tests/fixtures/h100/lab02-solutions.csv 2)").csv" sh tools/grader/grade "$d"
    unwrapped "$OUTF" >"$W/other.out"
    expect_grep "a calibration of another GPU is not applied; the report names the GPU without one" \
        "^results of GPUs without a calibration, graded by grade.conf's bars, set on .*: NVIDIA H200 \\(1\\)$" "$W/other.out"
fi
# the calibration's own errors: exit 2 before anyone is graded
d=$(case_dir calerr)
cp "$C/alice-lab02.csv" "$d/x-lab02.csv"
grade_case "CALIBRATION=a file that is not there: exit 2" 2 '^grade: CALIBRATION=.* cannot be read' "$d" \
    --calibration="$W/no-such-calibration.csv"
printf 'gpu,lab,check\nX,lab02,faster\n' >"$W/bad-cal.csv"
run env CALIBRATION="$W/bad-cal.csv" sh tools/grader/grade "$d"
if [ "$STATUS" -eq 2 ] && grep -q "^grade: .*bad-cal.csv:1: not a calibration file" "$ERRF" && [ ! -s "$OUTF" ]; then
    ok "a calibration file that is not one: its line, exit 2"
else notok "a calibration file that is not one" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
{ head -n 1 "$CF"; echo "NVIDIA H200,lab02,fastr,1.2,0.01,3,4800,2026-11-29T04:55:34Z,-,a b"; } >"$W/bad-cal.csv"
run env CALIBRATION="$W/bad-cal.csv" sh tools/grader/grade "$d"
if [ "$STATUS" -eq 2 ] && grep -q "^grade: .*bad-cal.csv:2: 'fastr' is not a speed check" "$ERRF"; then ok "a calibration line with an unknown check: named, exit 2"
else notok "a calibration line with an unknown check" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
expect_usage "calibrate.sh: no RUNS folder" sh tools/grader/calibrate.sh
expect_usage "calibrate.sh: --from without files" sh tools/grader/calibrate.sh --from "$W/x"
# calibrate.sh's GPU path on a stand-in workbook: its make writes labs that print the
# fixtures' solutions runs (GPU 2: the H100's, else the H200's); two H200s are one model
if [ -f tests/fixtures/h100/lab06-solutions.csv ] && [ -f tests/fixtures/h200/lab06-solutions.csv ]; then
    FW=$W/fakewb; rm -rf "$FW" "$W/fakeruns"; mkdir -p "$FW/common" "$W/fakeruns"
    cp -R tools "$FW/tools"; cp common/csv_columns.h common/types.def "$FW/common/"
    for d in $(for l in $(lab_list); do lab_get $l folder; done); do
        [ -f "$d/exercises.cuh" ] || continue
        mkdir -p "$FW/$d/solutions"; cp "$d/exercises.cuh" "$FW/$d/"
    done
    {
        printf 'lab02 lab03 lab04 lab05 lab06:\n'
        printf '\t@mkdir -p $(BIN) && printf '"'"'#!/bin/sh\\ncase $$CUDA_VISIBLE_DEVICES in 2) s=h100 ;; *) s=h200 ;; esac\\n'
        printf 'cat "%s/tests/fixtures/$$s/$@-solutions.csv"\\n'"'"' >$(BIN)$@ && chmod +x $(BIN)$@\n' "$(pwd)"
    } >"$FW/Makefile"
    run env GRADE_GPUS="0 1 2" sh "$FW/tools/grader/calibrate.sh" "$W/fakeruns"
    ls "$W/fakeruns/calibration" >"$W/fake.ls" 2>&1
    if [ "$STATUS" -eq 0 ] && [ "$(tr '\n' ' ' <"$W/fake.ls")" = "gpus.txt nvidia-h100-80gb-hbm3 nvidia-h100-80gb-hbm3.csv nvidia-h200 nvidia-h200.csv " ] &&
        [ "$(grep -c '^grade: calibrated on ' "$ERRF")" -eq 2 ] &&
        [ "$(ls "$W/fakeruns/calibration/nvidia-h200/"lab0[2-6]-[123].csv | wc -l)" -eq 15 ] &&
        [ "$(awk -F, 'NR > 1 && $6 != 3' "$W/fakeruns/calibration/nvidia-h200.csv" | wc -l)" -eq 0 ]; then
        ok "calibrate.sh: each GPU model once (GPUs 0 1 2: an H200 twice, an H100), 3 runs of each lab kept"
    else notok "calibrate.sh: each GPU model once" "exit $STATUS; $(tr '\n' ' ' <"$W/fake.ls"); $(head -c 400 "$ERRF")"; fi
    expect_grep "calibrate.sh: the commands that repeat each run, the seed and size drawn" \
        '^lab06-2\.csv: \./lab06 --exercises --csv --seed [0-9]+ -n [0-9]+x[0-9]+ \(exit 0\)$' "$W/fakeruns/calibration/nvidia-h200/commands"
    check_width "calibrate.sh: its lines at most 100 columns" "$ERRF"
    # each run's seconds (the students' time limits), and each GPU's name (gpus.txt)
    FC=$W/fakeruns/calibration
    if [ "$(awk '$1 ~ /^lab0[2-6]$/ && $2 ~ /^[0-9]+\.[0-9][0-9]$/' "$FC/nvidia-h200/seconds" | wc -l)" -eq 15 ] &&
        [ "$(cat "$FC/gpus.txt" | tr '\n' ,)" = "0 NVIDIA H200,1 NVIDIA H200,2 NVIDIA H100 80GB HBM3," ]; then
        ok "calibrate.sh: each run's seconds kept (15), each GPU's name in gpus.txt"
    else notok "calibrate.sh: each run's seconds, gpus.txt" "$(head -n 3 "$FC/nvidia-h200/seconds"; cat "$FC/gpus.txt")"; fi
    # a run's limit: 10 x the longest calibrated run, at least 20 s, at most GRADE_TIMEOUT
    printf 'lab04 0.43\nlab04 0.55\nlab06 2.58\nlab02 9.10\n' >"$FC/nvidia-h200/seconds"
    lim() { sh tools/grader/grade_task.sh --limit "$@" 2>&1 | tr '\n' ' '; }
    for c in "lab04|NVIDIA H200||20 10 x the solution's longest run, 0.55 s on NVIDIA H200; at least 20 s " \
        "lab06|NVIDIA H200||26 10 x the solution's longest run, 2.58 s on NVIDIA H200 " \
        "lab02|NVIDIA H200||60 10 x the solution's longest run, 9.10 s on NVIDIA H200; at most GRADE_TIMEOUT, 60 s " \
        "lab06|NVIDIA H200|45|26 10 x the solution's longest run, 2.58 s on NVIDIA H200 " \
        "lab04|NVIDIA H200|5|5 10 x the solution's longest run, 0.55 s on NVIDIA H200; at least 20 s; at most GRADE_TIMEOUT, 5 s " \
        "lab03|NVIDIA H200||60 GRADE_TIMEOUT: no calibrated run of this lab on NVIDIA H200 " \
        "lab04|NVIDIA A100||60 GRADE_TIMEOUT: no calibrated run of this lab on NVIDIA A100 " \
        "lab01|||60 GRADE_TIMEOUT: no calibrated run of this lab "; do
        l=${c%%|*}; r=${c#*|}; n=${r%%|*}; r=${r#*|}; t=${r%%|*}; want=${r#*|}
        got=$(if [ -n "$t" ]; then GRADE_TIMEOUT=$t lim "$l" "$FC" "$n"; else lim "$l" "$FC" "$n"; fi)
        [ "$got" = "$want" ] || echo "$l on '$n'${t:+ (GRADE_TIMEOUT=$t)}: '$got', not '$want'"
    done >"$W/lim.bad"
    if [ ! -s "$W/lim.bad" ]; then ok "a run's limit: 10 x the longest calibrated run, 20 s to GRADE_TIMEOUT (8 cases)"
    else notok "a run's limit" "$(head -c 400 "$W/lim.bad")"; fi
    rm "$FC/nvidia-h200.csv"
    lim lab06 "$FC" "NVIDIA H200" >"$W/lim.out"
    expect_grep "a run's limit: a calibration's seconds without its file (an earlier class's) are not used" \
        '^60 GRADE_TIMEOUT' "$W/lim.out"
    run env GRADE_CALIBRATE_RUNS=x sh "$FW/tools/grader/calibrate.sh" "$W/fakeruns"
    if [ "$STATUS" -eq 2 ]; then ok "calibrate.sh: GRADE_CALIBRATE_RUNS=x is refused"; else notok "calibrate.sh: GRADE_CALIBRATE_RUNS=x" "exit $STATUS"; fi
else
    skip "calibrate.sh on a stand-in workbook" "tests/fixtures lacks h100 or h200"
fi
# the calibration draws its sizes by the students' rule (tools/grader/grade_task.sh's functions)
n=$(sh tools/grader/calibrate.sh --size lab02); s6=$(sh tools/grader/calibrate.sh --size lab06)
if [ -n "$n" ] && [ "$n" -le 16777213 ] && [ "$n" -gt 8388606 ] && [ $(( (16777213 - n) % 8 )) -eq 0 ] &&
    echo "$s6" | grep -Eq '^[0-9]+x[0-9]+$'; then ok "calibrate.sh draws sizes by the students' rule ($n, $s6)"
else notok "calibrate.sh draws sizes by the students' rule" "'$n' '$s6'"; fi

# ---- grading from sources on a stand-in GPU: the calibration's order and limits ----
# A stand-in workbook (FG): tools/gpu.sh says one NVIDIA H200; its labs log each
# run (start and end, in ns) and print the fixtures' rows (the calibration's
# lab02 takes 1 s; a student's lab02 that says HANG never ends). The
# calibration holds the GPU from the start: no student's GPU run begins before
# its last run ended, while their builds and CPU runs go on; each GPU run is
# limited by the calibration (GRADE_TIMEOUT caps it here: 4 s)
if [ -f tests/fixtures/h200/lab02-solutions.csv ] && [ -f tests/fixtures/h200/lab01-solutions.csv ]; then
    FG=$W/fakegpu; L=$W/fakegpu.log
    rm -rf "$FG" "$W/fg" "$W/fg.runs" "$L"
    mkdir -p "$FG/common" "$FG/fake" "$FG/lab01_cpu_reduce" "$FG/lab02_neighbored/solutions"
    cp -R tools "$FG/tools"; cp common/csv_columns.h common/types.def "$FG/common/"
    cp lab01_cpu_reduce/exercises.c "$FG/lab01_cpu_reduce/"
    cp lab02_neighbored/exercises.cuh "$FG/lab02_neighbored/"; cp lab02_neighbored/exercises.cuh "$FG/lab02_neighbored/solutions/"
    mv "$FG/tools/gpu.sh" "$FG/tools/cuda_gpu.sh"
    cat >"$FG/tools/gpu.sh" <<'EOS'
#!/bin/sh
case $1 in count) echo 1 ;; name) echo NVIDIA H200 ;; cc) echo 90 ;; *) exec sh "$(dirname "$0")/cuda_gpu.sh" "$@" ;; esac
EOS
    # fake/run WHO LAB SECONDS: one run, logged; SECONDS "hang": it never ends
    cat >"$FG/fake/run" <<EOS
#!/bin/sh
echo "\$1 \$2 start \$(date +%s%N) gpu=\${CUDA_VISIBLE_DEVICES:-}" >>"$L"
[ "\$3" = hang ] && exec sleep 100
sleep "\$3"
cat "$(pwd)/tests/fixtures/h200/\$2-solutions.csv"
echo "\$1 \$2 end \$(date +%s%N)" >>"$L"
EOS
    printf '#!/bin/sh\nexec sh "%s" cal lab02 1\n' "$FG/fake/run" >"$FG/fake/cal-lab02"
    printf 'lab02:\n\t@mkdir -p $(BIN) && cp fake/cal-$@ $(BIN)$@ && chmod +x $(BIN)$@\n' >"$FG/Makefile"
    printf 'student-objects checker:\n\t@mkdir -p build/checker && printf '"'"'#!/bin/sh\\nexit 0\\n'"'"' >build/checker/checker' >>"$FG/Makefile"
    printf ' && chmod +x build/checker/checker\n' >>"$FG/Makefile"
    # (the students' build: LAB EXFILE OUTDIR writes OUTDIR/LAB)
    cat >"$FG/tools/grader/build_student.sh" <<EOS
#!/bin/sh
s=0.3; grep -q HANG "\$2" && s=hang
f=\${2#"\$3"/handin/}; mkdir -p "\$3/\${f%/*}" && cp "\$2" "\$3/\$f" || exit 2
printf '#!/bin/sh\\nexec sh "%s" stu %s %s\\n' "$FG/fake/run" "\$1" "\$s" >"\$3/\$1" && chmod +x "\$3/\$1"
EOS
    for k in 1 2 3; do
        mkdir -p "$W/fg/s$k/lab01_cpu_reduce" "$W/fg/s$k/lab02_neighbored"
        cp lab01_cpu_reduce/exercises.c "$W/fg/s$k/lab01_cpu_reduce/"
        cp lab02_neighbored/exercises.cuh "$W/fg/s$k/lab02_neighbored/"
    done
    echo '// HANG' >>"$W/fg/s3/lab02_neighbored/exercises.cuh"
    run env GRADE_SANDBOX=none GRADE_TIMEOUT=4 GRADE_JOBS=3 sh "$FG/tools/grader/grade_sources.sh" "$W/fg"
    cp "$OUTF" "$W/fg.out"; cp "$ERRF" "$W/fg.err"
    # the calibration's last end, the students' first GPU start, their first CPU start
    ord=$(awk '$1 == "cal" && $3 == "end" && $4 > ce { ce = $4 }
        $1 == "stu" && $2 == "lab02" && $3 == "start" && (gs == "" || $4 < gs) { gs = $4 }
        $1 == "stu" && $2 == "lab01" && $3 == "start" && (cs == "" || $4 < cs) { cs = $4 }
        END { printf "%s %s", (ce != "" && gs > ce) ? "after" : "BEFORE", (cs != "" && cs < ce) ? "during" : "not-during" }' "$L")
    if [ "$(grep -c '^cal lab02 end' "$L")" -eq 3 ] && [ "$(grep -c '^stu lab02 start' "$L")" -eq 3 ] &&
        [ "${ord%% *}" = after ]; then
        ok "sources on a stand-in GPU: every student's GPU run after the calibration's 3 runs"
    else notok "sources on a stand-in GPU: the calibration first" "$ord: $(head -c 600 "$L") $(head -c 300 "$W/fg.err")"; fi
    if [ "${ord#* }" = during ]; then ok "sources on a stand-in GPU: a student's CPU lab ran during the calibration"
    else notok "sources on a stand-in GPU: a CPU lab during the calibration" "$ord: $(head -c 600 "$L")"; fi
    expect_grep "sources on a stand-in GPU: a GPU run's limit from the calibration" \
        "^limit 4 10 x the solution's longest run, 1\\.[0-9]+ s on NVIDIA H200; at least 20 s; at most GRADE_TIMEOUT, 4 s$" \
        "$W/fg.runs/s1/lab02.run"
    expect_grep "sources on a stand-in GPU: a hang killed at that limit, named" \
        "^lab02: ran past 4 s \\(killed\\): .*\\(the limit: 10 x the solution's longest run, 1\\.[0-9]+ s on NVIDIA H200" \
        "$W/fg.runs/s3/lab02.fail"
    expect_grep "sources on a stand-in GPU: the report gives lab02's limit" \
        "^  lab02: 4 s a run \\(10 x the solution's longest run, 1\\.[0-9]+ s on NVIDIA H200; at least 20 s; at most" "$W/fg.out"
    check_width "sources on a stand-in GPU: every line at most 100 columns" "$W/fg.out" "$W/fg.err"
else
    skip "sources on a stand-in GPU" "tests/fixtures lacks h200's lab01 and lab02"
fi

# ---- damaged and tampered files ------------------------------------------------
G=$W/good
mkdir -p "$G"
for l in 02 03 04 05 06; do tf "$SRC/lab$l-solutions.csv" "$G/lab$l.csv" -v student=1 -v fingerprint=600d00$l; done

d=$(case_dir crlf)
sed 's/$/\r/' "$G/lab06.csv" >"$d/win-lab06.csv"
grade_case "grade accepts CRLF line ends" 1 'score lab06 25/25$' "$d"

d=$(case_dir concat)
{ cat "$G/lab02.csv"; cat "$G/lab03.csv"; } >"$d/x-both.csv"
grade_case "grade reads two runs of different labs concatenated in one file" 1 'score lab03 30/30$' "$d"
expect_out "grade: both runs of a concatenated file count" 'score lab02 25/25'

d=$(case_dir failrow)
awk -F, 'BEGIN { OFS = "," } NR == 3 { $NF = "FAIL" } { print }' "$G/lab04.csv" >"$d/x-lab04.csv"
grade_case "grade fails a FAIL kernel row and names it" 1 \
    'LOST +2/4 +verified: 1 of 7 kernel rows say FAIL: reduceUnrolling2 \(line 3\)' "$d"
expect_out "grade: a FAIL kernel's time does not count" 'reduceUnrolling2 failed verification'

d=$(case_dir nocol)
cut -d, -f1-14,16- "$G/lab03.csv" >"$d/x-lab03.csv"
grade_case "grade rejects a missing column" 1 'x-lab03.csv:1: missing column\(s\): gbps' "$d"
expect_out "grade scores a rejected file 0" 'score lab03 0/30 +\(rejected\)'

d=$(case_dir renamed)
sed '1s/,gbps,/,GBps,/' "$G/lab03.csv" >"$d/x-lab03.csv"
grade_case "grade rejects a renamed column" 1 'unknown column\(s\): GBps' "$d"

d=$(case_dir order)
sed '1s/time_ms,q1_ms/q1_ms,time_ms/' "$G/lab03.csv" >"$d/x-lab03.csv"
grade_case "grade rejects columns out of order" 1 'not in the documented order' "$d"

# rejected NAME LAB AWK DESC PATTERN: LAB's fixture with AWK applied (fields
# split and joined on commas) as x-LAB.csv, which grade must reject (exit 1)
# naming PATTERN
rejected() {
    d=$(case_dir "$1")
    awk -F, -v OFS=, "$3" "$G/$2.csv" >"$d/x-$2.csv"
    grade_case "$4" 1 "$5" "$d"
}
rejected tamper lab04 'NR == 3 { $15 = sprintf("%.2f", $15 * 1.5) } 1' \
    "grade rejects a tampered gbps with file and line" 'x-lab04.csv:3: gbps [0-9.]+ does not match bytes/\(time_ms\*1e6\)'
rejected pct lab06 'NR == 5 { $16 = sprintf("%.2f", $16 + 10) } 1' \
    "grade rejects a tampered pct_of_copy" 'x-lab06.csv:5: pct_of_copy'
rejected speed lab04 'NR == 3 { $11 = sprintf("%.6f", $11 / 2); $12 = sprintf("%.6f", $12 / 2); $13 = sprintf("%.6f", $13 / 2);
                             $15 = sprintf("%.2f", $15 * 2); $16 = sprintf("%.2f", $16 * 2) } 1' \
    "grade rejects a halved time whose speedup was left alone" 'x-lab04.csv:3: speedup'
rejected exspeed lab02 '$3 == "reduceNeighboredMask" { $17 = sprintf("%.3f", $17 * 1.3) } 1' \
    "grade rejects an exercise's speedup that does not match its against-row" \
    "speedup [0-9.]+ does not match reduceNeighbored's time_ms / this time_ms"
rejected nonnum lab05 'NR == 2 { $11 = "fast" } 1' \
    "grade rejects a non-numeric field" "x-lab05.csv:2: time_ms is 'fast', not a number"
rejected bytes lab02 'NR == 2 { $4 = $4 + 1000 } 1' \
    "grade rejects bytes that do not match n and the type" 'bytes is [0-9]+ but a reduction of n ints reads 4\*n'
rejected fields lab02 'NR == 2 { $28 = $28 ",extra" } 1' \
    "grade rejects a row with a field too many" 'x-lab02.csv:2: 29 fields, the header has 28'

# the finish column (--finish host|device, labs 02-04): files with it grade as
# the fixtures without it do; a bad value is rejected
with_finish() { # SRC OUT VALUE: SRC with the finish column, VALUE on every row that has a total
    awk -F, -v OFS=, -v v="$3" 'NR == 1 { sub(/,status$/, ",finish,status") } NR > 1 { $NF = ($18 != "" ? v : "") "," $NF } 1' "$1" >"$2"
}
d=$(case_dir finish)
with_finish "$G/lab02.csv" "$d/x-lab02.csv" device
grade_case "grade reads a file with the finish column (--finish device), its own mode" 1 'score lab02\+finish=device 25/25$' "$d"
d=$(case_dir finish-mixed)
with_finish "$G/lab02.csv" "$W/finish-lab02.csv" host
cat "$G/lab03.csv" "$W/finish-lab02.csv" >"$d/x-both.csv"
grade_case "grade reads runs with and without the finish column concatenated" 1 'score lab02 25/25$' "$d"
expect_out "grade: the run without finish counts too" 'score lab03 30/30'
d=$(case_dir finish-bad)
with_finish "$G/lab02.csv" "$d/x-lab02.csv" gpu
grade_case "grade rejects a finish that is not host, device or empty" 1 "finish is 'gpu', not host, device or empty" "$d"

# the new columns, one bad value each (column, value, the message)
col_case() { # NAME COLUMN VALUE PATTERN [KERNEL]: column COLUMN of KERNEL's row (else line 2) set to VALUE
    d=$(case_dir "col-$2")
    awk -F, -v OFS=, -v c="$2" -v v="$3" -v k="${5:-}" '(k == "" && NR == 2) || (k != "" && $3 == k) { $c = v } 1' "$G/lab02.csv" >"$d/x-lab02.csv"
    grade_case "$1" 1 "$4" "$d"
}
col_case "grade rejects a type that is not int, float or double" 22 long "type is 'long', not int, float or double"
col_case "grade rejects a role that is not kernel, write or fix" 23 student "role is 'student', not kernel, write or fix"
col_case "grade rejects against on a kernel row" 24 reduceNeighboredLess "against is 'reduceNeighboredLess' on a kernel row"
col_case "grade rejects an exercise row without against" 24 "" "against is empty on an exercise row" reduceNeighboredMask
col_case "grade rejects against naming no kernel row of the file" 24 reduceNope "measured against reduceNope, but the file has no kernel row" reduceNeighboredMask
col_case "grade rejects a build it does not know" 25 sm90 "build is 'sm90', not sm_NN, fat or cpu"
col_case "grade rejects a run_at that is not UTC ISO" 26 "2026-11-23 14:05:09" "run_at is '2026-11-23 14:05:09', not a UTC date and time"
col_case "grade rejects a fingerprint that is not 8 hex digits" 27 XYZ "fingerprint is 'XYZ', not 8 lowercase hex digits"
col_case "grade rejects a status that is not PASS, FAIL or todo" 28 done "status is 'done', not PASS, FAIL or todo"
col_case "grade rejects todo on a kernel row" 28 todo "status is todo on a kernel row"
col_case "grade rejects a lab that is not one of tools/labs.conf" 1 lab5 "lab is 'lab5', not one of the labs \\(tools/labs\\.conf\\)"

d=$(case_dir todotime)
awk -F, -v OFS=, '$3 == "reduceUnrolling16" { $28 = "todo" } 1' "$G/lab04.csv" >"$d/x-lab04.csv"
grade_case "grade rejects a todo row that carries a time" 1 "time_ms is '[0-9.]+' on a todo row" "$d"

d=$(case_dir tworuns)
awk -F, -v OFS=, 'NR == 4 { $26 = "2026-11-25T00:00:00Z" } 1' "$G/lab02.csv" >"$d/x-lab02.csv"
grade_case "grade rejects two run_at in one lab of a file" 1 "run_at '2026-11-25T00:00:00Z' differs from '[0-9T:Z-]+' on line 2: one" "$d"

d=$(case_dir empty)
: >"$d/x-lab02.csv"
grade_case "grade rejects an empty file" 1 'x-lab02.csv:1: the file is empty' "$d"
expect_out "grade counts an empty labNN file against its lab" 'score lab02 0/25'

d=$(case_dir headeronly)
head -n 1 "$G/lab02.csv" >"$d/x-lab02.csv"
grade_case "grade rejects a header with no rows" 1 'the header and no data rows' "$d"

d=$(case_dir garbage)
printf 'hello\000world\n\377\376,,,\n' >"$d/junk.csv"
grade_case "grade rejects a binary file without crashing" 1 "junk.csv:1: not a lab's --csv output" "$d"

d=$(case_dir dup)
{ cat "$G/lab02.csv"; sed -n 3p "$G/lab02.csv"; } >"$d/x-lab02.csv"
grade_case "grade rejects a kernel twice at one size" 1 'appears again \(first on line 3\)' "$d"

# ---- the speed checks, on consistent but slow synthetic results -----------------
spec_case() { # NAME SPEC -> a CSV made by the fixture generator in a fresh folder
    dd=$(case_dir "$1")
    printf '%s\n' "$2" | awk -f tests/fixtures/make_fixture.awk >"$dd/x.csv"
    echo "$dd"
}
d=$(spec_case slow "lab02 reduceNeighbored 16777216 0 0 32768 512 20 0.30 0.297 0.303 - 2000 2400 PASS
lab02 reduceNeighboredLess 16777216 0 0 32768 512 20 0.28 0.277 0.283 - 2000 2400 PASS")
grade_case "grade takes points for a missed ordering (lab02: 1.07x < 1.20x)" 1 \
    'LOST +0/6 +faster: reduceNeighboredLess beats reduceNeighbored: time ratio 1.07x, needs 1.20x' "$d"

steps="reduceInterleaved reduceUnrolling2 reduceUnrolling4 reduceUnrolling8 reduceUnrollWarps8 reduceCompleteUnrollWarps8 reduceCompleteUnroll"
lab04_spec() { # the 7 steps at 0.100 ms with a 2% spread, kernel $1 at $2 ms
    for k in $steps; do
        t=0.100; [ "$k" = "$1" ] && t=$2
        echo "lab04 $k 16777216 0 0 4096 512 20 $t $(awk -v t=$t 'BEGIN { printf "%.6f %.6f", t * 0.99, t * 1.01 }') - 2000 2400 PASS"
    done
}
d=$(spec_case noise "$(lab04_spec reduceUnrolling4 0.104)")
grade_case "grade forgives a step 4% slower within noise (2% spreads + 3%)" 1 \
    'ok +1/1 +no_slower: reduceUnrolling4 is 4.0% slower than reduceUnrolling2, allowance 5.0%' "$d"
d=$(spec_case noise2 "$(lab04_spec reduceCompleteUnroll 0.120)")
grade_case "grade takes a point for a step 20% slower (allowance 2% + 5%)" 1 \
    'LOST +0/1 +no_slower: reduceCompleteUnroll is 20.0% slower than reduceCompleteUnrollWarps8,' "$d"

d=$(spec_case missing "lab06 copyRow 4194304 2048 2048 128x128 16x16 20 0.0190 0.0188 0.0192 - 1900 2400 PASS")
grade_case "grade takes points for kernels missing from the file" 1 'transposeNaiveCol is not in the file' "$d"

# ---- make results' set: a lab's int, float and double runs in one folder ---------
# tools/results.sh keeps labNN.csv, labNN-float.csv and labNN-double.csv (labs
# 02-05), lab05's three sweeps and lab06's runs side by side in results/<gpu>/
# and grades the folder: each file is a result of its own, credited to no one;
# none is set aside as a re-run of another, none is a copy, no fingerprint is
# flagged (plain --csv runs: no exercise rows), none is rejected
R=$(case_dir results-set)
for l in 01 02 03 04 05 06; do cp "$SRC/lab$l.csv" "$R/lab$l.csv"; done
cp "$SYN/lab05-sweep.csv" "$R/lab05-sweep.csv"
retype() { # IN OUT TYPE RUN_AT: IN as a run of --type TYPE at RUN_AT (double: 8 bytes an element, every time doubled, the same GB/s)
    awk -F, -v OFS=, -v ty="$3" 'NR > 1 && $1 != "lab" && $0 != "" { $22 = ty; if (ty == "double") $9 = sprintf("%.0f", 2 * $9) } { print }' \
        "$1" >"$W/retype.csv"
    tf "$W/retype.csv" "$2" -v run_at="$4" -v time_factor="$( [ "$3" = double ] && echo 2 || echo 1)"
}
for ty in float double; do
    at=2026-11-24T11:00:00Z; [ $ty = double ] && at=2026-11-24T12:00:00Z
    for l in 02 03 04 05; do retype "$SRC/lab$l.csv" "$R/lab$l-$ty.csv" $ty $at; done
    retype "$SYN/lab05-sweep.csv" "$R/lab05-sweep-$ty.csv" $ty $at
done
# and the kept H100 set's matrix run and a device-finish run (real files of
# make results: lab05 with nx and ny set, lab03 with finish = device)
for f in lab05-matrix lab03-finish; do
    [ -f "docs/results/nvidia-h100-80gb-hbm3/$f.csv" ] && cp "docs/results/nvidia-h100-80gb-hbm3/$f.csv" "$R/$f.csv"
done
grade_case "a results set (int, float, double files of a lab) grades, credited to no one" 1 \
    '^lab02-double\.csv: lab02\+double on ' "$R"
nres=$(ls "$R" | wc -l | tr -d ' '); nsc=$(grep -c '^  score ' "$OUTF")
if [ "$nsc" -eq "$nres" ]; then ok "a results set: one result per file ($nres files)"
else notok "a results set: one result per file" "$nsc score lines for $nres files"; fi
expect_no_out "a results set: nothing rejected or beyond physics" 'REJECTED|PHYSICS|^rejected files|^speeds no real run'
expect_no_out "a results set: no re-run set aside" 'set aside|^re-runs:'
expect_no_out "a results set: no copy, no shared fingerprint" 'COPY:|SAME FINGERPRINT|^identical '
expect_out "a results set: the float file's own type is graded" '^lab05-sweep-float\.csv: lab05\+float\+sweep on '
if [ -f "$R/lab05-matrix.csv" ]; then
    expect_out "a results set: the matrix run is graded as its own mode, its size NXxNY" '^lab05-matrix\.csv: lab05\+matrix on '
    nk=$(($(wc -l <"$R/lab05-matrix.csv") - 1)) # its rows: one a kernel
    expect_out "a results set: the matrix run's size" "^  n = 8192x8192: $nk kernels"
    expect_out "a results set: the device-finish run is graded as its own mode" '^lab03-finish\.csv: lab03\+finish=device on '
fi
expect_status 0 "tools/results.sh parses (sh -n)" sh -n tools/results.sh

# ---- grade's own errors ---------------------------------------------------------
d=$(case_dir nocsv)
grade_case "grade: a folder without CSV files is a usage error" 2 'grade: no \*.csv files under' "$d"
grade_case "grade: a missing folder is a usage error" 2 "is not a folder" "$W/does-not-exist"
expect_usage "grade: no folder" sh tools/grader/grade
expect_usage "grade: two folders" sh tools/grader/grade "$G" "$C"
expect_usage "grade: an unknown option" sh tools/grader/grade "$G" --xml
expect_usage "grade: FORMAT=xml" env FORMAT=xml sh tools/grader/grade "$G"
conf_case() { # NAME LINE PATTERN: grade.conf plus LINE stops the grader before any grading, exit 2
    { cat tools/grader/grade.conf; echo "$2"; } >"$W/bad.conf"
    run env GRADE_CONF="$W/bad.conf" sh tools/grader/grade "$G"
    if [ "$STATUS" -eq 2 ] && grep -q "$3" "$ERRF" && [ ! -s "$OUTF" ]; then ok "$1"
    else notok "$1" "exit $STATUS: $(head -c 300 "$ERRF") $(head -c 100 "$OUTF")"; fi
}
conf_case "grade: a typo in grade.conf names its line, exit 2" "lab02  3  fastr  a b 1.1" "bad.conf:[0-9]*: 'fastr' is not a check"
conf_case "grade: a required lab that is not a lab" "required lab1" "bad.conf:[0-9]*: 'lab1' is not a lab; required takes"
conf_case "grade: physics below 100%" "physics 50" "bad.conf:[0-9]*: physics takes one number"
conf_case "grade: keeps_up without its ratio" "lab02 2 keeps_up reduceNeighboredMask" "bad.conf:[0-9]*: keeps_up takes 2 argument"

# ---- docs/instructor.md and grade.conf agree --------------------------------------
# every check line of grade.conf is a row of the table in docs/instructor.md,
# written `| LAB | POINTS | `CHECK ARGS` |`, and the required, optional and
# physics lines are quoted there as they are
disagree=$(awk '
    FNR == NR { sub(/#.*/, ""); if (NF == 0) next
                line = $1; for (i = 2; i <= NF; i++) line = line " " $i
                want[++n] = line; next }
    { doc = doc "\n" $0 }
    END {
        for (i = 1; i <= n; i++) {
            split(want[i], t, " ")
            if (t[1] == "required" || t[1] == "optional" || t[1] == "physics" || t[1] == "set_on") pat = "`" want[i] "`"
            else { args = t[3]; for (j = 4; j in t; j++) args = args " " t[j]
                   pat = "| " t[1] " | " t[2] " | `" args "` |" }
            if (index(doc, pat) == 0) print pat
        }
    }' tools/grader/grade.conf docs/instructor.md)
if [ -z "$disagree" ]; then ok "docs/instructor.md has every line of grade.conf (checks, thresholds, points, required labs)"
else notok "docs/instructor.md and grade.conf agree" "not in the guide: $(echo "$disagree" | head -n 5 | tr '\n' ';')"; fi
# the graded class shown in docs/instructor.md is what the grader says of the test class today
sed -n '/^==== the class ====$/,$p' "$W/class.out" >"$W/class.part"
awk '/^==== the class ====$/ { on = 1 } on && /^```$/ { exit } on' docs/instructor.md >"$W/doc.part"
if [ -s "$W/doc.part" ] && cmp -s "$W/class.part" "$W/doc.part"; then
    ok "docs/instructor.md shows the test class as the grader grades it"
else
    notok "docs/instructor.md shows the test class as the grader grades it" \
        "differs (paste the class part of: sh tools/grader/grade on the test class): $(diff "$W/doc.part" "$W/class.part" | head -c 300)"
fi

# ---- tools/chart --------------------------------------------------------------
chart_case() { # NAME FILE PATTERN
    run sh tools/chart -d 2026-01-01 "$2"
    if [ "$STATUS" -ne 0 ] || [ -s "$ERRF" ]; then notok "$1" "exit $STATUS: $(head -c 300 "$ERRF")"
    elif ! head -n 1 "$OUTF" | grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' || [ "$(tail -n 1 "$OUTF")" != "</svg>" ]; then
        notok "$1" "not an SVG document: $(head -c 200 "$OUTF")"
    elif ! grep -q -- "$3" "$OUTF"; then notok "$1" "no $3 in the SVG"
    elif command -v xmllint >/dev/null 2>&1 && ! xmllint --noout "$OUTF" 2>"$W/xml.err"; then
        notok "$1" "not well-formed XML: $(head -c 300 "$W/xml.err")"
    else ok "$1"; fi
}
if [ -f "$W/live/student-lab01.csv" ]; then
    chart_case "chart: bars for ./lab01 --csv" "$W/live/student-lab01.csv" '<rect x='
else
    skip "chart: bars for ./lab01 --csv" "./lab01 not built"
fi
chart_case "chart: bars for a lab06 file with exercise rows" "$SRC/lab06-solutions.csv" 'copy ceiling = 100%'
chart_case "chart: lines for the lab05 sweep fixture" "$SYN/lab05-sweep.csv" '<polyline'
[ -f docs/results/nvidia-h100-80gb-hbm3/lab05-matrix.csv ] &&
    chart_case "chart: bars for lab05's matrix run, its size NXxNY" docs/results/nvidia-h100-80gb-hbm3/lab05-matrix.csv 'n = 8192x8192'
sed '2s/,reduceGmem,/,reduce<Gmem>\&,/' "$SYN/lab05-sweep.csv" >"$W/sweep&<.csv"
chart_case "chart: names with & and < are escaped" "$W/sweep&<.csv" '&lt;'
run sh tools/chart "$W/nocsv-dir-does-not-exist.csv"
if [ "$STATUS" -eq 2 ] && grep -q '^chart: cannot read' "$ERRF"; then ok "chart: a missing file is a usage error"
else notok "chart: a missing file" "exit $STATUS: $(head -c 200 "$ERRF")"; fi
run sh tools/chart "$W/nocol/x-lab03.csv"
if [ "$STATUS" -eq 1 ] && grep -q "^chart: .*no column 'gbps'" "$ERRF" && [ ! -s "$OUTF" ]; then ok "chart: a CSV missing a column is refused"
else notok "chart: a CSV missing a column" "exit $STATUS: $(head -c 200 "$ERRF")"; fi

# ---- tools/profile.sh and tools/sanitize.sh without a GPU: their own errors ---
expect_usage "profile.sh: no lab" sh tools/profile.sh
expect_usage "profile.sh: lab01 has no GPU kernels" sh tools/profile.sh lab01
expect_usage "profile.sh: an unknown lab" sh tools/profile.sh lab99
expect_usage "sanitize.sh: no lab" sh tools/sanitize.sh
run env COMPUTE_SANITIZER=/bin/true sh tools/sanitize.sh lab99
if [ "$STATUS" -eq 1 ] && grep -q 'FAIL  lab99  memcheck   ./lab99 is missing' "$OUTF" && grep -q '^sanitize: 4 of 4 lab x tool checks FAILED: lab99(missing)' "$OUTF"; then
    ok "sanitize.sh: a missing lab binary fails and is named"
else
    notok "sanitize.sh: a missing lab binary" "exit $STATUS: $(head -c 400 "$OUTF")"
fi
# stand_in NAME BODY: $W/NAME.sh, a stand-in for a tool that runs the shell
# BODY (which may exit first), then logs its arguments to $W/NAME.log (emptied)
stand_in() {
    printf '#!/bin/sh\n%s\necho "$@" >>"%s"\n' "$2" "$W/$1.log" >"$W/$1.sh"
    chmod +x "$W/$1.sh"
    : >"$W/$1.log"
}
# not_listed NAME: the first three names that $W/NAME.log's command lines
# gave -k and that are not in $W/NAME.names (the lab's --list)
not_listed() {
    sed -n 's/.* -k \([^ ]*\).*/\1/p' "$W/$1.log" | tr ',' '\n' | grep -Fvx -f "$W/$1.names" | head -n 3
}
# which kernels it hands to the tool: lab03 (when built) under a stand-in
# compute-sanitizer that logs its arguments. Every -k name is a kernel of
# ./lab03 --list (not a word of a wrapped description); the kernels that
# launch from the device run under memcheck, and racecheck, synccheck and
# initcheck (which refuse such a program) get lab03 built without dynamic
# parallelism, build/nocdp/lab03, or a FAIL that says how to build it.
if [ -x ./lab03 ]; then
    stand_in cs '[ "$1" = --version ] && { echo "Version stand-in"; exit 0; }'
    run env COMPUTE_SANITIZER="$W/cs.sh" sh tools/sanitize.sh lab03
    ./lab03 --list | awk '/^[A-Za-z]/ && !/^exercises in / { print $1 }' >"$W/cs.names"
    bad=$(not_listed cs)
    want=1; [ -x build/nocdp/lab03 ] && want=0
    if [ "$STATUS" -eq $want ] && [ -s "$W/cs.log" ] && [ -z "$bad" ]; then ok "sanitize.sh: every -k name is a kernel of --list"
    else notok "sanitize.sh: every -k name is a kernel of --list" "exit $STATUS (want $want); not kernels: $bad"; fi
    if grep -- '--tool memcheck' "$W/cs.log" | grep -q '\./lab03 .*gpuRecursiveReduce' &&
        ! grep -E -- '--tool (racecheck|synccheck|initcheck)' "$W/cs.log" | grep -q 'gpuRecursive\|\./lab03 '; then
        ok "sanitize.sh: gpuRecursive* under memcheck; racecheck, synccheck, initcheck never on the -rdc build"
    else notok "sanitize.sh: the dynamic-parallelism kernels" "$(grep -E 'gpuRecursive|\./lab03 ' "$W/cs.log" | head -c 300)"; fi
    if [ $want -eq 0 ]; then
        if [ "$(grep -cE -- '--tool (racecheck|synccheck|initcheck) .*build/nocdp/lab03 ' "$W/cs.log")" -gt 0 ]; then
            ok "sanitize.sh: racecheck, synccheck, initcheck run build/nocdp/lab03"
        else notok "sanitize.sh: racecheck, synccheck, initcheck run build/nocdp/lab03" "$(head -c 300 "$W/cs.log")"; fi
    elif [ "$(grep -cE '^FAIL  lab03 +(racecheck|synccheck|initcheck) .*build/nocdp/lab03, the build without dynamic parallelism, is missing \(make sanitize builds it\)' "$OUTF")" -eq 3 ]; then
        ok "sanitize.sh: without build/nocdp/lab03, racecheck, synccheck, initcheck FAIL and say how to build it"
    else notok "sanitize.sh: without build/nocdp/lab03" "$(grep '^FAIL' "$OUTF" | head -c 400)"; fi
else
    skip "sanitize.sh: the kernels it runs" "./lab03 is not built"
fi
# the same for profile.sh: lab05 (when built), whose --list wraps two lines
if [ -x ./lab05 ]; then
    stand_in ncu 'case "$*" in *query-metrics*) exit 1 ;; esac'
    run env NCU="$W/ncu.sh" sh tools/profile.sh lab05
    ./lab05 --list | awk '/^$/ { exit } /^[A-Za-z]/ { print $1 }' >"$W/ncu.names"
    bad=$(not_listed ncu)
    if grep -q -- ' -k ' "$W/ncu.log" && [ -z "$bad" ]; then ok "profile.sh: every -k name is a kernel of --list"
    else notok "profile.sh: every -k name is a kernel of --list" "exit $STATUS; not kernels: $bad"; fi
else
    skip "profile.sh: the kernels it profiles" "./lab05 is not built"
fi
exit 0
