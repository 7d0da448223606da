# tests/unit/cli_lab01.sh - lab01 as a student runs it: the table, the formats,
# --trace, every kind of bad input (exit 2, one line), and the exercises:
# ./lab01 as shipped (todo rows, the fix-it FAILs, the closing exercises
# line) and the solutions, built apart into build/solutions/ (every exercise
# PASS at several lengths). POSIX sh.
. tests/lib.sh

L=./lab01
expect_csv_pass "lab01 --csv at n = 1000003, 5 variants" 5 $L -n 1000003 -r 3 --csv
for n in 1 2 3 17 64 65 4097; do
    expect_csv_pass "lab01 --csv at n = $n" 5 $L -n $n -r 2 --csv
done
expect_csv_pass "lab01 -k picks two" 2 $L -n 1000 -r 2 -k sequential,recursiveInterleaved --csv

run $L -n 100000 -r 3
if [ "$STATUS" -eq 0 ] && [ "$(grep -c ' PASS$' "$OUTF")" -eq 5 ] && tail -n 2 "$OUTF" | head -n 1 | grep -q '^lab01: PASS - 5 of 5 kernels verified' &&
   tail -n 1 "$OUTF" | grep -q '^exercises: [0-3] of 3 done.* (lab01_cpu_reduce/exercises.c; run ./lab01 --exercises)$'; then
    ok "lab01 table: 5 PASS rows, the summary line, then the exercises line last"
else
    notok "lab01 table" "exit $STATUS: $(tail -n 3 "$OUTF")"
fi
expect_grep "lab01 table shows the ceiling" '^ceiling  [0-9]+ GB/s: memcpy' "$OUTF"

run $L -n 5000 -r 2 --json
if [ "$STATUS" -eq 0 ] && grep -q '"status": "PASS"' "$OUTF" && [ "$(grep -c '"kernel":' "$OUTF")" -eq 5 ] &&
   [ "$(tr -cd '{' <"$OUTF" | wc -c)" -eq "$(tr -cd '}' <"$OUTF" | wc -c)" ]; then
    ok "lab01 --json: 5 rows, balanced, PASS"
else
    notok "lab01 --json" "exit $STATUS: $(head -c 300 "$OUTF")"
fi

run $L --list
join_wrapped "$OUTF"
if [ "$STATUS" -eq 0 ] && [ "$(wc -l <"$OUTF")" -eq 10 ] && grep -q '^recursiveInterleaved ' "$OUTF" &&
   grep -q '^exercises in lab01_cpu_reduce/exercises.c' "$OUTF" &&
   grep -Eq '^recursiveReduceBook +fix .*\(measured against recursiveInterleaved\)$' "$OUTF" &&
   grep -Eq '^pairwiseBlocked +write .*\(measured against sequential\)$' "$OUTF" &&
   grep -Eq '^sequentialUnroll4 +write .*\(measured against sequential\)$' "$OUTF"; then
    ok "lab01 --list names the 5 variants and the 3 exercises"
else
    notok "lab01 --list" "exit $STATUS: $(head -c 300 "$OUTF")"
fi
run $L -h
if [ "$STATUS" -eq 0 ] && grep -q '^usage: ./lab01' "$OUTF" && grep -q -- '--trace' "$OUTF" &&
   grep -q -- '--exercises' "$OUTF"; then ok "lab01 -h"
else notok "lab01 -h" "exit $STATUS"; fi

# --trace: both pairings end at the input's sum, for several lengths
for n in 1 2 3 17 31 64; do
    run $L --trace -n $n
    ends=$(sed -n 's/^both end with a\[0\] = \([0-9]*\) (neighbored) and \([0-9]*\) (interleaved); expected \([0-9]*\)$/\1 \2 \3/p' "$OUTF")
    if [ "$STATUS" -eq 0 ] && [ -n "$ends" ] && echo "$ends" | awk '{ exit !($1 == $3 && $2 == $3) }'; then
        ok "lab01 --trace -n $n ends at the sum in both pairings"
    else
        notok "lab01 --trace -n $n" "exit $STATUS: $(tail -n 1 "$OUTF")"
    fi
done
run $L --trace
if [ "$STATUS" -eq 0 ] && grep -q '^lab01 --trace: 17 elements' "$OUTF"; then ok "lab01 --trace defaults to 17 elements"
else notok "lab01 --trace default" "$(head -n 1 "$OUTF")"; fi
expect_status 0 "lab01 --explain" $L --explain
run $L --explain -n 3
if [ "$STATUS" -eq 0 ] && grep -q '^lab01 --explain: 3 elements' "$OUTF" && grep -q ' 1 addition: ' "$OUTF" &&
    ! grep -q ' 1 additions' "$OUTF"; then ok "lab01 --explain names itself and counts 1 addition"
