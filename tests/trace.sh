# tests/trace.sh - the trace (make trace, tools/trace/): one kernel's real
# accesses on the GPU, recorded with the Compute Sanitizer API. POSIX sh, run
# from the repository root after `make lab02 lab05 lab06`; tests/run runs it
# with the other parts. Its traces on the GPU run at once, in lanes (below):
# each takes seconds, mostly the Compute Sanitizer's start.
#
# On the CPU (always): the drawing program on hand-made records
# (tests/fixtures/trace/): reduceNeighbored on one block of 32 (its counts,
# its steps, nothing unordered), a tile column read with no barrier (32-way
# conflicts, unordered and stale reads flagged), an overflowed record
# (drawn as INCOMPLETE, exit 3), a kernel never launched and a cut record
# (exit 3, one line); --brief and --svg.
# On the GPU, each traced count held against the model --explain draws on
# the same input: lab02's two kernels at -n 64 -b 32 and lab03's three (its
# build without dynamic parallelism) at -n 128 -b 64 (load requests and
# sectors per block, sectors per step, steps); every lab04 kernel's barriers
# per block at -b 512; reduceSmem's conflict-free banks at -b 512; lab06's copy and naive
# transposes at 64x64 with blocks of 32x8 (sectors per load and per store
# request, as --explain's Part 2); transposeSmem's 32-way conflict and
# transposeSmemPad's none (as its Part 3). The fix-its as shipped show what
# is wrong (lab05's reduceSmemNoSyncwarp: unordered shared accesses in its
# last warp; lab06's transposeSmemNoSync: tile rows read before they are
# written), and their solutions (build/solutions/, built by make test with a
# GPU) show nothing flagged. lab03 built with dynamic parallelism is refused
# (exit 3). Then every kernel of every lab that traces, each at the trace's
# default size or the first larger one that launches it (below). Without a
# device, or without the Sanitizer API in the toolkit, the GPU part skips.
. tests/lib.sh

FIX=tests/fixtures/trace
DRAW=$TMPD/trace_draw

# ---- the drawing program, on the CPU ---------------------------------------
if ! ${CC:-gcc} -O2 -std=c11 -Wall -Wextra -Werror -o "$DRAW" tools/trace/trace_draw.c tools/trace/draw_*.c 2>"$ERRF"; then
    notok "trace_draw builds with -Wall -Wextra -Werror" "$(head -c 300 "$ERRF")"
    exit 1
fi
ok "trace_draw builds with -Wall -Wextra -Werror"

expect_status 0 "trace_draw on reduceNeighbored, one block of 32 (hand-made record)" "$DRAW" $FIX/neighbored32.trace
expect_grep "trace_draw: 11 load requests and 31 sectors per block" \
    "per block \(block 0\): 11 load requests, 31 load sectors \(2\.82 per request\)" "$OUTF"
expect_grep "trace_draw: 5 barriers per block" "barriers per block: 5 " "$OUTF"
expect_grep "trace_draw: nothing unordered in reduceNeighbored" "unordered accesses: 0; stale shared reads: 0" "$OUTF"
steps=$(awk '/^  step  threads/ { on = 1; next } on && /^ +[0-9]+  [#.]/ { printf "%s ", $NF } /^2\. / { exit }' "$OUTF")
if [ "$steps" = "4.0 4.0 4.0 2.0 1.0 " ]; then ok "trace_draw: sectors per load request, step by step"
else notok "trace_draw: sectors per load request, step by step" "got '$steps', expected '4.0 4.0 4.0 2.0 1.0 '"; fi
expect_grep "trace_draw: the tree names what thread 0 read and wrote" "^      t0 A0,A1>A0  t2 A2,A3>A2" "$OUTF"
expect_grep "trace_draw: the last step writes the partial sum" "^      t0 A0>B0$" "$OUTF"
check_width "trace_draw output fits 100 columns" "$OUTF"
expect_status 0 "trace_draw -v (values)" "$DRAW" -v $FIX/neighbored32.trace
expect_grep "trace_draw -v shows the sums" "t0 A0=0,A1=1>A0=1  t2 A2=2,A3=3>A2=5" "$OUTF"
check_width "trace_draw -v fits 100 columns" "$OUTF"

