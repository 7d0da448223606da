# tests/cli_lab01.sh - lab01 as a student runs it: the table, the formats,
# --trace, and every kind of bad input (exit 2, one line). POSIX sh.
. tests/lib.sh

L=./lab01
expect_csv_pass "lab01 --csv at n = 1000003, 5 variants" 5 $L -n 1000003 -r 3 --csv
for n in 1 2 3 17 64 65 4097; do
    expect_csv_pass "lab01 --csv at n = $n" 5 $L -n $n -r 2 --csv
done
expect_csv_pass "lab01 -k picks two" 2 $L -n 1000 -r 2 -k sequential,recursiveInterleaved --csv

run $L -n 100000 -r 3
if [ "$STATUS" -eq 0 ] && [ "$(grep -c ' PASS$' "$OUTF")" -eq 5 ] && tail -n 1 "$OUTF" | grep -q '^lab01: PASS - 5 of 5 kernels verified'; then
    ok "lab01 table: 5 PASS rows and the summary line last"
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
if [ "$STATUS" -eq 0 ] && [ "$(wc -l <"$OUTF")" -eq 5 ] && grep -q '^recursiveInterleaved ' "$OUTF"; then
    ok "lab01 --list names the 5 variants"
else
    notok "lab01 --list" "exit $STATUS: $(head -c 300 "$OUTF")"
fi
run $L -h
if [ "$STATUS" -eq 0 ] && grep -q '^usage: ./lab01' "$OUTF" && grep -q -- '--trace' "$OUTF"; then ok "lab01 -h"
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
