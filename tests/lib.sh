# tests/lib.sh - the few shell helpers every test script uses (POSIX sh).
#
# A test script prints one line per check: "ok NAME", "FAIL NAME: why" or
# "skip NAME: why". tests/run counts those lines; nothing else is parsed.
# Source it from the repository root:  . tests/lib.sh

TMPD=${TMPD:-$(mktemp -d "${TMPDIR:-/tmp}/wbtest.XXXXXX")}
OUTF=$TMPD/out
ERRF=$TMPD/err

ok()    { echo "ok $1"; }
notok() { echo "FAIL $1: $2"; }
skip()  { echo "skip $1: $2"; }

# join_wrapped FILE: one line per entry again where a long line was wrapped
# to 100 columns (--list): a line starting with a blank joins the one before
join_wrapped() {
    awk '/^ / { sub(/^ +/, " "); line = line $0; next } NR > 1 { print line } { line = $0 } END { print line }' "$1" >"$1.joined" &&
        mv "$1.joined" "$1"
}

# expect_width NAME CMD...: the command exits 0 or 1 (a FAIL row is output
# too) and every line it prints (stdout and stderr) fits in 100 columns, the
# width a projector shows whole. awk counts characters in a UTF-8 locale
# (bytes where its awk cannot: never fewer than the columns).
expect_width() {
    name=$1; shift
    run "$@"
    wide=$(cat "$OUTF" "$ERRF" | LC_ALL=C.UTF-8 awk 'length($0) > 100 { n++; if (n == 1) first = length($0) " columns: " $0 }
        END { if (n) print n " line(s) over 100; the first: " substr(first, 1, 160) }')
    if [ "$STATUS" -gt 1 ]; then notok "$name" "exit $STATUS; stderr: $(head -c 300 "$ERRF")"
    elif [ -n "$wide" ]; then notok "$name" "$wide"
    else ok "$name"; fi
}

# run CMD...: stdout to $OUTF, stderr to $ERRF, status in $STATUS
run() {
    "$@" >"$OUTF" 2>"$ERRF"
    STATUS=$?
}

# expect_status CODE NAME CMD...: the command exits with CODE
expect_status() {
    code=$1; name=$2; shift 2
    run "$@"
    if [ "$STATUS" -eq "$code" ]; then ok "$name"
    else notok "$name" "exit $STATUS, expected $code; stderr: $(head -c 300 "$ERRF")"; fi
}

# expect_usage NAME CMD...: exit 2, exactly one line on stderr, nothing on stdout
expect_usage() {
    name=$1; shift
    run "$@"
    lines=$(wc -l <"$ERRF" | tr -d ' ')
    if [ "$STATUS" -ne 2 ]; then notok "$name" "exit $STATUS, expected 2"
    elif [ "$lines" -ne 1 ]; then notok "$name" "stderr has $lines lines, expected one: $(head -c 300 "$ERRF")"
    elif [ -s "$OUTF" ]; then notok "$name" "printed on stdout: $(head -c 200 "$OUTF")"
    else ok "$name"; fi
}

# expect_csv_pass NAME ROWS CMD...: exit 0, a CSV with the documented header,
# ROWS data rows (or at least one if ROWS is 0), every status PASS
expect_csv_pass() {
    name=$1; rows=$2; shift 2
    run "$@"
    if [ "$STATUS" -ne 0 ]; then notok "$name" "exit $STATUS; $(head -c 300 "$ERRF") $(grep FAIL "$OUTF" | head -c 300)"; return; fi
    check=$(awk -F, -v want="$rows" '
        NR == 1 { if ($0 !~ /^lab,device,kernel,n,/) { print "bad header: " $0; exit } ncol = NF; next }
        NF != ncol { print "row " NR " has " NF " fields, header " ncol; exit }
        $NF != "PASS" { print "row " NR " " $3 " says " $NF; exit }
        { data++ }
        END { if (!data) print "no data rows"; else if (want > 0 && data != want) print data " rows, expected " want }' "$OUTF")
    if [ -n "$check" ]; then notok "$name" "$check"; else ok "$name"; fi
}

# expect_grep NAME PATTERN FILE: FILE has a line matching PATTERN (grep -E)
expect_grep() {
    if grep -Eq "$2" "$3"; then ok "$1"; else notok "$1" "no line matches /$2/ in $(head -c 300 "$3")"; fi
}

# has_gpu: a usable CUDA device is present (WB_GPU=0 or 1 overrides)
has_gpu() {
    case "${WB_GPU:-}" in 0) return 1 ;; 1) return 0 ;; esac
    command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1
}