expect_status 0 "trace_draw on a tile column read without a barrier" "$DRAW" $FIX/nobarrier32.trace
expect_grep "trace_draw: a 32-way bank conflict" "worst bank conflict: 32-way" "$OUTF"
expect_grep "trace_draw: the unordered and stale reads counted" "unordered accesses: 33; stale shared reads: 31" "$OUTF"
expect_grep "trace_draw: an unordered read flagged in the tree" \
    "!! unordered: t31 reads s0, t0 writes it in this step \(one warp, no __syncwarp\(\)\)" "$OUTF"
expect_grep "trace_draw: a strided store, 32 sectors" "g2 +\+40 +store 4 B +1 +32\.0 +128\.0 +32\.00" "$OUTF"
check_width "trace_draw output fits 100 columns (conflicts)" "$OUTF"

sed 's/^claimed .*/claimed 300/; s/^capacity .*/capacity 255/' $FIX/neighbored32.trace >"$TMPD/over.trace"
expect_status 3 "trace_draw: an overflowed record exits 3" "$DRAW" "$TMPD/over.trace"
expect_grep "trace_draw: an overflowed record says INCOMPLETE" "^INCOMPLETE: the device buffer held 255 of 300" "$OUTF"
sed '/^a /d; s/^status .*/status not-launched/' $FIX/neighbored32.trace >"$TMPD/none.trace"
expect_status 3 "trace_draw: a kernel never launched exits 3" "$DRAW" "$TMPD/none.trace"
expect_grep "trace_draw: says no such kernel ran" "^trace: no kernel named reduceNeighbored was launched" "$ERRF"
sed '/^end$/d' $FIX/neighbored32.trace >"$TMPD/cut.trace"
expect_status 3 "trace_draw: a record without its end exits 3" "$DRAW" "$TMPD/cut.trace"
expect_status 2 "trace_draw: no record named" "$DRAW"
expect_status 0 "trace_draw --brief --svg" "$DRAW" --brief --svg "$TMPD/fix.svg" $FIX/nobarrier32.trace
expect_grep "trace_draw --brief: the flagged reads stay" "!! unordered: t31 reads s0" "$OUTF"
if grep -q "^2\. Summary" "$OUTF" && ! grep -Eq "^[2-4]\. (Coalescing|Shared|Active)|^      t0 " "$OUTF"; then
    ok "trace_draw --brief: the tree's steps, its flags and the summary only"
else notok "trace_draw --brief" "$(grep '^[0-9]\. ' "$OUTF" | head -5)"; fi
check_width "trace_draw --brief fits 100 columns" "$OUTF"
if head -c 5 "$TMPD/fix.svg" | grep -q '<svg' && tail -n 1 "$TMPD/fix.svg" | grep -q '^</svg>$' &&
    grep -q 'stroke="#cc3311"' "$TMPD/fix.svg"; then
    ok "trace_draw --svg: a whole SVG, the unordered reads in red"
else notok "trace_draw --svg" "$(head -c 200 "$TMPD/fix.svg" 2>&1)"; fi

