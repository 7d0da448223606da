#!/bin/sh
# tests/slurm/test.sh - make test-slurm: a class graded from sources on a real
# Slurm (POSIX sh). Run from anywhere; it works in the repository root.
#
# As root with apt-get, it installs Debian's slurm-wlm and munge where they
# are missing (apt-get install --no-install-recommends; Debian bookworm gives
# Slurm 22.05), and starts a one-node cluster of its own in a temp folder:
# munged, slurmctld and slurmd on free ports, the node's CPUs and memory
# from `slurmd -C`, two fake GPUs (character devices made with mknod, File=
# in gres.conf: a count-only GPU gres does not work in 22.05). Nothing of the
# machine's own Slurm or munge is used or changed (bubblewrap, the tasks'
# sandbox, is installed the same way where it is missing). Then, from a copy
# of the workbook in a folder whose path has a space ("work book": tools/grader/grade
# in the collect job must read its parts from there), for a class of lab01
# files, and one of every lab's, in a folder whose path has spaces:
#   broken  a compile error          good   the solutions' exercises.c, as it is
#   hang    a loop that never ends:  its task is cancelled (scancel) while it runs
#   late    its task is cancelled while it waits (pending)
#   slow    a loop that never ends: its task hits the Slurm time limit (one
#           minute, set with scontrol while it waits; about 90 s of the run)
#   sols    every lab's solutions file, as it is: lab01 earns every point; this
#           node has no GPU CUDA can use: its GPU labs are a node fault (exit
#           3), found before anything is built or calibrated
#   stub    the file as handed out
#   znode   the file as handed out, on a node at fault: its task's setup line
#           leaves it no sandbox; a flag, no lab01 cell, never a 0
# it runs `make grade SOURCES=... SLURM=1` with GRADE_SBATCH_OPTS (partition,
# account, every CPU of the node, a GPU, time), GRADE_CUDA_ARCH=75 and a
# GRADE_SETUP line in bash (a [[ test: it fails under /bin/sh, as `module
# load` does; it hides any real GPU from the tasks, CUDA_VISIBLE_DEVICES=-1,
# so the GPU labs take the no-GPU path on any machine), submits the printed sbatch lines (the class's workbook built
# once in "the class.slurm/workbook", then the array, then collect) from a
# shell whose GRADE_SETUP, CFLAGS and NVCC would fail or change every job
# (the jobs take the class's settings, not the shell's), with its own
# TMPDIR; writing the class again while it is queued is refused; it cancels
# two tasks, times one out, waits for the collect job, and checks every
# student's grade and reason (a lab its task left without a result: no
# score, a flag of its own, never a 0), the jobs' exit statuses, collect's
# last lines, the report outside the graded folder, that nothing is left in
# the tasks' TMPDIR, that every lab's solutions file builds as a student's
# file against the class's workbook, and that a second collect (by hand, two
# at once) says the same. again.sh: collected while its task waits (no
# score), refused a second time while it waits. Then the class again with
# the good student alone: the old runs and logs are gone; a task of the old
# writing, released now, grades nothing; its build job's setup line fails:
# the task still runs, a node fault, no 0, collect exits 3 (nothing
# graded); written and submitted again, collect exits 0. Every daemon it
# started is stopped when it ends (however it ends).
# Not root, no apt-get, or the packages cannot be installed (no network to
# Debian's mirror): one line saying why, and a skip. WB_SLURM_TEST=0 skips too;
# WB_SLURM_KEEP=1 keeps its temp folder (the class, the runs, the logs) for a look.
# Prints ok/FAIL/skip lines, and last "N passed, N failed, N skipped in S s".
# Exit status: 0 nothing failed (or skipped), 1 a check failed.
cd "$(dirname "$0")/../.." || exit 2
T0=$(date +%s)
P=0; F=0; K=0
ok() { echo "ok $1"; P=$((P + 1)); }
notok() { echo "FAIL $1: $2"; F=$((F + 1)); }
skip() { echo "skip $1: $2"; K=$((K + 1)); }
summary() { echo "$P passed, $F failed, $K skipped in $(($(date +%s) - T0)) s"; }
skip_all() { skip "test-slurm" "$1"; summary; exit 0; }

[ "${WB_SLURM_TEST:-}" = 0 ] && skip_all "WB_SLURM_TEST=0"
[ "$(id -u)" -eq 0 ] || skip_all "not root (it installs and starts Slurm and munge as root)"
[ -f lab01_cpu_reduce/solutions/exercises.c ] || skip_all "no solutions here (a students' copy)"

# ---- Slurm and munge, from Debian's packages where they are missing -----------
have_slurm() { for c in slurmctld slurmd sbatch scontrol squeue scancel munged; do command -v $c >/dev/null 2>&1 || return 1; done; }
D=; policy=; pids=
cleanup() {
    if [ -n "$D" ] && [ -f "$D/slurm.conf" ] && [ -n "$pids" ]; then
        # our jobs first (their processes are slurmd's), then the daemons, newest first
        SLURM_CONF=$D/slurm.conf squeue -h -o %A 2>/dev/null | sort -u | while read -r j; do
            SLURM_CONF=$D/slurm.conf scancel "$j" 2>/dev/null
        done
        n=0
        while [ $n -lt 20 ] && [ -n "$(SLURM_CONF=$D/slurm.conf squeue -h 2>/dev/null)" ]; do sleep 0.5; n=$((n + 1)); done
    fi
    for p in $pids; do kill "$p" 2>/dev/null; done
    for p in $pids; do
        n=0
        while kill -0 "$p" 2>/dev/null && [ $n -lt 20 ]; do sleep 0.5; n=$((n + 1)); done
        kill -KILL "$p" 2>/dev/null
    done
    [ -n "$policy" ] && rm -f "$policy"
    [ -n "$D" ] && [ -z "${WB_SLURM_KEEP:-}" ] && rm -rf "$D"
}
trap 'cleanup' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