else notok "lab01 --explain -n 3" "$(head -n 1 "$OUTF"); $(grep -c ' 1 additions' "$OUTF") '1 additions'"; fi

expect_usage "lab01 -n 0" $L -n 0
expect_usage "lab01 -n -5" $L -n -5
expect_usage "lab01 -n abc" $L -n abc
expect_usage "lab01 -n 1.5M" $L -n 1.5M
expect_usage "lab01 -n 3G (sum would not fit an int)" $L -n 3G
expect_usage "lab01 -n 99999999999999999999" $L -n 99999999999999999999
expect_usage "lab01 -n with no value" $L -n
expect_usage "lab01 -b (no blocks on the CPU)" $L -b 256
expect_usage "lab01 -k unknown" $L -k reduceNeighbored
expect_usage "lab01 -r 0" $L -r 0
expect_usage "lab01 --seed x" $L --seed x
expect_usage "lab01 --csv --json" $L --csv --json
expect_usage "lab01 unknown flag" $L --fast
expect_usage "lab01 stray argument" $L 1000
expect_usage "lab01 --trace -n 65" $L --trace -n 65
expect_usage "lab01 -k unknown exercise" $L -k recursiveReduce
expect_usage "lab01 --exercise (typo)" $L --exercise

# ---- float and double --------------------------------------------------------
# csv_typed FILE TYPE BOUND: every row of type TYPE, PASS, with error and bound
# empty (BOUND 0: the exact check) or given with error <= bound (BOUND 1)
csv_typed() {
    awk -F, -v ty="$2" -v want_bound="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["type"] != ty { print $3 " has type " $c["type"]; exit }
        $NF != "PASS" { print $3 " says " $NF; exit }
        want_bound == 0 && ($c["error"] != "" || $c["bound"] != "") { print $3 " has error/bound on an exact check"; exit }
        want_bound == 1 && ($c["error"] == "" || $c["error"] + 0 > $c["bound"] + 0) { print $3 ": error " $c["error"] ", bound " $c["bound"]; exit }
        { rows++ }
        END { if (rows != 5) print rows " rows, expected 5" }' "$1"
}
for t in float double; do
    for n in 1 2 3 17 64 65 4097 1000003 16777213; do
        run $L --type $t -n $n -r 1 --csv
        why=$(csv_typed "$OUTF" $t 0)
        if [ "$STATUS" -eq 0 ] && [ -z "$why" ]; then ok "lab01 --type $t -n $n: 5 rows PASS, exact (no error/bound)"
        else notok "lab01 --type $t -n $n" "exit $STATUS; $why $(head -c 200 "$ERRF")"; fi
    done
    for n in 1 3 1000 65537; do
        run $L --type $t --values uniform -n $n -r 1 --csv
        why=$(csv_typed "$OUTF" $t 1)
        if [ "$STATUS" -eq 0 ] && [ -z "$why" ]; then ok "lab01 --type $t --values uniform -n $n: 5 rows within their bounds"
        else notok "lab01 --type $t --values uniform -n $n" "exit $STATUS; $why"; fi
    done
done
run $L --type float -n 16777217 -r 1 --csv
why=$(csv_typed "$OUTF" float 1)
if [ "$STATUS" -eq 0 ] && [ -z "$why" ]; then ok "lab01 --type float -n 2^24+1: no exact float input, the bound check, error and bound given"
else notok "lab01 --type float -n 2^24+1" "exit $STATUS; $why"; fi
run $L --type float -n 16777217 -r 1 -k sequential
# the loop's k = 2^24: k u = 1, no a-priori bound; a tolerance, named as such
expect_grep "lab01 --type float -n 2^24+1: the row says which check was used" \
    '^  sequential: n > 2\^24, no exact float input: error [0-9.e+-]+ <= tol [0-9.e+-]+ \(no bound\) \(one chain\)$' "$OUTF"

run $L --type float --values uniform -n 100000 -r 2
if [ "$STATUS" -eq 0 ] && [ "$(grep -Ec '^  [A-Za-z]+: error [0-9.e+-]+ <= bound [0-9.e+-]+ \((one chain|a tree)\)$' "$OUTF")" -eq 5 ] &&
   grep -q '^The order of the additions changes a float sum' "$OUTF" &&
   [ "$(grep -Ec '^ +(1024|4096|16384|65536|262144|1048576|4194304|16777216) +[0-9.]+( +[0-9.]+e[-+][0-9]+){6}$' "$OUTF")" -eq 8 ]; then
    ok "lab01 --values uniform: each row's error and bound, then the accuracy table at n = 2^10 .. 2^24"
