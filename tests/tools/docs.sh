#!/bin/sh
# tests/tools/docs.sh - student-facing text speaks of the workbook and the GPU, not
# of how the workbook was made (POSIX sh, no GPU; run from the repository root).
#
# Student-facing text: the chapters (docs/labNN*.md), docs/index.md, setup.md,
# output.md, every lab's README.md and exercise file (whole files), and the
# string literals of the lab programs and of common/ (what they print). None
# may name the spec, our speed bars or targets, seed material or the makers'
# reference figures; those belong in docs/instructor.md and docs/tuning.md. One "ok" or "FAIL"
# line per file checked. Then: every command whose output a chapter pastes
# is listed in tools/snapshots.sh (which re-runs them on a GPU).
. tests/lib.sh

W='[^[:alnum:]_]' # a character that cannot be part of a word

# The rules, one a line: NAME ~~ PATTERN ~~ UNLESS. A line that matches
# PATTERN (grep -E, case ignored unless NAME ends in "(case)") fails, unless
# it also matches UNLESS: the explicit list of the word's legitimate uses.
RULES=$(cat <<EOF
SPEC (case) ~~ (^|$W)SPEC($W|\$) ~~
the spec ~~ (^|$W)specs?($W|\$) ~~
a speed bar ~~ speed bars? ~~
a bar met or not ~~ (^|$W)bar$W(.*$W)?met($W|\$) ~~
NOT met (case) ~~ NOT met ~~
our bars ~~ (our|the) bars($W|\$) ~~
a percentage bar ~~ [0-9]% bar($W|\$) ~~
the word bar ~~ (^|$W)bars?($W|\$) ~~ bar chart|no banner, no bars
a target ~~ (^|$W)targets?($W|\$) ~~ make target|Makefile target|build target
seed material ~~ seed material ~~
a seed version ~~ seed versions? ~~
ANCHORS (case) ~~ ANCHORS ~~
reference figures ~~ first reference figures ~~
EOF
)

# check_lines FILE LINES: LINES are "number:text"; prints the file's verdict
check_lines() {
    cl_file=$1; cl_lines=$2; cl_bad=
    old_ifs=$IFS
    IFS='
'
    for rule in $RULES; do
        IFS=$old_ifs
        name=${rule%% ~~ *}; rest=${rule#* ~~ }; pat=${rest%% ~~*}; unless=${rest#"$pat ~~"}
        unless=${unless# }
        case "$name" in *"(case)") flags=-E ;; *) flags=-Ei ;; esac
        hit=$(printf '%s\n' "$cl_lines" | grep $flags -e "$pat" |
              { if [ -n "$unless" ]; then grep -Eiv -e "$unless"; else cat; fi; } | head -n 1)
        if [ -n "$hit" ]; then
            cl_bad="$name, line $(printf '%s' "$hit" | cut -c1-160)"
            break
        fi
        IFS='
'
    done
    IFS=$old_ifs
    if [ -n "$cl_bad" ]; then notok "docs: $cl_file" "names $cl_bad"
    else ok "docs: $cl_file"; fi
}

# the chapters, their pages of runs (docs/results/labNN-*.md) and the live
# demos (docs/lecture.md): the pages whose blocks make snapshots rewrites
CHAPTERS=$(ls docs/lab[0-9][0-9]*.md docs/results/lab[0-9][0-9]*.md docs/lecture.md 2>/dev/null)

# the pages and the exercise files, whole
for f in $CHAPTERS docs/index.md docs/setup.md docs/output.md docs/pitfalls.md lab*_*/README.md \
         lab*_*/exercises.c lab*_*/exercises.cuh; do
    [ -f "$f" ] || continue
    case "$f" in
    */exercises.c|*/exercises.cuh)
        # a student's own work is theirs to word
        if why=$(edited_exercise_file "$f"); then skip "docs: $f" "$why"; continue; fi ;;
    esac
    check_lines "$f" "$(grep -n '' "$f")"
