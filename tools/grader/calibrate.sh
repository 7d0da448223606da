#!/bin/sh
# tools/grader/calibrate.sh - the speed bars of `make grade`, measured on the grading GPU:
# the instructor's solutions run first, as the students' runs will (POSIX sh).
#
#   sh tools/grader/calibrate.sh RUNS [LAB...]
#       (make grade SOURCES=dir runs it, RUNS = dir.runs) builds the labs with
#       the solutions (SOLUTIONS=1, in a build folder of its own), runs each
#       GPU lab (default: every lab with a CUDA exercise file)
#       GRADE_CALIBRATE_RUNS times (default 3) on each GPU model of
#       GRADE_GPUS (default 0), as the students' runs: ./labNN --exercises
#       --csv --seed S -n N with the seed and size drawn by the rule of
#       tools/grader/grade_task.sh; keeps the runs in RUNS/calibration/<gpu>/ (with
#       `seconds`: each run's lab and wall seconds, which set the students'
#       time limits, tools/grader/grade_task.sh), writes RUNS/calibration/<gpu>.csv
#       and RUNS/calibration/gpus.txt (each GPU of GRADE_GPUS and its name:
#       "0 NVIDIA H200"); earlier calibrations in RUNS go. tools/grader/grade_sources.sh
#       holds every GPU's lock while it runs: no student's run shares a GPU
#       with it, and each runs with its limits.
#   sh tools/grader/calibrate.sh --once STAMP RUNS [LAB...]
#       the same on one Slurm node (tools/grader/grade_task.sh, for a Slurm task,
#       after the node's check): only when RUNS/calibration holds no file for
#       this node's GPU newer than STAMP and no other task is calibrating
#       that GPU; GRADE_SETUP runs first (unless it ran: GRADE_SETUP_STATUS).
#   sh tools/grader/calibrate.sh --size LAB    (the tests) a size drawn by that rule
#   sh tools/grader/calibrate.sh --from DIR CSV...
#       no GPU: the calibration of these ./labNN --exercises --csv outputs of
#       the solutions (one run each), one DIR/<gpu>.csv per GPU they ran on.
#
# A calibration file holds, for each speed check of tools/grader/grade.conf, the
# solutions' value on that GPU (the median of the runs) and its spread (the
# larger of half the runs' range and the rows' own interquartile ranges),
# the GPU's theoretical GB/s and the fastest GB/s the solutions reached;
# tools/grader/grade turns them into the bars (docs/instructor.md, "Speed bars
# calibrated on the grading GPU"): a bar is only ever lowered, to
# reference * (1 - 2 * spread) - 0.01, and a check the solution misses on
# that GPU is worth 0 there. The solutions are the instructor's code: they
# run outside any sandbox, before any student's code.
#
# Environment: GRADE_CALIBRATE_RUNS (runs a lab, default 3), GRADE_GPUS,
# GRADE_TIMEOUT (seconds a run may take, default 60), GRADE_LENGTH and
# GRADE_SHAPE (the sizes' centre, as tools/grader/grade_task.sh), GRADE_RUN_ARGS
# (more arguments for every run), GRADE_MAKE_JOBS (default: the CPUs this
# job may use, a Slurm task's allocation), GRADE_KEEP=1 (keep the build),
# GRADE_CALIBRATE_FAULT (a file: where a solution's run fails on a GPU with
# exit 2 or more, a CUDA error, a crash or the time limit, its first such
# failure is written there: tools/grader/grade_task.sh then calls it the node's).
# Exit status: 0 a calibration was written (or, --once, was not needed);
# 1 none could be measured (no solutions here, the build or every run
# failed: the report then grades by grade.conf's bars and says so);
# 2 bad usage.
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$(dirname "$here")")
usage="usage: sh tools/grader/calibrate.sh RUNS [LAB...] | --once STAMP RUNS [LAB...] | --from DIR CSV... | --size LAB"
conf=${GRADE_CONF:-$here/grade.conf}
. "$here/grade.d/grade_awk.sh" # grade_awk ARGS...: the grader's four parts, one awk program

# slug NAME: the file name of a GPU (as tools/results.sh names results/<gpu>/)
slug() { sh "$top/tools/gpu.sh" slug "$1"; }

