#!/bin/sh
# tools/grade_task.sh - one student of `make grade SOURCES=dir`: build the
# student's labs in a copy of the workbook of their own, run each with
# --exercises --csv under a time limit, keep what came out (POSIX sh).
#
#   sh tools/grade_task.sh STUDENT_DIR OUT_DIR [BASE]
#
# STUDENT_DIR holds the student's exercise files laid out as in the workbook
# (lab02_neighbored/exercises.cuh, lab01_cpu_reduce/exercises.c, ...). BASE is
# a copy of the workbook already built (tools/grade_sources.sh makes one per
# class): it is copied with its build/, so only what includes the student's
# file is compiled again. Without BASE the copy is made from this workbook
# (tools/handout.sh: no solutions) and built from scratch (a Slurm task).
#
# Writes OUT_DIR/labNN.csv for each lab that ran (exit 0 or 1: the CSV is
# graded as a hand-in), OUT_DIR/labNN.fail for each that did not (line 1
# `labNN: what happened`, then the compiler's first errors or the program's
# last words: tools/grade scores it 0 with that reason), OUT_DIR/sources.txt
# (the files used and the files ignored), and prints one progress line.
#
# Environment: GRADE_TIMEOUT (seconds a lab may run, default 120),
# GRADE_BUILD_TIMEOUT (seconds a lab may take to build, default 600),
# GRADE_LOCKS (a folder of GPU locks: the run waits for a free GPU and sets
# CUDA_VISIBLE_DEVICES; GRADE_GPUS lists them, default 0), GRADE_K and
# GRADE_N (this is student K of N, for the progress line), GRADE_KEEP=1
# (keep the copy), GRADE_MAKE_JOBS (make -j inside the copy; default the
# CPUs of the Slurm allocation, SLURM_CPUS_PER_TASK, else 2),
# GRADE_RUN_ARGS (more arguments for every run, e.g. -n 100003 in tests; a
# graded class runs the labs at their defaults), GRADE_SETUP (a line of sh
# run first, e.g. `module load cuda`).
# The node is checked before anything is built: the setup line must succeed,
# and make, the C compiler and (for a GPU lab) nvcc must be found, and in a
# Slurm job (SLURM_JOB_ID) a GPU too. Where one is not, nothing is built and
# every lab's record says what the node lacks: the node's fault, never the
# student's file.
# Exit status: 0 (what failed is in OUT_DIR), 2 bad usage, 3 the node
# could not grade (the setup line failed or a tool is missing).
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$here")
sdir=$1; out=$2; base=${3:-}
if [ -z "$sdir" ] || [ -z "$out" ] || [ ! -d "$sdir" ]; then
    echo "grade_task: usage: sh tools/grade_task.sh STUDENT_DIR OUT_DIR [BASE]" >&2
    exit 2
