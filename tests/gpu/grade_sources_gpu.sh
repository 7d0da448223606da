#!/bin/sh
# tests/gpu/grade_sources_gpu.sh - make grade SOURCES=dir on a machine with a GPU:
# a test class of five students graded from their exercise files (POSIX sh).
# Run from the repository root (it needs the solutions: not in a handout):
#
#   sh tests/gpu/grade_sources_gpu.sh                 the class below, ok/FAIL lines
#   BENCH=30 sh tests/gpu/grade_sources_gpu.sh        30 students x 6 labs, timed
#
#   solutions  every lab from the instructor's solutions, as a student's files
#   handout    every lab's file as handed out (stubs untouched)
#   broken     lab02's file with a line that does not compile
#   hang       lab04's file with a kernel that never ends (killed at its calibrated
#              limit: 10 x the solution's longest lab04 run here, at least 20 s)
#   oob        lab02's file with a kernel that writes far out of bounds
#
# BENCH=N: N students: one broken, one oob, one hang, the six lab02 cheats
# of tests/cheats/ (lab02 only), the rest cycling through solutions and
# handout; prints the seconds for the class and per student, the students'
# build seconds and run seconds summed apart (their sources.txt), and each
# lab's longest build and run (the .run files). On an H200, BENCH=30 must
# take at most 180 s (issue 36's goal).
#
# The speed bars and the runs' time limits are calibrated on this GPU first
# (tools/grader/calibrate.sh: the solutions, three runs a lab, holding the GPU
# while the students build): every GPU run's limit comes from it, the hang
# is killed at its lab's limit, every solutions student earns every point of
# the calibrated maximum, the report prints the calibration, and the runs
# graded again with a grade.conf whose lab02 bar is above what the solution
# reaches (keeps_up reduceNeighboredMask 9.00) show that check worth 0, with
# its message (tests/tools/calibration_checks.sh; tests/tools/grader.sh runs
# the same checks on runs made from the fixtures).
own_tmpd=0
[ -z "${TMPD:-}" ] && own_tmpd=1
. tests/lib.sh
. tests/tools/calibration_checks.sh
. tools/labs.sh
[ $own_tmpd -eq 1 ] && trap 'rm -rf "$TMPD"' EXIT
if ! ls -d lab0*_*/solutions >/dev/null 2>&1; then
    skip "grading from sources on the GPU" "no solutions here (a students' copy)"; exit 0
fi
if ! has_gpu; then skip "grading from sources on the GPU" "no usable GPU"; exit 0; fi

S=$TMPD/class
rm -rf "$S" "$S.runs"
# the labs' exercise files (tools/labs.conf), and how many labs run on the GPU
sh tools/grader/grade_task.sh --labs . >"$TMPD/labs"
ngl=$(while read -r l f; do lab_has "$l" device gpu && echo "$l"; done <"$TMPD/labs" | wc -l | tr -d ' ')
# student NAME KIND: NAME's folder with every lab's file, from the solutions or the stubs
student() {
    while read -r _ f; do
        mkdir -p "$S/$1/$(dirname "$f")"
        if [ "$2" = solutions ]; then
            sed 's|"\.\./|"|' "$(dirname "$f")/solutions/$(basename "$f")" >"$S/$1/$f"
        else cp "$f" "$S/$1/$f"; fi
    done <"$TMPD/labs"
}
# one_lab NAME FILE SED [PREFIX]: NAME hands in FILE only, the stub changed by SED
one_lab() {
    mkdir -p "$S/$1/$(dirname "$2")"
    { [ -n "${4:-}" ] && echo "$4"; sed "$3" "$2"; } >"$S/$1/$2"
}
E2=lab02_neighbored/exercises.cuh
E4=lab04_unroll/exercises.cuh
BROKEN='0,/WB_TODO();/s//this is not CUDA;/'
# (spins on the input, which never holds that value: a loop the compiler must keep)
HANG='0,/WB_TODO();/s//while (*(volatile int *)g_idata != -7) { }/'
OOB='0,/WB_TODO();/s//wb_oob[threadIdx.x + blockIdx.x * 1048576u] = 1;/'
n=${BENCH:-0}
if [ "$n" -gt 0 ]; then
    ./lab02 --exercises --csv -r 3 >"$TMPD/run02.csv" 2>/dev/null
    awk -F, -v OFS=, -f tests/cheats/stored.awk "$TMPD/run02.csv" "$TMPD/run02.csv" >"$TMPD/stored02.csv"
    sh tests/cheats/make_cheats.sh lab02 "$S" "$TMPD/stored02.csv" \
        "$(sed 's|"\.\./|"|' lab02_neighbored/solutions/exercises.cuh | cksum | awk '{ printf "%08x", $1 }')"
    i=0
    while [ $i -lt $((n - 9)) ]; do
        i=$((i + 1)); k=solutions; [ $((i % 2)) -eq 0 ] && k=handout
        student "$(printf 's%02d' $i)-$k" $k
    done
