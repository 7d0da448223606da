# tools/grade.awk - the grader's two halves (POSIX awk). tools/grade runs both.
#
#   awk -v conf=tools/grade.conf -v mode=conf -f tools/grade.awk /dev/null
#       reads grade.conf and stops: exit 0, or one line on stderr and exit 2.
#   awk -v conf=tools/grade.conf -v label=NAME -v scores=SCOREFILE -f tools/grade.awk FILE
#       (mode=file, the default) grades one CSV file written by ./labNN --csv
#       (with or without --exercises).
#   awk -v conf=tools/grade.conf -v mode=fail -v label=NAME -v scores=SCOREFILE -f tools/grade.awk FILE.fail
#       a lab that did not build or run (tools/grade_sources.sh writes them):
#       line 1 `KEY: what happened`, then the details (the compiler's first
#       errors, the program's last words); the key scores 0, state failed.
#   awk -v mode=wrap -f tools/grade.awk FILE
#       FILE with every line longer than 100 columns broken at a blank, the
#       rest indented 4 more than the line (what tools/grade prints).
#   awk -v conf=tools/grade.conf -v mode=class -v format=text|csv -f tools/grade.awk SCORES
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
# A problem in grade.conf: one line on stderr ("grade: FILE:LINE: ..."), exit
# 2. The file under grading never makes it exit non-zero: what is wrong with
# it is reported, not crashed on.

