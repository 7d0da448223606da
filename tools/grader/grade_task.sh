#!/bin/sh
# tools/grader/grade_task.sh - one student of `make grade SOURCES=dir`: build each of
# the student's labs from their exercise file alone, against the class's
# workbook built once, run each with --exercises --csv under a time limit,
# keep what came out (POSIX sh).
#
#   sh tools/grader/grade_task.sh STUDENT_DIR OUT_DIR BASE
#
# STUDENT_DIR holds the student's exercise files laid out as in the workbook
# (lab02_neighbored/exercises.cuh, lab01_cpu_reduce/exercises.c, ...). BASE
# is the class's workbook: a handout copy (tools/handout.sh; one holding a
# solutions folder is refused: the student's file is compiled with BASE's
# lab folders on its include path) built with `make -C BASE student-objects
# checker` (tools/grader/grade_sources.sh builds one per class, a Slurm class's
# build job one on the shared filesystem). Each lab is built by
# `sh BASE/tools/grader/build_student.sh LAB FILE COPY`, COPY a temp folder of the
# student's own: only their file is compiled, and linked with BASE's
# objects. BASE not built, or its objects stale (build_student.sh's exit 2),
# is the node's fault, never the student's.
#
# Each lab runs as ./labNN --exercises --csv --seed S -n N, S and N (lab06:
# NXxNY) chosen at run time from /dev/urandom, N near the lab's exercise size:
# the GPU labs first, each as soon as a GPU is free, the CPU lab (lab01)
# meanwhile, in the background. Each run's time limit comes from the
# class's calibration (OUT_DIR's parent's calibration/, tools/grader/calibrate.sh's:
# the solutions' runs on this GPU's model): 10 x the lab's longest
# calibrated run, at least 20 s, at most GRADE_TIMEOUT; GRADE_TIMEOUT for
# a lab it did not time (lab01, another GPU, no calibration).
# `sh tools/grader/grade_task.sh --limit LAB CALDIR NAME` prints that limit and
# why, for GPU NAME; `sh tools/grader/grade_task.sh --cpus` the CPUs this job may
# use (a Slurm task's allocation, SLURM_CPUS_PER_TASK, else nproc).
# The student's files are copied from inside their own folders without
# following a symlink: a hand-in that is a symlink, in a folder that is one,
# or not a regular file (a FIFO, a device) is refused, named in its lab's
# record (a 0: `labNN: refused: ...`) and never read.
# Writes OUT_DIR/labNN.run for each lab run (its seed, size, the fingerprint:
# the cksum of the student's file as built, the command that repeats the run,
# the tripwire's words, the build's seconds, the run's limit and why, the
# run's seconds), OUT_DIR/labNN.csv for each lab that ran (exit 0 or 1) with OUT_DIR/labNN.check, the checker's
# verdict on each of its rows (BASE's build/checker/checker: tools/grader/grade
# takes those, not the lab's own PASS), OUT_DIR/labNN.fail for each that did
# not (line 1 `labNN: what happened`, then the compiler's first errors or the
# program's last words: tools/grader/grade scores it 0 with that reason),
# OUT_DIR/sources.txt (the files used and the files ignored, then the
# seconds its builds and its runs took: `seconds: build B s, run R s`), and
# prints one progress line.
#
# Environment: GRADE_TIMEOUT (the most seconds a lab may run, default 60),
# GRADE_BUILD_TIMEOUT (seconds a lab may take to build, default 600),
# GRADE_LOCKS (a folder of GPU locks: each GPU lab's run waits for a free
# GPU and sets CUDA_VISIBLE_DEVICES; GRADE_GPUS lists them, default 0; the
# calibration holds them all while it runs, tools/grader/grade_sources.sh; its
# gpus.txt names the GPU of each),
# GRADE_K and GRADE_N (this is student K of N, for the progress line),
# GRADE_NODE_GPUS and GRADE_NODE_CC (how many GPUs CUDA can use here and
# device 0's compute capability, where tools/grader/grade_sources.sh asked
# already: no task asks CUDA while another's run is timed),
# GRADE_KEEP=1 (keep the copy), GRADE_CHECKER_CKSUM (the cksum of BASE's
# checker, taken once for the class before any student's code ran; default:
# taken here), GRADE_BASE_FAULT (why BASE cannot be used, e.g. the class's
# build job failed: every lab is then the node's fault),
# GRADE_RUN_ARGS (more arguments for every run, e.g. -r 3 in tests; never -n
# or --seed), GRADE_LENGTH (the length the runs' n is chosen near, default
# 16777213, the labs' exercise length) and GRADE_SHAPE (lab06's, default
# 3000x5000): the tests run small sizes with them. GRADE_SETUP: a line of
# sh run first, e.g. `module load cuda` (tools/grader/grade_setup.sh: by bash where
# there is one, with the site's module command loaded; what it sets is the
# task's). GRADE_CALIBRATE_ONCE=STAMP (a Slurm task, tools/grader/grade_slurm.sh):
# after the node's check, before any build, this GPU's calibration
# (tools/grader/calibrate.sh --once STAMP, into OUT_DIR's parent); a solution that
# fails there makes the GPU labs the node's fault.
# Told to stop (SIGTERM, SIGINT), it ends and judges nothing more: a run
# that ended by a signal gets a moment for the stop to reach this script
# first, and a run that left no status is never the student's.
# The sandbox (tools/grader/sandbox.sh): every build and every run of the student's
# code runs in bubblewrap: it sees its own copy (writable for the build
# only), BASE read-only for the build, and a private /tmp, not the class,
# the runs or $HOME; no network; GRADE_PROCS processes, files of
# GRADE_FILE_MB. The grader reads its output through pipes, at most
# GRADE_OUTPUT_MB (default 16) MiB of it, writes every record itself, and
# runs the checker after the sandbox has ended.
# GRADE_SANDBOX=none: no sandbox (each .run says so, and the report).
# The node is checked before anything is built: the setup line must succeed;
# the C compiler, the sandbox and (for a GPU lab) nvcc must be there; BASE
# built (its checker as the class began); and for a GPU lab a GPU CUDA can
# use (sh tools/gpu.sh count, else nvidia-smi -L). Where one is not, the
# labs that need it are not built and their records (line 1 `labNN: not
# graded: the node's fault, ...`) say what the node lacks: a node fault,
# flagged, never the student's 0. So is a GPU lab whose run fails with a
# CUDA error (exit 3) where CUDA can use no GPU after it, or where BASE's
# own build of the lab, run the same way outside the sandbox, fails too.
# Exit status: 0 (what failed is in OUT_DIR), 2 bad usage, 3 the node
# could not grade (the setup line failed, a tool is missing, BASE unusable).
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$(dirname "$here")")
# exercise_files DIR...: "LAB FILE" for each exercise file of the workbook's
# labs (tools/labs.conf; not a side program, part-of another lab) that one
# of DIR... holds, in the labs' order (also `sh tools/grader/grade_task.sh --labs DIR...`)
LABS_CONF=$top/tools/labs.conf
. "$top/tools/labs.sh"
exercise_files() {
    for l in $(lab_list); do
        [ -z "$(lab_get "$l" part-of)" ] || continue
        ld=$(lab_get "$l" folder)
        for ext in c cuh; do
            [ -f "$top/$ld/exercises.$ext" ] || continue
            for d in "$@"; do
                # (what is not a regular file is listed too: the copy refuses it, and says so)
                if [ -e "$d/$ld/exercises.$ext" ] || [ -L "$d/$ld/exercises.$ext" ] || [ -L "$d/$ld" ]; then
                    echo "$l $ld/exercises.$ext"; break
                fi
            done
        done
    done
}
T=${GRADE_TIMEOUT:-60}
# run_limit LAB CALDIR NAME: "SECONDS WHY", the seconds LAB's run may take on GPU
# NAME: 10 x the longest of the solutions' runs of LAB that CALDIR's
# calibration of NAME timed (CALDIR/<slug>/seconds: "LAB SECONDS" a run, its
# <slug>.csv beside it: the class's own), at least 20, at most T
# (GRADE_TIMEOUT); T where it timed none (NAME empty: a CPU lab)
run_limit() {
    if [ -n "$3" ]; then
        rs=$(sh "$top/tools/gpu.sh" slug "$3")
        [ -f "$2/$rs.csv" ] && [ -f "$2/$rs/seconds" ] && awk -v lab="$1" -v t="$T" -v name="$3" '
            $1 == lab && $2 + 0 > m { m = $2 + 0 }
            END {
                if (m <= 0) exit 1
                l = int(10 * m); if (l < 10 * m) l++
                why = sprintf("10 x the solution'"'"'s longest run, %.2f s on %s", m, name)
                if (l < 20) { l = 20; why = why "; at least 20 s" }
                if (l > t) { l = t; why = why "; at most GRADE_TIMEOUT, " t " s" }
                printf "%d %s\n", l, why
            }' "$2/$rs/seconds" && return 0
    fi
    echo "$T GRADE_TIMEOUT: no calibrated run of this lab${3:+ on $3}"
}
# cpus: the CPUs this job may use: a Slurm task's allocation (SLURM_CPUS_PER_TASK, else
# SLURM_JOB_CPUS_PER_NODE), else those it may run on (nproc), never more than the node's
cpus() {
    c=${SLURM_CPUS_PER_TASK:-}
    [ -n "$c" ] || c=$(echo "${SLURM_JOB_CPUS_PER_NODE:-}" | sed -n 's/^\([0-9][0-9]*\).*/\1/p')
    [ -n "$c" ] || c=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null)
    case $c in '' | *[!0-9]* | 0) c=1 ;; esac
    echo "$c"
}
if [ "${1:-}" = --labs ]; then shift; exercise_files "$@"; exit 0; fi
if [ "${1:-}" = --cpus ]; then cpus; exit 0; fi
if [ "${1:-}" = --limit ]; then run_limit "${2:-}" "${3:-}" "${4:-}"; exit 0; fi
sdir=${1:-}; out=${2:-}; base=${3:-}
if [ -z "$sdir" ] || [ -z "$out" ] || [ ! -d "$sdir" ] || [ -z "$base" ] || [ ! -d "$base" ]; then
    echo "grade_task: usage: sh tools/grader/grade_task.sh STUDENT_DIR OUT_DIR BASE (a handout copy, built)" >&2
    exit 2