else
    notok "lab01 --values uniform table" "exit $STATUS: $(tail -n 20 "$OUTF")"
fi
# (the lines under the table: the table's own width is the printer's, checked with every lab)
wide=$(awk '/^  [A-Za-z]+: error / { under = 1 } /^lab01: / { under = 0 } under && length > 100 { print NR ": " length; exit }' "$OUTF")
if [ -z "$wide" ]; then ok "lab01 --values uniform: the error lines and the accuracy table fit in 100 columns"
else notok "lab01 --values uniform width" "line $wide columns"; fi
run $L --type double --values uniform -n 1000 -r 1 --json
if [ "$STATUS" -eq 0 ] && [ "$(grep -Ec '"error": [0-9.e+-]+, "bound": [0-9.e+-]+, "result": "-?0x[0-9a-f.]+p[-+][0-9]+", "status": "PASS"' "$OUTF")" -eq 5 ] &&
   grep -q '"type": "double"' "$OUTF"; then ok "lab01 --json carries the type, each row's error, bound and result (hex)"
else notok "lab01 --json error/bound" "exit $STATUS: $(head -c 300 "$OUTF")"; fi
./lab01 --type float --values uniform -n 1001 -r 1 --csv >"$TMPD/u.csv" 2>/dev/null
if awk -v conf=tools/grader/grade.conf -v label=u -f tools/grader/grade.d/conf.awk -f tools/grader/grade.d/file.awk -f tools/grader/grade.d/rules.awk -f tools/grader/grade.d/class.awk "$TMPD/u.csv" | grep -q '^  ok .*verified: all 5 kernel rows PASS'; then
    ok "the grader reads a float --values uniform file (error and bound columns)"
else
    notok "grader on a float uniform file" "$(awk -v conf=tools/grader/grade.conf -v label=u -f tools/grader/grade.d/conf.awk -f tools/grader/grade.d/file.awk -f tools/grader/grade.d/rules.awk -f tools/grader/grade.d/class.awk "$TMPD/u.csv" | head -n 3)"
fi
expect_usage "lab01 --type half" $L --type half
expect_usage "lab01 --type with no value" $L --type
expect_usage "lab01 --values uniform with int" $L --values uniform
expect_usage "lab01 --values random" $L --type float --values random
expect_usage "lab01 --exercises --type float (the exercises are int)" $L --exercises --type float
expect_usage "lab01 -k recursiveReduceBook --type double" $L -k recursiveReduceBook --type double
expect_usage "lab01 --trace --type float" $L --trace --type float
run $L -h
if grep -q -- '--type T ' "$OUTF" && grep -q -- '--values V ' "$OUTF"; then ok "lab01 -h names --type and --values"
else notok "lab01 -h --type" "$(head -n 3 "$OUTF")"; fi

# ---- the exercises ---------------------------------------------------------
EX=lab01_cpu_reduce/exercises.c

# csv_exercise_order FILE: each exercise row right under its reference row
# (the last kernel row above it is the one it names in `against`); prints why not
csv_exercise_order() {
    awk -F, 'NR == 1 { next }
        $23 == "kernel" { last = $3; next }
        $24 != last { print $3 " (against " $24 ") sits under " last; exit }' "$1"
}

# ./lab01 as shipped: the two write-it stubs are todo, the fix-it FAILs
run $L --exercises --csv -r 1
if awk -F, 'NR == 2 { exit !($25 ~ /solutions/) }' "$OUTF"; then
    skip "lab01 exercises as shipped" "./lab01 was built with SOLUTIONS=1"
elif why=$(edited_exercise_file "$EX"); then
    skip "lab01 exercises as shipped" "$why"