BEGIN {
    HEADER = "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build,run_at,fingerprint,finish,error,bound,status"
    OLD_HEADER = "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,status"
    # The columns are read by name. The base columns, in this order, are in
    # every file; the optional ones (newer than the base) may stand anywhere
    # in between: a file written before them (no finish, error, bound) grades too.
    BASE = "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build,run_at,fingerprint,status"
    NCOL = split(BASE, COLS, ",")
    split("finish error bound", OPTLIST, " "); for (i in OPTLIST) OPTIONAL[OPTLIST[i]] = 1
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

# ---------------------------------------------------------------------------
# Problems with the file
# ---------------------------------------------------------------------------
function problem(line, msg) {
    nerr++
    gsub(/[^ -~]/, "?", msg)      # keep the report printable whatever the file holds
    if (nerr <= MAXERR)
        PROB[nerr] = label ":" line ": " msg
    if (nerr == 1) FIRSTPROB = msg
}

# The file's header: the base columns in order, optional ones anywhere
# between them. Sets FILEHEADER, FILENCOL, POS[i] (where base column i
# stands in the file) and OPTPOS[name] (0: absent); 0 if the header is not such.
function read_header(got,    g, ng, i, k) {
    ng = split(got, g, ",")
    k = 0
    for (i in OPTIONAL) OPTPOS[i] = 0
    for (i = 1; i <= ng; i++) {
        if ((g[i] in OPTIONAL) && !OPTPOS[g[i]]) { OPTPOS[g[i]] = i; continue }
        if (++k > NCOL || g[i] != COLS[k]) return 0
        POS[k] = i
    }
    if (k != NCOL) return 0
    FILEHEADER = got; FILENCOL = ng
    return 1
}

# error and bound (empty: an exact check): both numbers or both empty, empty
# on a todo row, and a PASS needs error <= bound. 1 if they are wrong.
function check_error_bound(e, b, status) {
    if (e == "" && b == "") return 0
    if (status == "todo") { problem(FNR, "error and bound are given on a todo row; a todo row is not run"); return 1 }
    if ((!is_number(e) && e != "inf") || !is_number(b)) { problem(FNR, "error '" e "' and bound '" b "' must be both numbers or both empty"); return 1 }
    if (status == "PASS" && (e == "inf" || e + 0 > b + 0)) { problem(FNR, "status PASS with error " e " above its bound " b); return 1 }
    return 0
}

function header_problem(got,    g, ng, i, want, have, miss, extra, nhave) {
    ng = split(got, g, ",")
    for (i = 1; i <= ng; i++) have[g[i]] = 1
    for (i = 1; i <= NCOL; i++) want[COLS[i]] = 1
    for (i in OPTIONAL) want[i] = 1
    miss = ""; extra = ""; nhave = 0
    for (i = 1; i <= NCOL; i++) if (COLS[i] in have) nhave++
    if (nhave == 0) {
        problem(FNR, "not a lab's --csv output: the first line should be the header " HEADER "; it is '" substr(got, 1, 60) (length(got) > 60 ? "..." : "") "'")
        return
    }
    for (i = 1; i <= NCOL; i++) if (!(COLS[i] in have)) miss = miss (miss == "" ? "" : " ") COLS[i]
    for (i = 1; i <= ng; i++) if (!(g[i] in want)) extra = extra (extra == "" ? "" : " ") (g[i] == "" ? "(empty)" : g[i])
    if (miss != "") problem(FNR, "missing column(s): " miss "; the header must be the one ./labNN --csv prints (docs/output.md)")
    if (extra != "") problem(FNR, "unknown column(s): " extra)
    if (miss == "" && extra == "")
        problem(FNR, "the columns are not in the documented order (or one is repeated); the header must be: " HEADER)
}

# ---------------------------------------------------------------------------
# One data row
# ---------------------------------------------------------------------------
# v within [lo, hi], widened by the relative slack
function within(v, lo, hi) {
    return v >= lo - SLACK * (lo < 0 ? -lo : lo) - 1e-9 && (hi >= INF || v <= hi + SLACK * hi + 1e-9)
}

function fmt(v) { return sprintf("%.2f", v) }

function size_text(nx, ny, n) { return (nx > 0) ? nx "x" ny : n }

function is_lab(s) { return s ~ /^lab[0-9][0-9]$/ || s == "lab05-finish" }

function is_build(s) { return s ~ /^(sm_[0-9]+|fat|cpu)(\+dlcm=(ca|cg))?(\+solutions)?$/ }

function is_run_at(s,    mo, d, h, mi, se) {
    if (s !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$/) return 0
    mo = substr(s, 6, 2) + 0; d = substr(s, 9, 2) + 0; h = substr(s, 12, 2) + 0
    mi = substr(s, 15, 2) + 0; se = substr(s, 18, 2) + 0
    return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && se <= 60
}

function is_fingerprint(s) { return s == "" || s ~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/ }

# the key of a row: its lab, plus the mode its build, type and finish say
# (the shape, +matrix or +sweep, is added by grade_key: it needs every row)
function key_of(lab, build, ty, fin,    k) {
    k = lab
    if (build ~ /\+dlcm=ca/) k = k "+dlcm=ca"
    if (build ~ /\+dlcm=cg/) k = k "+dlcm=cg"
    # labs 01-05 take --type (int by default); lab06 transposes floats only
    if ((ty == "float" && lab != "lab06") || ty == "double") k = k "+" ty
    if (fin == "device") k = k "+finish=device"
    return k
}

# remember a key the file holds, even when the file is rejected: what it scores 0 for
function note_key(key, run_at, fp, build) {
    if (key in ANYSEEN) return
    ANYSEEN[key] = 1
    ANY[++nany] = key
    ANYRUN[key] = is_run_at(run_at) ? run_at : "-"
    ANYFP[key] = (fp != "" && is_fingerprint(fp)) ? fp : "-"
    ANYSOL[key] = (build ~ /\+solutions$/) ? 1 : 0
}

function row(line,    cells, f, fin, nf, i, bad, lab, kern, n, nx, ny, bytes, t, q1, q3, spr, g, pct, sp, tt, tg, c, pk, lo, hi, d, key, sz, dkey, todo, role, ty) {
    nf = split(line, cells, ",")
    if (nf != FILENCOL) {
        problem(FNR, nf " fields, the header has " FILENCOL " (a comma too many or too few?)")
        if (is_lab(cells[1])) note_key(cells[1], "", "", "")
        return
    }
    for (i = 1; i <= NCOL; i++) f[i] = cells[POS[i]]   # the base columns by name, in their order
    fin = OPTPOS["finish"] ? cells[OPTPOS["finish"]] : ""
    if (is_lab(f[1]) && is_build(f[25])) note_key(key_of(f[1], f[25], f[22], fin), f[26], f[27], f[25])
    else if (is_lab(f[1])) note_key(f[1], "", "", "")
    bad = 0
    role = f[23]; todo = (f[28] == "todo")
    if (!is_lab(f[1])) { problem(FNR, "lab is '" f[1] "', not labNN or lab05-finish"); bad = 1 }
    if (f[2] == "") { problem(FNR, "device is empty"); bad = 1 }
    if (f[3] == "") { problem(FNR, "kernel is empty"); bad = 1 }
    for (i = 4; i <= 6; i++) if (f[i] !~ /^[0-9]+$/) { problem(FNR, COLS[i] " is '" f[i] "', not a whole number"); bad = 1 }
    for (i = 7; i <= 8; i++) if (f[i] !~ /^[0-9]+(x[0-9]+)?$/) { problem(FNR, COLS[i] " is '" f[i] "', not N or NxM"); bad = 1 }
    for (i = 9; i <= 10; i++) if (f[i] !~ /^[0-9]+$/) { problem(FNR, COLS[i] " is '" f[i] "', not a whole number"); bad = 1 }
    if (todo) {
        for (i = 11; i <= 19; i++) if (f[i] != "") { problem(FNR, COLS[i] " is '" f[i] "' on a todo row; a todo row is not run, so time_ms ... total_gbps are empty"); bad = 1; break }
        if (f[10] != "0") { problem(FNR, "reps is '" f[10] "' on a todo row; a todo row is not run (reps 0)"); bad = 1 }
    } else {
        for (i = 11; i <= 17; i++) if (!is_number(f[i])) { problem(FNR, COLS[i] " is '" f[i] "', not a number"); bad = 1 }
        for (i = 18; i <= 19; i++) if (f[i] != "" && !is_number(f[i])) { problem(FNR, COLS[i] " is '" f[i] "', not a number (or empty)"); bad = 1 }
        if ((f[18] == "") != (f[19] == "")) { problem(FNR, "total_ms and total_gbps must be both empty or both given"); bad = 1 }
    }
    for (i = 20; i <= 21; i++) if (!is_number(f[i])) { problem(FNR, COLS[i] " is '" f[i] "', not a number"); bad = 1 }
    if (!(f[22] in TYPESIZE)) { problem(FNR, "type is '" f[22] "', not int, float or double"); bad = 1 }
    if (role != "kernel" && role != "write" && role != "fix") { problem(FNR, "role is '" role "', not kernel, write or fix"); bad = 1 }
    else if (role == "kernel" && f[24] != "") { problem(FNR, "against is '" f[24] "' on a kernel row; only an exercise (role write or fix) is measured against another row"); bad = 1 }
    else if (role != "kernel" && f[24] == "") { problem(FNR, "against is empty on an exercise row (role " role "); it names the kernel the exercise is measured against"); bad = 1 }
    if (!is_build(f[25])) { problem(FNR, "build is '" f[25] "', not sm_NN, fat or cpu, then optionally +dlcm=ca or +dlcm=cg, then optionally +solutions"); bad = 1 }
    if (!is_run_at(f[26])) { problem(FNR, "run_at is '" f[26] "', not a UTC date and time such as 2026-11-23T14:05:09Z"); bad = 1 }
    if (!is_fingerprint(f[27])) { problem(FNR, "fingerprint is '" f[27] "', not 8 lowercase hex digits (or empty)"); bad = 1 }
    if (fin != "" && fin != "host" && fin != "device") { problem(FNR, "finish is '" fin "', not host, device or empty"); bad = 1 }
    else if (fin != "" && f[18] == "") { problem(FNR, "finish is '" fin "' but total_ms is empty; finish says how total_ms was finished"); bad = 1 }
    if (f[28] != "PASS" && f[28] != "FAIL" && !todo) { problem(FNR, "status is '" f[28] "', not PASS, FAIL or todo"); bad = 1 }
    else if (todo && role == "kernel") { problem(FNR, "status is todo on a kernel row; only an exercise (role write or fix) can be todo"); bad = 1 }
    if (check_error_bound(OPTPOS["error"] ? cells[OPTPOS["error"]] : "", OPTPOS["bound"] ? cells[OPTPOS["bound"]] : "", f[28])) bad = 1
    if (bad) return

    lab = f[1]; kern = f[3]; ty = f[22]
    key = key_of(lab, f[25], ty, fin)
    n = f[4] + 0; nx = f[5] + 0; ny = f[6] + 0; bytes = f[9] + 0
    c = f[20] + 0; pk = f[21] + 0

    # the size and the bytes the algorithm must move (docs/output.md)
    if (lab == "lab06") {
        if (nx < 1 || ny < 1) problem(FNR, "nx and ny must be at least 1 for the transpose lab")
        if (n != nx * ny) problem(FNR, "n is " f[4] " but nx*ny = " sprintf("%.0f", nx * ny))
        if (bytes != 8 * nx * ny) problem(FNR, "bytes is " f[9] " but a transpose moves 2*4*nx*ny = " sprintf("%.0f", 8 * nx * ny))
    } else {
        if (n < 1) problem(FNR, "n is 0")
        if (lab == "lab05" && (nx != 0 || ny != 0)) { # lab05's matrix mode: nx columns, ny rows
            if (nx < 1 || ny < 1) problem(FNR, "nx and ny must both be at least 1 for a matrix row, or both 0")
            if (n != nx * ny) problem(FNR, "n is " f[4] " but nx*ny = " sprintf("%.0f", nx * ny))
        } else if (nx != 0 || ny != 0)
            problem(FNR, "nx and ny must be 0 for a reduction (lab05's matrix rows excepted)")
        if (bytes != TYPESIZE[ty] * n)
            problem(FNR, "bytes is " f[9] " but a reduction of n " ty "s reads " TYPESIZE[ty] "*n = " sprintf("%.0f", TYPESIZE[ty] * n))
    }
    if (!todo) {
        t = f[11] + 0; q1 = f[12] + 0; q3 = f[13] + 0; spr = f[14] + 0
        g = f[15] + 0; pct = f[16] + 0; sp = f[17] + 0
        if (f[10] + 0 < 1) problem(FNR, "reps is 0 on a row that was run (only a todo row has reps 0)")
        if (t <= 0) { problem(FNR, "time_ms is 0: no time was measured"); return }
        # the quartiles and the spread
        if (q1 > t + T_HALF * 2 || t > q3 + T_HALF * 2) problem(FNR, "time_ms " f[11] " is not between q1_ms " f[12] " and q3_ms " f[13])
        d = q3 - q1; if (d < 0) d = 0
        lo = 100 * ((d - 2 * T_HALF) > 0 ? d - 2 * T_HALF : 0) / (t + T_HALF) - G_HALF
        hi = (t - T_HALF > 0) ? 100 * (d + 2 * T_HALF) / (t - T_HALF) + G_HALF : INF
        if (!within(spr, lo, hi)) problem(FNR, "spread_pct " f[14] " does not match 100*(q3_ms-q1_ms)/time_ms = " fmt(100 * d / t))
        # GB/s from bytes and time
        lo = bytes / ((t + T_HALF) * 1e6) - G_HALF
        hi = (t - T_HALF > 0) ? bytes / ((t - T_HALF) * 1e6) + G_HALF : INF
        if (!within(g, lo, hi)) problem(FNR, "gbps " f[15] " does not match bytes/(time_ms*1e6) = " fmt(bytes / (t * 1e6)))
        # percent of the copy ceiling
        if (!(c == 0 && pct == 0)) {
            lo = 100 * ((g - G_HALF) > 0 ? g - G_HALF : 0) / (c + G_HALF) - G_HALF
            hi = (c - G_HALF > 0) ? 100 * (g + G_HALF) / (c - G_HALF) + G_HALF : INF
            if (!within(pct, lo, hi))
                problem(FNR, "pct_of_copy " f[16] " does not match 100*gbps/ceiling_gbps = " (c > 0 ? fmt(100 * g / c) : "(ceiling 0)"))
        }
        if (f[18] != "") {
            tt = f[18] + 0; tg = f[19] + 0
            if (tt <= 0) problem(FNR, "total_ms is 0")
            else {
                lo = bytes / ((tt + T_HALF) * 1e6) - G_HALF
                hi = (tt - T_HALF > 0) ? bytes / ((tt - T_HALF) * 1e6) + G_HALF : INF
                if (!within(tg, lo, hi)) problem(FNR, "total_gbps " f[19] " does not match bytes/(total_ms*1e6) = " fmt(bytes / (tt * 1e6)))
            }
        }
    }

    sz = n "/" nx "/" ny
    dkey = key SUBSEP kern SUBSEP sz SUBSEP ty
    if (dkey in DUP) {
        problem(FNR, kern " at n = " size_text(nx, ny, n) " appears again (first on line " LINE[DUP[dkey]] "); keep one run per file")
        return
    }
    nrows++
    DUP[dkey] = nrows
    if (!((key SUBSEP kern SUBSEP sz) in RI)) RI[key, kern, sz] = nrows
    LINE[nrows] = FNR; KEY[nrows] = key; NX[nrows] = nx; LABN[nrows] = lab; KERN[nrows] = kern; SZ[nrows] = sz; N[nrows] = n
    TSZ[nrows] = sz "/" ty; SZTXT[nrows] = size_text(nx, ny, n)
    TODO[nrows] = todo; ROLE[nrows] = role; AGAINST[nrows] = f[24]
    TIME[nrows] = t; SPREAD[nrows] = spr; GBPS[nrows] = g; PCT[nrows] = pct; SPEEDUP[nrows] = sp
    CEIL[nrows] = c; CEILTXT[nrows] = f[20]; PEAK[nrows] = f[21]; DEV[nrows] = f[2]; STATUS[nrows] = f[28]
    BUILD[nrows] = f[25]; RUNAT[nrows] = f[26]; FP[nrows] = f[27]
    if (!(key in KEYSEEN)) { KEYSEEN[key] = 1; KEYS[++nkeys] = key }
    if (!((key SUBSEP sz) in SIZESEEN)) {
        SIZESEEN[key, sz] = 1
        NSIZES[key]++
        SIZES[key, NSIZES[key]] = sz
        SIZEN[key, sz] = n
        SIZETXT[key, sz] = SZTXT[nrows]
    }
}

# ---------------------------------------------------------------------------
# Checks across rows: speedups, against, one ceiling per size, one run per lab
# ---------------------------------------------------------------------------
function speedup_ok(r, b,    lo, hi) {
    lo = (TIME[b] - T_HALF) / (TIME[r] + T_HALF) - S_HALF
    hi = (TIME[r] - T_HALF > 0) ? (TIME[b] + T_HALF) / (TIME[r] - T_HALF) + S_HALF : INF
    return within(SPEEDUP[r], lo, hi)
}

function same_run(r, what, mine, first,    k) {
    if ((mine "") == (first "")) return     # as text: fingerprints such as 1e5a0000 look like numbers
    k = KEY[r]
    problem(LINE[r], what " '" mine "' differs from '" first "' on line " LINE[RUNLINE[k]] ": one file holds one run per lab (runs of different labs may be concatenated)")
}

function cross_checks(    r, b, ok, key, a) {
    for (r = 1; r <= nrows; r++) {
        key = KEY[r]
        if (ROLE[r] != "kernel") {
            # an exercise: measured against a shipped kernel's row of the same size
            a = ((key SUBSEP AGAINST[r] SUBSEP SZ[r]) in RI) ? RI[key, AGAINST[r], SZ[r]] : 0
            if (!a || ROLE[a] != "kernel")
                problem(LINE[r], KERN[r] " is measured against " AGAINST[r] ", but the file has no kernel row " AGAINST[r] " at n = " SZTXT[r])
            else if (!TODO[r] && !speedup_ok(r, a))
                problem(LINE[r], "speedup " SPEEDUP[r] " does not match " AGAINST[r] "'s time_ms / this time_ms = " sprintf("%.3f", TIME[a] / TIME[r]))
            EXROWS[key]++
        } else if (!TODO[r]) {
            ok = 0
            for (b = 1; b <= nrows && !ok; b++) {
                if (KEY[b] != key || SZ[b] != SZ[r] || TODO[b]) continue
                if (speedup_ok(r, b)) ok = 1
            }
            if (!ok) problem(LINE[r], "speedup " SPEEDUP[r] " matches no row of the same size (speedup = the baseline's time_ms / this time_ms)")
        }
        if (!((key SUBSEP TSZ[r]) in CEILOF)) { CEILOF[key, TSZ[r]] = CEIL[r]; CEILLINE[key, TSZ[r]] = LINE[r] }
        else if (CEIL[r] - CEILOF[key, TSZ[r]] > G_HALF * 2 || CEILOF[key, TSZ[r]] - CEIL[r] > G_HALF * 2)
            problem(LINE[r], "ceiling_gbps " CEILTXT[r] " differs from " fmt(CEILOF[key, TSZ[r]]) " on line " CEILLINE[key, TSZ[r]] " at the same size (one run measures one ceiling per size)")
        if (!(key in RUNLINE)) RUNLINE[key] = r
        b = RUNLINE[key]
        same_run(r, "device", DEV[r], DEV[b])
        same_run(r, "peak_gbps", PEAK[r], PEAK[b])
        same_run(r, "build", BUILD[r], BUILD[b])
        same_run(r, "run_at", RUNAT[r], RUNAT[b])
        same_run(r, "fingerprint", FP[r], FP[b])
    }
}

# ---------------------------------------------------------------------------
# Physics: speeds no real run reaches
# ---------------------------------------------------------------------------
# the rows of KEY faster than the GPU's theoretical bandwidth, or above
# grade.conf's physics margin over the copy ceiling: the count; the messages in
# PHYS[] (file order), PHYS[PHYSWORST] the one furthest beyond its limit
function physics(key,    r, np, pk, over, worst) {
    np = 0; PHYSWORST = 0; worst = 0
    for (r = 1; r <= nrows; r++) {
        # a CPU row (lab01, build cpu) has no theoretical figure, and a
        # read-only pass can beat a copy counted as read plus write: not checked
        if (KEY[r] != key || TODO[r] || BUILD[r] ~ /^cpu/) continue
        pk = PEAK[r] + 0
        if (pk > 0 && GBPS[r] > pk * (1 + SLACK) + G_HALF) {
            PHYS[++np] = sprintf("%s at %.0f GB/s is faster than this GPU's theoretical %.0f GB/s (peak_gbps)",
                                 KERN[r], GBPS[r], pk)
            over = GBPS[r] / pk
            if (over > worst) { worst = over; PHYSWORST = np }
        }
        if (PHYS_MAX > 0 && PCT[r] > PHYS_MAX + G_HALF) {
            PHYS[++np] = sprintf("%s at %.1f%% of the copy ceiling of the same run, above the %s%% no real run reaches",
                                 KERN[r], PCT[r], PHYS_MAX)
            over = PCT[r] / PHYS_MAX
            if (over > worst) { worst = over; PHYSWORST = np }
        }
    }
    return np
}

# ---------------------------------------------------------------------------
# Kernel name patterns: "transpose*", "*,!cub::*"
# ---------------------------------------------------------------------------
function glob_re(p,    i, ch, re) {
    re = "^"
    for (i = 1; i <= length(p); i++) {
        ch = substr(p, i, 1)
        if (ch == "*") re = re ".*"
        else if (ch == "?") re = re "."
        else if (ch ~ /[A-Za-z0-9_]/) re = re ch
        else if (ch == "^" || ch == "\\") re = re "\\" ch
        else re = re "[" ch "]"
    }
    return re "$"
}

function in_set(name, set,    p, np, i, pos, any, neg) {
    np = split(set, p, ",")
    pos = 0; any = 0; neg = 0
    for (i = 1; i <= np; i++) {
        if (substr(p[i], 1, 1) == "!") {
            if (name ~ glob_re(substr(p[i], 2))) neg = 1
        } else {
            pos = 1
            if (name ~ glob_re(p[i])) any = 1
        }
    }
    return (any || !pos) && !neg
}

# ---------------------------------------------------------------------------
# Grading one key of the file. The kernel checks (verified, faster,
# no_slower, near_copy, versus) read the shipped kernels' rows (role kernel);
# done and keeps_up read the exercises' rows.
# ---------------------------------------------------------------------------
function at_text(key, sz) { return (NSIZES[key] > 1) ? " at n = " SIZETXT[key, sz] : "" }

# the kernel row of `name` at size sz (0 if none)
function krow(key, name, sz,    r) {
    if (!((key SUBSEP name SUBSEP sz) in RI)) return 0
    r = RI[key, name, sz]
    return (ROLE[r] == "kernel") ? r : 0
}

# the largest size at which both kernels ran ("" if none)
function size_with(key, a, b,    i, sz, best) {
    best = ""
    for (i = 1; i <= NSIZES[key]; i++) {
        sz = SIZES[key, i]
        if (krow(key, a, sz) && (b == "" || krow(key, b, sz)))
            if (best == "" || SIZEN[key, sz] > SIZEN[key, best]) best = sz
    }
    return best
}

# the largest size at which some kernel of the set ran, leaving out `except`
function size_with_set(key, set, except, need,    r, best) {
    best = ""
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != key || ROLE[r] != "kernel" || KERN[r] == except || !in_set(KERN[r], set)) continue
        if (need != "" && !krow(key, need, SZ[r])) continue
        if (best == "" || N[r] > SIZEN[key, best]) best = SZ[r]
    }
    return best
}

