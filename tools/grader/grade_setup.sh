#!/bin/sh
# tools/grader/grade_setup.sh - GRADE_SETUP, the site's line that puts the toolkit on
# PATH (e.g. `module load cuda`), run as every grading job runs it, then a
# command with what the line set (POSIX sh).
#
#   sh tools/grader/grade_setup.sh CMD [ARG...]
#
# The line runs in bash where there is one (a site's `module` is a bash
# function), with the site's module command loaded where the line uses it
# (/etc/profile.d/modules.sh, Lmod's), its output appended to
# GRADE_SETUP_LOG (default /dev/null); then CMD runs in its place, with
# every variable the line set exported and GRADE_SETUP_STATUS, the line's
# exit status (an `exit` in the line included): CMD runs whatever the line
# did, and says what a failure means. Without GRADE_SETUP: CMD, status 0.
# tools/grader/grade_task.sh (a student) and tools/grader/grade_slurm.sh (a class's
# build job) start again through it.
[ $# -gt 0 ] || { echo "grade_setup: usage: sh tools/grader/grade_setup.sh CMD [ARG...]" >&2; exit 2; }
GRADE_SETUP_STATUS=0
export GRADE_SETUP_STATUS
[ -n "${GRADE_SETUP:-}" ] || exec "$@"
# CMD, each word quoted for the shell that runs it after the line
GRADE_SETUP_CMD=
for a in "$@"; do GRADE_SETUP_CMD="$GRADE_SETUP_CMD '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done
GRADE_SETUP_LOG=${GRADE_SETUP_LOG:-/dev/null}
export GRADE_SETUP_CMD GRADE_SETUP_LOG
sh_=sh
command -v bash >/dev/null 2>&1 && sh_=bash
exec $sh_ -c '
    case $GRADE_SETUP in *module*|ml\ *)
        for f in /etc/profile.d/modules.sh /etc/profile.d/lmod.sh /etc/profile.d/z00_lmod.sh \
            /usr/share/lmod/lmod/init/bash /usr/share/Modules/init/bash; do
            command -v module >/dev/null 2>&1 && break
            [ -r "$f" ] && . "$f" >/dev/null 2>&1
        done ;;
    esac
    trap '\''GRADE_SETUP_STATUS=$?; export GRADE_SETUP_STATUS; eval "exec $GRADE_SETUP_CMD"'\'' EXIT
    set -a
    eval "$GRADE_SETUP" >>"$GRADE_SETUP_LOG" 2>&1 </dev/null'
