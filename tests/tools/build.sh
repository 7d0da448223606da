#!/bin/sh
# tests/tools/build.sh - the build and the instructor's copy, without a GPU (POSIX sh):
# `make labNN` twice builds nothing the second time; SOLUTIONS= and the
# handout/handin commands refuse bad input with one line; `make handout`
# writes a copy without solutions or answers where lab01 (the exercise file a
# students' copy changes on the CPU) builds and passes its tests;
# tools/grader/build_student.sh builds a student's lab from their exercise file alone.
# Run from the repository root (tests/run does).
own_tmpd=0
[ -z "${TMPD:-}" ] && own_tmpd=1
. tests/lib.sh
[ $own_tmpd -eq 1 ] && trap 'rm -rf "$TMPD"' EXIT

# make labNN twice: the second time nothing is rebuilt or relinked
make -s lab01 >/dev/null 2>&1
run make lab01
if [ "$STATUS" -eq 0 ] && ! grep -q "LINK\|  CC " "$OUTF"; then
    ok "make lab01 twice: the second builds nothing"
else
    notok "make lab01 twice" "exit $STATUS: $(head -c 300 "$OUTF")"
fi
if command -v "${NVCC:-nvcc}" >/dev/null 2>&1 && [ -x ./lab04 ]; then
    run make lab04
    if [ "$STATUS" -eq 0 ] && ! grep -q "LINK\|NVCC" "$OUTF"; then ok "make lab04 twice: the second builds nothing"
    else notok "make lab04 twice" "exit $STATUS: $(head -c 300 "$OUTF")"; fi
else
    skip "make lab04 twice" "no nvcc or ./lab04 not built"
fi

# plain `make` (no target) builds every lab: a dry run into an empty BIN
# links each of them
run make -n --no-print-directory BIN="$TMPD/plainbin/"
want=$(lab_list device cpu)
command -v "${NVCC:-nvcc}" >/dev/null 2>&1 && want=$(lab_list_parts_last)
want=$(echo $want)
miss=
for l in $want; do grep -q "LINK  *$TMPD/plainbin/$l\"" "$OUTF" || miss="$miss $l"; done
if [ "$STATUS" -eq 0 ] && [ -z "$miss" ]; then ok "plain make builds every lab ($want)"
else notok "plain make builds every lab" "exit $STATUS; not linked:$miss"; fi

# make help names every target a person runs and every variable of the
# Makefile's "things you may set", in lines of at most 100 columns
run make --no-print-directory help
miss=
for t in $(sed -n 's/^\.PHONY: *//p' Makefile | tr ' ' '\n' | grep -vx 'FORCE\|need-nvcc\|solutions-build\|nocdp-build\|test-build\|$(LABS)\|$(SIDES)' | sort -u) \
         $(lab_list | head -n 1) $(lab_list part-of); do
    grep -q "^  $t " "$OUTF" || grep -q "^  $t\.\." "$OUTF" || miss="$miss $t"
done
for v in $(awk '/^# ---- things you may set/ { on = 1; next } on && !NF { exit } on && /^[A-Z_]+ +\?=/ { print $1 }' Makefile); do
    grep -q "^  $v " "$OUTF" || miss="$miss $v"
done
wide=$(awk 'length > 100' "$OUTF" | head -n 1)
if [ "$STATUS" -eq 0 ] && [ -z "$miss" ] && [ -z "$wide" ]; then ok "make help names every target and variable, in 100 columns"
else notok "make help" "exit $STATUS; not named:$miss; ${wide:+too wide: $wide}"; fi

# bad values are refused with one line
run make lab01 SOLUTIONS=yes
if [ "$STATUS" -ne 0 ] && grep -q "SOLUTIONS=yes is not accepted" "$ERRF"; then ok "make SOLUTIONS=yes refused"
else notok "make SOLUTIONS=yes refused" "exit $STATUS: $(head -c 200 "$ERRF")"; fi
expect_usage "handin without NAME" sh tools/grader/handin.sh "" lab01
expect_usage "handin NAME=a/b" sh tools/grader/handin.sh "a/b" lab01
expect_usage "handout without DEST" sh tools/handout.sh ""
mkdir -p "$TMPD/full" && : >"$TMPD/full/x"
expect_usage "handout into a folder that is not empty" sh tools/handout.sh "$TMPD/full"

