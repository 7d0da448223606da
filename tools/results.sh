#!/bin/sh
# tools/results.sh - run every lab and keep its CSV and an SVG chart (make results).
#
#   make results          (builds every lab first, then runs this from the repository root)
#   RESULTS_DIR=docs/results sh tools/results.sh      (make snapshots: the kept set)
#   sh tools/results.sh --charts DIR                  only the charts, from DIR's CSVs (no GPU)
#
# Runs each lab binary present (./lab01 .. ./lab06) at its defaults with --csv,
# lab05 also with --sweep; labs 02-05 again with --type float and with --type
# double (lab05's sweep too); lab05 at 8192x8192 (its matrix mode); labs
# 02-04 with --finish device; and lab06 at 2048x2048 and 8192x8192 built both
# ways (make lab06 DLCM=ca: loads cached in L1; DLCM=cg: L1 bypassed), then
# rebuilds the default lab06. Everything lands in results/<gpu>/, <gpu> being
# the GPU's name made file-safe (nvidia-h100-80gb-hbm3):
#
#   lab01.csv ... lab05.csv, lab05-sweep.csv         the int set (the default type)
#   lab02-float.csv ... lab05-float.csv, lab05-sweep-float.csv
#   lab02-double.csv ... lab05-double.csv, lab05-sweep-double.csv
#                                                    ./labNN --type float|double --csv
#   lab05-matrix.csv                                 ./lab05 -n 8192x8192 --csv (the matrix mode)
#   lab02-finish.csv ... lab04-finish.csv            ./labNN --finish device --csv
#   lab06.csv, lab06-2048-ca.csv, lab06-2048-cg.csv, lab06-8192-ca.csv, lab06-8192-cg.csv
#   one .svg chart beside each .csv (tools/chart; its title names the type
#   for labs 02-05, the sweeps as lines over n), lab06-2048-ca-cg.svg and
#   lab06-8192-ca-cg.svg (the DLCM=ca and DLCM=cg runs side by side, two bars
#   a kernel), and run.txt (date, GPU, driver, toolkit, commit, and how each
#   file was made, with its exit status)
#
# No chart draws the three sweeps together: tools/chart draws several files
# as bars side by side, one bar per kernel and file (the first n of a sweep
# only), and its line chart takes one file; a lab05-sweep-types.svg would
# need new chart code.
#
# At the end the grader reads the folder (sh tools/grader/grade results/<gpu>) as a
# check of the set: each file is checked as a lab's output (its numbers, the
# physics) and against grade.conf's kernel checks. The float and double
# files of a lab sit beside its int file (and lab05's sweeps beside
# lab05.csv); graded together they stay separate results, nothing is flagged
# across them: their names give no student (labNN-float is not NAME-labNN),
# so each is credited to no one and none is set aside as a re-run of
# another, plain --csv runs hold no exercise rows, so no shared fingerprint
# is flagged, and no two files are the same bytes (tests/tools/grader.sh grades
# such a set). What the grader then says about students does not apply to a
# results set: every file "credited to no one" with a hint to rename it, and
# the exercises "not handed in". grade.conf's thresholds were set on int
# runs: a float or double file that loses a kernel point shows how that type
# behaves, not a broken run.
#
# Exit status: 0 every run verified every kernel; 1 a lab failed or is
# missing; 2 no lab binary at all.
cd "$(dirname "$0")/.." || exit 2

MAKE_CMD=${MAKE:-make}
day=$(date +%Y-%m-%d)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/results.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

