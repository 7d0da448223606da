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
#
# Then the cheats that go after the machine (tests/cheats/sandbox.h: a
# process that outlives its run and edits the grader's records, a reader of
# a classmate's file and the solutions, a writer outside its folder, a fork
# bomb, an output flood, a disk filler, a network call, a copier that
# #includes the solution): in the sandbox (tools/grader/sandbox.sh) none reaches
# what it went for, none earns more than the stub, none is left running, no
# one else loses a point, and the class finishes. Without a sandbox here
# (no bubblewrap, or no user namespaces) they are skipped, with why, and the
# class is graded with GRADE_SANDBOX=none.
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
sbx=
if why=$(sh tools/grader/sandbox.sh check); then
    D=$TMPD/drop-$lab # the drop folder: anyone may write it, no sandbox shows it
    rm -rf "$D"; mkdir -p "$D" && chmod 1777 "$D"
    sol=; [ -f "$ld/solutions/exercises.$ext" ] && sol=$(pwd)/$ld/solutions/exercises.$ext
    sh tests/cheats/make_cheats.sh "$lab" "$C" "$TMPD/stored.csv" 00000000 "$D" "$victim" "$sol" >/dev/null 2>&1
    rm -rf "$C/cheat-static" "$C/cheat-ctor" "$C/cheat-atexit" "$C/cheat-printf" "$C/cheat-replay" \
        "$C/cheat-framer" # (written again below, with the victim's fingerprint)
    sh tests/cheats/make_cheats.sh "$lab" "$C" "$TMPD/stored.csv" \
        "$(cksum <"$victim" | awk '{ printf "%08x", $1 }')"
    mkinds="escape peek write forkbomb flood fill net${sol:+ copier}"
else
    skip "cheats ($lab): the cheats that go after the machine" "no sandbox here: $why"
    sbx=none
fi

t0=$(date +%s)
run env GRADE_TIMEOUT=60 GRADE_LENGTH=$len GRADE_RUN_ARGS="-r 3" ${sbx:+GRADE_SANDBOX=$sbx} sh tools/grader/grade_sources.sh "$C"
cp "$ERRF" "$TMPD/progress.txt"; [ -n "${WB_CHEATS_KEEP:-}" ] && cp "$ERRF" "$WB_CHEATS_KEEP"
secs=$(( $(date +%s) - t0 ))
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
        tr ';' '\n' | sed 's/^ *//' | grep -v '^missing ' |
        if [ "$sbx" = none ]; then grep -v '^graded WITHOUT a sandbox$'; else cat; fi | grep . | head -n 3)
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

