#!/bin/sh
# tools/snapshots.sh - run every command whose real output a chapter pastes,
# and keep each output in a file of its own, ready to paste (POSIX sh).
#
#   sh tools/snapshots.sh OUTDIR
#   SNAP_CHAPTERS="lab05 lab06": only those chapters' commands
#   SNAP_ALL=1: every command of the list whatever the GPU (below)
#   sh tools/snapshots.sh --apply OUTDIR     (make snapshots) the same, then
#       every pasted block rewritten in place in its chapter with the new
#       output (tools/snapshots_apply.awk): a "<!-- run: COMMAND -->" line
#       above it and a "_Measured on GPU, toolkit, date_" line under it;
#       then make results' set run again into docs/results/<gpu>/ (the kept
#       runs; SNAP_RESULTS=0 leaves them) and every kept chart redrawn from
#       the runs it records (tools/charts.sh, which make charts runs alone)
#
# Two GPUs: the chapters' blocks come from MAIN_GPU below (the GPU of
# their story); a lesson whose result differs on another GPU shows that
# GPU's run too, in a block marked "<!-- run on SLUG: COMMAND -->" (SLUG:
# `sh tools/gpu.sh slug NAME`, nvidia-h200), from a LIST line ending in
# |on=SLUG. On a GPU, the lines that run are those of its own blocks: on
# MAIN_GPU the unmarked lines, on SLUG the |on=SLUG lines; SNAP_ALL=1 runs
# every line (and --apply then rewrites the main blocks too: the way to move
# the chapters to another GPU, whose prose then needs its figures again).
#
# Builds what the commands need (the labs as `make labNN` builds them; the
# solutions into build/snap-solutions/ for the "finished set" runs; lab06
# with DLCM=ca and DLCM=cg into build/snap-dlcm-ca/ and build/snap-dlcm-cg/;
# ./labNN itself is left as it was), then runs each command of the list below
# in order and writes OUTDIR/CHAPTER-SEQ-COMMAND.txt (SEQ: 3 digits): a header (the chapter, the
# GPU, driver, toolkit, date, build and exit status) and then the command
# line as the chapter shows it, `$ ./lab04 -n 2^28`, with its output (stdout
# and stderr, as a terminal shows them). OUTDIR/index.txt lists the files and
# flags any line wider than 100 columns. Exit status: 0 every command ran
# with the status the chapter expects; 1 otherwise; 2 bad usage or no build.
#
# A chapter NAME is docs/NAME.md, or docs/results/NAME.md where the chapter
# keeps its secondary runs (other block sizes, repeats: lab02-runs, ...);
# `lecture` is docs/lecture.md, the live demos.
# The list: grep -n '^\$ ' docs/lab[0-9][0-9]*.md docs/results/lab[0-9][0-9]*.md names the
# commands that head the pasted blocks; keep the two in step when a chapter gains or loses one
# (tests/tools/docs.sh fails when a chapter's `$ ` line has no line here and is
# not among those left out below). One line per pasted `$ ` line, in chapter
# order, the command exactly as the chapter shows it after `$ `; what runs is
# that command with a leading `make ... && ` and a trailing `# comment`
# dropped, the binary taken from the build the line names (so
# `build/solutions/lab03 --exercises` runs build/snap-solutions/lab03, and
# `make lab06 DLCM=ca && ./lab06 -n 2048` runs build/snap-dlcm-ca/lab06
# -n 2048). Lines starting with # and empty lines in the list are comments.
#
# Pasted but not re-run here, and why (tests/tools/docs.sh reads these `# - ` lines):
# - lab05-runs: $ compute-sanitizer --tool racecheck ./lab05 --exercises -k reduceSmemNoSyncwarp -n 100003 -r 1
#     an excerpt (the block elides the hazards with `...`), of compute-
#     sanitizer rather than of the lab, whose exit status is the tool's;
#     make sanitize runs the labs under it.
cd "$(dirname "$0")/.." || exit 2
. tools/labs.sh # the labs: tools/labs.conf

