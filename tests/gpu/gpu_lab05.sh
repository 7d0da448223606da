# tests/gpu/gpu_lab05.sh - lab05 (shared memory, shuffles, CUB) on a GPU. POSIX
# sh, run from the repository root after `make lab05`; tests/run calls it
# where a device exists.
#
# Exact for every kernel (CUB's row too, at one block: it picks its own) at
# every block 32..1024 and n = 1..9, around 16, 32, 1024, the unroll-4 tails
# (4*block), reduceModern's tile (16*block ints), one int4 per thread of its
# full grid, and one whole pass of the full grid over tiles, +-1 (measured
# from the grid the program reports), 1000003 and 2^24 (one --check run);
# one kernel alone with -k; other seeds; bad input (exit 2, one line);
# --list, -h, --explain, --json, the table, and a short --sweep. The
# exercises (lab05_smem/exercises.cuh): as shipped, the two write-it rows
# are todo and the fix-it row FAILs at the exercise size at every block of
# 64 and up; the solutions (build/solutions/lab05) pass at n = 1, 2, 3, 31,
# 33, 1000003, 2^24 - 3 and 2^24 and every block, and in a sweep. Their
# speed is tests/gpu/gpu_speed.sh's; the matrix mode is tests/gpu/gpu_lab05_matrix.sh's.
# gpu-memory: 1024 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

lab_suite lab05 # LAB, KERNELS
ROWS=8 # kernels in lab05's table, CUB's row included
BLOCKS="32 64 128 256 512 1024"
UNROLL=4 # MODERN_UNROLL: int4 loads per thread per tile of reduceModern
# the exercises (--list): the 1D ones by kind, the matrix mode's fix-its
# (tests/gpu/gpu_lab05_matrix.sh), and how many in all
EX_WRITE=$(list_names $LAB write)
EX_FIX=$(list_names $LAB fix)
EX_MATRIX_FIX=$(list_names $LAB fix matrix)
EX_ALL=$(( $(list_names $LAB exercise all | wc -w) ))
EX_LINE="^exercises: [0-9]+ of $EX_ALL done" # the closing line of a run without --exercises

# reduceModern's grid at each block when the input is large (one --check
# run): one int4 for every thread of the full grid is grid * block * 4 ints
run $LAB --check -k reduceModern -n 67108864 -b "$(commas "$BLOCKS")"
cp "$OUTF" "$TMPD/grids"
sizes="1 2 3 4 5 7 8 9 15 16 17 31 32 33 1023 1024 1025 1000003 16777216"
for b in $BLOCKS; do
    w=$(awk -F, -v b="$b" '$2 == "reduceModern" && $5 == b { print $6 * b * 4 }' "$TMPD/grids")
    case "$w" in
    '' | *[!0-9]*)
        notok "lab05 grid of reduceModern at b=$b" "could not read it from a --check run"
        w=1081344 ;;
    *) ok "lab05 grid of reduceModern at b=$b: $w ints for one int4 per thread" ;;
    esac
    t=$((w * UNROLL)) # one pass of the full grid over tiles
    sizes="$sizes $((b * 4 - 1)) $((b * 4)) $((b * 4 + 1)) $((b * 16 - 1)) $((b * 16 + 1))"
    # reduceModernSmall's full blocks: 1, 2 and 4 int4s a thread, no guards
    sizes="$sizes $((b * 8)) $((b * 16))"
    sizes="$sizes $((w - 1)) $((w + 1)) $((w + 4)) $((t - 1)) $((t + 1)) $((2 * t + 3))"
done
sizes=$(echo $sizes | tr ' ' '\n' | sort -n | uniq | tr '\n' ' ')

# every size above at every block (the sizes of one block at all the others
# too); -k (one kernel alone at blocks 32 and 1024); bad input; --list, -h,
# --json, the default table, no device
reduction_lab_checks lab05 $ROWS "$KERNELS" "$sizes"
check_cross "lab05 -k two" "reduceModern reduceSmem" $LAB --check -k reduceModern,reduceSmem -n 4097 -b 64
# other inputs: the seed changes every value
check_cross "lab05" "$KERNELS" $LAB --check --seed 2,12345 -n 777777
# the largest values the input rule allows at a length that is not a power of two
gpu_room "lab05 n=134217733" 1024 && check_cross "lab05" "$KERNELS" $LAB --check -n 134217733

# the default table: one PASS per kernel, the summary, and the line against
# CUB; then the line on the exercises
cp "$TMPD/lab05.table" "$OUTF"
if [ "$(grep -c ' PASS$' "$OUTF")" -eq $ROWS ] && grep -q "^lab05: PASS - $ROWS of $ROWS kernels verified" "$OUTF"; then
    ok "lab05 table: $ROWS PASS rows and the summary"
