# tests/lib.sh - the few shell helpers every test script uses (POSIX sh).
#
# A test script prints one line per check: "ok NAME", "FAIL NAME: why" or
# "skip NAME: why". tests/run counts those lines; nothing else is parsed.
# Source it from the repository root:  . tests/lib.sh

if [ -z "${TMPD:-}" ]; then # a suite run alone: its own temp dir, removed when it ends
    TMPD=$(mktemp -d "${TMPDIR:-/tmp}/wbtest.XXXXXX") || exit 2
    trap 'rm -rf "$TMPD"' EXIT
    trap 'rm -rf "$TMPD"; exit 143' TERM
    trap 'rm -rf "$TMPD"; exit 130' INT
fi
OUTF=$TMPD/out
ERRF=$TMPD/err
. tools/labs.sh # the labs: lab_list, lab_get, ... (tools/labs.conf)

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
# width a projector shows whole (check_width).
expect_width() {
    name=$1; shift
    run "$@"
    if [ "$STATUS" -gt 1 ]; then notok "$name" "exit $STATUS; stderr: $(head -c 300 "$ERRF")"
    else check_width "$name" "$OUTF" "$ERRF"; fi
}

# run CMD...: stdout to $OUTF, stderr to $ERRF, status in $STATUS
run() {
    rt0=$(date +%s)
    "$@" >"$OUTF" 2>"$ERRF"
    STATUS=$?
    # its seconds, for the slowest runs that tests/run writes to the log
    echo "$(($(date +%s) - rt0)) $*" | cut -c 1-160 >>"$TMPD/run.secs"
}

# status_was CODE NAME: the last run exited with CODE ($STATUS; its stderr in $ERRF)
status_was() {
    if [ "$STATUS" -eq "$1" ]; then ok "$2"
    else notok "$2" "exit $STATUS, expected $1; stderr: $(head -c 300 "$ERRF")"; fi
}

# expect_status CODE NAME CMD...: the command exits with CODE
expect_status() {
    code=$1; name=$2; shift 2
    run "$@"
    status_was "$code" "$name"
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

# has_gpu: a usable CUDA device is present, as CUDA sees it (tools/gpu.sh;
# WB_GPU=0 or 1 overrides: tests/run sets 1 for its parts where it found one)
# offers BIN WORD: whether the program BIN offers WORD (explain, exercises,
# trace, types, finish, matrix, sweep, latency: BIN --capabilities)
offers() {
    case " $("$1" --capabilities 2>/dev/null) " in *" $2 "*) return 0 ;; esac
    return 1
}

has_gpu() {
    case "${WB_GPU:-}" in 0) return 1 ;; 1) return 0 ;; esac
    sh tools/gpu.sh count >/dev/null 2>&1
}

# gpu_room NAME MIB: a run whose data takes MIB MiB of GPU memory, with its
# context (WB_GPU_CTX_MIB, 768), fits in what tests/run gave this suite
# (WB_GPU_MIB: its share of the free memory; unset, a suite run alone: no
# limit). Else one skip line naming what it needs, and false.
gpu_room() {
    [ -n "${WB_GPU_MIB:-}" ] || return 0
    grn=$(($2 + ${WB_GPU_CTX_MIB:-768}))
    [ "$grn" -le "$WB_GPU_MIB" ] && return 0
    skip "$1" "needs about $grn MiB of GPU memory (its data and a context), $WB_GPU_MIB MiB free for it"
    return 1
}

# commas "a b c": a,b,c (a --check list)
commas() { echo $1 | tr ' ' ','; }