else
    if [ "$STATUS" -eq 1 ]; then ok "lab01 --exercises as shipped exits 1 (the fix-it FAILs)"
    else notok "lab01 --exercises as shipped" "exit $STATUS, expected 1; $(head -c 300 "$ERRF")"; fi
    check=$(awk -F, '
        NR == 1 { next }
        { rows++; if ($4 != 16777213) { print $3 " at n = " $4 ", expected 16777213"; exit } }
        $3 == "pairwiseBlocked" || $3 == "sequentialUnroll4" {
            if ($23 != "write" || $24 != "sequential" || $NF != "todo" || $10 != 0 || $11 != "" || $17 != "") {
                print $3 ": " $0; exit }
            todo++ }
        $3 == "recursiveReduceBook" {
            if ($23 != "fix" || $24 != "recursiveInterleaved" || $NF != "FAIL") { print $3 ": " $0; exit }
            fix++ }
        $23 == "kernel" && $NF != "PASS" { print $3 " says " $NF; exit }
        $25 != "cpu" { print "build column " $25 ", expected cpu"; exit }
        $26 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$/ { print "run_at " $26; exit }
        $27 !~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/ { print "fingerprint " $27; exit }
        END { if (rows != 8 || todo != 2 || fix != 1) print rows " rows, " todo " todo, " fix " fix-it, expected 8, 2, 1" }' "$OUTF")
    if [ -z "$check" ]; then
        ok "lab01 --exercises as shipped: 8 rows at n = 16777213, 2 todo (reps 0, no figures), recursiveReduceBook FAIL"
    else
        notok "lab01 --exercises as shipped" "$check"
    fi
    why=$(csv_exercise_order "$OUTF")
    if [ -z "$why" ]; then ok "lab01 --exercises: each exercise row right under its reference row"
    else notok "lab01 --exercises row order" "$why"; fi

    run $L --exercises -r 1
    if [ "$STATUS" -eq 1 ] && grep -q '^recursiveReduceBook .*FAIL$' "$OUTF" &&
       grep -Eq '^pairwiseBlocked +- +- +- +- +- +todo$' "$OUTF" &&
       grep -q '^lab01: FAIL - 1 of 6 kernels gave a wrong result: recursiveReduceBook; 2 exercises todo' "$OUTF" &&
       grep -q '^  sequentialUnroll4 (write it, against sequential): todo' "$OUTF" &&
       ! grep -q '^exercises:' "$OUTF"; then
        ok "lab01 --exercises table: todo rows, the FAIL named, no exercises line"
    else
        notok "lab01 --exercises table" "exit $STATUS: $(tail -n 6 "$OUTF")"
    fi

    run $L --exercises -n 1000003 -r 1 --csv -k recursiveReduceBook
    if [ "$STATUS" -eq 1 ] && awk -F, '$3 == "recursiveReduceBook" && $4 == 1000003 && $NF == "FAIL" { f = 1 }
                                        END { exit !f }' "$OUTF"; then
        ok "lab01 recursiveReduceBook as shipped FAILs at another odd n (1000003)"
    else
        notok "lab01 recursiveReduceBook at 1000003" "exit $STATUS: $(tail -n 2 "$OUTF")"
    fi
    run $L -k recursiveReduceBook -n 2^20 -r 1 --csv
    if [ "$STATUS" -eq 0 ] && [ "$(awk -F, 'NR > 1' "$OUTF" | wc -l)" -eq 2 ] &&
       awk -F, '$3 == "recursiveReduceBook" && $NF == "PASS" { f = 1 } END { exit !f }' "$OUTF"; then
        ok "lab01 -k recursiveReduceBook: its reference row and a PASS at 2^20 (the bug hides at powers of two)"
    else
        notok "lab01 -k recursiveReduceBook at 2^20" "exit $STATUS: $(cat "$OUTF" | head -c 400)"
    fi
    run $L -k pairwiseBlocked -n 1000 -r 1 --csv
    if [ "$STATUS" -eq 0 ] && [ "$(awk -F, 'NR > 1 { printf "%s:%s ", $3, $NF }' "$OUTF")" = "sequential:PASS pairwiseBlocked:todo " ]; then
        ok "lab01 -k pairwiseBlocked: sequential then the todo row, exit 0"
    else
        notok "lab01 -k pairwiseBlocked" "exit $STATUS: $(head -c 400 "$OUTF")"
    fi

    run $L -n 1000 -r 2
    if [ "$STATUS" -eq 0 ] && tail -n 1 "$OUTF" | grep -qx 'exercises: 0 of 3 done, 2 todo, 1 failing (lab01_cpu_reduce/exercises.c; run ./lab01 --exercises)'; then
        ok "lab01 plain run as shipped exits 0 and ends with 'exercises: 0 of 3 done, 2 todo, 1 failing'"
    else
        notok "lab01 plain run's exercises line" "exit $STATUS; last line: $(tail -n 1 "$OUTF")"
    fi
    run $L -n 1000 -r 2 -k sequential
    if [ "$STATUS" -eq 0 ] && ! grep -q '^exercises:' "$OUTF"; then ok "lab01 -k KERNEL alone: no exercises line"
    else notok "lab01 -k sequential" "exit $STATUS; last line: $(tail -n 1 "$OUTF")"; fi
fi

run $L --exercises --json -n 1001 -r 1
if [ "$STATUS" -le 1 ] && [ "$(grep -c '"kernel":' "$OUTF")" -eq 8 ] && grep -q '"role": "fix", "against": "recursiveInterleaved"' "$OUTF" &&
   [ "$(tr -cd '{' <"$OUTF" | wc -c)" -eq "$(tr -cd '}' <"$OUTF" | wc -c)" ]; then
    ok "lab01 --exercises --json: 8 rows with role and against, balanced"
else
    notok "lab01 --exercises --json" "exit $STATUS: $(head -c 300 "$OUTF")"
fi

# The solutions, built apart (build/solutions/lab01): every exercise PASS
if [ ! -d lab01_cpu_reduce/solutions ]; then
    skip "lab01 solutions" "this copy has no lab01_cpu_reduce/solutions (a student's handout)"
else
    SOL=build/solutions/lab01
    SOLT=build/solutions/tests/test_lab01
    if (unset MAKEFLAGS MFLAGS MAKELEVEL; ${MAKE:-make} BUILD=build/solutions BIN=build/solutions/ SOLUTIONS=1 \
            lab01 "$SOLT") >"$TMPD/make.log" 2>&1; then
        if grep -qi 'warning' "$TMPD/make.log"; then notok "lab01 solutions build without warnings" "$(grep -i warning "$TMPD/make.log" | head -n 3)"
        else ok "lab01 solutions build (make BUILD=build/solutions BIN=build/solutions/ SOLUTIONS=1 lab01)"; fi
        "$SOLT" --solutions >"$TMPD/sol" 2>&1
        st=$?
        sed -n -e 's/^ok /ok solutions: /p' -e 's/^FAIL /FAIL solutions: /p' "$TMPD/sol"
        [ $st -eq 0 ] || grep -q '^FAIL ' "$TMPD/sol" || notok "solutions: test_lab01 --solutions" "exited $st"
        for n in 1 2 3 17 1000003; do
            expect_csv_pass "lab01 solutions --exercises -n $n: 8 rows, every one PASS" 8 $SOL --exercises -n $n -r 2 --csv
            if [ "$STATUS" -eq 0 ]; then
                why=$(csv_exercise_order "$OUTF")
                ex=$(awk -F, 'NR > 1 && $23 != "kernel" && $25 == "cpu+solutions"' "$OUTF" | wc -l)
                if [ -z "$why" ] && [ "$ex" -eq 3 ]; then ok "lab01 solutions -n $n: 3 exercise rows (build cpu+solutions), each under its reference"
                else notok "lab01 solutions -n $n rows" "${why:-$ex exercise rows with build cpu+solutions, expected 3}"; fi
            fi
        done
        expect_csv_pass "lab01 solutions --exercises at n = 16777213" 8 $SOL --exercises -r 1 --csv
        if [ "$STATUS" -eq 0 ] && awk -F, 'NR > 1 && $4 != 16777213 { bad = 1 } END { exit bad }' "$OUTF"; then
            ok "lab01 solutions --exercises without -n runs at 16777213"
        fi
        run $SOL -n 1000 -r 2
        if [ "$STATUS" -eq 0 ] && tail -n 1 "$OUTF" | grep -qx 'exercises: 3 of 3 done (lab01_cpu_reduce/exercises.c; run ./lab01 --exercises)'; then
            ok "lab01 solutions: the plain run ends with 'exercises: 3 of 3 done'"
        else
            notok "lab01 solutions: the exercises line" "exit $STATUS; last line: $(tail -n 1 "$OUTF")"
        fi
    else
        notok "lab01 solutions build" "$(tail -n 5 "$TMPD/make.log")"
    fi
fi

# --list --csv: the tools' reader of the tables (tools/sanitize.sh, profile.sh)
run $L --list --csv
if [ "$STATUS" -eq 0 ] && [ "$(head -n 1 "$OUTF")" = "kernel,kind,against,lesson" ] &&
   [ "$(awk -F, 'NR > 1 && $2 == "kernel" && $3 == ""' "$OUTF" | wc -l)" -eq 5 ] &&
   [ "$(awk -F, 'NR > 1 && ($2 == "write" || $2 == "fix") && $3 != ""' "$OUTF" | wc -l)" -eq 3 ] &&
   [ "$(awk -F, 'NR > 1 { print $1 }' "$OUTF" | paste -sd' ' -)" = "$($L --list | awk '/^[a-zA-Z]/ && !/^exercises in / { print $1 }' | paste -sd' ' -)" ]; then
    ok "lab01 --list --csv: the header, 5 kernels, 3 exercises, the names of --list"
else
    notok "lab01 --list --csv" "exit $STATUS: $(head -c 300 "$OUTF")"
fi
