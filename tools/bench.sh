#!/bin/sh
# tools/bench.sh - the workbook's speed bars, measured on the GPU at hand (make bench).
#
#   make bench                  builds lab05 and lab06, runs this from the repository root
#   make bench STRICT=1         the same, exit status 1 when a bar is missed
#   sh tools/bench.sh --from docs/results/nvidia-h100-80gb-hbm3
#                               the same table from a kept set of make results' CSVs
#                               (no GPU): each bar whose run the set holds, the rest
#                               "not measured"
#
# The bars, each measured against the same run's reference row (medians of
# CUDA-event times, L2 flushed before every repetition); each run is made
# BENCH_RUNS times (default 3) and a bar's figure is the median of its runs'
# ratios:
#   lab05 --sweep, int, float and double, n = 2^10 .. 2^28: the fastest one-pass
#       kernel (reduceModern, reduceAtomic) at least 1.01x cub::DeviceReduce::Sum
#       (CUB's time over ours)
#   lab06 at 2048x2048 (the default), 8192x8192 and 3000x5000: the fastest
#       transpose at least 98% of the device-to-device copy of the same bytes,
#       and at least 1.03x the library's transpose (cublasSgeam's time over ours)
#   lab05 -n 8192x8192 and 20000x20000: the whole matrix (reduce2DModern) at
#       least 1.00x and the row sums (rowSumWarp, rowSumBlock) at least 1.02x
#       their CUB rows (cub::DeviceReduce::Sum, cub::DeviceSegmentedReduce::Sum);
#       the column sums (colSumCoalesced, colSumOnePass) at least 0.98x the GB/s
#       of the best row sum (CUB's included)
# A ratio is compared as printed (3 decimals; a percentage, 1 decimal).
#
# Prints the table (bar, measured, met or missed, with the GPU's name) and
# writes docs/results/<gpu>/bench.csv and bench.svg (tools/chart), <gpu> being
# the GPU's name made file-safe as tools/results.sh makes it
# (nvidia-h100-80gb-hbm3); BENCH_DIR=dir writes under dir instead of
# docs/results. The lab runs' own CSVs stay in build/bench/.
#
# Exit status: 0 (also when a bar is missed, unless STRICT=1: then 1); 1 a
# lab run failed (a wrong result, or it did not run); 2 bad usage; 3 no
# usable GPU.
cd "$(dirname "$0")/.." || exit 2

from=
case $# in
    0) ;;
    2) [ "$1" = --from ] || { echo "bench: unknown option '$1'; give --from DIR or nothing" >&2; exit 2; }
       from=$2
       [ -d "$from" ] || { echo "bench: --from '$from' is not a folder of ./labNN --csv files" >&2; exit 2; } ;;
    *) echo "usage: sh tools/bench.sh [--from DIR]   (make bench [STRICT=1])" >&2; exit 2 ;;
esac
RUNS=${BENCH_RUNS:-3}
case $RUNS in
    '' | *[!0-9]* | 0) echo "bench: BENCH_RUNS=$RUNS is not accepted: give a count of runs, 1 or more" >&2; exit 2 ;;
esac
case ${STRICT:-} in
    '' | 0 | 1) ;;
    *) echo "bench: STRICT=$STRICT is not accepted: give STRICT=1 (exit 1 when a bar is missed) or leave it out" >&2
       exit 2 ;;
esac

runs=build/bench
mkdir -p "$runs" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

# The runs, one CSV each, named by what they hold (the evaluation below
# reads them by these names): RUN|FILE|how it was made
SIZES_2D="8192x8192 20000x20000"
SHAPES_T="2048x2048 8192x8192 3000x5000"
# the rows a measured run times: the candidates for each bar and their
# references (lab06's other transposes stay under 90% of the copy, and the
# matrix mode's naive rows far under its bars: measuring them adds nothing)
TRANSPOSES=transposeSmemPad,transposeSmemFloat4,transposeTMA,cublasSgeam
MATRIX_ROWS=reduce2DModern,cub::DeviceReduce::Sum,rowSumWarp,rowSumBlock,cub::DeviceSegmentedReduce::Sum
MATRIX_ROWS=$MATRIX_ROWS,colSumCoalesced,colSumOnePass
failed=0
: >"$tmp/made"

