# tests/gpu/gpu_lab05_matrix.sh - lab05's matrix mode (./lab05 -n NXxNY) on a GPU.
# POSIX sh, run from the repository root after `make lab05`; tests/run calls
# it where a device exists.
#
# Every output element exact (the total, every row sum, every column sum)
# for every kernel at every shape from 1x1 (--check runs): odd and edge shapes (1x1,
# 1x1000003, 1000003x1, 3x5, 1023x1025, 4097x3, ...) at 2D blocks of 32 to
# 1024 threads in several aspect ratios (32x1 ... 1x1024); one kernel alone
# with -k; other seeds; the largest values the input rule allows (20000x20000);
# bad input (exit 2, one line); --list, -h, --explain (no GPU), --json, the
# table and its lines against the library. The exercise reduce2DNumba: as
# shipped it FAILs at the exercise shape and with 32x8 blocks, and passes on
# the square 64x64 grid of 16x16 blocks; a plain --exercises run carries its
# row right under reduce2D's; the solution passes at every shape and block.
# gpu-memory: 1536 MiB (tests/run: the most GPU memory one run takes, its data)
. tests/lib.sh

lab_suite lab05 # LAB
ROWS=10 # kernels of the matrix mode, the two CUB rows included
EX=reduce2DNumba # the matrix mode's exercise (its fix-it: the checks below are its bug's)
EX_SHAPE=20000x700 # where --exercises runs it (EXERCISE_NX x EXERCISE_NY in matrix.cu)
EX_N=14000000
# every power of two 32..1024, wide, tall and square
BLOCKS="32x1 1x32 8x4 64x1 8x8 2x32 128x1 16x8 16x16 32x8 8x32 1x256 512x1 32x16 1024x1 32x32 1x1024 4x256"
SHAPES="1x1 1x1000003 1000003x1 3x5 5x3 1023x1025 4097x3 3x4097 1x32 32x1 31x33 129x7 1028x6"

KERNELS=$(list_names $LAB kernel matrix)

# every shape at every block: all kernels exact
check_cross "lab05" "$KERNELS" $LAB --check -n "$(commas "$SHAPES")" -b "$(commas "$BLOCKS")"
# larger shapes at the default block and one other: the grids fill the GPU
# (reduce2D's 64x64, the others sized to the device), and rows of int4s
check_cross "lab05" "$KERNELS" $LAB --check -n 8192x8192,8191x8193,20000x700,700x20000,65536x64,64x65536 -b 16x16,32x8
# the CSV columns of a matrix row: n = nx*ny, 2D grid and block, 4 bytes an element
run $LAB -n 1023x1025 -b 32x8 --csv -r 1
if awk -F, -v ROWS=$ROWS 'NR > 1 && ($4 != 1048575 || $5 != 1023 || $6 != 1025 || $9 != 4194300) { bad = 1 }
            NR > 1 && $3 == "reduce2D" && ($7 != "32x64" || $8 != "32x8") { bad = 1 }
            NR > 1 && $3 == "colSumCoalesced" && $8 != "32x8" { bad = 1 }
            NR > 1 && $3 == "colSumOnePass" && ($7 != "32x17" || $8 != "32x8") { bad = 1 }
            NR > 1 && $3 ~ /^cub::/ && $7 != "0" { bad = 1 }
            END { exit bad || NR != ROWS + 1 }' "$OUTF"; then ok "lab05 matrix CSV: n, nx, ny, grid, block, bytes"
else notok "lab05 matrix CSV columns" "$(head -c 600 "$OUTF")"; fi

# one kernel alone (the last of the lesson's: -k picks it and nothing else;
# every kernel is checked above, where the harness poisons each output
# before each launch), at an odd shape and the smallest and largest block
alone=
for k in $KERNELS; do case $k in cub::*) ;; *) alone=$k ;; esac; done
check_cross "lab05 matrix -k $alone alone" "$alone" $LAB --check -n 1023x1025 -k "$alone" -b 32x1,32x32
# other inputs: the seed changes every value
check_cross "lab05 matrix" "$KERNELS" $LAB --check -n 777x999 --seed 2,12345
# the Numba chapter's size: 4*10^8 ints of 0..5, the total just under INT_MAX
gpu_room "lab05 n=20000x20000" 1536 && check_cross "lab05" "$KERNELS" $LAB --check -n 20000x20000

# the table: a PASS per kernel, the lines against the library, the summary
run $LAB -n 8192x8192 -r 5
if [ "$STATUS" -eq 0 ] && [ "$(grep -c ' PASS$' "$OUTF")" -eq $ROWS ] && grep -q "^lab05: PASS - $ROWS of $ROWS kernels verified" "$OUTF"; then
    ok "lab05 matrix table: $ROWS PASS rows and the summary"
else
    notok "lab05 matrix table" "exit $STATUS: $(tail -n 8 "$OUTF")"