if ! have_slurm; then
    command -v apt-get >/dev/null 2>&1 || skip_all "Slurm is not installed and there is no apt-get to install it"
    # no service of the packages may start: a policy-rc.d that says no, while they install
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
    fi
    apt_install() {
        DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends \
            -o Acquire::http::Timeout=20 -o Acquire::Retries=1 slurm-wlm munge bubblewrap >/tmp/wb-slurm-apt.$$ 2>&1
    }
    echo "test-slurm: installing slurm-wlm and munge (apt-get)"
    if ! apt_install; then
        timeout 300 apt-get update -o Acquire::http::Timeout=20 >/dev/null 2>&1
        apt_install
    fi
    why=$(grep '^E:' /tmp/wb-slurm-apt.$$ | head -n 1 | cut -c 1-160)
    rm -f /tmp/wb-slurm-apt.$$
    [ -n "$policy" ] && rm -f "$policy" && policy=
    have_slurm || skip_all "could not install slurm-wlm and munge from Debian's mirror (${why:-apt-get failed})"
fi

# ---- a one-node cluster of our own ---------------------------------------------
D=$(mktemp -d "${TMPDIR:-/tmp}/wbslurm.XXXXXX") || exit 2
chmod 755 "$D" # munged wants its socket's folder open to everyone
mkdir -p "$D/munge" "$D/key" "$D/ctld" "$D/spool" "$D/log" "$D/dev"
chmod 700 "$D/key"
dd if=/dev/urandom of="$D/key/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$D/key/munge.key"
# two free TCP ports (not listening on this machine)
listening() {
    hex=$(printf '%04X' "$1")
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p="$hex" '$4 == "0A" { split($2, a, ":"); if (toupper(a[2]) == p) f = 1 } END { exit !f }'
}
port=$((20000 + ($$ % 4000) * 2)); tries=0
while listening $port || listening $((port + 1)); do
    port=$((port + 2)); tries=$((tries + 1))
    [ $tries -gt 50 ] && skip_all "no two free TCP ports found for slurmctld and slurmd"
done
node=$(slurmd -C 2>/dev/null | head -n 1)
host=$(echo "$node" | sed -n 's/^NodeName=\([^ ]*\) .*/\1/p')
ncpu=$(echo "$node" | sed -n 's/.* CPUs=\([0-9]*\) .*/\1/p')
[ -n "$host" ] && [ -n "$ncpu" ] || skip_all "slurmd -C says nothing usable: $node"
gres=
if mknod "$D/dev/nvidia0" c 1 3 2>/dev/null && mknod "$D/dev/nvidia1" c 1 3 2>/dev/null; then
    gres=" Gres=gpu:2"
    echo "NodeName=$host Name=gpu File=$D/dev/nvidia[0-1]" >"$D/gres.conf"
fi
cat >"$D/slurm.conf" <<EOF
ClusterName=wbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$D/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/ctld
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
${gres:+GresTypes=gpu}
ReturnToService=2
KillWait=5
MinJobAge=600
$node NodeAddr=127.0.0.1$gres State=UNKNOWN
PartitionName=wbq Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$D/slurm.conf
export SLURM_CONF

