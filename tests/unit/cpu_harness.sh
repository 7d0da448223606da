# tests/unit/cpu_harness.sh - lab01's runner proves its own checks: versions
# that write nothing, half, past a[n-1], or are right only once
# (tests/harness/bad_cpu.c) FAIL on every row of --check, and in a timed
# run. The GPU runners' counterpart is tests/gpu/gpu_harness.sh. POSIX sh.
. tests/lib.sh
B=build/tests/bad_cpu

for k in writesNothing writesHalf writesPast rightOnce; do
    run $B --check -k $k -n 2,17,1000,100003 --seed 1,2
    rows=$(awk -F, 'NR > 1' "$OUTF" | wc -l)
    fails=$(awk -F, 'NR > 1 && $11 == "FAIL"' "$OUTF" | wc -l)
    if [ "$STATUS" -eq 1 ] && [ "$rows" -eq 8 ] && [ "$fails" -eq 8 ] && grep -q "8 rows (8 planned)" "$ERRF"; then
        ok "cpu runner --check: $k, all 8 rows FAIL"
    else
        notok "cpu runner --check: $k" "exit $STATUS, $fails of $rows rows FAIL; $(head -c 200 "$ERRF")"
    fi
    run $B -k $k -n 1000 -r 3 --csv
    if [ "$STATUS" -eq 1 ] && grep -q ",$k,1000,.*,FAIL" "$OUTF"; then
        ok "cpu runner timed: $k FAIL, exit 1"
    else
        notok "cpu runner timed: $k" "exit $STATUS: $(tail -n 1 "$OUTF" | cut -c 1-200)"
    fi
done