else
    student solutions solutions
    student handout handout
fi
one_lab broken "$E2" "$BROKEN"
one_lab hang "$E4" "$HANG"
one_lab oob "$E2" "$OOB" "__device__ int wb_oob[4];"

t0=$(awk 'BEGIN { srand(); print srand() }')
run sh tools/grader/grade_sources.sh "$S"
t1=$(awk 'BEGIN { srand(); print srand() }')
cp "$OUTF" "$TMPD/report.txt"; cp "$ERRF" "$TMPD/progress.txt"
grep '^grade: ' "$ERRF"
nst=$(ls "$S" | wc -l | tr -d ' ')
for f in "$S.runs"/*/*.run; do
    [ -f "$f" ] && printf '%s %s %s\n' "$(basename "$f" .run)" "$(sed -n 's/^build //p' "$f")" "$(sed -n 's/^seconds //p' "$f")"
done | awk '$2 > bmax[$1] { bmax[$1] = $2 } $3 > max[$1] { max[$1] = $3 } { n[$1]++ }
    END { for (l in n) printf "%s: %d runs, the longest build %.1f s, the longest run %d s\n", l, n[l], bmax[l], max[l] }' |
    sort
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
secs=$((t1 - t0))
echo "class of $nst students graded from sources in $secs s" \
     "($(awk -v t=$secs -v n="$nst" 'BEGIN { printf "%.1f", t / n }') s a student)" \
     "on $name x $(nvidia-smi -L | grep -c '^GPU')"
# the students' builds and runs, summed apart (each sources.txt: `seconds: build B s, run R s`)
cat "$S.runs"/*/sources.txt 2>/dev/null | awk '$1 == "seconds:" { b += $3; r += $6 }
    END { printf "summed over the students: builds %.1f s, runs %.1f s\n", b, r }'
sed -n 's/^grade: workbook built in \([0-9]*\) s;.*/the workbook built in \1 s (the students built from then on)/p
    s/^grade: calibration in \([0-9]*\) s:.*/the GPU calibrated in \1 s from the start (then the students ran)/p' "$ERRF"
if [ "$n" -gt 0 ]; then
    case $name in
        *H200*) if [ "$secs" -le $((180 * nst / 30)) ]; then ok "BENCH: $nst students in $secs s on an H200 (at most $((180 * nst / 30)))"
                else notok "BENCH: $nst students on an H200 in at most $((180 * nst / 30)) s" "$secs s"; fi ;;
    esac
