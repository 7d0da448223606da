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
# Each lab runs as ./labNN --exercises --csv --seed S -n N, S and N (lab06:
# NXxNY) chosen at run time from /dev/urandom, N near the lab's exercise size.
# Writes OUT_DIR/labNN.run for each lab run (its seed, size, the fingerprint:
# the cksum of the student's file as built, the command that repeats the run,
# the tripwire's words), OUT_DIR/labNN.csv for each lab that ran (exit 0 or
# 1) with OUT_DIR/labNN.check, the checker's verdict on each of its rows
# (tools/checker/: tools/grade takes those, not the lab's own PASS),
# OUT_DIR/labNN.fail for each that did not (line 1
# `labNN: what happened`, then the compiler's first errors or the program's
# last words: tools/grade scores it 0 with that reason), OUT_DIR/sources.txt
# (the files used and the files ignored), and prints one progress line.
#
# Environment: GRADE_TIMEOUT (seconds a lab may run, default 60),
# GRADE_BUILD_TIMEOUT (seconds a lab may take to build, default 600),
# GRADE_LOCKS (a folder of GPU locks: the run waits for a free GPU and sets
# CUDA_VISIBLE_DEVICES; GRADE_GPUS lists them, default 0), GRADE_K and
# GRADE_N (this is student K of N, for the progress line), GRADE_KEEP=1
# (keep the copy), GRADE_MAKE_JOBS (make -j inside the copy; default the
# CPUs of the Slurm allocation, SLURM_CPUS_PER_TASK, else 2),
# GRADE_RUN_ARGS (more arguments for every run, e.g. -r 3 in tests; never -n
# or --seed), GRADE_LENGTH (the length the runs' n is chosen near, default
# 16777213, the labs' exercise length) and GRADE_SHAPE (lab06's, default
# 3000x5000): the tests run small sizes with them. GRADE_SETUP: a line of
# sh run first, e.g. `module load cuda`.
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
T=${GRADE_TIMEOUT:-60}
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
rm -f "$out"/*.csv "$out"/*.fail "$out"/*.run "$out"/*.check "$out/sources.txt"

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

# ---- the runs, each judged by the checker (docs/instructor.md) ----------------
# Each run's seed, and its size near the lab's own exercise size, are chosen
# here from /dev/urandom and recorded in OUT_DIR/labNN.run with the command
# that repeats the run; the verdict on each row comes from the checker
# (tools/checker/, built from the workbook's own code before any of the
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
# on stdout: "none" when nothing is new, "not-checked" when there is no stub
# build to compare with (no BASE).
# A flag for the instructor to read, never a lost point.
WATCH='^(_?_?exit|_Exit|quick_exit|abort|atexit|at_quick_exit|on_exit|__cxa_atexit|__cxa_thread_atexit|write|writev|pwrite|pwrite64|printf|puts|putchar|fputs|fputc|putc|fwrite|fprintf|vprintf|vfprintf|dprintf|vdprintf|__printf_chk|__fprintf_chk|__vfprintf_chk|__dprintf_chk|fflush|stdout|stderr|fopen|fopen64|freopen|fdopen|open|open64|openat|creat|read|pread|readlink|getenv|secure_getenv|setenv|putenv|system|popen|fork|vfork|execv|execve|execvp|execl|execlp|dup|dup2|syscall|dlopen|dlsym|signal|sigaction|raise|kill|ptrace|_ZSt4cout|_ZSt4cerr|_ZNSo.*|_ZSt16__ostream_insert.*)$'
ia() { size -A "$1" 2>/dev/null | awk '$1 == ".init_array" || $1 == ".ctors" { s += $2 } END { print s + 0 }'; }
cnt() { LC_ALL=C grep -a -o "$1" "$2" | wc -l; }
tripwire() {
    [ -n "$base" ] && [ -d "$base/build/$2" ] || { echo "not-checked"; return; }
    tw=
    for o in "$copy/build/$2"/*.o; do
        sb=$base/build/$2/${o##*/}
        [ -f "$o" ] && [ -f "$sb" ] && ! cmp -s "$o" "$sb" || continue
        nm -u "$sb" 2>/dev/null | awk '{ print $NF }' | LC_ALL=C sort -u >"$copy/nm.stub"
        tw="$tw $(nm -u "$o" 2>/dev/null | awk '{ print $NF }' | LC_ALL=C sort -u |
            LC_ALL=C comm -13 "$copy/nm.stub" - | grep -E "$WATCH" | tr '\n' ' ')"
        [ "$(ia "$o")" -gt "$(ia "$sb")" ] && tw="$tw constructor"
        [ "$(cnt /proc/ "$o")" -gt "$(cnt /proc/ "$sb")" ] && tw="$tw /proc"
        [ "$(cnt vprintf "$o")" -gt "$(cnt vprintf "$sb")" ] && tw="$tw device-printf"
    done
    tw=$(echo $tw | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
    echo "${tw:-none}"
}

