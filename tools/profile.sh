#!/bin/sh
# tools/profile.sh - Nsight Compute with each lab's curated metrics, as a short table.
#
#   sh tools/profile.sh labNN [KERNEL]      (make profile LAB=labNN [KERNEL=name])
#
# Profiles each kernel of the lab (or the one named) in its own ncu run:
#   ncu --clock-control none --metrics <the lab's set> --launch-count 1 ./labNN -k KERNEL -r 1 -n <modest size>
# The first launch of the kernel is profiled (the verification launch, same
# grid and block as the timed ones); the harness's L2-flush kernel
# (wb_flush_kernel) is filtered out and the copy ceiling (a cudaMemcpy) is not
# a kernel. ncu replays the kernel once per group of counters and flushes the
# caches between replays, so DRAM figures mean DRAM. --clock-control none
# leaves the GPU at its own clocks, as the labs' timings are.
#
# Prints one row per kernel and one column per metric, then what each column
# is (the full metric name). Keeps each report as build/profile/labNN-KERNEL.ncu-rep
# for the Nsight Compute GUI (ncu-ui). Metrics this ncu does not know are left
# out with a note. Exit status: 0 table printed; 2 bad arguments or no ncu;
# 3 ncu could not profile (no GPU, no permission for the counters, ...).
#
# Environment: NCU=path of ncu; PROFILE_ARGS="-n 16M -b 256" replaces the
# lab's default size arguments below.
cd "$(dirname "$0")/.." || exit 2
. tools/labs.sh

usage() {
    echo "usage: sh tools/profile.sh labNN [KERNEL]   (make profile LAB=lab04 KERNEL=reduceUnrolling8); labs: $(lab_list profile | sed -n '1p;$p' | paste -sd' ' - | sed 's/ / .. /')" >&2
    exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
lab=$1
kernel=${2:-}

# ---- the metrics, by name: label|metric|divide-by metric|scale|what it shows ----
# (each lab's set and size: its `profile` line in tools/labs.conf; the
# chapters explain them; docs/tools.md lists them too)
metric() {
    case $1 in
        TIME) echo 'time us|gpu__time_duration.sum||0.001|kernel duration (microseconds)' ;;
        DRAM) echo 'dram %|dram__throughput.avg.pct_of_peak_sustained_elapsed||1|DRAM throughput, % of peak' ;;
        OCC) echo 'occup %|sm__warps_active.avg.pct_of_peak_sustained_active||1|achieved occupancy: active warps, % of the SM maximum' ;;
        LDSR) echo 'ld sect/req|l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum|l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum|1|global load sectors per request (4 = a warp reads 128 contiguous bytes)' ;;
        STSR) echo 'st sect/req|l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum|l1tex__t_requests_pipe_lsu_mem_global_op_st.sum|1|global store sectors per request' ;;
        INST) echo 'inst (M)|smsp__inst_executed.sum||0.000001|warp instructions executed (millions)' ;;
        SHLD) echo 'shm ld confl|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum||1|shared-memory load bank conflicts' ;;
        SHST) echo 'shm st confl|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum||1|shared-memory store bank conflicts' ;;
        BRANCH) echo 'branch %|smsp__sass_average_branch_targets_threads_uniform.pct||1|branch efficiency: branch targets uniform across the warp, %' ;;
        THREADS) echo 'thr/warp|smsp__thread_inst_executed_per_inst_executed.ratio||1|active threads per executed warp instruction (of 32): warp execution efficiency' ;;
        GLD) echo 'gld GB/s|l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second||0.000000001|global load throughput seen by L1 (GB/s)' ;;
        STALL_LSB) echo 'stall lsb|smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio||1|warps stalled waiting for a global load (long scoreboard), per issued instruction' ;;
        STALL_BAR) echo 'stall bar|smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio||1|warps stalled at __syncthreads() (barrier), per issued instruction' ;;
        L1HIT) echo 'L1 ld hit %|l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct||1|L1 hit rate of global loads (sectors), %' ;;
        *) echo "profile: tools/labs.conf names a metric '$1' that tools/profile.sh does not define" >&2; exit 2 ;;
    esac
}

case $(lab_get "$lab" device) in
    cpu)
        echo "profile: $lab runs on the CPU; ncu profiles GPU kernels (try perf stat ./$lab)" >&2
        exit 2 ;;
    gpu) [ -n "$(lab_get "$lab" profile)" ] || { echo "profile: $lab has no metric set in tools/labs.conf" >&2; exit 2; } ;;
    *) echo "profile: '$lab' is not a GPU lab; give $(lab_list profile | paste -sd' ' - | sed 's/ \([^ ]*\)$/ or \1/; s/ /, /g; s/, or,/ or/')" >&2; exit 2 ;;
esac
# the lab's profile line: -n SIZE, then the names of its metrics
set -- $(lab_get "$lab" profile)
size="$1 $2"
shift 2
set_=
for m in "$@"; do
    set_="$set_${set_:+
}$(metric "$m")" || exit 2
done
[ -n "${PROFILE_ARGS:-}" ] && size=$PROFILE_ARGS

if [ ! -x "./$lab" ]; then
    echo "profile: ./$lab is not built; run make $lab (make profile LAB=$lab builds it)" >&2
    exit 2