# check_cross LABEL "KERNELS" CMD...: CMD is a --check run; one check per
# configuration of its -n, -b, --type, --finish and --seed lists, named
# "LABEL n=N b=B ...": ok when every kernel of KERNELS has one PASS row there
# (a cub:: row at the first block only). Missing rows (a run that died), rows
# nobody expected and an exit status that disagrees fail (tests/gpu/check_cross.awk).
# The run's CSV stays in $OUTF.
check_cross() {
    cl=$1; cexpect=$2; shift 2
    # the lists (cn, cb, ct, cf, cs), and the command without them and
    # --check (crest: one_by_one's)
    cn=; cb=; ct=; cf=; cs=; cprev=; crest=
    for cx in "$@"; do
        case $cprev in
            -n) cn=$cx ;; -b) cb=$cx ;; --type) ct=$cx ;; --finish) cf=$cx ;; --seed) cs=$cx ;;
            *) case $cx in -n | -b | --type | --finish | --seed | --check) ;; *) crest="$crest $cx" ;; esac ;;
        esac
        cprev=$cx
    done
    run "$@"
    awk -v label="$cl" -v expect="$cexpect" -v ns="$cn" -v bs="$cb" -v ts="$ct" -v fs_="$cf" -v ss="$cs" \
        -v status="$STATUS" -f tests/gpu/check_cross.awk "$OUTF"
    if [ -n "${WB_TEST_ALL:-}" ]; then one_by_one "$cl"; fi
}