# trace.sh's choice of size, on the CPU: a stand-in lab05 that launches
# reduceModern only from n = 4096 (below, reduceModernSmall: it writes the
# record of a kernel not launched) and a record of the fixture's tree from
# there, with a stand-in Sanitizer folder and library in a folder of the
# test's (WB_TRACE_OUTDIR): without -n the trace tries 64, 256, 1024, 4096,
# draws the fourth and says so; with -n 64 it tries no other (exit 3)
F=$TMPD/standin
mkdir -p "$F/san/include" "$F/out" "$F/bin"
: >"$F/san/include/sanitizer.h"
: >"$F/san/libsanitizer-public.so"
: >"$F/out/wbtrace_patch.sm_99.fatbin"
: >"$F/out/libwbtrace.so"
cat >"$F/bin/lab05" <<STANDIN
#!/bin/sh
case " \$* " in *" --list "*) printf 'kernel,kind,against,lesson\nreduceModern,kernel,,x\n'; exit 0 ;; esac
n=0
while [ \$# -gt 0 ]; do [ "\$1" = -n ] && n=\$2; shift; done
echo "\$n" >>"$F/sizes"
if [ "\$n" -lt 4096 ]; then
    printf 'wbtrace 1\nwant reduceModern\nstatus not-launched\nlaunched reduceModernSmall\nend\n' >"\$WB_TRACE_OUT"
else
    sed 's/reduceNeighbored/reduceModern/g' "$PWD/$FIX/neighbored32.trace" >"\$WB_TRACE_OUT"
fi
echo lab,kernel,c,d,e,f,g,h,i,j,status
echo lab05,reduceModern,c,d,e,f,g,h,i,j,PASS
STANDIN
chmod +x "$F/bin/lab05"
standin() { env GPU_CC=99 CUDA_SANITIZER_DIR="$F/san" WB_TRACE_OUTDIR="$F/out" sh tools/trace/trace.sh "$@"; }
: >"$F/sizes"
expect_status 0 "trace: a kernel the default size does not launch is traced at one that does" \
    standin "$F/bin/lab05" reduceModern "" "" --brief
expect_grep "trace: says which size launches it" \
    "^  -n 64 does not launch reduceModern \(it launched reduceModernSmall\);" "$OUTF"
expect_grep "trace: ... and which size it traced" "^  traced at -n 4096, the first size" "$OUTF"
expect_grep "trace: its verdict names that size" "verdict of reduceModern on this input \(-n 4096 -b 32\): PASS" "$OUTF"
if [ "$(tr '\n' ' ' <"$F/sizes")" = "64 256 1024 4096 " ]; then ok "trace: the sizes tried, 4x each (64 256 1024 4096)"
else notok "trace: the sizes tried" "$(tr '\n' ' ' <"$F/sizes")"; fi
check_width "trace: the size's note fits 100 columns" "$OUTF"
: >"$F/sizes"
expect_status 3 "trace: with -n given, no other size is tried (exit 3)" standin "$F/bin/lab05" reduceModern 64 32
expect_grep "trace: ... and it says what ran instead" \
    "no kernel named reduceModern was launched on this input; it launched: reduceModernSmall" "$ERRF"
if [ "$(tr '\n' ' ' <"$F/sizes")" = "64 " ]; then ok "trace: -n 64 given, 64 alone tried"
else notok "trace: -n given" "tried $(tr '\n' ' ' <"$F/sizes")"; fi

# ./labNN --trace: bad command lines (exit 2, one line) before anything runs
if [ -x ./lab02 ]; then
    expect_usage "lab02 --trace without a kernel" ./lab02 --trace
    expect_usage "lab02 --trace with --csv" ./lab02 --trace reduceNeighbored --csv
    if ! has_gpu; then
        expect_status 3 "lab02 --trace without a device" ./lab02 --trace reduceNeighbored
        expect_grep "lab02 --trace without a device says so" "^trace: no usable CUDA device" "$ERRF"
    fi
fi

# ---- on the GPU ---------------------------------------------------------------
if ! has_gpu; then
    skip "trace on the GPU" "no usable CUDA device here"
    exit 0
fi
if ! sh tools/trace/trace.sh --preflight 2>"$ERRF"; then
    skip "trace on the GPU" "$(head -c 300 "$ERRF")"
    exit 0
fi
for l in lab02 lab05 lab06; do
    if [ ! -x ./$l ]; then notok "$l built" "./$l is missing: run make $l"; exit 1; fi
done
# one trace first (it builds the trace's library and drawing program): where
# the injection records nothing, one FAIL says why instead of every check
# below failing with it
run sh tools/trace/trace.sh ./lab02 reduceNeighbored 64 32
if [ "$STATUS" -ne 0 ]; then
    notok "a trace of lab02 reduceNeighbored records the launch" "exit $STATUS; $(head -c 400 "$ERRF")"
    exit 1
fi
ok "a trace of lab02 reduceNeighbored records the launch"

# The traces below are independent: they run at once, in lanes (each lane its
# groups one after another; a group's traces write the same record,
# build/trace/LAB.KERNEL.trace, so they share a lane, in order). Each job's
# stdout, stderr and status land in $TR/ID.*; the checks then read them in
# order. Lanes: as many as the GPU memory tests/run gave this part holds
# traced processes (WB_GPU_MIB / (256 MiB + a context)), 1 to 8.
TR=$TMPD/tr
PLAN=$TMPD/tr.plan
mkdir -p "$TR" && : >"$PLAN"
# tr_job ID CMD...: one run (lib.sh's run, in a lane's own subshell) into $TR/ID.out,
# .err, and its status into .st
tr_job() {
    tid=$1; shift
    OUTF=$TR/$tid.out ERRF=$TR/$tid.err
    run "$@" </dev/null
    echo "$STATUS" >"$TR/$tid.st"
}
# tr_load ID: that run's outputs in $OUTF and $ERRF, its status in $STATUS
# (99: it never ended)
tr_load() {
    cp "$TR/$1.out" "$OUTF" 2>/dev/null || : >"$OUTF"
    cp "$TR/$1.err" "$ERRF" 2>/dev/null || : >"$ERRF"
    STATUS=$(cat "$TR/$1.st" 2>/dev/null || echo 99)
}
# tr_expect CODE ID NAME: expect_status for a job's run
tr_expect() {
    tr_load "$2"
    status_was "$1" "$3"
}
# plan "JOB; JOB; ...": one group, its tr_job calls on one line (run with eval)
plan() { echo "$1" | tr '\n' ' ' >>"$PLAN" && echo >>"$PLAN"; }
T="sh tools/trace/trace.sh"
shipped05=0; shipped06=0
built_with_solutions ./lab05 || edited_exercise_file lab05_smem/exercises.cuh >/dev/null || shipped05=1
built_with_solutions ./lab06 || edited_exercise_file lab06_transpose/exercises.cuh >/dev/null || shipped06=1

# the models the traces are held to: --explain, on the CPU
run ./lab02 --explain -b 32
cp "$OUTF" "$TMPD/explain02"
[ -x ./lab03 ] && run ./lab03 --explain -b 64 && cp "$OUTF" "$TMPD/explain03"
if [ -x ./lab04 ]; then
    run ./lab04 --explain -b 512 -n 4096
    cp "$OUTF" "$TMPD/explain4"
fi
run ./lab06 --explain -n 64x64 -b 32x8
cp "$OUTF" "$TMPD/explain6"
banks05=0
./lab05 --explain | grep -q -- "-> 32 lanes, 32 different banks: one pass, no conflict" && banks05=1
k04=$(awk '/^kernel / { on = 1; next } on && NF == 7 && $1 ~ /^reduce/ { print $1 } on && NF == 0 { exit }' "$TMPD/explain4" 2>/dev/null)

# the groups, the longest first
plan "tr_job make02 make --no-print-directory trace LAB=lab02 KERNEL=reduceNeighbored N=64 B=32;
    tr_job brief02 ./lab02 --trace reduceNeighbored -n 64 -b 32 --brief --svg \"\$TMPD/tree.svg\";
    tr_job own02 ./lab02 --trace reduceNeighbored -n 64 -b 32"
plan "tr_job make06 make --no-print-directory trace LAB=lab06 KERNEL=transposeSmem N=64x64;
    tr_job own06 ./lab06 --trace transposeSmem -n 64x64"
g=
[ $shipped05 -eq 1 ] && g="tr_job nosyncwarp ./lab05 --trace reduceSmemNoSyncwarp -n 64 -b 64;"
[ -x build/solutions/lab05 ] && g="$g tr_job sol05 $T build/solutions/lab05 reduceSmemNoSyncwarp 64 64"
[ -n "$g" ] && plan "$g"
g=
[ $shipped06 -eq 1 ] && g="tr_job nosync06 $T ./lab06 transposeSmemNoSync 64x64;"
[ -x build/solutions/lab06 ] && g="$g tr_job sol06 $T build/solutions/lab06 transposeSmemNoSync 64x64"
[ -n "$g" ] && plan "$g"
plan "tr_job less02 $T ./lab02 reduceNeighboredLess 64 32"
if [ -x ./lab03 ]; then
    plan "tr_job make03 make --no-print-directory trace LAB=lab03 KERNEL=reduceInterleaved N=128 B=64"
    for k in reduceNeighbored reduceNeighboredLess; do plan "tr_job l03_$k $T build/nocdp/lab03 $k 128 64"; done
fi
for k in $k04; do plan "tr_job l04_$k $T ./lab04 $k 4096 512"; done
[ $banks05 -eq 1 ] && plan "tr_job smem05 $T ./lab05 reduceSmem 1024 512"
plan "tr_job pad06 $T ./lab06 transposeSmemPad 64x64"
for k in copyRow copyCol transposeNaiveRow transposeNaiveCol; do plan "tr_job l06_$k $T ./lab06 $k 64x64 32x8"; done

# run_plan: the plan's groups in lanes, at once: each group to the lane with
# the fewest traces so far; then the plan is empty again
lanes=8
[ -n "${WB_GPU_MIB:-}" ] && lanes=$((WB_GPU_MIB / (256 + ${WB_GPU_CTX_MIB:-768})))
[ $lanes -gt 8 ] && lanes=8
[ $lanes -lt 1 ] && lanes=1
run_plan() {
    rm -f "$TR"/lane*
    awk -v j=$lanes -v dir="$TR" '{ n = gsub(/tr_job /, "&"); b = 0
        for (l = 1; l < j; l++) if (load[l] < load[b]) b = l
        load[b] += n; print > (dir "/lane" b) }' "$PLAN"
    for lane in "$TR"/lane*; do
        [ -f "$lane" ] || continue
        (while IFS= read -r grp; do eval "$grp"; done <"$lane") &
    done
    wait
    : >"$PLAN"
}
run_plan