# wait_for SECONDS CMD...: CMD succeeds within SECONDS (polled every half second)
wait_for() {
    wt=$(( $1 * 2 )); shift
    while [ $wt -gt 0 ]; do "$@" && return 0; sleep 0.5; wt=$((wt - 1)); done
    return 1
}
logs() { tail -n 5 "$D"/log/*.out "$D"/log/*.log 2>/dev/null | cut -c 1-200 | tr '\n' '|'; }
munged -F -S "$D/munge/munge.socket" --key-file="$D/key/munge.key" --log-file="$D/log/munged.log" \
    --pid-file="$D/munge/munged.pid" --seed-file="$D/munge/seed" >"$D/log/munged.out" 2>&1 &
pids="$! $pids"
if ! wait_for 20 test -S "$D/munge/munge.socket"; then notok "munged starts" "$(logs)"; summary; exit 1; fi
slurmctld -D -f "$D/slurm.conf" >"$D/log/slurmctld.out" 2>&1 &
pids="$! $pids"
if ! wait_for 30 scontrol ping >/dev/null 2>&1; then notok "slurmctld starts" "$(logs)"; summary; exit 1; fi
slurmd -D -f "$D/slurm.conf" >"$D/log/slurmd.out" 2>&1 &
pids="$! $pids"
idle() { sinfo -h -n "$host" -o %T 2>/dev/null | grep -q '^idle'; }
if wait_for 60 idle; then ok "a one-node $(sinfo -V 2>/dev/null) on $host ($ncpu CPUs${gres:+, 2 fake GPUs}): munged, slurmctld, slurmd"
else notok "the node comes up idle" "sinfo: $(sinfo -h -o '%T %E' 2>&1); $(logs)"; summary; exit 1; fi

# job_field JOB FIELD: the field (JobState, ExitCode, ...) scontrol shows for JOB
job_field() { scontrol -o show job "$1" 2>/dev/null | head -n 1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
job_done() {
    case $(job_field "$1" JobState) in '' | PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED) return 1 ;; esac
}

# ---- the workbook, in a folder whose path has a space ---------------------------
W="$D/work book"
mkdir -p "$W" && tar --exclude=./build --exclude='./lab[0-9][0-9]' --exclude='./lab[0-9][0-9]-*' -cf - . | tar -xf - -C "$W" ||
    { notok "the workbook copied to '$W'" "tar failed"; summary; exit 1; }

# ---- the class ----------------------------------------------------------------
S="$D/the class"
SL="$D/the class.slurm"
R="$D/the class.runs"
E1=lab01_cpu_reduce/exercises.c
mkstudent() { mkdir -p "$S/$1/lab01_cpu_reduce" && sed "$2" "$E1" >"$S/$1/$E1"; }
mkstudent broken '0,/WB_TODO();/s//this is not C;/'
mkstudent hang '0,/WB_TODO();/s//{ volatile int go = 1; while (go) { } }/'
mkstudent late ''
mkstudent slow '0,/WB_TODO();/s//{ volatile int go = 1; while (go) { } }/'
mkstudent stub ''
mkstudent znode ''
# the solutions files as they are, a student's (good: lab01's; sols: every lab's)
mkdir -p "$S/good/lab01_cpu_reduce"
cp lab01_cpu_reduce/solutions/exercises.c "$S/good/$E1"
SOLS=
for f in lab0*/solutions/exercises.c*; do
    mkdir -p "$S/sols/${f%%/*}" && cp "$f" "$S/sols/${f%%/*}/${f##*/}"
    SOLS="$SOLS ${f%%/*}"
done
# grade.conf with lab01 the one required lab: the good student loses nothing
grep -v '^required' tools/grader/grade.conf >"$D/grade.conf" && echo "required lab01" >>"$D/grade.conf"
OPTS="--partition=wbq --account=cs101 --cpus-per-task=$ncpu --time=00:10:00${gres:+ --gres=gpu:1}"
# (every CPU for one task: the tasks run one at a time, so task 4 waits while task 3 runs)

# grade_write [SETUP]: make grade SOURCES=... SLURM=1, its output in $D/write.out, or $WOUT (SETUP:
# more of the line)
grade_write() {
    env GRADE_SBATCH_OPTS="$OPTS" GRADE_CONF="$D/grade.conf" \
        GRADE_SETUP="[[ -n bash ]] && echo ran >>'$D/setup ran' && CUDA_VISIBLE_DEVICES=-1 && { [ \"\${SLURM_ARRAY_TASK_ID:-}\" != 8 ] || GRADE_SANDBOX_UID=no-such-user; }${1:-}" \
        GRADE_TIMEOUT=300 GRADE_LENGTH=100003 GRADE_RUN_ARGS="-r 3" GRADE_CUDA_ARCH=75 \
        make -s --no-print-directory -C "$W" grade "SOURCES=$S" SLURM=1 >"${WOUT:-$D/write.out}" 2>&1
}
# submit: the printed sbatch lines, run as printed; $bid the build, $jid the array, $cjid the collect job
TT=$D/tmp # (the jobs' TMPDIR: nothing of a task may be left there)
mkdir -p "$TT"
submit() {
    sed -n '/^  bid=/,/collect\.sbatch/p' "$D/write.out" >"$D/submit.sh"
    bid=; jid=; cjid=
    # (from a shell whose GRADE_ and build settings would fail or change every job: the jobs
    # must not take them)
    ( GRADE_SETUP='exit 7' GRADE_SANDBOX=none CFLAGS='-O0 -g' NVCC=nvcc-not-installed TMPDIR=$TT
      export GRADE_SETUP GRADE_SANDBOX CFLAGS NVCC TMPDIR
      . "$D/submit.sh" && echo "$bid $jid" >"$D/jid" ) >"$D/submit.out" 2>&1
    read -r bid jid <"$D/jid" 2>/dev/null
    bid=${bid%%;*}; jid=${jid%%;*}
    cjid=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$D/submit.out")
}

if grade_write; then ok "make grade SOURCES='the class' SLURM=1: the job scripts (exit 0)"
else notok "make grade SLURM=1" "exit $?: $(head -c 400 "$D/write.out")"; fi
if grep -q "^#SBATCH --cpus-per-task=$ncpu\$" "$SL/array.sbatch" && grep -q '^#SBATCH --partition=wbq$' "$SL/collect.sbatch" &&
    grep -q '^#SBATCH --account=cs101$' "$SL/array.sbatch" && ! grep -q 'cpus-per-task' "$SL/collect.sbatch"; then
    ok "GRADE_SBATCH_OPTS in the job scripts (the collect job: partition and account only)"
else notok "GRADE_SBATCH_OPTS in the job scripts" "$(grep -h '^#SBATCH' "$SL/array.sbatch" "$SL/collect.sbatch" | tr '\n' '|')"; fi
submit
case $bid:$jid in
    :* | *: | *[!0-9:]*) notok "the printed sbatch lines submit" "$(cat "$D/submit.sh" "$D/submit.out" | head -c 400)"; summary; exit 1 ;;
