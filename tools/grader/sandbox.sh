#!/bin/sh
# tools/grader/sandbox.sh - a student's build or run inside bubblewrap (POSIX sh).
#
#   sh tools/grader/sandbox.sh check              usable here? exit 0; else one line why, exit 1
#   sh tools/grader/sandbox.sh scope              "yes" where systemd-run --scope can cap memory
#   sh tools/grader/sandbox.sh build COPY CMD...  CMD in the sandbox, COPY writable (a build)
#   sh tools/grader/sandbox.sh run COPY CMD...    CMD in the sandbox, COPY read-only (a run)
#
# The sandbox (tools/grader/grade_task.sh runs every build and every run of a
# student's code in it): new user, PID, IPC, UTS, network and cgroup
# namespaces; a read-only root holding only the system's folders (/usr,
# /bin, /lib*, /etc), the toolkit's (the folders of make, the C compiler and
# nvcc where they are elsewhere) and GRADE_SANDBOX_BIND's; COPY, the
# student's own folder, at its own path (writable for a build only);
# GRADE_SANDBOX_WORKBOOK, read-only at its own path (tools/grader/grade_task.sh
# sets it for a build: the class's handout copy, built, that
# tools/grader/build_student.sh links the student's file against); a private /tmp
# (GRADE_TMP_MB, default 64 MiB for a run, 1024 for a build), a minimal
# /dev with the GPU's nodes (/dev/nvidia*, /dev/dri), a private /dev/shm
# (16 MiB), /sys read-only, a /proc of its own. The class, the other
# students, the runs, the grader's records and $HOME are not in it. The
# environment is cleared but for PATH, the CUDA and compiler settings and
# the locale; HOME and TMPDIR are /tmp. --die-with-parent: it
# ends with the grader; its PID namespace: when CMD ends, every process it
# started ends with it. Run as root, it runs as GRADE_SANDBOX_UID (default
# 65534, nobody; COPY must be theirs for a build).
# Limits inside (prlimit): processes and threads GRADE_PROCS (default 256;
# counted in the sandbox's own user namespace, Linux 5.14 and later), the
# size of a file GRADE_FILE_MB (default 256), for a build the address space
# 8 GiB; where `systemd-run --scope` works, the memory GRADE_MEMORY (default
# 8G, cgroup v2 MemoryMax; not RLIMIT_AS for a run: CUDA maps huge address
# ranges) and tasks. No network. The time limit and the output's size are
# the grader's (tools/grader/grade_task.sh).
# GRADE_SANDBOX=none: CMD runs as it is, with the grader's rights (the
# report then says "graded WITHOUT a sandbox"). GRADE_SANDBOX=apptainer: in
# `apptainer exec --nv --containall` of the image GRADE_APPTAINER_IMAGE (the
# toolkit in it), COPY bound (read-only for a run), the same limits, more
# options in GRADE_APPTAINER_OPTS (e.g. --net --network none): a site's
# choice, not tested here (docs/cluster.md).
# Exit status: CMD's (128+N: killed by signal N); check: 0 usable, 1 not.
here=$(cd "$(dirname "$0")" && pwd) || exit 2

