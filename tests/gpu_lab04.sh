# tests/gpu_lab04.sh - lab04 (unrolling) on a GPU. POSIX sh, run from the
# repository root after `make lab04`; tests/run calls it where a device exists.
#
# Exact for every kernel at every n from 1 to 100 (the block turning through
# 32..1024), at n = block*8 - 1, block*8, block*8 + 1 (the unroll-8 tails),
# 1000003 and 2^24 for every block; each kernel alone with -k; bad input
# (exit 2, one line); --list, -h, --explain, --latency, --json; exit 3 with
# a message when no device is visible.
. tests/lib.sh

LAB=./lab04
ROWS=7 # kernels in lab04's table
KERNELS="reduceInterleaved reduceUnrolling2 reduceUnrolling4 reduceUnrolling8 reduceUnrollWarps8 reduceCompleteUnrollWarps8 reduceCompleteUnroll"
BLOCKS="32 64 128 256 512 1024"

if [ ! -x $LAB ]; then
    notok lab04-built "$LAB is missing: run make lab04"
    exit 1
fi

# n = 1..100, every kernel in each run; the block turns through 32..1024 so
# each block meets about 16 small lengths (one process per n keeps this fast)
n=1
while [ $n -le 100 ]; do
    b=$((32 << (n % 6)))
    expect_csv_pass "lab04 n=$n b=$b" $ROWS $LAB -n $n -b $b --csv -r 1
    n=$((n + 1))
done

# the tails of unroll 8 (and so of 2 and 4) at every block, and two large sizes
for b in $BLOCKS; do
    for n in $((b * 8 - 1)) $((b * 8)) $((b * 8 + 1)) 1000003 16777216; do
        expect_csv_pass "lab04 n=$n b=$b" $ROWS $LAB -n $n -b $b --csv -r 2
    done
done

# each kernel alone (-k), at an odd size and the smallest block
for k in $KERNELS; do
    expect_csv_pass "lab04 -k $k" 1 $LAB -k $k -n 100003 -b 32 --csv -r 2
done
expect_csv_pass "lab04 -k two" 2 $LAB -k reduceCompleteUnroll,reduceUnrolling2 -n 4097 -b 1024 --csv -r 2

# bad input: exit 2, one line on stderr, nothing on stdout
expect_usage "lab04 -n 0" $LAB -n 0
expect_usage "lab04 -n past the int range" $LAB -n 4G
expect_usage "lab04 -n abc" $LAB -n abc
expect_usage "lab04 -b 48" $LAB -b 48
expect_usage "lab04 -b 16" $LAB -b 16
expect_usage "lab04 -b 2048" $LAB -b 2048
expect_usage "lab04 -k nope" $LAB -k nope
expect_usage "lab04 -r 0" $LAB -r 0
expect_usage "lab04 --bogus" $LAB --bogus
expect_usage "lab04 --csv --json" $LAB --csv --json

# the modes that need no device
expect_status 0 "lab04 --list" $LAB --list
for k in $KERNELS; do
    expect_grep "lab04 --list names $k" "^$k " "$OUTF"
done
expect_status 0 "lab04 -h" $LAB -h
expect_grep "lab04 -h shows usage" "^usage: ./lab04" "$OUTF"
expect_grep "lab04 -h names --latency" "[-]-latency" "$OUTF"
expect_status 0 "lab04 --explain" $LAB --explain
expect_grep "lab04 --explain counts the barriers" "^reduceUnrollWarps8 +8 +4096 +4 +6 +4096 +16384$" "$OUTF"
expect_grep "lab04 --explain draws the last warp" "^reduceCompleteUnroll<512> +\[16\]\| 8 \| 4 \| 2 \| 1 : 1 : 1 : 1 : 1 : 1" "$OUTF"
expect_status 0 "lab04 --explain -b 32" $LAB --explain -b 32
expect_grep "lab04 --explain -b 32 keeps the skipped barriers" "^reduceCompleteUnrollWarps8 +\[1\]\| - \| - \| - \| - \| 1 :" "$OUTF"
expect_status 0 "lab04 --explain on a CPU-only machine" env CUDA_VISIBLE_DEVICES= $LAB --explain