fi
ncu=${NCU:-}
if [ -z "$ncu" ]; then
    ncu=$(command -v ncu 2>/dev/null)
    for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
        [ -z "$ncu" ] && [ -x "$c" ] && ncu=$c
    done
fi
if [ -z "$ncu" ] || [ ! -x "$ncu" ]; then
    echo "profile: ncu (Nsight Compute) not found; it ships with the CUDA toolkit (put its bin/ on PATH or set NCU=path)" >&2
    exit 2
fi

# the kernels: the one asked for, or every kernel of --list but the +ldcg
# variants and tuning rows (name one with KERNEL= to profile it)
# (KERNEL= may also name an exercise, or one of lab05's matrix kernels)
names=$("./$lab" --list --csv 2>/dev/null | awk -F, 'NR > 1 && $2 == "kernel" { print $1 }')
exercises=$("./$lab" --list --csv 2>/dev/null | awk -F, 'NR > 1 && $2 != "kernel" { print $1 }'
    if lab_has "$lab" modes matrix; then "./$lab" -n 1x1 --list --csv 2>/dev/null | awk -F, 'NR > 1 { print $1 }'; fi)
if [ -n "$kernel" ]; then
    if ! printf '%s\n%s\n' "$names" "$exercises" | grep -Fqx -- "$kernel"; then
        echo "profile: $lab has no kernel named '$kernel'; it has: $(printf '%s ' $names)" >&2
        exit 2
    fi
    names=$kernel
else
    names=$(printf '%s\n' "$names" | grep -v '[+]' | grep -v '^tune')
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/profile.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
mkdir -p build/profile

# drop metrics this ncu does not know (the query lists base names)
printf '%s\n' "$set_" >"$tmp/set"
if "$ncu" --query-metrics >"$tmp/avail" 2>/dev/null && [ "$(wc -l <"$tmp/avail")" -gt 50 ]; then
    : >"$tmp/set.ok"
    while IFS='|' read -r label m d scale what; do
        ok=1
        for x in $m $d; do
            base=${x%%.*}
            grep -q "^${base}[[:space:]]" "$tmp/avail" || grep -q "^${base}\$" "$tmp/avail" || ok=0
        done
        if [ $ok -eq 1 ]; then echo "$label|$m|$d|$scale|$what" >>"$tmp/set.ok"
        else echo "note: this ncu has no $m${d:+ or $d}; the column '$label' is left out"; fi
    done <"$tmp/set"
    mv "$tmp/set.ok" "$tmp/set"
fi
metrics=$(awk -F'|' '{ print $2; if ($3 != "") print $3 }' "$tmp/set" | awk '!seen[$0]++' | paste -sd, -)

gpu=$(sh tools/gpu.sh name 2>/dev/null)
echo "ncu $("$ncu" --version 2>/dev/null | tail -n 1 | sed 's/.*Version //') on ${gpu:-the GPU}:"
echo "  ./$lab $size -r 1, first launch of each kernel, --clock-control none"

status=0
: >"$tmp/all.csv"
i=0
for k in $names; do
    i=$((i + 1))
    count=1
    case $k in cub::*) count=4 ;; esac    # the library may launch several kernels
    safe=$(printf '%s' "$k" | tr -c 'A-Za-z0-9_\n' '_')
    rep=build/profile/$lab-$safe
    # ^([^w]|w[^b]|wb[^_]): any kernel whose name does not start with wb_ (the harness's flush);
    # an exercise runs after the kernel it is measured against: match its own name
    filter='regex:^([^w]|w[^b]|wb[^_])'
    printf '%s\n' "$exercises" | grep -Fqx -- "$k" && filter="regex:^$k\$"
    "$ncu" --clock-control none --metrics "$metrics" --kernel-name-base function \
        --kernel-name "$filter" --launch-count $count -f -o "$rep" \
        "./$lab" -k "$k" -r 1 $size >"$tmp/log.$i" 2>&1
    st=$?
    if [ ! -f "$rep.ncu-rep" ]; then
        echo "FAIL $k: ncu made no report (exit $st):"
        grep -E '==ERROR==|==WARNING==|error|Error' "$tmp/log.$i" | head -n 5 | sed 's/^/    /'
        if grep -q ERR_NVGPUCTRPERM "$tmp/log.$i"; then
            echo "    (the GPU's performance counters need permission: see docs/setup.md or run as an administrator)"
        fi
        status=3
        continue
    fi
    [ $st -ne 0 ] && echo "note: ./$lab -k $k under ncu exited $st: $(grep -v '^==' "$tmp/log.$i" | tail -n 1)"
    "$ncu" -i "$rep.ncu-rep" --csv --page raw --print-units base >"$tmp/raw.$i" 2>"$tmp/err.$i"
    # tag each data line with the lab's name for the kernel
    awk -v k="$k" 'NR == 1 { print "@@header\t" $0; next } { print k "\t" $0 }' "$tmp/raw.$i" >>"$tmp/all.csv"
done

if [ -s "$tmp/all.csv" ]; then
    echo
    awk -f tools/profile.awk "$tmp/set" "$tmp/all.csv"
    echo "reports: build/profile/$lab-*.ncu-rep (open with ncu-ui, or ncu -i FILE --page details)"
fi
exit $status