# rows_kept SPEC: the lines of stdin that SPEC keeps, and one "..." line for
# each run of the others. SPEC: "/ERE/" (a line that matches) or
# "/ERE/,/ERE/" (from a line that matches the first through the next that
# matches the second), several apart by " ; ".
rows_kept() {
    awk -v spec="$1" '
    BEGIN {
        n = split(spec, R, / ; /)
        for (i = 1; i <= n; i++) {
            r = R[i]; p = index(r, "/,/")
            if (r !~ /^\/.*\/$/) { print "snapshots: rows \"" r "\" is not /ERE/ nor /ERE/,/ERE/" > "/dev/stderr"; exit 2 }
            if (p) { A[i] = substr(r, 2, p - 2); B[i] = substr(r, p + 3, length(r) - p - 3) }
            else { A[i] = substr(r, 2, length(r) - 2); B[i] = "" }
        }
    }
    {
        keep = 0
        for (i = 1; i <= n; i++)
            if (on[i]) { keep = 1; if ($0 ~ B[i]) on[i] = 0 }
            else if ($0 ~ A[i]) { keep = 1; if (B[i] != "" && $0 !~ B[i]) on[i] = 1 }
        if (keep) { print; gap = 0 }
        else if (!gap) { print "..."; gap = 1 }
    }'
}
# sh tools/snapshots.sh --rows SPEC < OUTPUT: the excerpt a LIST line's rows= makes
if [ "${1:-}" = --rows ]; then
    [ $# -eq 2 ] || { echo "usage: sh tools/snapshots.sh --rows SPEC < OUTPUT" >&2; exit 2; }
    rows_kept "$2"
    exit
fi
apply=0
[ "${1:-}" = --apply ] && { apply=1; shift; }
[ $# -eq 1 ] || { echo "usage: sh tools/snapshots.sh [--apply] OUTDIR   (make snapshots)" >&2; exit 2; }
out=$1
mkdir -p "$out" || exit 2
MAKE_CMD=${MAKE:-make}

# chapter | build (default, solutions, dlcm-ca, dlcm-cg) | expected exit | command as the chapter shows it
#   [| rows=SPEC: the chapter shows only the rows SPEC keeps (rows_kept above), with a
#   "..." line for each run of the others; the whole output goes to a page of runs
#   through a LIST line of its own] [| on=SLUG: a block of that GPU's, beside the main one]
MAIN_GPU=nvidia-h100-80gb-hbm3
LIST='# lab01 runs on the CPU of the GPU machine; labNN-runs is docs/results/labNN-runs.md
lab01|default|0|./lab01
lab01-runs|default|0|./lab01
lab01-types|default|0|./lab01 --type float
lab01-types|default|0|./lab01 --type double
lab01-runs|default|0|./lab01 --type float
lab01-types|default|0|./lab01 --type float --values uniform
lab01|default|1|./lab01 --exercises
lab01-runs|solutions|0|./lab01 --exercises
lab02|default|0|./lab02 --explain
lab02|default|0|./lab02
lab02-runs|default|0|./lab02 -b 128
lab02-runs|default|0|./lab02 -b 1024
lab02-types|default|0|./lab02 --type float
lab02-types|default|0|./lab02 --type double --values uniform

lab02|default|0|./lab02 --finish device
lab02|default|1|./lab02 --exercises
lab02-runs|solutions|0|./lab02 --exercises
lab02|default|1|./lab02 --trace reduceNeighboredLessOut --brief
lab02-runs|solutions|0|./lab02 --trace reduceNeighboredLessOut --brief
lab03|default|0|./lab03 --explain
lab03|default|0|./lab03
lab03-runs|default|0|./lab03 -n 1M
lab03-runs|default|0|./lab03 -n 2^28
lab03-types|default|0|./lab03 --type float
lab03-types|default|0|./lab03 --type double --values uniform

lab03|default|0|./lab03 -k reduceInterleaved,gpuRecursiveReduce
lab03|default|0|./lab03 -k reduceInterleaved,gpuRecursiveReduce -n 1000
lab03-runs|default|0|./lab03 --finish device
lab03|default|1|./lab03 --exercises
lab03-runs|solutions|0|build/solutions/lab03 --exercises
lab04-latency|default|0|./lab04 --latency
lab04|default|0|./lab04 --explain
lab04|default|0|./lab04
lab04-runs|default|0|./lab04 -n 2^28
lab04-runs|default|0|./lab04 -b 32
lab04-runs|default|0|./lab04 -n 2^20
lab04-types|default|0|./lab04 --type float
lab04-types|default|0|./lab04 --type double --values uniform

lab04-runs|default|0|./lab04 --finish device
lab04|default|1|./lab04 --exercises
lab04-runs|solutions|0|./lab04 --exercises
lab04|default|1|./lab04 --trace reduceUnrolling4Tail -n 100 -b 32 --brief
lab04-runs|solutions|0|./lab04 --trace reduceUnrolling4Tail -n 100 -b 32 --brief
lab05|default|0|./lab05
lab05-sweep|default|0|./lab05 --sweep|rows=/^device / ; /^speedup /,/^         [a-z]/ ; /^kernel / ; /^n = 262144 /,/^cub::/ ; /^n = 16777216 /,/^cub::/ ; /^n = 268435456 /,/^cub::/ ; /^one pass/,/^  n = +268435456 / ; /^lab05: /
lab05-finish|default|0|./lab05-finish
lab05-types|default|0|./lab05 --type float --values uniform
lab05-types|default|0|./lab05 --sweep --type float|rows=/^device / ; /^one pass/,/^  n = +268435456 / ; /^lab05: /
lab05-types|default|0|./lab05 --sweep --type double|rows=/^device / ; /^speedup /,/^         [a-z]/ ; /^kernel / ; /^n = 268435456 /,/^cub::/ ; /^one pass/,/^  n = +268435456 / ; /^lab05: /

lab05|default|1|./lab05 --exercises
lab05-runs|solutions|0|build/solutions/lab05 --exercises
lab05|default|1|./lab05 --trace reduceSmemNoSyncwarp -n 64 -b 64 --brief
lab05-runs|solutions|0|./lab05 --trace reduceSmemNoSyncwarp -n 64 -b 64 --brief
lab05-runs|default|0|./lab05 --sweep
lab05-runs|default|0|./lab05 --sweep --type float
lab05-runs|default|0|./lab05 --sweep --type double
lab05-runs|default|0|./lab05-finish
lab05-runs|default|0|./lab05-finish
lab05-runs|default|0|./lab05-finish -n 2^28 -r 20
lab05-matrix|default|0|./lab05 -n 8192x8192
lab05-matrix|default|0|./lab05 -n 20000x20000
lab05-matrix|default|0|./lab05 -n 8192x8192 -b 32x16
lab05-matrix|default|0|./lab05 -n 8192x8192|rows=/^device / ; /^ceiling / ; /^kernel / ; /^speedup / ; /^(rowSumBlock|cub::DeviceSegmentedReduce::Sum|colSumCoalesced|colSumOnePass) / ; /^  column sums /|on=nvidia-h200
lab05-matrix|default|0|./lab05 -n 20000x20000|rows=/^device / ; /^ceiling / ; /^kernel / ; /^speedup / ; /^(rowSumBlock|cub::DeviceSegmentedReduce::Sum|colSumCoalesced|colSumOnePass) / ; /^  column sums /|on=nvidia-h200
lab06-runs|default|2|./lab06 -n 16x70000 -b 32x1
lab06|default|0|./lab06
lab06|default|0|./lab06 -n 8192
lab06-l1|dlcm-ca|0|./lab06 -n 8192          # still the DLCM=ca build|rows=/^build / ; /^speedup / ; /^kernel / ; /^(copyCol|transposeNaiveCol |transposeUnroll4Col|transposeSmemPad |transposeSmemFloat4 )/
lab06-l1|dlcm-cg|0|./lab06 -n 8192          # still the DLCM=cg build|rows=/^build / ; /^speedup / ; /^kernel / ; /^(copyCol|transposeNaiveCol |transposeUnroll4Col|transposeSmemPad |transposeSmemFloat4 )/
lab06-l1|dlcm-ca|0|./lab06 -n 8192          # still the DLCM=ca build|rows=/^build / ; /^speedup / ; /^kernel / ; /^(copyCol|transposeNaiveCol |transposeUnroll4Col|transposeSmemPad |transposeSmemFloat4 )/|on=nvidia-h200
lab06-l1|dlcm-cg|0|./lab06 -n 8192          # still the DLCM=cg build|rows=/^build / ; /^speedup / ; /^kernel / ; /^(copyCol|transposeNaiveCol |transposeUnroll4Col|transposeSmemPad |transposeSmemFloat4 )/|on=nvidia-h200
lab06|default|1|./lab06 --exercises
lab06-runs|solutions|0|./lab06 --exercises
lab06|default|1|./lab06 --trace transposeSmemNoSync -n 64x64 --brief
lab06-runs|solutions|0|./lab06 --trace transposeSmemNoSync -n 64x64 --brief
lab06-runs|dlcm-ca|0|make lab06 DLCM=ca && ./lab06 -n 2048
lab06-runs|dlcm-ca|0|./lab06 -n 8192          # still the DLCM=ca build
lab06-runs|dlcm-cg|0|make lab06 DLCM=cg && ./lab06 -n 2048
lab06-runs|dlcm-cg|0|./lab06 -n 8192          # still the DLCM=cg build
lab06-runs|default|0|./lab06 -n 8192|on=nvidia-h200
lab06-tma|default|0|./lab06 -n 8192 -k transposeSmemPad,transposeSmemFloat4,transposeTMA,cublasSgeam
lab06-tma|default|0|./lab06 -n 8192 -k transposeSmemFloat4,transposeTMA,cublasSgeam|on=nvidia-h200
# docs/lecture.md: the live demos, in their order
lecture|default|0|./lab01 --trace
lecture|default|0|./lab01
lecture|default|1|./lab01 -k recursiveReduceBook
lecture|default|0|./lab01 -k recursiveReduceBook -n 2^24
lecture|default|0|./lab01 --type float --values uniform
lecture|default|0|./lab02 --explain
lecture|default|0|./lab02
lecture|default|0|./lab02 --finish device
lecture|default|0|./lab03 --explain -k reduceNeighboredLess,reduceInterleaved
lecture|default|0|./lab03
lecture|default|0|./lab03 -k reduceInterleaved,gpuRecursiveReduce -n 1000
lecture|default|0|./lab04 --latency
lecture|default|0|./lab04
lecture|default|0|./lab04 -n 2^20
lecture|default|0|./lab05
lecture|default|0|./lab05-finish
lecture|default|0|./lab05 -n 8192x8192
lecture|default|0|./lab06 --explain
lecture|default|0|./lab06'

# ---- builds -------------------------------------------------------------------
log=$out/build.log
: >"$log"
build() { # WHAT MAKE-ARGS...
    what=$1; shift
    echo "building $what ..."
    if ! "$MAKE_CMD" --no-print-directory "$@" >>"$log" 2>&1; then
        echo "snapshots: make $* failed (see $log)" >&2
        exit 2
    fi
}
# (the solutions: every lab but the side programs, which have no exercises)
build "the labs (make)" $(lab_list_parts_last)
build "the solutions" BUILD=build/snap-solutions BIN=build/snap-solutions/ SOLUTIONS=1 \
    $(for l in $(lab_list); do [ -n "$(lab_get $l part-of)" ] || echo $l; done)
for l in $(lab_list modes dlcm); do
    for d in ca cg; do
        build "$l with DLCM=$d" BUILD=build/snap-dlcm-$d BIN=build/snap-dlcm-$d/ DLCM=$d $l
    done
done

# ---- what every file's header says ---------------------------------------------
gpu=$(sh tools/gpu.sh summary 2>/dev/null)
toolkit=$(nvcc --version 2>/dev/null | grep -i release | sed 's/.*release /CUDA /')
day=$(date -u +%Y-%m-%d)
commit=$(git rev-parse --short HEAD 2>/dev/null)
here_gpu=$(sh tools/gpu.sh slug "${gpu%%,*}" 2>/dev/null)
[ -n "$(git status --porcelain 2>/dev/null)" ] && commit="$commit (with local changes)"

# ---- the runs -------------------------------------------------------------------
index=$out/index.txt
{
    echo "snapshots of the chapters' commands, $day"
    echo "GPU (name, driver, compute capability): ${gpu:-none found by CUDA}"
    echo "toolkit: ${toolkit:-nvcc not found}; commit $commit"
    echo
} >"$index"
failed=0 seq=0
set -f # the arguments are split as the chapter's shell splits them, never globbed
while IFS='|' read -r chapter how want cmd rows; do
    case $chapter in '' | '#'*) continue ;; esac
    seq=$((seq + 1))
    # SNAP_CHAPTERS="lab05": only these chapters' commands (and --apply to them)
    case " ${SNAP_CHAPTERS:-$chapter} " in *" $chapter "*) ;; *) continue ;; esac
    # |on=SLUG (the last field): a block of that GPU's; the others are MAIN_GPU's
    on=
    case "|$rows" in *'|on='*) on=${rows##*on=}; rows=${rows%on=*}; rows=${rows%|} ;; esac
    if [ "${SNAP_ALL:-}" != 1 ]; then
        if [ -n "$on" ]; then [ "$on" = "$here_gpu" ] || continue
        else [ "$here_gpu" = "$MAIN_GPU" ] || continue; fi
    fi
    # what runs: the command without a leading `make ... && ` (the build the
    # line names stands for it) and without a trailing `# comment`
    run=$cmd
    case $run in make\ *'&& '*) run=${run#*'&& '} ;; esac
    run=${run%%#*}
    bin=${run%% *}; args=${run#"$bin"}
    name=${bin##*/}
    case $how in
        default) dir=. ; made="make $name" ;;
        solutions) dir=build/snap-solutions ; made="make $name SOLUTIONS=1" ;;
        dlcm-*) dir=build/snap-${how} ; made="make $name DLCM=${how#dlcm-}" ;;
        *) echo "snapshots: '$how' is not a build (default, solutions, dlcm-ca, dlcm-cg): $chapter|$how|$want|$cmd" >&2; exit 2 ;;
    esac
    slug=$(printf '%s' "$name$args" | tr -c 'A-Za-z0-9\n' '-' | sed -e 's/--*/-/g' -e 's/-$//')
    file=$out/$(printf '%s-%03d-%s' "$chapter" "$seq" "$slug")$( [ "$how" = default ] || echo "-$how")${on:+-on-$on}.txt
    started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    # shellcheck disable=SC2086 # the arguments split as the chapter's shell splits them
    "$dir/$name" $args </dev/null >"$file.out" 2>&1
    st=$?
    kept=
    case $rows in
        '') ;;
        rows=*) rows_kept "${rows#rows=}" <"$file.out" >"$file.rows" && mv -f "$file.rows" "$file.out" || exit 2
                kept="; rows kept: ${rows#rows=}" ;;
        *) echo "snapshots: '$rows' is not rows=SPEC: $chapter|$how|$want|$cmd" >&2; exit 2 ;;
    esac
    {
        page=docs/$chapter.md
        [ -f "$page" ] || page=docs/results/$chapter.md
        echo "# $page${on:+ (on $on)}: \$ $cmd"
        echo "# GPU: ${gpu:-none found by CUDA}"
        echo "# toolkit: ${toolkit:-nvcc not found}"
        echo "# date: $started (UTC); build: $made; commit $commit"
        echo "# exit status: $st (the chapter expects $want)$kept"
        echo "\$ $cmd"
        cat "$file.out"
    } >"$file"
    rm -f "$file.out"
    wide=$(awk 'NR > 6 && length($0) > 100 { n++ } END { print n + 0 }' "$file")
    note=
    [ "$st" -eq "$want" ] || { note=" EXIT $st, EXPECTED $want"; failed=1; }
    [ "$wide" -eq 0 ] || note="$note; $wide line(s) wider than 100 columns"
    printf '%-44s %s%s\n' "$(basename "$file")" "\$ $cmd ($made)" "$note" | tee -a "$index"
