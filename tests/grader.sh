#!/bin/sh
# tests/grader.sh - the instructor's tools without a GPU: tools/grade on good,
# failing and tampered CSVs, tools/chart, and the argument checks of
# tools/profile.sh and tools/sanitize.sh. POSIX sh; run from the repository root
# (tests/run does). Prints "ok NAME" / "FAIL NAME: why" / "skip NAME: why".
own_tmpd=0
[ -z "${TMPD:-}" ] && own_tmpd=1
. tests/lib.sh
[ $own_tmpd -eq 1 ] && trap 'rm -rf "$TMPD"' EXIT

G=tests/fixtures/good
W=$TMPD/grader
rm -rf "$W"
mkdir -p "$W"

# grade_case NAME WANT_STATUS PATTERN DIR: sh tools/grade DIR exits WANT_STATUS,
# its output matches PATTERN (grep -E), and nothing crashed: stderr holds no
# shell or awk error (only the grader's own one-line "grade: ..." messages)
grade_case() {
    name=$1; want=$2; pat=$3; dir=$4
    run sh tools/grade "$dir"
    if [ "$STATUS" -ne "$want" ]; then
        notok "$name" "exit $STATUS, expected $want; $(head -c 400 "$OUTF") $(head -c 200 "$ERRF")"
    elif grep -v '^grade: ' "$ERRF" | grep -q .; then
        notok "$name" "something crashed: $(head -c 300 "$ERRF")"
    elif ! grep -Eq -- "$pat" "$OUTF" "$ERRF"; then
        notok "$name" "no line matches /$pat/ in: $(head -c 600 "$OUTF") $(head -c 200 "$ERRF")"
    else
        ok "$name"
    fi
}

# case_dir NAME: a fresh, empty folder $W/NAME (its path on stdout)
case_dir() { rm -rf "${W:?}/$1"; mkdir -p "$W/$1"; echo "$W/$1"; }

# ---- known-good inputs ------------------------------------------------------
if [ -x ./lab01 ]; then
    d=$(case_dir live)
    if ./lab01 -n 100003 -r 3 --csv >"$d/student-lab01.csv" 2>"$W/lab01.err"; then
        grade_case "grade passes real ./lab01 --csv output" 0 'score lab01 10/10' "$d"
        # the grader's header is the one the labs print (common/workbook.c)
        if head -n 1 "$d/student-lab01.csv" | grep -Fqx "$(sed -n 's/^ *HEADER = "\(.*\)"$/\1/p' tools/grade.awk)"; then
            ok "grader's header = ./lab01 --csv header"
        else
            notok "grader's header = ./lab01 --csv header" "lab01 prints: $(head -n 1 "$d/student-lab01.csv")"
        fi
    else
        notok "./lab01 --csv for the grader" "exit $?: $(head -c 200 "$W/lab01.err")"
    fi
else
    skip "grade passes real ./lab01 --csv output" "./lab01 not built (make lab01)"
fi

grade_case "grade passes the good fixtures (labs 02-06, the lab05 sweep)" 0 \
    '^total 60/60 over 6 lab results; every lab earned all its points' "$G"

# the kept H100 set (real outputs, docs/results/h100): passes whole, and a
# copy with one row turned to FAIL does not
grade_case "grade passes the kept H100 results" 0 \
    '^total 110/110 over 11 lab results; every lab earned all its points' docs/results/h100
