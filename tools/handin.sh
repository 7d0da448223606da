#!/bin/sh
# tools/handin.sh - a student's results, one CSV per lab (make handin NAME=alice).
#
#   sh tools/handin.sh NAME lab01 lab02 ...
#
# Runs every lab given that is built here (./labNN) with --exercises --csv
# and writes handin/NAME-labNN.csv: the shipped kernels' rows and, under each
# reference row, your exercises' rows (todo, PASS or FAIL), with the build,
# the time of the run and the fingerprint of your exercise file. A lab that is
# not built, or a GPU lab on a machine without a usable GPU, is named in one
# line and left out (build it: make labNN; run it where the GPU is). Hand in
# the files handin/NAME-lab*.csv (or the folder handin/: every file's name
# carries yours). A FAIL or todo row is handed in as it is.
# Exit status: 0 every lab that could run here was written; 1 a lab failed
# to run (a CUDA error, a crash); 2 bad usage.
cd "$(dirname "$0")/.." || exit 2

name=$1
[ $# -gt 0 ] && shift
case $name in
    "") echo "handin: say who you are: make handin NAME=yourname (letters, digits, . _ and - only)" >&2; exit 2 ;;
    *[!A-Za-z0-9._-]*|-*) echo "handin: NAME='$name' has a character that does not belong in a file name; use letters, digits, . _ and - only" >&2; exit 2 ;;
esac

mkdir -p handin || exit 2
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