# vs_explain LAB BIN KERNEL N B: the trace of KERNEL (BIN at -n N -b B,
# already traced into $OUTF) against $TMPD/explain, LAB --explain -b B: the
# load requests and sectors per block, the sectors of each step, the steps
vs_explain() {
    vk=$3
    cp "$OUTF" "$TMPD/$vk.trace.out.$1"
    check_width "trace of $vk fits 100 columns" "$OUTF"
    want=$(awk -v k=$vk -v b="$5" '$0 ~ "^Counted per block of " b " " { on = 1 } on && $1 == k { print $4, $5; exit }' "$TMPD/explain")
    got=$(sed -n 's/^  per block (block 0): \([0-9]*\) load requests, \([0-9]*\) load sectors.*/\1 \2/p' "$OUTF")
    if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "$1 trace of $vk: load requests and sectors per block as --explain ($got)"
    else notok "$1 trace of $vk: load requests and sectors per block" "trace '$got', --explain '$want'"; fi
    want=$(awk -v k=$vk '$1 == k { on = 1; next } on && /^ +[0-9]+  [#.]/ { printf "%s ", $NF } on && /steps,/ { exit }' "$TMPD/explain")
    got=$(awk '/^  step  threads/ { on = 1; next } on && /^ +[0-9]+  [#.]/ { printf "%s ", $NF } /^2\. / { exit }' "$OUTF")
    if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "$1 trace of $vk: sectors per load request, step by step, as --explain"
    else notok "$1 trace of $vk: sectors per step" "trace '$got', --explain '$want'"; fi
    want=$(awk -v k=$vk '$1 == k { on = 1; next } on && / steps, / { print $1; exit }' "$TMPD/explain")
    if grep -q "^  barriers per block: $want " "$OUTF"; then ok "$1 trace of $vk: $want steps, as --explain"
    else notok "$1 trace of $vk: steps" "--explain says $want; the trace: $(grep '^  barriers per block' "$OUTF")"; fi
    expect_grep "$1 trace of $vk: nothing unordered" "unordered accesses: 0; stale shared reads: 0" "$OUTF"
    expect_grep "$1 trace of $vk: its verdict" "verdict of $vk on this input \(-n $4 -b $5\): PASS; traced in" "$OUTF"
}