# reduction_lab_checks LABNAME ROWS "KERNEL ..." "N ...": the checks every
# one-element-per-thread reduction lab shares: exact at each n and every block
# 32..1024 (all kernels per run), each kernel alone with -k, bad input (exit
# 2, one line), --list, -h, --json, the default table, and exit 3 with a
# message when no device is visible.
reduction_lab_checks() {
    rl=$1; rrows=$2; rkernels=$3; rsizes=$4
    for n in $rsizes; do
        for b in 32 64 128 256 512 1024; do
            expect_csv_pass "$rl n=$n b=$b" "$rrows" ./$rl -n "$n" -b $b --csv -r 2
        done
    done
    for k in $rkernels; do
        expect_csv_pass "$rl -k $k" 1 ./$rl -k "$k" -n 100003 -b 32 --csv -r 2
    done
    expect_usage "$rl -n 0" ./$rl -n 0
    expect_usage "$rl -n past the int range" ./$rl -n 4G
    expect_usage "$rl -n abc" ./$rl -n abc
    expect_usage "$rl -b 48" ./$rl -b 48
    expect_usage "$rl -b 16" ./$rl -b 16
    expect_usage "$rl -b 2048" ./$rl -b 2048
    expect_usage "$rl -k nope" ./$rl -k nope
    expect_usage "$rl --bogus" ./$rl --bogus
    expect_status 0 "$rl --list" ./$rl --list
    for k in $rkernels; do
        expect_grep "$rl --list names $k" "^$k " "$OUTF"
    done
    expect_status 0 "$rl -h" ./$rl -h
    expect_grep "$rl -h shows usage" "^usage: ./$rl" "$OUTF"
    expect_status 0 "$rl --json" ./$rl --json -n 1000003 -r 2
    expect_grep "$rl --json passes" '"status": "PASS"' "$OUTF"
    expect_grep "$rl --json has every row" "\"passed\": $rrows," "$OUTF"
    if command -v python3 >/dev/null 2>&1; then
        if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "$rl --json parses"
        else notok "$rl --json parses" "python3 -m json.tool refuses it"; fi
    fi
    expect_status 0 "$rl default table" ./$rl -r 5
    expect_grep "$rl default table: every row PASS" "PASS - $rrows of $rrows kernels verified" "$OUTF"
    expect_status 3 "$rl without a device" env CUDA_VISIBLE_DEVICES= ./$rl -n 1000
    expect_grep "$rl without a device says so" "no usable CUDA device" "$ERRF"
}

# edited_exercise_file FILE: the student's exercise file is no longer the one
# handed out (its cksum is not the one in tests/shipped-exercises.cksum): the
# checks of the stubs as shipped do not apply to it. Prints why on stdout.
edited_exercise_file() {
    want=$(awk -v f="$1" '$3 == f { print $1 " " $2 }' tests/shipped-exercises.cksum)
    have=$(cksum <"$1" 2>/dev/null | awk '{ print $1 " " $2 }')
    [ -n "$want" ] && [ "$want" = "$have" ] && return 1
    echo "$1 is not the file as handed out (your work, or a changed stub: update tests/shipped-exercises.cksum); these checks are for the stubs as shipped"
    return 0
}