esac
case $cjid in
    '' | *[!0-9]*) notok "the printed sbatch line submits the collect job" "$(head -c 400 "$D/submit.out")"; summary; exit 1 ;;
esac
ok "the printed sbatch lines submit the build ($bid), the array ($jid) and the collect job ($cjid)"

# writing the class again while its jobs are queued: refused, the scancel line, nothing touched
sum0=$(cat "$SL/class.sh" "$SL/students" | cksum)
WOUT=$D/rewrite.out
grade_write
st=$?
WOUT=
line=$(grep '^  scancel ' "$D/rewrite.out")
n=0; for j in $bid $jid $cjid; do case "$line " in *" $j "*) n=$((n + 1)) ;; esac; done
if [ $st -ne 0 ] && [ "$(cat "$SL/class.sh" "$SL/students" | cksum)" = "$sum0" ] && [ $n -eq 3 ]; then
    ok "writing the class again while it is queued: refused (exit $st), nothing touched:$line"
else notok "writing again while queued is refused" "exit $st; $(head -c 400 "$D/rewrite.out")"; fi

# task 4 (late) is cancelled while it waits; task 5 (slow) gets one minute; task 3 (hang)
# is cancelled once it has started
scancel "${jid}_4"
scontrol update JobId="${jid}_5" TimeLimit=1
# (meanwhile, once the class's workbook is built: every lab's solutions file built as a
# student's file against it, as a task on a GPU node would)
solbuild() {
    for l in $SOLS; do
        lab=${l%%_*}; f=$(ls "$l"/solutions/exercises.c*)
        sh "$SL/workbook/tools/grader/build_student.sh" "$lab" "$W/$f" "$D/solbuild/$lab" >"$D/solbuild-$lab.log" 2>&1
        echo "$lab $? $f"
    done >"$D/solbuild.out"
}
spid=
wait_for 300 job_done "$bid" && { solbuild & spid=$!; }
if wait_for 240 test -f "$SL/state/3.start"; then
    sleep 2
    scancel "${jid}_3"
    ok "task 3 started, then cancelled while it ran; task 4 cancelled while pending"
else notok "task 3 starts" "squeue: $(squeue -h 2>&1 | tr '\n' '|'); $(logs)"; fi
if wait_for 420 job_done "$cjid"; then ok "the collect job ran once every task had ended"
else notok "the collect job ends" "squeue: $(squeue -h 2>&1 | tr '\n' '|'); $(logs)"; summary; exit 1; fi

# the jobs' exit statuses
st="$(job_field "$bid" JobState) $(job_field "$bid" ExitCode)"
if [ "$st" = "COMPLETED 0:0" ] && [ -s "$SL/state/build.ok" ] && [ -x "$SL/workbook/lab01" ] && [ -x "$SL/workbook/lab06" ] &&
    [ ! -e "$SL/workbook/lab01_cpu_reduce/solutions" ]; then
    ok "the build job: COMPLETED, the class's handout copy built once, every lab (in a path with a space)"
else notok "the build job: COMPLETED, the workbook built" "$st; $(tail -n 5 "$SL/logs/build-$bid.log" 2>/dev/null | tr '\n' '|')"; fi
# (the submitting shell's CFLAGS='-O0 -g' and NVCC=nvcc-not-installed: not the build's)
if grep -q '^compile_unit() { gcc -O2 ' "$SL/workbook/build/student/lab01.sh" && ! grep -q -- '-O0' "$SL/workbook/build/student/lab01.sh" &&
    grep -q "^compiler='nvcc'" "$SL/workbook/build/student/lab02.sh"; then
    ok "the build takes the class's build settings, not the submitting shell's CFLAGS and NVCC"
else notok "the class's build settings" "$(grep -h '^compile_unit\|^compiler' "$SL"/workbook/build/student/lab0[12].sh | tr '\n' '|')"; fi
for k in 1 2 7; do
    st="$(job_field "${jid}_$k" JobState) $(job_field "${jid}_$k" ExitCode)"
    if [ "$st" = "COMPLETED 0:0" ]; then ok "task $k: COMPLETED, exit 0"
    else notok "task $k: COMPLETED, exit 0" "$st"; fi