fi
base=$(cd "$base" && pwd) || exit 2
# (the student's file is compiled with -I BASE's lab folder: solutions there could be #included)
sol=$(find "$base" -path "$base/build" -prune -o -type d -name solutions -print 2>/dev/null | head -n 1)
if [ -n "$sol" ]; then
    echo "grade_task: BASE $base holds solutions (${sol#"$base"/}): give a handout copy (tools/handout.sh)" >&2
    exit 2
fi
BT=${GRADE_BUILD_TIMEOUT:-600}
who=$(basename "$sdir")
now() { awk 'BEGIN { srand(); print srand() }'; }
# ms: milliseconds since the epoch (whole seconds where date has no %N)
ms() {
    m=$(date +%s%N 2>/dev/null)
    case $m in '' | *[!0-9]*) echo $(( $(now) * 1000 )) ;; *) echo $((m / 1000000)) ;; esac
}
t0=$(now)
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
rm -f "$out"/*.csv "$out"/*.fail "$out"/*.run "$out"/*.check "$out/sources.txt"

# the grader's own temp files: never in the sandbox
gt=$(mktemp -d "${TMPDIR:-/tmp}/grade-rec.XXXXXX") || exit 2
copy=
cleanup() {
    [ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null
    [ -n "${gpu:-}" ] && rmdir "$GRADE_LOCKS/gpu$gpu" 2>/dev/null
    [ -n "$copy" ] && [ "${GRADE_KEEP:-}" != 1 ] && rm -rf "$copy"
    rm -rf "$gt"
    [ -n "${GRADE_SETUP_LOG:-}" ] && rm -f "$GRADE_SETUP_LOG"
}
trap 'cleanup' EXIT
# told to stop (Slurm's scancel or time limit, ^C): nothing more is judged or written
trap 'exit 143' TERM
trap 'exit 130' INT
# settle STATUS: a command that ended by a signal (or left no status: 143) may have
# been stopped with this script: a moment for that signal to reach it too (its trap
# then ends it), before what the command left is judged
settle() { [ "$1" -le 128 ] || sleep 1; }

# limited SECONDS OUT ERR CMD...: CMD with stdout/stderr to OUT/ERR through
# pipes (at most GRADE_OUTPUT_MB MiB of stdout and 1 MiB of stderr are
# read: more ends the command), killed after SECONDS; the status in $st
# (124: it ran past the limit, 125: it printed past the cap; also in OUT.st)
ocap=$(( ${GRADE_OUTPUT_MB:-16} * 1048576 ))
limited() {
    lt=$1 lo=$2 le=$3; shift 3
    ls0=$(now)
    to=
    command -v timeout >/dev/null 2>&1 && to="timeout -k 10 $lt"
    rm -f "$lo.st"
    { { $to "$@" 2>&1 1>&3 3>&-; echo $? >"$lo.st"; } | head -c 1048576 >"$le"; } 3>&1 | head -c "$ocap" >"$lo"
    # (no status: the pipeline was killed, this script's stop: 143, never the student's exit 1)
    st=$(cat "$lo.st" 2>/dev/null)
    case $st in '' | *[!0-9]*) st=143 ;; esac
    if [ -z "$to" ] && [ $(( $(now) - ls0 )) -ge "$lt" ]; then st=124; fi
    # killed by the limit (timeout's 124, or its KILL 10 s later)
    [ "$st" -ne 0 ] && [ $(( $(now) - ls0 )) -ge "$lt" ] && st=124
    [ "$(wc -c <"$lo" | tr -d ' ')" -ge "$ocap" ] && st=125
    return 0
}
[ -n "$(command -v timeout)" ] || echo "grade_task: no timeout command here (coreutils): no time limit" >&2

# (sh "$here/sandbox.sh" build|run "$copy" CMD...: CMD in the student's copy, in the sandbox)
GRADE_SANDBOX_HIDE="$sdir:$out:$top:$base"
export GRADE_SANDBOX_HIDE

# fail LAB WHAT [DETAILS_FILE]: LAB scores 0 with this reason
fail() {
    { echo "$1: $2"; [ -n "${3:-}" ] && [ -s "$3" ] && cat "$3"; } >"$out/$1.fail"
    FAILED="$FAILED, $1 $4"
}
# node_fault LAB WHY [DETAILS_FILE]: LAB is not graded, the node's fault (a flag, never a 0)
node_fault() {
    { echo "$1: not graded: the node's fault, not the student's file: $2"; [ -n "${3:-}" ] && [ -s "$3" ] && cat "$3"; } \
        >"$out/$1.fail"
    NODEF="$NODEF $1"
}
NODEF=

# the student's files: those the workbook has, the rest named and ignored
labs=
gpulabs=
exercise_files "$sdir" >"$gt/labs"
while read -r l f; do
    labs="$labs $l:$f"
    lab_has "$l" device gpu && gpulabs="$gpulabs $l"
    echo "used: $f"
done <"$gt/labs" >"$out/sources.txt"
( cd "$sdir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort ) | while IFS= read -r f; do
    case " $labs " in *":$f "*) ;; *) echo "ignored: $f" >>"$out/sources.txt" ;; esac
done
FAILED=
if [ -z "$labs" ]; then
    ign=$(sed -n 's/^ignored: //p' "$out/sources.txt" | head -n 5 | tr '\n' ' ')
    echo "?: no exercise file where the workbook has one (e.g. $who/lab02_neighbored/exercises.cuh);" \
        "ignored: ${ign:-nothing: the folder is empty}" >"$out/sources.fail"
    echo "grade: student ${GRADE_K:-1} of ${GRADE_N:-1}, $who: no exercise file in the workbook's layout" >&2
    exit 0
fi

# ---- the node: the setup line first, then the tools, the sandbox, BASE, the GPU ---------
# The setup line (tools/grader/grade_setup.sh): this script then starts again with
# what it exported, its status in GRADE_SETUP_STATUS
node=$(hostname 2>/dev/null) || node="this machine"
if [ -n "${GRADE_SETUP:-}" ] && [ -z "${GRADE_SETUP_STATUS:-}" ]; then
    GRADE_SETUP_LOG=$(mktemp "${TMPDIR:-/tmp}/grade-setup.XXXXXX") || exit 2
    export GRADE_SETUP_LOG
    rm -rf "$gt"; trap - EXIT
    exec sh "$here/grade_setup.sh" sh "$0" "$sdir" "$out" "$base"
fi
nwhy=
nlog=$gt/setup.log
[ -n "${GRADE_SETUP_LOG:-}" ] && [ -f "$GRADE_SETUP_LOG" ] && mv "$GRADE_SETUP_LOG" "$nlog"
[ -f "$nlog" ] || : >"$nlog"
nst=${GRADE_SETUP_STATUS:-0}
[ "$nst" -ne 0 ] && nwhy="the setup line failed on node $node (exit $nst): GRADE_SETUP='$GRADE_SETUP'"
if [ -z "$nwhy" ]; then
    # (the compilers build_student.sh will call: CC and NVCC as make read them, first word)
    need="$(echo "${CC:-gcc}" | awk '{ print $1 }')"
    [ -n "$gpulabs" ] && need="$need $(echo "${NVCC:-nvcc}" | awk '{ print $1 }')"
    for tool in $need; do
        command -v "$tool" >/dev/null 2>&1 || nwhy="$nwhy, $tool"
    done
    # (tools/grader/grade_sources.sh checks it once for the class: GRADE_SANDBOX_CHECKED=1)
    if [ "${GRADE_SANDBOX:-bwrap}" != none ] && [ "${GRADE_SANDBOX_CHECKED:-}" != 1 ]; then
        sw=$(sh "$here/sandbox.sh" check 2>&1) || nwhy="$nwhy, a sandbox ($sw)"
    fi
    if [ -n "$nwhy" ]; then
        echo "PATH=$PATH" >>"$nlog"
        nwhy="node $node lacks ${nwhy#, } (GRADE_SETUP='${GRADE_SETUP:-}')"
    fi
fi
# BASE: usable (GRADE_BASE_FAULT says why not), built, its checker the one the class began with
chk=$base/build/checker/checker
if [ -z "$nwhy" ] && [ -n "${GRADE_BASE_FAULT:-}" ]; then
    nwhy=$GRADE_BASE_FAULT
elif [ -z "$nwhy" ] && [ ! -x "$chk" ]; then
    nwhy="the workbook $base is not built (no build/checker/checker): make -C BASE student-objects checker"
elif [ -z "$nwhy" ] && [ "$(id -u)" -eq 0 ] && [ "${GRADE_SANDBOX:-bwrap}" = bwrap ] &&
    ! setpriv --reuid="${GRADE_SANDBOX_UID:-65534}" --regid="${GRADE_SANDBOX_UID:-65534}" --clear-groups \
        test -r "$base/tools/grader/build_student.sh" 2>/dev/null; then
    nwhy="the sandbox's user (${GRADE_SANDBOX_UID:-65534}) cannot read the workbook $base: open its folders to it"
elif [ -z "$nwhy" ]; then
    chksum=$(cksum <"$chk")
    if [ -n "${GRADE_CHECKER_CKSUM:-}" ] && [ "$chksum" != "$GRADE_CHECKER_CKSUM" ]; then
        nwhy="the grader's checker ($chk) changed since the class began: grade the class again"
    fi
fi
if [ -n "$nwhy" ]; then
    tail -n 6 "$nlog" >"$nlog.tail"
    for lf in $labs; do node_fault "${lf%%:*}" "$nwhy" "$nlog.tail"; done
    echo "grade: student ${GRADE_K:-1} of ${GRADE_N:-1}, $who: not graded: $nwhy" | cut -c 1-100 >&2
    exit 3
fi
# gpus: how many GPUs CUDA can use here (tools/gpu.sh, a CUDA query; else nvidia-smi)
gpus() {
    if [ -f "$top/tools/gpu.sh" ]; then sh "$top/tools/gpu.sh" count 2>/dev/null | head -n 1
    else nvidia-smi -L 2>/dev/null | grep -c '^GPU'; fi
}
# sandbox_broken ERR: the sandbox itself failed (ERR holds bwrap's words and a
# trivial command fails in it too): the node's fault, not the student's
sandbox_broken() {
    [ "${GRADE_SANDBOX:-bwrap}" != none ] && grep -q '^bwrap: ' "$1" 2>/dev/null || return 1
    ! sh "$here/sandbox.sh" run "$copy" /bin/sh -c 'exit 0' >/dev/null 2>&1
}
# a GPU lab needs a GPU CUDA can use: without one its labs are the node's fault (lab01 goes on)
nogpu=
if [ -n "$gpulabs" ]; then
    ng=${GRADE_NODE_GPUS:-}; [ -n "$ng" ] || ng=$(gpus)
    case $ng in '' | *[!0-9]*) ng=0 ;; esac
    if [ "$ng" -eq 0 ]; then
        if [ -n "${SLURM_JOB_GPUS:-}${SLURM_STEP_GPUS:-}${CUDA_VISIBLE_DEVICES:-}" ]; then
            nogpu="node $node has no GPU CUDA can use (the job has GPU ${SLURM_JOB_GPUS:-${SLURM_STEP_GPUS:-$CUDA_VISIBLE_DEVICES}}: a driver older than the toolkit?)"
        elif [ -n "${SLURM_JOB_ID:-}" ]; then
            nogpu="node $node has no GPU CUDA can use (ask sbatch for one: --gres=gpu:1)"
        else
            nogpu="$node has no GPU CUDA can use"
        fi
    else
        # BASE built for one GPU (sm_XX and its PTX) runs on it and newer ones only
        l=${gpulabs# }; l=${l%% *}
        arch=$(sed -n "s/^build_id='sm_\([0-9]*\).*/\1/p" "$base/build/student/$l.sh" 2>/dev/null)
        cc=; [ -n "$arch" ] && cc=${GRADE_NODE_CC:-$(sh "$top/tools/gpu.sh" cc 2>/dev/null)}
        case $arch:$cc in *[!0-9:]* | :* | *:) ;; *)
            [ "$cc" -lt "$arch" ] && nogpu="node $node's GPU (sm_$cc) is older than the one BASE was built for (sm_$arch)" ;;
        esac
    fi