# lab02 against --explain at block 32 (the block it draws)
cp "$TMPD/explain02" "$TMPD/explain"
tr_expect 0 make02 "make trace LAB=lab02 KERNEL=reduceNeighbored N=64 B=32"
vs_explain lab02 ./lab02 reduceNeighbored 64 32
tr_expect 0 less02 "trace lab02 reduceNeighboredLess -n 64 -b 32"
vs_explain lab02 ./lab02 reduceNeighboredLess 64 32

# lab03 (its build without dynamic parallelism, which make trace makes)
# against --explain at block 64: its own kernel and lab02's two
if [ -x ./lab03 ]; then
    cp "$TMPD/explain03" "$TMPD/explain"
    tr_expect 0 make03 "make trace LAB=lab03 KERNEL=reduceInterleaved N=128 B=64"
    vs_explain lab03 build/nocdp/lab03 reduceInterleaved 128 64
    for k in reduceNeighbored reduceNeighboredLess; do
        tr_expect 0 l03_$k "trace lab03 $k -n 128 -b 64"
        vs_explain lab03 build/nocdp/lab03 $k 128 64
    done
fi

# lab04 against --explain's barriers per block, every kernel of its table at
# -b 512 (n = 4096: one to eight blocks)
if [ -x ./lab04 ]; then
    for k in $k04; do
        want=$(awk -v k=$k '$1 == k && NF == 7 { print $4; exit }' "$TMPD/explain4")
        tr_load l04_$k
        got=$(sed -n 's/^  barriers per block: \([0-9]*\) .*/\1/p' "$OUTF")
        if [ "$STATUS" -eq 0 ] && [ -n "$want" ] && [ "$want" = "$got" ]; then
            ok "lab04 trace of $k: $got barriers per block, as --explain"
        else
            notok "lab04 trace of $k: barriers per block" "exit $STATUS; trace '$got', --explain '$want'"
        fi
    done
