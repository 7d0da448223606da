#!/bin/sh
# tools/sanitize.sh - every GPU lab under compute-sanitizer's four tools (make sanitize).
#
#   sh tools/sanitize.sh lab02 lab03 ...
#
# Runs each lab at small sizes under memcheck (out-of-bounds and misaligned
# accesses), racecheck (shared-memory races), synccheck (barriers misused,
# e.g. __syncthreads() where not every thread of the block arrives) and
# initcheck (reads of device memory never written). The last three refuse a
# program that can launch kernels from the device: they check lab03 built
# without dynamic parallelism (build/nocdp/, every kernel but gpuRecursive*,
# which memcheck checks in the real build):
# each lab's runs being its `sanitize` lines in tools/labs.conf:
#   reductions (lab02-lab05): -n 100003 -r 1 -b 256   and   -n 1000 -r 1 -b 32
#     (odd lengths: the tail of the last block is exercised), and the same
#     with --type float and --type double respectively (the shipped kernels
#     of lab02-lab05; the exercises and lab05-finish are int only); lab05
#     also at -n 4096 -b 512 and -n 2049 -b 256 --type double (its one-block
#     path, without and with guards); labs
#     02-04 (kernels and exercises) also at -n 100003 -r 1 -b 32 --finish device
#     (every kernel relaunched on its own partial sums until one remains)
#   transpose (lab06):        -n 300x200 -r 1          (a rectangle, sides not multiples of the tile)
#   lab05's matrix mode (lab05-matrix): -n 300x201 -b 16x16, -n 1001x3 -b 32x1 and
#     -n 3x5 -b 8x128, each -r 1 (int4 rows, odd widths, a tiny matrix, tall blocks)
# with --error-exitcode 9, so any report fails the run. A kernel that refuses
# -b 32 (it names its block range) is left out of that run, with a note.
# ./labNN runs its shipped kernels (-k, so the student's unfinished exercises
# stay out); where build/solutions/labNN exists (make test builds it on a GPU
# machine) its exercises run too, as "labNN+solutions": the solutions must be
# as clean as the shipped kernels. To show a student's race under a tool, run
# it directly: compute-sanitizer --tool racecheck ./lab05 --exercises -k NAME
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

. tools/labs.sh # the labs' runs: tools/labs.conf

# names BIN WHICH: the names BIN --list --csv gives, one per line, WHICH =
# kernels, exercises, matrix or matrix-exercises (the matrix mode's, -n 1x1)
names() {
    list_shape=
    case $2 in matrix*) list_shape="-n 1x1" ;; esac
    list_ex=0
    case $2 in *exercises) list_ex=1 ;; esac
    # shellcheck disable=SC2086
    "$1" $list_shape --list --csv | awk -F, -v ex=$list_ex 'NR > 1 && ($2 != "kernel") == ex { print $1 }'
}

# run_one TOOL BIN WHICH LOG ARGS...: BIN's kernels or exercises under the
# tool; sets $run_status, $run_note (and $cdp_note where it ran lab03's
# build without dynamic parallelism). A kernel that refuses the block size
# (exit 2, "NAME takes blocks of ...") is left out and the run repeated.
run_one() {
    tool=$1; rbin=$2; which=$3; log=$4; shift 4 # rbin, not bin: the caller's $bin stays
    run_note=
    : >"$log.skip"
    # racecheck, synccheck and initcheck refuse a program that can launch
    # kernels from the device ("CUDA Dynamic Parallelism is not supported by
    # the selected tool", whichever kernels run): lab03, built with
    # -rdc=true for its gpuRecursive* kernels. They check lab03 built without
    # (make sanitize builds it: NOCDP=1, into build/nocdp/ and
    # build/nocdp-solutions/), which has every kernel but those; memcheck
    # checks the real build, gpuRecursive* included
    case $tool in
        racecheck | synccheck | initcheck)
            cdp=$(names "$rbin" "$which" | grep '^gpuRecursive' | paste -sd' ' -)
            if [ -n "$cdp" ]; then
                case $rbin in
                    build/solutions/*) rbin=build/nocdp-solutions/${rbin##*/} ;;
                    *) rbin=build/nocdp/${rbin##*/} ;;
                esac
                if [ ! -x "$rbin" ]; then run_status=127; return; fi
                cdp_note="$rbin: no dynamic parallelism ($cdp: memcheck only)"
            fi ;;
    esac
    tries=0
    while :; do
        ksel=$(names "$rbin" "$which" | grep -Fvx -f "$log.skip" | paste -sd, -)
        if [ -z "$ksel" ]; then run_status=0; run_note="every kernel refuses this block size"; return; fi
        extra=
        case $which in *exercises) extra=--exercises ;; esac
        # shellcheck disable=SC2086
        $limit "$cs" --tool "$tool" --error-exitcode 9 "$rbin" "$@" $extra -k "$ksel" >"$log" 2>&1
        run_status=$?
        [ $run_status -eq 2 ] || return
        name=$(sed -n 's/.*: -b [0-9]*: \([^ ]*\) takes blocks.*/\1/p' "$log" | head -n 1)
        tries=$((tries + 1))
        if [ -z "$name" ] || [ $tries -gt 20 ]; then return; fi
        echo "$name" >>"$log.skip"
        run_note="left out (refuse this block size): $(paste -sd' ' "$log.skip")"
    done
}