fi
# A Slurm task (GRADE_CALIBRATE_ONCE: the class's stamp): this GPU's speed bars, after
# the node's check, before any student's build (tools/grader/calibrate.sh --once: the first
# task on each GPU model). The instructor's solutions failing on this GPU: the node's fault
if [ -n "${GRADE_CALIBRATE_ONCE:-}" ] && [ -n "$gpulabs" ] && [ -z "$nogpu" ]; then
    : >"$gt/calfault"
    # shellcheck disable=SC2086 # the labs, one word each
    GRADE_CALIBRATE_FAULT=$gt/calfault sh "$top/tools/grader/calibrate.sh" --once "$GRADE_CALIBRATE_ONCE" \
        "$(dirname "$out")" $gpulabs
    [ -s "$gt/calfault" ] && nogpu="node $node's GPU fails the instructor's own solutions: $(head -n 1 "$gt/calfault")"
fi
case ${GRADE_SANDBOX:-bwrap} in
    none) sboxv=none ;;
    apptainer) sboxv="$(apptainer --version 2>/dev/null | head -n 1) $GRADE_APPTAINER_IMAGE" ;;
    *) sboxv="$(bwrap --version 2>/dev/null | head -n 1)" ;;
esac
[ "$(sh "$here/sandbox.sh" scope)" = yes ] && sboxv="$sboxv, memory ${GRADE_MEMORY:-8G}"
GRADE_SANDBOX_SCOPE=no; case $sboxv in *memory*) GRADE_SANDBOX_SCOPE=yes ;; esac
export GRADE_SANDBOX_SCOPE

