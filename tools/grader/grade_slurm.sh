#!/bin/sh
# tools/grader/grade_slurm.sh - a class graded from sources on a Slurm cluster
# (make grade SOURCES=dir SLURM=1): the job scripts, one student's task, and
# the collect step that grades the runs once every task ended (POSIX sh).
#
#   sh tools/grader/grade_slurm.sh write SOURCES RUNS STUDENTS   (tools/grader/grade_sources.sh)
#   sh tools/grader/grade_slurm.sh build SLURMDIR                (build.sbatch)
#   sh tools/grader/grade_slurm.sh task SLURMDIR [K]             (task.sh; K: SLURM_ARRAY_TASK_ID)
#   sh tools/grader/grade_slurm.sh collect SLURMDIR [JOBID]      (collect.sbatch)
#   sh tools/grader/grade_slurm.sh again SLURMDIR K...           (again.sh: students K... again)
#   sh tools/grader/grade_slurm.sh busy RUNS                     (tools/grader/grade_sources.sh, first)
#
# write: SLURMDIR is RUNS with .runs replaced by .slurm (dir.runs ->
# dir.slurm): class.sh (the class and its settings), students (one name a
# line), workbook/ (the class's handout copy: tools/handout.sh, no
# solutions), build.sbatch (builds it once), task.sh, array.sbatch (one
# task per student), collect.sbatch (asking for the tasks' --time),
# again.sh, and logs/ (build-JOBID.log, task-JOBID-K.log,
# collect-JOBID.log). Old logs, states and reports are removed. Refused
# (exit 2, nothing touched, the scancel line printed) while Slurm lists a job
# of the class's scripts (busy: squeue's command paths). Each writing has
# its id (class.sh's GRADE_CLASS_ID, passed by its scripts as WB_CLASS_ID):
# a job of an earlier writing grades nothing (exit 2). It prints
# the three sbatch commands: the build, then the array (afterany: a build
# that failed or never ran leaves every task a node fault, not a wait), then
# collect. Settings: GRADE_SBATCH_OPTS
# (sbatch options written into the job scripts, e.g. "--partition=gpu
# --account=cs101 --cpus-per-task=4 --gres=gpu:1 --time=00:30:00"; the
# partition, account, qos and reservation go to collect.sbatch too),
# GRADE_SETUP (a line of sh the build and every task run first, e.g. "module
# load cuda"), GRADE_CUDA_ARCH (the build's CUDA_ARCH: a partition's GPU
# model; default the build node's GPU, which a task on an older GPU
# reports as a node fault), and what tools/grader/grade_task.sh and tools/grader/grade
# read (GRADE_TIMEOUT, GRADE_BUILD_TIMEOUT, GRADE_LENGTH, GRADE_CONF, ...):
# every GRADE_ setting exported when the scripts are written is the jobs'
# (class.sh), with the build's CC, CFLAGS, NVCC, NVFLAGS and PATH as they
# are then, and only those: the GRADE_ and build settings of the shell
# that submits them are dropped.
#
# build: the workbook/ built once on a node of the tasks' partition (make
# student-objects checker, the class's labs, the job's CPUs as make's jobs),
# after GRADE_SETUP; state/build.start, state/build.end (its status) and
# state/build.ok (the checker's cksum) say how it went.
#
# task: student K (the K-th line of students) by tools/grader/grade_task.sh into
# RUNS/NAME/: the node checked first (a node at fault builds and calibrates
# nothing: a node fault, never the student's; so is a workbook the build
# job did not build); then this GPU model calibrated where no task has yet
# (GRADE_CALIBRATE_ONCE: tools/grader/calibrate.sh --once, into RUNS/calibration/,
# with the task's CPUs); then the student's labs built against workbook/
# and run, each in its sandbox (each GPU run limited by the class's
# calibration of its model where there is one, else GRADE_TIMEOUT). In a
# temp folder of the task's own, removed however the task ends. Told to
# stop (scancel, the time limit): state/K.end says so, nothing more is
# judged. state/K.start and state/K.end say when it began (job, node) and
# how it ended. Exit 3 where a lab was the node's fault.
#
# again: students K... graded again (the workbook must be built; none whose
# task Slurm still lists, queued or running): their
# runs and states are removed (no stale run is graded), sbatch --array=K,...
# array.sbatch, the new job kept in state/K.queued (collect names it while
# the task waits), then the collect line to paste.
#
# collect: every student of the class gets a row. A lab of a student's
# files with no result in RUNS (the task was cancelled, timed out, was cut
# short mid-build, has not started or ended yet, or never started) gets a
# record (RUNS/NAME/labNN.fail, line 1 `labNN: not graded: its task ...`):
# no score, a flag (tools/grader/grade.d/class.awk), never a 0; how far the task
# got, what Slurm says of it (sacct, else scontrol, while it still knows
# the job) and the last lines of its log. Records a collect wrote are
# written again by the next (a later collect gives the same result). Then
# tools/grader/grade writes SLURMDIR/report.txt and SLURMDIR/gradebook.csv,
# outside the graded folder. One collect at a time (SLURMDIR/collect.lock:
# the next waits). Its last lines count the labs not graded by reason and
# give the again.sh line that grades them.
# Exit status: write and task: 0, 2 bad usage or a job of an earlier
# writing (task: 3 a lab was the node's fault); busy: 0, 2 the class has
# jobs queued or running; collect: 0 every point earned and nothing
# flagged, 1 graded: a point lost or something flagged (labs not graded
# included), 2 the grader could not grade, 3 nothing graded (no lab of the
# class has a result).
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$(dirname "$here")")
cmd=${1:-}
[ $# -gt 0 ] && shift

# q VALUE: VALUE quoted for sh ('...')
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# students N: "1 student", "N students"
students() { if [ "$1" -eq 1 ]; then echo "1 student"; else echo "$1 students"; fi; }

# wrap100: each line of stdin wrapped at 100 columns between words (blanks kept)
wrap100() {
    awk '{ n = split($0, w, /[ ]/); line = w[1]
           for (i = 2; i <= n; i++) {
               if (length(line) + 1 + length(w[i]) > 100) { print line; line = "    " w[i] } else line = line " " w[i]
           }
           print line }'
}

