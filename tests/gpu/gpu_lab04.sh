# tests/gpu/gpu_lab04.sh - lab04 (unrolling) on a GPU. POSIX sh, run from the
# repository root after `make lab04`; tests/run calls it where a device exists.
#
# Exact for every kernel at every n from 1 to 100, at n = block*8 - 1,
# block*8, block*8 + 1 (the unroll-8 tails), 1000003 and 2^24 at every block
# 32..1024 and both finishes (one --check run); one kernel alone with -k;
# bad input (exit 2, one line); --list, -h, --explain, --latency, --json;
# exit 3 with a message when no device is visible. The exercises: as shipped
# and the solutions (their speed is tests/gpu/gpu_speed.sh's).
# gpu-memory: 128 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

lab_suite lab04 # LAB, KERNELS
ROWS=7 # kernels in lab04's table
BLOCKS="32 64 128 256 512 1024"

# n = 1..100, the tails of unroll 8 (and so of 2 and 4: n = block*8 - 1,
# block*8, block*8 + 1) of every block, two large sizes and the exercise size,
# at every block and both finishes (one --check run); one kernel alone with
# -k; bad input; --list, -h, --json, the default table, no device (tests/lib.sh)
sizes=
n=1
while [ $n -le 100 ]; do sizes="$sizes $n"; n=$((n + 1)); done
for b in $BLOCKS; do sizes="$sizes $((b * 8 - 1)) $((b * 8)) $((b * 8 + 1))"; done
reduction_lab_checks lab04 $ROWS "$KERNELS" "$sizes 1000003 16777213 16777216" host,device
check_cross "lab04 -k two" "reduceCompleteUnroll reduceUnrolling2" \
    $LAB --check -k reduceCompleteUnroll,reduceUnrolling2 -n 4097 -b 1024
expect_grep "lab04 table has reduceCompleteUnroll" "^reduceCompleteUnroll .*PASS" "$TMPD/lab04.table"

# bad input: exit 2, one line on stderr, nothing on stdout
expect_usage "lab04 -r 0" $LAB -r 0
expect_usage "lab04 --csv --json" $LAB --csv --json

# the modes that need no device
expect_status 0 "lab04 -h" $LAB -h
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
        [ "$args" = "-r 3" ] && cp "$OUTF" "$TMPD/latency" # the default n: its sentence below
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
    cp "$TMPD/latency" "$OUTF"
    if grep -Eq '^Enough in flight: [0-9]+% of the best rate' "$OUTF"; then
        ok "lab04 --latency says how many bytes per SM are enough"
        # the sentence as one line, however the program wraps it
        if awk '/^Enough in flight/ { on = 1 } on && /^$/ { exit } on { printf "%s ", $0 }' "$OUTF" |
            grep -Eq "Little's law puts the latency under load there +at [0-9]+ ns at most, [0-9.]+x the idle [0-9]+ ns"; then
            ok "lab04 --latency: the latency under load against the idle one"
        else
            notok "lab04 --latency: the latency under load against the idle one" "$(grep -A3 '^Enough' "$OUTF" | head -c 400)"
        fi
        expect_grep "lab04 --latency sets each kernel against it" \
            "^  reduceInterleaved +1 +[0-9.]+ KiB +[0-9.]+x$" "$OUTF"
    else
        notok "lab04 --latency: enough bytes in flight" "no Enough line at the default n: $(grep -E '^(No| 4|16) ' "$OUTF" | head -c 600)"
    fi
    check_width "lab04 --latency fits in 100 columns" "$OUTF"
    expect_status 3 "lab04 --latency without a device" env CUDA_VISIBLE_DEVICES= $LAB --latency
}
latency_checks

# the exercises (lab04_unroll/exercises.cuh): as shipped, and the solutions
# at odd and edge sizes (the tails of unroll 16 of every block) at every
# block and both finishes (tests/lib.sh); their speed is tests/gpu/gpu_speed.sh's
ex_sizes="1 3 33"
for b in $BLOCKS; do ex_sizes="$ex_sizes $((b * 16 - 1)) $((b * 16 + 1))"; done
exercise_checks lab04 "-n $(commas "$ex_sizes 1000003 16777213 16777216") -b $(commas "$BLOCKS") --finish host,device"

# --finish device: each kernel relaunched on its own partial sums until one
# value remains (tests/lib.sh): 8 elements per thread need one launch less;
# lab05, lab05-finish and lab06 have no choice of finish: --finish is an
# unknown option there, one line that sends to -h
lab04_finish_device() {
    device_finish_checks lab04 $ROWS \
        "2 launches per reduction at n = 16777216, block 512 (grids 4096, 1): reduceUnrolling8,"
    expect_grep "lab04 --finish device: reduceInterleaved takes 3 launches" \
        "3 launches per reduction at n = 16777216, block 512 \(grids 32768, 64, 1\): reduceInterleaved$" \
        "$TMPD/lab04.device-table"
    for o in $(lab_list_parts_last device gpu); do
        lab_has $o modes finish && continue
        if [ -x ./$o ]; then
            expect_usage "$o refuses --finish device" ./$o --finish device
            expect_grep "$o --finish: an unknown option, -h names the options" \
                "^$o: unknown option '--finish'; run ./$o -h for the options$" "$ERRF"
        else
            skip "$o refuses --finish" "./$o not built"
        fi
    done
}
lab04_finish_device