# ---- the student's copy: their files, built there against BASE ----------------------
# COPY holds what the sandbox may write: handin/ (the student's files, as
# handed in) and what tools/grader/build_student.sh writes from them, laid out as
# the workbook (the lab's folder with the file, build/, ./labNN)
copy=$(mktemp -d "${TMPDIR:-/tmp}/grade-$who.XXXXXX") || exit 2
# Each file copied from inside its own folder, reached without a symlink (cd -P, then its
# physical path checked), copied as it is (cp -P: a symlink stays a link): what is not a
# regular file is refused, named, and never read
sdirp=$(cd -P "$sdir" && pwd -P) || exit 2
kept=
for lf in $labs; do
    f=${lf#*:}
    mkdir -p "$copy/handin/${f%/*}" || exit 2
    if (cd "$sdirp" && cd -P "${f%/*}" && [ "$(pwd -P)" = "$sdirp/${f%/*}" ] && [ -f "${f##*/}" ] &&
        [ ! -L "${f##*/}" ] && cp -P "${f##*/}" "$copy/handin/$f") 2>/dev/null &&
        [ -f "$copy/handin/$f" ] && [ ! -L "$copy/handin/$f" ]; then
        kept="$kept $lf"
        continue
    fi
    what="$f is not a regular file (a FIFO, a device or a folder)"
    if [ -L "$sdirp/${f%/*}" ]; then what="$f: its folder ${f%/*} is a symlink"
    elif [ -L "$sdirp/$f" ]; then what="$f is a symlink"
    elif [ ! -e "$sdirp/$f" ]; then what="$f is gone"; fi
    rm -f "$copy/handin/$f"
    fail "${lf%%:*}" "refused: $what (not read: hand in the file itself)" "" "(not a file)"
done
labs=$kept
# the sandbox's user owns the copy (run as root, the sandbox runs as GRADE_SANDBOX_UID)
if [ "$(id -u)" -eq 0 ] && [ "${GRADE_SANDBOX:-bwrap}" != none ]; then
    chown -R "${GRADE_SANDBOX_UID:-65534}:${GRADE_SANDBOX_UID:-65534}" "$copy" || exit 2
fi
# is_gpu LAB: LAB runs on the GPU (tools/labs.conf)
is_gpu() { case " $gpulabs " in *" $1 "*) return 0 ;; esac; return 1; }
# secs MS: milliseconds as seconds, one decimal
secs() { awk -v m="$1" 'BEGIN { printf "%.1f", m / 1000 }'; }

