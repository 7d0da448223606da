# tests/gpu/gpu_docs.sh - every `./labNN ...` line of the docs' code blocks
# runs as written on the GPU (POSIX sh; tests/run calls it where a device
# exists; tests/tools/commands.sh parses them all without one). Each
# distinct line once (tests/tools/doc_commands.awk finds them), in the
# workbook's root, its output to a file of the test's (a `> file` of the
# line is left out): it must exit with the status it is marked with (`#
# exits N`; 0 unmarked), except that a run of the student's exercises (its
# --dry-run plan names one) or a trace (the verdict of the kernel drawn)
# may also exit 1: a stub is todo and a fix-it FAILs until the student is
# done. `make` lines are not run here: they rebuild (commands.sh runs them
# with -n). Only under make test-all (WB_TEST_ALL=1).
# gpu-memory: 4096 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

# The lines run one after another: 142 s on an H100 (2026-12-06), more than
# the whole of make test may take; make test parses every one of them
# (tests/tools/commands.sh) and make test-all runs them as written
if [ "${WB_TEST_ALL:-}" != 1 ]; then
    skip "the docs' lab lines as written" "make test-all runs them (make test parses each: --dry-run)"
    exit 0
fi

ROOT=$(pwd)
mkdir -p "$TMPD/cwd"
awk -f tests/tools/doc_commands.awk README.md docs/*.md | awk -F'\t' '!seen[$3 "\t" $2]++' >"$TMPD/commands"
nrun=0
while IFS='	' read -r where want cmd; do
    # shellcheck disable=SC2086
    set -f; set -- $cmd; set +f
    case $1 in ./lab[0-9][0-9]*) ;; *) continue ;; esac
    if [ ! -x "$1" ]; then notok "$where: $cmd" "$1 is not built"; continue; fi
    also=
    bin=$ROOT/${1#./}; shift
    run "$bin" "$@" --dry-run
    grep -q "(your exercise)" "$OUTF" && also=1
    case " $cmd " in *" --trace "*) also=1 ;; esac
    # in a folder of its own, so that what it writes (--svg tree.svg) stays out of the tree
    run sh -c 'cd "$1" && shift && exec timeout 600 "$@" </dev/null' sh "$TMPD/cwd" "$bin" "$@"
    nrun=$((nrun + 1))
    if [ "$STATUS" -eq "$want" ] || { [ -n "$also" ] && [ "$want" -eq 0 ] && [ "$STATUS" -eq 1 ]; }; then
        ok "$where: $cmd (exit $STATUS)"
    else
        notok "$where: $cmd" "exit $STATUS, marked $want${also:+ (or 1)}; $(head -c 300 "$ERRF")"
    fi
done <"$TMPD/commands"
[ $nrun -gt 0 ] || notok "the docs' lab lines run" "none found"