# one_by_one LABEL: (make test-all) each configuration of check_cross's
# --check run again as its own timed run (--csv -r 1; its command as
# check_cross scanned it: $crest, and --type and --finish where it gave
# them): each kernel's verdict there must be its --check row's (guards
# --check against the timed path)
one_by_one() {
    ol=$1
    cp "$OUTF" "$TMPD/one.check"
    awk -F, 'NR > 1 { print $4 "|" $5 "|" $7 "|" $9 "|" $10 }' "$TMPD/one.check" | sort -u >"$TMPD/one.cfgs"
    while IFS='|' read -r os ob ot of osd; do
        ot_=; of_=
        [ -n "$ct" ] && ot_=$ot
        [ -n "$cf" ] && of_=$of
        # shellcheck disable=SC2086
        set -- $crest -n "$os" ${ob:+-b $ob} ${ot_:+--type $ot_} ${of_:+--finish $of_} --seed "$osd" --csv -r 1
        "$@" >"$TMPD/one.csv" 2>/dev/null
        bad=$(awk -F, -v s="$os" -v b="$ob" -v t="$ot" -v f="$of" -v d="$osd" '
            FNR == NR { if (FNR > 1) timed[$3] = $NF; next }
            FNR > 1 && $4 == s && $5 == b && $7 == t && $9 == f && $10 == d && timed[$2] != $11 {
                printf " %s: --check %s, timed %s", $2, $11, timed[$2] == "" ? "no row" : timed[$2] }' \
            "$TMPD/one.csv" "$TMPD/one.check")
        if [ -z "$bad" ]; then echo "ok $ol one by one: $*"
        else echo "FAIL $ol one by one: $*:$bad"; fi
    done <"$TMPD/one.cfgs"
    cp "$TMPD/one.check" "$OUTF"
}

# lab_suite LAB: a lab's GPU suite starts: LAB=./LAB and KERNELS, its
# kernels (--list); where ./LAB is not built, one FAIL and the suite ends
lab_suite() {
    LAB=./$1
    if [ ! -x "$LAB" ]; then
        notok "$1-built" "$LAB is missing: run make $1"
        exit 1
    fi
    KERNELS=$(list_names "$LAB" kernel)
}

# list_table BIN: BIN --list as a table, one line per entry, in
# $TMPD/list.tab: PART ROLE NAME AGAINST. PART: 1d, or matrix (lab05's
# matrix mode); ROLE: kernel (the library's rows too), write or fix (an
# exercise); AGAINST: the row an exercise is measured against (- for a
# kernel). The one reader of --list: list_names and expected_rows ask it.
list_table() {
    "$1" --list >"$TMPD/list" 2>/dev/null
    join_wrapped "$TMPD/list"
    awk 'BEGIN { part = "1d" } /^matrix mode/ { part = "matrix"; ex = 0; next }
        /^exercises in / { ex = 1; next } !/^[^ ]/ { next }
        !ex { print part, "kernel", $1, "-"; next }
        { ref = $0; if (!sub(/.*\(measured against /, "", ref)) ref = "-"; sub(/\)$/, "", ref); print part, $2, $1, ref }' \
        "$TMPD/list" >"$TMPD/list.tab"
}

# list_names BIN ROLE [PART]: the names BIN --list gives ROLE (kernel, write,
# fix, or exercise: write and fix) in PART (1d, the default; matrix; all),
# in its order, blank-separated
list_names() {
    list_table "$1"
    awk -v role="$2" -v part="${3:-1d}" '(part == "all" || $1 == part) && (role == $2 || role == "exercise" && $2 != "kernel") { printf "%s ", $3 }' \
        "$TMPD/list.tab"
}

# check_width NAME FILE...: every line of the outputs already made fits in
# 100 columns: the one width check. awk counts characters in a UTF-8 locale
# (bytes where its awk cannot: never fewer than the columns).
check_width() {
    cwn=$1; shift
    wide=$(cat "$@" | LC_ALL=C.UTF-8 awk 'length($0) > 100 { n++; if (n == 1) first = length($0) " columns: " $0 }
        END { if (n) print n " line(s) over 100; the first: " substr(first, 1, 160) }')
    if [ -n "$wide" ]; then notok "$cwn" "$wide"; else ok "$cwn"; fi
}

# reduction_lab_checks LABNAME ROWS "KERNEL ..." "N ..." [FINISHES]: the
# checks every one-element-per-thread reduction lab shares: exact at each n
# and every block 32..1024 (and each finish of FINISHES, e.g. host,device),
# in one --check run; one kernel alone with -k (the last of the lab's own,
# at the smallest and largest block: -k picks it and nothing else; every
# kernel is checked in the run above, where the harness poisons each output
# before each launch, so no kernel leans on another's leftovers); bad input
# (exit 2, one line); --list, -h, --json (kept in $TMPD/LAB.json); the
# default table (kept in $TMPD/LAB.table: PASS, its width); exit 3 with a
# message when no device is visible.
reduction_lab_checks() {
    rl=$1; rrows=$2; rkernels=$3; rsizes=$4; rfin=${5:-}
    # shellcheck disable=SC2086
    check_cross "$rl" "$rkernels" ./$rl --check -n "$(commas "$rsizes")" -b 32,64,128,256,512,1024 \
        ${rfin:+--finish $rfin}
    ralone=
    for k in $rkernels; do case $k in cub::*) ;; *) ralone=$k ;; esac; done
    check_cross "$rl -k $ralone alone" "$ralone" ./$rl --check -k "$ralone" -n 100003 -b 32,1024
    expect_usage "$rl -n 0" ./$rl -n 0
    expect_usage "$rl -n past the int range" ./$rl -n 4G
    expect_usage "$rl -n abc" ./$rl -n abc
    expect_usage "$rl -b 48" ./$rl -b 48
    expect_usage "$rl -b 16" ./$rl -b 16
    expect_usage "$rl -b 2048" ./$rl -b 2048
    expect_usage "$rl -k nope" ./$rl -k nope
    expect_usage "$rl --bogus" ./$rl --bogus
    expect_usage "$rl -n 1,2 without --check" ./$rl -n 1,2
    expect_usage "$rl --check -b 32,48" ./$rl --check -b 32,48
    expect_usage "$rl --check -n 1,,2" ./$rl --check -n 1,,2
    expect_usage "$rl --check --json" ./$rl --check --json
    expect_status 0 "$rl --list" ./$rl --list
    for k in $rkernels; do
        expect_grep "$rl --list names $k" "^$k " "$OUTF"
    done
    expect_status 0 "$rl -h" ./$rl -h
    expect_grep "$rl -h shows usage" "^usage: ./$rl" "$OUTF"
    expect_grep "$rl -h names --check" "^  --check " "$OUTF"
    expect_status 0 "$rl --json" ./$rl --json -n 1000003 -r 2
    cp "$OUTF" "$TMPD/$rl.json"
    expect_grep "$rl --json passes" '"status": "PASS"' "$OUTF"
    expect_grep "$rl --json has every row" "\"passed\": $rrows," "$OUTF"
    if command -v python3 >/dev/null 2>&1; then
        if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "$rl --json parses"
        else notok "$rl --json parses" "python3 -m json.tool refuses it"; fi
    fi
    expect_status 0 "$rl default table" ./$rl -r 5
    cp "$OUTF" "$TMPD/$rl.table"
    expect_grep "$rl default table: every row PASS" "PASS - $rrows of $rrows kernels verified" "$OUTF"
    check_width "$rl default run fits 100 columns" "$OUTF" "$ERRF"
    expect_status 3 "$rl without a device" env CUDA_VISIBLE_DEVICES= ./$rl -n 1000
    expect_grep "$rl without a device says so" "no usable CUDA device" "$ERRF"
    check_width "$rl without a device: its line fits 100 columns" "$ERRF"
    expect_status 3 "$rl --check without a device" env CUDA_VISIBLE_DEVICES= ./$rl --check -n 1000
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

# built_with_solutions BIN: BIN was built with SOLUTIONS=1 (its build id,
# build/buildinfo/LAB.c next to the top-level binary, says +solutions)
built_with_solutions() {
    case $1 in ./*) grep -q '+solutions' "build/buildinfo/${1#./}.c" 2>/dev/null ;; *) return 1 ;; esac
}

# expected_rows BIN ARGS...: the kernels a --check BIN ARGS run gives rows
# for: with -k the named ones and the reference row of each named exercise;
# else every kernel, and with --exercises every exercise too
expected_rows() {
    ebin=$1; shift
    ek=; eex=0; eprev=; epart=1d
    for ea in "$@"; do
        [ "$eprev" = -k ] && ek=$ea
        [ "$eprev" = -n ] && case $ea in *x*) epart=matrix ;; esac
        [ "$ea" = --exercises ] && eex=1
        eprev=$ea
    done
    list_table "$ebin"
    # lab05's list has a matrix part: its kernels and exercises for a matrix -n
    grep -q '^matrix ' "$TMPD/list.tab" || epart=1d
    awk -v k="$ek" -v ex="$eex" -v part="$epart" '
        $1 != part { next }
        $2 == "kernel" { kern[++nk] = $3; next }
        { exer[++ne] = $3; against[$3] = $4 }
        END {
            if (k == "") {
                for (i = 1; i <= nk; i++) printf "%s ", kern[i]
                for (i = 1; ex && i <= ne; i++) printf "%s ", exer[i]
                exit
            }
            n = split(k, want, ",")
            for (i = 1; i <= n; i++) { printf "%s ", want[i]; if (want[i] in against) printf "%s ", against[want[i]] }
        }' "$TMPD/list.tab" | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' '
}

# exercise_checks LAB "ARGS|ARGS|...": the checks every lab with exercises
# shares. Its exercises are ./LAB --list's: the write-its and fix-its of the
# part a plain run takes, and K, all of them (another mode's too).
#   ./LAB as shipped (the student's file untouched; skipped when it was built
#   with SOLUTIONS=1): --check --exercises (at the exercise size) gives every
#   write-it exercise a todo row and every fix-it a FAIL row, and exits 1
#   when there is a fix-it; the default table ($TMPD/LAB.table, else a run
#   here) exits 0 and ends with "exercises: 0 of K done".
#   build/solutions/LAB (make test builds it where a GPU is): every row of
#   --check --exercises ARGS passes, for each ARGS (lists: "-n 1,33 -b 32,64"),
#   and a plain run says every exercise is done. Their speed is
#   tests/gpu/gpu_speed.sh's (tests/gpu/speed.claims).
exercise_checks() {
    el=$1; eargs=$2
    ewrite=$(list_names ./$el write); efix=$(list_names ./$el fix)
    ecount=$(( $(list_names ./$el exercise all | wc -w) )) # K
    efile=$(ls ${el}_*/exercises.c ${el}_*/exercises.cuh 2>/dev/null | head -n 1)
    if built_with_solutions ./$el; then
        skip "$el exercises as shipped" "./$el was built with SOLUTIONS=1"
    elif why=$(edited_exercise_file "$efile"); then
        skip "$el exercises as shipped" "$why"
    else
        run ./$el --check --exercises
        want=0; [ -n "$efix" ] && want=1
        if [ "$STATUS" -eq "$want" ]; then ok "$el --exercises as shipped exits $want"
        else notok "$el --exercises as shipped" "exit $STATUS, expected $want; $(head -c 300 "$ERRF")"; fi
        for x in $ewrite; do
            if awk -F, -v x="$x" '$2 == x && $3 == "write" && $11 == "todo" { f = 1 } END { exit !f }' "$OUTF"
            then ok "$el $x is todo as shipped"; else notok "$el $x is todo as shipped" "$(grep "^$el,$x," "$OUTF" | head -c 300)"; fi
        done
        for x in $efix; do
            if awk -F, -v x="$x" '$2 == x && $3 == "fix" && $11 == "FAIL" { f = 1 } END { exit !f }' "$OUTF"
            then ok "$el $x FAILs as shipped"; else notok "$el $x FAILs as shipped" "$(grep "^$el,$x," "$OUTF" | head -c 300)"; fi
        done
        if [ -s "$TMPD/$el.table" ]; then cp "$TMPD/$el.table" "$OUTF"; STATUS=0
        else run ./$el -r 1; fi
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
        check_cross "$el solutions --exercises" "$(expected_rows $sol --exercises $a)" $sol --check --exercises $a
    done
    IFS=$old_ifs; set +f
    run $sol -r 1
    if [ "$STATUS" -eq 0 ] && tail -n 1 "$OUTF" | grep -q "^exercises: $ecount of $ecount done"; then
        ok "$el solutions: the exercises line says all done"
    else
        notok "$el solutions: the exercises line" "exit $STATUS; last line: $(tail -n 1 "$OUTF")"
    fi
}