fi
if [ "$STATUS" -eq 1 ] && grep -q '^==== the class ====$' "$OUTF"; then ok "sources on the GPU: graded (exit 1)"
else notok "sources on the GPU: graded" "exit $STATUS: $(tail -c 400 "$ERRF")"; fi
# the calibration: one file per GPU model, every GPU lab measured three times
CF=$(ls "$S.runs"/calibration/*.csv 2>/dev/null | head -n 1)
gpu=$(sed -n '2s/,.*//p' "$CF" 2>/dev/null)
if [ -n "$gpu" ] && [ "$(awk -F, 'NR > 1 && $3 != "fastest" && $6 != 3' "$CF" | wc -l)" -eq 0 ] &&
    [ "$(ls "$S.runs/calibration/"*/*-[123].csv | wc -l)" -eq $((3 * ngl)) ]; then
    ok "calibration: $gpu, the solutions' $((3 * ngl)) runs kept in $(basename "$S.runs")/calibration/"
else notok "calibration" "'$CF' '$gpu': $(grep 'calibrat' "$ERRF" | head -c 400)"; fi
awk '/^==== the class ====$/ { on = 1 } on && /^speed bars|^  lab0|^  physics/' "$OUTF" | head -n 40
cal_printed "the report prints the calibration of $gpu" "$OUTF" "$gpu"
cal_full "solutions: every lab earns every point of the calibrated maximum" "$OUTF" 'solutions$'
if [ "$n" -eq 0 ]; then
    if grep -q '^  handout lab' "$OUTF"; then notok "handout: every lab builds and runs" "$(grep '^  handout lab' "$OUTF")"
    else ok "handout: every lab builds and runs"; fi
    expect_grep "handout: the stubs earn the kernels' points (lab01 10)" '^handout +10 ' "$OUTF"
fi
expect_grep "broken: lab02 does not compile, 0, with the compiler's error" '^  broken lab02: does not compile' "$OUTF"
expect_grep "broken: the compiler's first error line in the report" '^  \| lab02_neighbored/exercises\.cuh\([0-9]+\): error' "$OUTF"
expect_grep "hang: lab04 ran past the limit, 0" '^  hang lab04: ran past [0-9]+ s \(killed\)' "$OUTF"
# the runs' limits: every GPU lab's from the calibration (it ended before any GPU run began),
# the hang killed at lab04's (not at GRADE_TIMEOUT), the report gives each lab's once
nocal=$(for f in "$S.runs"/*/lab0[2-6].run; do
    grep -q "^limit [0-9]* 10 x the solution's longest run, [0-9.]* s on $gpu" "$f" || echo "${f#"$S.runs"/}"; done)
if [ -z "$nocal" ]; then ok "every GPU run's limit from the calibration of $gpu, made before it"
else notok "every GPU run's limit from the calibration" "$(echo $nocal | head -c 200): $(grep -h '^limit' \
    "$S.runs/$(echo $nocal | cut -d' ' -f1)" | head -c 200)"; fi
hl=$(sed -n 's/^limit \([0-9]*\) .*/\1/p' "$S.runs/hang/lab04.run")
hs=$(sed -n 's/^seconds //p' "$S.runs/hang/lab04.run")
if [ -n "$hl" ] && grep -q "^  hang lab04: ran past $hl s (killed)" "$OUTF" && [ "$hl" -ge 20 ] &&
    [ "$hl" -le "${GRADE_TIMEOUT:-60}" ] && [ "$hs" -ge "$hl" ] && [ "$hs" -le $((hl + 11)) ]; then
    ok "hang: killed at lab04's calibrated limit, $hl s (it held the GPU $hs s)"
else notok "hang: killed at lab04's calibrated limit" "limit '$hl', held '$hs' s: $(grep '^  hang lab04' "$OUTF")"; fi
nlim=$(grep -c "^  lab0[2-6]: [0-9]* s a run (10 x the solution's longest run, [0-9.]* s on $gpu" "$OUTF")
if [ "$nlim" -eq "$ngl" ]; then ok "the report gives each GPU lab's limit once ($ngl)"
else notok "the report gives each GPU lab's limit once" "$nlim lines for $ngl labs: $(grep ' s a run ' "$OUTF" | head -c 300)"; fi
grep ' s a run ' "$OUTF"
expect_grep "oob: lab02 a CUDA error (exit 3), 0" '^  oob lab02: a CUDA error or no usable CUDA device \(exit 3\)' "$OUTF"
expect_grep "oob: the class went on after it" '^oob +missing +0 ' "$OUTF"
check_width "every line at most 100 columns" "$OUTF" "$ERRF"
# the same runs graded again with a bar above what the solution reaches here: worth 0, said
sed 's/^\(lab02 .*keeps_up *reduceNeighboredMask *\)[0-9.][0-9.]*/\19.00/' tools/grader/grade.conf >"$TMPD/hi.conf"
run env GRADE_CONF="$TMPD/hi.conf" sh tools/grader/grade "$S.runs"
cal_worth0 "a bar above the solution (9.00x) is worth 0 on $gpu, with the solution's figure" \
    "$OUTF" "$gpu" lab02 "keeps_up reduceNeighboredMask"
grep 'not gradable' "$OUTF" | head -n 2
cal_full "... the solutions students still earn every point of the lower maximum" "$OUTF" 'solutions$'
[ -n "${KEEP_REPORT:-}" ] && cp "$TMPD/report.txt" "$KEEP_REPORT"
exit 0
