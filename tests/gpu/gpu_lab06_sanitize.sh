#!/bin/sh
# tests/gpu/gpu_lab06_sanitize.sh - lab06's fix-it exercises as shipped under
# compute-sanitizer: they store nothing outside out, whatever the rectangle
# (memcheck), and racecheck names transposeSmemNoSync's race (the chapter's
# demo). A suite of its own so that tests/run runs it beside gpu_lab06.sh:
# the sanitizer's runs are the slowest of lab06's. POSIX sh.
# gpu-memory: 256 MiB (tests/run: 300x200 and smaller, and the sanitizer's own)
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

L=./lab06
EX=lab06_transpose/exercises.cuh
if [ ! -x "$L" ]; then
    notok "lab06 fix-its under compute-sanitizer" "$L not built (make lab06)"
elif built_with_solutions $L; then
    skip "lab06 fix-its under compute-sanitizer" "$L was built with SOLUTIONS=1"
elif why=$(edited_exercise_file "$EX"); then
    skip "lab06 fix-its under compute-sanitizer" "$why"
else
    # the shipped fix-its never store outside out, whatever the rectangle;
    # racecheck names NoSync's race (the chapter's demo)
    cs=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer 2>/dev/null)}
    [ -z "$cs" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && cs=/usr/local/cuda/bin/compute-sanitizer
    if [ -n "$cs" ] && [ -x "$cs" ]; then
        # the three rectangles in one process (one sanitizer start)
        run "$cs" --tool memcheck --error-exitcode 9 $L --check -k transposeSmemRect,transposeSmemNoSync \
            -n 200x300,300x200,33x65
        if [ "$STATUS" -eq 1 ]; then
            ok "lab06 fix-its as shipped under memcheck at 200x300, 300x200, 33x65: FAIL, nothing out of bounds"
        else notok "lab06 fix-its as shipped under memcheck" "exit $STATUS, expected 1; $(grep -E '^=+ (Invalid|ERROR)' "$OUTF" | head -n 2)"; fi
        run "$cs" --tool racecheck $L --check -k transposeSmemNoSync -n 300x200
        if grep -q 'hazard' "$OUTF"; then ok "lab06 racecheck reports transposeSmemNoSync's hazards"
        else notok "lab06 racecheck reports transposeSmemNoSync's hazards" "exit $STATUS; $(tail -n 3 "$OUTF")"; fi
    else
        skip "lab06 fix-its under compute-sanitizer" "compute-sanitizer not found"
    fi
fi