# ---- the build: each lab from the student's file alone, in the sandbox ------------
# (BASE read-only in it; one command under the time limit; its output in
# $gt/build-LAB.log and .err, its status in $st). At a lower CPU priority (nice):
# the runs beside it, timed (a CPU lab, a GPU lab's host code), and the
# calibration go first
nice=; command -v nice >/dev/null 2>&1 && nice="nice -n 10"
built=
bms=0
for lf in $labs; do
    lab=${lf%%:*}; f=${lf#*:}
    is_gpu "$lab" && [ -n "$nogpu" ] && { node_fault "$lab" "$nogpu"; continue; }
    b0=$(ms)
    limited "$BT" "$gt/build-$lab.log" "$gt/build-$lab.err" $nice env GRADE_SANDBOX_WORKBOOK="$base" \
        sh "$here/sandbox.sh" build "$copy" env LC_ALL=C sh "$base/tools/grader/build_student.sh" "$lab" "$copy/handin/$f" "$copy"
    settle "$st"
    b=$(( $(ms) - b0 ))
    bms=$((bms + b))
    eval "bms_$lab=$b"
    if [ $st -eq 124 ]; then
        fail "$lab" "the build ran past $BT s (killed)" "" "(build hang)"
        continue
    fi
    if [ $st -ne 0 ] && sandbox_broken "$gt/build-$lab.err"; then
        node_fault "$lab" "the sandbox failed on node $node: $(grep '^bwrap: ' "$gt/build-$lab.err" | head -n 1)"
        continue
    fi
    if [ $st -eq 2 ]; then
        # build_student.sh's exit 2: the grader's side (BASE's objects missing or stale, no compiler)
        grep -v '^bwrap: ' "$gt/build-$lab.err" | head -n 4 | sed "s|$copy/||g" >"$gt/why"
        node_fault "$lab" "BASE's objects could not build it on node $node (build_student.sh exit 2):" "$gt/why"
        continue
    fi
    if [ $st -ne 0 ]; then
        # the compiler's first error lines, with the copy's path taken out
        grep -i 'error\|exceeded' "$gt/build-$lab.err" "$gt/build-$lab.log" 2>/dev/null | sed "s|^[^:]*:||; s|$copy/||g" |
            grep -v '^make' | head -n 6 >"$gt/why"
        [ -s "$gt/why" ] || tail -n 6 "$gt/build-$lab.err" | sed "s|$copy/||g" >"$gt/why"
        fail "$lab" "does not compile ($f)" "$gt/why" "(compile)"
        continue
    fi
    built="$built $lab"
done

# a GPU of our own for each GPU lab's run (GRADE_LOCKS: one run per GPU at a time)
gpu=; gpus_used=
lock_gpu() {
    [ -n "${GRADE_LOCKS:-}" ] || return 0
    while [ -z "$gpu" ]; do
        for g in ${GRADE_GPUS:-0}; do
            if mkdir "$GRADE_LOCKS/gpu$g" 2>/dev/null; then gpu=$g; break; fi
        done
        [ -n "$gpu" ] || sleep 0.1 2>/dev/null || sleep 1
    done
    case " $gpus_used " in *" $gpu "*) ;; *) gpus_used="$gpus_used $gpu" ;; esac
    CUDA_VISIBLE_DEVICES=$gpu
    export CUDA_VISIBLE_DEVICES
}
unlock_gpu() {
    [ -n "$gpu" ] && rmdir "$GRADE_LOCKS/gpu$gpu" 2>/dev/null
    gpu=
}
# ---- the runs, each judged by the checker (docs/instructor.md) ----------------
# Each run's seed, and its size near the lab's own exercise size, are chosen
# here from /dev/urandom and recorded in OUT_DIR/labNN.run with the command
# that repeats the run; the verdict on each row comes from the checker
# (tools/grader/checker/, built from the workbook's own code before any of the
# student's code runs), into OUT_DIR/labNN.check; the fingerprint is the
# cksum of the student's file as built, taken here, never read from the run.
case " ${GRADE_RUN_ARGS:-} " in
    *" -n "*|*" --seed "*)
        echo "grade_task: GRADE_RUN_ARGS may not hold -n or --seed: the grader chooses them (GRADE_LENGTH, GRADE_SHAPE)" >&2
        exit 2 ;;