fi

# lab05: reduceSmem's tree at block 512 has no bank conflict (--explain's Part 2)
if [ $banks05 -eq 1 ]; then
    tr_load smem05
    if [ "$STATUS" -eq 0 ] && grep -q "worst bank conflict: 1-way (none)" "$OUTF"; then
        ok "lab05 trace of reduceSmem at -b 512: no bank conflict, as --explain"
    else
        notok "lab05 trace of reduceSmem: banks" "exit $STATUS; $(grep 'worst bank' "$OUTF")"
    fi
else
    notok "lab05 --explain: the tree's banks" "no 'one pass, no conflict' line in ./lab05 --explain"
fi

# lab06: the tile's column read, without and with padding
tr_expect 0 make06 "make trace LAB=lab06 KERNEL=transposeSmem N=64x64"
check_width "trace of transposeSmem fits 100 columns" "$OUTF"
expect_grep "transposeSmem: a 32-way conflict" "worst bank conflict: 32-way" "$OUTF"
expect_grep "transposeSmem: coalesced loads (4 sectors a request)" "load requests, [0-9]+ sectors \(4\.00 per request\)" "$OUTF"
expect_grep "transposeSmem: one barrier" "barriers per block: 1 " "$OUTF"
tr_expect 0 pad06 "trace lab06 transposeSmemPad 64x64"
expect_grep "transposeSmemPad: no bank conflict" "worst bank conflict: 1-way \(none\)" "$OUTF"
expect_grep "transposeSmemPad: nothing unordered" "unordered accesses: 0; stale shared reads: 0" "$OUTF"