# the fastest verified kernel row of the set at size sz, leaving out `except` (0 if none)
function best_of(key, set, sz, except,    r, best) {
    best = 0
    for (r = 1; r <= nrows; r++)
        if (KEY[r] == key && ROLE[r] == "kernel" && SZ[r] == sz && KERN[r] != except && STATUS[r] == "PASS" && in_set(KERN[r], set))
            if (!best || GBPS[r] > GBPS[best]) best = r
    return best
}

function missing_text(key, a, b) {
    if (size_with(key, a, "") == "") return a " is not in the file (was the lab run with -k?)"
    if (b != "" && size_with(key, b, "") == "") return b " is not in the file (was the lab run with -k?)"
    return a " and " b " never ran at the same size"
}

function result(pts, got, text) {
    if (pts == 0) printf "  info   -     %s\n", text
    else printf "  %-5s %2d/%-2d  %s\n", (got == pts ? "ok" : "LOST"), got, pts, text
    GOT += got
    if (got < pts) LOST = 1
}

function check_verified(i, key,    r, nfail, npass, list, lost) {
    nfail = 0; npass = 0; list = ""
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != key || ROLE[r] != "kernel") continue
        if (STATUS[r] == "PASS") npass++
        else {
            nfail++
            if (nfail <= 6) list = list (list == "" ? "" : ", ") KERN[r] at_text(key, SZ[r]) " (line " LINE[r] ")"
        }
    }
    if (nfail > 6) list = list ", ..."
    lost = nfail * R_A1[i]
    if (lost > R_PTS[i]) lost = R_PTS[i]
    if (nfail == 0) result(R_PTS[i], R_PTS[i], "verified: all " npass " kernel rows PASS")
    else result(R_PTS[i], R_PTS[i] - lost, "verified: " nfail " of " (npass + nfail) " kernel rows say FAIL: " list)
}