fi
T=${GRADE_TIMEOUT:-120}
BT=${GRADE_BUILD_TIMEOUT:-600}
# make -j in the copy: GRADE_MAKE_JOBS, else the CPUs Slurm gave this task
# (SLURM_CPUS_PER_TASK, else SLURM_CPUS_ON_NODE in a job), else 2
mj=${GRADE_MAKE_JOBS:-${SLURM_CPUS_PER_TASK:-}}
[ -z "$mj" ] && [ -n "${SLURM_JOB_ID:-}" ] && mj=${SLURM_CPUS_ON_NODE:-}
case $mj in '' | *[!0-9]* | 0) mj=2 ;; esac
GRADE_MAKE_JOBS=$mj
who=$(basename "$sdir")
now() { awk 'BEGIN { srand(); print srand() }'; }
t0=$(now)
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
rm -f "$out"/*.csv "$out"/*.fail "$out/sources.txt"

# limited SECONDS OUT ERR CMD...: CMD with stdout/stderr to OUT/ERR, killed
# after SECONDS; the status in $st (124: it ran past the limit)
limited() {
    lt=$1 lo=$2 le=$3; shift 3
    ls0=$(now)
    if command -v timeout >/dev/null 2>&1; then
        timeout -k 10 "$lt" "$@" >"$lo" 2>"$le"
        st=$?
    else
        "$@" >"$lo" 2>"$le" &
        lpid=$!
        ( sleep "$lt"; kill -TERM "$lpid" 2>/dev/null; sleep 10; kill -KILL "$lpid" 2>/dev/null ) &
        wpid=$!
        wait "$lpid"; st=$?
        kill "$wpid" 2>/dev/null
    fi
    # killed by the limit (timeout's 124, or its KILL 10 s later)
    [ $st -ne 0 ] && [ $(( $(now) - ls0 )) -ge "$lt" ] && st=124
    return 0
}

# fail LAB WHAT [DETAILS_FILE]: LAB scores 0 with this reason
fail() {
    { echo "$1: $2"; [ -n "${3:-}" ] && [ -s "$3" ] && cat "$3"; } >"$out/$1.fail"
    FAILED="$FAILED, $1 $4"
}

# the student's files: those the workbook has, the rest named and ignored
labs=
: >"$out/sources.txt"
for d in "$top"/lab0*_*; do
    [ -d "$d" ] || continue
    ld=$(basename "$d")
    for ext in c cuh; do
        [ -f "$d/exercises.$ext" ] || continue
        if [ -f "$sdir/$ld/exercises.$ext" ]; then
            labs="$labs ${ld%%_*}:$ld/exercises.$ext"
            echo "used: $ld/exercises.$ext" >>"$out/sources.txt"
        fi
    done
done
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

# the node: the setup line first, then the tools these labs need; what the
# node lacks fails the task (exit 3), never the student
node=$(hostname 2>/dev/null) || node="this machine"
nwhy=
nlog=$(mktemp "${TMPDIR:-/tmp}/grade-setup.XXXXXX") || exit 2
if [ -n "${GRADE_SETUP:-}" ]; then
    eval "$GRADE_SETUP" >"$nlog" 2>&1
    nst=$?
    [ $nst -ne 0 ] && nwhy="the setup line failed on node $node (exit $nst): GRADE_SETUP='$GRADE_SETUP'"
fi
if [ -z "$nwhy" ]; then
    gpulab=0 # a GPU lab: its exercise file is CUDA (.cuh)
    case $labs in *.cuh*) gpulab=1 ;; esac
    # (the compilers make will call: CC and NVCC as make reads them, first word)
    need="make $(echo "${CC:-gcc}" | awk '{ print $1 }')"
    [ $gpulab -eq 1 ] && need="$need $(echo "${NVCC:-nvcc}" | awk '{ print $1 }')"
    for tool in $need; do
        command -v "$tool" >/dev/null 2>&1 || nwhy="$nwhy, $tool"
    done
    if [ $gpulab -eq 1 ] && [ -n "${SLURM_JOB_ID:-}" ] && ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        nwhy="$nwhy, a GPU (nvidia-smi -L lists none: ask sbatch for one, --gres=gpu:1)"
    fi
    if [ -n "$nwhy" ]; then
        echo "PATH=$PATH" >>"$nlog"
        nwhy="node $node lacks ${nwhy#, } (GRADE_SETUP='${GRADE_SETUP:-}')"
    fi
fi
if [ -n "$nwhy" ]; then
    tail -n 6 "$nlog" >"$nlog.tail"
    for lf in $labs; do
        fail "${lf%%:*}" "not graded: $nwhy; the node's fault, not the student's file" "$nlog.tail" ""
    done
    rm -f "$nlog" "$nlog.tail"
    echo "grade: student ${GRADE_K:-1} of ${GRADE_N:-1}, $who: not graded: $nwhy" | cut -c 1-100 >&2
    exit 3
fi
rm -f "$nlog"

# the copy of the workbook
copy=$(mktemp -d "${TMPDIR:-/tmp}/grade-$who.XXXXXX") || exit 2
[ "${GRADE_KEEP:-}" = 1 ] || trap 'rm -rf "$copy"' EXIT
trap 'exit 2' INT TERM
if [ -n "$base" ]; then
    cp -Rp "$base/." "$copy/" || exit 2
else
    rmdir "$copy" && sh "$top/tools/handout.sh" "$copy" >/dev/null || exit 2
fi

# build: each lab with the student's file (newer than every object: only what includes it recompiles)
built=
for lf in $labs; do
    lab=${lf%%:*}; f=${lf#*:}
    cp "$sdir/$f" "$copy/$f" && touch "$copy/$f"
    limited "$BT" "$copy/build-$lab.log" "$copy/build-$lab.err" env LC_ALL=C make -C "$copy" -j"${GRADE_MAKE_JOBS:-2}" \
        --no-print-directory "$lab"
    if [ $st -eq 124 ]; then
        fail "$lab" "the build ran past $BT s (killed)" "" "(build hang)"
        continue
    fi
    if [ $st -ne 0 ]; then
        # the compiler's first error lines, with the copy's path taken out
        grep -i 'error' "$copy/build-$lab.err" "$copy/build-$lab.log" 2>/dev/null | sed "s|^[^:]*:||; s|$copy/||g" |
            grep -v '^make' | head -n 6 >"$copy/why"
        [ -s "$copy/why" ] || tail -n 6 "$copy/build-$lab.err" | sed "s|$copy/||g" >"$copy/why"
        fail "$lab" "does not compile ($f)" "$copy/why" "(compile)"
        continue
    fi
    built="$built $lab"
done

# a GPU of our own for the runs (GRADE_LOCKS: one student per GPU at a time)
gpu=
if [ -n "$built" ] && [ -n "${GRADE_LOCKS:-}" ] && [ "$built" != " lab01" ]; then
    while [ -z "$gpu" ]; do
        for g in ${GRADE_GPUS:-0}; do
            if mkdir "$GRADE_LOCKS/gpu$g" 2>/dev/null; then gpu=$g; break; fi
        done
        [ -n "$gpu" ] || sleep 1
    done
    trap 'rmdir "$GRADE_LOCKS/gpu$gpu" 2>/dev/null; [ "${GRADE_KEEP:-}" = 1 ] || rm -rf "$copy"' EXIT
    CUDA_VISIBLE_DEVICES=$gpu
    export CUDA_VISIBLE_DEVICES
fi

nran=0
for lab in $built; do
    ( cd "$copy" && limited "$T" "$copy/$lab.csv" "$copy/$lab.err" "./$lab" --exercises --csv ${GRADE_RUN_ARGS:-}; exit $st )
    st=$?
    sed "s|$copy/||g" "$copy/$lab.err" | head -n 8 >"$copy/why"
    if [ $st -eq 124 ]; then
        fail "$lab" "ran past $T s (killed): a kernel or loop that never ends?" "$copy/why" "(hang)"
    elif [ $st -gt 128 ]; then
        sig=$(kill -l $((st - 128)) 2>/dev/null || echo $((st - 128)))
        fail "$lab" "crashed: killed by signal $sig (exit $st)" "$copy/why" "(SIG$sig)"
    elif [ $st -eq 3 ]; then
        fail "$lab" "a CUDA error or no usable CUDA device (exit 3): $(head -c 120 "$copy/why" | head -n 1)" \
            "$copy/why" "(CUDA)"
    elif [ $st -gt 1 ]; then
        fail "$lab" "exit $st: $(head -n 1 "$copy/why")" "$copy/why" "(exit $st)"
    elif ! head -n 1 "$copy/$lab.csv" | grep -q '^lab,device,kernel,'; then
        fail "$lab" "printed no CSV (exit $st)" "$copy/why" "(no CSV)"
    else
        cp "$copy/$lab.csv" "$out/$lab.csv"
        nran=$((nran + 1))
    fi
done

nl=$(echo $labs | wc -w)
line="grade: student ${GRADE_K:-1} of ${GRADE_N:-1}, $who${gpu:+ (GPU $gpu)}: $nran of $nl labs ran"
[ -n "$FAILED" ] && line="$line; 0 for${FAILED#,}"
line="$line; $(( $(now) - t0 )) s"
[ ${#line} -gt 100 ] && line="$(printf '%.96s' "$line") ..."
echo "$line" >&2
exit 0