done

# what the programs print: the double-quoted strings of their sources
for f in lab*_*/*.c lab*_*/*.cu lab*_*/*.cuh lab*_*/*.h common/*.c common/*.cu common/*.h; do
    [ -f "$f" ] || continue
    case "$f" in */exercises.c|*/exercises.cuh) continue ;; esac # checked whole above
    check_lines "$f (strings)" "$(grep -n -o '"\([^"\\]\|\\.\)*"' "$f")"
done

# where the pages say a name is ("`wb_error_bound()` in `common/numbers.c`",
# "(`lab04_unroll/latency.cu`, `lab04_latency`)"), it is: the file exists (as
# written, or as the one tracked file of that name) and holds the name
src='[A-Za-z0-9_./]+\.(c|cu|cuh|h)' ident='[A-Za-z_][A-Za-z0-9_]*(\(\))?'
placed=$(grep -noE "\`$ident\` in \`$src\`|\`$src\`, \`$ident\`" \
    docs/*.md README.md lab*_*/README.md 2>/dev/null)
misplaced=$(printf '%s\n' "$placed" | while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    case "$hit" in
    *'` in `'*) name=$(printf '%s' "$hit" | sed 's/^[^`]*`\([A-Za-z0-9_]*\).*/\1/')
                file=$(printf '%s' "$hit" | sed 's/.* in `\([^`]*\)`$/\1/') ;;
    *) file=$(printf '%s' "$hit" | sed 's/^[^`]*`\([^`]*\)`.*/\1/')
       name=$(printf '%s' "$hit" | sed 's/.*, `\([A-Za-z0-9_]*\).*/\1/') ;;
    esac
    [ -f "$file" ] || file=$(find . -path ./build -prune -o -type f -name "$(basename "$file")" -print | head -n 1)
    if [ -z "$file" ] || ! grep -q -- "$name" "$file"; then printf '%s; ' "$hit"; fi
done)
if [ -n "$placed" ] && [ -z "$misplaced" ]; then
    ok "every name the pages place in a file (\`x\` in \`file\`) is in that file"
else
    notok "every name the pages place in a file is in that file" "${misplaced:-no such places found}"
fi