# handin: lab01 runs on the CPU, so its file can be written here
rm -rf "$TMPD/hi" && mkdir -p "$TMPD/hi"
if [ -x ./lab01 ]; then
    cp -p ./lab01 "$TMPD/hi/lab01.bin"
    run sh tools/grader/handin.sh testkid lab01
    if [ "$STATUS" -eq 0 ] && [ -s handin/testkid-lab01.csv ] && head -n 1 handin/testkid-lab01.csv | grep -q '^lab,device,kernel,' &&
        awk -F, 'NR > 1 && $23 != "kernel" { e++ } END { exit !(e >= 1) }' handin/testkid-lab01.csv; then
        ok "make handin writes handin/NAME-lab01.csv with the exercise rows"
    else
        notok "make handin" "exit $STATUS: $(head -c 300 "$OUTF") $(head -c 200 "$ERRF")"
    fi
    rm -f handin/testkid-lab01.csv
    rmdir handin 2>/dev/null
else
    skip "make handin" "./lab01 not built"
fi

# the handout: no solutions, no answers, and its own CPU tests pass
# (with a stray file and a handin/ folder in the tree, as after make handin:
# the copy holds only the workbook's own files)
H=$TMPD/handout
rm -rf "$H"
stray=wb-stray-test.$$.txt
mkdir -p handin && : >"$stray" && : >"handin/wb-stray-test.$$.csv"
run sh tools/handout.sh "$H"
rm -f "$stray" "handin/wb-stray-test.$$.csv"; rmdir handin 2>/dev/null
if [ "$STATUS" -ne 0 ]; then
    notok "make handout" "exit $STATUS: $(head -c 300 "$ERRF")"
else
    ok "make handout writes the students' copy"
    # (a copy of the workbook that is no git checkout knows no list of its
    # own files: there only handin/ and the outputs are left out)
    if [ "$(git rev-parse --show-toplevel 2>/dev/null)" != "$(pwd -P)" ]; then
        [ -e "$H/handin" ] && notok "handout leaves handin/ out" "copied: $H/handin"
        [ -e "$H/handin" ] || ok "handout leaves handin/ out"
        skip "handout leaves a stray file out" "this tree is no git checkout: every file is the workbook's"
    elif [ -e "$H/$stray" ] || [ -e "$H/handin" ]; then
        notok "handout holds only the workbook's files" "copied: $(ls -d "$H/$stray" "$H/handin" 2>/dev/null | tr '\n' ' ')"
    else
        ok "handout holds only the workbook's files (no stray file, no handin/)"
    fi
    if tail -n 1 "$OUTF" | grep -q 'make lab01'; then ok "handout's last line starts the students at lab01"
    else notok "handout's last line starts at lab01" "$(tail -n 1 "$OUTF")"; fi
    if find "$H" -type d -name solutions | grep -q . || [ -d "$H/docs/.answers" ]; then
        notok "handout has no solutions" "$(find "$H" -type d -name solutions -o -name .answers | head -n 3)"
    else
        ok "handout has no solutions"
    fi
    if [ -e "$H/docs/answers.md" ] || [ -e "$H/docs/tuning.md" ] || [ ! -f "$H/docs/instructor.md" ]; then
        notok "handout has no answers" "docs/answers.md or docs/tuning.md was copied (or docs/instructor.md is missing)"
    else
        ok "handout has no answers (docs/answers.md and docs/tuning.md left out)"
    fi
    for f in $(for l in $(lab_list); do echo "$(lab_get $l folder)/exercises.c $(lab_get $l folder)/exercises.cuh"; done); do
        [ -f "$f" ] || continue
        if cmp -s "$f" "$H/$f"; then ok "handout has the student file $f"; else notok "handout has $f" "missing or different"; fi
    done
    run make -C "$H" SOLUTIONS=1 lab01
    if [ "$STATUS" -ne 0 ] && grep -q "no solutions" "$ERRF"; then ok "handout refuses SOLUTIONS=1 with a reason"
    else notok "handout refuses SOLUTIONS=1" "exit $STATUS: $(head -c 200 "$ERRF")"; fi
    # what a students' copy can change is its exercise files: lab01's (C)
    # builds there and its tests pass (the GPU labs' are the GPU suites',
    # on the stubs as shipped); the rest of its make test is this tree's
    run make --no-print-directory -C "$H" NVCC=no-nvcc-here lab01 build/tests/test_lab01
    if [ "$STATUS" -eq 0 ]; then ok "handout: lab01 and its tests build with gcc alone"
    else notok "handout: lab01 builds" "exit $STATUS: $(tail -n 5 "$OUTF" | tr '\n' ' ' | head -c 400)"; fi
    for t in "build/tests/test_lab01" "sh tests/unit/cli_lab01.sh"; do
        # shellcheck disable=SC2086
        (cd "$H" && TMPD="$TMPD/hrun" && mkdir -p "$TMPD" && export TMPD && $t) >"$TMPD/hout" 2>&1
        st=$?
        f=$(grep -c '^FAIL ' "$TMPD/hout"); p=$(grep -c '^ok ' "$TMPD/hout")
        if [ $st -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ]; then ok "handout: $t passes ($p checks)"
        else notok "handout: $t" "exit $st, $f failed: $(grep '^FAIL ' "$TMPD/hout" | head -n 3 | tr '\n' ' ' | head -c 400)"; fi
    done