esac
urandom() { od -An -N"$1" -tu"$1" /dev/urandom | tr -d ' \n'; }
# a length at most 8184 below $1 (and above half of it) with its remainder mod 8 (the same tail for
# every vector width and unroll factor the labs use; the default's is odd)
near_length() {
    awk -v l="$1" -v r="$(urandom 2)" 'BEGIN { m = int(l / 16); m = m > 1024 ? 1024 : (m < 1 ? 1 : m)
        printf "%d\n", l - 8 * (r % m) }'
}
# a shape whose sides are at most 240 below $1's (and above half) with their remainders mod 16
# (3000x5000: rows of a multiple of 8 floats, as fast as the default's, and
# multiples of no tile side 16, 32, 64: a kernel that drops a partial tile fails)
near_shape() {
    awk -v s="$1" -v r="$(urandom 2)" 'BEGIN { split(s, d, "x")
        mx = int(d[1] / 32); mx = mx > 16 ? 16 : (mx < 1 ? 1 : mx)
        my = int(d[2] / 32); my = my > 16 ? 16 : (my < 1 ? 1 : my)
        printf "%dx%d\n", d[1] - 16 * (r % mx), d[2] - 16 * (int(r / 16) % my) }'
}
# what the student's objects of lab $1 (folder $2) pull in beyond the stub's:
# new calls that could print, exit or read the environment, new constructors
# or static initializers (.init_array), /proc paths, a device printf. Words
# on stdout: "none" when nothing is new, "not-checked" when BASE holds no
# stub build of the lab to compare with.
# A flag for the instructor to read, never a lost point.
WATCH='^(_?_?exit|_Exit|quick_exit|abort|atexit|at_quick_exit|on_exit|__cxa_atexit|__cxa_thread_atexit|write|writev|pwrite|pwrite64|printf|puts|putchar|fputs|fputc|putc|fwrite|fprintf|vprintf|vfprintf|dprintf|vdprintf|__printf_chk|__fprintf_chk|__vfprintf_chk|__dprintf_chk|fflush|stdout|stderr|fopen|fopen64|freopen|fdopen|open|open64|openat|creat|read|pread|readlink|getenv|secure_getenv|setenv|putenv|system|popen|fork|vfork|execv|execve|execvp|execl|execlp|dup|dup2|syscall|dlopen|dlsym|signal|sigaction|raise|kill|ptrace|_ZSt4cout|_ZSt4cerr|_ZNSo.*|_ZSt16__ostream_insert.*)$'
ia() { size -A "$1" 2>/dev/null | awk '$1 == ".init_array" || $1 == ".ctors" { s += $2 } END { print s + 0 }'; }
cnt() { LC_ALL=C grep -a -o "$1" "$2" | wc -l; }
tripwire() {
    [ -d "$base/build/$2" ] || { echo "not-checked"; return; }
    tw=
    for o in "$copy/build/$2"/*.o; do
        sb=$base/build/$2/${o##*/}
        [ -f "$o" ] && [ -f "$sb" ] && ! cmp -s "$o" "$sb" || continue
        nm -u "$sb" 2>/dev/null | awk '{ print $NF }' | LC_ALL=C sort -u >"$gt/nm.stub"
        tw="$tw $(nm -u "$o" 2>/dev/null | awk '{ print $NF }' | LC_ALL=C sort -u |
            LC_ALL=C comm -13 "$gt/nm.stub" - | grep -E "$WATCH" | tr '\n' ' ')"
        [ "$(ia "$o")" -gt "$(ia "$sb")" ] && tw="$tw constructor"
        [ "$(cnt /proc/ "$o")" -gt "$(cnt /proc/ "$sb")" ] && tw="$tw /proc"
        [ "$(cnt vprintf "$o")" -gt "$(cnt vprintf "$sb")" ] && tw="$tw device-printf"
    done
    tw=$(echo $tw | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
    echo "${tw:-none}"
}

