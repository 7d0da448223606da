# tools/grader/grade.d/file.awk - the grader (POSIX awk), part 2 of 4: one CSV file: its
# header and rows, the cross checks, physics, kernel name patterns.
# Run after the parts before it (tools/grader/grade.d/conf.awk says how).

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
# Grading from sources: the grader's record of the run (runinfo=, its
# OUT/labNN.run: seed, size, fingerprint, file, command, tripwire) and the
# checker's verdicts (verdicts=, OUT/labNN.check: LINE VERDICT KERNEL SIZE
# REASON, tab-separated, by the row's line in the file). With them a row's
# status is the checker's verdict (the lab's own word is only advice) and the
# fingerprint is the grader's cksum; verify=1 without them: no row passes.
# ---------------------------------------------------------------------------
function read_run(    line, k, v, t) {
    CHECKED = 0; RUNFP = ""
    if (runinfo != "") {
        while ((getline line < runinfo) > 0) {
            k = line; sub(/ .*/, "", k); v = line; sub(/^[^ ]* ?/, "", v)
            gsub(/[^ -~]/, "?", v)
            RUN[k] = v
        }
        close(runinfo)
        CHECKED = 1
        RUNFP = RUN["fingerprint"]
        if (verdicts != "") {
            while ((getline line < verdicts) > 0) {
                split(line, t, "\t")
                if (t[1] ~ /^[0-9]+$/ && !((t[1] + 0) in VERD)) { VERD[t[1] + 0] = t[2]; VWHY[t[1] + 0] = t[5] }
            }
            close(verdicts)
        }
    } else if (verify == 1) CHECKED = 1
}

BEGIN { if (mode == "file") read_run() }

# ---------------------------------------------------------------------------
# One data row
# ---------------------------------------------------------------------------
# v within [lo, hi], widened by the relative slack
function within(v, lo, hi) {
    return v >= lo - SLACK * (lo < 0 ? -lo : lo) - 1e-9 && (hi >= INF || v <= hi + SLACK * hi + 1e-9)
}

function fmt(v) { return sprintf("%.2f", v) }

function size_text(nx, ny, n) { return (nx > 0) ? nx "x" ny : n }

function is_lab(s) { return s in LABS }

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
    # a type other than the lab's default (tools/labs.conf: int, lab06's
    # float) and int (a lab06 file older than its float type column says int)
    if (ty != "" && ty != "int" && ty != LABTYPE[lab]) k = k "+" ty
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

# the fields of a row as docs/output.md says them: one problem for each that
# is not; returns 1 when one was wrong
function row_fields_bad(f, cells, fin, role, todo,    i, bad) {
    bad = 0
    if (!is_lab(f[1])) { problem(FNR, "lab is '" f[1] "', not one of the labs (tools/labs.conf)"); bad = 1 }
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
    if (!(f[22] in TYPESIZE)) { problem(FNR, "type is '" f[22] "', not " TYPENAMES); bad = 1 }
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
    return bad
}

# the size and the bytes the algorithm must move (docs/output.md)
function row_size(f, lab, ty, n, nx, ny, bytes) {
    if (lab == "lab06") {
        if (nx < 1 || ny < 1) problem(FNR, "nx and ny must be at least 1 for the transpose lab")
        if (n != nx * ny) problem(FNR, "n is " f[4] " but nx*ny = " sprintf("%.0f", nx * ny))
        if (bytes != 8 * nx * ny) problem(FNR, "bytes is " f[9] " but a transpose moves 2*4*nx*ny = " sprintf("%.0f", 8 * nx * ny))
    } else {
        if (n < 1) problem(FNR, "n is 0")
        if (has_mode(lab, "matrix") && (nx != 0 || ny != 0)) { # lab05's matrix mode: nx columns, ny rows
            if (nx < 1 || ny < 1) problem(FNR, "nx and ny must both be at least 1 for a matrix row, or both 0")
            if (n != nx * ny) problem(FNR, "n is " f[4] " but nx*ny = " sprintf("%.0f", nx * ny))
        } else if (nx != 0 || ny != 0)
            problem(FNR, "nx and ny must be 0 for a reduction (lab05's matrix rows excepted)")
        if (bytes != TYPESIZE[ty] * n)
            problem(FNR, "bytes is " f[9] " but a reduction of n " ty "s reads " TYPESIZE[ty] "*n = " sprintf("%.0f", TYPESIZE[ty] * n))
    }
}

# a run row's times and rates agree with each other and with bytes (each
# within the rounding of its printed digits); 0 when no time was measured
function row_times(f, bytes,    t, q1, q3, spr, g, pct, sp, c, tt, tg, d, lo, hi) {
    c = f[20] + 0
    t = f[11] + 0; q1 = f[12] + 0; q3 = f[13] + 0; spr = f[14] + 0
    g = f[15] + 0; pct = f[16] + 0; sp = f[17] + 0
    if (f[10] + 0 < 1) problem(FNR, "reps is 0 on a row that was run (only a todo row has reps 0)")
    if (t <= 0) { problem(FNR, "time_ms is 0: no time was measured"); return 0 }
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
    return 1
}

