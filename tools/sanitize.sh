#!/bin/sh
# tools/sanitize.sh - every GPU lab under compute-sanitizer's four tools (make sanitize).
#
#   sh tools/sanitize.sh lab02 lab03 ...
#
# Runs each lab at small sizes under memcheck (out-of-bounds and misaligned
# accesses), racecheck (shared-memory races), synccheck (barriers misused,
# e.g. __syncthreads() where not every thread of the block arrives) and
# initcheck (reads of device memory never written):
#   reductions (lab02-lab05): -n 100003 -r 1 -b 256   and   -n 1000 -r 1 -b 32
#     (odd lengths: the tail of the last block is exercised)
#   transpose (lab06):        -n 300x200 -r 1          (a rectangle, sides not multiples of the tile)
# with --error-exitcode 9, so any report fails the run. A kernel that refuses
# -b 32 (it names its block range) is left out of that run, with a note.
# Prints one PASS/FAIL line per lab and tool and a summary; full logs in
# build/sanitize/. Exit status: 0 nothing reported; 1 a report, a lab that
# failed or a lab binary missing; 2 compute-sanitizer not found.
# COMPUTE_SANITIZER=path overrides where the tool is looked for.
cd "$(dirname "$0")/.." || exit 2

if [ $# -eq 0 ]; then
    echo "usage: sh tools/sanitize.sh labNN...   (make sanitize runs every GPU lab)" >&2
    exit 2
fi

cs=${COMPUTE_SANITIZER:-}
if [ -z "$cs" ]; then
    cs=$(command -v compute-sanitizer 2>/dev/null)
    [ -z "$cs" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && cs=/usr/local/cuda/bin/compute-sanitizer
fi
if [ -z "$cs" ] || [ ! -x "$cs" ]; then
    echo "sanitize: compute-sanitizer not found; it ships with the CUDA toolkit (put its bin/ on PATH or set COMPUTE_SANITIZER=path)" >&2
    exit 2
fi
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 600"

logs=build/sanitize
mkdir -p "$logs"
TOOLS="memcheck racecheck synccheck initcheck"
passed=0; failed=0; failures=

echo "compute-sanitizer $("$cs" --version 2>/dev/null | grep -i version | head -n 1 | sed 's/.*[Vv]ersion *//')${limit:+, each run limited to 600 s}"

# run_one TOOL LAB LOG ARGS...: the lab under the tool; $run_status, $run_note
# A kernel that refuses the block size (exit 2, "NAME takes blocks of ...") is
# left out and the run repeated with the others (-k).
run_one() {
    tool=$1; lab=$2; log=$3; shift 3
    run_note=
    skip=
    tries=0
    while :; do
        ksel=
        if [ -n "$skip" ]; then
            ksel=$("./$lab" --list | awk '{ print $1 }' | grep -Fvx -f "$skip_file" | paste -sd, -)
            if [ -z "$ksel" ]; then run_status=0; run_note="every kernel refuses this block size"; return; fi
        fi
        # shellcheck disable=SC2086
        $limit "$cs" --tool "$tool" --error-exitcode 9 "./$lab" "$@" ${ksel:+-k "$ksel"} >"$log" 2>&1
        run_status=$?
        [ $run_status -eq 2 ] || return
        name=$(sed -n 's/.*: -b [0-9]*: \([^ ]*\) takes blocks.*/\1/p' "$log" | head -n 1)
        tries=$((tries + 1))
        if [ -z "$name" ] || [ $tries -gt 20 ]; then return; fi
        [ -z "$skip" ] && { skip_file=$log.skip; : >"$skip_file"; }
        skip="$skip $name"
        echo "$name" >>"$skip_file"
        run_note="left out (refuse this block size):$skip"
    done
}

for lab in "$@"; do
    if [ ! -x "./$lab" ]; then
        for tool in $TOOLS; do
            printf 'FAIL  %-6s %-10s ./%s is missing (build it: make %s)\n' "$lab" "$tool" "$lab" "$lab"
            failed=$((failed + 1))
        done
        failures="$failures $lab(missing)"
        continue
    fi
    case $lab in
        lab06) configs="-n 300x200 -r 1" ;;
        *)     configs="-n 100003 -r 1 -b 256|-n 1000 -r 1 -b 32" ;;
    esac
    for tool in $TOOLS; do
        t0=$(date +%s)
        bad=
        notes=
        runs=0
        old_ifs=$IFS; IFS='|'; set -f
        for cfg in $configs; do
            IFS=$old_ifs    # the list is split on |, each config then on blanks
            runs=$((runs + 1))
            log=$logs/$lab-$tool-$runs.log
            # shellcheck disable=SC2086
            run_one "$tool" "$lab" "$log" $cfg
            [ -n "$run_note" ] && notes="$notes [$cfg: $run_note]"
            case $run_status in
                0) ;;
                9)   bad="$bad; $cfg: $(grep -E '^========= (Invalid|Race|Barrier|Uninitialized|Error|.*hazard|.*error)' "$log" | head -n 1 | sed 's/^========= //') ($(grep -E '^========= .*SUMMARY' "$log" | head -n 1 | sed 's/^========= //'))" ;;
                124) bad="$bad; $cfg: timed out after 600 s" ;;
                1)   bad="$bad; $cfg: a kernel gave a wrong result (exit 1) under $tool" ;;
                2)   bad="$bad; $cfg: bad command line (exit 2): $(grep -v '^=' "$log" | head -n 1)" ;;
                3)   bad="$bad; $cfg: CUDA error (exit 3): $(grep -v '^=' "$log" | head -n 1)" ;;
                *)   bad="$bad; $cfg: exit $run_status: $(tail -n 1 "$log")" ;;
            esac
        done
        IFS=$old_ifs; set +f
        t1=$(date +%s)
        if [ -z "$bad" ]; then
            printf 'PASS  %-6s %-10s (%d runs, %d s)%s\n' "$lab" "$tool" "$runs" "$((t1 - t0))" "$notes"
            passed=$((passed + 1))
        else
            printf 'FAIL  %-6s %-10s%s\n' "$lab" "$tool" "$(echo "$bad" | sed 's/^;//')"
            failed=$((failed + 1))
            failures="$failures $lab/$tool"
        fi
    done
done

echo
total=$((passed + failed))
if [ $failed -eq 0 ]; then
    echo "sanitize: $passed of $total lab x tool checks passed; compute-sanitizer reported nothing (logs: $logs/)"
    exit 0
fi
echo "sanitize: $failed of $total lab x tool checks FAILED:$failures (logs: $logs/)"
exit 1
