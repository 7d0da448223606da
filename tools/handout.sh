#!/bin/sh
# tools/handout.sh - the students' copy of the workbook (make handout DEST=dir).
#
#   sh tools/handout.sh DIR
#
# Copies the workbook's own files (the files git tracks and the new ones in
# its own folders, not a stray file at the top; without git every file but
# build/, the lab binaries and what the workbook's commands write: handin/,
# results/) into DIR, leaving out what students must not see:
#   - every labNN_*/solutions/ folder (the solutions to the exercises);
#   - every output of a solutions build kept for the tests
#     (tests/fixtures/*/*-solutions.*: full marks without code);
#   - docs/.answers/ (the answers, as written by their authors);
#   - docs/answers.md (the answers to the chapters' questions and exercises)
#     and docs/tuning.md (the tuning logs, which show the kernels' variants).
# Then checks the copy: no solutions folder, no answers, and every
# student exercise file present. DIR must not exist yet or be empty.
# Exit status: 0 written and checked; 1 the check failed; 2 bad usage.
cd "$(dirname "$0")/.." || exit 2
. tools/labs.sh # the labs: tools/labs.conf
folders=$(for l in $(lab_list); do lab_get $l folder; done)

dest=$1
if [ -z "$dest" ]; then
    echo "handout: say where to write the students' copy: make handout DEST=dir" >&2
    exit 2
fi
if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ]; then
    echo "handout: $dest exists and is not empty; give a new folder (make handout DEST=dir)" >&2
    exit 2
fi
mkdir -p "$dest" || exit 2
dest=$(cd "$dest" && pwd) || exit 2
case $dest in
    "$(pwd)"|"$(pwd)"/*) echo "handout: $dest is inside the workbook; give a folder outside it" >&2; exit 2 ;;
esac

# the files to copy, one per line, relative to the top
# (git only where the workbook is the work tree's top: a workbook unpacked
# inside another repository, a course's, is not that repository's files)
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    # what git tracks, and new files in the workbook's own folders that are
    # not committed yet; never a stray file at the top or make handin's handin/
    git ls-files --cached
    # shellcheck disable=SC2086
    git ls-files --others --exclude-standard -- .ci common docs $folders tests tools
else
    find . -type f ! -path './build/*' ! -path './.git/*' ! -path './handin/*' ! -path './results/*' |
        sed 's|^\./||' |
        grep -vxF "$(lab_list)"
fi | grep -Ev '(^|/)solutions/|^docs/\.answers/|^docs/(answers|tuning)\.md$|^tests/fixtures/.*-solutions\.(csv|spec)$' |
    LC_ALL=C sort >"$dest/.files" || exit 2

count=0
while IFS= read -r f; do
    [ -f "$f" ] || continue   # listed by git but deleted here
    mkdir -p "$dest/$(dirname "$f")" && cp -p "$f" "$dest/$f" || exit 2
    count=$((count + 1))
done <"$dest/.files"
rm -f "$dest/.files"

# check what was written
bad=0
if find "$dest" -type d -name solutions | grep -q .; then
    echo "handout: FAILED: a solutions folder was copied: $(find "$dest" -type d -name solutions | head -n 1)" >&2
    bad=1
fi
for f in docs/answers.md docs/tuning.md; do
    if [ -e "$dest/$f" ]; then
        echo "handout: FAILED: $f (the instructor's) was copied" >&2
        bad=1
    fi
done
# no output of a solutions build: no CSV row whose build ends in +solutions
sol=$(find "$dest" -type f -exec awk -F, 'NF > 20 { for (i = 1; i <= NF; i++)
        if ($i ~ /^(sm_[0-9]+|fat|cpu)(\+dlcm=c[ag])?\+solutions\r?$/) { print FILENAME; exit } }' {} + 2>/dev/null | head -n 1)
if [ -n "$sol" ]; then
    echo "handout: FAILED: ${sol#"$dest"/} holds the output of a solutions build" >&2
    bad=1
fi
for f in $(for d in $folders; do echo "$d/exercises.c $d/exercises.cuh"; done); do
    [ -f "$f" ] || continue
    if [ ! -f "$dest/$f" ]; then
        echo "handout: FAILED: the student file $f is missing from the copy" >&2
        bad=1
    fi
done
[ $bad -eq 0 ] || exit 1
echo "handout: $count files in $dest, without solutions and answers; students start with: make lab01 && ./lab01 (README.md)"