# labs_of DIR...: the labs (lab01 ...) one of DIR... has an exercise file for, in the
# workbook's layout (tools/grader/grade_task.sh --labs: tools/labs.conf's labs)
labs_of() { sh "$here/grade_task.sh" --labs "$@" | awk '{ printf "%s%s", s, $1; s = " " }'; }

# uncollect: the records an earlier collect wrote (listed in SLURMDIR/collected)
# go, unless a task has replaced them since; so do the folders it made for them
uncollect() {
    [ -f "$sl/collected" ] || return 0
    while read -r sum size f; do
        [ -f "$f" ] && [ "$(cksum <"$f")" = "$sum $size" ] && rm -f "$f" && rmdir "$(dirname "$f")" 2>/dev/null
    done <"$sl/collected"
    rm -f "$sl/collected"
}

# slurmdir RUNS: the class's SLURMDIR (dir.runs -> dir.slurm)
slurmdir() { case $1 in *.runs) echo "${1%.runs}.slurm" ;; *) echo "$1.slurm" ;; esac; }

# class_jobs SLURMDIR [-r]: the jobs of the class's scripts Slurm still lists (queued,
# running, completing), "JOBID STATE" a line (-r: an array's tasks one a line, JOBID_K);
# nothing where there is no squeue
class_jobs() {
    command -v squeue >/dev/null 2>&1 || return 0
    cp_=$(cd "$1" 2>/dev/null && pwd -P)
    tl=; command -v timeout >/dev/null 2>&1 && tl="timeout 20"
    $tl squeue -h ${2:-} -o '%i|%T|%o' 2>/dev/null | while IFS='|' read -r id st c; do
        # (the script's path, then its arguments: collect.sbatch JOBID)
        case $c in
            "$1"/build.sbatch* | "$1"/array.sbatch* | "$1"/collect.sbatch* | "$cp_"/build.sbatch* | \
                "$cp_"/array.sbatch* | "$cp_"/collect.sbatch*) echo "$id $st" ;;
        esac
    done
}

# busy RUNS: exit 1 (and say so, with the scancel line) where the class of RUNS still
# has jobs queued or running: writing it again would change what they grade
busy() {
    bsl=$(slurmdir "$1")
    [ -f "$bsl/class.sh" ] || return 0
    jobs=$(class_jobs "$bsl" | awk '{ sub(/_.*/, "", $1); if (!seen[$1]++) printf "%s%s", s, $1; s = " " }')
    [ -z "$jobs" ] && return 0
    echo "grade: SLURM=1: the class in $bsl still has jobs queued or running ($jobs): writing it" \
        "again now would change what they grade. Cancel them, then write it again:" | wrap100 >&2
    echo "  scancel $jobs" >&2
    return 1
}

write() {
    src=$1; runs=$2; students=$3
    sl=$(slurmdir "$runs")
    busy "$runs" || exit 2
    case $sl in *[\'\"%\\]*)
        echo "grade: SLURM=1: the logs' folder $sl has a quote, % or \\ (sbatch reads them differently): give GRADE_RUNS another" >&2
        exit 2 ;;
    esac
    if [ -n "${GRADE_CONF:-}" ] && [ ! -r "$GRADE_CONF" ]; then
        echo "grade: GRADE_CONF=$GRADE_CONF cannot be read; give the rules file the collect job should use" >&2
        exit 2
    fi
    N=$(wc -l <"$students" | tr -d ' ')
    T=${GRADE_TIMEOUT:-60}

    # GRADE_SBATCH_OPTS: one #SBATCH line per option (a word after an option
    # without = is its value: -p gpu)
    set -f
    lines=; cur=
    for w in ${GRADE_SBATCH_OPTS:-}; do
        case $w in
            -*) [ -n "$cur" ] && lines="$lines$cur
"
                cur=$w ;;
            *) if [ -z "$cur" ]; then
                   echo "grade: GRADE_SBATCH_OPTS: '$w' is not an sbatch option (e.g. --partition=gpu --account=cs101 --cpus-per-task=4 --time=00:30:00)" >&2
                   exit 2
               fi
               cur="$cur $w" ;;
        esac
    done
    [ -n "$cur" ] && lines="$lines$cur
