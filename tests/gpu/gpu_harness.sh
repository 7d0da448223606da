# tests/gpu/gpu_harness.sh - the harness proves its own checks. Each GPU
# runner (common/reduce.cu, lab05_smem/matrix/matrix_run.cu, lab06_transpose/run.cu)
# runs kernels that write nothing, half their output, or past its end
# (tests/harness/): every row must FAIL, so a runner that stops poisoning or
# checks less turns this red. Then the example lab (tests/example/scanlab.cu,
# a scan, not a reduction): -h, --list, -k, --check at every block and odd
# and tiny sizes, --csv, --exercises, the exit statuses.
# POSIX sh.
# gpu-memory: 160 MiB (tests/run: the most GPU memory one run takes, its data)
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

S=$B/scanlab
run $S -h
if [ "$STATUS" -eq 0 ] && grep -q 'elements to scan' "$OUTF" &&
    ! grep -qE -- '--(type|values|finish|trace|explain)' "$OUTF"; then
    ok "scanlab -h: what it does only (no --type, --values, --finish, --trace, --explain)"
else notok "scanlab -h" "exit $STATUS: $(grep -E -- '--(type|values|finish|trace|explain)' "$OUTF" | head -n 2)"; fi
run $S --list
if [ "$STATUS" -eq 0 ] && grep -q '^scanSmem ' "$OUTF" && grep -q '^scanExclusive  fix' "$OUTF"; then
    ok "scanlab --list: its kernel and exercises"
else notok "scanlab --list" "exit $STATUS"; fi
expect_usage "scanlab -k nope" $S -k nope
expect_usage "scanlab --type float (int only)" $S --type float
expect_usage "scanlab --explain (it has none)" $S --explain
expect_usage "scanlab --finish host (no such choice)" $S --finish host
# exact at tiny, odd and not-a-multiple sizes, at every block, with the
# exercises (one --check run): 8 x 6 x 2 configurations of 3 rows each
run $S --check --exercises -n 1,2,31,32,33,1025,65537,1000003 -b 32,64,128,256,512,1024 --seed 1,2
if [ "$STATUS" -eq 1 ] && [ "$(grep -c ',scanSmem,.*,PASS,' "$OUTF")" -eq 96 ] && grep -q "288 rows (288 planned)" "$ERRF"; then
    ok "scanlab --check: the kernel's 96 rows PASS, exact at every size and block"
else notok "scanlab --check" "exit $STATUS: $(grep ',scanSmem,' "$OUTF" | grep -v ',PASS,' | head -c 300; head -c 300 "$ERRF")"; fi
# the exercises: the stub todo everywhere; the scan one behind FAILs at n =
# 1, 33, 1000003 and blocks 32, 1024 (seed 1, the default)
ex_fails=$(awk -F, '$2 == "scanExclusive" && $11 == "FAIL" && $10 == 1 && ($4 == 1 || $4 == 33 || $4 == 1000003) &&
    ($5 == 32 || $5 == 1024)' "$OUTF" | wc -l)
if [ "$STATUS" -eq 1 ] && [ "$(grep -c ',scanShfl,.*,todo,' "$OUTF")" -eq 96 ] && [ "$ex_fails" -eq 6 ]; then
    ok "scanlab --check --exercises: the kernel PASS, the stub todo, the scan one behind FAIL, exit 1"
else notok "scanlab --check --exercises" "exit $STATUS, $ex_fails of 6 scanExclusive rows FAIL: $(grep -v ',scanSmem,' "$OUTF" | cut -c 1-120 | head -n 8)"; fi
run $S -k scanSmem -n 1000003 -r 3 --csv
if [ "$STATUS" -eq 0 ] && head -n 1 "$OUTF" | grep -q '^lab,device,kernel,' && grep -q '^scanlab,.*,scanSmem,1000003,.*,PASS$' "$OUTF"; then
    ok "scanlab --csv: the header and a PASS row"
else notok "scanlab --csv" "exit $STATUS: $(head -c 300 "$OUTF")"; fi
run $S --exercises -r 2 --csv
if [ "$STATUS" -eq 1 ] && grep -q ',scanShfl,.*,todo$' "$OUTF" && grep -q ',scanExclusive,.*,FAIL$' "$OUTF"; then
    ok "scanlab --exercises: the stub todo, the scan one behind FAIL, exit 1"
else notok "scanlab --exercises" "exit $STATUS: $(cut -c 1-120 "$OUTF")"; fi
run $S -r 2
if [ "$STATUS" -eq 0 ] && grep -q 'exercises: 0 of 2 done' "$OUTF"; then
    ok "scanlab: the table, exit 0, the exercises counted"
else notok "scanlab table" "exit $STATUS: $(tail -n 3 "$OUTF")"; fi