# lab06's copies and naive transposes against --explain's Part 2 (warp 0's
# request; every warp of these kernels makes the same ones at 64x64)
for k in copyRow copyCol transposeNaiveRow transposeNaiveCol; do
    tr_load l06_$k
    want=$(awk -v k=$k '$1 == k && $2 ~ /^[0-9]+$/ { print $3, $5; exit }' "$TMPD/explain6")
    got=$(awk '$1 ~ /^g[0-9]+$/ && $3 == "load" && l == "" { l = $9 + 0 }
               $1 ~ /^g[0-9]+$/ && $3 == "store" && st == "" { st = $9 + 0 }
               END { print l, st }' "$OUTF")
    if [ "$STATUS" -eq 0 ] && [ -n "$want" ] && [ "$want" = "$got" ]; then
        ok "trace of $k: sectors per load and per store request as --explain ($got)"
    else
        notok "trace of $k: sectors per load and store request" "exit $STATUS; trace '$got', --explain '$want'"
    fi
done
# the banks of the tile's column read, as --explain's Part 3 draws them
grep -q -- "-> 32-way conflict" "$TMPD/explain6" && grep -q -- "-> no conflict" "$TMPD/explain6" &&
    ok "lab06 --explain: 32-way unpadded, none padded (the model the traces are held to)" ||
    notok "lab06 --explain: the bank model" "$(grep -- '->' "$TMPD/explain6" | head -3)"

# --brief and --svg
tr_expect 0 brief02 "./lab02 --trace reduceNeighbored --brief --svg"
check_width "--brief fits 100 columns" "$OUTF"
if grep -q "^2\. Summary" "$OUTF" && ! grep -q "^2\. Coalescing" "$OUTF"; then ok "--brief: the tree's steps and the summary"
else notok "--brief: the tree's steps and the summary" "$(grep '^[0-9]\.' "$OUTF" | head -5)"; fi
if [ -s "$TMPD/tree.svg" ] && head -c 5 "$TMPD/tree.svg" | grep -q '<svg' && tail -n 1 "$TMPD/tree.svg" | grep -q '</svg>' &&
    [ "$(grep -c '<line ' "$TMPD/tree.svg")" -ge 31 ]; then
    ok "--svg: an SVG of the tree (its lines: $(grep -c '<line ' "$TMPD/tree.svg"))"
else
    notok "--svg: an SVG of the tree" "$(head -c 200 "$TMPD/tree.svg" 2>&1)"
fi

# the fix-its, as shipped and solved (make test builds the solutions with a GPU)
if [ $shipped05 -eq 0 ]; then
    skip "trace of reduceSmemNoSyncwarp as shipped" "./lab05 is not built from the shipped stubs"
else
    tr_load nosyncwarp
    if [ "$STATUS" -eq 1 ] && grep -Eq "unordered accesses: [1-9][0-9]*;" "$OUTF" &&
        grep -q "one warp, no __syncwarp()" "$OUTF"; then
        ok "trace of reduceSmemNoSyncwarp as shipped: FAIL, its last warp's unordered reads flagged ($(grep -o 'unordered accesses: [0-9]*' "$OUTF"))"
    else
        notok "trace of reduceSmemNoSyncwarp as shipped" "exit $STATUS; $(grep 'unordered accesses' "$OUTF") $(head -c 300 "$ERRF")"
    fi
fi
for fx in "sol05 lab05 reduceSmemNoSyncwarp" "sol06 lab06 transposeSmemNoSync"; do
    set -- $fx
    if [ ! -x build/solutions/$2 ]; then
        skip "trace of $3 solved" "build/solutions/$2 is not built (make test builds it with a GPU)"
        continue
    fi
    tr_load $1
    if [ "$STATUS" -eq 0 ] && grep -q "unordered accesses: 0; stale shared reads: 0" "$OUTF"; then
        ok "trace of $3 solved: PASS, nothing unordered"
    else
        notok "trace of $3 solved" "exit $STATUS; $(grep 'unordered accesses' "$OUTF") $(head -c 300 "$ERRF")"
    fi
done

# a fix-it as shipped: transposeSmemNoSync reads tile rows before they are written
if [ $shipped06 -eq 0 ]; then
    skip "trace of transposeSmemNoSync as shipped" "./lab06 is not built from the shipped stubs"
else
    tr_load nosync06
    if [ "$STATUS" -eq 1 ] && grep -Eq "unordered accesses: [0-9]+; stale shared reads: [1-9]" "$OUTF"; then
        ok "trace of transposeSmemNoSync: FAIL, and its early reads flagged ($(grep -o 'stale shared reads: [0-9]*' "$OUTF"))"
    else
        notok "trace of transposeSmemNoSync" "exit $STATUS; $(grep 'unordered accesses' "$OUTF") $(head -c 300 "$ERRF")"
    fi
fi

# the labs' own option: ./labNN --trace KERNEL [-n N] [-b B]
tr_expect 0 own02 "./lab02 --trace reduceNeighbored -n 64 -b 32"
grep -Ev 'traced in|up to date|Nothing to be done' "$OUTF" >"$TMPD/a"
grep -Ev 'traced in|up to date|Nothing to be done' "$TMPD/reduceNeighbored.trace.out.lab02" >"$TMPD/b"
if cmp -s "$TMPD/a" "$TMPD/b"; then ok "./lab02 --trace draws what make trace draws"
else notok "./lab02 --trace draws what make trace draws" "$(diff "$TMPD/a" "$TMPD/b" | head -c 300)"; fi
tr_expect 0 own06 "./lab06 --trace transposeSmem -n 64x64"
expect_grep "./lab06 --trace transposeSmem: the 32-way conflict" "worst bank conflict: 32-way" "$OUTF"

# where it cannot run (refused before anything runs on the GPU): lab03 with
# dynamic parallelism; a kernel not in the table
if [ -x ./lab03 ] && ! grep -q '+nocdp' ./lab03; then
    expect_status 3 "trace refuses lab03 built with dynamic parallelism" sh tools/trace/trace.sh ./lab03 reduceInterleaved
    expect_grep "trace names why lab03 is refused" "dynamic parallelism" "$ERRF"
    expect_status 3 "./lab03 --trace gpuRecursiveReduceNosync: refused, exit 3" ./lab03 --trace gpuRecursiveReduceNosync
    expect_grep "./lab03 --trace says why in one line" "^trace: lab03 uses dynamic parallelism" "$ERRF"
    check_width "./lab03 --trace's refusal fits 100 columns" "$ERRF"
fi
expect_status 2 "trace of a kernel not in the table" sh tools/trace/trace.sh ./lab02 noSuchKernel

# ---- every kernel of every lab that traces (make test-all; make test: three) -----
# Each kernel --list names (and its matrix mode's, -n 1x1 --list --csv), in
# every GPU lab that offers trace (--capabilities), traced at the trace's
# default size with --brief: drawn and PASS; an exercise drawn with its
# verdict (a stub is todo and a fix-it FAILs as shipped: exit 1). A kernel that size does not
# launch is traced at a size that does, and the output says which (lab05's
# reduceModern: reduceModernSmall at n = 64); a row whose launcher runs a kernel
# of another name has that kernel traced (lab05's reduce2DModern runs
# reduceModern), and the output says so. A library's row is refused
# (exit 2, one line). lab03: its build without dynamic parallelism. After the
# traces above (a kernel's record file is the same: build/trace/LAB.KERNEL.trace).
i=0
: >"$TMPD/every"
for l in $(lab_list device gpu); do
    [ -x ./$l ] && offers ./$l trace || continue
    bin=./$l
    [ $l = lab03 ] && bin=build/nocdp/lab03
    [ -x $bin ] || { notok "$l traced, every kernel" "$bin is not built"; continue; }
    { $bin --list --csv; $bin -n 1x1 --list --csv 2>/dev/null; } |
        awk -F, 'NR > 1 && $1 != "kernel" && !seen[$1]++ { print $1, $2 }' >"$TMPD/k.$l"
    while read -r k kind; do
        # make test: three that take the roads past the default (a size that
        # launches the kernel; a row whose kernel has another name; a library's
        # row, refused); make test-all: every one
        case "${WB_TEST_ALL:-} $l $k" in
            1\ * | *" lab05 reduceModern" | *" lab05 reduce2DModern" | *" lab06 cublasSgeam") ;;
            *) continue ;;
        esac
        i=$((i + 1))
        echo "$l $k every$i $kind" >>"$TMPD/every"
        case $k in
            cub::* | cublas*) ;;
            *) plan "tr_job every$i $bin --trace $k --brief" ;;
        esac
    done <"$TMPD/k.$l"