# the checker, built before any run; its cksum is checked before each use
chk=$copy/build/checker/checker
chksum=
if [ -n "$built" ]; then
    limited "$BT" "$copy/build-checker.log" "$copy/build-checker.err" env LC_ALL=C make -C "$copy" \
        --no-print-directory checker
    [ $st -eq 0 ] && [ -x "$chk" ] && chksum=$(cksum <"$chk")
fi

nran=0
for lab in $built; do
    f=$(echo $labs | tr ' ' '\n' | sed -n "s|^$lab:||p")
    seed=$(urandom 8)
    case $lab in
        lab06) size=$(near_shape "${GRADE_SHAPE:-3000x5000}"); chkarg="--matrix $size" ;;
        *) size=$(near_length "${GRADE_LENGTH:-16777213}"); chkarg="-n $size" ;;
    esac
    fp=$(cksum <"$copy/$f" | awk '{ printf "%08x", $1 }')
    trip=$(tripwire "$lab" "${f%%/*}")
    names=
    if [ -n "$base" ] && [ -x "$base/$lab" ] && "$base/$lab" --list >"$copy/$lab.list" 2>/dev/null; then
        # the lab's kernels and exercises, from the workbook's own build: the first word of each entry
        awk '/^[^ ]/ && !/^(exercises in|matrix mode)/ { print $1 }' "$copy/$lab.list" >"$copy/$lab.names"
        [ -s "$copy/$lab.names" ] && names=$copy/$lab.names
    fi
    {
        echo "seed $seed"
        echo "size $size"
        echo "fingerprint $fp"
        echo "file $f"
        echo "command ./$lab --exercises --csv --seed $seed -n $size${GRADE_RUN_ARGS:+ $GRADE_RUN_ARGS}"
        echo "tripwire $trip"
    } >"$out/$lab.run"
    r0=$(now)
    ( cd "$copy" && limited "$T" "$copy/$lab.csv" "$copy/$lab.err" "./$lab" --exercises --csv --seed "$seed" \
        -n "$size" ${GRADE_RUN_ARGS:-}; exit $st )
    st=$?
    echo "seconds $(( $(now) - r0 ))" >>"$out/$lab.run" # the run's wall time (the GPU held)
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
    elif [ -z "$chksum" ]; then
        tail -n 6 "$copy/build-checker.err" 2>/dev/null | sed "s|$copy/||g" >"$copy/why"
        fail "$lab" "the grader's checker did not build (the workbook's fault, not the student's)" "$copy/why" \
            "(checker)"
    elif [ "$(cksum <"$chk")" != "$chksum" ]; then
        fail "$lab" "the run changed the grader's files (build/checker/checker): not graded" "" "(tampered)"
    else
        cp "$copy/$lab.csv" "$out/$lab.csv"
        # shellcheck disable=SC2086 # chkarg is an option and its value
        "$chk" --lab "$lab" --seed "$seed" $chkarg ${names:+--names "$names"} "$out/$lab.csv" \
            >"$out/$lab.check" 2>"$copy/$lab.chk"
        [ $? -le 1 ] || { echo "grade_task: the checker failed on $lab: $(head -c 200 "$copy/$lab.chk")" >&2; : >"$out/$lab.check"; }
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
