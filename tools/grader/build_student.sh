#!/bin/sh
# tools/grader/build_student.sh - one lab built from one student's exercise file, in
# a folder of its own, against the workbook's objects built once (POSIX sh).
#
#   make student-objects CUDA_ARCH=90        once per class (same DLCM, NOCDP as the runs')
#   sh tools/grader/build_student.sh LAB EXFILE OUTDIR
#
# LAB is lab01 .. lab06, EXFILE the student's exercise file for it
# (labNN_*/exercises.cuh; lab01: exercises.c). Only that file is compiled:
# in OUTDIR, laid out as the workbook, it becomes OUTDIR/labNN_*/exercises.cuh
# beside a copy of the lab's exercises.cu, the one unit that includes it, and
# OUTDIR/build/labNN_*/exercises.o; OUTDIR/build/buildinfo/LAB.c carries its
# fingerprint (the cksum of EXFILE), and OUTDIR/LAB is linked with the lab's
# other objects from the workbook's build/ (build/student/LAB.sh says how:
# make student-objects writes it with the compiler lines of make LAB).
# Nothing is written outside OUTDIR (the compilers' temporary files go to
# OUTDIR/build/tmp, removed after): the workbook may be read-only.
# Exit status: 0 built; 1 the student's file did not compile or link (the
# compiler's messages on stderr, paths as in the workbook); 2 the grader's
# side: bad usage, the prebuilt objects missing or stale, or the compiler
# missing (one line on stderr, naming the make command that fixes it).
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$(dirname "$here")")
lab=${1:-}; ex=${2:-}; out=${3:-}
LABS_CONF=$top/tools/labs.conf
. "$top/tools/labs.sh"
labs=$(lab_list | sed -n '1p;$p' | paste -sd' ' - | sed 's/ / .. /') # lab01 .. lab06
usage="usage: sh tools/grader/build_student.sh LAB EXFILE OUTDIR (LAB: $labs)"
case $lab in
    lab[0-9][0-9]) ;;
    *) echo "build_student: LAB '$lab' is not a lab ($labs); $usage" >&2; exit 2 ;;
esac
if [ -z "$out" ] || [ $# -ne 3 ]; then echo "build_student: $usage" >&2; exit 2; fi
if [ ! -f "$ex" ] || [ ! -r "$ex" ]; then
    echo "build_student: EXFILE '$ex' is not a readable file; $usage" >&2
    exit 2
fi

conf=$top/build/student/$lab.sh
remake="make -C '$top' student-objects"
if [ ! -f "$conf" ]; then
    echo "build_student: no prebuilt objects for $lab ($conf): the grader's side, run $remake" \
        "once, with the runs' CUDA_ARCH, DLCM and NOCDP" >&2
    exit 2
fi
# (what it sets; the functions compile_unit, compile_c and link_lab too)
settings='' build_id='' lab_dir='' lab_file='' lab_unit='' compiler='' objects='' flags='' buildinfo_c=''
# shellcheck source=/dev/null # written by make student-objects
if ! . "$conf" || [ -z "$lab_dir" ] || ! command -v link_lab >/dev/null 2>&1; then
    echo "build_student: $conf is not make student-objects' (or an older make's): run $remake" >&2
    exit 2
fi
remake="$remake $settings"

# the prebuilt side: the compiler, the objects, their flags, and no source
# of theirs changed since (the student's file is not theirs)
if ! command -v "$compiler" >/dev/null 2>&1; then
    echo "build_student: $compiler not found (PATH=$PATH): the grader's side; $lab needs it" >&2
    exit 2
fi
for v in $settings; do
    eval "now=\${${v%%=*}:-}"
    if [ -n "$now" ] && [ "${v%%=*}=$now" != "$v" ]; then
        echo "build_student: ${v%%=*}=$now here, but the objects were built with $v: run $remake" \
            "${v%%=*}=$now (or leave ${v%%=*} out)" >&2
        exit 2
    fi
done
for o in $objects; do
    case $o in /*) ;; *) o=$top/$o ;; esac
    if [ ! -f "$o" ]; then
        echo "build_student: $o is missing: the grader's side, run $remake" >&2
        exit 2
    fi
    if [ -n "$(find "$o" -newer "$conf" 2>/dev/null)" ]; then
        echo "build_student: $o was rebuilt after make student-objects (another make?): run $remake" >&2
        exit 2
    fi
done
# shellcheck disable=SC2086 # the flags files' names hold no blank
if ! (cd "$top" && cat /dev/null $flags | cmp -s - "$top/build/student/$lab.flags"); then
    echo "build_student: $lab's objects were rebuilt with other flags since make student-objects:" \
        "run $remake" >&2
    exit 2
fi
newer=$(cd "$top" && find common "$lab_dir" Makefile -newer "$conf" -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name Makefile \) \
    ! -path '*/solutions/*' ! -path "$lab_dir/$lab_file" ! -path "$lab_dir/$lab_unit" 2>/dev/null | head -n 1)
if [ -n "$newer" ]; then
    echo "build_student: $newer changed after make student-objects: the objects are stale, run $remake" >&2
    exit 2
fi

# the student's side, in OUTDIR
mkdir -p "$out" || { echo "build_student: cannot make OUTDIR $out" >&2; exit 2; }
out=$(cd "$out" && pwd) || exit 2
rm -f "$out/$lab"
mkdir -p "$out/$lab_dir" "$out/build/$lab_dir" "$out/build/buildinfo" "$out/build/tmp" || exit 2
cp "$ex" "$out/$lab_dir/$lab_file" || exit 2
[ "$lab_unit" = "$lab_file" ] || cp "$top/$lab_dir/$lab_unit" "$out/$lab_dir/$lab_unit" || exit 2
TMPDIR=$out/build/tmp
export TMPDIR
trap 'rm -rf "$out/build/tmp"' EXIT
trap 'exit 2' INT TERM
cd "$out" || exit 2

# the student's unit: the only compile that can fail on the student's file
compile_unit -c -o "build/$lab_dir/exercises.o" "$lab_dir/$lab_unit" >&2 || exit 1

# the fingerprint (the cksum of the file built) in the build's buildinfo
fp=$(cksum <"$lab_dir/$lab_file" | awk '{ printf "%08x", $1 }')
# shellcheck disable=SC2059 # the format is the Makefile's BUILDINFO_C
printf "$buildinfo_c" "$build_id" "$fp" >"build/buildinfo/$lab.c" || exit 2
if ! compile_c -c -o "build/buildinfo/$lab.o" "build/buildinfo/$lab.c" >&2; then
    echo "build_student: the buildinfo did not compile (the grader's side)" >&2
    exit 2
fi

# the link, in the order of make's: the lab's objects, the common ones, the buildinfo
set --
for o in $objects; do
    case $o in /*) ;; *) o=$top/$o ;; esac
    set -- "$@" "$o"
done
link_lab -o "$lab" "build/$lab_dir/exercises.o" "$@" "build/buildinfo/$lab.o" >&2 || exit 1
exit 0