done
st=$(job_field "${jid}_3" JobState)
if [ "$st" = CANCELLED ]; then ok "task 3: CANCELLED"; else notok "task 3: CANCELLED" "'$st'"; fi
st=$(job_field "${jid}_5" JobState)
if [ "$st" = TIMEOUT ]; then ok "task 5: TIMEOUT"; else notok "task 5: TIMEOUT" "'$st'"; fi
st="$(job_field "${jid}_6" JobState) $(job_field "${jid}_6" ExitCode)"
if [ "$st" = "FAILED 3:0" ]; then ok "task 6 (GPU labs on a node without a GPU CUDA can use): FAILED, exit 3"
else notok "task 6 (GPU labs, no GPU): FAILED, exit 3" "$st"; fi
st="$(job_field "${jid}_8" JobState) $(job_field "${jid}_8" ExitCode)"
if [ "$st" = "FAILED 3:0" ]; then ok "task 8 (a node without a sandbox): FAILED, exit 3"
else notok "task 8 (a node without a sandbox): FAILED, exit 3" "$st"; fi
st="$(job_field "$cjid" JobState) $(job_field "$cjid" ExitCode)"
if [ "$st" = "FAILED 1:0" ]; then ok "the collect job exits 1 (graded: points lost)"
else notok "the collect job exits 1" "$st; $(cat "$SL"/logs/collect-*.log 2>/dev/null | head -c 300)"; fi
# collect's log, each wrapped line joined again
joined() { awk '/^    / { sub(/^ +/, " "); line = line $0; next } NR > 1 { print line } { line = $0 } END { print line }' "$1" 2>/dev/null; }
clog=$D/collect.log
joined "$SL/logs/collect-$cjid.log" >"$clog"
expect() { if grep -Eq "$2" "$3" 2>/dev/null; then ok "$1"; else notok "$1" "no line matches /$2/ in $(head -c 300 "$3" 2>/dev/null)"; fi; }
expect "collect's log: graded, points lost" '^collect: graded: a point was lost' "$clog"
expect "collect's log counts the labs not graded, by reason" \
    '^collect: 9 labs not graded \(no point lost, none counted\): task was cancelled 1 \(hang\); task never started 1 \(late\); task timed out 1 \(slow\); node fault 6 \(sols znode\)$' "$clog"
expect "collect's last line: the again.sh line that grades them" "^collect: grade them again: sh '$SL/again.sh' 3 4 5 6 8\$" "$clog"
n=$(tail -n 1 "$clog"); case $n in "collect: grade them again: "*) ok "... its last line" ;; *) notok "the again.sh line last" "$n" ;; esac
if [ -f "$SL/logs/task-$jid-1.log" ] && [ -f "$SL/logs/task-$jid-6.log" ] && [ ! -f "$SL/logs/task-$jid-4.log" ]; then
    ok "the logs are named by job and task (task-$jid-K.log)"
else notok "the logs are named by job and task" "$(ls "$SL/logs" | tr '\n' ' ')"; fi
expect "each task has the allocation's CPUs (SLURM_CPUS_PER_TASK)" "^grade: task 1 of 8, broken, on $host \\(job ${jid}_1\\), $ncpu CPUs?$" \
    "$SL/logs/task-$jid-1.log"
n=$(wc -l <"$D/setup ran" 2>/dev/null | tr -d ' ')
if [ "${n:-0}" -ge 3 ]; then ok "GRADE_SETUP ran in every task that started ($n)"
else notok "GRADE_SETUP ran in every task" "${n:-0} times"; fi
left=$(ls -A "$TT" | grep '^grade-' | tr '\n' ' ')
if [ -z "$left" ]; then ok "nothing of a task is left in its TMPDIR (cancelled and timed out ones included)"
else notok "nothing of a task left in its TMPDIR" "$left"; fi

# the GPU labs on a node without a GPU CUDA can use: the node's check comes first
tl=$SL/logs/task-$jid-6.log
nf=0
for l in $SOLS; do
    lab=${l%%_*}
    [ "$lab" = lab01 ] && continue
    grep -q "^$lab: not graded: the node's fault, not the student's file: node $host has no GPU CUDA can use" "$R/sols/$lab.fail" || nf=$((nf + 1))
    [ -e "$R/sols/$lab.run" ] && nf=$((nf + 1))
done
if [ $nf -eq 0 ] && [ -f "$R/sols/lab01.csv" ] && [ ! -e "$R/calibration" ] && ! grep -qi 'calibrat' "$tl"; then
    ok "sols: its GPU labs not graded, the node's fault; no calibration ran, none was built (lab01 ran)"
else notok "sols: the node checked first" "$nf; $(ls "$R" "$R/sols" | tr '\n' ' '); $(grep -i 'calibrat' "$tl" | head -n 2)"; fi

# the grades and the reasons
G=$SL/gradebook.csv
rep=$SL/report.txt
if [ -f "$G" ] && [ -f "$rep" ] && [ ! -e "$R/gradebook.csv" ] && [ ! -e "$R/report.txt" ]; then
    ok "the report and the gradebook are outside the graded folder"
else notok "the report and the gradebook outside the runs" "$(ls "$SL" "$R" | tr '\n' ' ')"; fi
want="broken,0 good,25 hang, late, slow, sols,25 stub,10 znode,"
got=$(awk -F, 'NR > 1 { printf "%s%s,%s", sep, $1, $2; sep = " " }' "$G" 2>/dev/null)
if [ "$got" = "$want" ]; then ok "every student has a row; a lab left without a result has no score: $got"
else notok "every student's grade" "got '$got', expected '$want'"; fi
h=$(head -n 1 "$G")
if [ "$h" = "student,lab01,lab02,lab03,lab04,lab05,lab06,total,max,flags,calibration" ]; then
    ok "the gradebook's columns: the labs the class handed in (no lab05-finish, no lab06+dlcm=cg)"