# one data row of the file: its fields checked (row_fields_bad, row_size,
# row_times), then, if it can be graded, recorded by its key, kernel and size
function row(line,    cells, f, fin, nf, i, lab, kern, n, nx, ny, bytes, t, spr, g, pct, sp, c, pk, key, sz, dkey, todo,
                       role, ty) {
    nf = split(line, cells, ",")
    if (nf != FILENCOL) {
        problem(FNR, nf " fields, the header has " FILENCOL " (a comma too many or too few?)")
        if (is_lab(cells[1])) note_key(cells[1], "", "", "")
        return
    }
    for (i = 1; i <= NCOL; i++) f[i] = cells[POS[i]]   # the base columns by name, in their order
    if (RUNFP != "") {  # from sources: the grader's cksum of the file it built, never the run's word
        if (f[27] != RUNFP && !FPBAD++)
            problem(FNR, "fingerprint '" f[27] "' is not " RUNFP ", the cksum of " RUN["file"] " as the grader built it: the rows were not written by that build")
        f[27] = RUNFP
    }
    fin = OPTPOS["finish"] ? cells[OPTPOS["finish"]] : ""
    if (is_lab(f[1]) && is_build(f[25])) note_key(key_of(f[1], f[25], f[22], fin), f[26], f[27], f[25])
    else if (is_lab(f[1])) note_key(f[1], "", "", "")
    role = f[23]; todo = (f[28] == "todo")
    if (row_fields_bad(f, cells, fin, role, todo)) return

    lab = f[1]; kern = f[3]; ty = f[22]
    key = key_of(lab, f[25], ty, fin)
    n = f[4] + 0; nx = f[5] + 0; ny = f[6] + 0; bytes = f[9] + 0
    c = f[20] + 0; pk = f[21] + 0
    row_size(f, lab, ty, n, nx, ny, bytes)
    if (!todo) {
        if (!row_times(f, bytes)) return
        t = f[11] + 0; spr = f[14] + 0; g = f[15] + 0; pct = f[16] + 0; sp = f[17] + 0
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
    LABWORD[nrows] = f[28]
    if (CHECKED) {      # the checker's verdict, not the lab's word
        STATUS[nrows] = (FNR in VERD) ? VERD[FNR] : "FAIL"
        CHKWHY[nrows] = (FNR in VERD) ? VWHY[FNR] : "the checker gave no verdict on this line"
        if (STATUS[nrows] != "PASS" && !(todo && STATUS[nrows] == "todo")) STATUS[nrows] = "FAIL"
    }
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
# PHYS[] (file order), PHYS[PHYSWORST] the one furthest beyond its limit.
# With a calibration of this GPU (CALC), its figures count too: the peak the
# grader's own run read from the device, and the physics margin over the
# fastest GB/s the solutions reached there (neither is the file's to write).
function physics(key,    r, np, pk, over, worst, fast, lim) {
    np = 0; PHYSWORST = 0; worst = 0
    fast = CALC ? CALFAST[CALC] : 0
    for (r = 1; r <= nrows; r++) {
        # a CPU row (lab01, build cpu) has no theoretical figure, and a
        # read-only pass can beat a copy counted as read plus write: not checked
        if (KEY[r] != key || TODO[r] || BUILD[r] ~ /^cpu/) continue
        pk = PEAK[r] + 0
        if (CALC && CALPEAK[CALC] > 0 && (pk <= 0 || CALPEAK[CALC] < pk)) pk = CALPEAK[CALC]
        if (pk > 0 && GBPS[r] > pk * (1 + SLACK) + G_HALF) {
            PHYS[++np] = sprintf("%s at %.0f GB/s is faster than this GPU's theoretical %.0f GB/s (%s)",
                                 KERN[r], GBPS[r], pk, (pk == PEAK[r] + 0 ? "peak_gbps" : "the calibration's"))
            over = GBPS[r] / pk
            if (over > worst) { worst = over; PHYSWORST = np }
        }
        if (PHYS_MAX > 0 && PCT[r] > PHYS_MAX + G_HALF) {
            PHYS[++np] = sprintf("%s at %.1f%% of the copy ceiling of the same run, above the %s%% no real run reaches",
                                 KERN[r], PCT[r], PHYS_MAX)
            over = PCT[r] / PHYS_MAX
            if (over > worst) { worst = over; PHYSWORST = np }
        }
        lim = fast * PHYS_MAX / 100
        if (lim > 0 && GBPS[r] > lim * (1 + SLACK) + G_HALF) {
            PHYS[++np] = sprintf("%s at %.0f GB/s, above %s%% of %.0f GB/s, the fastest the solutions reached on %s",
                                 KERN[r], GBPS[r], PHYS_MAX, fast, CALGPU[CALC])
            over = GBPS[r] / lim
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

