#!/bin/sh
# tests/tools/intake.sh - hand-ins as courses collect them, on the CPU (POSIX sh):
# make submit's archive; tools/grader/intake.sh on a class mixing the workbook's layout,
# a course site's export (any folder names, loose files or make submit's
# archive), clones of the workbook, and hand-ins that try to make the grader
# read through a link or write outside the student's folder; then tools/grader/grade's
# feedback files and page on runs made from the fixtures (no student's file
# reads another's, no path of this machine), the page checked in a real
# browser (chromium --headless --dump-dom: the DOM it built) where chromium
# is installed (.ci/run installs it as root). Run from the repository root.
# Prints "ok NAME" / "FAIL NAME: why" / "skip NAME: why".
own_tmpd=0
[ -z "${TMPD:-}" ] && own_tmpd=1
. tests/lib.sh
. tests/tools/page.sh # page_check, md_joined
[ $own_tmpd -eq 1 ] && trap 'rm -rf "$TMPD"' EXIT

# (a marker and blanks in every path of this machine: no student's file may show one)
W="$TMPD/intake MARKERq7 x"
rm -rf "$W"
mkdir -p "$W"
E1=lab01_cpu_reduce/exercises.c
E2=lab02_neighbored/exercises.cuh
E4=lab04_unroll/exercises.cuh

# ---- make submit --------------------------------------------------------------------
# (in a copy of the exercise files: an exercise file reached through a link)
SUB=$W/wb
mkdir -p "$SUB/tools/grader" "$SUB/handin"
cp tools/grader/handin.sh tools/grader/grade_task.sh "$SUB/tools/grader/" && cp tools/labs.sh tools/labs.conf "$SUB/tools/"
sh tools/grader/grade_task.sh --labs . | while read -r _ f; do mkdir -p "$SUB/${f%/*}"; cp "$f" "$SUB/$f"; done
echo "/* alice's lab04 */" >>"$SUB/$E4"
mv "$SUB/$E4" "$W/lab04-elsewhere.cuh" && ln -s "$W/lab04-elsewhere.cuh" "$SUB/$E4"
run sh "$SUB/tools/grader/handin.sh" --sources alice
A=$SUB/handin/alice-sources.tar
nfiles=$(sh tools/grader/grade_task.sh --labs . | wc -l | tr -d ' ')
if [ "$STATUS" -eq 0 ] && [ -f "$A" ] && [ "$(tar -tf "$A" | grep -c '^lab0[0-9]_[a-z0-9_]*/exercises\.cu*h*$')" -eq "$nfiles" ] &&
    tar -tf "$A" | grep -qx handin.cksum; then
    ok "make submit: one tar, each lab's exercise file in the workbook's layout ($nfiles) and handin.cksum"
else notok "make submit: the archive" "exit $STATUS: $(head -c 300 "$ERRF") $(tar -tf "$A" 2>&1 | head -c 300)"; fi
if [ -z "$(tar -tvf "$A" | grep -v '^-')" ]; then ok "make submit: plain files only (the linked lab04 file stored as itself)"
else notok "make submit: plain files only" "$(tar -tvf "$A" | grep -v '^-' | head -c 300)"; fi
mkdir -p "$W/x" && (cd "$W/x" && tar -xf "$A")
bad=$(sed 1d "$W/x/handin.cksum" | while read -r crc size f; do
    [ "$(cksum <"$W/x/$f" | awk '{ print $1, $2 }')" = "$crc $size" ] && cmp -s "$W/x/$f" "$SUB/$f" || echo "$f"; done)
if [ -z "$bad" ] && [ "$(sed 1d "$W/x/handin.cksum" | wc -l | tr -d ' ')" -eq "$nfiles" ]; then
    ok "make submit: handin.cksum gives each file's cksum, and each file is the student's"
else notok "make submit: the manifest" "$bad: $(cat "$W/x/handin.cksum" | head -c 300)"; fi
expect_usage "make submit: a NAME with a blank, in one line" sh "$SUB/tools/grader/handin.sh" --sources "al ice"
expect_usage "make submit: no NAME, in one line" sh "$SUB/tools/grader/handin.sh" --sources ""