else notok "the gradebook's columns" "$h"; fi
flag() { awk -F, -v s="$1" '$1 == s { print $10 }' "$G"; } # (the flags: no comma in them here)
expect_flag() {
    if [ "$(flag "$1")" = "$2" ]; then ok "$1: its flag, '$2'"; else notok "$1: its flag" "'$(flag "$1")', not '$2'"; fi
}
expect_flag hang "not graded lab01 (task was cancelled: grade it again)"
expect_flag late "not graded lab01 (task never started: grade it again)"
expect_flag slow "not graded lab01 (task timed out: grade it again)"
expect_flag sols "fingerprint lab01 with good; not graded lab02 lab03 lab04 lab05 lab06 (node fault: grade it again)"
expect_flag znode "not graded lab01 (node fault: grade it again)"
joined "$rep" >"$D/rep.j"
expect "broken: does not compile, in the student's file" '^  broken lab01: does not compile \(lab01_cpu_reduce/exercises\.c\)' "$rep"
expect "hang (cancelled while running): its row says cancelled" "^  hang lab01: not graded: its task was cancelled \\(stopped: SIGTERM\\)" "$rep"
expect "hang: ... and Slurm's CANCELLED" "^lab01: not graded: its task was cancelled .*\(Slurm: CANCELLED" "$R/hang/lab01.fail"
expect "hang: its log's last words (Slurm's CANCELLED line)" 'CANCELLED AT' "$R/hang/lab01.fail"
if grep -rqs 'printed no CSV\|ran past' "$R"; then notok "a stopped run is never judged" "$(grep -rs 'printed no CSV\|ran past' "$R" | head -n 2)"
else ok "a run stopped with its task is never judged (no 'printed no CSV', no 'ran past')"; fi
# (Slurm lists a pending task cancelled no more: 22.05 without accounting)
expect "late (cancelled while pending): never started" \
    "^  late lab01: not graded: its task never started \\(task 4, job ${jid}_4: no log; Slurm lists it no more: cancelled while pending\\?\\)" "$D/rep.j"
expect "slow (the time limit): TIMEOUT, and what to do" \
    "^lab01: not graded: its task timed out .*\(Slurm: TIMEOUT.*\): give the tasks more time" "$R/slow/lab01.fail"
expect "good (lab01's solutions file as it is): 25 of 25, nothing flagged" '^good +25 ' "$rep"
expect "znode: not graded, the node's fault (no sandbox), never the student's" \
    "^  znode lab01: not graded: the node's fault, not the student's file: node .* lacks a sandbox" "$rep"
expect "the report's table says node or task, not 0" '^znode +node .*' "$rep"
expect "... task for a task that was stopped" '^hang +task ' "$rep"
expect "each run's record names its sandbox" '^sandbox bubblewrap' "$R/good/lab01.run"
expect "the collect job asks for the tasks' time" '^#SBATCH --time=00:10:00$' "$SL/collect.sbatch"
if grep -Eq 'credited to no one|REJECTED|the file is empty' "$rep"; then
    notok "collect grades no file of its own" "$(grep -E 'credited to no one|REJECTED|the file is empty' "$rep" | head -n 2)"
else ok "collect grades no file of its own (nothing credited to no one, nothing rejected)"; fi
# every lab's solutions file builds as a student's file (tools/grader/build_student.sh)
[ -n "$spid" ] && wait "$spid"
n=$(awk '$2 == 0' "$D/solbuild.out" 2>/dev/null | wc -l | tr -d ' ')
if [ "$n" -eq "$(echo $SOLS | wc -w)" ] && [ "$n" -ge 6 ]; then
    ok "every lab's solutions file builds as a student's file against the class's workbook ($n labs)"
else notok "the solutions build as a student's file" "$(awk '$2 != 0' "$D/solbuild.out" 2>/dev/null | tr '\n' ' '); $(cat "$D"/solbuild-*.log 2>/dev/null | grep -m 2 error)"; fi

# a hand-in that is not a regular file, graded against the class's workbook: refused and
# named, never read (a symlink to a file outside the class, a folder that is a symlink, a FIFO)
L=$D/links
mkdir -p "$L/s/lab01_cpu_reduce" "$L/s/lab03_interleaved" "$L/else"
echo 'int secret_line_of_the_grader;' >"$L/secret.c"
ln -s "$L/secret.c" "$L/s/$E1"
cp lab02_neighbored/exercises.cuh "$L/else/" && ln -s "$L/else" "$L/s/lab02_neighbored"
mkfifo "$L/s/lab03_interleaved/exercises.cuh"
timeout 120 sh "$W/tools/grader/grade_task.sh" "$L/s" "$L/out" "$SL/workbook" 2>"$L/err"
st=$?
got=$(head -qn 1 "$L/out/lab01.fail" "$L/out/lab02.fail" "$L/out/lab03.fail" 2>/dev/null | cut -d' ' -f 1-4 | tr '\n' '|')
if [ $st -eq 0 ] && [ "$got" = "lab01: refused: $E1 is|lab02: refused: lab02_neighbored/exercises.cuh: its|lab03: refused: lab03_interleaved/exercises.cuh is|" ] &&
    ! grep -rq secret_line "$L/out" "$L/err" && grep -q ' is a symlink (not read' "$L/out/lab01.fail"; then
    ok "a symlink, a folder that is a symlink, a FIFO handed in: each refused and named, never read"
else notok "hand-ins that are not regular files" "exit $st; $got; $(head -c 200 "$L/err")"; fi