# exercise_checks LAB "WRITE..." "FIX..." "NAME=BAR ..." "ARGS|ARGS|...": the
# checks every lab with exercises shares.
#   ./LAB as shipped (the student's file untouched; skipped when it was built
#   with SOLUTIONS=1): a plain run exits 0 and ends with "exercises: 0 of K
#   done"; --exercises --csv gives every write-it exercise a todo row and
#   every fix-it exercise a FAIL row, and exits 1 when there is a fix-it.
#   build/solutions/LAB (make test builds it where a GPU is): --exercises
#   passes every row, exit 0, under each ARGS (e.g. "-n 1000003 -b 128"), and
#   at the exercise size each NAME's speedup over its reference is >= BAR.
exercise_checks() {
    el=$1; ewrite=$2; efix=$3; ebars=$4; eargs=$5
    ecount=$(( $(echo $ewrite $efix | wc -w) ))
    efile=$(ls ${el}_*/exercises.c ${el}_*/exercises.cuh 2>/dev/null | head -n 1)
    run ./$el --exercises --csv -r 1
    if awk -F, 'NR == 2 { exit !($25 ~ /solutions/) }' "$OUTF"; then
        skip "$el exercises as shipped" "./$el was built with SOLUTIONS=1"
    elif why=$(edited_exercise_file "$efile"); then
        skip "$el exercises as shipped" "$why"
    else
        want=0; [ -n "$efix" ] && want=1
        if [ "$STATUS" -eq "$want" ]; then ok "$el --exercises as shipped exits $want"
        else notok "$el --exercises as shipped" "exit $STATUS, expected $want; $(head -c 300 "$ERRF")"; fi
        for x in $ewrite; do
            if awk -F, -v x="$x" '$3 == x && $23 == "write" && $NF == "todo" { f = 1 } END { exit !f }' "$OUTF"
            then ok "$el $x is todo as shipped"; else notok "$el $x is todo as shipped" "$(grep "^$el,[^,]*,$x," "$OUTF" | head -c 300)"; fi
        done
        for x in $efix; do
            if awk -F, -v x="$x" '$3 == x && $23 == "fix" && $NF == "FAIL" { f = 1 } END { exit !f }' "$OUTF"
            then ok "$el $x FAILs as shipped"; else notok "$el $x FAILs as shipped" "$(grep "^$el,[^,]*,$x," "$OUTF" | head -c 300)"; fi
        done
        run ./$el -r 1
        if [ "$STATUS" -eq 0 ] && tail -n 1 "$OUTF" | grep -q "^exercises: 0 of $ecount done"; then
            ok "$el plain run exits 0 and ends with the exercises line"
        else
            notok "$el plain run and its exercises line" "exit $STATUS; last line: $(tail -n 1 "$OUTF")"
        fi
    fi
    sol=build/solutions/$el
    if [ ! -x "$sol" ]; then
        skip "$el solutions" "$sol not built (make test builds it on a machine with a GPU and the solutions)"
        return
    fi
    old_ifs=$IFS; IFS='|'; set -f
    for a in $eargs; do
        IFS=$old_ifs
        # shellcheck disable=SC2086
        expect_csv_pass "$el solutions --exercises $a" 0 $sol --exercises --csv -r 2 $a
        if [ "$STATUS" -eq 0 ] && [ "$(awk -F, 'NR > 1 && $23 != "kernel"' "$OUTF" | wc -l)" -lt 1 ]; then
            notok "$el solutions --exercises $a has exercise rows" "none in the CSV"
        fi
    done
    IFS=$old_ifs; set +f
    run $sol --exercises --csv -r 20
    for nb in $ebars; do
        x=${nb%%=*}; bar=${nb#*=}
        got=$(awk -F, -v x="$x" '$3 == x && $23 != "kernel" { print $17; exit }' "$OUTF")
        if [ -n "$got" ] && awk -v g="$got" -v b="$bar" 'BEGIN { exit !(g + 0 >= b + 0) }'; then
            ok "$el solution $x at ${got}x its reference (>= ${bar}x)"
        else
            notok "$el solution $x speed" "speedup '${got}' over its reference, wanted >= $bar"
        fi
    done
    run $sol -r 1
    if [ "$STATUS" -eq 0 ] && tail -n 1 "$OUTF" | grep -q "^exercises: $ecount of $ecount done"; then
        ok "$el solutions: the exercises line says all done"
    else
        notok "$el solutions: the exercises line" "exit $STATUS; last line: $(tail -n 1 "$OUTF")"
    fi
}

# finish_column NAME WANT: the CSV in $OUTF has a finish column, and every row
# that was run says WANT there, with a total_ms
finish_column() {
    fcheck=$(awk -F, -v want="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "finish") c = i; if ($i == "total_ms") t = i }
                  if (!c || !t) { print "no finish or total_ms column: " $0; exit } next }
        $NF == "todo" { next }
        $c != want || $t == "" { print "row " NR " " $3 ": finish \"" $c "\", total_ms \"" $t "\""; exit }' "$OUTF")
    if [ -n "$fcheck" ]; then notok "$1" "$fcheck"; else ok "$1"; fi
}

# device_finish_checks LAB ROWS NOTE: --finish device (each kernel relaunched
# on its own partial sums until one value remains): exact at n = 1, 2, 33,
# 1000003 and 2^24 - 3 at every block 32..1024 (all kernels per run), the
# finish column (host by default, device with the option), bad values (exit
# 2, one line), the table's total line and its note on the launches (NOTE:
# the note's text at the default n and block, e.g. "3 launches per reduction
# at n = 16777216, block 512 (grids 32768, 64, 1): KERNEL"), --json, and the
# exercises: as shipped each row's verdict is the host finish's (todo stays
# todo, a fix-it still FAILs); the solutions pass at odd and edge sizes.
device_finish_checks() {
    fl=$1; frows=$2; fnote=$3
    for n in 1 2 33 1000003 16777213; do
        for b in 32 64 128 256 512 1024; do
            expect_csv_pass "$fl --finish device n=$n b=$b" "$frows" ./$fl --finish device -n "$n" -b $b --csv -r 2
        done
        finish_column "$fl --finish device n=$n: every row's finish is device" device
    done
    expect_csv_pass "$fl --finish host" "$frows" ./$fl --finish host -n 1000003 --csv -r 2
    finish_column "$fl --finish host: finish is host" host
    run ./$fl -n 1000003 --csv -r 2
    finish_column "$fl: the host finish by default" host
    expect_usage "$fl --finish gpu" ./$fl --finish gpu
    expect_grep "$fl --finish gpu names both finishes" "'gpu' is not a finish: give host .* or device" "$ERRF"
    expect_usage "$fl --finish (no value)" ./$fl --finish
    expect_usage "$fl --finish Device" ./$fl -n 5 --finish Device
    expect_status 0 "$fl --finish device table" ./$fl --finish device -r 3
    expect_grep "$fl --finish device: the total line says which finish" "^total +the whole reduction to one number: the kernel relaunched on its own partial sums" "$OUTF"
    if grep -Fq "  $fnote" "$OUTF"; then ok "$fl --finish device: the launches under the table"
    else notok "$fl --finish device: the launches under the table" "no line '$fnote' in: $(grep -A4 '^device finish' "$OUTF" | head -c 500)"; fi
    expect_grep "$fl --finish device table: every row PASS" "PASS - $frows of $frows kernels verified" "$OUTF"
    if awk '/^device finish/ { on = 1 } on && length > 100 { exit 1 } on && /^$/ { exit 0 }' "$OUTF"; then
        ok "$fl --finish device: the note fits in 100 columns"
    else notok "$fl --finish device: the note fits in 100 columns" "$(awk 'length > 100' "$OUTF" | head -n 2)"; fi
    run ./$fl -r 3
    expect_grep "$fl default table: the total is the host's" "^total .*their sum on the" "$OUTF"
    if grep -q '^device finish' "$OUTF"; then notok "$fl default table has no device-finish note" "it has one"
    else ok "$fl default table has no device-finish note"; fi
    expect_status 0 "$fl --finish device --json" ./$fl --finish device --json -n 1000003 -r 2
    expect_grep "$fl --finish device --json: each row's finish" '"finish": "device"' "$OUTF"
    if command -v python3 >/dev/null 2>&1; then
        if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "$fl --finish device --json parses"
        else notok "$fl --finish device --json parses" "python3 -m json.tool refuses it"; fi
    fi
    # the exercises as built: the device finish gives every row the host finish's verdict
    run ./$fl --exercises --csv -r 1
    fhost=$STATUS; awk -F, 'NR > 1 && $23 != "kernel" { print $3, $NF }' "$OUTF" >"$TMPD/finish-host"
    run ./$fl --exercises --finish device --csv -r 1
    awk -F, 'NR > 1 && $23 != "kernel" { print $3, $NF }' "$OUTF" >"$TMPD/finish-device"
    if [ "$STATUS" -eq "$fhost" ] && [ -s "$TMPD/finish-host" ] && cmp -s "$TMPD/finish-host" "$TMPD/finish-device"; then
        ok "$fl --exercises --finish device: each exercise's verdict is the host finish's (exit $fhost)"
    else
        notok "$fl --exercises --finish device" "exit $STATUS (host: $fhost); device: $(tr '\n' ' ' <"$TMPD/finish-device") host: $(tr '\n' ' ' <"$TMPD/finish-host")"
    fi
    fsol=build/solutions/$fl
    if [ ! -x "$fsol" ]; then
        skip "$fl solutions --finish device" "$fsol not built (make test builds it on a machine with a GPU and the solutions)"
        return
    fi
    for n in 1 33 1000003 16777213; do
        for b in 32 128 1024; do
            expect_csv_pass "$fl solutions --exercises --finish device n=$n b=$b" 0 $fsol --exercises --finish device -n $n -b $b --csv -r 2
        done
    done
}
