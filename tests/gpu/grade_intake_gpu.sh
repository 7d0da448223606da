#!/bin/sh
# tests/gpu/grade_intake_gpu.sh - make grade SOURCES=dir on a machine with a GPU,
# the hand-ins as courses collect them (POSIX sh). Run by hand from the
# repository root (it needs the solutions: not in a handout):
#
#   sh tests/gpu/grade_intake_gpu.sh        ok/FAIL lines; KEEP=dir keeps the class
#
# The class, in a folder whose path holds blanks and a marker that no
# student's feedback may show:
#   sol         (a) every lab's solution, in the workbook's layout
#   Ann Lee_12_assignsubmission_file_
#               (b) a course site's folder: lab01's and lab02's solutions as
#               loose files with names of their own (placed by their contents)
#   Bo Ng_34_assignsubmission_file_
#               (b) make submit's archive of every lab's solution
#   cleo        (c) a clone of the workbook: the stubs as handed out
#   zdan        (a) lab02's stub with a line that does not compile, and his secret
#   eve         (a) lab02's file a link to a file outside the class: refused
# Checks: every student a row; the three solutions students every point of
# the calibrated maximum of the labs they handed in; a feedback file each,
# with each lab's score, the GPU and the calibration, the command that
# repeats the run, where their kernels stand in the class, nothing of
# another's, no path of this machine; report.html beside report.txt, checked
# in chromium where it is installed (tests/tools/page.sh).
own_tmpd=0
[ -z "${TMPD:-}" ] && own_tmpd=1
. tests/lib.sh
. tests/tools/page.sh
[ $own_tmpd -eq 1 ] && trap 'rm -rf "$TMPD"' EXIT
if ! ls -d lab0*_*/solutions >/dev/null 2>&1; then
    skip "hand-ins as courses collect them, on the GPU" "no solutions here (a students' copy)"; exit 0
fi
if ! has_gpu; then skip "hand-ins as courses collect them, on the GPU" "no usable GPU"; exit 0; fi

W="$TMPD/gpu MARKERg5 x"
C=$W/class
mkdir -p "$C"
sh tools/grader/grade_task.sh --labs . >"$TMPD/labs"
sol() { sed 's|"\.\./|"|' "$(dirname "$1")/solutions/$(basename "$1")"; }
# (a)
while read -r _ f; do mkdir -p "$C/sol/${f%/*}"; sol "$f" >"$C/sol/$f"; done <"$TMPD/labs"
# (b) loose files
AN="$C/Ann Lee_12_assignsubmission_file_"
mkdir -p "$AN"
sol lab01_cpu_reduce/exercises.c >"$AN/cpu reduce.c"
sol lab02_neighbored/exercises.cuh >"$AN/lab2-final.cuh"
# (b) make submit's archive, made by make submit in a copy holding the solutions as exercise files
WB=$W/bo-copy
mkdir -p "$WB/tools/grader"
cp tools/grader/handin.sh tools/grader/grade_task.sh "$WB/tools/grader/" && cp tools/labs.sh tools/labs.conf "$WB/tools/"
while read -r _ f; do mkdir -p "$WB/${f%/*}"; sol "$f" >"$WB/$f"; done <"$TMPD/labs"
(cd "$WB" && sh tools/grader/handin.sh --sources bo >/dev/null)
mkdir -p "$C/Bo Ng_34_assignsubmission_file_" && cp "$WB/handin/bo-sources.tar" "$C/Bo Ng_34_assignsubmission_file_/"
# (c) a clone
mkdir -p "$C/cleo"
git archive HEAD | (cd "$C/cleo" && tar -xf -)
mkdir -p "$C/cleo/.git" && rm -rf "$C/cleo"/lab0*/solutions
# zdan: does not compile; eve: a link
mkdir -p "$C/zdan/lab02_neighbored" "$C/eve/lab02_neighbored"
sed '0,/WB_TODO();/s//DANSECRET is not CUDA;/' lab02_neighbored/exercises.cuh >"$C/zdan/lab02_neighbored/exercises.cuh"
echo "EVESECRET outside the class" >"$W/outside.cuh"
ln -s "$W/outside.cuh" "$C/eve/lab02_neighbored/exercises.cuh"