fi
VS='([0-9.]+x faster than the library|level with the library \(within 1%\)|the library is [0-9.]+x faster)'
expect_grep "lab05 matrix table: whole matrix against CUB" "^  whole matrix +reduce2DModern [0-9.]+ ms, CUB [0-9.]+ ms: $VS\$" "$OUTF"
expect_grep "lab05 matrix table: row sums against CUB" "^  row sums +rowSum(Warp|Block) [0-9.]+ ms, CUB segmented [0-9.]+ ms: $VS\$" "$OUTF"
check_width "lab05 matrix table fits 100 columns" "$OUTF"
expect_grep "lab05 matrix table: columns against rows" '^  column sums +colSum(Coalesced|OnePass) [0-9]+ GB/s, row sums.* [0-9]+ GB/s: [0-9.]+x$' "$OUTF"
expect_grep "lab05 matrix table: the size line" '^size +n = 8192x8192 \(256\.0 MiB moved\)' "$OUTF"
if tail -n 1 "$OUTF" | grep -Eq "^exercises: [0-1] of 1 done"; then ok "lab05 matrix table ends with the exercises line"
else notok "lab05 matrix table ends with the exercises line" "last line: $(tail -n 1 "$OUTF")"; fi

# --json carries the same verdict
expect_status 0 "lab05 matrix --json" $LAB -n 1000x999 --json -r 2
expect_grep "lab05 matrix --json passes" '"status": "PASS"' "$OUTF"
expect_grep "lab05 matrix --json has every row" "\"passed\": $ROWS," "$OUTF"
expect_grep "lab05 matrix --json checks every row sum" '"check": "all 999 row sums exact"' "$OUTF"
if command -v python3 >/dev/null 2>&1; then
    if python3 -m json.tool "$OUTF" >/dev/null 2>&1; then ok "lab05 matrix --json parses"
    else notok "lab05 matrix --json parses" "python3 -m json.tool rejects it"; fi
fi

# bad input: exit 2, one line on stderr, nothing on stdout
expect_usage "lab05 -n 0x5" $LAB -n 0x5
expect_usage "lab05 -n 5x0" $LAB -n 5x0
expect_usage "lab05 -n 5x" $LAB -n 5x
expect_usage "lab05 -n x5" $LAB -n x5
expect_usage "lab05 -n 5x5x5" $LAB -n 5x5x5
expect_usage "lab05 -n -5x5" $LAB -n -5x5
expect_usage "lab05 -n past the int range" $LAB -n 100000x100000
expect_usage "lab05 -n 8x8 -b 10x10" $LAB -n 8x8 -b 10x10
expect_usage "lab05 -n 8x8 -b 4x4" $LAB -n 8x8 -b 4x4
expect_usage "lab05 -n 8x8 -b 64x32" $LAB -n 8x8 -b 64x32
expect_usage "lab05 -n 8x8 -b 2048x1" $LAB -n 8x8 -b 2048x1
expect_usage "lab05 -n 8x8 -b 256" $LAB -n 8x8 -b 256
expect_usage "lab05 -n 8x8 -k nope" $LAB -n 8x8 -k nope
expect_usage "lab05 -n 8x8 -k reduceGmem" $LAB -n 8x8 -k reduceGmem
expect_usage "lab05 -n 8x8 --sweep" $LAB -n 8x8 --sweep
expect_usage "lab05 -n 8x8 -r 0" $LAB -n 8x8 -r 0
expect_usage "lab05 -n 8x8 --csv --json" $LAB -n 8x8 --csv --json
expect_usage "lab05 -n 8x8,4x4 without --check" $LAB -n 8x8,4x4
expect_usage "lab05 --check -n 8x8 -b 32x8,10x10" $LAB --check -n 8x8 -b 32x8,10x10

# the modes that need no device
expect_status 0 "lab05 --list" $LAB --list
join_wrapped "$OUTF" # one line per entry, however --list wraps them
if awk -v rows=$ROWS '/^matrix mode/ { on = 1; next } on && /^$/ { exit } on { n++ } END { exit n != rows }' "$OUTF"; then
    ok "lab05 --list: a matrix-mode part with $ROWS kernels"
else notok "lab05 --list: the matrix-mode part" "$(sed -n '/^matrix mode/,$p' "$OUTF" | head -c 600)"; fi
for k in $KERNELS; do
    expect_grep "lab05 --list names $k as matrix-mode" "^$k +\[matrix\] " "$OUTF"