"
    set +f
    own_time=0; own_gpu=0; task_opts=; collect_opts=
    while IFS= read -r l; do
        [ -n "$l" ] || continue
        case $l in --*) o=${l%%[= ]*} ;; *) o=$(printf '%.2s' "$l") ;; esac
        case $o in
            -a | --array | -o | --output | -e | --error | -d | --dependency | --parsable | -J | --job-name | -W | --wait)
                echo "grade: GRADE_SBATCH_OPTS: $o is the job scripts' own (one task per student, logs in $sl/logs); leave it out" >&2
                exit 2 ;;
            -t | --time) own_time=1 ;;
            -G | --gres | --gpus | --gpus-per-task | --gpus-per-node | --gpus-per-socket) own_gpu=1 ;;
        esac
        task_opts="$task_opts#SBATCH $l
"
        case $o in -p | --partition | -A | --account | -q | --qos | --reservation)
            collect_opts="$collect_opts#SBATCH $l
" ;;
        esac
    done <<EOF
$lines
EOF
    # a GPU lab in the class (tools/labs.conf): one GPU a task, unless the options say
    LABS_CONF=$top/tools/labs.conf
    . "$top/tools/labs.sh"
    gpu=0
    for l in $(labs_of "$src"/*/); do lab_has "$l" device gpu && gpu=1; done
    [ $gpu -eq 1 ] && [ $own_gpu -eq 0 ] && task_opts="#SBATCH --gres=gpu:1
$task_opts"
    [ $own_time -eq 0 ] && task_opts="#SBATCH --time=00:30:00
$task_opts"
    # the collect job asks for the tasks' time: a partition that takes them takes it
    ctime=$(printf '%s' "$task_opts" | sed -n 's/^#SBATCH \(--time\|-t\)[= ]*\(.*\)$/\2/p' | tail -n 1)

    # a new class: the old logs, states, reports and workbook go; the class's handout copy
    mkdir -p "$sl" || exit 2
    uncollect
    rm -rf "$sl/logs" "$sl/state" "$sl/workbook"
    rm -f "$sl/report.txt" "$sl/gradebook.csv" "$sl/jobid"
    mkdir -p "$sl/logs" "$sl/state" || exit 2
    if ! sh "$top/tools/handout.sh" "$sl/workbook" >/dev/null; then
        echo "grade: SLURM=1: the class's workbook (a handout copy) cannot be written in $sl/workbook" >&2
        exit 2
    fi
    cp "$students" "$sl/students" || exit 2
    cid=$(date -u +%Y-%m-%dT%H:%M:%SZ)-$$
    {
        echo "# the class the jobs of this folder grade (make grade SOURCES=... SLURM=1, $(date -u +%Y-%m-%dT%H:%M:%SZ))"
        echo "GRADE_TOP=$(q "$top")"
        echo "GRADE_SRC=$(q "$src")"
        echo "GRADE_RUNS=$(q "$runs")"
        echo "GRADE_N=$N"
        echo "GRADE_TIMEOUT=$(q "$T")"
        # (this writing's own: a job submitted for an earlier writing of this folder grades nothing)
        echo "GRADE_CLASS_ID=$(q "$cid")"
        vars="GRADE_TOP GRADE_SRC GRADE_RUNS GRADE_N GRADE_TIMEOUT GRADE_CLASS_ID"
        # the build settings make reads, as they are now (the jobs', never the submitting shell's)
        for v in CC CFLAGS NVCC NVFLAGS PATH; do
            eval "isset=\${$v+x} val=\${$v-}"
            [ -n "$isset" ] || continue
            echo "$v=$(q "$val")"
            vars="$vars $v"
        done
        # every other GRADE_ setting in the environment but those of this machine's run
        for v in $(env | sed -n 's/^\(GRADE_[A-Z0-9_]*\)=.*/\1/p' | LC_ALL=C sort -u); do
            case " $vars GRADE_SBATCH_OPTS GRADE_JOBS GRADE_GPUS GRADE_LOCKS GRADE_WORK GRADE_K GRADE_SETUP_STATUS \
                GRADE_SETUP_LOG GRADE_SETUP_CMD GRADE_CHECKER_CKSUM GRADE_BASE_FAULT GRADE_SANDBOX_WORKBOOK \
                GRADE_NODE_GPUS GRADE_NODE_CC GRADE_CALIBRATE_ONCE GRADE_CALIBRATE_FAULT " in
                *" $v "*) continue ;;
            esac
            eval "val=\${$v:-}"
            [ -n "$val" ] || continue
            [ $v = GRADE_CONF ] && val=$(cd "$(dirname "$val")" && pwd)/$(basename "$val")
            echo "$v=$(q "$val")"
            vars="$vars $v"
        done
        echo "export $vars"
    } >"$sl/class.sh"
    cat >"$sl/task.sh" <<EOF