# measured OUTDIR TOOLKIT CSV...: the calibration of the CSVs, one OUTDIR/<gpu>.csv
# per GPU (its path on stdout); what could not be measured on stderr
measured() {
    md=$1; tk=$2; shift 2
    mkdir -p "$md" || return 2
    for f in "$@"; do
        grade_awk -v conf="$conf" -v columns="$top/common/csv_columns.h" -v types="$top/common/types.def" \
            -v mode=measure -v label="$f" "$f" || return 2
    done | LC_ALL=C awk -F '\t' -v dir="$md" -v tk="$tk" '
        # (the rule of tools/gpu.sh slug, in awk: one file per GPU of the runs)
        function slug(s) { s = tolower(s); gsub(/[^a-z0-9]+/, "-", s); sub(/^-/, "", s); sub(/-$/, "", s); return s }
        function median(list,    v, n, i, j, t) {
            n = split(list, v, " ")
            for (i = 2; i <= n; i++) { t = v[i] + 0; for (j = i - 1; j >= 1 && v[j] + 0 > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
            return (n % 2) ? v[(n + 1) / 2] + 0 : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        $1 == "R" { printf "calibrate: %s is not a lab output as written (%s): left out\n", $2, $3 > "/dev/stderr"; next }
        $1 == "E" { printf "calibrate: %s %s %s %s: %s: not calibrated (grade.conf'\''s bar)\n", $2, $3, $4, $5, $6 > "/dev/stderr"; next }
        $1 == "M" {
            id = $2 SUBSEP $3 SUBSEP $4 SUBSEP $9
            if (!(id in N)) { ORDER[++no] = id; DEVOF[id] = $2 }
            N[id]++; V[id] = V[id] " " $5; W[id] = W[id] " " $6
            if ($5 + 0 < LO[id] || N[id] == 1) LO[id] = $5 + 0
            if ($5 + 0 > HI[id] || N[id] == 1) HI[id] = $5 + 0
        }
        $1 == "M" || $1 == "F" {
            if (!($2 in PEAK)) DEVS[++nd] = $2
            pk = ($1 == "M") ? $7 : $5; at = ($1 == "M") ? $8 : $6
            if (pk + 0 > PEAK[$2] + 0) PEAK[$2] = pk
            if (!($2 in AT) || at < AT[$2]) AT[$2] = at
            if (($1 == "M")) { if ($5 != "" && N[id] > RUNS[$2]) RUNS[$2] = N[id] }
        }
        $1 == "F" && $4 + 0 > FAST[$2] + 0 { FAST[$2] = $4; FASTW[$2] = $7 }
        END {
            for (d = 1; d <= nd; d++) {
                out = dir "/" slug(DEVS[d]) ".csv"
                print "gpu,lab,check,reference,spread,runs,peak_gbps,run_at,toolkit,what" > out
                OUT[DEVS[d]] = out
            }
            for (k = 1; k <= no; k++) {
                id = ORDER[k]; split(id, q, SUBSEP)
                ref = median(V[id]); s = median(W[id])
                if (ref > 0 && (HI[id] - LO[id]) / (2 * ref) > s) s = (HI[id] - LO[id]) / (2 * ref)
                printf "%s,%s,%s,%.4f,%.4f,%d,%s,%s,%s,%s\n", q[1], q[2], q[3], ref, s, N[id], PEAK[q[1]], AT[q[1]], tk, q[4] > OUT[q[1]]
            }
            for (d = 1; d <= nd; d++) {
                if (FAST[DEVS[d]] > 0)
                    printf "%s,*,fastest,%s,0.0000,%d,%s,%s,%s,%s\n", DEVS[d], FAST[DEVS[d]], RUNS[DEVS[d]] + 0, PEAK[DEVS[d]],
                           AT[DEVS[d]], tk, FASTW[DEVS[d]] > OUT[DEVS[d]]
                close(OUT[DEVS[d]])
                print OUT[DEVS[d]]
            }
        }'
}

# the students' seed and size rule, and their runs' clock (ms): tools/grader/grade_task.sh's own functions (one copy)
size_rule() {
    eval "$(sed -n '/^urandom() /p; /^near_length() {/,/^}/p; /^near_shape() {/,/^}/p; /^ms() {/,/^}/p' "$here/grade_task.sh")"
    command -v urandom >/dev/null 2>&1 && command -v near_length >/dev/null 2>&1 && command -v near_shape >/dev/null 2>&1 &&
        command -v ms >/dev/null 2>&1 || {
        echo "grade: calibration: tools/grader/grade_task.sh has no urandom, near_length, near_shape, ms (the students' size rule)" >&2
        return 1
    }
}
# draw_size LAB: a size for LAB by that rule
draw_size() {
    case $1 in
        lab06) near_shape "${GRADE_SHAPE:-3000x5000}" ;;
        *) near_length "${GRADE_LENGTH:-16777213}" ;;
    esac
}

case ${1:-} in
    -h|--help) echo "$usage"; exit 0 ;;
    --size) # (for the tests) a size drawn for lab $2 as the calibration draws it
        size_rule || exit 1
        draw_size "${2:-lab02}"
        exit 0 ;;
    --from)
        [ $# -ge 3 ] || { echo "calibrate: $usage" >&2; exit 2; }
        d=$2; shift 2
        for f in "$@"; do [ -r "$f" ] || { echo "calibrate: cannot read $f" >&2; exit 2; }; done
        out=$(measured "$d" "${GRADE_TOOLKIT:--}" "$@") || exit 2
        [ -n "$out" ] || { echo "calibrate: nothing measured in $*" >&2; exit 1; }
        echo "$out"
        exit 0 ;;
esac
once=
if [ "${1:-}" = --once ]; then
    [ $# -ge 3 ] || { echo "calibrate: $usage" >&2; exit 2; }
    # a Slurm task: the site's setup line first, as every grading job runs it
    # (tools/grader/grade_setup.sh: bash, with the site's `module`), then this again
    [ -n "${GRADE_SETUP:-}" ] && [ -z "${GRADE_SETUP_STATUS:-}" ] &&
        exec sh "$top/tools/grader/grade_setup.sh" sh "$0" "$@"
    [ "${GRADE_SETUP_STATUS:-0}" -eq 0 ] || exit 1
    once=$2; shift 2
fi
runs=${1:-}
[ -n "$runs" ] && [ -d "$runs" ] || { echo "calibrate: RUNS='$runs' is not a folder; $usage" >&2; exit 2; }
shift
cal=$(cd "$runs" && pwd)/calibration
K=${GRADE_CALIBRATE_RUNS:-3}
case $K in ''|*[!0-9]*|0) echo "calibrate: GRADE_CALIBRATE_RUNS='$K' is not a number of runs" >&2; exit 2 ;; esac
T=${GRADE_TIMEOUT:-60}

# the labs: those named, else every lab with a CUDA exercise file
labs= sols=
LABS_CONF=$top/tools/labs.conf
. "$top/tools/labs.sh"
for l in $(lab_list); do
    d=$top/$(lab_get $l folder)
    [ -d "$d/solutions" ] && sols=1
    [ -f "$d/exercises.cuh" ] || continue
    if [ $# -eq 0 ] || echo " $* " | grep -q " $l "; then labs="$labs $l"; fi
done
[ -n "$labs" ] || exit 0 # (a class of lab01 only: no speed check to calibrate)
if [ -z "$sols" ]; then
    echo "grade: calibration: this copy has no solutions (a students' handout): the speed bars are grade.conf's" >&2
    exit 1
fi

if [ -n "$once" ]; then
    # a Slurm task: this node's GPU, unless it is calibrated for this class already
    # (the setup line ran above) this node's GPU, as CUDA names it (tools/gpu.sh)
    name=$(sh "$top/tools/gpu.sh" name 2>/dev/null | head -n 1)
    s=$(slug "${name:-unknown}")
    mkdir -p "$cal" || exit 2
    # an earlier class's calibrations go (this class's are newer than STAMP)
    find "$cal" -maxdepth 1 -name '*.csv' ! -newer "$once" -exec rm -f {} + 2>/dev/null
    for f in "$cal"/*.csv; do
        [ -f "$f" ] && [ "$(sed -n '2s/,.*//p' "$f")" = "$name" ] && exit 0
    done
    mkdir "$cal/.busy-$s" 2>/dev/null || exit 0 # another task calibrates this GPU
    trap 'rmdir "$cal/.busy-$s" 2>/dev/null' EXIT
    gpus=${CUDA_VISIBLE_DEVICES:-0}; gpus=${gpus%%,*}
    keep_others=1
else
    gpus=${GRADE_GPUS:-0}
    keep_others=0
fi

now() { awk 'BEGIN { srand(); print srand() }'; }
t0=$(now)
work=$(mktemp -d "${TMPDIR:-/tmp}/grade-calibrate.XXXXXX") || exit 2
[ "${GRADE_KEEP:-}" = 1 ] || trap 'rm -rf "$work"; [ -n "$once" ] && rmdir "$cal/.busy-$s" 2>/dev/null' EXIT
trap 'exit 2' INT TERM
# (the CPUs this job may use: a Slurm task's allocation, not the node's count)
ncpu=$(sh "$here/grade_task.sh" --cpus)
# shellcheck disable=SC2086
if ! make -C "$top" -j"${GRADE_MAKE_JOBS:-$ncpu}" --no-print-directory SOLUTIONS=1 BUILD="$work/build" BIN="$work/bin/" \
    $labs >"$work/build.log" 2>&1; then
    echo "grade: calibration: the solutions did not build (the speed bars are grade.conf's):" >&2
    grep -i 'error' "$work/build.log" | head -n 3 | cut -c 1-96 | sed 's/^/  /' >&2
    exit 1
fi
tk=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\).*/CUDA \1/p' | head -n 1)

size_rule || exit 1

[ $keep_others -eq 1 ] || rm -rf "$cal"
mkdir -p "$cal" "$work/out" || exit 2
done_gpus=; wrote=
for g in $gpus; do
    # each GPU model once: the first run says which model this is
    rm -rf "$work/out"; mkdir -p "$work/out"
    : >"$work/out/commands"; : >"$work/out/seconds"
    k=0; dev=; nbad=0
    while [ $k -lt "$K" ]; do
        k=$((k + 1))
        for lab in $labs; do
            seed=$(urandom 8)
            size=$(draw_size "$lab")
            r0=$(ms)
            # shellcheck disable=SC2086
            ( cd "$work/bin" && CUDA_VISIBLE_DEVICES=$g timeout -k 10 "$T" "./$lab" --exercises --csv --seed "$seed" \
                -n "$size" ${GRADE_RUN_ARGS:-} ) >"$work/out/$lab-$k.csv" 2>"$work/out/$lab-$k.err"
            st=$?
            r=$(( $(ms) - r0 ))
            echo "$lab-$k.csv: ./$lab --exercises --csv --seed $seed -n $size${GRADE_RUN_ARGS:+ $GRADE_RUN_ARGS} (exit $st)" \
                >>"$work/out/commands"
            if [ $st -gt 1 ] || ! head -n 1 "$work/out/$lab-$k.csv" | grep -q '^lab,device,'; then
                echo "grade: calibration: GPU $g: ./$lab exit $st: $(head -n 1 "$work/out/$lab-$k.err" | cut -c 1-60)" >&2
                # (a solution that errs, crashes or hangs here: this GPU's fault, said once)
                [ $st -gt 1 ] && [ -n "${GRADE_CALIBRATE_FAULT:-}" ] && [ ! -s "$GRADE_CALIBRATE_FAULT" ] &&
                    echo "$lab exit $st on GPU $g: $(grep . "$work/out/$lab-$k.err" | head -n 1 | cut -c 1-100)" \
                        >"$GRADE_CALIBRATE_FAULT"
                rm -f "$work/out/$lab-$k.csv"; nbad=$((nbad + 1))
                continue
            fi
            awk -v l="$lab" -v m="$r" 'BEGIN { printf "%s %.2f\n", l, m / 1000 }' >>"$work/out/seconds"
            if [ -z "$dev" ]; then # this GPU's first run: its model, and its line in gpus.txt
                dev=$(awk -F, 'NR == 2 { print $2; exit }' "$work/out/$lab-$k.csv")
                [ -n "$once" ] || [ -z "$dev" ] || echo "$g $dev" >>"$cal/gpus.txt"
            fi
            case " $done_gpus " in *" $(slug "$dev") "*) continue 3 ;; esac
        done
    done
    [ -n "$dev" ] || continue
    s=$(slug "$dev")
    done_gpus="$done_gpus $s"
    rm -rf "${cal:?}/$s"; mkdir -p "$cal/$s"
    mv "$work/out"/*.csv "$work/out/commands" "$cal/$s/"
    # (one rename on the runs' filesystem: a Slurm task reading it never sees half of it)
    mv "$work/out/seconds" "$cal/$s/.seconds" && mv "$cal/$s/.seconds" "$cal/$s/seconds"
    out=$(measured "$cal" "${tk:--}" "$cal/$s"/*.csv 2>"$work/measure.err")
    sed 's/^calibrate: /grade: calibration: /' "$work/measure.err" | cut -c 1-100 >&2
    [ -n "$out" ] && wrote="$wrote ${out##*/}"
    echo "grade: calibrated on $dev (GPU $g): $(echo $labs | wc -w) labs x $K runs$([ $nbad -gt 0 ] && echo ", $nbad failed")" >&2
done
echo "grade: calibration in $(( $(now) - t0 )) s: $(basename "$runs")/calibration/" >&2
[ -n "$wrote" ] || { echo "grade: calibration: nothing measured: the speed bars are grade.conf's" >&2; exit 1; }
exit 0
