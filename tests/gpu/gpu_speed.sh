# tests/gpu/gpu_speed.sh - the checks that compare timings, run alone on the GPU
# after every correctness suite (tests/run's second phase; POSIX sh, from the
# repository root). Each solution to a write-it or fix-it exercise is timed
# against its reference row in the same run (--exercises --csv -r 20, the
# median) and must reach the speed its chapter asks for. Then the fastest
# kernels against their bars, each in one run against the same run's library
# or copy row (medians): lab05's one-pass reduceModern against
# cub::DeviceReduce::Sum at every n of --sweep, lab06's transposeSmemFloat4
# against the copy ceiling, and lab05's column sums against its row sums.
. tests/lib.sh

exercise_speed lab02 "reduceNeighboredMask=1.20 reduceNeighboredEarlyExit=0.90 reduceNeighboredLessOut=0.95"
exercise_speed lab03 "reduceInterleaved2=1.10 reduceInterleavedAnyN=0.90 reduceInterleavedGridStride=1.20"
exercise_speed lab04 "reduceUnrolling16=0.95 reduceUnrolling8Grid=0.95 reduceUnrolling4Tail=0.95"
exercise_speed lab05 "reduceSmemShfl=1.00 reduceMaxSmem=0.95 reduce2DNumba=0.95"
exercise_speed lab06 "transposeSmem32x8=0.95"

# CSV_HEAD: the start of an awk program that names the CSV's columns: $(h["kernel"]), ...
CSV_HEAD='NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }'

# reduceModern at least level with CUB at every n of the sweep: int over the
# whole sweep (2^10 .. 2^28), float and double up to 2^22. Where both take
# about 4 us (one block, one trip to DRAM: n <= 2^12) the two medians may
# differ by one tick of the event timer (32 ns on the H100) either way, so
# "level" there is "no more than 0.035 us slower"; elsewhere the ratio is at
# least 1.00.
sweep_speed() {
    t=$1; shift
    label="lab05 --sweep --type $t${1:+ $*}"
    run ./lab05 --sweep --type "$t" -k reduceModern,cub::DeviceReduce::Sum --csv -r 100 "$@"
    bad=$(awk -F, "$CSV_HEAD"'
        $(h["role"]) != "kernel" { next }
        $(h["kernel"]) == "reduceModern" && $(h["status"]) == "PASS" { m[$(h["n"])] = $(h["time_ms"]) }
        $(h["kernel"]) == "cub::DeviceReduce::Sum" && $(h["status"]) == "PASS" { c[$(h["n"])] = $(h["time_ms"]) }
        END {
            for (n in c) {
                count++
                if (!(n in m)) { print "n=" n ": no reduceModern row"; continue }
                slack = n + 0 <= 4096 ? 0.000035 : 0
                if (m[n] > c[n] + slack)
                    printf "n=%s: reduceModern %.4f ms, CUB %.4f ms (%.3fx); ", n, m[n], c[n], c[n] / m[n]
            }
            if (count < 7) print "only " count + 0 " sizes with a CUB row"
        }' "$OUTF")
    if [ "$STATUS" -eq 0 ] && [ -z "$bad" ]; then ok "$label: reduceModern level with or ahead of CUB at every n"
    else notok "$label: reduceModern against CUB" "exit $STATUS; $bad"; fi
}
sweep_speed int
sweep_speed float -n 4194304
sweep_speed double -n 4194304

# lab06: transposeSmemFloat4 against the copy ceiling of the same run, at the
# default 2048x2048, the --exercises shape and 8192x8192 (measured on the
# H100: 97.7-98.2%, 99.6-99.8% and 96.5-96.8% of the copy)
transpose_speed() {
    bar=$1; shift
    run ./lab06 -k transposeSmemFloat4 --csv "$@"
    got=$(awk -F, "$CSV_HEAD"' $(h["kernel"]) == "transposeSmemFloat4" && $(h["status"]) == "PASS" { print $(h["pct_of_copy"]) }' "$OUTF")
    if [ "$STATUS" -eq 0 ] && [ -n "$got" ] && awk -v g="$got" -v b="$bar" 'BEGIN { exit !(g + 0 >= b + 0) }'; then
        ok "lab06 transposeSmemFloat4 ${*:-at the default shape}: $got% of the copy (>= $bar%)"
    else
        notok "lab06 transposeSmemFloat4 ${*:-at the default shape}" "exit $STATUS; '$got'% of the copy, wanted >= $bar%"
    fi
}
transpose_speed 97
transpose_speed 97 -n 3000x5000
transpose_speed 96 -n 8192x8192

# lab05's matrix mode: the column sums at least 0.97x the best row sum's GB/s
# (rowSumBlock or CUB's segmented reduce), the same matrix in the same run
run ./lab05 -n 8192x8192 -k rowSumBlock,cub::DeviceSegmentedReduce::Sum,colSumOnePass --csv
ratio=$(awk -F, "$CSV_HEAD"'
    $(h["status"]) != "PASS" { next }
    $(h["kernel"]) == "colSumOnePass" { col = $(h["gbps"]) }
    $(h["kernel"]) == "rowSumBlock" || $(h["kernel"]) == "cub::DeviceSegmentedReduce::Sum" { if ($(h["gbps"]) + 0 > row) row = $(h["gbps"]) + 0 }
    END { if (col > 0 && row > 0) printf "%.3f", col / row }' "$OUTF")
if [ "$STATUS" -eq 0 ] && [ -n "$ratio" ] && awk -v r="$ratio" 'BEGIN { exit !(r >= 0.97) }'; then
    ok "lab05 -n 8192x8192: colSumOnePass at ${ratio}x the best row sum's GB/s (>= 0.97x)"
else
    notok "lab05 -n 8192x8192: colSumOnePass against the row sums" "exit $STATUS; ratio '$ratio', wanted >= 0.97"
fi
