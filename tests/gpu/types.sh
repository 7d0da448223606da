# tests/gpu/types.sh - labs 02-05 in float and double on a GPU. POSIX sh,
# run from the repository root after `make`; tests/run runs it in two halves
# side by side where a device exists (gpu_types.sh, gpu_types_half2.sh).
#
# The default float/double input is integers small enough that every partial
# sum is exact in the type, so the check is exact, as for int: every kernel at
# every n from 1 to 40, at the tails of every unroll factor, at 1000003 and
# 2^24 - 3, at every block (one --check run per lab). Above 2^24 a float row
# says it used the error bound. --values uniform: every row prints its error
# and bound, and passes. A kernel that drops one element (WB_TEST_DROP=1: the
# harness zeroes one input element on the device after computing the
# reference, as a kernel that skips it would) fails in every type. One-pass
# kernels: reduceModern gives the same bits on every run, reduceAtomic need
# not. Bad input: --type and --values.
# gpu-memory: 256 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

# the GPU labs that take more than one type (WB_TYPES_LABS=lab05: one lab only);
# WB_TYPES_HALF=1 or 2: the first or the second half of them (the two suites
# tests/run runs side by side: each lab run starts CUDA, one after another)
LABS=${WB_TYPES_LABS:-$(for l in $(lab_list device gpu); do
    [ -n "$(lab_get $l types | cut -s -d' ' -f2-)" ] && echo $l; done)}
case ${WB_TYPES_HALF:-} in
    1 | 2) LABS=$(echo $LABS | awk -v h="$WB_TYPES_HALF" '{ m = int((NF + 1) / 2)
        for (i = (h == 1 ? 1 : m + 1); i <= (h == 1 ? m : NF); i++) printf "%s ", $i }') ;;
esac
BLOCKS="32 64 128 256 512 1024"

for lab in $LABS; do
    if [ ! -x ./$lab ]; then
        notok "$lab-built" "./$lab is missing: run make"
        exit 1
    fi
done

for lab in $LABS; do
    kernels=$(list_names ./$lab kernel)
    sizes=
    n=1
    while [ $n -le 40 ]; do sizes="$sizes $n"; n=$((n + 1)); done
    for b in $BLOCKS; do
        sizes="$sizes $((b * 8 - 1)) $((b * 8 + 1))"
        # lab05: reduceModern's tiles (4 vectors a thread: 16*b floats, 8*b
        # doubles) and a partial tile after several whole ones
        [ $lab = lab05 ] && sizes="$sizes $((b * 16 - 1)) $((b * 16 + 1)) $((b * 48 + 5))"
        # lab05: reduceModernSmall's full blocks (1, 2, 4 vectors a thread: 4b, 8b,
        # 16b floats; 2b, 4b, 8b doubles), where its loads have no guards
        [ $lab = lab05 ] && sizes="$sizes $((b * 2)) $((b * 4)) $((b * 8)) $((b * 16))"
    done
    sizes=$(echo $sizes 1000003 16777213 | tr ' ' '\n' | sort -n | uniq | tr '\n' ' ')
    check_cross "$lab" "$kernels" ./$lab --check --type float,double -n "$(commas "$sizes")" -b "$(commas "$BLOCKS")"
    for t in float double; do
        # the CSV of a timed run says the type
        run ./$lab --type $t -n 1000 --csv -r 1
        if awk -F, -v t=$t 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "type") c = i; next }
                             $c != t { bad = 1 } END { exit bad || !c }' "$OUTF"; then
            ok "$lab --type $t: every CSV row says $t"
        else
            notok "$lab --type $t: every CSV row says $t" "$(head -c 300 "$OUTF")"
        fi
    done
    # the second mode: every row checked against its bound, error <= bound
    check_cross "$lab --values uniform" "$kernels" ./$lab --check --type float,double --values uniform -n 1000003
    if [ "$STATUS" -eq 0 ] && awk -F, 'NR > 1 && $12 !~ /error [0-9.e+-]+ <= bound [0-9.e+-]+/ { bad = 1 } END { exit bad }' "$OUTF"
    then ok "$lab --values uniform: every row names its error and bound"
    else notok "$lab --values uniform: every row names its error and bound" "$(awk -F, 'NR > 1 { print $12 }' "$OUTF" | head -n 2)"; fi
    # a dropped element is caught in every type, by every kernel
    run env WB_TEST_DROP=1 ./$lab --check --type int,float,double -n 1000003
    for t in int float double; do
        if [ "$STATUS" -eq 1 ] && awk -F, -v t=$t 'NR > 1 && $7 == t { n++; if ($11 != "FAIL") bad = 1 } END { exit bad || !n }' "$OUTF"
        then ok "$lab --type $t: a dropped element fails"
        else notok "$lab --type $t: a dropped element fails" "exit $STATUS; $(awk -F, -v t=$t '$7 == t && $11 != "FAIL" { print $2 }' "$OUTF" | tr '\n' ' ')"; fi
    done
    expect_usage "$lab --type half" ./$lab --type half
    expect_usage "$lab --type" ./$lab --type
    expect_usage "$lab --values uniform with int" ./$lab --values uniform
    expect_usage "$lab --values gauss" ./$lab --type float --values gauss
    expect_usage "$lab --type float --exercises" ./$lab --type float --exercises
    expect_usage "$lab --check --type int,half" ./$lab --check --type int,half
    expect_usage "$lab --check --type int,float --values uniform" ./$lab --check --type int,float --values uniform
done

# (lab05's own checks below: in the half that holds lab05)
case " $LABS " in *" lab05 "*) ;; *) exit 0 ;; esac

# float above 2^24: no integer input keeps every float sum exact; the rows
# say which check they used, and pass
check_cross "lab05 float above 2^24" "$(list_names ./lab05 kernel)" ./lab05 --check --type float -n 20000000
if [ "$STATUS" -eq 0 ] && awk -F, 'NR > 1 && $12 !~ /no exact float input: error .* <= (bound|tol) / { bad = 1 } END { exit bad || NR < 2 }' "$OUTF"; then
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