d=$(case_dir h100fail)
cp docs/results/h100/*.csv "$d/"
awk -F, 'BEGIN { OFS = "," } NR == 3 { $NF = "FAIL" } { print }' docs/results/h100/lab04.csv >"$d/lab04.csv"
grade_case "grade fails the H100 set with one lab04 row turned to FAIL" 1 \
    'LOST +[0-9]+/4 +verified: 1 of 7 rows say FAIL: reduceUnrolling2' "$d"

d=$(case_dir crlf)
sed 's/$/\r/' "$G/lab06.csv" >"$d/win-lab06.csv"
grade_case "grade accepts CRLF line ends" 0 'score lab06 10/10' "$d"

d=$(case_dir concat)
{ cat "$G/lab02.csv"; cat "$G/lab03.csv"; } >"$d/both.csv"
grade_case "grade reads two runs concatenated in one file (repeated header)" 0 'total 20/20 over 2 lab results' "$d"

d=$(case_dir students)
mkdir -p "$d/carol"
cp "$G/lab02.csv" "$d/alice-lab02.csv"
cp "$G/lab02.csv" "$d/bob smith-lab02.csv"
cp "$G/lab04.csv" "$d/carol/lab04.csv"
grade_case "grade totals per student (NAME-labNN.csv, a folder per student, a blank in a name)" 0 \
    'bob smith +10/10' "$d"
expect_grep "grade's per-student line for a folder" '^  carol +10/10' "$OUTF"

# ---- failing and tampered inputs --------------------------------------------
d=$(case_dir failrow)
sed '3s/,PASS$/,FAIL/' "$G/lab02.csv" >"$d/alice-lab02.csv"
grade_case "grade fails a FAIL row and names the kernel" 1 \
    'verified: 1 of 2 rows say FAIL: reduceNeighboredLess \(line 3\)' "$d"
expect_grep "grade: a FAIL kernel's time does not count" 'reduceNeighboredLess failed verification' "$OUTF"

d=$(case_dir nocol)
cut -d, -f1-14,16- "$G/lab03.csv" >"$d/x-lab03.csv"
grade_case "grade rejects a missing column" 1 'x-lab03.csv:1: missing column\(s\): gbps' "$d"
expect_grep "grade scores a rejected file 0" 'score lab03 0/10 +\(rejected\)' "$OUTF"

d=$(case_dir renamed)
sed '1s/,gbps,/,GBps,/' "$G/lab03.csv" >"$d/x-lab03.csv"
grade_case "grade rejects a renamed column" 1 'unknown column\(s\): GBps' "$d"

d=$(case_dir order)
sed '1s/time_ms,q1_ms/q1_ms,time_ms/' "$G/lab03.csv" >"$d/x-lab03.csv"
grade_case "grade rejects columns out of order" 1 'not in the documented order' "$d"

d=$(case_dir tamper)
awk -F, -v OFS=, 'NR == 3 { $15 = sprintf("%.2f", $15 * 1.5) } 1' "$G/lab04.csv" >"$d/x-lab04.csv"
grade_case "grade rejects a tampered gbps with file and line" 1 'x-lab04.csv:3: gbps [0-9.]+ does not match bytes/\(time_ms\*1e6\)' "$d"

d=$(case_dir pct)
awk -F, -v OFS=, 'NR == 5 { $16 = sprintf("%.2f", $16 + 10) } 1' "$G/lab06.csv" >"$d/x-lab06.csv"
grade_case "grade rejects a tampered pct_of_copy" 1 'x-lab06.csv:5: pct_of_copy' "$d"

d=$(case_dir speed)
awk -F, -v OFS=, 'NR == 3 { $11 = sprintf("%.6f", $11 / 2); $12 = sprintf("%.6f", $12 / 2); $13 = sprintf("%.6f", $13 / 2);
                             $15 = sprintf("%.2f", $15 * 2); $16 = sprintf("%.2f", $16 * 2) } 1' "$G/lab02.csv" >"$d/x-lab02.csv"
grade_case "grade rejects a halved time whose speedup was left alone" 1 'x-lab02.csv:3: speedup' "$d"

d=$(case_dir nonnum)
awk -F, -v OFS=, 'NR == 2 { $11 = "fast" } 1' "$G/lab05.csv" >"$d/x-lab05.csv"
grade_case "grade rejects a non-numeric field" 1 "x-lab05.csv:2: time_ms is 'fast', not a number" "$d"

d=$(case_dir bytes)
awk -F, -v OFS=, 'NR == 2 { $4 = $4 / 2 } 1' "$G/lab02.csv" >"$d/x-lab02.csv"
grade_case "grade rejects bytes that do not match n" 1 'bytes is 67108864 but a reduction of n ints reads 4\*n' "$d"

d=$(case_dir fields)
awk -F, -v OFS=, 'NR == 2 { $22 = $22 ",extra" } 1' "$G/lab02.csv" >"$d/x-lab02.csv"
grade_case "grade rejects a row with a field too many" 1 'x-lab02.csv:2: 23 fields, the header has 22' "$d"

d=$(case_dir empty)
: >"$d/x-lab02.csv"
grade_case "grade rejects an empty file" 1 'x-lab02.csv:1: the file is empty' "$d"
expect_grep "grade counts an empty labNN file against its lab" 'score lab02 0/10' "$OUTF"

d=$(case_dir headeronly)
head -n 1 "$G/lab02.csv" >"$d/x-lab02.csv"
grade_case "grade rejects a header with no rows" 1 'the header and no data rows' "$d"

d=$(case_dir garbage)
printf 'hello\000world\n\377\376,,,\n' >"$d/junk.csv"
grade_case "grade rejects a binary file without crashing" 1 "junk.csv:1: not a lab's --csv output" "$d"

d=$(case_dir dup)
{ cat "$G/lab02.csv"; tail -n 1 "$G/lab02.csv"; } >"$d/x-lab02.csv"
grade_case "grade rejects a kernel twice at one size" 1 'appears again \(first on line 3\)' "$d"

# ---- the speed checks, on consistent but slow results -----------------------
spec_case() { # NAME SPEC -> a CSV made by the fixture generator in a fresh folder
    dd=$(case_dir "$1")
    printf '%s\n' "$2" | awk -f tests/fixtures/make_fixture.awk >"$dd/x.csv"
    echo "$dd"
}
d=$(spec_case slow "lab02 reduceNeighbored 16777216 0 0 32768 512 20 0.30 0.297 0.303 - 2000 2400 PASS
lab02 reduceNeighboredLess 16777216 0 0 32768 512 20 0.28 0.277 0.283 - 2000 2400 PASS")
grade_case "grade takes points for a missed ordering (lab02: 1.07x < 1.20x)" 1 \
    'LOST +0/6 +faster: reduceNeighboredLess beats reduceNeighbored: time ratio 1.07x, needs at least 1.20x' "$d"

steps="reduceInterleaved reduceUnrolling2 reduceUnrolling4 reduceUnrolling8 reduceUnrollWarps8 reduceCompleteUnrollWarps8 reduceCompleteUnroll"
lab04_spec() { # the 7 steps at 0.100 ms with a 2% spread, kernel $1 at $2 ms
    for k in $steps; do
        t=0.100; [ "$k" = "$1" ] && t=$2
        echo "lab04 $k 16777216 0 0 4096 512 20 $t $(awk -v t=$t 'BEGIN { printf "%.6f %.6f", t * 0.99, t * 1.01 }') - 2000 2400 PASS"
    done
}
d=$(spec_case noise "$(lab04_spec reduceUnrolling4 0.104)")
grade_case "grade forgives a step 4% slower within noise (2% spreads + 3%)" 0 \
    'reduceUnrolling4 is 4.0% slower than reduceUnrolling2, allowance 5.0%' "$d"
d=$(spec_case noise2 "$(lab04_spec reduceCompleteUnroll 0.120)")
grade_case "grade takes a point for a step 20% slower (allowance 2% + 5%)" 1 \
    'LOST +0/1 +no_slower: reduceCompleteUnroll is 20.0% slower than reduceCompleteUnrollWarps8, allowance 7.0%' "$d"

d=$(spec_case missing "lab06 copyRow 4194304 2048 2048 128x128 16x16 20 0.0190 0.0188 0.0192 - 1900 2400 PASS")
grade_case "grade takes points for kernels missing from the file" 1 'transposeNaiveCol is not in the file' "$d"

# ---- grade's own errors -----------------------------------------------------
d=$(case_dir nocsv)
grade_case "grade: a folder without CSV files is a usage error" 2 'grade: no \*.csv files under' "$d"
grade_case "grade: a missing folder is a usage error" 2 "is not a folder" "$W/does-not-exist"
{ cat tools/grade.conf; echo "lab02  3  fastr  a b 1.1"; } >"$W/bad.conf"
GRADE_CONF=$W/bad.conf run sh tools/grade "$G"
if [ "$STATUS" -eq 2 ] && grep -q "bad.conf:[0-9]*: 'fastr' is not a check" "$ERRF"; then ok "grade: a typo in grade.conf names its line, exit 2"
else notok "grade: a typo in grade.conf" "exit $STATUS: $(head -c 300 "$ERRF")"; fi

# ---- tools/chart --------------------------------------------------------------
chart_case() { # NAME FILE PATTERN
    run sh tools/chart -d 2026-01-01 "$2"
    if [ "$STATUS" -ne 0 ] || [ -s "$ERRF" ]; then notok "$1" "exit $STATUS: $(head -c 300 "$ERRF")"
    elif ! head -n 1 "$OUTF" | grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' || [ "$(tail -n 1 "$OUTF")" != "</svg>" ]; then
        notok "$1" "not an SVG document: $(head -c 200 "$OUTF")"
    elif ! grep -q -- "$3" "$OUTF"; then notok "$1" "no $3 in the SVG"
    elif command -v xmllint >/dev/null 2>&1 && ! xmllint --noout "$OUTF" 2>"$W/xml.err"; then
        notok "$1" "not well-formed XML: $(head -c 300 "$W/xml.err")"
    else ok "$1"; fi
}
if [ -f "$W/live/student-lab01.csv" ]; then
    chart_case "chart: bars for ./lab01 --csv" "$W/live/student-lab01.csv" '<rect x='
else
    skip "chart: bars for ./lab01 --csv" "./lab01 not built"
fi
chart_case "chart: bars for the lab06 fixture (FAIL-free, 100% line)" "$G/lab06.csv" 'copy ceiling = 100%'
chart_case "chart: lines for the lab05 sweep fixture" "$G/lab05-sweep.csv" '<polyline'
sed '2s/,reduceGmem,/,reduce<Gmem>\&,/' "$G/lab05-sweep.csv" >"$W/sweep&<.csv"
chart_case "chart: names with & and < are escaped" "$W/sweep&<.csv" '&lt;'
run sh tools/chart "$W/nocsv-dir-does-not-exist.csv"
if [ "$STATUS" -eq 2 ] && grep -q '^chart: cannot read' "$ERRF"; then ok "chart: a missing file is a usage error"
else notok "chart: a missing file" "exit $STATUS: $(head -c 200 "$ERRF")"; fi
run sh tools/chart "$W/nocol/x-lab03.csv"
if [ "$STATUS" -eq 1 ] && grep -q "^chart: .*no column 'gbps'" "$ERRF" && [ ! -s "$OUTF" ]; then ok "chart: a CSV missing a column is refused"
else notok "chart: a CSV missing a column" "exit $STATUS: $(head -c 200 "$ERRF")"; fi

# ---- tools/profile.sh and tools/sanitize.sh without a GPU: their own errors ---
expect_usage "profile.sh: no lab" sh tools/profile.sh
expect_usage "profile.sh: lab01 has no GPU kernels" sh tools/profile.sh lab01
expect_usage "profile.sh: an unknown lab" sh tools/profile.sh lab99
expect_usage "sanitize.sh: no lab" sh tools/sanitize.sh
run env COMPUTE_SANITIZER=/bin/true sh tools/sanitize.sh lab99
if [ "$STATUS" -eq 1 ] && grep -q 'FAIL  lab99  memcheck   ./lab99 is missing' "$OUTF" && grep -q '^sanitize: 4 of 4 lab x tool checks FAILED: lab99(missing)' "$OUTF"; then
    ok "sanitize.sh: a missing lab binary fails and is named"
else
    notok "sanitize.sh: a missing lab binary" "exit $STATUS: $(head -c 400 "$OUTF")"
fi
exit 0