fi

# a workbook unpacked inside another git work tree that ignores it (a
# course's repository): its handout still has every file (git's list is the
# outer tree's, not the workbook's)
if [ -d "$H/lab02_neighbored" ] && command -v git >/dev/null 2>&1; then
    O=$TMPD/outer
    rm -rf "$O" "$TMPD/ho2" && mkdir -p "$O" && cp -R "$H" "$O/wb" &&
        (cd "$O" && git init -q . && echo 'wb/' >.gitignore && git add .gitignore &&
            git -c user.name=t -c user.email=t@t commit -q -m t) >/dev/null 2>&1
    run sh "$O/wb/tools/handout.sh" "$TMPD/ho2"
    if [ "$STATUS" -eq 0 ] && [ -f "$TMPD/ho2/lab02_neighbored/lab02.cu" ] && [ -f "$TMPD/ho2/docs/instructor.md" ]; then
        ok "handout of a workbook inside another (ignoring) work tree has every file"
    else
        notok "handout inside another work tree" "exit $STATUS: $(head -c 300 "$ERRF")"
    fi
else
    skip "handout inside another work tree" "no handout or no git here"
fi

# tests/shipped-exercises.cksum names the stubs as handed out; the GPU tests
# check "as shipped" only for a file that matches it. A committed stub that
# does not match it is a stale list (a file you are editing is your work).
while read -r sum size f; do
    have=$(cksum <"$f" 2>/dev/null | awk '{ print $1 " " $2 }')
    if [ "$have" = "$sum $size" ]; then
        ok "shipped-exercises.cksum matches $f"
    elif command -v git >/dev/null 2>&1 && git ls-files --error-unmatch "$f" >/dev/null 2>&1 &&
         git diff --quiet HEAD -- "$f" 2>/dev/null; then
        notok "shipped-exercises.cksum matches $f" "the committed stub's cksum is $have; update the list (cksum $f)"
    else
        skip "shipped-exercises.cksum matches $f" "$f is edited here (your work)"
    fi
done <tests/shipped-exercises.cksum