done <<EOF_LIST
$LIST
EOF_LIST
set +f
if ! grep -q '^\(lab[0-9]\|lecture\)' "$index" 2>/dev/null; then
    { echo "snapshots: nothing to run on this GPU (${gpu:-none found by CUDA}): the chapters' blocks"
      echo "  are from $MAIN_GPU and a few from the GPUs of their |on= lines; SNAP_ALL=1 runs them all"
    } | tee -a "$index"
fi
echo "index: $index"

# ---- --apply: the blocks rewritten in place --------------------------------------
if [ $apply -eq 1 ]; then
    gpu_name=${gpu%%,*}
    driver=$(echo "$gpu" | awk -F', ' '{ print $2 }')
    made="_Measured on ${gpu_name:-no GPU} (driver ${driver:-?}), ${toolkit:-no toolkit}, $day, by \`make snapshots\`._"
    # lab01's blocks ran on one core of the machine's CPU: their caption names it
    cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
    gcc_v=$(${CC:-gcc} -dumpfullversion 2>/dev/null)
    made_cpu="_Measured on one core of ${cpu:-the host CPU} (the CPU of the ${gpu_name:-GPU} machine), gcc ${gcc_v:-?}, $day, by \`make snapshots\`._"
    for ch in $(ls "$out" | sed -n -e 's/^\(lab[0-9][0-9]\(-[a-z][a-z0-9]*\)*\)-[0-9][0-9][0-9]-.*\.txt$/\1/p' \
            -e 's/^\(lecture\)-[0-9][0-9][0-9]-.*\.txt$/\1/p' | sort -u); do
        files=$(ls "$out"/$ch-[0-9][0-9][0-9]-*.txt | sort | tr '\n' ' ')
        page=docs/$ch.md
        [ -f "$page" ] || page=docs/results/$ch.md
        if awk -v files="$files" -v made="$made" -v made_cpu="$made_cpu" -f tools/snapshots_apply.awk "$page" >"$out/$ch.md.new"; then
            if cmp -s "$out/$ch.md.new" "$page"; then echo "$page: unchanged"
            else mv -f "$out/$ch.md.new" "$page" && echo "$page: rewritten"; fi
        else
            echo "snapshots: $page left as it was (see above)" >&2
            failed=1
        fi
    done
    # the kept runs the charts are drawn from: make results' set, run again on
    # this GPU into docs/results/<gpu>/ (SNAP_RESULTS=0, or SNAP_CHAPTERS: not)
    if [ "${SNAP_RESULTS:-1}" = 1 ] && [ -z "${SNAP_CHAPTERS:-}" ] && [ -n "$gpu" ]; then
        echo "the kept runs: RESULTS_DIR=docs/results sh tools/results.sh"
        RESULTS_DIR=docs/results sh tools/results.sh || failed=1
    fi
fi
# every kept chart drawn again from the runs it records (tools/charts.sh)
[ $apply -eq 1 ] && { sh tools/charts.sh || failed=1; }
exit $failed
