# tests/gpu/gpu_harness.sh - the harness proves its own checks. Each GPU
# runner (common/reduce.cu, lab05_smem/matrix/matrix_run.cu, lab06_transpose/run.cu)
# runs kernels that write nothing, half their output, or past its end
# (tests/harness/): every row must FAIL, so a runner that stops poisoning or
# checks less turns this red. Then the example lab (tests/example/maxlab.cu)
# on wb_main: --list, -k, --check, --csv, --exercises, the exit statuses.
# POSIX sh.
# gpu-memory: 64 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh
B=build/tests

# all_fail NAME CMD...: --check rows, every one FAIL, exit 1, as many as planned
all_fail() {
    name=$1; shift
    run "$@"
    rows=$(awk -F, 'NR > 1' "$OUTF" | wc -l)
    fails=$(awk -F, 'NR > 1 && $11 == "FAIL"' "$OUTF" | wc -l)
    if [ "$STATUS" -eq 1 ] && [ "$rows" -gt 0 ] && [ "$rows" -eq "$fails" ] &&
        grep -q "$rows rows ($rows planned)" "$ERRF"; then
        ok "$name: all $rows rows FAIL"
    else
        notok "$name" "exit $STATUS, $fails of $rows rows FAIL; $(grep -v ',FAIL,' "$OUTF" | head -3 | tr '\n' '|') $(head -c 200 "$ERRF")"
    fi
}
# each runner's three broken kernels in one process: every row of each FAILs
all_fail "reduce runner: writesNothing, writesHalf, writesPast" \
    $B/bad_reduce --check -k writesNothing,writesHalf,writesPast -n 1000,100003 -b 32,256 --finish host,device
expect_usage "reduce runner: int-only rows refuse --type float (.types)" $B/bad_reduce --check --type int,float -n 1000
all_fail "matrix runner: rowsNothing, rowsHalf, rowsPast" \
    $B/bad_matrix --check -k rowsNothing,rowsHalf,rowsPast -n 5x4,33x17,300x100 -b 32x1,16x16
all_fail "transpose runner: transposeNothing, transposeHalf, transposePast" \
    $B/bad_transpose --check -k transposeNothing,transposeHalf,transposePast -n 5x4,33x17,300x100 -b 32x1,16x16

M=$B/maxlab
run $M --list
if [ "$STATUS" -eq 0 ] && grep -q '^blockMax ' "$OUTF" && grep -q '^blockMaxTwice  fix' "$OUTF"; then
    ok "maxlab --list: its kernel and exercises"
else notok "maxlab --list" "exit $STATUS"; fi
expect_usage "maxlab -k nope" $M -k nope
expect_usage "maxlab --type float (int only)" $M --type float
expect_usage "maxlab --explain (it has none)" $M --explain
run $M --check -n 1,33,1000003 -b 32,1024 --seed 1,2
if [ "$STATUS" -eq 0 ] && [ "$(grep -c ',PASS,' "$OUTF")" -eq 12 ] && grep -q "12 rows (12 planned)" "$ERRF"; then
    ok "maxlab --check: 12 rows PASS"
else notok "maxlab --check" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
run $M -k blockMax -n 1000003 -r 3 --csv
if [ "$STATUS" -eq 0 ] && head -n 1 "$OUTF" | grep -q '^lab,device,kernel,' && grep -q '^maxlab,.*,blockMax,1000003,.*,PASS$' "$OUTF"; then
    ok "maxlab --csv: the header and a PASS row"
else notok "maxlab --csv" "exit $STATUS: $(head -c 300 "$OUTF")"; fi
run $M --exercises -r 2 --csv
if [ "$STATUS" -eq 1 ] && grep -q ',blockMaxShfl,.*,todo$' "$OUTF" && grep -q ',blockMaxTwice,.*,FAIL$' "$OUTF"; then
    ok "maxlab --exercises: the stub todo, the one that writes past its end FAIL, exit 1"
else notok "maxlab --exercises" "exit $STATUS: $(cat "$OUTF" | cut -c 1-120)"; fi
run $M -r 2
if [ "$STATUS" -eq 0 ] && grep -q 'exercises: 0 of 2 done' "$OUTF"; then
    ok "maxlab: the table, exit 0, the exercises counted"
else notok "maxlab table" "exit $STATUS: $(tail -n 3 "$OUTF")"; fi