# the chapters' pasted outputs: every `$ ` line that heads a pasted block in
# docs/labNN*.md and docs/results/labNN*.md has a line of its own in tools/snapshots.sh's LIST (the same
# chapter, the command as the chapter shows it; a command pasted twice needs
# two), or is one it leaves out and says why (its `# - labNN: $ ...` lines; a page
# of runs, `# - labNN-runs: $ ...`).
# One way only: LIST may hold commands ahead of the chapters.
if [ -f tools/snapshots.sh ]; then
    expect_status 0 "tools/snapshots.sh parses (sh -n)" sh -n tools/snapshots.sh
    unlisted=$(awk -v q="'" '
        FNR == 1 { nf++ }
        nf == 1 && !inlist && index($0, "LIST=" q) == 1 { inlist = 1; $0 = substr($0, 7) }
        nf == 1 && inlist {
            line = $0; last = 0
            if (substr(line, length(line)) == q) { line = substr(line, 1, length(line) - 1); last = 1 }
            if (line !~ /^#/ && split(line, p, "|") >= 4) {
                cmd = p[4] # (a fifth field, rows=SPEC, says which rows the block shows)
                HAVE[p[1] SUBSEP cmd]++
            }
            if (last) inlist = 0
            next
        }
        nf == 1 && /^# - lab[0-9][0-9][-a-z0-9]*: \$ / {
            ch = $3; sub(/:$/, "", ch); cmd = $0; sub(/^# - lab[0-9][0-9][-a-z0-9]*: \$ /, "", cmd)
            LEFT[ch SUBSEP cmd] = 1
            next
        }
        nf > 1 && /^\$ / {
            ch = FILENAME; sub(/.*\//, "", ch); sub(/\.md$/, "", ch)
            cmd = substr($0, 3)
            if ((ch SUBSEP cmd) in LEFT) next
            if (HAVE[ch SUBSEP cmd]-- <= 0) print FILENAME ":" FNR ": " $0
        }' tools/snapshots.sh $CHAPTERS)
    if [ -z "$unlisted" ]; then
        ok "every command a chapter pastes (\$ ./labNN ...) has its line in tools/snapshots.sh"
    else
        notok "every command a chapter pastes has its line in tools/snapshots.sh" \
            "not in its LIST (nor left out there with a reason): $(printf '%s\n' "$unlisted" | head -n 5 | tr '\n' ';')"
    fi
fi

# the pasted outputs are in today's format (tests/tools/snapshot_format.awk: the
# run marker and the measured line make snapshots writes, 100 columns, the
# banner's fields, the summary's words; never the numbers)
stale=$(awk -f tests/tools/snapshot_format.awk $CHAPTERS)
if [ -z "$stale" ]; then ok "every pasted output is marked, measured and in today's format"
else notok "pasted outputs in today's format" "$(printf '%s\n' "$stale" | wc -l) problem(s) (make snapshots on a GPU rewrites them): $(printf '%s\n' "$stale" | head -n 4 | tr '\n' ';')"; fi

# every chapter asks before it tells: its opening (the text above its first
# section, "The goal" included) asks a question or asks for a prediction, and a
# prediction (predict, guess, before you run, write it down, ...) comes before
# its first pasted output. A chapter that opens with what it found, or that
# explains the answer in a section before it first asks, fails here.
for ch in docs/lab[0-9][0-9]*.md; do
    why=$(awk '
        function cue(s) { return s ~ /[Pp]redict|[Gg]uess|[Bb]efore (you (run|look|measure|read)|running|reading|measuring)|[Ww]rite (it|your|them|both|down)/ }
        /^[ \t]*```/ { code = !code; next }
        code || /^[ \t]*<!--/ && !/^<!-- run/ { next }
        /^## / { if (substr($0, 4) != "The goal") opened = 1 }
        !opened && !/^#/ && (/\?/ || cue($0)) { asked = 1 }
        cue($0) && !cued { cued = FNR }
        /^<!-- run/ && !shown { shown = FNR }
        END {
            if (!asked) print "its opening asks nothing before its first section explains"
            else if (shown && (!cued || cued > shown)) print "no prediction before its first output (line " shown ")"
        }' "$ch")
    if [ -z "$why" ]; then ok "$ch asks before it tells"
    else notok "$ch asks before it tells" "$why"; fi
done

# every numbered question of a chapter's Questions section has a numbered
# answer under its lab in docs/answers.md (a students' copy, make handout,
# has no answers.md: nothing to count)
if [ ! -f docs/answers.md ]; then
    skip "every question has an answer" "no docs/answers.md (a students' copy)"
else for ch in docs/lab[0-9][0-9]*.md; do
    l=$(basename "$ch" .md)
    q=$(awk '/^### Questions/ { f = 1; next } f && /^## / { f = 0 } f && /^[0-9]+\. / { n++ } END { print n + 0 }' "$ch")
    a=$(awk -v h="### $l" '$0 == h { f = 1; next } f && /^##/ { f = 0 } f && /^[0-9]+\. / { n++ } END { print n + 0 }' docs/answers.md)
    if [ "$q" -eq "$a" ]; then ok "$l: $q questions, $a answers in docs/answers.md"
    else notok "$l: every question has an answer in docs/answers.md" "$q questions in $ch, $a answers under ### $l"; fi
done; fi

# every figure an answer quotes from a run is the figure of that run's pasted
# block (tests/tools/held_figures.awk: the answer's "<!-- figures ... from
# CHAPTER: COMMAND -->" lines, the chapters' "<!-- run: COMMAND -->" blocks).
# After `make snapshots` rewrites a block, the answers that quote it fail here
# until their figures are the new ones. The instructor's pages and the tuning
# notes are held the same way, to blocks, to the fixtures' CSV files and to
# the tuning notes' tables, each figure at its own rounding (a ratio one
# rounding step off fails). Each page must hold some figures: a page whose
# figures comments were all dropped fails.
# A chapter that holds figures (lab04's steps against the kept runs) is held
# too; its sources are not the instructor's, so a students' copy checks it.
for f in docs/answers.md docs/instructor.md docs/calibration.md docs/tuning.md \
         $(grep -l '^[ \t]*<!-- figures ' docs/lab[0-9][0-9]*.md 2>/dev/null); do
    case $f in docs/lab*) ;; *)
        if [ ! -f "$f" ] || [ ! -f docs/answers.md ]; then # make handout drops the answers, the
            skip "$f quotes its sources' figures" "a students' copy"; continue # tuning notes, the solutions' CSVs
        fi ;;
    esac
    held=$(awk -f tests/tools/held_figures.awk "$f")
    nheld=$(printf '%s\n' "$held" | sed -n 's/^figures //p')
    bad=$(printf '%s\n' "$held" | grep -v '^figures ')
    if [ -z "$bad" ] && [ "${nheld:-0}" -gt 0 ]; then
        ok "$f: its $nheld quoted figures are those of the sources they name"
    else
        notok "$f quotes its sources' figures" \
            "$(printf '%s\n' "$bad" | grep -c .) problem(s), ${nheld:-0} figures held: $(printf '%s\n' "$bad" | head -n 6 | tr '\n' ';')"
    fi
done

# every page of docs/ is read on a projector or in a terminal: no line outside
# a code block over 100 columns, a table row included (a wide table becomes a
# list, or two tables), a block's "_Measured on" line excepted (pasted outputs
# are held to 100 columns above); docs/instructor.md's table rows excepted too
# (its grading tables); and the guide, the answers and the tuning notes at
# most 800 lines each (lines a reader sees: not the answers' figures comments)
for f in docs/*.md docs/results/*.md; do
    [ -f "$f" ] || continue
    case $f in docs/instructor.md) rows='^[ \t]*\|' ;; *) rows='^$' ;; esac
    wide=$(awk -v rows="$rows" '/^[ \t]*([0-9]+\. )?```/ { code = !code; next }
        !code && length($0) > 100 && $0 !~ rows && $0 !~ /^_Measured on / { print FNR ": " length($0) " columns" }' "$f")
    # (the answers' figures comments, which held_figures.awk reads and a reader never
    # sees, are not counted)
    lines=$(awk '/^[ \t]*<!-- figures / { f = 1 } !f { n++ } f && /-->[ \t]*$/ { f = 0 } END { print n + 0 }' "$f")
    case $f in docs/instructor.md|docs/answers.md|docs/tuning.md) max=800 ;; *) max=0 ;; esac
    if [ -n "$wide" ]; then notok "$f: lines within 100 columns" "$(printf '%s\n' "$wide" | head -n 3 | tr '\n' ';')"
    elif [ "$max" -gt 0 ] && [ "$lines" -gt "$max" ]; then notok "$f: at most $max lines" "$lines lines: move a section to a room of its own"
    else ok "$f: lines within 100 columns$( [ "$max" -gt 0 ] && echo ", $lines lines of at most $max")"; fi
done
# the main chapters stay about 600 lines (secondary runs go to docs/results/labNN-runs.md,
# float and double to labNN-types.md)
for l in $(lab_list); do
    f=docs/$l.md
    [ -f "$f" ] && [ -z "$(lab_get $l part-of)" ] || continue
    lines=$(wc -l <"$f" | tr -d ' ')
    if [ "$lines" -le 650 ]; then ok "$f: $lines lines (a main chapter: about 600 at most)"
    else notok "$f: a main chapter of about 600 lines at most" "$lines lines"; fi
done
