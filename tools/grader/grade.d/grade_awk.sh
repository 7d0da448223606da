# tools/grader/grade.d/grade_awk.sh - sourced (POSIX sh) by tools/grader/grade and
# tools/grader/calibrate.sh, with $here their folder, tools/grader/:
# grade_awk ARGS... is awk running the grader's four parts as one program
# (conf.awk says what each holds), each path one word: a folder may hold spaces
grade_awk() {
    LC_ALL=C awk -v labs="$here/../labs.conf" -f "$here/grade.d/conf.awk" -f "$here/grade.d/file.awk" \
        -f "$here/grade.d/rules.awk" -f "$here/grade.d/class.awk" "$@"
}