else
    notok "lab05 table" "$(tail -n 5 "$OUTF")"
fi
expect_grep "lab05 table shows the ceiling" '^ceiling  [0-9]+ GB/s: device-to-device' "$OUTF"
# the summary wraps onto an indented line when its names are long (CUB the fastest)
if sed '$d' "$OUTF" | awk '!/^  / { last = $0 } END { exit !(last ~ /^lab05: PASS - '"$ROWS"' of '"$ROWS"' kernels verified/) }' &&
    tail -n 1 "$OUTF" | grep -Eq "$EX_LINE"; then ok "lab05 table ends with the summary line, then the exercises line"
else notok "lab05 table ends with the summary line, then the exercises line" "last lines: $(tail -n 2 "$OUTF")"; fi
# the fastest one-pass kernel at 2^24 is reduceModern or reduceAtomic, as the run falls
expect_grep "lab05 table compares one pass with CUB" '^  n = +16777216  reduce(Modern|Atomic) [0-9.]+ ms, CUB [0-9.]+ ms: ' "$OUTF"
if built_with_solutions $LAB || edited_exercise_file lab05_smem/exercises.cuh >/dev/null; then
    skip "lab05 plain run counts reduce2DNumba" "./lab05 is not built from the exercises as shipped"
elif tail -n 1 "$OUTF" | grep -q '^exercises: 0 of 4 done, 2 todo, 2 failing'; then
    ok "lab05 plain run counts reduce2DNumba among the exercises"
else notok "lab05 plain run counts reduce2DNumba" "last line: $(tail -n 1 "$OUTF")"; fi

# a short --sweep: 2^10, 2^12, 2^14 and then 20000 (not on the 4x ladder)
expect_csv_pass "lab05 --sweep -n 20000 --csv" $((ROWS * 4)) $LAB --sweep -n 20000 --csv -r 2
ns=$(awk -F, 'NR > 1 { print $4 }' "$OUTF" | sort -n | uniq | tr '\n' ' ')
if [ "$ns" = "1024 4096 16384 20000 " ]; then ok "lab05 --sweep sizes"
else notok "lab05 --sweep sizes" "n = $ns, expected 1024 4096 16384 20000"; fi
# the table of a whole sweep (no -k: 2^10 .. 2^20, every kernel; -k on a
# sweep is gpu_speed.sh's): each size heads its rows, the summary, then the
# exercises line as the plain run ends; its width (gpu_width_lab05.sh's -b 32
# sweep takes the widest grids)
expect_status 0 "lab05 --sweep table" $LAB --sweep -n 2^20 -r 2
expect_grep "lab05 --sweep table: each size heads its rows" '^n = 1048576 \(4\.0 MiB moved\), copy ceiling [0-9.]+ GB/s$' "$OUTF"
expect_grep "lab05 --sweep compares with the library at 2^20" \
    '^  n = +1048576  reduceModern [0-9.]+ ms, CUB [0-9.]+ ms: ([0-9.]+x faster than the library|level with the library \(within 1%\)|the library is [0-9.]+x faster)$' "$OUTF"
if sed '$d' "$OUTF" | awk '!/^  / { last = $0 } END { exit !(last ~ /^lab05: PASS - '"$((ROWS * 6))"' of '"$((ROWS * 6))"' kernel runs verified/) }'; then
    ok "lab05 --sweep table: the summary line, $((ROWS * 6)) runs (6 sizes)"
else notok "lab05 --sweep table: the summary line" "last lines: $(tail -n 3 "$OUTF")"; fi
if tail -n 1 "$OUTF" | grep -Eq "$EX_LINE"; then ok "lab05 --sweep ends with the exercises line"
else notok "lab05 --sweep ends with the exercises line" "last line: $(tail -n 1 "$OUTF")"; fi
check_width "lab05 --sweep -n 2^20 fits 100 columns" "$OUTF" "$ERRF"

# bad input: exit 2, one line on stderr, nothing on stdout
expect_usage "lab05 -n -5" $LAB -n -5
expect_usage "lab05 -k empty name" $LAB -k reduceSmem,
expect_usage "lab05 -r 0" $LAB -r 0
expect_usage "lab05 --seed x" $LAB --seed x
expect_usage "lab05 --csv --json" $LAB --csv --json
expect_usage "lab05 --sweep -n 100" $LAB --sweep -n 100
expect_usage "lab05 --check --sweep" $LAB --check --sweep