# run_one NAME LAB ARGS...: ./LAB ARGS --csv > $runs/NAME-K.csv, K = 1 .. RUNS
run_one() {
    name=$1; lab=$2; shift 2
    printf '  %-20s ' "$name"
    k=1
    while [ "$k" -le "$RUNS" ]; do
        f=$runs/$name-$k.csv
        "./$lab" "$@" --csv >"$f" 2>"$runs/$name.err"
        st=$?
        case $st in
            0) echo "$name|$f|./$lab $* --csv|$k" >>"$tmp/made" ;;
            3) echo "no usable GPU or a CUDA error (exit 3): $(head -n 1 "$runs/$name.err")"
               echo "bench: ./$lab needs a usable CUDA GPU; nothing measured" >&2
               exit 3 ;;
            *) echo "FAILED (exit $st): $(head -n 1 "$runs/$name.err")"; failed=1; rm -f "$f"; return ;;
        esac
        k=$((k + 1))
    done
    echo "ok ($RUNS runs)"
}

if [ -z "$from" ]; then
    for l in lab05 lab06; do
        [ -x "./$l" ] || { echo "bench: ./$l is not built (make bench builds it)" >&2; exit 2; }
    done
    echo "measuring (each run's CSV: $runs/RUN.csv; the commands are listed under the table):"
    for t in int float double; do
        run_one sweep-$t lab05 --sweep --type $t -k reduceModern,reduceAtomic,cub::DeviceReduce::Sum -r 100
    done
    for s in $SHAPES_T; do run_one lab06-$s lab06 -n $s -k "$TRANSPOSES"; done
    for s in $SIZES_2D; do run_one matrix-$s lab05 -n $s -k "$MATRIX_ROWS"; done