#!/bin/sh
# one student of the class: the K-th line of students (task K of $N).
# sbatch array.sbatch runs it; without Slurm: SLURM_ARRAY_TASK_ID=K sh task.sh
exec env WB_CLASS_ID=$(q "$cid") sh $(q "$here/grade_slurm.sh") task $(q "$sl") "\${SLURM_ARRAY_TASK_ID:-}"
EOF
    {
        echo "#!/bin/sh"
        echo "#SBATCH --job-name=grade-build"
        echo "#SBATCH --output=$(q "$sl/logs/build-%j.log")"
        printf '%s' "$task_opts"
        echo "# the class's workbook (workbook/, no solutions), built once for every task"
        echo "exec env WB_CLASS_ID=$(q "$cid") sh $(q "$here/grade_slurm.sh") build $(q "$sl")"
    } >"$sl/build.sbatch"
    {
        echo "#!/bin/sh"
        echo "#SBATCH --job-name=grade-sources"
        echo "#SBATCH --array=1-$N"
        echo "#SBATCH --output=$(q "$sl/logs/task-%A-%a.log")"
        printf '%s' "$task_opts"
        echo "# one task per student: builds and runs their labs (as task.sh; this writing's class only)"
        echo "exec env WB_CLASS_ID=$(q "$cid") sh $(q "$here/grade_slurm.sh") task $(q "$sl") \"\${SLURM_ARRAY_TASK_ID:-}\""
    } >"$sl/array.sbatch"
    {
        echo "#!/bin/sh"
        echo "#SBATCH --job-name=grade-collect"
        echo "#SBATCH --time=$ctime"
        echo "#SBATCH --output=$(q "$sl/logs/collect-%j.log")"
        printf '%s' "$collect_opts"
        echo "# grades the runs once every task ended (submitted with"
        echo "# --dependency=afterany:JOBID, JOBID the array's); by hand: sh collect.sbatch"
        echo "exec env WB_CLASS_ID=$(q "$cid") sh $(q "$here/grade_slurm.sh") collect $(q "$sl") \"\$@\""
    } >"$sl/collect.sbatch"
    cat >"$sl/again.sh" <<EOF
#!/bin/sh
# students K... of the class graded again (sh again.sh K...: K their lines in
# students): their runs go, their tasks are submitted, collect says they wait
exec env WB_CLASS_ID=$(q "$cid") sh $(q "$here/grade_slurm.sh") again $(q "$sl") "\$@"
EOF

    res=$(grep '^#SBATCH' "$sl/array.sbatch" | sed -n '4,$s/^#SBATCH //p' | tr '\n' ' ')
    # (the lines wrapped at 100 columns, all but the commands to paste)
    {
        echo "grade: $(students "$N"); the Slurm jobs are in $sl (then its report.txt and gradebook.csv)"
        echo "grade: the build and each task ask for ${res}(GRADE_SBATCH_OPTS)"
        case " $res" in *" -c"* | *" --cpus-per-task"* | *" --cpus-per-gpu"*) ;; *)
            echo "grade: (Slurm's default CPUs, often one: --cpus-per-task=4 in GRADE_SBATCH_OPTS builds faster)" ;;
        esac
        [ -n "${GRADE_SETUP:-}" ] && echo "grade: the build and each task run first: $GRADE_SETUP (GRADE_SETUP)"
        echo "grade: submit all three: the workbook's build, then the tasks (each student's files" \
            "compiled alone against it), then collect, which grades the runs in $runs:"
    } | wrap100
    echo "  bid=\$(sbatch --parsable $(q "$sl/build.sbatch")) &&"
    echo "    jid=\$(sbatch --parsable -d afterany:\${bid%%;*} $(q "$sl/array.sbatch")) &&"
    echo "    sbatch -d afterany:\${jid%%;*} $(q "$sl/collect.sbatch") \${jid%%;*}"
    echo "grade: a task that waits: squeue -j \$jid says why. To grade again (after a task ran again):"
    echo "  sh $(q "$sl/collect.sbatch")"
    echo "grade: student K again (its task cancelled, its node at fault): sh $(q "$sl/again.sh") K"
    exit 0
}

