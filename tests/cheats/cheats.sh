#!/bin/sh
# tests/cheats/cheats.sh - a class of cheating students graded from sources
# (make grade SOURCES=dir): none may earn the forged lab's points, and the
# honest students keep their grades, unflagged (POSIX sh; from the
# repository root).
#
#   sh tests/cheats/cheats.sh lab01     on the CPU (tests/run's CPU suite)
#   sh tests/cheats/cheats.sh lab02     on a GPU (tests/gpu/gpu_cheats.sh)
#
# The class: good (the solutions, where this copy has them), stub (the file
# as handed out) and the six cheats of tests/cheats/make_cheats.sh, built on
# the stub, each forging every row PASS. Then the checks that hold only
# because the checker decides: the forged files, graded as plain hand-ins
# (no checker), do earn exercise points; an honest run whose rows the lab
# (or anyone) marked PASS earns nothing the checker did not verify; a CSV
# without the grader's record earns nothing.
own_tmpd=0
[ -z "${TMPD:-}" ] && own_tmpd=1
. tests/lib.sh
[ $own_tmpd -eq 1 ] && trap 'rm -rf "$TMPD"' EXIT
lab=${1:-lab01}
case $lab in
    lab01) ld=lab01_cpu_reduce; ext=c; len=100003 ;;
    lab02) ld=lab02_neighbored; ext=cuh; len=1000003 ;;
    *) echo "cheats.sh: lab01 or lab02" >&2; exit 2 ;;
esac
if [ ! -x "./$lab" ]; then skip "cheats ($lab)" "./$lab is not built"; exit 0; fi
if [ "$lab" != lab01 ] && ! has_gpu; then skip "cheats ($lab)" "no usable GPU"; exit 0; fi

C=$TMPD/cheats-$lab
rm -rf "$C" "$C.runs" "$C.hand"
mkdir -p "$C/stub/$ld" "$C.hand"
cp "$ld/exercises.$ext" "$C/stub/$ld/"
honest="stub"
if [ -f "$ld/solutions/exercises.$ext" ]; then
    mkdir -p "$C/good/$ld"
    sed 's|"\.\./|"|' "$ld/solutions/exercises.$ext" >"$C/good/$ld/exercises.$ext"
    honest="good stub"
    victim=$C/good/$ld/exercises.$ext
else
    victim=$C/stub/$ld/exercises.$ext
fi
# the stored run the replays print: this workbook's own run, its exercises made PASS
./$lab --exercises --csv -n $len -r 3 >"$TMPD/run.csv" 2>/dev/null
awk -F, -v OFS=, -f tests/cheats/stored.awk "$TMPD/run.csv" "$TMPD/run.csv" >"$TMPD/stored.csv"
if ! sh tests/cheats/make_cheats.sh "$lab" "$C" "$TMPD/stored.csv" \
    "$(cksum <"$victim" | awk '{ printf "%08x", $1 }')"; then
    notok "cheats ($lab): the cheating students are written" "make_cheats.sh failed"; exit 0
fi
kinds="static ctor atexit printf replay framer"

run env GRADE_TIMEOUT=60 GRADE_LENGTH=$len GRADE_RUN_ARGS="-r 3" sh tools/grade_sources.sh "$C"
cp "$OUTF" "$TMPD/report.txt"
R=$TMPD/report.txt
if [ "$STATUS" -eq 1 ] && grep -q '^==== the class ====$' "$R"; then ok "cheats ($lab): the class is graded (exit 1)"
else notok "cheats ($lab): the class is graded" "exit $STATUS: $(tail -c 400 "$ERRF")"; fi

# cell WHO: WHO's score for the lab in the class table
cell() {
    awk -v who="$1" -v lab="$lab" '$1 == "student" { for (i = 2; i <= NF; i++) if ($i == lab) c = i; next }
        c && $1 == who { print $c; exit }' "$R"
}
for k in $kinds; do
    got=$(cell "cheat-$k")
    if [ "$got" = 0 ]; then ok "cheats ($lab): cheat-$k earns nothing for $lab"
    else notok "cheats ($lab): cheat-$k earns nothing for $lab" "it got '$got': $(grep -A12 "^cheat-$k/" "$R" | head -c 600)"; fi
done
# what stops each: the checker, the duplicated rows, the grader's own fingerprint
# (sec KIND: cheat-KIND's report, into $TMPD/sec)
sec() { sed -n "/^cheat-$1\/$lab\./,/^  score /p" "$R" >"$TMPD/sec"; }
sec static
expect_grep "cheats ($lab): a static initializer's PASS rows: the checker finds their results wrong" \
    "^  CHECKER  .*: the lab said PASS; result [0-9]+, expected [0-9]+" "$TMPD/sec"
sec ctor
expect_grep "cheats ($lab): a constructor's CSV without results: no row verified" \
    "^  CHECKER  .*: the lab said PASS; the file has no result column" "$TMPD/sec"
sec replay
expect_grep "cheats ($lab): a replay at another size and seed: no row verified" \
    "^  CHECKER  .*: the lab said PASS; (size [0-9]+; the grader ran|result [0-9]+, expected)" "$TMPD/sec"
expect_grep "cheats ($lab): the framer's stolen fingerprint is not its file's: rejected" \
    "^  cheat-framer/$lab\.csv \(cheat-framer\): fingerprint '[0-9a-f]{8}' is not [0-9a-f]{8}, the cksum of" "$R"