# what to run: each lab's shipped kernels, then the solutions' exercises
targets=
for lab in "$@"; do
    targets="$targets $lab:./$lab:kernels"
    if [ -x "build/solutions/$lab" ] && [ -n "$(names "build/solutions/$lab" exercises)" ]; then
        targets="$targets $lab+solutions:build/solutions/$lab:exercises"
    fi
    # lab05's matrix mode: its kernels, and the solutions' matrix exercises
    if lab_has "$lab" modes matrix; then
        targets="$targets $lab-matrix:./$lab:matrix"
        if [ -x "build/solutions/$lab" ] && [ -n "$(names "build/solutions/$lab" matrix-exercises)" ]; then
            targets="$targets $lab-matrix+solutions:build/solutions/$lab:matrix-exercises"
        fi
    fi
done

for target in $targets; do
    label=${target%%:*}; rest=${target#*:}; bin=${rest%%:*}; which=${rest#*:}
    lab=${label%+solutions}
    lab=${lab%-matrix}
    if [ ! -x "$bin" ]; then
        for tool in $TOOLS; do
            printf 'FAIL  %-6s %-10s %s is missing (build it: make %s)\n' "$label" "$tool" "$bin" "$lab"
            failed=$((failed + 1))
        done
        failures="$failures $label(missing)"
        continue
    fi
    case $label in
        *-matrix*) configs=$(lab_get "$lab" sanitize-matrix) ;;
        *+solutions) configs=$(lab_get "$lab" sanitize-exercises) ;; # the exercises are int
        *) configs=$(lab_get "$lab" sanitize) ;;
    esac
    for tool in $TOOLS; do
        t0=$(date +%s)
        bad=
        notes=
        cdp_note=
        runs=0
        old_ifs=$IFS; IFS='|'; set -f
        for cfg in $configs; do
            IFS=$old_ifs    # the list is split on |, each config then on blanks
            runs=$((runs + 1))
            log=$logs/$label-$tool-$runs.log
            # shellcheck disable=SC2086
            run_one "$tool" "$bin" "$which" "$log" $cfg
            [ -n "$run_note" ] && notes="$notes [$cfg: $run_note]"
            case $run_status in
                0) ;;
                9)   bad="$bad; $cfg: $(grep -E '^========= (Invalid|Race|Barrier|Uninitialized|Error|.*hazard|.*error)' "$log" | head -n 1 | sed 's/^========= //') ($(grep -E '^========= .*SUMMARY' "$log" | head -n 1 | sed 's/^========= //'))" ;;
                124) bad="$bad; $cfg: timed out after 600 s" ;;
                127) bad="$bad; $cfg: $rbin, the build without dynamic parallelism, is missing (make sanitize builds it)" ;;
                1)   bad="$bad; $cfg: a kernel gave a wrong result (exit 1) under $tool" ;;
                2)   bad="$bad; $cfg: bad command line (exit 2): $(grep -v '^=' "$log" | head -n 1)" ;;
                3)   bad="$bad; $cfg: CUDA error (exit 3): $(grep -v '^=' "$log" | head -n 1)" ;;
                *)   bad="$bad; $cfg: exit $run_status: $(tail -n 1 "$log")" ;;
            esac
        done
        IFS=$old_ifs; set +f
        t1=$(date +%s)
        if [ -z "$bad" ]; then
            printf 'PASS  %-14s %-10s (%d run%s, %d s)%s\n' "$label" "$tool" "$runs" \
                "$([ "$runs" -eq 1 ] || echo s)" "$((t1 - t0))" "$notes"
            passed=$((passed + 1))
        else
            printf 'FAIL  %-14s %-10s%s\n' "$label" "$tool" "$(echo "$bad" | sed 's/^;//')"
            failed=$((failed + 1))
            failures="$failures $label/$tool"
        fi
        [ -n "$cdp_note" ] && echo "      $cdp_note"
    done
done

echo
total=$((passed + failed))
if [ $failed -eq 0 ]; then
    echo "sanitize: $passed of $total lab x tool checks passed, compute-sanitizer found nothing (logs: $logs/)"
    exit 0
fi
echo "sanitize: $failed of $total lab x tool checks FAILED:$failures (logs: $logs/)"
exit 1