# a GPU that fails the instructor's own solutions (as this node's GPU-less CUDA does, told
# there is a GPU): the calibration, after the node's check, says so: a node fault, not built
mkdir -p "$D/gpu1/s/lab02_neighbored" && cp lab02_neighbored/solutions/exercises.cuh "$D/gpu1/s/lab02_neighbored/"
GRADE_CALIBRATE_ONCE=$SL/class.sh GRADE_CALIBRATE_RUNS=1 GRADE_NODE_GPUS=1 GRADE_NODE_CC=75 CUDA_ARCH=75 CUDA_VISIBLE_DEVICES=-1 \
    timeout 300 sh "$W/tools/grader/grade_task.sh" "$D/gpu1/s" "$D/gpu1/runs/s" "$SL/workbook" >"$D/gpu1/out" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q "^lab02: not graded: the node's fault, not the student's file: node $host's GPU fails the instructor's own solutions: lab02 exit 3" \
    "$D/gpu1/runs/s/lab02.fail" && [ ! -e "$D/gpu1/runs/s/lab02.run" ]; then
    ok "a GPU the instructor's solutions fail on (calibration): the lab a node fault, the student's file not built"
else notok "a GPU that fails the solutions: a node fault" "exit $st; $(head -c 300 "$D/gpu1/runs/s/lab02.fail" 2>/dev/null); $(tail -n 3 "$D/gpu1/out")"; fi

# a second collect, by hand, two at once: the same report and gradebook, the same status
cp "$rep" "$D/report.1"; cp "$G" "$D/gradebook.1"
sh "$SL/collect.sbatch" >"$D/collect2.out" 2>&1 &
p2=$!
sh "$SL/collect.sbatch" >"$D/collect3.out" 2>&1
st=$?
wait "$p2"
st2=$?
if [ $st -eq 1 ] && [ $st2 -eq 1 ] && cmp -s "$rep" "$D/report.1" && cmp -s "$G" "$D/gradebook.1" &&
    ! grep -q 'cannot\|No such' "$D/collect2.out" "$D/collect3.out"; then
    ok "two more collects at once (sh collect.sbatch): one after the other, the same report and gradebook, exit 1"
else notok "two collects at once" "exit $st $st2; $(diff "$D/report.1" "$rep" | head -n 6 | tr '\n' '|'); $(grep -h 'cannot\|No such' "$D"/collect[23].out | head -n 2)"; fi
make -s --no-print-directory -C "$W" grade "RESULTS=$R" >"$D/regrade.out" 2>&1
st=$?
if grep -q "^make grade: the grader's status is 1: graded" "$D/regrade.out" && ! grep -Eq 'REJECTED|credited to no one' "$D/regrade.out"; then
    ok "make grade RESULTS='the class.runs' grades the runs again (exit 1, nothing rejected)"
else notok "make grade RESULTS=the runs" "exit $st; $(grep -E 'REJECTED|credited' "$D/regrade.out" | head -n 2)"; fi

# ---- one student again (again.sh), collected while its task waits: no stale run graded, no 0
# (its task waits: the partition is down while it is submitted and collected; a hold after
# the submission could come once the task has started)
scontrol update PartitionName=wbq State=DOWN
sh "$SL/again.sh" 7 >"$D/again.out" 2>&1
j2=$(sed -n 's/^grade: students 7 again: job \([0-9]*\);.*/\1/p' "$D/again.out")
if [ -n "$j2" ] && [ "$(job_field "${j2}_7" JobState)" = PENDING ]; then
    sh "$SL/collect.sbatch" >"$D/collect4.out" 2>&1
    joined "$D/collect4.out" >"$D/collect4.log"
    got=$(awk -F, '$1 == "stub" { print $2 }' "$G")
    if [ "$got" = "" ] && grep -q "^lab01: not graded: its task has not started yet.*job ${j2}_7" "$R/stub/lab01.fail" &&
        [ "$(flag stub)" = "not graded lab01 (task has not started yet: grade it again)" ] &&
        grep -q '^collect: tasks not ended yet: once they have, collect again' "$D/collect4.log"; then
        ok "again.sh 7: collected while its task waits: stub's old run is not graded, no score (job ${j2}_7 named)"
    else notok "again.sh 7: collected while its task waits" "stub: '$got' '$(flag stub)'; $(tail -n 3 "$D/collect4.log")"; fi
    sh "$SL/again.sh" 7 >"$D/again2.out" 2>&1
    st=$?
    if [ $st -eq 2 ] && grep -q "^grade: again: student 7 (stub): task ${j2}_7 is pending" "$D/again2.out" &&
        [ "$(squeue -h -r -o %i | grep -c '_7$')" -eq 1 ]; then
        ok "again.sh 7 while its task waits: refused, one task of stub's only"
    else notok "again.sh 7 twice" "exit $st; $(head -c 300 "$D/again2.out")"; fi
    scontrol update PartitionName=wbq State=UP
    if wait_for 120 job_done "${j2}_7"; then
        sh "$SL/collect.sbatch" >/dev/null 2>&1
        got=$(awk -F, '$1 == "stub" { print $2 }' "$G")
        if [ "$got" = 10 ]; then ok "again.sh 7: once its task ended, collect grades it (stub,10)"
        else notok "again.sh 7: once its task ended, collect grades it" "stub: '$got'"; fi
    else notok "again.sh 7: its task ends" "squeue: $(squeue -h 2>&1 | tr '\n' '|')"; fi
