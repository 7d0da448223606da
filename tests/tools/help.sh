#!/bin/sh
# tests/tools/help.sh - each program's -h names exactly the options its
# parser takes (POSIX sh, no GPU needed): every option of the workbook's
# command line is tried on every built program (`./labNN OPT VALUE --list`,
# which parses and exits before any GPU work; `--trace` alone for the
# kernel trace, which a GPU lab hands to tools/trace/), and -h must name
# the options that were taken and no other. Then --list --csv against
# --list. Run from the repository root (tests/run does).
. tests/lib.sh

# probe BIN OPTION: 0 if BIN takes OPTION (with a value that fits BIN)
probe() {
    pb=$1; o=$2
    case $o in
        --trace)
            # lab01's --trace is a flag of its own; a GPU lab's takes a kernel
            "$pb" --trace --list >"$TMPD/p.out" 2>"$TMPD/p.err" && return 0
            grep -q -- "--trace needs a kernel" "$TMPD/p.err"; return ;;
        -n) set -- -n "$(if [ "$matrix" = 1 ]; then echo 64x64; else echo 1000; fi)" ;;
        -b) set -- -b "$(if [ "$matrix" = 1 ]; then echo 32x8; else echo 256; fi)" ;;
        -k) set -- -k "$first" ;;
        -r) set -- -r 3 ;;
        --seed) set -- --seed 5 ;;
        --type) set -- --type float ;;
        --values) set -- --type float --values uniform ;;
        --finish) set -- --finish device ;;
        --nx|--ny) set -- "$o" 64 ;;
        *) set -- "$o" ;;
    esac
    "$pb" "$@" --list >"$TMPD/p.out" 2>"$TMPD/p.err"
}

OPTIONS="-n -b -k -r --seed --csv --json --explain --check --exercises --type --values --finish
--nx --ny --trace --sweep --latency --list --dry-run --capabilities -h"
nbin=0
for b in $(lab_list_parts_last); do
    [ -x "./$b" ] || continue
    nbin=$((nbin + 1))
    "./$b" -h >"$TMPD/help" 2>&1 || { notok "$b -h" "exit $?"; continue; }
    awk '/^usage:/ { u = 1 } u && !NF { exit } u' "$TMPD/help" >"$TMPD/usage"
    matrix=0; grep -q '^usage: [^ ]* \[-n NXxNY' "$TMPD/usage" && matrix=1
    first=$("./$b" --list | awk 'NF { print $1; exit }')
    bad=
    for o in $OPTIONS; do
        taken=0; probe "./$b" "$o" && taken=1
        # named in the usage lines, and described in a line of its own
        named=0; described=0
        grep -qE -- "(^|[][ ,|])$o([][ ,=]|$)" "$TMPD/usage" && named=1
        grep -qE -- "^  ([-a-z]+, )?$o([ ,]|$)" "$TMPD/help" && described=1
        [ $taken -eq $named ] && [ $taken -eq $described ] && continue
        if [ $taken -eq 1 ]; then bad="$bad; takes $o but -h does not $([ $named -eq 0 ] && echo name || echo describe) it"
        else bad="$bad; -h names $o, which it refuses: $(head -c 120 "$TMPD/p.err")"; fi
    done
    if [ -z "$bad" ]; then ok "$b -h names every option it takes, and no other"
    else notok "$b -h against its parser" "${bad#; }"; fi
done
[ $nbin -gt 0 ] || skip "-h against the parser" "no lab built"

# --list --csv (what tools/sanitize.sh and profile.sh read) holds the rows of
# --list: each name, its kind and the row it is measured against, in order;
# lab05's matrix mode under -n 1x1
for b in $(lab_list_parts_last); do
    [ -x "./$b" ] || continue
    list_table "./$b"
    for part in 1d matrix; do
        shape=
        [ $part = matrix ] && shape="-n 1x1"
        want=$(awk -v p=$part '$1 == p { print $2, $3, $4 }' "$TMPD/list.tab")
        [ $part = matrix ] && [ -z "$want" ] && continue
        # shellcheck disable=SC2086
        got=$("./$b" $shape --list --csv 2>&1 | awk -F, 'NR > 1 { print $2, $1, ($3 == "" ? "-" : $3) }')
        if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "$b${shape:+ $shape} --list --csv: the rows of --list"
        else notok "$b${shape:+ $shape} --list --csv" "got '$(echo $got | cut -c 1-150)', --list says '$(echo $want | cut -c 1-150)'"; fi
    done
done