# tools/grader/build_student.sh: one student's lab from their exercise file alone,
# against objects make student-objects built once, writing nothing outside
# its OUTDIR; 1 for the student's compile error, 2 (one line) for the
# grader's side. lab01 (gcc) in the handout above; lab02 in this tree when
# nvcc has built it, run when there is a GPU.
# fp_of CSV: the fingerprint column of the CSV's first row; exercise_rows CSV: its exercises' rows
fp_of() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fingerprint") c = i; next } { print $c; exit }' "$1"; }
exercise_rows() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "role") c = i; next } $c != "kernel" { n++ } END { print n + 0 }' "$1"; }
# ro OUTDIR CMD...: CMD with only OUTDIR writable (bubblewrap, where it runs here), else CMD
ro() {
    rw=$1; shift
    if command -v bwrap >/dev/null 2>&1 && bwrap --ro-bind / / --dev /dev true 2>/dev/null; then
        bwrap --ro-bind / / --bind "$rw" "$rw" --dev /dev --proc /proc "$@"
    else
        "$@"
    fi
}
ro_how="with only OUTDIR writable (bwrap)"
command -v bwrap >/dev/null 2>&1 && bwrap --ro-bind / / --dev /dev true 2>/dev/null || ro_how="(no bwrap here)"
if [ -f "$H/lab01_cpu_reduce/exercises.c" ]; then
    B=$TMPD/bs
    rm -rf "$B" && mkdir -p "$B/tmp" "$B/out"
    run make --no-print-directory -C "$H" NVCC=no-nvcc-here student-objects
    if [ "$STATUS" -eq 0 ] && [ -f "$H/build/student/lab01.sh" ]; then ok "make student-objects (lab01, gcc alone)"
    else notok "make student-objects" "exit $STATUS: $(tail -n 3 "$ERRF" | tr '\n' ' ' | head -c 300)"; fi
    : >"$B/marker"
    sleep 1
    run ro "$B/out" env TMPDIR="$B/tmp" sh "$H/tools/grader/build_student.sh" lab01 "$H/lab01_cpu_reduce/exercises.c" "$B/out"
    if [ "$STATUS" -eq 0 ] && [ -x "$B/out/lab01" ]; then ok "build_student.sh builds lab01 from the stub $ro_how"
    else notok "build_student.sh builds lab01" "exit $STATUS: $(head -c 300 "$ERRF")"; fi
    wrote=$(find "$H" "$B/tmp" -newer "$B/marker" 2>/dev/null | head -n 3 | tr '\n' ' ')
    if [ -z "$wrote" ]; then ok "build_student.sh writes nothing outside OUTDIR (workbook, TMPDIR)"
    else notok "build_student.sh writes nothing outside OUTDIR" "written: $wrote"; fi
    (cd "$B/out" && ./lab01 --exercises --csv) >"$B/ex.csv" 2>"$B/ex.err"
    st=$?
    want=$(cksum <"$H/lab01_cpu_reduce/exercises.c" | awk '{ printf "%08x", $1 }')
    if [ $st -le 1 ] && [ "$(exercise_rows "$B/ex.csv")" -eq 3 ] && [ "$(fp_of "$B/ex.csv")" = "$want" ]; then
        ok "the student's lab01 runs --exercises (3 rows), fingerprint the file's cksum"
    else
        notok "the student's lab01 runs --exercises" "exit $st, $(exercise_rows "$B/ex.csv") rows, fingerprint $(fp_of "$B/ex.csv") (want $want): $(head -c 200 "$B/ex.err")"
    fi
    sed 's/^int /int oops(/' "$H/lab01_cpu_reduce/exercises.c" >"$B/broken.c"
    run sh "$H/tools/grader/build_student.sh" lab01 "$B/broken.c" "$B/out"
    if [ "$STATUS" -eq 1 ] && grep -q 'lab01_cpu_reduce/exercises.c:[0-9]*:[0-9]*: error' "$ERRF" && [ ! -e "$B/out/lab01" ]; then
        ok "build_student.sh: the student's compile error exits 1, the compiler's lines on stderr"
    else
        notok "build_student.sh: a compile error" "exit $STATUS (want 1): $(head -c 300 "$ERRF")"
    fi
    expect_usage "build_student.sh: an unknown lab" sh "$H/tools/grader/build_student.sh" lab9x "$B/broken.c" "$B/out"
    expect_usage "build_student.sh: DLCM other than the objects'" \
        env DLCM=cg sh "$H/tools/grader/build_student.sh" lab01 "$B/broken.c" "$B/out"
    mv "$H/build/student/lab01.sh" "$B/lab01.sh"
    expect_usage "build_student.sh: no prebuilt objects exits 2" \
        sh "$H/tools/grader/build_student.sh" lab01 "$H/lab01_cpu_reduce/exercises.c" "$B/out"
    grep -q "student-objects" "$ERRF" || notok "build_student.sh: no objects names make student-objects" "$(cat "$ERRF")"
    mv "$B/lab01.sh" "$H/build/student/lab01.sh"
    o=$H/build/lab01_cpu_reduce/run.o
    mv "$o" "$o.away"
    expect_usage "build_student.sh: an object missing exits 2" \
        sh "$H/tools/grader/build_student.sh" lab01 "$H/lab01_cpu_reduce/exercises.c" "$B/out"
    mv "$o.away" "$o"
    touch "$H/common/text.c"
    expect_usage "build_student.sh: a source changed since the objects exits 2" \
        sh "$H/tools/grader/build_student.sh" lab01 "$H/lab01_cpu_reduce/exercises.c" "$B/out"