# fixits_fail LAB "BLOCK ..." N: ./LAB as shipped, its fix-its alone (-k)
# at every block of the list in one --check run: at each block every fix-it
# row FAILs at N (the exercise size), every reference row PASSes, and the
# run exits 1 (a bug that shows every time, not a race that may hide).
# Skipped when ./LAB was built with SOLUTIONS=1.
fixits_fail() {
    if built_with_solutions ./$1; then
        skip "$1 fix-its FAIL at every block" "./$1 was built with SOLUTIONS=1"
        return
    fi
    ffix=$(list_names ./$1 fix)
    run ./$1 --check -k "$(commas "$ffix")" -b "$(commas "$2")"
    for b in $2; do
        check=$(awk -F, -v b="$b" -v n="$3" -v nfix="$(echo $ffix | wc -w)" '
            NR == 1 || $5 != b { next }
            msg == "" && $3 == "fix" && $11 != "FAIL" { msg = $2 " says " $11 }
            msg == "" && $3 == "kernel" && $11 != "PASS" { msg = $2 " says " $11 }
            $3 == "kernel" { refs++ }
            $3 == "fix" { fixes++; if ($4 != n) msg = $2 " ran at n = " $4 }
            END { if (msg == "" && fixes != nfix) msg = fixes + 0 " fix-it rows, expected " nfix
                  if (msg == "" && !refs) msg = "no reference row"
                  if (msg != "") print msg }' "$OUTF")
        if [ "$STATUS" -ne 1 ]; then notok "$1 fix-its FAIL as shipped at -b $b" "exit $STATUS, expected 1"
        elif [ -n "$check" ]; then notok "$1 fix-its FAIL as shipped at -b $b" "$check"
        else ok "$1 fix-its FAIL as shipped at -b $b (n = $3)"; fi
    done
}

# explain_correct LAB ROWS: the --explain output in $OUTF simulates each of
# the ROWS kernels of LAB's table to the right sum (": correct", no WRONG)
explain_correct() {
    if grep -q WRONG "$OUTF"; then notok "$1 --explain simulation" "$(grep WRONG "$OUTF" | head -c 300)"
    elif [ "$(grep -c ': correct$' "$OUTF")" -ne "$2" ]; then notok "$1 --explain simulation" "not every kernel ends correct"
    else ok "$1 --explain simulation"; fi
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
# on its own partial sums until one value remains; its exactness at every n
# and block is reduction_lab_checks' --finish host,device run): the finish
# column of the timed CSV (as --finish says; host without it: reduction_lab_checks'
# --json run, $TMPD/LAB.json), bad values
# (exit 2, one line), the table's total line and its note on the launches
# (NOTE: the note's text at the default n and block, e.g. "3 launches per
# reduction at n = 16777216, block 512 (grids 32768, 64, 1): KERNEL"; the
# table kept in $TMPD/LAB.device-table), --json, and the exercises: as
# shipped each row's verdict is the host finish's (todo stays todo, a fix-it
# still FAILs).
device_finish_checks() {
    fl=$1; frows=$2; fnote=$3
    expect_csv_pass "$fl --finish device" "$frows" ./$fl --finish device -n 1000003 --csv -r 2
    finish_column "$fl --finish device: every row's finish is device" device
    expect_csv_pass "$fl --finish host" "$frows" ./$fl --finish host -n 1000003 --csv -r 2
    finish_column "$fl --finish host: finish is host" host
    # the host finish by default: every row of reduction_lab_checks' --json run
    # (no --finish) says host, with a total_ms
    fcheck=$(awk -v want="$frows" '/^    \{"kernel": / { n++; if ($0 !~ /"finish": "host"/ || $0 ~ /"total_ms": null/) bad = $0 }
        END { if (bad != "") print substr(bad, 1, 200); else if (n != want) print n + 0 " rows, expected " want }' "$TMPD/$fl.json" 2>&1)
    if [ -n "$fcheck" ]; then notok "$fl: the host finish by default (--json)" "$fcheck"
    else ok "$fl: the host finish by default (--json: every row host, with a total_ms)"; fi
    expect_usage "$fl --finish gpu" ./$fl --finish gpu
    expect_grep "$fl --finish gpu names both finishes" "'gpu' is not a finish: give host .* or device" "$ERRF"
    expect_usage "$fl --finish (no value)" ./$fl --finish
    expect_usage "$fl --finish Device" ./$fl -n 5 --finish Device
    expect_usage "$fl --finish host,device without --check" ./$fl --finish host,device
    expect_status 0 "$fl --finish device table" ./$fl --finish device -r 3
    cp "$OUTF" "$TMPD/$fl.device-table"
    expect_grep "$fl --finish device: the total line says which finish" "^total +the whole reduction to one number: the kernel relaunched on its own partial sums" "$OUTF"
    if grep -Fq "  $fnote" "$OUTF"; then ok "$fl --finish device: the launches under the table"
    else notok "$fl --finish device: the launches under the table" "no line '$fnote' in: $(grep -A4 '^device finish' "$OUTF" | head -c 500)"; fi
    expect_grep "$fl --finish device table: every row PASS" "PASS - $frows of $frows kernels verified" "$OUTF"
    check_width "$fl --finish device table fits 100 columns" "$OUTF"
    if [ -s "$TMPD/$fl.table" ]; then cp "$TMPD/$fl.table" "$OUTF"; else run ./$fl -r 3; fi
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
    run ./$fl --check --exercises --finish host,device
    awk -F, 'NR > 1 && $3 != "kernel" { print $2, $9, $11 }' "$OUTF" >"$TMPD/finish-ex"
    diff=$(awk '{ v[$1, $2] = $3; k[$1] = 1 } END { for (x in k) if (v[x, "host"] != v[x, "device"]) printf " %s: host %s, device %s", x, v[x, "host"], v[x, "device"] }' "$TMPD/finish-ex")
    if [ -s "$TMPD/finish-ex" ] && [ -z "$diff" ] && [ "$STATUS" -le 1 ]; then
        ok "$fl --exercises --finish device: each exercise's verdict is the host finish's (exit $STATUS)"
    else
        notok "$fl --exercises --finish device" "exit $STATUS;$diff"
    fi
}