. tools/labs.sh # which labs, and their modes and types: tools/labs.conf
# draw_charts DIR: a chart beside each lab CSV of DIR (its title names the
# type for labs 02-05, the sweeps drawn as lines over n), and lab06's DLCM=ca
# and DLCM=cg runs side by side, two bars a kernel; each dated by its run
# (the CSV's run_at), so that drawing again from the same runs gives the same
# chart. 1 when a chart could not be drawn.
draw_charts() {
    dc_out=$1; dc_bad=0
    for f in "$dc_out"/lab*.csv; do
        [ -f "$f" ] || continue
        name=$(basename "$f" .csv)
        lab=${name%%-*}
        rest=${name#"$lab"}
        rest=${rest#-}
        def=$(lab_get "$lab" types | cut -d' ' -f1)
        case $rest in
            *-ca | *-cg) note="built with -dlcm=${rest##*-}" ;;
            sweep) note="--sweep, $def" ;;
            sweep-*) note="--sweep, ${rest#sweep-}" ;;
            matrix) note="matrix mode, int" ;;
            finish) note="$def, finished on the device" ;;
            "") # a GPU lab of several types says which this is
                note=
                [ "$(lab_get "$lab" device)" = gpu ] && [ -n "$(lab_get "$lab" types | cut -s -d' ' -f2-)" ] && note=$def ;;
            *) note=$rest ;;
        esac
        if sh tools/chart -n "$note" -d "$(run_day "$f")" "$f" >"$dc_out/$name.svg" 2>"$tmp/chart.err"; then
            echo "  $dc_out/$name.svg"
        else
            echo "  no chart for $name.csv: $(head -n 1 "$tmp/chart.err")"
            rm -f "$dc_out/$name.svg"
            dc_bad=1
        fi
    done
    for l in $(lab_list modes dlcm); do
        for s in 2048 8192; do
            [ -f "$dc_out/$l-$s-ca.csv" ] && [ -f "$dc_out/$l-$s-cg.csv" ] || continue
            if sh tools/chart -n "loads cached in L1 (DLCM=ca) against L1 bypassed (DLCM=cg)" \
                -d "$(run_day "$dc_out/$l-$s-ca.csv")" "$dc_out/$l-$s-ca.csv" "$dc_out/$l-$s-cg.csv" \
                >"$dc_out/$l-$s-ca-cg.svg" 2>"$tmp/chart.err"; then
                echo "  $dc_out/$l-$s-ca-cg.svg"
            else
                echo "  no chart for $l-$s-ca and -cg side by side: $(head -n 1 "$tmp/chart.err")"
                rm -f "$dc_out/$l-$s-ca-cg.svg"
                dc_bad=1
            fi
        done
    done
    return $dc_bad
}
# run_day CSV: the date its run was made (the run_at column), else today
run_day() {
    rd=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "run_at") c = i; next }
        c && $c != "" { print substr($c, 1, 10); exit }' "$1")
    echo "${rd:-$day}"
}
# sh tools/results.sh --charts DIR: only the charts, drawn again from DIR's CSVs (no GPU)
if [ "${1:-}" = --charts ]; then
    [ -d "${2:-}" ] || { echo "usage: sh tools/results.sh --charts DIR" >&2; exit 2; }
    draw_charts "${2%/}"
    exit
fi

present=
for l in $(lab_list); do
    [ -z "$(lab_get $l part-of)" ] && [ -x "./$l" ] && present="$present $l"
done
if [ -z "$present" ]; then
    echo "results: no lab binary here; build them first (make results builds them, or make lab02 ...)" >&2
    exit 2
fi

failed=0
: >"$tmp/made"        # NAME|how it was made|exit status

# run_lab NAME LAB ARGS...: ./LAB ARGS --csv > $tmp/NAME.csv, noted in $tmp/made
run_lab() {
    name=$1; lab=$2; shift 2
    printf '  %-18s %s ... ' "$name" "./$lab${*:+ $*} --csv"
    t0=$(date +%s)
    "./$lab" "$@" --csv >"$tmp/$name.csv" 2>"$tmp/$name.err"
    st=$?
    t1=$(date +%s)
    case $st in
        0) echo "PASS ($((t1 - t0)) s)" ;;
        1) echo "FAIL: a kernel gave a wrong result (exit 1)"; failed=1 ;;
        2) echo "FAIL: bad command line (exit 2): $(head -n 1 "$tmp/$name.err")"; failed=1 ;;
        3) echo "FAIL: CUDA error or no device (exit 3): $(head -n 1 "$tmp/$name.err")"; failed=1 ;;
        *) echo "FAIL: exit $st $(head -n 1 "$tmp/$name.err")"; failed=1 ;;
    esac
    [ -s "$tmp/$name.csv" ] || rm -f "$tmp/$name.csv"
    echo "$name|./$lab${*:+ $*} --csv${NOTE:+ ($NOTE)}|$st" >>"$tmp/made"
    last_status=$st
}

has() { case " $present " in *" $1 "*) return 0 ;; esac; return 1; }

# the GPU labs' types besides their default (float, double), in order
other_types=$(for l in $(lab_list device gpu); do lab_get $l types | cut -s -d' ' -f2-; done | tr ' ' '\n' |
    awk 'NF && !seen[$1]++')
echo "running the labs (results/<gpu>/ when done):"
for l in $present; do
    lab_has $l modes dlcm || { has $l && NOTE='' run_lab $l $l; }
done
for l in $(lab_list modes sweep); do
    has $l && NOTE='' run_lab $l-sweep $l --sweep