else notok "again.sh 7 submits the task again" "$(head -c 300 "$D/again.out")"; fi
scontrol update PartitionName=wbq State=UP

# ---- the class again, the good student alone; a task of the earlier writing, queued from a
# copy of its script (a path the writing cannot see), released after it: it grades nothing
cp "$SL/array.sbatch" "$D/old array.sbatch"
jold=$(sbatch --parsable --hold --array=1 "$D/old array.sbatch" 2>/dev/null)
jold=${jold%%;*}
# its build job at fault: the setup line fails outside the array (a node without the
# toolkit): the task runs anyway (afterany), a node fault
rm -rf "$S/broken" "$S/hang" "$S/late" "$S/slow" "$S/sols" "$S/stub" "$S/znode"
grade_write ' && [ -n "${SLURM_ARRAY_TASK_ID:-}" ]'
if [ -z "$(ls "$SL/logs")" ] && [ ! -e "$SL/report.txt" ] && [ "$(ls "$R" | tr '\n' ' ')" = "" ]; then
    ok "writing the job scripts again clears the old runs, logs and report"
else notok "the old runs and logs are cleared" "logs: $(ls "$SL/logs" | tr '\n' ' '); runs: $(ls "$R" | tr '\n' ' ')"; fi
if [ -n "$jold" ] && scontrol release "$jold" >/dev/null 2>&1 && wait_for 60 job_done "${jold}_1"; then
    st="$(job_field "${jold}_1" JobState) $(job_field "${jold}_1" ExitCode)"
    if [ "$st" = "FAILED 2:0" ] && joined "$SL/logs/task-$jold-1.log" | grep -q 'it was written again since' &&
        [ ! -e "$SL/state/1.start" ] && [ -z "$(ls "$R")" ]; then
        ok "a task of the earlier writing, run after the class was written again, grades nothing ($st)"
    else notok "a task of the earlier writing grades nothing" "$st; $(head -c 300 "$SL/logs/task-$jold-1.log" 2>/dev/null); $(ls "$R")"; fi
else notok "a task of the earlier writing runs" "'$jold' $(squeue -h 2>&1 | tr '\n' '|')"; fi
submit
if [ -n "$cjid" ] && wait_for 240 job_done "$cjid"; then
    st="$(job_field "$bid" JobState) $(job_field "$bid" ExitCode) $(job_field "${jid}_1" JobState) $(job_field "${jid}_1" ExitCode)"
    got=$(awk -F, 'NR > 1 { printf "%s%s,%s", sep, $1, $2; sep = " " }' "$G" 2>/dev/null)
    if [ "$st" = "FAILED 3:0 FAILED 3:0" ] && [ "$got" = "good," ] &&
        grep -q "^lab01: not graded: the node's fault, .*: the class's build job ($bid) failed (exit 3: the setup line failed" \
            "$R/good/lab01.fail"; then
        ok "a build job whose setup line fails: the task a node fault (exit 3), no 0 ($got)"
    else notok "a build job that fails: the task a node fault, no 0" "$st; gradebook: $got; $(head -c 300 "$R/good/lab01.fail")"; fi
    if grep -q "fix GRADE_SETUP, then write the class again" "$R/good/lab01.fail" && ! grep -q 'sbatch --wait' "$R/good/lab01.fail"; then
        ok "... its advice: fix the setup line and write the class again (no rebuild)"
    else notok "the advice when the class's setup line broke the build" "$(head -n 1 "$R/good/lab01.fail")"; fi
    st="$(job_field "$cjid" JobState) $(job_field "$cjid" ExitCode)"
    joined "$SL/logs/collect-$cjid.log" >"$clog"
    if [ "$st" = "FAILED 3:0" ] && grep -q '^collect: nothing graded: no lab of the class has a result' "$clog"; then
        ok "collect with no lab graded: exit 3, 'nothing graded' (not 'a point was lost')"
    else notok "collect with nothing graded: exit 3" "$st; $(tail -n 4 "$clog" | tr '\n' '|')"; fi
else notok "a build job that fails: the collect job ends" "squeue: $(squeue -h 2>&1 | tr '\n' '|'); $(logs)"; fi

# ---- and again, the build on a node that has what it needs: a clean class exits 0
grade_write
submit
if [ -n "$cjid" ] && wait_for 240 job_done "$cjid"; then
    st="$(job_field "$cjid" JobState) $(job_field "$cjid" ExitCode)"
    got=$(awk -F, 'NR > 1 { printf "%s%s,%s", sep, $1, $2; sep = " " }' "$G" 2>/dev/null)
    if [ "$st" = "COMPLETED 0:0" ] && [ "$got" = "good,25" ]; then
        ok "a clean class: collect exits 0, the gradebook holds it alone ($got)"
    else notok "a clean class: collect exits 0" "$st; gradebook: $got; $(tail -n 3 "$SL"/logs/collect-*.log | tr '\n' '|')"; fi
else notok "a clean class: the collect job ends" "squeue: $(squeue -h 2>&1 | tr '\n' '|'); $(logs)"; fi

summary
[ $F -eq 0 ]