# the class a SLURMDIR holds (its class.sh); K and NAME of a task
load() {
    sl=$1
    if [ -z "$sl" ] || [ ! -f "$sl/class.sh" ] || [ ! -f "$sl/students" ]; then
        echo "grade_slurm: '$sl' holds no class.sh and students (make grade SOURCES=dir SLURM=1 writes them)" >&2
        exit 2
    fi
    sl=$(cd "$sl" && pwd)
    # the class's settings alone: none of the shell that submitted the jobs (its GRADE_
    # settings, its build settings: class.sh has those of the writing)
    jcid=${WB_CLASS_ID:-}
    unset WB_CLASS_ID
    for v in $(env | sed -n 's/^\(GRADE_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
    unset CC CFLAGS NVCC NVFLAGS CUDA_ARCH DLCM NOCDP SOLUTIONS BUILD BIN MAKEFLAGS MFLAGS MAKELEVEL
    . "$sl/class.sh"
    # a job of an earlier writing of this folder (its scripts were written again since)
    if [ -n "$jcid" ] && [ "$jcid" != "${GRADE_CLASS_ID:-}" ]; then
        echo "grade_slurm: this job${SLURM_JOB_ID:+ ($SLURM_JOB_ID)} was submitted for the class written in $sl" \
            "at ${jcid%-*}; it was written again since (${GRADE_CLASS_ID%-*}): it grades nothing" | wrap100 >&2
        exit 2
    fi
}

# build_fault: empty when the build job built the workbook (the checker's
# cksum in GRADE_CHECKER_CKSUM), else why the tasks cannot use it
build_fault() {
    if [ -s "$sl/state/build.ok" ]; then
        GRADE_CHECKER_CKSUM=$(cat "$sl/state/build.ok"); export GRADE_CHECKER_CKSUM
        return
    fi
    bjob=$(sed -n 's/^job=\([^ ]*\) .*/\1/p' "$sl/state/build.start" 2>/dev/null)
    w="the class's build job${bjob:+ ($bjob)}"
    if [ -f "$sl/state/build.end" ]; then w="$w failed ($(head -n 1 "$sl/state/build.end"))"
    elif [ -f "$sl/state/build.start" ]; then w="$w was cut short"
    else w="$w never ran"; fi
    # (the class's own setup line broke it: building again cannot help, writing it again can)
    if grep -q '^exit 3: the setup line failed' "$sl/state/build.end" 2>/dev/null; then
        echo "$w: the workbook is not built (fix GRADE_SETUP, then write the class again: make grade SOURCES=... SLURM=1)"
    else
        echo "$w: the workbook is not built (${bjob:+logs/build-$bjob.log; }sbatch --wait build.sbatch, then again.sh)"
    fi
}

build() {
    sst=${GRADE_SETUP_STATUS:-}
    load "$1"
    if [ -z "$sst" ]; then
        rm -f "$sl/state/build.ok" "$sl/state/build.end"
        echo "job=${SLURM_JOB_ID:-} node=$(hostname 2>/dev/null) start=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
            >"$sl/state/build.start"
        # (the class's settings, not the submitting shell's: the objects' are the tasks')
        unset CUDA_ARCH DLCM NOCDP SOLUTIONS BUILD BIN
        # the setup line first, as each task runs it (tools/grader/grade_setup.sh), then this again
        GRADE_SETUP_LOG=$sl/state/build.setup
        : >"$GRADE_SETUP_LOG"
        export GRADE_SETUP_LOG
        exec sh "$here/grade_setup.sh" sh "$here/grade_slurm.sh" build "$sl"
    fi
    node=$(hostname 2>/dev/null)
    if [ "$sst" -ne 0 ]; then
        echo "exit 3: the setup line failed on node $node (exit $sst): GRADE_SETUP='$GRADE_SETUP'" >"$sl/state/build.end"
        tail -n 6 "$sl/state/build.setup" | tee -a "$sl/state/build.end" >&2
        echo "grade: build: $(head -n 1 "$sl/state/build.end")" >&2
        exit 3
    fi
    labs=$(labs_of "$GRADE_SRC"/*/)
    cpus=$(sh "$here/grade_task.sh" --cpus)
    echo "grade: the class's workbook, $sl/workbook: make student-objects checker (${labs:-no lab})" \
        "on $node, $cpus jobs${GRADE_CUDA_ARCH:+, CUDA_ARCH=$GRADE_CUDA_ARCH}" >&2
    make -C "$sl/workbook" -k -j"$cpus" --no-print-directory student-objects checker STUDENT_LABS="$labs" \
        ${GRADE_CUDA_ARCH:+CUDA_ARCH="$GRADE_CUDA_ARCH"}
    st=$?
    [ -x "$sl/workbook/build/checker/checker" ] && cksum <"$sl/workbook/build/checker/checker" >"$sl/state/build.ok"
    echo "exit $st" >"$sl/state/build.end"
    echo "grade: build: exit $st$([ -s "$sl/state/build.ok" ] || echo ', no checker: every task a node fault')" >&2
    exit $st
}

task() {
    load "$1"
    k=${2:-}
    case $k in '' | *[!0-9]* | 0) echo "grade_slurm: task '$k': give the student's number, 1 to $GRADE_N (SLURM_ARRAY_TASK_ID)" >&2; exit 2 ;; esac
    s=$(sed -n "${k}p" "$sl/students")
    [ -n "$s" ] || { echo "grade_slurm: no student $k (1 to $GRADE_N)" >&2; exit 2; }
    node=$(hostname 2>/dev/null)
    job=${SLURM_ARRAY_JOB_ID:-}
    mkdir -p "$sl/state"
    rm -f "$sl/state/$k.end" "$sl/state/$k.slurm" "$sl/state/$k.queued"
    echo "job=$job node=$node start=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$sl/state/$k.start"
    # (the class's first array: a job that grades one student again does not replace it)
    [ -n "$job" ] && [ ! -s "$sl/jobid" ] && echo "$job" >"$sl/jobid"
    cpus=$(sh "$here/grade_task.sh" --cpus)
    cpuw=CPUs; [ "$cpus" = 1 ] && cpuw=CPU
    echo "grade: task $k of $GRADE_N, $s, on $node${job:+ (job ${job}_$k)}, $cpus $cpuw" >&2
    # the task's own temp folder: the grader's records and the student's copy (open to the
    # sandbox's user); it goes when the task ends, however it is stopped
    pid=; tdir=
    trap 'stop SIGTERM 143' TERM
    trap 'stop SIGINT 130' INT
    tdir=$(mktemp -d "${TMPDIR:-/tmp}/grade-task.XXXXXX") && chmod 711 "$tdir" ||
        { echo "exit 2: no temp folder in ${TMPDIR:-/tmp} on $node" >"$sl/state/$k.end"; exit 2; }
    TMPDIR=$tdir
    export TMPDIR
    # the class's workbook, built once by the build job; then grade_task.sh checks the node
    # before anything is built or run, and the first task on each GPU model calibrates it
    # (tools/grader/calibrate.sh --once: this GPU's bars), with this task's CPUs
    GRADE_BASE_FAULT=$(build_fault)
    export GRADE_BASE_FAULT
    GRADE_CALIBRATE_ONCE=$sl/class.sh GRADE_K=$k sh "$GRADE_TOP/tools/grader/grade_task.sh" "$GRADE_SRC/$s" \
        "$GRADE_RUNS/$s" "$sl/workbook" &
    pid=$!
    wait "$pid"
    st=$?
    pid=
    # a lab the node could not grade (a GPU lab where CUDA can use no GPU): exit 3, a node fault
    [ $st -eq 0 ] && grep -qs '^lab[0-9]*: not graded: ' "$GRADE_RUNS/$s"/*.fail && st=3
    echo "exit $st" >"$sl/state/$k.end"
    rm -rf "$tdir"
    exit $st
}

# stop SIGNAL STATUS: the task was told to stop (scancel, the time limit): said in its
# state; grade_task.sh stops too (it judges nothing more), its temp folder goes
stop() {
    echo "stopped: $1" >"$sl/state/$k.end"
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null
        n=0
        while [ $n -lt 8 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.5; n=$((n + 1)); done
    fi
    [ -n "$tdir" ] && rm -rf "$tdir"
    exit "$2"
}

# slurm_state JOB K: what Slurm says of task K of array JOB (sacct, else
# scontrol while it still lists it), e.g. "CANCELLED by 0", "TIMEOUT"; the
# first final state found is kept in state/K.slurm (a later collect says the same)
slurm_state() {
    [ -s "$sl/state/$2.slurm" ] && { cat "$sl/state/$2.slurm"; return; }
    [ -n "$1" ] || return 0
    tl=
    command -v timeout >/dev/null 2>&1 && tl="timeout 20"
    ss=
    if command -v sacct >/dev/null 2>&1; then
        ss=$($tl sacct -n -X -P -j "$1_$2" -o State 2>/dev/null | head -n 1)
    fi
    if [ -z "$ss" ] && command -v scontrol >/dev/null 2>&1; then
        ss=$($tl scontrol -o show job "$1_$2" 2>/dev/null | head -n 1 |
            awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(JobState|Reason)=/) { split($i, kv, "="); v[kv[1]] = kv[2] }
                   if (v["JobState"] != "") printf "%s%s", v["JobState"], (v["Reason"] != "" && v["Reason"] != "None" ? " (" v["Reason"] ")" : "") }')
    fi
    case $ss in
        '') ;;
        PENDING* | RUNNING* | CONFIGURING* | COMPLETING* | SUSPENDED* | REQUEUED* | RESIZING*) echo "$ss" ;;
        *) echo "$ss" | tee "$sl/state/$2.slurm" ;;
    esac
}

# lock: one collect of the class at a time (the array's collect job, one by hand, one of
# again.sh's): the next waits for it (a lock whose collect ended without removing it goes)
lock() {
    lk=$sl/collect.lock
    n=0; miss=0
    until mkdir "$lk" 2>/dev/null; do
        lh=; lp=
        [ -f "$lk/owner" ] && read -r lh lp 2>/dev/null <"$lk/owner"
        if [ -n "$lp" ]; then miss=0; else miss=$((miss + 1)); fi
        # (its collect ended without removing it: on this host, not running; or never said whose)
        if { [ -n "$lp" ] && [ "$lh" = "$(hostname 2>/dev/null)" ] && [ ! -d "/proc/$lp" ] &&
            ! kill -0 "$lp" 2>/dev/null; } ||
            [ $miss -ge 30 ]; then
            rm -rf "$lk"; continue
        fi
        [ $n -eq 0 ] && echo "collect: another collect of this class runs${lp:+ ($lh, process $lp)}: waiting for it" >&2
        n=$((n + 1))
        [ $n -gt 600 ] && { echo "collect: $lk is still there after 10 minutes: remove it if no collect runs" >&2; exit 2; }
        sleep 1
    done
    echo "$(hostname 2>/dev/null) $$" >"$lk/owner"
    trap 'rm -rf "$lk"' EXIT
    trap 'exit 143' TERM
    trap 'exit 130' INT
}

# stopped_why SLURM_STATE: how Slurm stopped a task ("was cancelled", "timed out", else
# "was cut short")
stopped_why() {
    case $1 in CANCELLED*) echo "was cancelled" ;; TIMEOUT*) echo "timed out" ;; *) echo "was cut short" ;; esac
}

collect() {
    load "$1"
    jid=${2:-}
    [ -z "$jid" ] && jid=$(cat "$sl/jobid" 2>/dev/null)
    jid=${jid%%;*}
    mkdir -p "$sl/state" "$GRADE_RUNS" || exit 2
    lock
    [ -n "$jid" ] && echo "$jid" >"$sl/jobid"
    uncollect
    : >"$sl/collected.new"
    k=0
    while IFS= read -r s; do
        k=$((k + 1))
        out=$GRADE_RUNS/$s
        keys=$(labs_of "$GRADE_SRC/$s")
        [ -n "$keys" ] || keys=sources # no file: the record is sources.fail, its key ?
        miss=
        for f in $keys; do
            [ -f "$out/$f.csv" ] || [ -f "$out/$f.fail" ] || miss="$miss $f"
        done
        [ -n "$miss" ] || continue
        # how far the task got, and what Slurm says of it; the record's first words say why
        # the lab is not graded (the gradebook's flag: "not graded lab01 (task was cancelled:
        # grade it again)", tools/grader/grade.d/class.awk)
        tjob=$(sed -n 's/^job=\([^ ]*\) .*/\1/p' "$sl/state/$k.start" 2>/dev/null)
        tnode=$(sed -n 's/.* node=\([^ ]*\) .*/\1/p' "$sl/state/$k.start" 2>/dev/null)
        # submitted again (again.sh) and not started since: that job, not the class's array
        [ -f "$sl/state/$k.queued" ] && tjob=$(cat "$sl/state/$k.queued")
        [ -n "$tjob" ] || tjob=$jid
        st=$(slurm_state "$tjob" "$k")
        where="task $k${tjob:+, job ${tjob}_$k}${tnode:+ on $tnode}"
        log=
        [ -n "$tjob" ] && [ -f "$sl/logs/task-$tjob-$k.log" ] && log=$sl/logs/task-$tjob-$k.log
        if [ -f "$sl/state/$k.end" ]; then
            end=$(cat "$sl/state/$k.end")
            case $end in
                exit*) why="its task ended ($end) without a result for this lab" ;;
                *) why="its task $(stopped_why "$st") ($end) before this lab was graded" ;;
            esac
        elif [ -f "$sl/state/$k.start" ]; then
            why="its task $(stopped_why "$st") before this lab was graded"
            case $st in RUNNING* | COMPLETING* | SUSPENDED*) why="its task has not ended: collect again when it has" ;; esac
        else
            why="its task never started"
            case $st in
                PENDING* | REQUEUED*) why="its task has not started yet: collect again when it has ended" ;;
                CANCELLED*) why="its task was cancelled before it started" ;;
            esac
        fi
        if [ -n "$st" ]; then why="$why (Slurm: $st; $where)"
        elif [ -n "$tjob" ] && [ ! -f "$sl/state/$k.start" ]; then
            why="$why ($where: no log; Slurm lists it no more: cancelled while pending?)"
        else why="$why ($where)"; fi
        case $st in TIMEOUT*) why="$why: give the tasks more time (--time in GRADE_SBATCH_OPTS)" ;; esac
        for f in $miss; do
            key=$f; [ "$f" = sources ] && key="?"
            mkdir -p "$out"
            {
                echo "$key: not graded: $why"
                # Slurm's own line on the stop (*** ... CANCELLED AT / DUE TO TIME
                # LIMIT ***) wherever it fell, then the log's last lines
                [ -n "$log" ] && echo "the log, ${log#"$sl"/}, ends:" &&
                    { grep -m 1 '\*\*\* .*\(CANCELLED AT\|DUE TO TIME LIMIT\)' "$log"; tail -n 4 "$log"; } |
                    awk '!seen[$0]++' | cut -c 1-200
            } >"$out/$f.fail"
            echo "$(cksum <"$out/$f.fail") $out/$f.fail" >>"$sl/collected.new"
        done
    done <"$sl/students"
    mv "$sl/collected.new" "$sl/collected"

    # the report and the gradebook, outside the graded folder
    sh "$GRADE_TOP/tools/grader/grade" "$GRADE_RUNS" --text >"$sl/report.txt.new" 2>"$sl/grade.err"
    gs=$?
    sh "$GRADE_TOP/tools/grader/grade" "$GRADE_RUNS" --csv >"$sl/gradebook.csv.new" 2>/dev/null
    mv "$sl/report.txt.new" "$sl/report.txt" && mv "$sl/gradebook.csv.new" "$sl/gradebook.csv"
    bf=$(build_fault)
    secs=$(while IFS= read -r s; do cat "$GRADE_RUNS/$s/sources.txt" 2>/dev/null; done <"$sl/students" |
        awk '$1 == "seconds:" { b += $3; r += $6 } END { printf "%.0f s of builds, %.0f s of runs", b, r }')
    # the labs graded (a score, the student's 0 included): with none, the class was not graded
    ngr=$(while IFS= read -r s; do
        for f in "$GRADE_RUNS/$s"/*.csv "$GRADE_RUNS/$s"/*.fail; do
            [ -f "$f" ] || continue
            case $f in *.fail) head -n 1 "$f" | grep -q '^[^:]*: not graded: ' && continue ;; esac
            echo "$f"
        done
    done <"$sl/students" | wc -l | tr -d ' ')
    [ "$gs" -le 1 ] && [ "$ngr" -eq 0 ] && gs=3
    {
        echo "collect: $(students "$GRADE_N")${jid:+ (array job $jid)}; runs in $GRADE_RUNS; $secs (summed)"
        [ -n "$bf" ] && echo "collect: $bf"
        case $gs in
            0) echo "collect: graded: every student earned every point, nothing flagged" ;;
            1) echo "collect: graded: a point was lost or something flagged (the report says which)" ;;
            3) echo "collect: nothing graded: no lab of the class has a result (why: below)" ;;
            *) echo "collect: nothing graded (the grader's status $gs):"; cat "$sl/grade.err" ;;
        esac
        echo "collect: the report: $sl/report.txt"
        echo "collect: the gradebook: $sl/gradebook.csv"
        # (make grade RESULTS= reads the shell's settings: the class's rules file, said)
        [ -n "${GRADE_CONF:-}" ] && echo "collect: grade again: sh $(q "$sl/collect.sbatch"), or" \
            "GRADE_CONF=$(q "$GRADE_CONF") make grade RESULTS=$(q "$GRADE_RUNS")"
        # last: the labs not graded, by reason, and what grades them
        [ "$gs" -le 1 ] || [ "$gs" -eq 3 ] && not_graded
    } | wrap100
    rm -f "$sl/grade.err"
    exit $gs
}

# not_graded: the labs the gradebook leaves without a score, counted by reason (its flags
# "not graded LABS (REASON: grade it again)"), then the again.sh line that grades them; a
# task that has not ended: collect again once it has
not_graded() {
    awk -F, -v students="$sl/students" -v again="$(q "$sl/again.sh")" -v coll="$(q "$sl/collect.sbatch")" '
        BEGIN { while ((getline l < students) > 0) K[l] = ++n }
        NR > 1 {
            line = $0
            while (match(line, /not graded( lab[0-9][0-9][^ ]*)+ \([^:()]*: grade it again\)/)) {
                f = substr(line, RSTART + 11, RLENGTH - 11); line = substr(line, RSTART + RLENGTH)
                labs = f; sub(/ \(.*/, "", labs)
                why = f; sub(/^[^(]*\(/, "", why); sub(/: grade it again\)$/, "", why)
                nl = split(labs, L, " ")
                if (!(why in N)) W[++nw] = why
                N[why] += nl; total += nl
                WHO[why] = WHO[why] (WHO[why] == "" ? "" : " ") $1
                if (why ~ /^task has not/) wait = 1
                else if (!($1 in AGAIN)) { AGAIN[$1] = 1; ks = ks " " K[$1] }
            }
        }
        END {
            if (!total) { print "collect: no lab is left not graded"; exit }
            s = ""
            for (i = 1; i <= nw; i++) s = s (i > 1 ? "; " : "") W[i] " " N[W[i]] " (" WHO[W[i]] ")"
            printf "collect: %d lab%s not graded (no point lost, none counted): %s\n", total, total == 1 ? "" : "s", s
            if (wait) print "collect: tasks not ended yet: once they have, collect again: sh " coll
            if (ks != "") print "collect: grade them again: sh " again ks
        }' "$sl/gradebook.csv"
}