else
    skip "build_student.sh on lab01" "no handout was made"
fi
# (make test-build makes this tree's student objects)
B=$TMPD/bs2
rm -rf "$B" && mkdir -p "$B/out"
STATUS=2
[ -x ./lab02 ] && [ -f build/student/lab02.sh ] && command -v "${NVCC:-nvcc}" >/dev/null 2>&1 &&
    run ro "$B/out" sh tools/grader/build_student.sh lab02 lab02_neighbored/exercises.cuh "$B/out"
if [ "$STATUS" -eq 2 ]; then
    skip "build_student.sh on lab02" "no nvcc, or this tree's lab02 and its student objects not built as one (make test-build)"
else
    if [ "$STATUS" -eq 0 ] && (cd "$B/out" && ./lab02 --list) >"$B/list" 2>&1 && ./lab02 --list | cmp -s - "$B/list"; then
        ok "build_student.sh builds lab02 (nvcc) $ro_how: its --list is make lab02's"
    else
        notok "build_student.sh builds lab02" "exit $STATUS: $(head -c 300 "$ERRF")"
    fi
    { cat lab02_neighbored/exercises.cuh; echo '__global__ void oops(int *p) { p[0] = undeclared; }'; } >"$B/broken.cuh"
    run sh tools/grader/build_student.sh lab02 "$B/broken.cuh" "$B/out"
    if [ "$STATUS" -eq 1 ] && grep -q 'lab02_neighbored/exercises.cuh([0-9]*): error' "$ERRF"; then
        ok "build_student.sh: a CUDA compile error exits 1"
    else
        notok "build_student.sh: a CUDA compile error" "exit $STATUS (want 1): $(head -c 300 "$ERRF")"
    fi
    if nvidia-smi -L >/dev/null 2>&1; then
        run sh tools/grader/build_student.sh lab02 lab02_neighbored/exercises.cuh "$B/out"
        (cd "$B/out" && ./lab02 --exercises --csv -n 100003) >"$B/ex.csv" 2>"$B/ex.err"
        st=$?
        want=$(cksum <lab02_neighbored/exercises.cuh | awk '{ printf "%08x", $1 }')
        if [ $st -le 1 ] && [ "$(exercise_rows "$B/ex.csv")" -eq 3 ] && [ "$(fp_of "$B/ex.csv")" = "$want" ]; then
            ok "the student's lab02 runs --exercises (3 rows), fingerprint the file's cksum"
        else
            notok "the student's lab02 runs --exercises" "exit $st: $(head -c 300 "$B/ex.err")"
        fi
    else
        skip "the student's lab02 runs --exercises" "no GPU here"
    fi
fi