done
expect_grep "lab05 --list names $EX" "^$EX +fix +\[matrix\] .*\(measured against reduce2D\)$" "$OUTF"
expect_status 0 "lab05 -h" $LAB -h
expect_grep "lab05 -h names the matrix mode" "^matrix mode: ./lab05 -n NXxNY" "$OUTF"
expect_status 0 "lab05 -n 8x8 -h" $LAB -n 8x8 -h
expect_grep "lab05 -n 8x8 -h: the matrix options" "^  -b WxH " "$OUTF"
expect_status 0 "lab05 -n 12x6 --explain" env CUDA_VISIBLE_DEVICES= $LAB -n 12x6 --explain
expect_grep "lab05 matrix --explain: the row sums" '^  row  5:( +[0-9]){12}  \| +[0-9]+$' "$OUTF"
expect_grep "lab05 matrix --explain: the blocks of reduce2D" '^  row  0:   A  A  B  B' "$OUTF"
expect_grep "lab05 matrix --explain: the partials add up" '^the host adds them: [0-9]+\.$' "$OUTF"
total=$(sed -n 's/.*| *\([0-9]*\) total$/\1/p' "$OUTF")
if grep -q "^the host adds them: $total\.$" "$OUTF"; then ok "lab05 matrix --explain: the partials make the total"
else notok "lab05 matrix --explain: the partials make the total" "total '$total'; $(grep 'adds them' "$OUTF")"; fi
check_width "lab05 matrix --explain fits in 100 columns" "$OUTF"
expect_status 0 "lab05 -n 1x1 --explain" env CUDA_VISIBLE_DEVICES= $LAB -n 1x1 --explain
expect_status 0 "lab05 -n 100x100 --explain (shows 12x6)" env CUDA_VISIBLE_DEVICES= $LAB -n 100x100 --explain
expect_status 3 "lab05 matrix without a device" env CUDA_VISIBLE_DEVICES= $LAB -n 100x100
expect_grep "lab05 matrix without a device says so" "no usable CUDA device" "$ERRF"

# the exercise as shipped: fails where the grid is not square, passes where it is
if built_with_solutions $LAB; then
    skip "lab05 $EX as shipped" "./lab05 was built with SOLUTIONS=1"
elif why=$(edited_exercise_file lab05_smem/exercises.cuh); then
    skip "lab05 $EX as shipped" "$why"
else
    # the shapes and blocks in one --check run (exit 1: FAIL rows), each
    # configuration's two rows read: reduce2D's PASS, the exercise's verdict
    run $LAB --check -k $EX -n $EX_SHAPE,8192x8192,4097x3,1023x1025 -b 16x16,32x8,8x32
    for cfg in "$EX_SHAPE 16x16 FAIL" "8192x8192 32x8 FAIL" "4097x3 16x16 FAIL" "1023x1025 8x32 FAIL" \
        "8192x8192 16x16 PASS"; do
        set -- $cfg
        name="lab05 $EX FAILs as shipped at -n $1 -b $2"
        [ "$3" = PASS ] && name="lab05 $EX as shipped passes on the square 64x64 grid (-n $1 -b $2)"
        if [ "$STATUS" -eq 1 ] && awk -F, -v s="$1" -v b="$2" -v want="$3" -v x="$EX" '$4 != s || $5 != b { next }
                $2 == "reduce2D" && $11 == "PASS" { r = 1 } $2 == x && $3 == "fix" && $11 == want { e = 1 }
                END { exit !(r && e) }' "$OUTF"; then
            ok "$name"
        else
            notok "$name" "exit $STATUS; $(awk -F, -v s="$1" -v b="$2" '$4 == s && $5 == b' "$OUTF" | head -c 400)"
        fi
    done
    # a plain --exercises run (the 1D lab): its row under reduce2D's, at the exercise shape
    run $LAB --exercises --csv -r 1
    if [ "$STATUS" -eq 1 ] && awk -F, -v n=$EX_N '$3 == "reduce2D" && $4 == n { at = NR }
            $3 == "reduce2DNumba" && $4 == n && $NF == "FAIL" && NR == at + 1 { x = 1 } END { exit !x }' "$OUTF"; then
        ok "lab05 --exercises: $EX's row right under reduce2D's at $EX_SHAPE"
    else notok "lab05 --exercises: $EX's row" "exit $STATUS; $(grep -E ',reduce2D(Numba)?,' "$OUTF" | head -c 400)"; fi
fi

# the solution: every shape and block (its speed: tests/gpu/gpu_speed.sh)
sol=build/solutions/lab05
if [ ! -x "$sol" ]; then
    skip "lab05 $EX solution" "$sol not built (make test builds it on a machine with a GPU and the solutions)"
else
    check_cross "lab05 solution $EX" "$EX reduce2D" $sol --check -n 1x1,3x5,4097x3,3x4097,1023x1025,$EX_SHAPE \
        -b 32x1,1x32,8x8,32x8,8x32,16x16,1024x1,32x32,1x1024 -k $EX
    expect_csv_pass "lab05 solutions --exercises (1D run with the matrix exercise)" 0 $sol --exercises --csv -r 1
fi