# (a device printf cannot print the program's fingerprint: its rows are rejected for that first)
for k in atexit printf; do
    expect_grep "cheats ($lab): cheat-$k's forged rows: rejected (duplicated, or not its build's fingerprint)" \
        "^  cheat-$k/$lab\.csv \(cheat-$k\): (.* appears again|fingerprint '[0-9a-f]{8}' is not)" "$R"
done
for k in static ctor atexit replay framer; do
    expect_grep "cheats ($lab): the tripwire flags cheat-$k" "^  cheat-$k: .*tripwire $lab \(" "$R"
done

# the honest students: every point they earn alone, no flag but the labs they did not hand in
for h in $honest; do
    fl=$(awk -v who="$h" '/^flags \(read them/ { on = 1; next } on && /^$/ { on = 0 } on && $1 == who ":" { sub(/^ *[^:]*: /, ""); print }' "$R" |
        tr ';' '\n' | sed 's/^ *//' | grep -v '^missing ' | grep . | head -n 3)
    if [ -z "$fl" ]; then ok "cheats ($lab): honest $h is not flagged"
    else notok "cheats ($lab): honest $h is not flagged" "$fl"; fi
done
if grep -q 'SAME FINGERPRINT\|COPY:' "$R"; then notok "cheats ($lab): no one is called a copier" "$(grep 'SAME FINGERPRINT\|COPY:' "$R" | head -n 2)"
else ok "cheats ($lab): no one is called a copier (the framer's fingerprint is not the grader's)"; fi
if echo "$honest" | grep -q good; then
    max=$(awk -v lab="$lab" '$1 == "student" { for (i = 2; i <= NF; i++) if ($i == lab) c = i; next } $1 == "(max)" { print $c; exit }' "$R")
    got=$(cell good)
    # lab02's speed checks can miss on a busy GPU; its exercises and verified rows cannot
    if [ "$lab" = lab01 ]; then
        if [ "$got" = "$max" ]; then ok "cheats ($lab): the solutions earn every point ($max)"
        else notok "cheats ($lab): the solutions earn every point" "$got of $max"; fi
    else
        sed -n "/^good\/$lab\./,/^  score /p" "$R" >"$TMPD/sec"
        if grep -q '^  ok .*verified: all' "$TMPD/sec" && ! grep -q '^  LOST .*\(verified\|done\|FAIL\)' "$TMPD/sec"; then
            ok "cheats ($lab): the solutions: every row verified, every exercise done"
        else notok "cheats ($lab): the solutions: every row verified, every exercise done" "$(head -c 600 "$TMPD/sec")"; fi
    fi
fi

# without the checker the forgeries would pay: the same files graded as plain hand-ins
for k in static ctor; do
    cp "$C.runs/cheat-$k/$lab.csv" "$C.hand/cheat$k-$lab.csv" 2>/dev/null
done
run sh tools/grade "$C.hand"
for k in static ctor; do
    if grep -A20 "^cheat$k-$lab\.csv" "$OUTF" | grep -q '^  ok .*done: '; then
        ok "cheats ($lab): without the checker, cheat-$k's file would earn exercise points"
    else notok "cheats ($lab): without the checker, cheat-$k's file would earn exercise points" \
        "$(grep -A12 "^cheat$k-$lab\.csv" "$OUTF" | head -c 500)"; fi
done

# the lab's own PASS is advice: the stub's run, its exercise rows made PASS
# (figures copied from the rows they are measured against), beside the
# grader's record and the checker's verdicts: no exercise point
P=$TMPD/pass-$lab
rm -rf "$P"; mkdir -p "$P/stub"
cp "$C.runs/stub/$lab.run" "$C.runs/stub/$lab.check" "$P/stub/"
awk -F, -v OFS=, -f tests/cheats/stored.awk "$C.runs/stub/$lab.csv" "$C.runs/stub/$lab.csv" >"$P/stub/$lab.csv"
run sh tools/grade "$P"
if grep -q '^  ok .*done: ' "$OUTF"; then notok "cheats ($lab): a row the lab calls PASS and the checker does not earns nothing" "$(grep '^  ok .*done: ' "$OUTF" | head -n 2)"
elif grep -q '^  CHECKER  .*the lab said PASS' "$OUTF"; then ok "cheats ($lab): a row the lab calls PASS and the checker does not earns nothing"
else notok "cheats ($lab): a row the lab calls PASS and the checker does not earns nothing" "no CHECKER line: $(head -c 400 "$OUTF")"; fi
# ... and a CSV without the grader's record, in a folder graded from sources, earns nothing either
rm -f "$P/stub/$lab.run" "$P/stub/$lab.check"
cp "$C.runs/stub/$lab.run" "$P/stub/other.run"
run sh tools/grade "$P"
if grep -q '^  checker: no record of this run' "$OUTF" && ! grep -q '^  ok ' "$OUTF"; then
    ok "cheats ($lab): a CSV without the grader's record earns nothing where the class was graded from sources"
else notok "cheats ($lab): a CSV without the grader's record earns nothing" "$(head -c 500 "$OUTF")"; fi
check_width "cheats ($lab): every line at most 100 columns" "$R" "$ERRF"
exit 0