# why_not: empty where a sandbox can start here, else one line saying what to install
why_not() {
    case ${GRADE_SANDBOX:-bwrap} in bwrap | apptainer | none) ;; *)
        echo "GRADE_SANDBOX='$GRADE_SANDBOX' is not bwrap (the default), apptainer or none"; return ;;
    esac
    if [ "${GRADE_SANDBOX:-bwrap}" = apptainer ]; then
        command -v apptainer >/dev/null 2>&1 || { echo "apptainer is not installed (GRADE_SANDBOX=apptainer)"; return; }
        [ -n "${GRADE_APPTAINER_IMAGE:-}" ] ||
            { echo "GRADE_SANDBOX=apptainer needs GRADE_APPTAINER_IMAGE, an image with the toolkit"; return; }
        t=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-check.XXXXXX") || { echo "cannot make a temp folder"; return; }
        out=$(sh "$here/sandbox.sh" run "$t" /bin/sh -c 'echo sandboxed' 2>&1)
        [ "$out" = sandboxed ] || echo "apptainer cannot start $GRADE_APPTAINER_IMAGE here: $(echo "$out" | head -n 1 | cut -c 1-80)"
        rmdir "$t" 2>/dev/null
        return
    fi
    if ! command -v bwrap >/dev/null 2>&1; then
        echo "bubblewrap is not installed: install it (apt-get install bubblewrap; dnf install" \
            "bubblewrap), or GRADE_SANDBOX=none to run the students' code with your rights"
        return
    fi
    if ! command -v prlimit >/dev/null 2>&1; then
        echo "prlimit is not installed: install util-linux, or GRADE_SANDBOX=none to run the" \
            "students' code with your rights"
        return
    fi
    t=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-check.XXXXXX") || { echo "cannot make a temp folder"; return; }
    [ "$(id -u)" -eq 0 ] && chown "${GRADE_SANDBOX_UID:-65534}:${GRADE_SANDBOX_UID:-65534}" "$t"
    if ! out=$(GRADE_SANDBOX_SCOPE=no sh "$here/sandbox.sh" run "$t" /bin/sh -c 'echo sandboxed' 2>&1) ||
        [ "$out" != sandboxed ]; then
        echo "bubblewrap cannot start a sandbox here (user namespaces off? sysctl" \
            "user.max_user_namespaces, kernel.unprivileged_userns_clone): $(echo "$out" | head -n 1 | cut -c 1-80)"
    fi
    rmdir "$t" 2>/dev/null
}

# scope_ok: systemd-run can put a command in a scope of its own (cgroup v2 limits)
scope_ok() {
    command -v systemd-run >/dev/null 2>&1 || return 1
    [ -f /sys/fs/cgroup/cgroup.controllers ] || return 1
    if [ "$(id -u)" -eq 0 ]; then systemd-run --quiet --scope -p MemoryMax=1G true >/dev/null 2>&1
    else systemd-run --user --quiet --scope -p MemoryMax=1G true >/dev/null 2>&1; fi
}

mode=${1:-}
case $mode in
    check) w=$(why_not); [ -z "$w" ] && exit 0; echo "$w"; exit 1 ;;
    scope) if scope_ok; then echo yes; else echo no; fi; exit 0 ;;
    build | run) ;;
    *) echo "sandbox: usage: sh tools/grader/sandbox.sh check | scope | build COPY CMD... | run COPY CMD..." >&2; exit 2 ;;
esac
copy=${2:-}
shift 2 2>/dev/null || { echo "sandbox: usage: sh tools/grader/sandbox.sh $mode COPY CMD..." >&2; exit 2; }
[ $# -gt 0 ] && [ -d "$copy" ] || { echo "sandbox: usage: sh tools/grader/sandbox.sh $mode COPY CMD... (COPY a folder)" >&2; exit 2; }
copy=$(cd "$copy" && pwd -P)

procs=${GRADE_PROCS:-256}
fsize=$(( ${GRADE_FILE_MB:-256} * 1048576 ))
if [ "$mode" = build ]; then tmpmb=${GRADE_TMP_MB:-1024}; else tmpmb=${GRADE_TMP_MB:-64}; fi
limits="prlimit --nproc=$procs --fsize=$fsize --core=0"
[ "$mode" = build ] && limits="$limits --as=8589934592"

case ${GRADE_SANDBOX:-bwrap} in
    none) cd "$copy" && exec "$@" ;;
    bwrap) ;;
    apptainer)
        ro=; [ "$mode" = run ] && ro=:ro
        # shellcheck disable=SC2086 # the limits and the site's options are words
        exec apptainer exec --nv --containall --no-home --pwd "$copy" --bind "$copy:$copy$ro" \
            ${GRADE_SANDBOX_WORKBOOK:+--bind "$GRADE_SANDBOX_WORKBOOK:$GRADE_SANDBOX_WORKBOOK:ro"} \
            --env HOME=/tmp,TMPDIR=/tmp ${GRADE_APPTAINER_OPTS:-} "$GRADE_APPTAINER_IMAGE" $limits -- "$@" ;;
    *) echo "sandbox: GRADE_SANDBOX='$GRADE_SANDBOX' is not bwrap, apptainer or none" >&2; exit 2 ;;
esac