t0=$(awk 'BEGIN { srand(); print srand() }')
run sh tools/grader/grade_sources.sh "$C"
t1=$(awk 'BEGIN { srand(); print srand() }')
cp "$OUTF" "$TMPD/report.txt"; cp "$ERRF" "$TMPD/progress.txt"
grep '^grade: ' "$ERRF"
echo "graded in $((t1 - t0)) s on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
G=$C.report/gradebook.csv
ids=$(awk -F, 'NR > 1 { printf "%s ", $1 }' "$G" 2>/dev/null)
if [ "$STATUS" -eq 1 ] && [ "$ids" = "Ann_Lee_12 Bo_Ng_34 cleo eve sol zdan " ]; then
    ok "intake on the GPU: (a), (b) loose files, (b) make submit, (c) a clone, every student a row"
else notok "intake on the GPU: the class" "exit $STATUS; '$ids'; $(tail -c 400 "$ERRF")"; fi
# the solutions students: every point (the gradebook's total is its max, no lab left
# ungraded by a node fault)
for s in sol Bo_Ng_34; do
    if awk -F, -v s="$s" '$1 == s { f = 1; exit !($(NF - 3) == $(NF - 2) && $(NF - 2) > 0 && $0 !~ /node fault/) }
        END { if (!f) exit 1 }' "$G"
    then ok "$s: the solutions earn every point"
    else notok "$s: the solutions earn every point" "$(grep "^$s," "$G")"; fi
done
if awk -F, 'NR == 1 { for (i = 2; i <= NF; i++) c[$i] = i } $1 == "Ann_Lee_12" { exit !($c["lab01"] == 25 && $c["lab02"] == 25) }' "$G"
then ok "(b) loose files placed by their contents: lab01 and lab02 every point"
else notok "(b) loose files" "$(grep '^Ann_Lee_12' "$G")"; fi
expect_grep "(c) a clone: the stubs build and run (lab01 10)" '^cleo +10 ' "$TMPD/report.txt"
expect_grep "a link: refused, named in the report" '^  eve: lab02_neighbored/exercises\.cuh: a symbolic link' "$TMPD/report.txt"
FB=$C.feedback
nfb=$(ls "$FB" 2>/dev/null | grep -c '\.md$')
if [ "$nfb" -eq 6 ] && [ -s "$C.report/report.html" ] && [ -s "$C.report/report.txt" ]; then
    ok "a feedback file per student (6), report.html beside report.txt"
else notok "the feedback and the page" "$nfb files; $(ls "$C.report" 2>&1 | tr '\n' ' ')"; fi
leak=$(grep -l -e MARKERg5 -e "$TMPD" -e "$(pwd)" -e EVESECRET "$FB"/*.md 2>/dev/null)
if [ -z "$leak" ]; then ok "feedback: no path of this machine, nothing read through the link"
else notok "feedback: no path of this machine" "$leak"; fi
other=$(for f in "$FB"/*.md; do case $f in */zdan.md) ;; *) grep -l -e DANSECRET -e zdan "$f" ;; esac; done)
if [ -z "$other" ] && grep -q 'DANSECRET' "$(md_joined "$FB/zdan.md")"; then ok "feedback: a student's compile error only in their own file"
else notok "feedback: nothing of another student's" "$other"; fi
expect_grep "feedback: the command that repeats the run" '^    \./lab02 --exercises --seed [0-9]+ -n [0-9]+' "$(md_joined "$FB/sol.md")"
expect_grep "feedback: the GPU and the calibration" '^It ran on .*; the speed each check asks for was set by the instructor.s solutions run on ' "$(md_joined "$FB/sol.md")"
expect_grep "feedback: where the kernel stands in the class" '^- reduceNeighboredMask: [0-9.]+x .*of the [0-9]+ others? in the class' "$(md_joined "$FB/sol.md")"
check_width "every line at most 100 columns" "$OUTF" "$ERRF"
ncol=$(head -n 1 "$G" | awk -F, '{ print NF - 5 }')
# each exercise with a speed check a chart: sol and Bo pass them all, Ann lab02's too
nk=$(awk '$3 == "keeps_up"' tools/grader/grade.conf | wc -l | tr -d ' ')
page_check "$C.report/report.html" 6 "$ncol" "$nk" $((2 * nk + 1))
[ -n "${KEEP:-}" ] && cp -R "$W" "$KEEP"
exit 0