function check_faster(i, key,    fast, slow, want, sz, rf, rs, ratio) {
    fast = R_A1[i]; slow = R_A2[i]; want = R_A3[i] + 0
    sz = size_with(key, fast, slow)
    if (sz == "") { result(R_PTS[i], 0, "faster: " missing_text(key, fast, slow)); return }
    rf = krow(key, fast, sz); rs = krow(key, slow, sz)
    if (STATUS[rf] != "PASS" || STATUS[rs] != "PASS") {
        result(R_PTS[i], 0, "faster: " (STATUS[rf] != "PASS" ? fast : slow) " failed verification, so its time does not count")
        return
    }
    ratio = TIME[rs] / TIME[rf]
    result(R_PTS[i], (ratio >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("faster: %s %s %s: time ratio %.2fx, needs %.2fx%s", fast, (ratio >= 1 ? "beats" : "is slower than"),
                   slow, ratio, want, at_text(key, sz)))
}

function check_no_slower(i, key,    a, b, tol, sz, ra, rb, allow, diff, text) {
    a = R_A1[i]; b = R_A2[i]; tol = R_A3[i] + 0
    sz = size_with(key, a, b)
    if (sz == "") { result(R_PTS[i], 0, "no_slower: " missing_text(key, a, b)); return }
    ra = krow(key, a, sz); rb = krow(key, b, sz)
    if (STATUS[ra] != "PASS" || STATUS[rb] != "PASS") {
        result(R_PTS[i], 0, "no_slower: " (STATUS[ra] != "PASS" ? a : b) " failed verification, so its time does not count")
        return
    }
    allow = (SPREAD[ra] + SPREAD[rb]) / 2 + tol
    diff = 100 * (TIME[ra] / TIME[rb] - 1)
    if (diff <= 0) text = sprintf("%s is %.2fx as fast as %s", a, TIME[rb] / TIME[ra], b)
    else text = sprintf("%s is %.1f%% slower than %s, allowance %.1f%%", a, diff, b, allow)
    result(R_PTS[i], (diff <= allow + 1e-9) ? R_PTS[i] : 0, "no_slower: " text at_text(key, sz))
}

function check_near_copy(i, key,    set, want, sz, r) {
    set = R_A1[i]; want = R_A2[i] + 0
    sz = size_with_set(key, set, "", "")
    if (sz == "") { result(R_PTS[i], 0, "near_copy: no kernel matching " set " in the file"); return }
    r = best_of(key, set, sz, "")
    if (!r) { result(R_PTS[i], 0, "near_copy: no kernel matching " set " passed verification" at_text(key, sz)); return }
    result(R_PTS[i], (PCT[r] >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("near_copy: fastest of %s is %s at %.1f%% of the copy ceiling (%.0f of %.0f GB/s), needs %s%%%s",
                   set, KERN[r], PCT[r], GBPS[r], CEIL[r], R_A2[i], at_text(key, sz)))
}

function check_versus(i, key,    set, ref, want, sz, r, rr, ratio) {
    set = R_A1[i]; ref = R_A2[i]; want = R_A3[i] + 0
    if (size_with(key, ref, "") == "") { result(R_PTS[i], 0, "versus: " ref " is not in the file (was the lab run with -k?)"); return }
    sz = size_with_set(key, set, ref, ref)
    if (sz == "") { result(R_PTS[i], 0, "versus: no kernel matching " set " ran at a size where " ref " ran"); return }
    rr = krow(key, ref, sz)
    if (STATUS[rr] != "PASS") { result(R_PTS[i], 0, "versus: " ref " failed verification" at_text(key, sz)); return }
    r = best_of(key, set, sz, ref)
    if (!r) { result(R_PTS[i], 0, "versus: no kernel matching " set " passed verification" at_text(key, sz)); return }
    if (GBPS[rr] <= 0) { result(R_PTS[i], 0, "versus: " ref " shows 0 GB/s"); return }
    ratio = GBPS[r] / GBPS[rr]
    result(R_PTS[i], (ratio >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("versus: fastest of %s is %s at %.2fx %s (%.0f vs %.0f GB/s), needs %.2fx%s",
                   set, KERN[r], ratio, ref, GBPS[r], GBPS[rr], want, at_text(key, sz)))
}

# the exercise row of `name` in KEY at the largest size it ran (0 if none;
# -1 if the name is a shipped kernel's row, not an exercise's)
function exrow(key, name,    r, best, kernel) {
    best = 0; kernel = 0
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != key || KERN[r] != name) continue
        if (ROLE[r] == "kernel") { kernel = 1; continue }
        if (!best || N[r] > N[best]) best = r
    }
    return best ? best : (kernel ? -1 : 0)
}

# why no exercise of KEY earns anything, whichever it is ("" if nothing stops them all)
function file_block(key,    first) {
    first = RUNLINE[key]
    if (EXROWS[key] == 0)
        return "no exercise rows: this is a plain run; hand in ./" LABN[first] " --exercises --csv"
    if (BUILD[first] ~ /\+solutions$/)
        return "built with the instructor's solutions (" BUILD[first] "), not the student's own file"
    return ""
}

# why exercise `name` earns nothing before its speed is looked at ("" if nothing stops it)
function exercise_block(key, name, r,    lab) {
    lab = LABN[RUNLINE[key]]
    if (r < 0) return name " is a shipped kernel's row in this file, not an exercise's (check grade.conf)"
    if (r == 0) return name ": not handed in (no row in the file: run ./" lab " --exercises --csv without -k)"
    if (STATUS[r] == "todo") return name ": not done (todo: the stub is untouched)"
    if (STATUS[r] == "FAIL") return name ": FAIL (the exercise gives a wrong result: fix it)"
    return ""
}

# the exercise checks of KEY that earn nothing, one line per cause: the
# file's (a plain run, a solutions build) once for every exercise check, or
# an exercise's (todo, FAIL, no row) once for its done and keeps_up lines.
# Sets XSKIP[i] for every such check; the line is printed by the first (XLINE[i]).
function exercise_causes(key, rk,    i, fw, why, name, g, pts, nchk, first) {
    split("", XSKIP); split("", XLINE)
    fw = file_block(key)
    for (i = 1; i <= nrules; i++) {
        if (R_LAB[i] != rk || (R_KIND[i] != "done" && R_KIND[i] != "keeps_up")) continue
        name = R_A1[i]
        why = (fw != "") ? "exercises: " fw : exercise_block(key, name, exrow(key, name))
        if (why == "") continue
        g = (fw != "") ? "" : name
        XSKIP[i] = 1
        if (!(g in first)) { first[g] = i; XWHY[i] = why; XCHK[i] = R_KIND[i] }
        else if (index(", " XCHK[first[g]] ",", ", " R_KIND[i] ",") == 0) XCHK[first[g]] = XCHK[first[g]] ", " R_KIND[i]
        pts[g] += R_PTS[i]; nchk[g]++
    }
    for (g in first) {
        i = first[g]
        XLINE[i] = XWHY[i] (nchk[g] > 1 && g != "" ? " [" XCHK[i] "]" : "")
        XPTS[i] = pts[g]
    }
}

function check_done(i, key,    name, r) {
    name = R_A1[i]
    r = exrow(key, name)
    result(R_PTS[i], R_PTS[i], "done: " name " (" ROLE[r] " it) PASS" at_text(key, SZ[r]))
}

function check_keeps_up(i, key,    name, want, r, a, ratio) {
    name = R_A1[i]; want = R_A2[i] + 0
    r = exrow(key, name)
    a = krow(key, AGAINST[r], SZ[r])
    if (STATUS[a] != "PASS") { result(R_PTS[i], 0, "keeps_up: " AGAINST[r] ", which " name " is measured against, failed verification, so the ratio does not count"); return }
    ratio = TIME[a] / TIME[r]
    result(R_PTS[i], (ratio >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("keeps_up: %s at %.2fx %s, needs %.2fx%s", name, ratio, AGAINST[r], want, at_text(key, SZ[r])))
}

# the key's shape from its rows: +matrix for a lab05 run with matrix rows
# only (-n NXxNY), +sweep for a run with several sizes of one kind (--sweep)
function shape_of(key,    r, n1, seen, lab) {
    n1 = 0; lab = LABN[RUNLINE[key]]
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != key || ROLE[r] != "kernel") continue
        if (lab == "lab05" && NX[r] > 0) continue
        if (!(SZ[r] in seen)) { seen[SZ[r]] = 1; n1++ }
    }
    if (lab == "lab05" && n1 == 0) return "+matrix"
    return (n1 > 1) ? "+sweep" : ""
}