# ---- the class: (a), (b), (c) and the hand-ins that must not be read ----------------------
C=$W/class
mkdir -p "$C"
# (a) the workbook's layout
mkdir -p "$C/amy/lab01_cpu_reduce" && cp "$E1" "$C/amy/$E1" && echo "my notes" >"$C/amy/notes.txt"
# (b) Moodle's folders: loose files of any name, placed by their contents; make submit's archive
MO="Anne Marie O'Brien_1234_assignsubmission_file_"
mkdir -p "$C/$MO" && cp "$E1" "$C/$MO/my lab one.c" && cp "$E4" "$C/$MO/unroll (final).cuh" && echo "<p>hi</p>" >"$C/$MO/onlinetext.html"
BO="Bo Li_77_assignsubmission_file_"
mkdir -p "$C/$BO" && cp "$A" "$C/$BO/"
# ... two folders whose safe names are the same: unique ids
mkdir -p "$C/Bo Li_77_assignsubmission_onlinetext_" && cp "$E1" "$C/Bo Li_77_assignsubmission_onlinetext_/ex.c"
# ... make submit's archive on its own beside the folders
cp "$A" "$C/dan-sources.tar"
# (c) a clone of the workbook (GitHub Classroom): only the exercise files are taken
mkdir -p "$C/cleo/.git" "$C/cleo/tools" "$C/cleo/common"
cp Makefile "$C/cleo/" && cp tools/labs.conf "$C/cleo/tools/" && cp common/csv_columns.h "$C/cleo/common/"
sh tools/grader/grade_task.sh --labs . | while read -r _ f; do mkdir -p "$C/cleo/${f%/*}"; cp "$f" "$C/cleo/$f"; cp "${f%.*}.cu" "$C/cleo/${f%/*}/" 2>/dev/null; done
echo "ref: refs/heads/main" >"$C/cleo/.git/HEAD"
# the hand-ins that must not be read (SECRET: a file outside the class)
echo "SECRETq7 the grader's own file" >"$W/secret.txt"
mkdir -p "$C/eve/lab01_cpu_reduce" "$C/eve/lab02_neighbored"
ln -s "$W/secret.txt" "$C/eve/$E1"                        # a link where the file should be
cp "$E2" "$C/eve/$E2" && ln "$C/eve/$E2" "$C/eve/again.cuh" # a hard link
mkfifo "$C/eve/pipe.c" 2>/dev/null
printf 'int x;\n' >"$C/eve/two
lines.c"                                                  # a name with a line break
ln -s "$W" "$C/mallory"                                   # a student's folder that is a link
# archives: a link, a hard link, an absolute path, a .. path, a name twice (a file, then a link)
T=$W/tarwork
mkdir -p "$T/in/lab02_neighbored" "$T/in/sub" "$C/trudy" "$C/oscar" "$C/walt"
cp "$E2" "$T/in/$E2"
(cd "$T/in" && ln -s "$W/secret.txt" link.cuh && ln "$E2" hard.cuh &&
    tar -cf "$C/trudy/trudy-sources.tar" "$E2" link.cuh hard.cuh 2>/dev/null)
(cd "$T/in" && tar -rPf "$C/trudy/trudy-sources.tar" "$W/secret.txt" 2>/dev/null)
echo "escaped" >"$T/canary-source.c"
(cd "$T/in/sub" && tar -cPf "$C/oscar/o.tar" ../../canary-source.c 2>/dev/null)
mkdir -p "$T/dup/lab01_cpu_reduce"
(cd "$T/dup" && cp "$OLDPWD/$E1" "$E1" && tar -cf "$C/walt/w.tar" "$E1" && rm "$E1" &&
    ln -s "$W/secret.txt" "$E1" && tar -rf "$C/walt/w.tar" "$E1")
# ... a file over the size limit, a .zip, not a tar, two different files for one lab
mkdir -p "$C/zed/lab01_cpu_reduce" "$C/quin"
{ cat "$E1"; awk 'BEGIN { for (i = 0; i < 40000; i++) print "/* padding padding padding */" }'; } >"$C/zed/$E1"
echo "PK" >"$C/quin/labs.zip"; echo "not a tar" >"$C/quin/q.tar"
cp "$E2" "$C/quin/a.cuh"; { cat "$E2"; echo "/* changed */"; } >"$C/quin/b.cuh"

S=$W/stage
run sh tools/grader/intake.sh "$C" "$S"
cp "$ERRF" "$W/intake.err"
ids=$(cut -f 1 "$S/names.tsv" | tr '\n' ' ')
want="Anne_Marie_O_Brien_1234 Bo_Li_77 Bo_Li_77-2 amy cleo dan eve mallory oscar quin trudy walt zed "
if [ "$STATUS" -eq 0 ] && [ "$ids" = "$want" ]; then ok "intake: one student per entry, each a safe, unique name ($(echo $ids | wc -w))"
else notok "intake: the students" "exit $STATUS; '$ids'; $(head -c 300 "$ERRF")"; fi
if grep -q "^Anne_Marie_O_Brien_1234	$MO	loose files$" "$S/names.tsv" && grep -q "^Bo_Li_77	$BO	an archive$" "$S/names.tsv" &&
    grep -q "^cleo	cleo	a clone$" "$S/names.tsv" && grep -q "^amy	amy	layout$" "$S/names.tsv"; then
    ok "intake: names.tsv keeps each name as handed in and the kind of hand-in"
