#!/bin/sh
# tests/tools/bench.sh - make bench's table logic without a GPU (POSIX sh, from
# the repository root): tools/bench.sh --from on the kept H100 runs
# (docs/results/nvidia-h100-80gb-hbm3/) gives each bar its verdict from the same run's rows,
# "not measured" where no run was kept, the CSV and the chart; a bar one run
# misses turns met when the run is made to meet it; STRICT=1 and bad usage.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

expect_status 0 "bench: tools/bench.sh parses (sh -n)" sh -n tools/bench.sh

K=docs/results/nvidia-h100-80gb-hbm3
if [ ! -f "$K/lab05-sweep.csv" ] || [ ! -f "$K/lab05-matrix.csv" ] || [ ! -f "$K/lab06.csv" ]; then
    skip "bench: the table from the kept H100 runs" "$K has no lab05-sweep.csv, lab05-matrix.csv or lab06.csv"
    exit 0
fi
OUTD=$TMPD/bench
run env BENCH_DIR="$OUTD" sh tools/bench.sh --from "$K"
CSV=$OUTD/nvidia-h100-80gb-hbm3/bench.csv
if [ "$STATUS" -eq 0 ] && [ -f "$CSV" ] && [ "$(grep -c . "$CSV")" -eq 43 ]; then
    ok "bench --from $K: exit 0, 42 bars in bench.csv"
else
    notok "bench --from $K" "exit $STATUS, $(grep -c . "$CSV" 2>/dev/null) lines in $CSV; $(head -c 300 "$ERRF")"
fi
# the verdicts, recomputed here from the kept runs' medians: int n = 4096
# (CUB's time over reduceModern's), lab05's row sums (CUB segmented over
# rowSumBlock), the 3000x5000 transpose that was never run
want_int=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $(h["n"]) == 4096 { t[$(h["kernel"])] = $(h["time_ms"]) }
    END { r = t["cub::DeviceReduce::Sum"] / t["reduceModern"]; if (t["reduceAtomic"] < t["reduceModern"]) r = t["cub::DeviceReduce::Sum"] / t["reduceAtomic"]
          printf "%.3f,x,1.01,%s", r, (sprintf("%.3f", r) + 0 >= 1.01 ? "met" : "missed") }' "$K/lab05-sweep.csv")
got_int=$(awk -F, '$2 == "sweep" && $4 == "2^12" && $5 == "int" { print $8 "," $9 "," $10 "," $11 }' "$CSV")
if [ -n "$want_int" ] && [ "$got_int" = "$want_int" ]; then ok "bench: lab05 int n = 2^12 is $got_int, as its run's medians say"
else notok "bench: lab05 int n = 2^12" "bench.csv says '$got_int', the run's medians '$want_int'"; fi
got_rows=$(awk -F, '$3 == "row sums / CUB" && $4 == "8192x8192" { print $6 "," $8 "," $11 }' "$CSV")
want_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { t[$(h["kernel"])] = $(h["time_ms"]) }
    END { k = t["rowSumWarp"] < t["rowSumBlock"] ? "rowSumWarp" : "rowSumBlock"; r = t["cub::DeviceSegmentedReduce::Sum"] / t[k]
          printf "%s,%.3f,%s", k, r, (sprintf("%.3f", r) + 0 >= 1.02 ? "met" : "missed") }' "$K/lab05-matrix.csv")
if [ "$got_rows" = "$want_rows" ]; then ok "bench: the row sums at 8192x8192 are $got_rows"
else notok "bench: the row sums at 8192x8192" "bench.csv says '$got_rows', the run's medians '$want_rows'"; fi
if grep -q '^[^,]*,transpose,transpose / copy,3000x5000,float,,the copy,,%,98,not measured: no run,' "$CSV"; then
    ok "bench: the transpose at 3000x5000, never run there, is not measured"
else notok "bench: a bar without a run" "no 'not measured: no run' row for 3000x5000 in $CSV"; fi
if grep -q 'met, .* missed, .* not measured$' "$OUTF" && ! awk 'length($0) > 100 { exit 1 }' "$OUTF"; then
    ok "bench: the table ends with its counts, every line within 100 columns"
else notok "bench: the table" "no count line, or a line over 100 columns: $(awk 'length($0) > 100' "$OUTF" | head -n 1)"; fi
if grep -q 'the bar</text>' "$OUTD/nvidia-h100-80gb-hbm3/bench.svg" 2>/dev/null &&
    grep -q 'missed (rowSumBlock)' "$OUTD/nvidia-h100-80gb-hbm3/bench.svg"; then
    ok "bench: bench.svg draws the bars, a missed one named"
else notok "bench: bench.svg" "no chart, or no line at the bar, or no missed bar in it"; fi

# the same set with the transpose run made to meet its bar (a copy whose
# 2048x2048 transposeSmemPad row is at 99%): the verdict follows the run
mkdir -p "$TMPD/kept"
cp "$K"/lab05-sweep*.csv "$K/lab05-matrix.csv" "$TMPD/kept/"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; print; next }
    $(h["kernel"]) == "transposeSmemPad" { $(h["pct_of_copy"]) = "99.00" } { print }' "$K/lab06.csv" >"$TMPD/kept/lab06.csv"
run env BENCH_DIR="$TMPD/b2" sh tools/bench.sh --from "$TMPD/kept"
if [ "$STATUS" -eq 0 ] && grep -q ',transpose / copy,2048x2048,float,transposeSmemPad,the copy,99.0,%,98,met,' \
    "$TMPD/b2/nvidia-h100-80gb-hbm3/bench.csv" && grep -q 'not measured: no run' "$TMPD/b2/nvidia-h100-80gb-hbm3/bench.csv"; then
    ok "bench: a run at 99% of the copy meets the 98% bar; the 8192x8192 run left out is not measured"
else notok "bench: the verdict follows the run" "exit $STATUS; $(grep 2048x2048 "$TMPD/b2/nvidia-h100-80gb-hbm3/bench.csv" 2>/dev/null)"; fi

# STRICT=1: exit 1 when a bar is missed; bad usage: exit 2 with one line
expect_status 1 "bench: STRICT=1 exits 1 when a bar is missed" env STRICT=1 BENCH_DIR="$OUTD" sh tools/bench.sh --from "$K"
for bad in "STRICT=2" "--from $TMPD/no-such-folder" "--fast"; do
    case $bad in STRICT=*) run env "$bad" BENCH_DIR="$OUTD" sh tools/bench.sh ;; *) run env BENCH_DIR="$OUTD" sh tools/bench.sh $bad ;; esac
    if [ "$STATUS" -eq 2 ] && [ "$(grep -c . "$ERRF")" -eq 1 ]; then ok "bench: $bad is a usage error (exit 2, one line)"
    else notok "bench: $bad" "exit $STATUS; stderr: $(head -c 200 "$ERRF")"; fi
done