function grade_key(ikey,    i, r, nk, rules, lo, hi, s, dev, sizes, rk, np, ex, st, exs, first, key) {
    GOT = 0; LOST = 0
    key = ikey shape_of(ikey)
    # a line that says what this is: device, build, run, size(s), rows
    nk = 0; ex = 0; st["PASS"] = 0; st["FAIL"] = 0; st["todo"] = 0; npass_ex = 0
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != ikey) continue
        if (ROLE[r] == "kernel") nk++
        else { ex++; st[STATUS[r]]++; if (STATUS[r] == "PASS") npass_ex++ }
    }
    first = RUNLINE[ikey]; dev = DEV[first]
    lo = ""; hi = ""
    for (i = 1; i <= NSIZES[ikey]; i++) {
        s = SIZES[ikey, i]
        if (lo == "" || SIZEN[ikey, s] < SIZEN[ikey, lo]) lo = s
        if (hi == "" || SIZEN[ikey, s] > SIZEN[ikey, hi]) hi = s
    }
    sizes = (NSIZES[ikey] > 1) ? "n = " SIZETXT[ikey, lo] " .. " SIZETXT[ikey, hi] " (" NSIZES[ikey] " sizes)" : "n = " SIZETXT[ikey, lo]
    exs = ex ? sprintf(", %d exercise%s (%d PASS, %d FAIL, %d todo)", ex, (ex > 1 ? "s" : ""), st["PASS"], st["FAIL"], st["todo"]) : ", no exercise rows"
    printf "%s: %s on %s, build %s, run %s\n", label, key, dev, BUILD[first], RUNAT[first]
    printf "  %s: %d kernel%s%s\n", sizes, nk, (nk == 1 ? "" : "s"), exs
    rk = rules_key(key)
    np = physics(ikey)
    if (np > 0) {
        for (i = 1; i <= np && i <= 6; i++) printf "  PHYSICS  %s\n", PHYS[i]
        if (np > 6) printf "  ... and %d more\n", np - 6
        printf "  score %s 0/%d  (speeds no real run reaches: the times were edited)\n", key, max_of(key)
        emit_score("@@ " key " 0 " max_of(key) " 1 physics " RUNAT[first] " " (FP[first] == "" ? "-" : FP[first]) " " npass_ex " " ex " " \
                   (BUILD[first] ~ /\+solutions$/ ? 1 : 0) " " LABN[first] " " PHYS[PHYSWORST])
        return
    }
    if (rk != key) printf "  (graded by grade.conf's %s lines)\n", rk
    rules = 0
    exercise_causes(ikey, rk)
    for (i = 1; i <= nrules; i++) {
        if (R_LAB[i] != rk) continue
        rules++
        if (i in XLINE) result(XPTS[i], 0, XLINE[i])
        else if (i in XSKIP) { if (R_PTS[i] > 0) LOST = 1 }
        else if (R_KIND[i] == "verified") check_verified(i, ikey)
        else if (R_KIND[i] == "faster") check_faster(i, ikey)
        else if (R_KIND[i] == "no_slower") check_no_slower(i, ikey)
        else if (R_KIND[i] == "near_copy") check_near_copy(i, ikey)
        else if (R_KIND[i] == "versus") check_versus(i, ikey)
        else if (R_KIND[i] == "done") check_done(i, ikey)
        else if (R_KIND[i] == "keeps_up") check_keeps_up(i, ikey)
    }
    if (!rules) printf "  (grade.conf has no checks for %s: the file was only checked for consistency)\n", key
    printf "  score %s %d/%d%s\n", key, GOT, max_of(key), LOST ? "  (lost points)" : ""
    emit_score("@@ " key " " GOT " " max_of(key) " " LOST " ok " RUNAT[first] " " (FP[first] == "" ? "-" : FP[first]) " " npass_ex " " ex " " \
               (BUILD[first] ~ /\+solutions$/ ? 1 : 0) " " LABN[first])
}

# ---------------------------------------------------------------------------
# mode=file: main
# ---------------------------------------------------------------------------
mode == "file" {
    if (FNR == 1) sub(/^\357\273\277/, "")     # a byte-order mark (a spreadsheet's "CSV UTF-8")
    sub(/\r$/, "")
    lastline = FNR
    if ($0 ~ /^[ \t]*$/) next
    if (oldfmt) {       # only to learn which lab the old file was for
        split($0, of, ",")
        if (is_lab(of[1])) note_key(of[1], "", "", "")
        next
    }
    if (header_bad) next
    if (!seen_header) {
        seen_header = 1
        if ($0 == OLD_HEADER) {
            problem(FNR, "written by an older version of the labs (22 columns, without type, role, against, build, run_at and fingerprint): re-run it with this version (./labNN --exercises --csv, or make handin NAME=...) and hand in the new file")
            header_bad = 1; oldfmt = 1
        } else if (!read_header($0)) { header_problem($0); header_bad = 1 }
        next
    }
    # outputs of several runs, concatenated: a header again (the same, or
    # of a version with more or fewer optional columns)
    if ($0 ~ /^lab,device,kernel,/) {
        if (!read_header($0)) { header_problem($0); header_bad = 1 }
        next
    }
    row($0)
}