else notok "intake: names.tsv" "$(cat "$S/names.tsv" | head -c 500)"; fi
# same ID: same PATH  (the file taken is the student's own: cmp)
took() {
    if cmp -s "$S/students/$1/$2" "$3"; then ok "intake: $4"
    else notok "intake: $4" "$(ls -R "$S/students/$1" | head -c 300); $(cat "$S/notes/$1" 2>/dev/null | head -c 300)"; fi
}
took amy "$E1" "$E1" "(a) the workbook's layout: the file taken as it is"
took Anne_Marie_O_Brien_1234 "$E1" "$C/$MO/my lab one.c" "(b) a loose .c placed as lab01's by its contents"
took Anne_Marie_O_Brien_1234 "$E4" "$C/$MO/unroll (final).cuh" "(b) a loose .cuh placed as lab04's by its contents"
took Bo_Li_77 "$E4" "$W/lab04-elsewhere.cuh" "(b) make submit's archive in a course site's folder: its files taken"
took dan "$E2" "$E2" "(b) make submit's archive beside the folders: a student of its own"
took cleo "$E2" "$E2" "(c) a clone: its exercise files taken"
if [ "$(find "$S/students/cleo" -type f | wc -l | tr -d ' ')" -eq "$nfiles" ] &&
    grep -q '^ignored [0-9]* other files of the clone' "$S/notes/cleo"; then
    ok "(c) a clone: only the exercise files ($nfiles), the rest counted as ignored"
else notok "(c) a clone: only the exercise files" "$(find "$S/students/cleo" -type f | head -c 300)"; fi
expect_grep "intake: what was ignored is named (amy's notes.txt)" '^ignored notes\.txt$' "$S/notes/amy"
if [ -z "$(find "$S" ! -type f ! -type d)" ] && [ -z "$(find "$S" -type f -links +1)" ]; then
    ok "intake: the staging folder holds plain files and folders only"
