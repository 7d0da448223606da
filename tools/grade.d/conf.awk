# tools/grade.d/conf.awk - the grader (POSIX awk), part 1 of 4; tools/grade runs it.
#
#   awk -v conf=tools/grade.conf -v mode=conf $GRADE_AWK /dev/null
#       reads grade.conf and stops: exit 0, or one line on stderr and exit 2.
#   awk -v conf=tools/grade.conf -v label=NAME -v scores=SCOREFILE $GRADE_AWK FILE
#       (mode=file, the default) grades one CSV file written by ./labNN --csv
#       (with or without --exercises).
#   awk -v conf=tools/grade.conf -v mode=fail -v label=NAME -v scores=SCOREFILE $GRADE_AWK FILE.fail
#       a lab that did not build or run (tools/grade_sources.sh writes them):
#       line 1 `KEY: what happened`, then the details (the compiler's first
#       errors, the program's last words); the key scores 0, state failed.
#   awk -v mode=wrap $GRADE_AWK FILE
#       FILE with every line longer than 100 columns broken at a blank, the
#       rest indented 4 more than the line (what tools/grade prints).
#   awk -v conf=tools/grade.conf -v mode=class -v format=text|csv $GRADE_AWK SCORES
#       puts the files' results together: one result per student and lab,
#       required labs, copies, the class table or the gradebook CSV.
#
# mode=file reads the columns by name: the documented ones, in their order,
# with the newer optional ones (error, bound) anywhere between them, so files
# written before those grade too. It checks the file first (every field well
# formed, the numbers adding up: gbps against bytes and time, pct_of_copy
# against gbps and the ceiling, speedups, the new columns: type, role,
# against, build, run_at, fingerprint, finish, todo rows; a file written
# before the finish column, without it, is read with finish empty); a file that fails that is
# rejected and scores 0. A file whose speeds no real run reaches (physics:
# faster than the GPU's theoretical bandwidth, or above grade.conf's margin
# over the copy ceiling) scores 0 too. Otherwise the checks of grade.conf are
# applied to each lab of the file. The lab's key is its lab plus the build's
# dlcm (`lab06+dlcm=cg`): each key is one result. It prints a report for
# people on stdout and one line per key to SCOREFILE (stdout if not given):
#
#   @@ KEY GOT MAX LOST STATE RUN_AT FINGERPRINT NPASS NEX SOLUTIONS LAB NOTE...
#
#   LOST 1 when a point was lost; STATE ok, rejected, physics or failed (a
#   .fail file: the lab did not build or run); RUN_AT and
#   FINGERPRINT `-` when unknown or empty; NPASS the exercise rows that PASS;
#   NEX the exercise rows (0: a plain run);
#   SOLUTIONS 1 when the build says `solutions`; LAB the lab (no dlcm); NOTE
#   the first reason for a rejection or a physics verdict (free text).
#
# mode=class reads tools/grade's SCORES file: one line per result, fields
# separated by tabs: who, the name the file's name gives, the file (relative
# to DIR), its report file, its `cksum`, then the fields of its @@ line.
# It prints each report with notes, then the class (text), or the gradebook
# CSV (csv; the notes then go to stderr). Exit status: 0 every student earned
# every point, nothing was flagged and every file was credited; 1 otherwise.
#
# The grader is four parts run in this order as one program (tools/grade
# passes each with -f): tools/grade.d/conf.awk (this: the modes, the columns,
# grade.conf), file.awk (one CSV file: its rows, cross checks, physics),
# rules.awk (grade.conf's checks on one key, mode=file's main) and class.awk
# (the class). $GRADE_AWK below stands for those four -f options.
#
# A problem in grade.conf: one line on stderr ("grade: FILE:LINE: ..."), exit
# 2. The file under grading never makes it exit non-zero: what is wrong with
# it is reported, not crashed on.

BEGIN {
    # the documented header from its one source, common/csv_columns.h, which
    # the programs compile in (columns= names it; tools/grade passes it)
    HEADER = csv_columns(columns != "" ? columns : "common/csv_columns.h")
    OLD_HEADER = "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,status"
    # The columns are read by name. The base columns, in this order, are in
    # every file; the optional ones (newer than the base) may stand anywhere
    # in between: a file written before them (no finish, error, bound) grades too.
    BASE = "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build,run_at,fingerprint,status"
    NCOL = split(BASE, COLS, ",")
    split("finish error bound result", OPTLIST, " "); for (i in OPTLIST) OPTIONAL[OPTLIST[i]] = 1
    FILEHEADER = HEADER; FILENCOL = NCOL
    INF = 1e300
    MAXERR = 12          # problems printed per file
    SLACK = 0.001        # relative slack on top of the printed rounding
    T_HALF = 0.0000005   # half a unit of the last printed digit of a time (%.6f)
    G_HALF = 0.005       # the same for values printed with %.2f
    S_HALF = 0.0005      # and with %.3f (speedup)
    TYPESIZE["int"] = 4; TYPESIZE["float"] = 4; TYPESIZE["double"] = 8
    STDERR = "cat 1>&2"
    if (mode == "") mode = "file"
    if (mode != "file" && mode != "class" && mode != "conf" && mode != "fail" && mode != "wrap")
        conf_fail("mode=" mode " is not file, fail, class, conf or wrap")
    if (label == "") label = "(file)"
    WIDTH = 100
    if (mode != "wrap") read_conf(conf)
    if (mode == "conf") exit 0
    if (mode == "class") {
        FS = "\t"
        if (format == "") format = "text"
        if (format != "text" && format != "csv") conf_fail("format=" format " is not text or csv")
    }
    nerr = 0; nrows = 0; nkeys = 0; seen_header = 0; header_bad = 0; oldfmt = 0; lastline = 0; nany = 0
}