# the modes that need no device
expect_status 0 "lab05 --list" $LAB --list
join_wrapped "$OUTF"
if [ "$(awk '/^$/ { exit } { n++ } END { print n + 0 }' "$OUTF")" -eq $ROWS ]; then ok "lab05 --list has $ROWS kernel lines"
else notok "lab05 --list has $ROWS kernel lines" "$(cat "$OUTF")"; fi
expect_grep "lab05 --list names the exercise file" '^exercises in lab05_smem/exercises.cuh ' "$OUTF"
for x in $EX_WRITE; do
    expect_grep "lab05 --list names exercise $x" "^$x +write .*\(measured against reduceSmem\)$" "$OUTF"
done
for x in $EX_FIX $EX_MATRIX_FIX; do
    ref=reduceSmem
    case " $EX_MATRIX_FIX " in *" $x "*) ref=reduce2D ;; esac # the matrix mode's exercise
    expect_grep "lab05 --list names exercise $x" "^$x +fix .*\(measured against $ref\)$" "$OUTF"
done
run $LAB -h
expect_grep "lab05 -h names --sweep" "[-]-sweep" "$OUTF"
expect_grep "lab05 -h names --exercises" "^  --exercises " "$OUTF"
expect_status 0 "lab05 --explain" $LAB --explain
expect_grep "lab05 --explain shows the smem tree" "^  tid < 1: \+= smem\[tid\+1\] +[0-9]+( +\.){15}$" "$OUTF"
expect_grep "lab05 --explain: no conflict in the tree" "32 different banks: one pass, no conflict" "$OUTF"
expect_grep "lab05 --explain: conflicts in neighbored pairing" "2-way bank conflict: 2 passes" "$OUTF"
if awk '/^  offset 1 \(/ { found = 1; if (NF != 21) bad = 1; for (i = 6; i <= NF; ++i) if ($i != $6) bad = 1 }
        END { exit !(found && !bad) }' "$OUTF"; then ok "lab05 --explain: the butterfly ends with the sum in every lane"
else notok "lab05 --explain: the butterfly ends with the sum in every lane" "$(grep '^  offset 1 ' "$OUTF")"; fi
expect_grep "lab05 --explain: modern takes the tail" "tail int 212" "$OUTF"
expect_status 0 "lab05 --explain on a CPU-only machine" env CUDA_VISIBLE_DEVICES= $LAB --explain

# the exercises (lab05_smem/exercises.cuh): as shipped, and the solutions at
# odd and edge sizes and every block (tests/lib.sh)
exercise_checks lab05 "-n 1,2,3,31,33,1000003,16777213,16777216 -b $(commas "$BLOCKS")"

# as shipped, the fix-it fails at the exercise size at every block of 64 and
# up (the compiler's loads make every block's sum wrong, not a race that may
# hide), and --exercises --sweep gives exercise rows at each n
fixits_fail lab05 "64 128 256 512 1024" 16777213
if built_with_solutions $LAB; then
    skip "lab05 --exercises --sweep as shipped" "./lab05 was built with SOLUTIONS=1"
else
    run $LAB --exercises --sweep -n 4096 --csv -r 1
    got=$(awk -F, 'NR > 1 && $23 != "kernel" { print $4 ":" $3 ":" $NF }' "$OUTF" | LC_ALL=C sort | tr '\n' ' ')
    # at each n of the sweep each 1D exercise (todo or FAIL), the matrix
    # mode's fix-it at its exercise shape (20000x700)
    want=$({ for n in 1024 4096; do
                 for x in $EX_WRITE; do echo "$n:$x:todo"; done
                 for x in $EX_FIX; do echo "$n:$x:FAIL"; done
             done
             for x in $EX_MATRIX_FIX; do echo "14000000:$x:FAIL"; done; } | LC_ALL=C sort | tr '\n' ' ')
    if [ "$STATUS" -eq 1 ] && [ "$got" = "$want" ]; then ok "lab05 --exercises --sweep as shipped: exercise rows at each n"
    else notok "lab05 --exercises --sweep as shipped" "exit $STATUS; rows: $got"; fi
fi
if [ -x build/solutions/lab05 ]; then
    expect_csv_pass "lab05 solutions --exercises --sweep" 35 build/solutions/lab05 --exercises --sweep -n 2^14 --csv -r 2
    check_cross "lab05 solutions -k reduceMaxSmem" "reduceMaxSmem reduceSmem" \
        build/solutions/lab05 --check -k reduceMaxSmem --seed 7 -n 100003 -b 64
fi