else notok "intake: plain files only" "$(find "$S" ! -type f ! -type d | head -c 300)"; fi
if ! grep -rq 'SECRETq7' "$S" && [ ! -e "$W/canary-source.c" ] && [ ! -e "$S/canary-source.c" ] &&
    [ ! -e "$T/in/canary-source.c" ] && [ -z "$(find "$W" -name canary-source.c ! -path "$T/*")" ]; then
    ok "intake: no link was followed, nothing was unpacked outside the student's folder"
else notok "intake: links, paths" "$(grep -rl 'SECRETq7' "$S" | head -c 200) $(find "$W" -name canary-source.c | head -c 200)"; fi
# refused: one line on stderr naming the student and the file (and why, where 100 columns
# hold it), and the student's note saying why
refused() { # ID FILE-PATTERN WHY-PATTERN NAME [STDERR-FILE-PATTERN: a long name cut at 100]
    if grep -q "^grade: intake: $1: ${5:-$2 refused}" "$W/intake.err" && grep -q "^refused $2: $3" "$S/notes/$1"; then
        ok "intake refuses $4: one line naming the student and the file"
    else notok "intake refuses $4" "$(grep "$1" "$W/intake.err" | head -c 300); $(head -c 300 "$S/notes/$1" 2>/dev/null)"; fi
}
refused eve "$E1" "a symbolic link" "a symbolic link"
refused eve "again\.cuh" "a hard link" "a hard link"
refused eve "pipe\.c" "a device, FIFO or socket" "a FIFO"
refused eve "(a name with a line break)" "a file name holding a line break" "a name with a line break"
refused mallory mallory "the student's folder is a symbolic link" "a student's folder that is a link"
refused trudy "trudy-sources\.tar:link\.cuh" "a symbolic link in the archive" "an archive's symbolic link"
refused trudy "trudy-sources\.tar:hard\.cuh" "a hard link in the archive" "an archive's hard link"
refused trudy "trudy-sources\.tar:/.*secret\.txt" "an absolute path in the archive" "an archive's absolute path" \
    "trudy-sources\.tar:/"
refused oscar "o\.tar:\.\./\.\./canary-source\.c" "a \.\. path in the archive" "an archive's .. path"
refused walt "w\.tar:$E1" "a name the archive gives twice" "a name an archive gives twice (a file, then a link)"
refused zed "$E1" "[0-9]* bytes, over the limit" "a file over the size limit"
refused quin "labs\.zip" "an archive this grader does not open" "a .zip"
refused quin "q\.tar" "not a tar archive" "a .tar tar cannot read"
took trudy "$E2" "$E2" "an archive with bad members: its plain members still taken"
if grep -q "^refused a\.cuh, b\.cuh: two different files for lab02" "$S/notes/quin" && [ ! -e "$S/students/quin/$E2" ]; then
    ok "intake: two different files for one lab: neither taken, said"
else notok "intake: two files for one lab" "$(cat "$S/notes/quin" | head -c 300)"; fi
for id in eve mallory walt zed oscar; do
    [ -d "$S/students/$id" ] || notok "intake: $id still has a folder (a row in the gradebook)" "$(ls "$S/students")"
done
check_width "intake: every line at most 100 columns" "$W/intake.err"
expect_usage "intake: SOURCES not a folder, in one line" sh tools/grader/intake.sh "$W/nothing-here" "$W/st2"
expect_usage "intake: STAGE inside SOURCES, in one line" sh tools/grader/intake.sh "$C" "$C/amy/stage"
run sh tools/grader/intake.sh "$C" "$S"
if [ "$STATUS" -eq 0 ] && [ "$(cut -f 1 "$S/names.tsv" | tr '\n' ' ')" = "$want" ]; then ok "intake: a second intake writes the same class"
else notok "intake: a second intake" "exit $STATUS: $(cut -f 1 "$S/names.tsv" | tr '\n' ' ')"; fi

# ---- the feedback and the page: runs made from the fixtures --------------------------
# zalice: lab02 and lab04 her own; zbob: lab02 slower, lab04 did not compile (his error
# quotes the grader's path and his own secret); zcarol: lab02 faster; zdan: lab02's
# stubs, lab06 crashed
SRC=tests/fixtures/h100
R=$W/class.runs
for s in zalice zbob zcarol zdan; do mkdir -p "$R/$s"; done
tf() { tsrc=$1; shift; awk -F, -f tests/fixtures/transform.awk "$@" "$tsrc" "$tsrc"; }
tf "$SRC/lab02-solutions.csv" student=1 fingerprint=1111aaaa >"$R/zalice/lab02.csv"
tf "$SRC/lab04-solutions.csv" student=1 fingerprint=2222aaaa >"$R/zalice/lab04.csv"
tf "$SRC/lab02-solutions.csv" student=1 fingerprint=3333bbbb kernel=reduceNeighboredMask kernel_factor=1.4 >"$R/zbob/lab02.csv"
tf "$SRC/lab02-solutions.csv" student=1 fingerprint=4444cccc kernel=reduceNeighboredMask kernel_factor=0.9 >"$R/zcarol/lab02.csv"
cp "$SRC/lab02-stubs.csv" "$R/zdan/lab02.csv"
{ echo "lab04: does not compile (lab04_unroll/exercises.cuh)"
  echo "$W/grade-work.x/base/lab04_unroll/exercises.cuh(12): error: ZBOBSECRET is undefined"
  echo "In file included from $W/grade-work.x/base/common/reduce.cuh:3,"; } >"$R/zbob/lab04.fail"
# (zdan's lab06 crashed: its record, and the grader's record of the run)
{ echo "lab06: crashed: killed by signal SEGV (exit 139)"; echo "Segmentation fault"; } >"$R/zdan/lab06.fail"
printf 'seed 42\nsize 2999x4997\ncommand ./lab06 --exercises --csv --seed 42 -n 2999x4997\n' >"$R/zdan/lab06.run"
# (intake's notes, where tools/grader/grade finds them for class.runs: class.intake/notes/)
mkdir -p "$W/class.intake/notes"
printf 'name Alice A. (1234)_assignsubmission_file_\nfrom loose files\ntook lab02_neighbored/exercises.cuh <- my.cuh\n' \
    >"$W/class.intake/notes/zalice"
printf 'name zbob\nrefused lab01_cpu_reduce/exercises.c: a symbolic link: not followed\n' >"$W/class.intake/notes/zbob"
sh tools/grader/calibrate.sh --from "$R/calibration" "$SRC"/lab0[2-6]-solutions.csv >/dev/null 2>&1
FB=$W/class.feedback
# (GRADE_VERIFY=0: these runs have no checker's verdicts; zdan's lab06.run is there)
run env GRADE_VERIFY=0 sh tools/grader/grade "$R" --feedback="$FB" --html="$W/report.html"
cp "$OUTF" "$W/report.txt"; [ -n "${KEEP_INTAKE:-}" ] && cp -R "$W" "$KEEP_INTAKE"
nst=$(GRADE_VERIFY=0 sh tools/grader/grade "$R" --csv 2>/dev/null | awk 'NR > 1' | wc -l | tr -d ' ')
if [ "$STATUS" -eq 1 ] && [ "$nst" -eq 4 ] && [ "$(ls "$FB" | wc -l | tr -d ' ')" -eq "$nst" ]; then
    ok "feedback: one file per student of the gradebook ($nst)"
else notok "feedback: one file per student" "exit $STATUS; $nst rows; $(ls "$FB" | tr '\n' ' ') $(head -c 300 "$ERRF")"; fi
leak=$(grep -l -e 'MARKERq7' -e "$TMPD" -e '/tmp/' "$FB"/*.md 2>/dev/null)
if [ -z "$leak" ] && grep -q 'lab04_unroll/exercises.cuh(12): error: ZBOBSECRET is undefined' "$(md_joined "$FB/zbob.md")"; then
    ok "feedback: no path of the grading machine (its error lines cut to the workbook's paths)"
else notok "feedback: no path of this machine" "$leak: $(grep -h -e MARKERq7 -e /tmp/ "$FB"/*.md | head -c 300)"; fi
other=$(for s in zalice zbob zcarol zdan; do
    for o in zalice zbob zcarol zdan; do [ $o = $s ] || grep -l "$o" "$FB/$s.md"; done
    [ $s = zbob ] || grep -l ZBOBSECRET "$FB/$s.md"; done 2>/dev/null)
if [ -z "$other" ]; then ok "feedback: nothing of another student's (names, errors)"
else notok "feedback: nothing of another student's" "$other"; fi
wide=$(for f in "$FB"/*.md; do awk -v f="${f##*/}" '/^```/ { code = !code; next } !code && length($0) > 100 { print f ": " $0; exit }' "$f"; done)
if [ -z "$wide" ]; then ok "feedback: every line at most 100 columns (but a compiler's own lines)"
else notok "feedback: every line at most 100 columns" "$(echo "$wide" | head -n 2)"; fi
expect_grep "feedback: each lab's score of its maximum" '^\| lab02 \| 25 \| 25 \|$' "$(md_joined "$FB/zalice.md")"
expect_grep "feedback: each check, its verdict and why" '^- passed, 6 of 6 points: faster: reduceNeighboredLess beats' "$(md_joined "$FB/zalice.md")"
expect_grep "feedback: the GPU and the calibration" \
    "^It ran on NVIDIA H100 80GB HBM3; the speed each check asks for was set by the instructor's solutions run on NVIDIA H100" "$(md_joined "$FB/zalice.md")"