# ---- the cheats that go after the machine, in the sandbox ---------------------
if [ -z "$sbx" ]; then
    stubgot=$(cell stub)
    for k in $mkinds; do
        got=$(cell "cheat-$k")
        case $k in
            flood) want=0; why="its output is cut: \"printed more than\"" ;;
            copier) want=0; why="the solution cannot be read when it is built" ;;
            *) want=$stubgot; why="what the stub earns" ;;
        esac
        if [ "$lab" = lab02 ] && [ "$want" != 0 ] && [ "${got:-x}" != x ] && [ "$got" -le "$want" ] 2>/dev/null; then
            want=$got # (lab02's speed checks can miss on a busy GPU: at most the stub's)
        fi
        if [ "$got" = "$want" ]; then ok "cheats ($lab): cheat-$k earns $got, $why"
        else notok "cheats ($lab): cheat-$k earns $want, $why" "it got '$got': $(grep -A8 "^  cheat-$k $lab" "$R" | head -c 500)"; fi
    done
    expect_grep "cheats ($lab): the flood: its output cut, the lab 0" \
        "^  cheat-flood $lab: printed more than [0-9]+ MiB" "$R"
    [ -n "$sol" ] && expect_grep "cheats ($lab): the copier: the solution is not there when it is built" \
        "^  cheat-copier $lab: does not compile" "$R"
    if [ -s "$D/breaches" ] || [ -n "$(ls -A "$D")" ]; then
        notok "cheats ($lab): no cheat reached what it went for (the drop folder is empty)" \
            "$(ls -A "$D" | tr '\n' ' '): $(head -c 600 "$D/breaches" 2>/dev/null)"
    else ok "cheats ($lab): no cheat reached what it went for (the drop folder is empty)"; fi
    if [ -e "$C/PWNED" ] || [ -e "$C.runs/PWNED" ]; then notok "cheats ($lab): nothing written in the class or its runs" \
        "$(ls "$C" "$C.runs" | grep PWNED)"
    else ok "cheats ($lab): nothing written in the class or its runs"; fi
    # the escape's verdicts: as the checker wrote them, also graded again (make grade RESULTS=)
    if grep -q 'PASS' "$C.runs/cheat-escape/$lab.check" 2>/dev/null &&
        ! awk -F'\t' '$2 == "todo" || $2 == "FAIL"' "$C.runs/cheat-escape/$lab.check" | grep -q .; then
        notok "cheats ($lab): cheat-escape's verdicts are the checker's" "no todo or FAIL left in its $lab.check"
    else ok "cheats ($lab): cheat-escape's verdicts are the checker's (todo and FAIL kept)"; fi
    run sh tools/grader/grade "$C.runs"
    cp "$OUTF" "$TMPD/regrade.txt"
    got=$(R=$TMPD/regrade.txt; awk -v who=cheat-escape -v lab="$lab" '$1 == "student" { for (i = 2; i <= NF; i++) if ($i == lab) c = i; next }
        c && $1 == who { print $c; exit }' "$R")
    if [ "$got" = "$(cell cheat-escape)" ]; then ok "cheats ($lab): graded again, cheat-escape earns the same ($got)"
    else notok "cheats ($lab): graded again, cheat-escape earns the same" "$got, first $(cell cheat-escape)"; fi
    left=$(ps -eo pid=,comm= 2>/dev/null | awk '$2 == "cheat-escape" || $2 == "cheat-bomb" { print $1 }')
    if [ -z "$left" ]; then ok "cheats ($lab): no process of a cheat outlives its run"
    else
        notok "cheats ($lab): no process of a cheat outlives its run" "$(echo $left | wc -w) left"
        for p in $left; do kill -KILL "$p" 2>/dev/null; done # (the test's own: its cheats')
    fi
    # (lab01 on the CPU; lab02: nvcc builds the class's workbook and the calibration's
    # solutions once, then each student's exercise file alone)
    lim=60; [ "$lab" = lab02 ] && lim=300
    if [ "$secs" -le "$lim" ]; then ok "cheats ($lab): the class finishes in $secs s (at most $lim)"
    else notok "cheats ($lab): the class finishes within $lim s" "$secs s"; fi
    expect_grep "cheats ($lab): each run's record names its sandbox" '^sandbox bubblewrap' "$C.runs/stub/$lab.run"
    expect_usage "cheats ($lab): no usable sandbox: make grade SOURCES= refuses, in one line" \
        env GRADE_SANDBOX=bogus sh tools/grader/grade_sources.sh "$C"
    # a run graded WITHOUT a sandbox (its record says so): the report and the gradebook say it
    N=$TMPD/nosandbox-$lab; rm -rf "$N"; mkdir -p "$N"; cp -R "$C.runs/stub" "$N/"
    sed 's/^sandbox .*/sandbox none/' "$C.runs/stub/$lab.run" >"$N/stub/$lab.run"
    run sh tools/grader/grade "$N"
    if head -n 1 "$OUTF" | grep -q '^graded WITHOUT a sandbox' && tail -n 2 "$OUTF" | grep -q 'WITHOUT a sandbox.*: stub$'
    then ok "cheats ($lab): graded without a sandbox: the report's first and last lines say so"
    else notok "cheats ($lab): graded without a sandbox: the report says so" "$(head -n 2 "$OUTF"; tail -n 2 "$OUTF")"; fi
    run sh tools/grader/grade "$N" --csv
    expect_grep "cheats ($lab): ... and the student's gradebook row" '^stub,.*graded WITHOUT a sandbox' "$OUTF"
fi

# without the checker the forgeries would pay: the same files graded as plain hand-ins
for k in static ctor; do
    cp "$C.runs/cheat-$k/$lab.csv" "$C.hand/cheat$k-$lab.csv" 2>/dev/null
done
run sh tools/grader/grade "$C.hand"
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
run sh tools/grader/grade "$P"
if grep -q '^  ok .*done: ' "$OUTF"; then notok "cheats ($lab): a row the lab calls PASS and the checker does not earns nothing" "$(grep '^  ok .*done: ' "$OUTF" | head -n 2)"
elif grep -q '^  CHECKER  .*the lab said PASS' "$OUTF"; then ok "cheats ($lab): a row the lab calls PASS and the checker does not earns nothing"
else notok "cheats ($lab): a row the lab calls PASS and the checker does not earns nothing" "no CHECKER line: $(head -c 400 "$OUTF")"; fi
# ... and a CSV without the grader's record, in a folder graded from sources, earns nothing either
rm -f "$P/stub/$lab.run" "$P/stub/$lab.check"
cp "$C.runs/stub/$lab.run" "$P/stub/other.run"
run sh tools/grader/grade "$P"
if grep -q '^  checker: no record of this run' "$OUTF" && ! grep -q '^  ok ' "$OUTF"; then
    ok "cheats ($lab): a CSV without the grader's record earns nothing where the class was graded from sources"
else notok "cheats ($lab): a CSV without the grader's record earns nothing" "$(head -c 500 "$OUTF")"; fi
check_width "cheats ($lab): every line at most 100 columns" "$R" "$ERRF"
exit 0