# ---- the bwrap command line, each argument quoted, in $a --------------------------
a=
add() { # ARGS...: each quoted for sh (no process started but for a value with a quote)
    for x in "$@"; do
        case $x in *\'*) x=$(printf '%s' "$x" | sed "s/'/'\\\\''/g") ;; esac
        a="$a '$x'"
    done
}
add --unshare-user --unshare-pid --unshare-ipc --unshare-uts --unshare-net --unshare-cgroup-try
add --die-with-parent --new-session --hostname sandbox
sys=" /usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc "
for d in $sys; do
    if [ -L "$d" ]; then add --symlink "$(readlink "$d")" "$d"
    elif [ -d "$d" ]; then add --ro-bind "$d" "$d"; fi
done
# covered IN: IN lies under a folder already in the sandbox (or is /)
covered() {
    case $1 in /) return 0 ;; esac
    for d in $sys $bound; do case $1/ in "$d"/*) return 0 ;; esac; done
    return 1
}
# hidden R: R holds $HOME, the copy or a folder of GRADE_SANDBOX_HIDE (the
# grader's: the class, the runs, the workbook), so it may not be in the sandbox
hidden() {
    oifs=$IFS; IFS=:
    for h in "${HOME:-/nonexistent}" "$copy" ${GRADE_SANDBOX_HIDE:-}; do
        case "$h/" in "$1"/*) IFS=$oifs; return 0 ;; esac
    done
    IFS=$oifs
    return 1
}
# the toolkit's folders: the root of each tool (its bin/'s parent), unless that
# holds a hidden folder (then the tool's own folder only)
bound=
cc=${CC:-gcc}; nvcc=${NVCC:-nvcc}
for t in make "${cc%% *}" "${nvcc%% *}"; do
    p=$(command -v "$t" 2>/dev/null) || continue
    case $p in /*) ;; *) continue ;; esac
    p=$(readlink -f "$p" 2>/dev/null || echo "$p")
    bin=$(dirname "$p"); root=$(dirname "$bin")
    for r in "$root" "$bin"; do
        hidden "$r" && continue
        covered "$r" || { add --ro-bind "$r" "$r"; bound="$bound $r"; }
        break
    done
done
oldifs=$IFS; IFS=:
for r in ${GRADE_SANDBOX_BIND:-} ${LD_LIBRARY_PATH:-}; do
    IFS=$oldifs
    case $r in /*) ;; *) continue ;; esac # (an absolute folder only)
    [ -d "$r" ] && ! hidden "$r" || continue
    covered "$r" || { add --ro-bind "$r" "$r"; bound="$bound $r"; }
done
IFS=$oldifs
add --proc /proc --dev /dev
for n in /dev/nvidia* /dev/dri; do [ -e "$n" ] && add --dev-bind "$n" "$n"; done
add --size 16777216 --tmpfs /dev/shm --remount-ro /dev
[ -d /sys ] && add --ro-bind /sys /sys
add --size $((tmpmb * 1048576)) --tmpfs /tmp
[ -n "${GRADE_SANDBOX_WORKBOOK:-}" ] && add --ro-bind "$GRADE_SANDBOX_WORKBOOK" "$GRADE_SANDBOX_WORKBOOK"
if [ "$mode" = build ]; then add --bind "$copy" "$copy"; else add --ro-bind "$copy" "$copy"; fi
add --chdir "$copy" --remount-ro / --clearenv
for v in PATH LD_LIBRARY_PATH CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER CUDA_HOME CUDA_PATH CC NVCC CUDA_ARCH \
    CFLAGS NVFLAGS LANG LC_ALL; do
    eval "val=\${$v-}"
    eval "isset=\${$v+x}"
    [ -n "$isset" ] && add --setenv "$v" "$val"
done
add --setenv HOME /tmp --setenv TMPDIR /tmp
# shellcheck disable=SC2086
add $limits --

pre=
if [ "$(id -u)" -eq 0 ]; then
    u=${GRADE_SANDBOX_UID:-65534}
    pre="setpriv --reuid=$u --regid=$u --clear-groups"
fi
[ -z "${GRADE_SANDBOX_SCOPE:-}" ] && { if scope_ok; then GRADE_SANDBOX_SCOPE=yes; else GRADE_SANDBOX_SCOPE=no; fi; }
if [ "$GRADE_SANDBOX_SCOPE" = yes ]; then
    user=; [ "$(id -u)" -eq 0 ] || user=--user
    pre="systemd-run $user --quiet --scope -p MemoryMax=${GRADE_MEMORY:-8G} -p MemorySwapMax=0 -p TasksMax=$((procs + 16)) $pre"
fi
eval "exec $pre bwrap $a \"\$@\""