# ---------------------------------------------------------------------------
# grade.conf
# ---------------------------------------------------------------------------
function conf_fail(msg) {
    print "grade: " msg | STDERR
    close(STDERR)
    CONF_ERR = 1
    exit 2
}

function is_number(s) {
    return s ~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
}

# a lab key: lab01..lab99 or lab05-finish, then the run's mode when it is not
# the default: +dlcm=ca or +dlcm=cg (the build), +float or +double (--type),
# +finish=device (--finish device), +matrix (lab05 -n NXxNY) or +sweep
# (several sizes of one kernel: --sweep), in that order
function is_key(s) {
    return s ~ /^lab[0-9][0-9](-finish)?(\+dlcm=(ca|cg))?(\+(float|double))?(\+finish=device)?(\+(matrix|sweep))?$/
}

# the key whose grade.conf lines grade KEY: KEY itself when grade.conf has a
# line for it, else its lab without the mode (lab06+dlcm=cg -> lab06)
function rules_key(k,    b) {
    if (k in HASRULES) return k
    b = k
    sub(/\+.*/, "", b)
    return b
}

function max_of(k) { return MAXPTS[rules_key(k)] + 0 }

function read_conf(path,    line, ln, t, nt, rc, k, need, where, i) {
    nrules = 0; nreq = 0; nopt = 0; PHYS_MAX = 0
    ln = 0
    if (path == "") conf_fail("no rules file given (conf=)")
    while ((rc = (getline line < path)) > 0) {
        ln++
        sub(/\r$/, "", line)
        sub(/#.*/, "", line)
        nt = split(line, t, " ")
        if (nt == 0) continue
        where = path ":" ln ": "
        if (t[1] == "required" || t[1] == "optional") {
            if (nt < 2) conf_fail(where t[1] " needs at least one lab: " t[1] " lab01 lab02 ...")
            for (i = 2; i <= nt; i++) {
                if (!is_key(t[i]))
                    conf_fail(where "'" t[i] "' is not a lab; " t[1] " takes labNN, lab05-finish or lab06+dlcm=cg (or +dlcm=ca)")
                if (t[i] in LISTED) continue
                LISTED[t[i]] = t[1]
                if (t[1] == "required") REQ[++nreq] = t[i]
                else OPT[++nopt] = t[i]
            }
            continue
        }
        if (t[1] == "physics") {
            if (nt != 2 || !is_number(t[2]) || t[2] + 0 < 100)
                conf_fail(where "physics takes one number, the highest pct_of_copy a real run reaches (at least 100): physics 130")
            PHYS_MAX = t[2] + 0
            continue
        }
        if (!is_key(t[1]))
            conf_fail(where "'" t[1] "' is not a lab; a line starts with labNN (or lab05-finish, lab06+dlcm=cg), required, optional or physics")
        if (nt < 3)
            conf_fail(where "a line needs LAB POINTS CHECK ARGUMENTS...")
        if (t[2] !~ /^[0-9]+$/)
            conf_fail(where "'" t[2] "' is not a number of points; give a whole number (0 keeps the check as information)")
        k = t[3]
        need = -1
        if (k == "verified" || k == "done") need = 1
        else if (k == "near_copy" || k == "keeps_up") need = 2
        else if (k == "faster" || k == "no_slower" || k == "versus") need = 3
        if (need < 0)
            conf_fail(where "'" k "' is not a check; the checks are verified, faster, no_slower, near_copy, versus, done, keeps_up")
        if (nt - 3 != need)
            conf_fail(where k " takes " need " argument(s) after the check's name, found " (nt - 3))
        if (k != "done" && !is_number(t[nt]))
            conf_fail(where "'" t[nt] "' is not a number; the last argument of " k " is a threshold")
        nrules++
        R_LAB[nrules] = t[1]
        R_PTS[nrules] = t[2] + 0
        R_KIND[nrules] = k
        R_A1[nrules] = t[4]
        R_A2[nrules] = (nt >= 5) ? t[5] : ""
        R_A3[nrules] = (nt >= 6) ? t[6] : ""
        MAXPTS[t[1]] += t[2]
        HASRULES[t[1]] = 1
    }
    if (rc < 0) conf_fail(path ": cannot read it")
    close(path)
    if (nrules == 0) conf_fail(path ": holds no checks")
}

function emit_score(s) {
    if (scores == "") print s
    else print s > scores
}


# The CSV header: the quoted pieces of the WB_CSV_COLUMNS define in path,
# joined ("" when path cannot be read: every file's header then differs, and
# the report names the file it could not read).
function csv_columns(path,    line, on, out, s) {
    while ((getline line < path) > 0) {
        if (line ~ /^#define WB_CSV_COLUMNS/) on = 1
        if (!on) continue
        s = line
        while (match(s, /"[^"]*"/)) {
            out = out substr(s, RSTART + 1, RLENGTH - 2)
            s = substr(s, RSTART + RLENGTH)
        }
        if (line !~ /[\\]$/) break
    }
    close(path)
    return out
}