else
    # a kept make results set: its file for each run, where it has one
    # (lab06 at 8192x8192: the default build's, else the -dlcm=ca build's)
    for pair in sweep-int:lab05-sweep sweep-float:lab05-sweep-float sweep-double:lab05-sweep-double \
        lab06-2048x2048:lab06 lab06-8192x8192:lab06-8192 lab06-8192x8192:lab06-8192-ca \
        lab06-3000x5000:lab06-3000x5000 matrix-8192x8192:lab05-matrix matrix-20000x20000:lab05-matrix-20000; do
        name=${pair%%:*}; file=$from/${pair#*:}.csv
        [ -f "$file" ] || continue
        grep -q "^$name|" "$tmp/made" && continue
        echo "$name|$file|kept: $file|1" >>"$tmp/made"
    done
fi

# The table, from the runs: one line per bar, `|`-separated:
# group|what|size|type|kernel|reference|measured|unit|bar|verdict|source|run_at
# (unit x: a ratio; %: a percentage of the copy)
LC_ALL=C awk -F'|' -v sizes2d="$SIZES_2D" -v shapes="$SHAPES_T" '
    # run r of name: its PASS rows by kernel and size
    function readcsv(name, file, r,    line, n, i, f, key) {
        while ((getline line < file) > 0) {
            sub(/\r$/, "", line)
            n = split(line, f, ",")
            if (f[1] == "lab") { for (i = 1; i <= n; i++) H[f[i]] = i; continue }
            if (f[H["role"]] != "kernel" || f[H["status"]] != "PASS") continue
            key = name SUBSEP f[H["kernel"]] SUBSEP (f[H["nx"]] + 0 > 0 ? f[H["nx"]] "x" f[H["ny"]] : f[H["n"]]) SUBSEP r
            T[key] = f[H["time_ms"]] + 0; G[key] = f[H["gbps"]] + 0; P[key] = f[H["pct_of_copy"]] + 0
            if (!(name in DEV)) { DEV[name] = f[H["device"]]; AT[name] = f[H["run_at"]]; BUILD[name] = f[H["build"]] }
        }
        close(file)
    }
    # the fastest (smallest time) of the space-separated kernels at size s in run r of name: its key
    function fastest(name, list, s, r,    n, k, i, best, key) {
        n = split(list, k, " "); best = ""
        for (i = 1; i <= n; i++) {
            key = name SUBSEP k[i] SUBSEP s SUBSEP r
            if ((key in T) && (best == "" || T[key] < T[best])) best = key
        }
        return best
    }
    # the transpose of run r at shape s with the highest % of the copy (no copy, no library)
    function best_transpose(name, s, r,    key, p, best) {
        best = ""
        for (key in P) {
            split(key, p, SUBSEP)
            if (p[1] != name || p[3] != s || p[4] != r || p[2] ~ /^(copy|cublas)/) continue
            if (best == "" || P[key] > P[best]) best = key
        }
        return best
    }
    function kname(key,    p) { split(key, p, SUBSEP); return p[2] }
    # the runs measured: one ratio per run in V[1..nv], the kernel of each in VK[]
    function clear() { nv = 0; delete V; delete VK }
    function add(v, key) { V[++nv] = v; VK[nv] = kname(key) }
    # the median of V[1..nv] (the lower middle of an even count), the kernel of that run in MK
    function median(    i, j, t, tk) {
        for (i = 2; i <= nv; i++)
            for (j = i; j > 1 && V[j - 1] > V[j]; j--) { t = V[j]; V[j] = V[j - 1]; V[j - 1] = t; tk = VK[j]; VK[j] = VK[j - 1]; VK[j - 1] = tk }
        MK = VK[int((nv + 1) / 2)]
        return V[int((nv + 1) / 2)]
    }
    # one bar from the ratios collected (none: not measured, with why)
    function bar(group, what, s, type, name, ref, unit, b, why,    m, v, shown, kern) {
        if (nv == 0) { v = "not measured"; shown = ""; kern = "" }
        else {
            m = median(); kern = MK
            shown = unit == "x" ? sprintf("%.3f", m) : sprintf("%.1f", m)
            v = (shown + 0 >= b + 0) ? "met" : "missed"
        }
        printf "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%d\n", group, what, s, type, kern, ref, shown, unit,
            b, (nv == 0 ? v (why != "" ? ": " why : "") : v), (name in SRC) ? SRC[name] : "", (name in AT) ? AT[name] : "", nv
    }
    { SRC[$1] = $3; readcsv($1, $2, $4); if ($4 + 0 > RUNS[$1]) RUNS[$1] = $4 + 0 }
    END {
        ONE = "reduceModern reduceAtomic"; CUB = "cub::DeviceReduce::Sum"; SEG = "cub::DeviceSegmentedReduce::Sum"
        for (i = 1; i <= 3; i++) {
            t = i == 1 ? "int" : i == 2 ? "float" : "double"; name = "sweep-" t
            for (e = 10; e <= 28; e += 2) {
                s = sprintf("%d", 2 ^ e); clear()
                for (r = 1; r <= RUNS[name]; r++) {
                    best = fastest(name, ONE, s, r); ref = name SUBSEP CUB SUBSEP s SUBSEP r
                    if (best != "" && (ref in T) && T[best] > 0) add(T[ref] / T[best], best)
                }
                bar("sweep", "one pass / CUB", "2^" e, t, name, CUB, "x", "1.01", (name in DEV) ? "no such n in the run" : "no run")
            }
        }
        ns = split(shapes, S, " ")
        for (i = 1; i <= ns; i++) {
            name = "lab06-" S[i]; why = (name in DEV) ? "no such shape in the run" : "no run"; clear()
            for (r = 1; r <= RUNS[name]; r++)
                if ((best = best_transpose(name, S[i], r)) != "") add(P[best], best)
            bar("transpose", "transpose / copy", S[i], "float", name, "the copy", "%", "98", why)
            clear()
            for (r = 1; r <= RUNS[name]; r++) {
                best = best_transpose(name, S[i], r); ref = name SUBSEP "cublasSgeam" SUBSEP S[i] SUBSEP r
                if (best != "" && (ref in T) && T[best] > 0) add(T[ref] / T[best], best)
            }
            bar("transpose", "transpose / cuBLAS", S[i], "float", name, "cublasSgeam", "x", "1.03", (name in DEV) ? "no cublasSgeam row in the run" : why)
        }
        ns = split(sizes2d, S, " ")
        for (i = 1; i <= ns; i++) {
            name = "matrix-" S[i]; why = (name in DEV) ? "a row missing in the run" : "no run"
            clear()
            for (r = 1; r <= RUNS[name]; r++) {
                best = fastest(name, "reduce2DModern", S[i], r); ref = name SUBSEP CUB SUBSEP S[i] SUBSEP r
                if (best != "" && (ref in T) && T[best] > 0) add(T[ref] / T[best], best)
            }
            bar("matrix", "whole matrix / CUB", S[i], "int", name, CUB, "x", "1.00", why)
            clear()
            for (r = 1; r <= RUNS[name]; r++) {
                best = fastest(name, "rowSumWarp rowSumBlock", S[i], r); ref = name SUBSEP SEG SUBSEP S[i] SUBSEP r
                if (best != "" && (ref in T) && T[best] > 0) add(T[ref] / T[best], best)
            }
            bar("matrix", "row sums / CUB", S[i], "int", name, SEG, "x", "1.02", why)
            clear()
            for (r = 1; r <= RUNS[name]; r++) {
                best = fastest(name, "colSumCoalesced colSumOnePass", S[i], r); ref = fastest(name, "rowSumWarp rowSumBlock " SEG, S[i], r)
                if (best != "" && ref != "" && G[ref] > 0) add(G[best] / G[ref], best)
            }
            bar("matrix", "columns / rows GB/s", S[i], "int", name, "the best row sum", "x", "0.98", why)
        }
        for (name in DEV) { print "#device|" DEV[name] "|" BUILD[name]; break }
    }' "$tmp/made" >"$tmp/table"

gpu=$(awk -F'|' '$1 == "#device" { print $2; exit }' "$tmp/table")
# the day: today's for a measured run, the kept runs' own (their first run_at) for --from
day=$(date +%Y-%m-%d)
[ -n "$from" ] && day=$(awk -F'|' '$1 !~ /^#/ && $12 != "" { print substr($12, 1, 10); exit }' "$tmp/table")
build=$(awk -F'|' '$1 == "#device" { print $3; exit }' "$tmp/table")
if [ -z "$gpu" ]; then
    echo "bench: no run to read${from:+ in $from}: nothing measured" >&2
    exit 1
fi
slug=$(sh tools/gpu.sh slug "$gpu") # the folder make results uses for this GPU
out=${BENCH_DIR:-docs/results}/$slug
mkdir -p "$out" || exit 2

# the CSV: one row per bar
{
    echo "device,group,what,size,type,kernel,reference,measured,unit,bar,verdict,source,run_at,runs"
    awk -F'|' -v dev="$gpu" '$1 !~ /^#/ {
        printf "%s", dev
        for (i = 1; i <= NF; i++) { v = $i; gsub(/,/, ";", v); printf ",%s", v }
        printf "\n" }' "$tmp/table"
} >"$out/bench.csv"

