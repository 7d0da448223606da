#!/bin/sh
# tools/grader/handin.sh - a student's results, one CSV per lab (make handin NAME=alice),
# or their exercise files as one archive (make submit NAME=alice).
#
#   sh tools/grader/handin.sh NAME lab01 lab02 ...
#   sh tools/grader/handin.sh --sources NAME
#
# Runs every lab given that is built here (./labNN) with --exercises --csv
# and writes handin/NAME-labNN.csv: the shipped kernels' rows and, under each
# reference row, your exercises' rows (todo, PASS or FAIL), with the build,
# the time of the run and the fingerprint of your exercise file. A lab that is
# not built, or a GPU lab on a machine without a usable GPU, is named in one
# line and left out (build it: make labNN; run it where the GPU is). Hand in
# the files handin/NAME-lab*.csv (or the folder handin/: every file's name
# carries yours). A FAIL or todo row is handed in as it is.
#
# --sources (make submit) writes handin/NAME-sources.tar: each lab's exercise
# file as it is in your copy (lab01_cpu_reduce/exercises.c,
# lab02_neighbored/exercises.cuh, ...), laid out as the workbook, and
# handin.cksum, those files with each one's checksum and size (cksum): your
# instructor's grader builds and runs your labs from exactly these files. A
# file you reach through a link is stored as the file itself. Hand in
# handin/NAME-sources.tar as it is.
# Exit status: 0 every lab that could run here was written (--sources: the
# archive was written); 1 a lab failed to run (a CUDA error, a crash); 2 bad
# usage (--sources: or no exercise file here).
cd "$(dirname "$0")/../.." || exit 2

me=handin; target=handin
[ "${1:-}" = --sources ] && { me=submit; target=submit; shift; }
name=${1:-}
[ $# -gt 0 ] && shift
case $name in
    "") echo "$me: say who you are: make $target NAME=yourname (letters, digits, . _ and - only)" >&2; exit 2 ;;
    *[!A-Za-z0-9._-]*|-*) echo "$me: NAME='$name' has a character that does not belong in a file name; use letters, digits, . _ and - only" >&2; exit 2 ;;
esac

mkdir -p handin || exit 2

# make submit: the exercise files, each copied as a plain file (never a link
# into the archive), and the manifest, into one tar
if [ "$me" = submit ]; then
    files=$(sh tools/grader/grade_task.sh --labs . | awk '{ print $2 }')
    if [ -z "$files" ]; then
        echo "submit: no exercise file here (lab02_neighbored/exercises.cuh, ...): run it in your copy of the workbook" >&2
        exit 2
    fi
    out=handin/$name-sources.tar
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/submit.XXXXXX") || exit 2
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 2' INT TERM
    umask 022
    for f in $files; do
        mkdir -p "$tmp/${f%/*}" && cat "$f" >"$tmp/$f" || exit 2
    done
    {
        echo "# make submit NAME=$name: the exercise files: checksum, bytes, file (cksum)"
        (cd "$tmp" && for f in $files; do printf '%s %s\n' "$(cksum <"$f" | awk '{ print $1, $2 }')" "$f"; done)
    } >"$tmp/handin.cksum"
    # shellcheck disable=SC2086 # the files' names hold no blank
    if ! (cd "$tmp" && tar -cf - handin.cksum $files) >"$out.new"; then
        rm -f "$out.new"; echo "submit: could not write $out" >&2; exit 2
    fi
    mv -f "$out.new" "$out" || exit 2
    echo "submit: $out: $(echo $files | wc -w | tr -d ' ') exercise files and their checksums (handin.cksum):"
    sed 1d "$tmp/handin.cksum" | sed 's/^/  /'
    echo "submit: hand in $out as it is"
    exit 0
fi

status=0
written=
for lab in "$@"; do
    if [ ! -x "./$lab" ]; then
        echo "handin: $lab left out: ./$lab is not built (make $lab)"
        continue
    fi
    out=handin/$name-$lab.csv
    "./$lab" --exercises --csv >"$out.new" 2>"$out.err"
    st=$?
    if [ $st -eq 3 ] && grep -q 'no usable CUDA device' "$out.err"; then
        echo "handin: $lab left out: no usable CUDA device here (run make handin where the GPU is)"
        rm -f "$out.new" "$out.err"
        continue
    fi
    if [ $st -ne 0 ] && [ $st -ne 1 ]; then
        echo "handin: $lab left out: ./$lab --exercises --csv exited $st: $(head -n 1 "$out.err")" | cut -c1-100
        rm -f "$out.new" "$out.err"
        status=1
        continue
    fi
    mv -f "$out.new" "$out"
    rm -f "$out.err"
    awk -F, -v out="$out" 'NR > 1 && $23 != "kernel" { n++; s[$NF]++ }
        END { printf "handin: %-28s %d exercise%s: %d PASS, %d FAIL, %d todo\n", out, n, n == 1 ? "" : "s",
              s["PASS"], s["FAIL"], s["todo"] }' "$out"
    written="$written $out"
done
if [ -z "$written" ]; then
    echo "handin: nothing written; build the labs first (make all)" >&2
    exit 1
fi
echo "handin: hand in the files above (their names carry yours: the folder handin/ is fine too)"
exit $status