# prepare LAB: its seed and size drawn, its record written (OUT_DIR/LAB.run, but for
# the limit and the seconds); what its run and its judge need in seed_LAB, size_LAB,
# chkarg_LAB (the checker's size argument) and names_LAB (its kernels' names file)
prepare() {
    f=$(echo $labs | tr ' ' '\n' | sed -n "s|^$1:||p")
    seed=$(urandom 8)
    case $1 in
        lab06) size=$(near_shape "${GRADE_SHAPE:-3000x5000}"); chkarg="--matrix $size" ;;
        *) size=$(near_length "${GRADE_LENGTH:-16777213}"); chkarg="-n $size" ;;
    esac
    fp=$(cksum <"$copy/$f" | awk '{ printf "%08x", $1 }')
    trip=$(tripwire "$1" "${f%/*}")
    names=
    if [ -x "$base/$1" ] && "$base/$1" --list >"$gt/$1.list" 2>/dev/null; then
        # the lab's kernels and exercises, from the workbook's own build: the first word of each entry
        awk '/^[^ ]/ && !/^(exercises in|matrix mode)/ { print $1 }' "$gt/$1.list" >"$gt/$1.names"
        [ -s "$gt/$1.names" ] && names=$gt/$1.names
    fi
    {
        echo "seed $seed"
        echo "size $size"
        echo "fingerprint $fp"
        echo "file $f"
        echo "command ./$1 --exercises --csv --seed $seed -n $size${GRADE_RUN_ARGS:+ $GRADE_RUN_ARGS}"
        echo "tripwire $trip"
        echo "sandbox $sboxv"
        eval "b=\${bms_$1:-0}"
        echo "build $(secs "$b")" # the build's wall time
    } >"$out/$1.run"
    eval "seed_$1=\$seed; size_$1=\$size; chkarg_$1=\$chkarg; names_$1=\$names"
}
# the class's calibration (tools/grader/calibrate.sh): the runs' time limits (run_limit)
cald=$(dirname "$out")/calibration
# gpu_name: the name of the GPU a GPU lab runs on, in $lname: the one this task holds
# (GRADE_LOCKS: the calibration's gpus.txt names each), else CUDA's device 0 (asked
# once, where the class has a calibration); empty where unknown
gname=; gasked=
gpu_name() {
    if [ -n "$gpu" ]; then
        lname=$(awk -v g="$gpu" '$1 == g { sub(/^[^ ]* /, ""); print; exit }' "$cald/gpus.txt" 2>/dev/null)
        return
    fi
    if [ -z "$gasked" ]; then
        gasked=1
        ls "$cald"/*.csv >/dev/null 2>&1 && gname=$(sh "$top/tools/gpu.sh" name 2>/dev/null | head -n 1)
    fi
    lname=$gname
}
# run_lab LAB: LAB's run in the sandbox under its limit (its line `limit SECONDS WHY` in
# LAB.run); "STATUS MILLISECONDS" in $gt/LAB.res. A GPU lab's on the GPU this task holds
run_lab() {
    lname=
    is_gpu "$1" && gpu_name
    lim=$(run_limit "$1" "$cald" "$lname")
    echo "limit $lim" >>"$out/$1.run"
    eval "seed=\$seed_$1; size=\$size_$1"
    r0=$(ms)
    # shellcheck disable=SC2086 # GRADE_RUN_ARGS: more arguments
    limited "${lim%% *}" "$gt/$1.csv" "$gt/$1.err" sh "$here/sandbox.sh" run "$copy" "./$1" --exercises --csv \
        --seed "$seed" -n "$size" ${GRADE_RUN_ARGS:-}
    settle "$st"
    echo "$st $(( $(ms) - r0 ))" >"$gt/$1.res.new" && mv "$gt/$1.res.new" "$gt/$1.res"
}
# base_fails LAB: the workbook's own LAB (BASE's, the instructor's code: outside the
# sandbox) run as the student's was, with the same seed and size, fails with a CUDA error too
base_fails() {
    [ -x "$base/$1" ] || return 1
    eval "size=\$size_$1"
    # shellcheck disable=SC2086 # GRADE_RUN_ARGS: more arguments
    (cd "$base" && timeout -k 10 "${lim%% *}" "./$1" --exercises --csv --seed "$seed" -n "$size" \
        ${GRADE_RUN_ARGS:-} >/dev/null 2>"$gt/$1.base")
    [ $? -eq 3 ]
}
# judge LAB: LAB's run (run_lab's), its seconds recorded, then what it earns: a
# CSV the checker judges, or a record of what went wrong
nran=0; rms=0
judge() {
    lab=$1
    # (no status: its run was stopped with this script, never judged as the student's)
    if [ ! -r "$gt/$lab.res" ] || ! read -r st r <"$gt/$lab.res"; then
        sleep 1
        echo "$lab: not graded: run lost: its run on node $node left no status (the grader stopped?)" >"$out/$lab.fail"
        NODEF="$NODEF $lab"
        return
    fi
    lim=$(sed -n 's/^limit //p' "$out/$lab.run")
    eval "seed=\$seed_$lab; chkarg=\$chkarg_$lab; names=\$names_$lab"
    rms=$((rms + r))
    echo "seconds $(( (r + 500) / 1000 ))" >>"$out/$lab.run" # the run's wall time (a GPU lab's: the GPU held)
    sed "s|$copy/||g" "$gt/$lab.err" | tail -n 8 | cut -c 1-300 >"$gt/why"
    # a CUDA error where CUDA can use no GPU any more, or where the workbook's own build of
    # the lab (the instructor's code: outside the sandbox) fails the same way: the node's
    if [ "$st" -eq 3 ] && is_gpu "$lab" && [ "$(gpus)" = 0 ]; then
        node_fault "$lab" "node $node: CUDA can use no GPU after this lab's run (exit 3)" "$gt/why"
    elif [ "$st" -eq 3 ] && is_gpu "$lab" && base_fails "$lab"; then
        node_fault "$lab" "node $node's GPU fails the workbook's own $lab too (exit 3): $(grep . "$gt/$lab.base" |
            head -n 1 | cut -c 1-120)" "$gt/why"
    elif [ "$st" -ne 0 ] && sandbox_broken "$gt/$lab.err"; then
        node_fault "$lab" "the sandbox failed on node $node: $(grep '^bwrap: ' "$gt/$lab.err" | head -n 1)"
    elif [ "$st" -eq 125 ]; then
        fail "$lab" "printed more than ${GRADE_OUTPUT_MB:-16} MiB (cut there, the run ended)" "" "(output)"
    elif [ "$st" -eq 124 ]; then
        fail "$lab" "ran past ${lim%% *} s (killed): a kernel or loop that never ends? (the limit: ${lim#* })" \
            "$gt/why" "(hang)"
    elif [ "$st" -gt 128 ]; then
        sig=$(kill -l $((st - 128)) 2>/dev/null || echo $((st - 128)))
        fail "$lab" "crashed: killed by signal $sig (exit $st)" "$gt/why" "(SIG$sig)"
    elif [ "$st" -eq 3 ]; then
        fail "$lab" "a CUDA error or no usable CUDA device (exit 3): $(head -c 120 "$gt/why" | head -n 1)" \
            "$gt/why" "(CUDA)"
    elif [ "$st" -gt 1 ]; then
        fail "$lab" "exit $st: $(head -n 1 "$gt/why")" "$gt/why" "(exit $st)"
    elif ! head -n 1 "$gt/$lab.csv" | grep -q '^lab,device,kernel,'; then
        fail "$lab" "printed no CSV (exit $st)" "$gt/why" "(no CSV)"
    elif [ "$(cksum <"$chk")" != "$chksum" ]; then
        fail "$lab" "the run changed the grader's files (its checker): not graded" "" "(tampered)"
    else
        cp "$gt/$lab.csv" "$out/$lab.csv"
        # shellcheck disable=SC2086 # chkarg is an option and its value
        "$chk" --lab "$lab" --seed "$seed" $chkarg ${names:+--names "$names"} "$out/$lab.csv" \
            >"$out/$lab.check" 2>"$gt/$lab.chk"
        [ $? -le 1 ] || { echo "grade_task: the checker failed on $lab: $(head -c 200 "$gt/$lab.chk")" >&2; : >"$out/$lab.check"; }
        nran=$((nran + 1))
    fi
}

# The GPU labs run first, each as soon as a GPU is free (the queue fills early);
# the CPU labs meanwhile, one after another in the background: a CPU lab's
# run never waits for a GPU
cpulabs=; gpuruns=
for lab in $built; do
    prepare "$lab"
    if is_gpu "$lab"; then gpuruns="$gpuruns $lab"; else cpulabs="$cpulabs $lab"; fi
done
cpid=
if [ -n "$cpulabs" ]; then
    ( for lab in $cpulabs; do run_lab "$lab"; done ) &
    cpid=$!
fi
for lab in $gpuruns; do
    lock_gpu
    run_lab "$lab"
    unlock_gpu
    judge "$lab"
done
[ -n "$cpid" ] && wait "$cpid"
cpid=
for lab in $cpulabs; do judge "$lab"; done

echo "seconds: build $(secs $bms) s, run $(secs $rms) s" >>"$out/sources.txt"
nl=$(echo $labs | wc -w)
gu=$(echo $gpus_used | tr ' ' ,)
line="grade: student ${GRADE_K:-1} of ${GRADE_N:-1}, $who${gu:+ (GPU $gu)}: $nran of $nl labs ran"
[ -n "$FAILED" ] && line="$line; 0 for${FAILED#,}"
[ -n "$NODEF" ] && line="$line; node fault:$NODEF"
line="$line; $(( $(now) - t0 )) s (build $(secs $bms), run $(secs $rms))"
[ ${#line} -gt 100 ] && line="$(printf '%.96s' "$line") ..."
echo "$line" >&2
exit 0