done
# the GPU labs in float and in double
for ty in $other_types; do
    for l in $(lab_list device gpu); do
        lab_has_other_type $l $ty && has $l && NOTE='' run_lab $l-$ty $l --type $ty
    done
    for l in $(lab_list modes sweep); do
        lab_has_other_type $l $ty && has $l && NOTE='' run_lab $l-sweep-$ty $l --sweep --type $ty
    done
done
# lab05's matrix mode (the whole matrix, its rows, its columns, each beside
# its library row) and labs 02-04 finished on the device (--finish device)
for l in $(lab_list modes matrix); do
    has $l && NOTE='' run_lab $l-matrix $l -n 8192x8192
done
for l in $(lab_list modes finish); do
    has $l && NOTE='' run_lab $l-finish $l --finish device
done
for lab6 in $(lab_list modes dlcm); do
    has $lab6 || continue
    NOTE="default build" run_lab $lab6 $lab6
    dlcm="ca cg"
    if [ "$last_status" -eq 3 ]; then
        echo "  (no usable GPU: the DLCM=ca and DLCM=cg builds are skipped)"
        dlcm=
    fi
    for d in $dlcm; do
        echo "  building $lab6 with DLCM=$d (-Xptxas -dlcm=$d) ..."
        if "$MAKE_CMD" --no-print-directory $lab6 DLCM=$d >"$tmp/build-$d.log" 2>&1; then
            for s in 2048 8192; do
                NOTE="built with -dlcm=$d" run_lab $lab6-$s-$d $lab6 -n ${s}x$s
            done
        else
            echo "  FAIL: make $lab6 DLCM=$d did not build: $(tail -n 3 "$tmp/build-$d.log" | tr '\n' ' ')"
            failed=1
        fi
    done
    [ -n "$dlcm" ] && echo "  rebuilding the default $lab6 (make $lab6) ..."
    if [ -n "$dlcm" ] && ! "$MAKE_CMD" --no-print-directory $lab6 >"$tmp/build-default.log" 2>&1; then
        echo "  FAIL: make $lab6 did not rebuild the default build: $(tail -n 3 "$tmp/build-default.log" | tr '\n' ' ')"
        failed=1
    fi
done

# the GPU's name: a GPU lab's device column, else CUDA's (tools/gpu.sh), else lab01's (the CPU)
gpu=
for f in $(for l in $(lab_list device gpu); do ls "$tmp/$l".csv "$tmp/$l"-*.csv 2>/dev/null; done); do
    [ -f "$f" ] || continue
    gpu=$(awk -F, 'NR == 2 { print $2; exit }' "$f")
    [ -n "$gpu" ] && break
done
[ -z "$gpu" ] && gpu=$(sh tools/gpu.sh name 2>/dev/null)
[ -z "$gpu" ] && [ -f "$tmp/lab01.csv" ] && gpu=$(awk -F, 'NR == 2 { print $2; exit }' "$tmp/lab01.csv")
[ -z "$gpu" ] && gpu=unknown
slug=$(sh tools/gpu.sh slug "$gpu")
out=${RESULTS_DIR:-results}/$slug
mkdir -p "$out" || exit 2

# what, where, when: run.txt
{
    echo "results of make results, $day"
    echo "gpu:      $gpu"
    summary=$(sh tools/gpu.sh summary 2>/dev/null) &&
        echo "cuda:     $summary, $(sh tools/gpu.sh total 2>/dev/null) MiB"
    nvcc --version 2>/dev/null | grep -i release | sed 's/^/nvcc:     /'
    commit=$(git rev-parse --short HEAD 2>/dev/null) && echo "commit:   $commit$(git status --porcelain 2>/dev/null | grep -q . && echo ' (with local changes)')"
    echo
    echo "file                     made by                                          exit"
    while IFS='|' read -r name how st; do
        printf '%-24s %-48s %s\n' "$name.csv" "$how" "$st"
    done <"$tmp/made"
} >"$out/run.txt"

while IFS='|' read -r name how st; do
    [ -f "$tmp/$name.csv" ] && cp "$tmp/$name.csv" "$out/$name.csv"
done <"$tmp/made"
echo "charts:"
draw_charts "$out" || failed=1

for l in $(lab_list); do
    [ -n "$(lab_get "$l" part-of)" ] && continue
    has $l || { echo "note: ./$l is missing, so results/$slug/ has no $l files"; failed=1; }
done

echo
echo "the grader's view of this set (sh tools/grader/grade $out; a results set, not a student's:"
echo "every file is credited to no one and has no exercise rows, so ignore the hints to rename"
echo "files and the exercises not handed in):"
sh tools/grader/grade "$out" | sed 's/^./  &/'
echo
echo "kept in $out/ (CSV, SVG and run.txt)"
exit $failed
