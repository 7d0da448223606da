# tests/tools/calibration_checks.sh - what a class graded with a calibration must
# show: sourced (after tests/lib.sh) by tests/tools/grader.sh, on runs made from the
# fixtures, and by tests/gpu/grade_sources_gpu.sh, on the GPU's own runs (POSIX sh).

# unwrapped REPORT: the report with the lines tools/grader/grade broke at 100 columns joined
# again (a broken line goes on indented 4 more than the line it continues)
unwrapped() {
    awk '{ match($0, /^ */); ind = RLENGTH
           if (NR > 1 && ind == pind + 4) { sub(/^ +/, " "); prev = prev $0; next }
           if (NR > 1) print prev
           prev = $0; pind = ind }
         END { if (NR) print prev }' "$1"
}

# cal_full NAME REPORT PATTERN: every student of the class table whose name
# matches PATTERN (awk) earns every point there (total = max), and there is one
cal_full() {
    cf=$(awk -v pat="$3" '$1 ~ pat && $NF ~ /^[0-9]+\/[0-9]+$/ { n++; split($NF, t, "/"); if (t[1] != t[2]) bad = bad " " $1 " " $NF }
        END { print n + 0 ":" bad }' "$2")
    if [ "${cf%%:*}" -gt 0 ] && [ -z "${cf#*:}" ]; then ok "$1 (${cf%%:*} students)"
    else notok "$1" "students ${cf%%:*}; short of the maximum:${cf#*:}"; fi
}

# cal_printed NAME REPORT GPU: the class part prints the calibration of GPU,
# one line per speed check, and the physics line
cal_printed() {
    unwrapped "$2" >"$2.joined"
    if grep -q "^speed bars calibrated on $3 (" "$2.joined" &&
        grep -Eq '^  lab0[2-6] (faster|no_slower|near_copy|versus|keeps_up) [^:]+: (the solution|not gradable)' "$2.joined" &&
        grep -q '^  physics: a row faster than [0-9]* GB/s' "$2.joined"; then ok "$1"
    else notok "$1" "$(grep -A3 '^speed bars' "$2" | head -c 400)"; fi
}

# cal_worth0 NAME REPORT GPU LAB CHECK: CHECK of LAB (grade.conf's words: keeps_up
# reduceNeighboredMask) is not gradable on GPU, said once in the class part, with the
# solution's figure, the bar, and the lab's lower maximum; and the files' lines show it
# worth nothing (info)
cal_worth0() {
    unwrapped "$2" >"$2.joined"
    n=$(grep -c "^  $4 $5: not gradable on $3: the solution reaches [0-9.]*x, the chapter asks [0-9.]*x (worth 0: $4's maximum [0-9]* of [0-9]*)" "$2.joined")
    if [ "$n" -eq 1 ] && grep -q "^  info   -     ${5%% *}: ${5#* } at " "$2"; then ok "$1"
    else notok "$1" "$n class lines; $(grep "not gradable" "$2" | head -n 3)"; fi
}
