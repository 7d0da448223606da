# tools/grade.awk - grade one CSV file written by ./labNN --csv (POSIX awk).
#
#   awk -v conf=tools/grade.conf -v label=NAME -v scores=SCOREFILE -f tools/grade.awk FILE
#
# tools/grade calls it once per file. It checks the file first (the documented
# header, every field well formed, the numbers adding up: gbps against bytes and
# time, pct_of_copy against gbps and the ceiling, and so on); a file that fails
# that is rejected and scores 0. Then it applies the checks of grade.conf to
# each lab found in the file. It prints a report for people, then one line per
# lab, written to SCOREFILE (stdout if not given), for tools/grade to add up:
#
#   @@ LAB GOT MAX FAILED        (FAILED is 1 when a point was lost or the file rejected)
#
# A problem in grade.conf: one line on stderr, exit 2. The file under grading
# never makes it exit non-zero: what is wrong with it is reported, not crashed on.

BEGIN {
    HEADER = "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,status"
    NCOL = split(HEADER, COLS, ",")
    INF = 1e300
    MAXERR = 12          # problems printed per file
    SLACK = 0.001        # relative slack on top of the printed rounding
    T_HALF = 0.0000005   # half a unit of the last printed digit of a time (%.6f)
    G_HALF = 0.005       # the same for values printed with %.2f
    S_HALF = 0.0005      # and with %.3f (speedup)
    STDERR = "cat 1>&2"
    if (label == "") label = "(file)"
    read_conf(conf)
    nerr = 0; nrows = 0; nlabs = 0; seen_header = 0; header_bad = 0; lastline = 0
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

function read_conf(path,    line, ln, t, nt, rc, k, need, where) {
    nrules = 0
    ln = 0
    if (path == "") conf_fail("no rules file given (conf=)")
    while ((rc = (getline line < path)) > 0) {
        ln++
        sub(/\r$/, "", line)
        sub(/#.*/, "", line)
        nt = split(line, t, " ")
        if (nt == 0) continue
        where = path ":" ln ": "
        if (t[1] !~ /^lab[0-9][0-9]$/)
            conf_fail(where "'" t[1] "' is not a lab; each line starts with labNN, then the points, the check and its arguments")
        if (nt < 3)
            conf_fail(where "a line needs LAB POINTS CHECK ARGUMENTS...")
        if (t[2] !~ /^[0-9]+$/)
            conf_fail(where "'" t[2] "' is not a number of points; give a whole number (0 keeps the check as information)")
        k = t[3]
        need = -1
        if (k == "verified") need = 1
        else if (k == "near_copy") need = 2
        else if (k == "faster" || k == "no_slower" || k == "versus") need = 3
        if (need < 0)
            conf_fail(where "'" k "' is not a check; the checks are verified, faster, no_slower, near_copy, versus")
        if (nt - 3 != need)
            conf_fail(where k " takes " need " argument(s) after the check's name, found " (nt - 3))
        if (!is_number(t[nt]))
            conf_fail(where "'" t[nt] "' is not a number; the last argument of " k " is a threshold")
        nrules++
        R_LAB[nrules] = t[1]
        R_PTS[nrules] = t[2] + 0
        R_KIND[nrules] = k
        R_A1[nrules] = t[4]
        R_A2[nrules] = (nt >= 5) ? t[5] : ""
        R_A3[nrules] = (nt >= 6) ? t[6] : ""
        MAXPTS[t[1]] += t[2]
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
}

function header_problem(got,    g, ng, i, want, have, miss, extra, nhave) {
    ng = split(got, g, ",")
    for (i = 1; i <= ng; i++) have[g[i]] = 1
    for (i = 1; i <= NCOL; i++) want[COLS[i]] = 1
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

function row(line,    f, nf, i, bad, lab, kern, n, nx, ny, bytes, t, q1, q3, spr, g, pct, sp, tt, tg, c, pk, lo, hi, d, key, sz) {
    nf = split(line, f, ",")
    if (nf != NCOL) {
        problem(FNR, nf " fields, the header has " NCOL " (a comma too many or too few?)")
        return
    }
    bad = 0
    if (f[1] !~ /^lab[0-9][0-9]$/) { problem(FNR, "lab is '" f[1] "', not labNN"); bad = 1 }
    if (f[2] == "") { problem(FNR, "device is empty"); bad = 1 }
    if (f[3] == "") { problem(FNR, "kernel is empty"); bad = 1 }
    for (i = 4; i <= 6; i++) if (f[i] !~ /^[0-9]+$/) { problem(FNR, COLS[i] " is '" f[i] "', not a whole number"); bad = 1 }
    for (i = 7; i <= 8; i++) if (f[i] !~ /^[0-9]+(x[0-9]+)?$/) { problem(FNR, COLS[i] " is '" f[i] "', not N or NxM"); bad = 1 }
    for (i = 9; i <= 10; i++) if (f[i] !~ /^[0-9]+$/) { problem(FNR, COLS[i] " is '" f[i] "', not a whole number"); bad = 1 }
    for (i = 11; i <= 17; i++) if (!is_number(f[i])) { problem(FNR, COLS[i] " is '" f[i] "', not a number"); bad = 1 }
    for (i = 18; i <= 19; i++) if (f[i] != "" && !is_number(f[i])) { problem(FNR, COLS[i] " is '" f[i] "', not a number (or empty)"); bad = 1 }
    if ((f[18] == "") != (f[19] == "")) { problem(FNR, "total_ms and total_gbps must be both empty or both given"); bad = 1 }
    for (i = 20; i <= 21; i++) if (!is_number(f[i])) { problem(FNR, COLS[i] " is '" f[i] "', not a number"); bad = 1 }
    if (f[22] != "PASS" && f[22] != "FAIL") { problem(FNR, "status is '" f[22] "', not PASS or FAIL"); bad = 1 }
    if (bad) return

    lab = f[1]; kern = f[3]
    n = f[4] + 0; nx = f[5] + 0; ny = f[6] + 0; bytes = f[9] + 0
    t = f[11] + 0; q1 = f[12] + 0; q3 = f[13] + 0; spr = f[14] + 0
    g = f[15] + 0; pct = f[16] + 0; sp = f[17] + 0
    c = f[20] + 0; pk = f[21] + 0

    if (f[10] + 0 < 1) problem(FNR, "reps is 0")
    if (t <= 0) { problem(FNR, "time_ms is 0: no time was measured"); return }
    # the size and the bytes the algorithm must move (docs/output.md)
    if (lab == "lab06") {
        if (nx < 1 || ny < 1) problem(FNR, "nx and ny must be at least 1 for the transpose lab")
        if (n != nx * ny) problem(FNR, "n is " f[4] " but nx*ny = " sprintf("%.0f", nx * ny))
        if (bytes != 8 * nx * ny) problem(FNR, "bytes is " f[9] " but a transpose moves 2*4*nx*ny = " sprintf("%.0f", 8 * nx * ny))
    } else if (lab ~ /^lab0[1-5]$/) {
        if (n < 1) problem(FNR, "n is 0")
        if (nx != 0 || ny != 0) problem(FNR, "nx and ny must be 0 for a reduction")
        if (bytes != 4 * n) problem(FNR, "bytes is " f[9] " but a reduction of n ints reads 4*n = " sprintf("%.0f", 4 * n))
    }
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

    sz = n "/" nx "/" ny
    key = lab SUBSEP kern SUBSEP sz
    if (key in RI) {
        problem(FNR, kern " at n = " size_text(nx, ny, n) " appears again (first on line " LINE[RI[key]] "); keep one run per file")
        return
    }
    nrows++
    RI[key] = nrows
    LINE[nrows] = FNR; LAB[nrows] = lab; KERN[nrows] = kern; SZ[nrows] = sz; N[nrows] = n
    SZTXT[nrows] = size_text(nx, ny, n)
    TIME[nrows] = t; SPREAD[nrows] = spr; GBPS[nrows] = g; PCT[nrows] = pct; SPEEDUP[nrows] = sp
    CEIL[nrows] = c; CEILTXT[nrows] = f[20]; PEAK[nrows] = f[21]; DEV[nrows] = f[2]; STATUS[nrows] = f[22]
    if (!(lab in LABSEEN)) { LABSEEN[lab] = 1; LABS[++nlabs] = lab }
    if (!((lab SUBSEP sz) in SIZESEEN)) {
        SIZESEEN[lab, sz] = 1
        NSIZES[lab]++
        SIZES[lab, NSIZES[lab]] = sz
        SIZEN[lab, sz] = n
        SIZETXT[lab, sz] = SZTXT[nrows]
    }
}

# ---------------------------------------------------------------------------
# Checks across rows: speedups, one ceiling per size, one device per lab
# ---------------------------------------------------------------------------
function cross_checks(    r, b, lo, hi, ok, key) {
    for (r = 1; r <= nrows; r++) {
        ok = 0
        for (b = 1; b <= nrows && !ok; b++) {
            if (LAB[b] != LAB[r] || SZ[b] != SZ[r]) continue
            lo = (TIME[b] - T_HALF) / (TIME[r] + T_HALF) - S_HALF
            hi = (TIME[r] - T_HALF > 0) ? (TIME[b] + T_HALF) / (TIME[r] - T_HALF) + S_HALF : INF
            if (within(SPEEDUP[r], lo, hi)) ok = 1
        }
        if (!ok) problem(LINE[r], "speedup " SPEEDUP[r] " matches no row of the same size (speedup = the baseline's time_ms / this time_ms)")
        key = LAB[r] SUBSEP SZ[r]
        if (!(key in CEILOF)) { CEILOF[key] = CEIL[r]; CEILLINE[key] = LINE[r] }
        else if (CEIL[r] - CEILOF[key] > G_HALF * 2 || CEILOF[key] - CEIL[r] > G_HALF * 2)
            problem(LINE[r], "ceiling_gbps " CEILTXT[r] " differs from " fmt(CEILOF[key]) " on line " CEILLINE[key] " at the same size (one run measures one ceiling per size)")
        if (!(LAB[r] in DEVOF)) { DEVOF[LAB[r]] = DEV[r]; PEAKOF[LAB[r]] = PEAK[r]; DEVLINE[LAB[r]] = LINE[r] }
        else if (DEV[r] != DEVOF[LAB[r]] || PEAK[r] != PEAKOF[LAB[r]])
            problem(LINE[r], "device '" DEV[r] "' (peak " PEAK[r] ") differs from line " DEVLINE[LAB[r]] " ('" DEVOF[LAB[r]] "', peak " PEAKOF[LAB[r]] "): one file, one run on one device")
    }
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
# Grading one lab of the file
# ---------------------------------------------------------------------------
function at_text(lab, sz) { return (NSIZES[lab] > 1) ? " at n = " SIZETXT[lab, sz] : "" }

# the largest size at which both kernels ran ("" if none)
function size_with(lab, a, b,    i, sz, best) {
    best = ""
    for (i = 1; i <= NSIZES[lab]; i++) {
        sz = SIZES[lab, i]
        if (((lab SUBSEP a SUBSEP sz) in RI) && (b == "" || ((lab SUBSEP b SUBSEP sz) in RI)))
            if (best == "" || SIZEN[lab, sz] > SIZEN[lab, best]) best = sz
    }
    return best
}

# the largest size at which some kernel of the set ran, leaving out `except`
function size_with_set(lab, set, except, need,    r, best) {
    best = ""
    for (r = 1; r <= nrows; r++) {
        if (LAB[r] != lab || KERN[r] == except || !in_set(KERN[r], set)) continue
        if (need != "" && !((lab SUBSEP need SUBSEP SZ[r]) in RI)) continue
        if (best == "" || N[r] > SIZEN[lab, best]) best = SZ[r]
    }
    return best
}

# the fastest verified row of the set at size sz, leaving out `except` (0 if none)
function best_of(lab, set, sz, except,    r, best) {
    best = 0
    for (r = 1; r <= nrows; r++)
        if (LAB[r] == lab && SZ[r] == sz && KERN[r] != except && STATUS[r] == "PASS" && in_set(KERN[r], set))
            if (!best || GBPS[r] > GBPS[best]) best = r
    return best
}

function missing_text(lab, a, b) {
    if (size_with(lab, a, "") == "") return a " is not in the file (was the lab run with -k?)"
    if (b != "" && size_with(lab, b, "") == "") return b " is not in the file (was the lab run with -k?)"
    return a " and " b " never ran at the same size"
}

function result(pts, got, text) {
    if (pts == 0) printf "  info   -     %s\n", text
    else printf "  %-5s %2d/%-2d  %s\n", (got == pts ? "ok" : "LOST"), got, pts, text
    GOT += got
    if (got < pts) LOST = 1
}

function check_verified(i, lab,    r, nfail, npass, list, lost) {
    nfail = 0; npass = 0; list = ""
    for (r = 1; r <= nrows; r++) {
        if (LAB[r] != lab) continue
        if (STATUS[r] == "PASS") npass++
        else {
            nfail++
            if (nfail <= 6) list = list (list == "" ? "" : ", ") KERN[r] at_text(lab, SZ[r]) " (line " LINE[r] ")"
        }
    }
    if (nfail > 6) list = list ", ..."
    lost = nfail * R_A1[i]
    if (lost > R_PTS[i]) lost = R_PTS[i]
    if (nfail == 0) result(R_PTS[i], R_PTS[i], "verified: all " npass " rows PASS")
    else result(R_PTS[i], R_PTS[i] - lost, "verified: " nfail " of " (npass + nfail) " rows say FAIL: " list)
}

function check_faster(i, lab,    fast, slow, want, sz, rf, rs, ratio) {
    fast = R_A1[i]; slow = R_A2[i]; want = R_A3[i] + 0
    sz = size_with(lab, fast, slow)
    if (sz == "") { result(R_PTS[i], 0, "faster: " missing_text(lab, fast, slow)); return }
    rf = RI[lab, fast, sz]; rs = RI[lab, slow, sz]
    if (STATUS[rf] != "PASS" || STATUS[rs] != "PASS") {
        result(R_PTS[i], 0, "faster: " (STATUS[rf] != "PASS" ? fast : slow) " failed verification, so its time does not count")
        return
    }
    ratio = TIME[rs] / TIME[rf]
    result(R_PTS[i], (ratio >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("faster: %s %s %s: time ratio %.2fx, needs at least %.2fx%s", fast, (ratio >= 1 ? "beats" : "is slower than"),
                   slow, ratio, want, at_text(lab, sz)))
}

function check_no_slower(i, lab,    a, b, tol, sz, ra, rb, allow, diff, text) {
    a = R_A1[i]; b = R_A2[i]; tol = R_A3[i] + 0
    sz = size_with(lab, a, b)
    if (sz == "") { result(R_PTS[i], 0, "no_slower: " missing_text(lab, a, b)); return }
    ra = RI[lab, a, sz]; rb = RI[lab, b, sz]
    if (STATUS[ra] != "PASS" || STATUS[rb] != "PASS") {
        result(R_PTS[i], 0, "no_slower: " (STATUS[ra] != "PASS" ? a : b) " failed verification, so its time does not count")
        return
    }
    allow = (SPREAD[ra] + SPREAD[rb]) / 2 + tol
    diff = 100 * (TIME[ra] / TIME[rb] - 1)
    if (diff <= 0) text = sprintf("%s is %.2fx as fast as %s", a, TIME[rb] / TIME[ra], b)
    else text = sprintf("%s is %.1f%% slower than %s, allowance %.1f%%", a, diff, b, allow)
    result(R_PTS[i], (diff <= allow + 1e-9) ? R_PTS[i] : 0, "no_slower: " text at_text(lab, sz))
}

function check_near_copy(i, lab,    set, want, sz, r) {
    set = R_A1[i]; want = R_A2[i] + 0
    sz = size_with_set(lab, set, "", "")
    if (sz == "") { result(R_PTS[i], 0, "near_copy: no kernel matching " set " in the file"); return }
    r = best_of(lab, set, sz, "")
    if (!r) { result(R_PTS[i], 0, "near_copy: no kernel matching " set " passed verification" at_text(lab, sz)); return }
    result(R_PTS[i], (PCT[r] >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("near_copy: fastest of %s is %s at %.1f%% of the copy ceiling (%.0f of %.0f GB/s), needs %s%%%s",
                   set, KERN[r], PCT[r], GBPS[r], CEIL[r], R_A2[i], at_text(lab, sz)))
}

function check_versus(i, lab,    set, ref, want, sz, r, rr, ratio) {
    set = R_A1[i]; ref = R_A2[i]; want = R_A3[i] + 0
    if (size_with(lab, ref, "") == "") { result(R_PTS[i], 0, "versus: " ref " is not in the file (was the lab run with -k?)"); return }
    sz = size_with_set(lab, set, ref, ref)
    if (sz == "") { result(R_PTS[i], 0, "versus: no kernel matching " set " ran at a size where " ref " ran"); return }
    rr = RI[lab, ref, sz]
    if (STATUS[rr] != "PASS") { result(R_PTS[i], 0, "versus: " ref " failed verification" at_text(lab, sz)); return }
    r = best_of(lab, set, sz, ref)
    if (!r) { result(R_PTS[i], 0, "versus: no kernel matching " set " passed verification" at_text(lab, sz)); return }
    if (GBPS[rr] <= 0) { result(R_PTS[i], 0, "versus: " ref " shows 0 GB/s"); return }
    ratio = GBPS[r] / GBPS[rr]
    result(R_PTS[i], (ratio >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("versus: fastest of %s is %s at %.2fx %s (%.0f vs %.0f GB/s), needs %.2fx%s",
                   set, KERN[r], ratio, ref, GBPS[r], GBPS[rr], want, at_text(lab, sz)))
}

function grade_lab(lab,    i, r, nk, rules, lo, hi, s, dev, sizes) {
    GOT = 0; LOST = 0
    # a line that says what this is: device and size(s)
    nk = 0
    for (r = 1; r <= nrows; r++) if (LAB[r] == lab) { nk++; if (dev == "") dev = DEV[r] }
    lo = ""; hi = ""
    for (i = 1; i <= NSIZES[lab]; i++) {
        s = SIZES[lab, i]
        if (lo == "" || SIZEN[lab, s] < SIZEN[lab, lo]) lo = s
        if (hi == "" || SIZEN[lab, s] > SIZEN[lab, hi]) hi = s
    }
    sizes = (NSIZES[lab] > 1) ? "n = " SIZETXT[lab, lo] " .. " SIZETXT[lab, hi] " (" NSIZES[lab] " sizes)" : "n = " SIZETXT[lab, lo]
    printf "%s: %s on %s, %s, %d rows\n", label, lab, dev, sizes, nk
    rules = 0
    for (i = 1; i <= nrules; i++) {
        if (R_LAB[i] != lab) continue
        rules++
        if (R_KIND[i] == "verified") check_verified(i, lab)
        else if (R_KIND[i] == "faster") check_faster(i, lab)
        else if (R_KIND[i] == "no_slower") check_no_slower(i, lab)
        else if (R_KIND[i] == "near_copy") check_near_copy(i, lab)
        else if (R_KIND[i] == "versus") check_versus(i, lab)
    }
    if (!rules) printf "  (grade.conf has no checks for %s: the file was only checked for consistency)\n", lab
    printf "  score %s %d/%d%s\n", lab, GOT, MAXPTS[lab] + 0, LOST ? "  (lost points)" : ""
    emit_score("@@ " lab " " GOT " " (MAXPTS[lab] + 0) " " LOST)
}

# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------
{
    sub(/\r$/, "")
    lastline = FNR
    if (header_bad) next
    if ($0 ~ /^[ \t]*$/) next
    if (!seen_header) {
        seen_header = 1
        if ($0 != HEADER) { header_problem($0); header_bad = 1 }
        next
    }
    if ($0 == HEADER) next      # outputs of several runs, concatenated
    row($0)
}

END {
    if (CONF_ERR) exit 2
    if (lastline == 0) problem(1, "the file is empty: it should hold the output of ./labNN --csv")
    else if (!seen_header) problem(lastline, "only blank lines: it should hold the output of ./labNN --csv")
    else if (!header_bad && nrows == 0 && nerr == 0) problem(lastline, "the header and no data rows")
    if (nerr == 0) cross_checks()
    if (nerr > 0) {
        # the lab(s) this file was meant to hold: from its rows, else from its name
        if (nlabs == 0 && match(label, /lab[0-9][0-9]/)) { nlabs = 1; LABS[1] = substr(label, RSTART, RLENGTH) }
        printf "%s: REJECTED (%d problem%s): %s\n", label, nerr, (nerr > 1 ? "s" : ""),
               "the file is not a lab's --csv output as written, so it scores 0"
        for (li = 1; li <= nerr && li <= MAXERR; li++) print "  " PROB[li]
        if (nerr > MAXERR) print "  ... and " (nerr - MAXERR) " more"
        if (nlabs == 0) { print "  score ? 0/?"; emit_score("@@ ? 0 0 1") }
        for (li = 1; li <= nlabs; li++) {
            printf "  score %s 0/%d  (rejected)\n", LABS[li], MAXPTS[LABS[li]] + 0
            emit_score("@@ " LABS[li] " 0 " (MAXPTS[LABS[li]] + 0) " 1")
        }
        exit 0
    }
    for (li = 1; li <= nlabs; li++) grade_lab(LABS[li])
}
