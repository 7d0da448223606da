# tools/grader/grade.d/conf.awk - the grader (POSIX awk), part 1 of 4; tools/grader/grade runs it.
#
#   grade_awk -v conf=tools/grader/grade.conf -v mode=conf /dev/null
#       reads grade.conf and stops: exit 0, or one line on stderr and exit 2.
#   grade_awk -v conf=tools/grader/grade.conf -v label=NAME -v scores=SCOREFILE FILE
#       (mode=file, the default) grades one CSV file written by ./labNN --csv
#       (with or without --exercises).
#   grade_awk -v conf=tools/grader/grade.conf -v mode=fail -v label=NAME -v scores=SCOREFILE FILE.fail
#       a lab that did not build or run (tools/grader/grade_sources.sh writes them):
#       line 1 `KEY: what happened`, then the details (the compiler's first
#       errors, the program's last words); the key scores 0, state failed.
#   grade_awk -v mode=wrap FILE
#       FILE with every line longer than 100 columns broken at a blank, the
#       rest indented 4 more than the line (what tools/grader/grade prints).
#   grade_awk -v conf=tools/grader/grade.conf -v mode=class -v format=text|csv SCORES
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
#   @@ KEY GOT MAX LOST STATE RUN_AT FINGERPRINT NPASS NEX SOLUTIONS LAB CAL DEVICE NOTE...
#
#   MAX grade.conf's points less those of the checks the calibration makes
#   worth 0; LOST 1 when a point was lost; STATE ok, rejected, physics or
#   failed (a .fail file: the lab did not build or run); RUN_AT and
#   FINGERPRINT `-` when unknown or empty; NPASS the exercise rows that PASS;
#   NEX the exercise rows (0: a plain run);
#   SOLUTIONS 1 when the build says `solutions`; LAB the lab (no dlcm); CAL
#   the calibration that set the bars (its number in calib='s list), 0 none
#   for a file with speed checks, - no speed check applied; DEVICE the
#   device, blanks as _ (- unknown); NOTE the first reason for a rejection
#   or a physics verdict (free text).
#
#   calib=FILE (modes file, fail, class): FILE lists the calibration files
#   to use, one path a line (tools/grader/calibrate.sh writes them; read_calibration).
#   mode=measure: like mode=file, but prints each speed check's measured
#   value instead of a report (tools/grader/calibrate.sh reads it): one line per
#   check, tab-separated: M, the device, the key, the check, its value, its
#   rows' spread, peak_gbps, run_at, the check's arguments; and one line F,
#   the device, the key, the fastest GB/s of the file (a kernel or the
#   copy), peak_gbps, run_at, which kernel.
#
# mode=class reads tools/grader/grade's SCORES file: one line per result, fields
# separated by tabs: who, the name the file's name gives, the file (relative
# to DIR), its report file, its `cksum`, then the fields of its @@ line.
# It prints each report with notes, then the class (text), or the gradebook
# CSV (csv; the notes then go to stderr). Exit status: 0 every student earned
# every point, nothing was flagged and every file was credited; 1 otherwise.
#
# The grader is four parts run in this order as one program (grade_awk,
# tools/grader/grade.d/grade_awk.sh, passes each with -f): tools/grader/grade.d/conf.awk
# (this: the modes, the columns, grade.conf), file.awk (one CSV file: its
# rows, cross checks, physics), rules.awk (grade.conf's checks on one key,
# mode=file's main) and class.awk (the class).
#
# A problem in grade.conf: one line on stderr ("grade: FILE:LINE: ..."), exit
# 2. The file under grading never makes it exit non-zero: what is wrong with
# it is reported, not crashed on.

