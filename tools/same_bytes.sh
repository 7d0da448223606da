#!/bin/sh
# tools/same_bytes.sh - what every program prints without a GPU: -h, --list,
# --explain and every bad-input line, with its exit status; lab01 --check
# (its CPU verdicts) too. For a change to the harness that must not change
# them: capture from the build before, then from the build after, and diff.
#
#   sh tools/same_bytes.sh DIR OUT    DIR holds the labs (tools/labs.conf)
#   diff -r OUT_before OUT_after
set -u
dir=$1
out=$2
mkdir -p "$out"
i=0
run() { # run BIN ARGS...: stdout, stderr (seconds cut) and status into one file
    bin=$1; shift
    i=$((i + 1))
    f=$(printf '%s/%03d-%s' "$out" "$i" "$bin")
    { echo "\$ $bin $*"; "$dir/$bin" "$@" 2>"$f.err"; echo "status $?"; } >"$f"
    sed 's/([0-9.]* s)$/(S s)/' "$f.err" >>"$f"
    rm -f "$f.err"
}
LABS_CONF=${LABS_CONF:-$(dirname "$0")/labs.conf}
. "$(dirname "$0")/labs.sh"
for lab in $(lab_list); do
    run $lab -h
    run $lab --help
    run $lab --list
    run $lab --explain
    run $lab -n 0
    run $lab -n abc
    run $lab -n 3G
    run $lab -n
    run $lab -b 33
    run $lab -b 2048
    run $lab -b 16x16
    run $lab -k nope
    run $lab -k reduceNeighbored,nope
    run $lab --type quad
    run $lab --type float --values zero
    run $lab --values uniform
    run $lab --finish sideways
    run $lab --finish device
    run $lab -r 0
    run $lab --bogus
    run $lab stray
    run $lab --csv --json
    run $lab --check --json
    run $lab --check --explain
    run $lab --exercises --type float
    run $lab -n 1,2
    run $lab --check -n 1,0
    run $lab --seed x
    run $lab --nx 5
    run $lab -n 1000
    run $lab --exercises -n 1000
    run $lab --trace
    run $lab --trace nope -x
    run $lab --sweep -n 100
    run $lab --latency --check
    run $lab --explain -n 40 -b 64
done
run lab05 -n 8x8 -h
run lab05 -n 8x8 --list
run lab05 -n 12x6 --explain
run lab05 -n 8x8 -b 33x8
run lab05 -n 8x8 -k reduceGmem
run lab05 -n 8x8 --sweep
run lab06 -n 1x100000000
run lab06 -n 1x70000 -b 32x1
run lab06 -n 2048x2048 -b 64x64
run lab01 --trace -n 100
run lab01 --trace --type float
run lab01 --trace -n 20
run lab01 --explain -n 9
run lab01 --check -n 1,17,1000003 --type int,float,double
run lab01 --check -n 1,17,1003 --type float,double --values uniform --seed 1,2
run lab01 --check --exercises -n 1,17,1000
run lab01 --check -k sequential,pairwiseBlocked -n 33