# the table on the screen
echo
if [ -z "$from" ]; then
    echo "make bench on $gpu ($build), $day: each bar the median of $RUNS runs,"
else
    echo "the bars from the runs kept in $from: $gpu ($build), $day,"
    echo "each bar from one run against the same run's reference row (medians)"
fi
[ -z "$from" ] && echo "each against the same run's reference row (medians)"
awk -F'|' '
    $1 ~ /^#/ { next }
    {
        lab = $1 == "sweep" ? "lab05 --sweep " $4 " " $3 : $1 == "transpose" ? "lab06 -n " $3 : "lab05 -n " $3
        what = $2 " >= " $9 ($8 == "x" ? "x" : "%")
        m = $7 == "" ? "-" : $7 ($8 == "x" ? "x" : "%")
        v = $10; why = ""
        if (v ~ /^not measured: /) { why = "(" substr(v, 15) ")"; v = "not measured" }
        if (!hdr++) printf "  %-26s %-28s %7s  %-12s %s\n", "run", "bar", "measured", "", "fastest"
        printf "  %-26s %-28s %7s  %-12s %s\n", lab, what, m, v, ($7 == "" ? why : $5)
        c[v]++
    }
    END {
        printf "%d met, %d missed, %d not measured\n", c["met"], c["missed"], c["not measured"]
    }' "$tmp/table"
# the runs, the matrix rows' long -k list written once (100 columns)
echo "runs:"
awk -F'|' -v m="$MATRIX_ROWS" '
    $4 != 1 { next }
    { c = $3; i = index(c, m); if (i) { c = substr(c, 1, i - 1) "M" substr(c, i + length(m)); seen = 1 } print "  " c }
    END { if (seen) { gsub(/,cub::DeviceSegmentedReduce/, ",\n      cub::DeviceSegmentedReduce", m); print "  M = " m } }' "$tmp/made"

if sh tools/chart -d "$day" -n "${from:+kept runs, }bars against the same run's reference" "$out/bench.csv" >"$out/bench.svg" 2>"$tmp/chart.err"; then
    echo "kept: $out/bench.csv, $out/bench.svg"
else
    echo "kept: $out/bench.csv (no chart: $(head -n 1 "$tmp/chart.err"))"
    rm -f "$out/bench.svg"
fi

[ "$failed" -ne 0 ] && exit 1
[ "${STRICT:-}" = 1 ] && grep -q '|missed|' "$tmp/table" && exit 1
exit 0