# again SLURMDIR K...: students K... graded again (their runs go first)
again() {
    load "$1"; shift
    [ $# -gt 0 ] || { echo "grade_slurm: again: give the students' numbers (their lines in $sl/students)" >&2; exit 2; }
    # (the class's workbook first: without it each task would be a node fault again)
    bf=$(build_fault)
    [ -z "$bf" ] || { echo "grade: again: $bf" >&2; exit 2; }
    # (a student whose task Slurm still lists, queued or running: never two tasks of theirs at once)
    live=$(class_jobs "$sl" -r | awk '$1 ~ /_[0-9]+$/ { k = $1; sub(/.*_/, "", k); print k, $1, $2 }')
    for k in "$@"; do
        case $k in '' | *[!0-9]* | 0) echo "grade_slurm: again: '$k' is not a student's number (1 to $GRADE_N)" >&2; exit 2 ;; esac
        s=$(sed -n "${k}p" "$sl/students")
        [ -n "$s" ] || { echo "grade_slurm: again: no student $k (1 to $GRADE_N)" >&2; exit 2; }
        j=$(echo "$live" | awk -v k="$k" '$1 == k { print $2 " is " tolower($3); exit }')
        if [ -n "$j" ]; then
            echo "grade: again: student $k ($s): task $j: let it end, or cancel it (scancel ${j%% *}), then again.sh $k" >&2
            exit 2
        fi
    done
    ks=
    for k in "$@"; do
        s=$(sed -n "${k}p" "$sl/students")
        # the old run and what collect wrote for it: nothing stale is graded while the task waits
        rm -f "$GRADE_RUNS/$s"/*.csv "$GRADE_RUNS/$s"/*.fail "$GRADE_RUNS/$s"/*.run "$GRADE_RUNS/$s"/*.check \
            "$GRADE_RUNS/$s/sources.txt"
        rm -f "$sl/state/$k.start" "$sl/state/$k.end" "$sl/state/$k.slurm" "$sl/state/$k.queued"
        ks="$ks,$k"
    done
    ks=${ks#,}
    command -v sbatch >/dev/null 2>&1 || {
        echo "grade: no sbatch here: submit on a login node: sbatch --array=$ks '$sl/array.sbatch'" >&2; exit 2; }
    j=$(sbatch --parsable --array="$ks" "$sl/array.sbatch") || exit 2
    j=${j%%;*}
    for k in "$@"; do echo "$j" >"$sl/state/$k.queued"; done
    echo "grade: students $ks again: job $j; once it ended, collect (or submit it to run then):"
    echo "  sbatch --dependency=afterany:$j $(q "$sl/collect.sbatch")"
    exit 0
}

case $cmd in
    again) again "$@" ;;
    busy) [ $# -eq 1 ] || { echo "grade_slurm: usage: busy RUNS" >&2; exit 2; }; busy "$1" || exit 2; exit 0 ;;
    write) [ $# -eq 3 ] || { echo "grade_slurm: usage: write SOURCES RUNS STUDENTS" >&2; exit 2; }; write "$@" ;;
    build) build "$@" ;;
    task) task "$@" ;;
    collect) collect "$@" ;;
    *) echo "grade_slurm: usage: sh tools/grader/grade_slurm.sh write SOURCES RUNS STUDENTS | build SLURMDIR | task SLURMDIR [K] | collect SLURMDIR [JOBID] | again SLURMDIR K... | busy RUNS" >&2; exit 2 ;;
esac
