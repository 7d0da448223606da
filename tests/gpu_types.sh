# tests/gpu_types.sh - labs 02-05 in float and double on a GPU. POSIX sh,
# run from the repository root after `make`; tests/run calls it where a
# device exists.
#
# The default float/double input is integers small enough that every partial
# sum is exact in the type, so the check is exact, as for int: every kernel at
# every n from 1 to 40 (the block turning through 32..1024), at the tails of
# every unroll factor for every block, and at 1000003 and 2^24 - 3. Above
# 2^24 a float row says it used the error bound. --values uniform: every row
# prints its error and bound, and passes. A kernel that drops one element
# (WB_TEST_DROP=1: the harness zeroes one input element on the device after
# computing the reference, as a kernel that skips it would) fails in every
# type. One-pass kernels: reduceModern gives the same bits on every run,
# reduceAtomic need not. Bad input: --type and --values.
. tests/lib.sh

LABS=${WB_TYPES_LABS:-"lab02 lab03 lab04 lab05"} # WB_TYPES_LABS=lab05: one lab only
BLOCKS="32 64 128 256 512 1024"

for lab in $LABS; do
    if [ ! -x ./$lab ]; then
        notok "$lab-built" "./$lab is missing: run make"
        exit 1
    fi
done

for lab in $LABS; do
    for t in float double; do
        n=1
        while [ $n -le 40 ]; do
            b=$((32 << (n % 6)))
            expect_csv_pass "$lab --type $t n=$n b=$b" 0 ./$lab --type $t -n $n -b $b --csv -r 1
            n=$((n + 1))
        done
        for b in $BLOCKS; do
            # lab05: reduceModern's tiles (4 vectors a thread: 16*b floats,
            # 8*b doubles) and a partial tile after several whole ones
            extra=
            [ $lab = lab05 ] && extra="$((b * 16 - 1)) $((b * 16 + 1)) $((b * 48 + 5))"
            for n in $((b * 8 - 1)) $((b * 8 + 1)) $extra 1000003; do
                expect_csv_pass "$lab --type $t n=$n b=$b" 0 ./$lab --type $t -n $n -b $b --csv -r 1
            done
        done
        expect_csv_pass "$lab --type $t n=2^24-3" 0 ./$lab --type $t -n 16777213 --csv -r 2
        # the CSV says the type
        run ./$lab --type $t -n 1000 --csv -r 1
        if awk -F, -v t=$t 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "type") c = i; next }
                             $c != t { bad = 1 } END { exit bad || !c }' "$OUTF"; then
            ok "$lab --type $t: every CSV row says $t"
        else
            notok "$lab --type $t: every CSV row says $t" "$(head -c 300 "$OUTF")"
        fi
        # the second mode: every row has an error and a bound, error <= bound
        run ./$lab --type $t --values uniform -n 1000003 --csv -r 2
        if [ "$STATUS" -ne 0 ]; then
            notok "$lab --type $t --values uniform" "exit $STATUS: $(head -c 300 "$ERRF")"
        elif awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "error") e = i; if ($i == "bound") b = i } next }
                      $e == "" || $b == "" || $e + 0 > $b + 0 { bad = 1 } END { exit bad || !e || !b || NR < 2 }' "$OUTF"; then
            ok "$lab --type $t --values uniform: errors inside their bounds"
        else
            notok "$lab --type $t --values uniform: errors inside their bounds" "$(head -c 400 "$OUTF")"
        fi
        # a dropped element is caught in this type as in int
        expect_status 1 "$lab --type $t: a dropped element fails" env WB_TEST_DROP=1 ./$lab --type $t -n 1000003 --csv -r 1
    done
    expect_status 1 "$lab --type int: a dropped element fails" env WB_TEST_DROP=1 ./$lab -n 1000003 --csv -r 1
    expect_usage "$lab --type half" ./$lab --type half
    expect_usage "$lab --type" ./$lab --type
    expect_usage "$lab --values uniform with int" ./$lab --values uniform
    expect_usage "$lab --values gauss" ./$lab --type float --values gauss
    expect_usage "$lab --type float --exercises" ./$lab --type float --exercises
done

# float above 2^24: no integer input keeps every float sum exact; the rows
# say which check they used, and pass
run ./lab05 --type float -n 20000000 --csv -r 2
if [ "$STATUS" -eq 0 ] && grep -q 'bound' "$OUTF"; then
    ok "lab05 --type float above 2^24: the bound check, named"
else
    notok "lab05 --type float above 2^24: the bound check, named" "exit $STATUS: $(head -c 300 "$OUTF")"
fi

# one pass, run to run: reduceModern adds the blocks' sums in a fixed order,
# so its bits never change; reduceAtomic adds them as the blocks finish
for t in float double; do
    run ./lab05 --type $t --values uniform -k reduceModern,reduceAtomic -n 16777216 -r 20
    if [ "$STATUS" -eq 0 ] && ! grep -q "reduceModern: [0-9]* different sums" "$OUTF" &&
            grep -q "gave the same bits in all its runs" "$OUTF"; then
        ok "lab05 --type $t: reduceModern gives the same bits in every run"
    else
        notok "lab05 --type $t: reduceModern gives the same bits in every run" "exit $STATUS: $(grep -i 'sums in\|same bits' "$OUTF")"
    fi
done