BEGIN {
    # the documented header from its one source, common/csv_columns.h, which
    # the programs compile in (columns= names it; tools/grader/grade passes it)
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
    STDERR = "cat 1>&2"
    if (mode == "") mode = "file"
    if (mode != "file" && mode != "class" && mode != "conf" && mode != "fail" && mode != "wrap" && mode != "measure")
        conf_fail("mode=" mode " is not file, measure, fail, class, conf or wrap")
    if (label == "") label = "(file)"
    # the element types and their bytes, from their one list (types= names it)
    if (mode == "measure") { mode = "file"; MEASURE = 1 }
    if (mode == "file") read_types(types != "" ? types : "common/types.def")
    WIDTH = 100
    # the labs, their default types and modes, from their one list (labs= names it)
    if (mode != "wrap") read_labs(labs != "" ? labs : "tools/labs.conf")
    if (mode != "wrap") read_conf(conf)
    if (mode == "file" || mode == "class" || mode == "fail") read_calibrations(calib)
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
        if (t[1] == "set_on") {
            if (nt < 2) conf_fail(where "set_on takes the GPU the thresholds were set on: set_on NVIDIA H100 80GB HBM3")
            SET_ON = t[2]
            for (i = 3; i <= nt; i++) SET_ON = SET_ON " " t[i]
            continue
        }
        if (t[1] == "physics") {
            if (nt != 2 || !is_number(t[2]) || t[2] + 0 < 100)
                conf_fail(where "physics takes one number, the highest pct_of_copy a real run reaches (at least 100): physics 130")
            PHYS_MAX = t[2] + 0
            continue
        }
        if (!is_key(t[1]))
            conf_fail(where "'" t[1] "' is not a lab; a line starts with labNN (or lab05-finish, lab06+dlcm=cg), required, optional, set_on or physics")
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

# ---------------------------------------------------------------------------
# Calibration (tools/grader/calibrate.sh): the instructor's solutions run on the
# grading GPU, each speed check of grade.conf measured there. calib= names a
# file that lists the calibration files, one path a line. A calibration file
# is CSV: the header CAL_HEADER, then one line per check: the GPU (the labs'
# device column), the lab's key, the check, the solutions' value (median of
# the runs: a time or GB/s ratio; near_copy a fraction of the copy ceiling;
# no_slower time(B)/time(A)), its spread (relative: the larger of half the
# runs' range and the rows' own half-interquartile ranges), the runs, the
# GPU's theoretical GB/s, the first run's date, the toolkit, and the check's
# arguments without its threshold (the rest of the line). One line `fastest`
# holds the fastest GB/s the solutions reached (a kernel or the copy).
# A bar may only be lowered: cal_bar below.
# ---------------------------------------------------------------------------
function read_calibrations(list,    path, show) {
    CAL_HEADER = "gpu,lab,check,reference,spread,runs,peak_gbps,run_at,toolkit,what"
    CAL_MARGIN = 0.01    # below the solutions' value beyond twice its spread
    CAL_NOISY = 0.05     # a spread above this is named in the report
    NCAL = 0
    if (list == "") return
    # one file a line: its path, then optionally a tab and the name to print
    while ((getline path < list) > 0) {
        if (path == "") continue
        show = path
        if (index(path, "\t")) { show = substr(path, index(path, "\t") + 1); path = substr(path, 1, index(path, "\t") - 1) }
        read_calibration(path, show)
    }
    close(list)
}

function read_calibration(path, show,    line, ln, f, nf, c, what, id, k, where) {
    ln = 0; c = 0
    while ((getline line < path) > 0) {
        ln++
        sub(/\r$/, "", line)
        where = path ":" ln ": "
        if (ln == 1) {
            if (line != CAL_HEADER)
                conf_fail(where "not a calibration file (tools/grader/calibrate.sh writes them); its first line should be " CAL_HEADER)
            continue
        }
        if (line == "") continue
        nf = split(line, f, ",")
        if (nf < 10) conf_fail(where nf " fields; a calibration line has 10: " CAL_HEADER)
        what = f[10]
        for (k = 11; k <= nf; k++) what = what "," f[k]
        if (f[1] == "" || !is_number(f[4]) || !is_number(f[5]) || f[6] !~ /^[1-9][0-9]*$/ || !is_number(f[7]))
            conf_fail(where "gpu must be given and reference, spread, runs and peak_gbps be numbers")
        if (!c) {
            if (f[1] in CALIDX)
                conf_fail(path ": a second calibration for " f[1] " (the first: " CALFILE[CALIDX[f[1]]] "); give one a GPU")
            c = ++NCAL
            CALIDX[f[1]] = c; CALGPU[c] = f[1]; CALFILE[c] = path; CALSHOW[c] = show; CALRUNAT[c] = f[8]; CALTK[c] = f[9]
            CALRUNS[c] = f[6]; CALPEAK[c] = f[7] + 0; CALFAST[c] = 0
        } else if (f[1] != CALGPU[c]) conf_fail(where "GPU '" f[1] "', its first line's is '" CALGPU[c] "': one GPU a file")
        if (f[3] == "fastest") { CALFAST[c] = f[4] + 0; CALFASTWHAT[c] = what; continue }
        if (f[3] !~ /^(faster|no_slower|near_copy|versus|keeps_up)$/)
            conf_fail(where "'" f[3] "' is not a speed check (faster, no_slower, near_copy, versus, keeps_up) or fastest")
        if (!is_key(f[2])) conf_fail(where "'" f[2] "' is not a lab key")
        id = c SUBSEP f[2] SUBSEP f[3] SUBSEP what
        CREF[id] = f[4] + 0; CSPR[id] = f[5] + 0; CNRUNS[id] = f[6] + 0
        if (!((c SUBSEP f[2]) in CKEYSEEN)) { CKEYSEEN[c, f[2]] = 1; CKEYS[c, ++NCKEYS[c]] = f[2] }
    }
    close(path)
    if (!c) conf_fail(path ": no calibration line (tools/grader/calibrate.sh writes them)")
}

function is_speed(i) { return R_KIND[i] ~ /^(faster|no_slower|near_copy|versus|keeps_up)$/ }

# how a calibration names check i: its arguments without the threshold
function rule_what(i) {
    if (R_KIND[i] == "near_copy" || R_KIND[i] == "keeps_up") return R_A1[i]
    return R_A1[i] " " R_A2[i]
}

# check i's threshold in the unit of its measured value (near_copy: a
# fraction of the copy; no_slower: time(B)/time(A) at TOL and no spread)
function rule_bar(i) {
    if (R_KIND[i] == "near_copy") return R_A2[i] / 100
    if (R_KIND[i] == "keeps_up") return R_A2[i] + 0
    if (R_KIND[i] == "no_slower") return 1 / (1 + R_A3[i] / 100)
    return R_A3[i] + 0
}

# a measured value of check i as printed: 1.23x, or 94.3% for near_copy
function fmt_val(i, v) { return (R_KIND[i] == "near_copy") ? sprintf("%.1f%%", 100 * v) : sprintf("%.2fx", v) }

# cal_bar(i, c, key): speed check i on KEY under calibration c. Returns
# CB_STATE: "" (c has no value for it: grade.conf's bar), "missed" (the
# solutions miss grade.conf's bar there: the check is worth 0), "lowered"
# (the bar is CB_BAR, below grade.conf's), "kept" (grade.conf's bar stands).
# CB_REF and CB_SPR: the solutions' value and spread. The lowered bar is
# reference * (1 - 2 * spread) - CAL_MARGIN: the solution's own code, run
# again, clears it. no_slower's own rule (the rows' spreads plus TOL) stays,
# and a time(B)/time(A) of at least CB_BAR passes too.
function cal_bar(i, c, key,    id, want, low) {
    CB_STATE = ""
    if (!c || !is_speed(i)) return CB_STATE
    id = c SUBSEP key SUBSEP R_KIND[i] SUBSEP rule_what(i)
    if (!(id in CREF)) return CB_STATE
    CB_REF = CREF[id]; CB_SPR = CSPR[id]
    want = rule_bar(i)
    low = CB_REF * (1 - 2 * CB_SPR) - CAL_MARGIN
    if (R_KIND[i] == "no_slower") {
        if (CB_REF < 1 / (1 + CB_SPR + R_A3[i] / 100) - 1e-9) CB_STATE = "missed"
    } else if (CB_REF < want - 1e-9) CB_STATE = "missed"
    if (CB_STATE == "missed") { CB_BAR = want; return CB_STATE }
    # down to the digits the report prints (0.01x, 0.1% of the copy): lower, never higher
    low = (R_KIND[i] == "near_copy") ? int(low * 1000 + 1e-9) / 1000 : int(low * 100 + 1e-9) / 100
    if (low < want - 1e-9) { CB_STATE = "lowered"; CB_BAR = low }
    else { CB_STATE = "kept"; CB_BAR = want }
    return CB_STATE
}

# the points of KEY under calibration c: grade.conf's, less the checks the solutions miss
function cal_max(key, c,    i, m, rk) {
    m = max_of(key)
    if (!c) return m
    rk = rules_key(key)
    for (i = 1; i <= nrules; i++)
        if (R_LAB[i] == rk && cal_bar(i, c, key) == "missed") m -= R_PTS[i]
    return m
}

# a device as one word (blanks as _) for the @@ line; "-" when unknown
function dev_word(d) { gsub(/[ \t]/, "_", d); return d == "" ? "-" : d }

function emit_score(s) {
    if (scores == "") print s
    else print s > scores
}


# The CSV header: the quoted pieces of the WB_CSV_COLUMNS define in path,
# joined ("" when path cannot be read: every file's header then differs, and
# the report names the file it could not read).
# the labs of path (tools/labs.conf), in order: LABS[lab] = 1; LABTYPE[lab]
# its default type (the first of its types); LABMODES[lab] " sweep matrix ";
# PARTOF[lab] the lab whose chapter a side program belongs to
function read_labs(path,    line, t, nt, i) {
    while ((getline line < path) > 0) {
        if (line ~ /^#/) continue
        nt = split(line, t, " ")
        if (nt < 3) continue
        if (!(t[1] in LABS)) LABORDER[++nlabs] = t[1]
        LABS[t[1]] = 1
        if (t[2] == "types") LABTYPE[t[1]] = t[3]
        if (t[2] == "modes") for (i = 3; i <= nt; i++) LABMODES[t[1]] = LABMODES[t[1]] " " t[i] " "
        if (t[2] == "part-of") PARTOF[t[1]] = t[3]
    }
    close(path)
    if (nlabs == 0) conf_fail(path ": no labs could be read")
}

function has_mode(lab, m) { return index(LABMODES[lab], " " m " ") > 0 }

# TYPESIZE[name]: bytes per element of each WB_TYPE(...) line of path
# (common/types.def); TYPENAMES: "int, float or double"
function read_types(path,    line, f, n, i, names) {
    while ((getline line < path) > 0) {
        if (line !~ /^WB_TYPE\(/) continue
        split(line, f, /[(),] */)
        gsub(/"/, "", f[4])
        TYPESIZE[f[4]] = f[5] + 0
        names[++n] = f[4]
    }
    close(path)
    if (n == 0) conf_fail(path ": no WB_TYPE lines (the element types) could be read")
    TYPENAMES = names[1]
    for (i = 2; i <= n; ++i) TYPENAMES = TYPENAMES (i == n ? " or " : ", ") names[i]
}

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
