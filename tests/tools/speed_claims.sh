#!/bin/sh
# tests/tools/speed_claims.sh - the speed checks of make test can fail, and
# hold on the GPUs whose runs are kept (POSIX sh, no GPU; from the repository
# root). For every run of tests/gpu/speed.claims with a kept CSV
# (tests/fixtures/GPU/FIXTURE, each GPU kept), tests/gpu/speed.awk on it:
#   - as kept, every claim holds (a claim whose rows the file lacks: skip);
#   - each claim's row made slower than the claim allows (1.5x the row it is
#     set against, and for "costs" the step besides), both rows under the
#     ceiling: FAIL;
#   - the same two rows both at 90% of the copy: "at the ceiling on this
#     GPU"; one at 84%: FAIL again.
. tests/lib.sh

# slowed FILE A B C PCT_A PCT_B: FILE with A's median and quartiles set past
# what the claim allows, and the two rows' pct_of_copy set
slowed() {
    awk -F, -v OFS=, -v a="$2" -v b="$3" -v c="$4" -v pa="$5" -v pb="$6" '
        NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) h[$i] = i; next }
                    if ($(h["kernel"]) == b) { tb[$(h["n"])] = $(h["q3_ms"]) }
                    if ($(h["kernel"]) == c) { tc[$(h["n"])] = $(h["time_ms"]) }
                    next }
        FNR == 1 { print; next }
        $(h["kernel"]) == a && ($(h["n"]) in tb) {
            n = $(h["n"]); v = 1.5 * tb[n] + ((n in tc) && tc[n] < tb[n] ? tb[n] - tc[n] : 0)
            $(h["time_ms"]) = v; $(h["q1_ms"]) = v; $(h["q3_ms"]) = v; $(h["pct_of_copy"]) = pa }
        $(h["kernel"]) == b { $(h["pct_of_copy"]) = pb }
        { print }' "$1" "$1"
}

grep -v '^#' tests/gpu/speed.claims | while IFS="|" read -r label _ fixture claims; do
    [ -n "$label" ] && [ "$fixture" != - ] || continue
    for f in tests/fixtures/*/"$fixture"; do
        [ -f "$f" ] || continue
        gpu=$(basename "$(dirname "$f")")
        old_ifs=$IFS; IFS=';'; set -f
        for claim in $claims; do
            IFS=$old_ifs
            # shellcheck disable=SC2086
            set -- $claim
            a=$1; b=$3; c=${4:-}
            name="$label ($gpu's kept run): $claim"
            missing=
            for k in $a $b $c; do
                awk -F, -v k="$k" 'NR > 1 && $3 == k { f = 1 } END { exit !f }' "$f" || missing="$missing $k"
            done
            if [ -n "$missing" ]; then skip "$name" "no row for$missing in $f"; continue; fi
            got=$(awk -v label=x -v claims="$claim" -f tests/gpu/speed.awk "$f")
            case $got in ok*) ok "$name: holds" ;; *) notok "$name: holds" "$got" ;; esac
            slowed "$f" "$a" "$b" "$c" 50 50 >"$TMPD/slow.csv"
            got=$(awk -v label=x -v claims="$claim" -f tests/gpu/speed.awk "$TMPD/slow.csv")
            case $got in FAIL*) ok "$name: reversed, FAIL" ;; *) notok "$name: reversed" "$got" ;; esac
            slowed "$f" "$a" "$b" "$c" 90 90 >"$TMPD/slow.csv"
            got=$(awk -v label=x -v claims="$claim" -f tests/gpu/speed.awk "$TMPD/slow.csv")
            case $got in *"at the ceiling on this GPU"*) ok "$name: reversed at 90% of the copy, at the ceiling" ;;
                *) notok "$name: reversed at 90% of the copy" "$got" ;; esac
            slowed "$f" "$a" "$b" "$c" 90 84 >"$TMPD/slow.csv"
            got=$(awk -v label=x -v claims="$claim" -f tests/gpu/speed.awk "$TMPD/slow.csv")
            case $got in FAIL*) ok "$name: reversed, one row at 84% of the copy, FAIL" ;;
                *) notok "$name: reversed, one row at 84%" "$got" ;; esac
        done
        IFS=$old_ifs; set +f
    done
done
# a run with no rows, and a header without the quartiles, fail
printf 'lab,device,kernel,n,time_ms,status\n' >"$TMPD/bad.csv"
got=$(awk -v label=x -v claims="a beats b" -f tests/gpu/speed.awk "$TMPD/bad.csv")
case $got in FAIL*) ok "speed.awk: a CSV without its columns or rows FAILs" ;; *) notok "speed.awk: a bad CSV" "$got" ;; esac
# a sweep: the claim at every n; one n reversed fails, naming it
{
    echo 'lab,kernel,n,time_ms,q1_ms,q3_ms,pct_of_copy,status'
    echo 'lab05,reduceModern,1024,0.0040,0.0040,0.0040,2.0,PASS'
    echo 'lab05,cub::DeviceReduce::Sum,1024,0.0041,0.0040,0.0041,2.0,PASS'
    echo 'lab05,reduceModern,4096,0.0050,0.0050,0.0050,5.0,PASS'
    echo 'lab05,cub::DeviceReduce::Sum,4096,0.00495,0.00495,0.00495,5.0,PASS'
} >"$TMPD/sweep.csv"
got=$(awk -v label=x -v claims="reduceModern level cub::DeviceReduce::Sum" -f tests/gpu/speed.awk "$TMPD/sweep.csv")
case $got in "ok x: reduceModern no slower than cub::DeviceReduce::Sum at 2 sizes"*) ok "speed.awk: a sweep, level within 2% at every n" ;;
    *) notok "speed.awk: a sweep, level within 2%" "$got" ;; esac
sed 's/^lab05,reduceModern,4096,0.0050,0.0050,0.0050/lab05,reduceModern,4096,0.0052,0.0052,0.0052/' "$TMPD/sweep.csv" >"$TMPD/sweep2.csv"
got=$(awk -v label=x -v claims="reduceModern level cub::DeviceReduce::Sum" -f tests/gpu/speed.awk "$TMPD/sweep2.csv")
case $got in "FAIL x: "*"n=4096: reduceModern"*) ok "speed.awk: a sweep with one n 6% slower FAILs there" ;;
    *) notok "speed.awk: a sweep with one n slower" "$got" ;; esac