# ---------------------------------------------------------------------------
# mode=class: one line per result (see the top of this file)
# ---------------------------------------------------------------------------
mode == "class" && NF >= 16 {
    nres++
    WHO[nres] = $1; NWHO[nres] = $2; REL[nres] = $3; REP[nres] = $4; SUM[nres] = $5
    RKEY[nres] = $6; RGOT[nres] = $7 + 0; RMAX[nres] = $8 + 0; RLOST[nres] = $9 + 0; RSTATE[nres] = $10
    RRUN[nres] = $11; RFP[nres] = $12; RNPASS[nres] = $13 + 0; RNEX[nres] = $14 + 0; RSOL[nres] = $15 + 0
    RLAB[nres] = $16; RNOTE[nres] = (NF >= 17) ? $17 : ""
    FSTATE[REL[nres]] = RSTATE[nres]
    if (!(REL[nres] in FILEOF)) { FILEOF[REL[nres]] = ++nfiles; FILES[nfiles] = REL[nres]; FREP[nfiles] = REP[nres] }
}

# the owner of result i as text: the student, or the file when it is credited to no one
function owner(i) { return WHO[i] != "" ? WHO[i] : "(no one: " REL[i] ")" }
# ... after the file's name: "alice" or "no one"
function owner_short(i) { return WHO[i] != "" ? WHO[i] : "no one" }

# one line of the notes on the class (text: stdout after the reports; csv: stderr)
function say(s) {
    if (format == "csv") { print "grade: " s | STDERR }
    else print s
}

function file_note(rel, s) { FNOTE[rel] = FNOTE[rel] "  " s "\n" }

