# tools/grade.d/export.awk - the grader (POSIX awk), after class.awk: what
# mode=class adds for the feedback and the page (tools/grade.d/publish.awk).
#
#   intake=FILE   the students' intake notes (tools/intake.sh's, one line each:
#                 who, a tab, refused or name, a tab, the text): each refused
#                 file is a flag of the student's (class_intake, before the scores)
#   export=FILE   the class as data, tab-separated (class_export, after the
#                 table): L COLUMN MAX; S WHO TOTAL MAX FLAGS; C WHO COLUMN CELL
#                 GOT MAX STATE FILE REPORT DEVICE CAL NOTE (one a student and
#                 column, then one for each result of theirs no column holds:
#                 COLUMN ?); K N GPU RUN_AT RUNS FILE (each calibration)

# the refused files of the intake: a flag each (refused FILE)
function class_intake(    line, t, f) {
    if (intake == "") return
    while ((getline line < intake) > 0) {
        split(line, t, "\t")
        if (t[2] != "refused") continue
        f = t[3]; sub(/: .*/, "", f)
        gsub(/[^ -~]/, "?", f)
        add_flag(t[1], "refused " f)
    }
    close(intake)
}

function export_cell(who, col, cell, i) {
    printf "C\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", who, col, cell, (i ? RGOT[i] : 0),
           (i ? RMAX[i] : cal_max(col, CLASSCAL)), (i ? RSTATE[i] : "-"), (i ? REL[i] : ""), (i ? REP[i] : ""),
           (i ? RDEV[i] : ""), (i ? RCAL[i] : "-"), (i ? RNOTE[i] : "") > export
}

function class_export(    s, c, i, who) {
    if (export == "") return
    for (c = 1; c <= NCLASSCOL; c++) printf "L\t%s\t%s\n", COL[c], cal_max(COL[c], CLASSCAL) > export
    for (c = 1; c <= NCAL; c++) printf "K\t%d\t%s\t%s\t%s\t%s\n", c, CALGPU[c], CALRUNAT[c], CALRUNS[c], CALSHOW[c] > export
    for (s = 1; s <= NSTU; s++) {
        who = STU[s]
        printf "S\t%s\t%s\t%s\t%s\n", who, TOTAL[s], MAX[s], FLAGS[s] > export
        for (c = 1; c <= NCLASSCOL; c++)
            export_cell(who, COL[c], CELL[s, c], ((who SUBSEP COL[c]) in BEST) ? BEST[who, COL[c]] : 0)
        for (i = 1; i <= nres; i++)
            if ((WHO[i] "") == (who "") && (RKEY[i] == "?" || !(RKEY[i] in ISCOL))) export_cell(who, RKEY[i], "", i)
    }
    close(export)
}