done
run_plan
while read -r l k id kind; do
    case $k in
        cub::* | cublas*)
            expect_usage "$l --trace $k: a library's row, refused" ./$l --trace "$k"
            continue ;;
    esac
    tr_load $id
    v=$(sed -n 's/^  verdict of [^ ]* on this input (\(.*\)): \([A-Za-z]*\);.*/\2 at \1/p' "$OUTF")
    if [ "$STATUS" -eq 0 ] && [ "${v%% *}" = PASS ]; then
        ok "$l --trace $k: drawn, $v"
    elif [ "$kind" != kernel ] && [ "$STATUS" -le 1 ] && [ -n "$v" ]; then
        ok "$l --trace $k (an exercise, $kind): drawn, $v"
    else
        notok "$l --trace $k" "exit $STATUS; $(head -c 300 "$ERRF")"
    fi
    check_width "$l --trace $k fits 100 columns" "$OUTF"
done <"$TMPD/every"
if grep -q "^lab05 reduce2DModern " "$TMPD/every"; then
    tr_load "$(awk '$1 == "lab05" && $2 == "reduce2DModern" { print $3 }' "$TMPD/every")"
    expect_grep "lab05 --trace reduce2DModern: says which kernel of the row it traced" \
        "^  row reduce2DModern runs reduceModern, no kernel of its name: traced reduceModern" "$OUTF"
fi
if grep -q "^lab05 reduceModern " "$TMPD/every"; then
    tr_load "$(awk '$1 == "lab05" && $2 == "reduceModern" { print $3 }' "$TMPD/every")"
    expect_grep "lab05 --trace reduceModern: says the size that launches it" \
        "^  -n 64 does not launch reduceModern \(it launched .*reduceModernSmall.*\);" "$OUTF"
fi