expect_grep "feedback: the command that repeats the run (without --csv)" '^    \./lab06 --exercises --seed 42 -n 2999x4997$' "$(md_joined "$FB/zdan.md")"
expect_grep "feedback: a crash, with the program's last words" '^It did not build or run: crashed: killed by signal SEGV' "$(md_joined "$FB/zdan.md")"
expect_grep "feedback: the compiler's first errors" "^The compiler's first errors:" "$(md_joined "$FB/zbob.md")"
expect_grep "feedback: where the student's kernel stands in the class" \
    '^- reduceNeighboredMask: [0-9.]*x .*; faster than 1 and slower than 1 of the 2 others in the class' "$(md_joined "$FB/zalice.md")"
expect_grep "feedback: the name as handed in" '^# Your grades: Alice A\. \(1234\)_assignsubmission_file_$' "$(md_joined "$FB/zalice.md")"
expect_grep "feedback: what was refused of the hand-in" '^- REFUSED .*lab01_cpu_reduce/exercises\.c: a symbolic link' "$(md_joined "$FB/zbob.md")"
expect_grep "the report: the refused file, a flag" '^  zbob: .*refused lab01_cpu_reduce/exercises\.c' "$W/report.txt"

# the page in a real browser: the DOM it built (tests/tools/page.sh)
# (lab02's reduceNeighboredMask: zalice, zbob, zcarol; lab04's three: zalice)
ncol=$(GRADE_VERIFY=0 sh tools/grader/grade "$R" --csv 2>/dev/null | head -n 1 | awk -F, '{ print NF - 5 }')
page_check "$W/report.html" "$nst" "$ncol" 4 6
exit 0
