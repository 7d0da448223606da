# tests/gpu/gpu_speed.sh - the checks that compare timings, run alone on the GPU
# after every correctness suite (tests/run's second phase; POSIX sh, from the
# repository root). They hold what each lesson claims on any GPU, not a
# figure of one GPU (those are make bench's): for each run of
# tests/gpu/speed.claims, its claims between rows of that one run (medians
# and quartiles, tests/gpu/speed.awk): a lesson's kernel beats the one it
# improves on, each solution is no slower than the row its chapter measures
# it against, lab05's one-pass reduceModern no slower than CUB at every n of
# a sweep. Both rows at the memory ceiling: "at the ceiling on this GPU".
. tests/lib.sh

# the GPU memory a run takes (MiB): the largest -n of its command
speed_mib() {
    case $1 in
        *"-n 8192x8192"*) echo 512 ;;
        *"--type double -n 2^22"*) echo 64 ;;
        *"-n 2^24"* | *--exercises*) echo 256 ;;
        *) echo 128 ;;
    esac
}

grep -v '^#' tests/gpu/speed.claims | while IFS="|" read -r label cmd _ claims; do
    [ -n "$label" ] || continue
    bin=${cmd%% *}
    if [ ! -x "$bin" ]; then skip "$label: speed" "$bin not built"; continue; fi
    gpu_room "$label: speed" "$(speed_mib "$cmd")" || continue
    # shellcheck disable=SC2086 # the command splits as written
    run $cmd
    if [ "$STATUS" -ne 0 ]; then
        notok "$label: speed" "exit $STATUS: $(head -c 300 "$ERRF")"
        continue
    fi
    awk -v label="$label" -v claims="$claims" -f tests/gpu/speed.awk "$OUTF"
done