function csv_field(s) {
    if (s !~ /[",\r\n]/) return s
    gsub(/"/, "\"\"", s)
    return "\"" s "\""
}

# sort A[1..n] (strings) in place
function sort_strings(A, n,    i, j, v) {
    for (i = 2; i <= n; i++) {
        v = A[i]
        for (j = i - 1; j >= 1 && (A[j] "") > (v ""); j--) A[j + 1] = A[j]
        A[j + 1] = v
    }
}

# the owners OWN[1..n] but `me`, as "bob" or "bob and carol"
function others(n, me,    j, t, k) {
    t = ""; k = 0
    for (j = 1; j <= n; j++) if ((OWN[j] "") != (me "")) { k++; t = t (t == "" ? "" : " and ") OWN[j] }
    return t
}

# a flag for a student's line in the class table (once each)
function add_flag(who, s) {
    if ((who SUBSEP s) in FLAGSEEN) return
    FLAGSEEN[who, s] = 1
    FLAGOF[who] = FLAGOF[who] "; " s
}

# how to rename a file the grader cannot place: NAME-<its lab>.csv, NAME
# taken from a name such as lab03-carol.csv when it has one
function rename_hint(i,    base, lab, who, named) {
    base = REL[i]; sub(/^.*\//, "", base); sub(/\.csv$/, "", base)
    lab = (RKEY[i] != "?") ? RKEY[i] : "labNN"
    gsub(/\+dlcm=/, "-", lab); gsub(/[+=]/, "-", lab)
    if (REL[i] ~ /(^|\/)handin\/[^\/]*$/)
        return "handin/ is every student's folder (make handin): rename it after the student " \
               "(mv handin alice) or the file NAME-" lab ".csv"
    who = guess_who(i)
    if (who != "") {
        named = base; sub(/[-_].*/, "", named)
        if (RKEY[i] != "?" && named != RLAB[i])
            return "rename it " who "-" lab ".csv (its name says " named ", its rows are " RKEY[i] \
                   "), or move it into a folder " who "/"
        return "rename it " who "-" lab ".csv, or move it into a folder " who "/"
    }
    return "rename it NAME-" lab ".csv or move it into a folder NAME/ (NAME: the student's)"
}

# the student a misnamed file names (lab03-carol.csv: carol), else ""
function guess_who(i,    base) {
    base = REL[i]; sub(/^.*\//, "", base); sub(/\.csv$/, "", base)
    if (!match(base, /^lab[0-9][0-9](-finish)?[-_]/) || RLENGTH >= length(base)) return ""
    base = substr(base, RLENGTH + 1)
    # not a mode or a size (lab02-float.csv, lab06-2048-ca.csv, lab05-finish.csv)
    if (base ~ /^(finish|ca|cg|float|double|matrix|sweep|device|solutions|stubs|[0-9])([-_.]|[0-9]|$)/) return ""
    return (base ~ /^[A-Za-z][A-Za-z0-9._-]*$/) ? base : ""
}

function class_main(    i, j, k, s, w, f, g, n, line, rep, key, best, nst, width, total, max, flags,
                        c, ngroups, owners, nown, list, hdr, lost_any, who, ncol, m, parts, rej, phy, gw) {
    # the students: every owner, and the name a misnamed file carries (lab03-carol.csv)
    for (i = 1; i <= nres; i++) {
        who = WHO[i]
        if (who == "") { gw = guess_who(i); if (gw != "") add_flag(gw, "misnamed " REL[i]); who = gw }
        if (who != "" && !(who in STUSEEN)) { STUSEEN[who] = 1; STU[++nst] = who }
    }
    # one result per student and key: an --exercises run before a plain one, then the latest run_at
    for (i = 1; i <= nres; i++) {
        if (WHO[i] == "") continue
        if (RKEY[i] == "?") { KEEP[i] = 1; continue }
        k = WHO[i] SUBSEP RKEY[i]
        if (!(k in BEST)) { BEST[k] = i; continue }
        best = BEST[k]
        if (preferred(i, best)) { ASIDE[best] = i; BEST[k] = i }
        else ASIDE[i] = best
    }
    for (k in BEST) KEEP[BEST[k]] = 1
    sort_strings(STU, nst)

    # the class's columns: the required labs, the optional ones, then any
    # other lab handed in in its default mode; a mode grade.conf does not
    # list (lab02+float, lab05+matrix, ...) is an extra run, outside the total
    ncol = 0
    for (i = 1; i <= nreq; i++) { COL[++ncol] = REQ[i]; ISCOL[REQ[i]] = 1 }
    for (i = 1; i <= nopt; i++) if (!(OPT[i] in ISCOL)) { COL[++ncol] = OPT[i]; ISCOL[OPT[i]] = 1 }
    n = 0
    for (i = 1; i <= nres; i++)
        if (KEEP[i] && WHO[i] != "" && RKEY[i] != "?" && !(RKEY[i] in ISCOL) && RKEY[i] !~ /\+/) {
            ISCOL[RKEY[i]] = 1; EXTRA[++n] = RKEY[i]
        }
    sort_strings(EXTRA, n)
    for (i = 1; i <= n; i++) COL[++ncol] = EXTRA[i]
    for (i = 1; i <= nres; i++) {
        if (!KEEP[i] || WHO[i] == "" || RKEY[i] == "?" || (RKEY[i] in ISCOL)) continue
        NXRUN++
        XRUNTXT[NXRUN] = WHO[i] " " RKEY[i] ": " REL[i] " " RGOT[i] "/" RMAX[i]
        file_note(REL[i], "extra run: " RKEY[i] " is not in grade.conf's required or optional line: shown, not counted")
    }

    # per file: who handed it in (for the copies), and notes
    for (i = 1; i <= nres; i++) {
        f = REL[i]
        if (f in FWHO) continue
        FWHO[f] = owner(i); FSUM[f] = SUM[i]; FKEY[f] = RKEY[i]
        if (WHO[i] == "") {
            NUNPLACED++
            UNPLACED[NUNPLACED] = f ": " (RKEY[i] == "?" ? "an unknown lab" : RKEY[i]) ", credited to no one: " rename_hint(i)
            file_note(f, "WARNING: whose file is this? (not NAME-labNN.csv, not in a folder per student): " \
                         "graded, credited to no one; " rename_hint(i))
        } else if (NWHO[i] != "" && (NWHO[i] "") != (WHO[i] "")) {
            NMISMATCH++
            MISMATCH[NMISMATCH] = f ": credited to " WHO[i] " (its folder), but its name says " NWHO[i]
            file_note(f, "WARNING: credited to " WHO[i] " (its folder), but its name says " NWHO[i])
        }
    }
    for (i = 1; i <= nres; i++) {
        if (!(i in ASIDE)) continue
        j = ASIDE[i]
        NASIDE++
        if (!plain(j) && plain(i)) {
            ASIDETXT[NASIDE] = WHO[i] " " RKEY[i] ": " REL[j] " (--exercises) counts; set aside " REL[i] " (a plain run)"
            file_note(REL[i], "set aside: a plain run never replaces " WHO[i] "'s --exercises run of " RKEY[i] ", " REL[j])
        } else {
            ASIDETXT[NASIDE] = WHO[i] " " RKEY[i] ": " REL[j] " (run " RRUN[j] ") counts; set aside " REL[i] " (run " RRUN[i] ")"
            file_note(REL[i], "set aside: " WHO[i] " handed in a later run of " RKEY[i] ", " REL[j] \
                              " (run " RRUN[j] " against " RRUN[i] "); only the latest run counts")
        }
    }

    # identical files from different owners
    for (f = 1; f <= nfiles; f++) {
        if (FSTATE[FILES[f]] == "failed") continue
        s = FSUM[FILES[f]]
        if (!(s in GROUPN)) GROUPS[++ngroups] = s
        GROUP[s, ++GROUPN[s]] = FILES[f]
    }
    for (g = 1; g <= ngroups; g++) {
        s = GROUPS[g]
        if (GROUPN[s] < 2) continue
        split("", owners); nown = 0; list = ""
        for (j = 1; j <= GROUPN[s]; j++) {
            f = GROUP[s, j]
            if (!(FWHO[f] in owners)) { owners[FWHO[f]] = 1; OWN[++nown] = FWHO[f] }
            list = list (list == "" ? "" : ", ") f " (" (FWHO[f] ~ /^\(no one/ ? "no one" : FWHO[f]) ")"
        }
        if (nown < 2) continue
        NCOPY++
        COPYTXT[NCOPY] = list
        for (j = 1; j <= GROUPN[s]; j++) {
            f = GROUP[s, j]
            file_note(f, "COPY: the same bytes as another student's file: " list)
            add_flag(FWHO[f], "copy " FKEY[f] " with " others(nown, FWHO[f]))
        }
    }

    # identical fingerprints of a lab from different owners, one of them with a PASS exercise
    ngroups = 0
    for (i = 1; i <= nres; i++) {
        if (RFP[i] == "-" || RFP[i] == "" || RKEY[i] == "?") continue
        s = RLAB[i] SUBSEP RFP[i]
        if ((s SUBSEP REL[i]) in FPFILE) continue
        FPFILE[s, REL[i]] = 1
        if (!(s in FPN)) FPG[++ngroups] = s
        FPM[s, ++FPN[s]] = i
        if (RNPASS[i] > 0) FPPASS[s] = 1
    }
    for (g = 1; g <= ngroups; g++) {
        s = FPG[g]
        if (FPN[s] < 2 || !(s in FPPASS)) continue
        split("", owners); nown = 0; list = ""
        for (j = 1; j <= FPN[s]; j++) {
            i = FPM[s, j]
            if (!(owner(i) in owners)) { owners[owner(i)] = 1; OWN[++nown] = owner(i) }
            list = list (list == "" ? "" : ", ") REL[i] " (" owner_short(i) ", " RNPASS[i] " PASS)"
        }
        if (nown < 2) continue
        split(s, parts, SUBSEP)
        NFPC++
        FPTXT[NFPC] = parts[1] " fingerprint " parts[2] ": " list
        for (j = 1; j <= FPN[s]; j++) {
            i = FPM[s, j]
            file_note(REL[i], "SAME FINGERPRINT: built from the same exercise file as another student's: " list)
            add_flag(owner(i), "fingerprint " parts[1] " with " others(nown, owner(i)))
        }
    }

    # solutions builds, physics verdicts, rejected files, labs that did not build or run, plain runs
    for (i = 1; i <= nres; i++) {
        if (RSOL[i] && !((REL[i] SUBSEP "sol") in DONE)) {
            DONE[REL[i], "sol"] = 1
            NSOL++; SOLTXT[NSOL] = REL[i] " (" owner_short(i) "): " RKEY[i] " built with the instructor's solutions"
            add_flag(owner(i), "solutions " RKEY[i])
        }
        if (RSTATE[i] == "physics") { NPHY++; PHYTXT[NPHY] = REL[i] " (" owner_short(i) "): " RNOTE[i] }
        if (RSTATE[i] == "rejected") { NREJ++; REJTXT[NREJ] = REL[i] " (" owner_short(i) "): " RNOTE[i] }
        if (RSTATE[i] == "failed") {
            NFAILED++; FAILTXT[NFAILED] = owner(i) " " RKEY[i] ": " RNOTE[i]
            add_flag(owner(i), "failed " (RKEY[i] == "?" ? "(no lab)" : RKEY[i]))
        }
        if (KEEP[i] && WHO[i] != "" && RSTATE[i] == "ok" && plain(i)) {
            NPLAIN++; PLAINTXT[NPLAIN] = REL[i] " (" WHO[i] "): " RKEY[i]
            add_flag(WHO[i], "plain " RKEY[i])
        }
        if (WHO[i] == "") lost_any = 1       # credited to no one: someone must rename it
    }

    # the students' scores and flags
    for (s = 1; s <= nst; s++) {
        who = STU[s]
        total = 0; max = 0; m = ""; rej = ""; phy = ""
        for (c = 1; c <= ncol; c++) {
            key = COL[c]
            k = who SUBSEP key
            if (k in BEST) {
                i = BEST[k]
                CELL[s, c] = RGOT[i]
                total += RGOT[i]; max += RMAX[i]
                if (RSTATE[i] == "rejected") rej = rej " " key
                if (RSTATE[i] == "physics") phy = phy " " key
            } else if (LISTED[key] == "required") {
                CELL[s, c] = "missing"
                max += max_of(key)
                m = m " " key
                MISSING[who] = MISSING[who] (MISSING[who] == "" ? "" : ", ") key " missing"
            } else CELL[s, c] = "-"
        }
        for (i = 1; i <= nres; i++)
            if (KEEP[i] && (WHO[i] "") == (who "") && RKEY[i] == "?" && RSTATE[i] != "failed") rej = rej " " REL[i]
        flags = ""
        if (m != "") flags = flags "; missing" m
        if (rej != "") flags = flags "; rejected" rej
        if (phy != "") flags = flags "; physics" phy
        if (who in FLAGOF) flags = flags FLAGOF[who]
        sub(/^; /, "", flags)
        TOTAL[s] = total; MAX[s] = max; FLAGS[s] = flags
        if (total < max || flags != "") NBAD++
    }

    # the reports, each with its notes
    if (format == "text") {
        for (f = 1; f <= nfiles; f++) {
            rep = FREP[f]
            if (f > 1) print ""
            while ((getline line < rep) > 0) print line
            close(rep)
            if (FILES[f] in FNOTE) printf "%s", FNOTE[FILES[f]]
        }
        print ""
        print "==== the class ===="
    }
    class_list(NUNPLACED, UNPLACED, "files whose student the grader cannot tell (credit them, then grade again):")
    class_list(NMISMATCH, MISMATCH, "files whose folder and name disagree (the folder wins):")
    class_list(NASIDE, ASIDETXT, "one result per student and lab: an --exercises run before a plain one, then the latest:")
    class_list(NCOPY, COPYTXT, "identical files handed in by different students:")
    class_list(NFPC, FPTXT, "identical exercise fingerprints from different students (the same exercise file, " \
                            "at least one with a PASS exercise):")
    class_list(NSOL, SOLTXT, "solutions builds handed in as student work (their exercise points are 0):")
    class_list(NPHY, PHYTXT, "speeds no real run reaches (the lab scores 0):")
    class_list(NREJ, REJTXT, "rejected files (not a lab's output as written; score 0):")
    class_list(NFAILED, FAILTXT, "labs that did not build or run (score 0):")
    class_list(NPLAIN, PLAINTXT, "plain runs, without exercise rows (ask for ./labNN --exercises --csv: make handin):")
    class_list(NXRUN, XRUNTXT, "extra runs (other modes; not counted: list a mode in grade.conf's optional line):")
    n = 0
    for (s = 1; s <= nst; s++) if (MISSING[STU[s]] != "") { n++; MISSTXT[n] = STU[s] ": " MISSING[STU[s]] }
    class_list(n, MISSTXT, "required labs not handed in (score 0):")

    if (format == "csv") {
        hdr = "student"
        for (c = 1; c <= ncol; c++) hdr = hdr "," COL[c]
        print hdr ",total,max,flags"
        for (s = 1; s <= nst; s++) {
            line = csv_field(STU[s])
            for (c = 1; c <= ncol; c++) line = line "," (CELL[s, c] == "missing" ? 0 : (CELL[s, c] == "-" ? "" : CELL[s, c]))
            print line "," TOTAL[s] "," MAX[s] "," csv_field(FLAGS[s])
        }
    } else if (nst > 0) {
        w = 7
        for (s = 1; s <= nst; s++) if (length(STU[s]) > w) w = length(STU[s])
        print ""
        line = sprintf("%-" w "s", "student")
        for (c = 1; c <= ncol; c++) { width[c] = length(COL[c]) < 7 ? 7 : length(COL[c]); line = line sprintf(" %" width[c] "s", COL[c]) }
        print line sprintf(" %9s", "total")
        line = sprintf("%-" w "s", "(max)")
        for (c = 1; c <= ncol; c++) line = line sprintf(" %" width[c] "s", max_of(COL[c]))
        print line
        for (s = 1; s <= nst; s++) {
            line = sprintf("%-" w "s", STU[s])
            for (c = 1; c <= ncol; c++) line = line sprintf(" %" width[c] "s", CELL[s, c])
            print line sprintf(" %9s", TOTAL[s] "/" MAX[s])
        }
        n = 0
        for (s = 1; s <= nst; s++) if (FLAGS[s] != "") n++
        if (n) {
            print ""
            print "flags (read them before you publish the grades):"
            for (s = 1; s <= nst; s++) if (FLAGS[s] != "") print "  " STU[s] ": " FLAGS[s]
        }
        print ""
        printf "class: %d student%s; %d earned every point with nothing flagged, %d did not%s\n", nst, (nst == 1 ? "" : "s"),
               nst - NBAD, NBAD, (nreq ? " (required: " req_text() ")" : " (grade.conf names no required labs)")
    } else {
        n = 0; total = 0; max = 0
        for (i = 1; i <= nres; i++) { n++; total += RGOT[i]; max += RMAX[i] }
        printf "no file could be credited to a student; total %d/%d over %d lab result%s\n", total, max, n, (n == 1 ? "" : "s")
    }
    CLASS_STATUS = (NBAD || lost_any) ? 1 : 0
}

# result i is a plain run: no exercise rows, for a key whose grade.conf lines check exercises
function plain(i,    k, r) {
    if (RNEX[i] > 0 || RKEY[i] == "?") return 0
    k = rules_key(RKEY[i])
    if (!(k in HASEX)) {
        HASEX[k] = 0
        for (r = 1; r <= nrules; r++) if (R_LAB[r] == k && (R_KIND[r] == "done" || R_KIND[r] == "keeps_up")) HASEX[k] = 1
    }
    return HASEX[k]
}

# a class list: its title and one indented line per entry (none when empty)
function class_list(n, A, title,    i) {
    if (!n) return
    say(title)
    for (i = 1; i <= n; i++) say("  " A[i])
}

# result i before result j for one student and key: an --exercises run
# (exercise rows) before a plain run, then the later run_at
function preferred(i, j,    ei, ej) {
    ei = plain(i) ? 0 : 1; ej = plain(j) ? 0 : 1
    if (ei != ej) return ei > ej
    return (RRUN[i] "") >= (RRUN[j] "")
}

function req_text(    i, s) {
    s = ""
    for (i = 1; i <= nreq; i++) s = s (i > 1 ? " " : "") REQ[i]
    return s
}

# ---------------------------------------------------------------------------
# mode=fail: a lab that did not build or run; mode=wrap: lines of at most 100
# ---------------------------------------------------------------------------
mode == "fail" {
    sub(/\r$/, "")
    if (FNR == 1) {
        FKEY0 = $0; sub(/:.*/, "", FKEY0)
        FWHY = $0; sub(/^[^:]*: */, "", FWHY)
        if ((FKEY0 != "?" && !is_key(FKEY0)) || index($0, ":") == 0) { FKEY0 = "?"; FWHY = "not a .fail record (line 1: KEY: what happened)" }
        next
    }
    if (++nfl <= MAXERR) FLINE[nfl] = $0
}

mode == "wrap" { wrap_line($0) }

function wrap_line(s,    ind, pre, cut, i) {
    if (length(s) <= WIDTH) { print s; return }
    match(s, /^ */); ind = RLENGTH + 4
    pre = sprintf("%" (ind > 40 ? 40 : ind) "s", "")
    while (length(s) > WIDTH) {
        cut = 0
        for (i = WIDTH + 1; i > length(pre) + 20; i--) if (substr(s, i, 1) == " ") { cut = i; break }
        if (!cut) { print substr(s, 1, WIDTH); s = pre substr(s, WIDTH + 1); continue }
        print substr(s, 1, cut - 1)
        s = substr(s, cut + 1); sub(/^ +/, "", s); s = pre s
    }
    print s
}

function fail_main(    i, lab) {
    if (FKEY0 == "") { FKEY0 = "?"; FWHY = "the file is empty" }
    gsub(/[^ -~]/, "?", FWHY)
    printf "%s: %s did not build or run: %s\n", label, FKEY0, FWHY
    for (i = 1; i <= nfl && i <= MAXERR; i++) { gsub(/[^ -~]/, "?", FLINE[i]); print "  | " FLINE[i] }
    if (nfl > MAXERR) print "  | ... (" (nfl - MAXERR) " more lines)"
    printf "  score %s 0/%d  (failed)\n", FKEY0, (FKEY0 == "?" ? 0 : max_of(FKEY0))
    lab = FKEY0; sub(/\+.*/, "", lab)
    emit_score("@@ " FKEY0 " 0 " (FKEY0 == "?" ? 0 : max_of(FKEY0)) " 1 failed - - 0 0 0 " lab " " FWHY)
}

END {
    if (CONF_ERR) exit 2
    if (mode == "conf" || mode == "wrap") exit 0
    if (mode == "fail") { fail_main(); exit 0 }
    if (mode == "class") { class_main(); exit CLASS_STATUS }
    if (lastline == 0) problem(1, "the file is empty: it should hold the output of ./labNN --exercises --csv")
    else if (!seen_header) problem(lastline, "only blank lines: it should hold the output of ./labNN --exercises --csv")
    else if (!header_bad && nrows == 0 && nerr == 0) problem(lastline, "the header and no data rows")
    if (nerr == 0) cross_checks()
    if (nerr > 0) {
        # the lab(s) this file was meant to hold: from its rows, else from its name
        if (nany == 0 && match(label, /lab[0-9][0-9](-finish)?/)) note_key(substr(label, RSTART, RLENGTH), "", "", "")
        printf "%s: REJECTED (%d problem%s): not a lab's --csv output as written: 0\n", label, nerr, (nerr > 1 ? "s" : "")
        for (li = 1; li <= nerr && li <= MAXERR; li++) print "  " PROB[li]
        if (nerr > MAXERR) print "  ... and " (nerr - MAXERR) " more"
        if (nany == 0) { print "  score ? 0/?"; emit_score("@@ ? 0 0 1 rejected - - 0 0 0 ? " FIRSTPROB) }
        for (li = 1; li <= nany; li++) {
            printf "  score %s 0/%d  (rejected)\n", ANY[li], max_of(ANY[li])
            lab = ANY[li]; sub(/\+.*/, "", lab)
            emit_score("@@ " ANY[li] " 0 " max_of(ANY[li]) " 1 rejected " ANYRUN[ANY[li]] " " ANYFP[ANY[li]] " 0 0 " ANYSOL[ANY[li]] " " lab " " FIRSTPROB)
        }
        exit 0
    }
    for (li = 1; li <= nkeys; li++) grade_key(KEYS[li])
}