# latency_checks: --latency measures the idle latency (pointer chase), then
# streamRead under load for 4- and 16-byte loads, k = 1..16 in flight per
# thread, each row checked (PASS) with Little's law solved for the latency;
# the odd sizes take the int4 kernels' tail of n % 4 ints
latency_checks() {
    for args in "-r 3" "-r 2 -n 1000003" "-r 2 -n 7" "-r 2 -n 1"; do
        # shellcheck disable=SC2086
        expect_status 0 "lab04 --latency $args" $LAB --latency $args
        expect_grep "lab04 --latency $args: the idle latency first" "^latency +[0-9]+ ns idle" "$OUTF"
        rows=$(grep -Ec '^ ?(4|16) B +[0-9]+ +[0-9]+ +[0-9.]+ KiB +[0-9.]+ +[0-9.]+% +[0-9]+  PASS$' "$OUTF")
        if [ "$rows" -eq 10 ]; then ok "lab04 --latency $args: 10 streamRead rows, each PASS"
        else notok "lab04 --latency $args: streamRead rows" "$rows of 10 PASS: $(grep ' B ' "$OUTF" | head -c 400)"; fi
        for load in 4 16; do
            for k in 1 2 4 8 16; do
                if ! grep -Eq "^ ?$load B +$k " "$OUTF"; then
                    notok "lab04 --latency $args: a row $load B x $k" "missing"
                fi
            done
        done
    done
    run $LAB --latency -r 3
    if grep -Eq '^Enough in flight: [0-9]+% of the best rate' "$OUTF"; then
        ok "lab04 --latency says how many bytes per SM are enough"
        expect_grep "lab04 --latency: the latency under load against the idle one" \
            "^thread\); the latency under load there is [0-9]+ ns, [0-9.]+x the idle [0-9]+ ns" "$OUTF"
        expect_grep "lab04 --latency sets each kernel against it" \
            "^  reduceInterleaved +1 +[0-9.]+ KiB +[0-9.]+x$" "$OUTF"
    else
        notok "lab04 --latency: enough bytes in flight" "no Enough line at the default n: $(grep -E '^(No| 4|16) ' "$OUTF" | head -c 600)"
    fi
    wide=$(awk 'length($0) > 100 && !/^device / { print NR ": " $0; exit }' "$OUTF")
    if [ -z "$wide" ]; then ok "lab04 --latency fits in 100 columns (the device line aside)"
    else notok "lab04 --latency fits in 100 columns" "$wide"; fi
    expect_status 3 "lab04 --latency without a device" env CUDA_VISIBLE_DEVICES= $LAB --latency
}
latency_checks

# --json carries the same verdict
expect_status 0 "lab04 --json" $LAB --json -n 1000003 -r 2
expect_grep "lab04 --json passes" '"status": "PASS"' "$OUTF"
expect_grep "lab04 --json has every row" "\"passed\": $ROWS," "$OUTF"
if command -v python3 >/dev/null 2>&1; then
    if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "lab04 --json parses"
    else notok "lab04 --json parses" "python3 -m json.tool refuses it"; fi
fi

# the default table: PASS on every row
expect_status 0 "lab04 default table" $LAB -r 5
expect_grep "lab04 table has reduceCompleteUnroll" "^reduceCompleteUnroll .*PASS" "$OUTF"

# no visible device: exit 3 and say so
expect_status 3 "lab04 without a device" env CUDA_VISIBLE_DEVICES= $LAB -n 1000
expect_grep "lab04 without a device says so" "no usable CUDA device" "$ERRF"

# the exercises (lab04_unroll/exercises.cuh): as shipped, and the solutions
# at odd and edge sizes and every block, with their speed
ex_args=
for b in $BLOCKS; do
    for n in 1 3 $((b * 16 - 1)) $((b * 16 + 1)) 1000003; do ex_args="$ex_args|-n $n -b $b"; done
done
exercise_checks lab04 "reduceUnrolling16" "reduceUnrolling8Grid reduceUnrolling4Tail" \
    "reduceUnrolling16=0.95 reduceUnrolling8Grid=0.95 reduceUnrolling4Tail=0.95" "${ex_args#|}|-n 16777216"

# --finish device: each kernel relaunched on its own partial sums until one
# value remains (tests/lib.sh): 8 elements per thread need one launch less;
# lab05 and lab06 have no choice of finish and say so
lab04_finish_device() {
    device_finish_checks lab04 $ROWS \
        "2 launches per reduction at n = 16777216, block 512 (grids 4096, 1): reduceUnrolling8,"
    run $LAB --finish device -r 1
    expect_grep "lab04 --finish device: reduceInterleaved takes 3 launches" \
        "3 launches per reduction at n = 16777216, block 512 \(grids 32768, 64, 1\): reduceInterleaved$" "$OUTF"
    for o in lab05 lab06 lab05-finish; do
        if [ -x ./$o ]; then
            expect_usage "$o refuses --finish device" ./$o --finish device
            expect_grep "$o --finish: says which labs take it" "has no choice of finish \(lab02, lab03 and lab04" "$ERRF"
        else
            skip "$o refuses --finish" "./$o not built"
        fi
    done
}
lab04_finish_device
