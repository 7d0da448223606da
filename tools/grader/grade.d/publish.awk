# tools/grader/grade.d/publish.awk - the grades given back (POSIX awk): one feedback
# file per student, and the class on one page (html.awk). tools/grader/grade runs it
# after the class (--feedback=FOLDER, --html=FILE):
#
#   awk -v feedback=FOLDER -v html=FILE -v export=F -v measured=F -v runinfo=F
#       -v intake=F -v private=F -v calib=F -v labs=tools/labs.conf -v day=DATE
#       -f tools/grader/grade.d/publish.awk -f tools/grader/grade.d/html.awk /dev/null
#
# export: the class as data (class.awk's export=); measured: WHO, a tab, each speed
# check of their kept results as mode=measure prints it (M DEVICE KEY CHECK
# VALUE SPREAD PEAK RUN_AT WHAT); runinfo: WHO KEY WORD VALUE (their
# labNN.run lines: seed, size, command, ...); intake: WHO WORD TEXT (their
# intake.txt); private: this machine's folders (one a line) that no
# student's file may show; calib: the calibrations (a path, a tab, a name).
#
# FOLDER/<student>.md (markdown, for the student): each lab's score of its
# maximum; each check, its verdict and why; the compiler's first errors; the
# GPU and the calibration the speed bars came from; the command that repeats
# the run on their own GPU; where each of their kernels' speed stands in the
# class (no one else's name or numbers, only counts and the median); what
# was refused or ignored of their hand-in. Every line goes through
# scrub(): a path of this machine is cut to the workbook's part of it
# (lab02_neighbored/exercises.cuh) or the file's name.

BEGIN {
    FS = "\t"
    load_export(); load_measured(); load_runinfo(); load_intake(); load_private(); load_calib(); load_labs()
    speed_ranks()
    if (feedback != "") for (s = 1; s <= NS; s++) write_feedback(s)
    if (html != "") write_html()
    exit 0
}

# ---- the inputs ---------------------------------------------------------------
function load_export(    line, t) {
    NL = 0; NS = 0; NK = 0
    while ((getline line < export) > 0) {
        split(line, t, "\t")
        if (t[1] == "L") { LCOL[++NL] = t[2]; LMAX[t[2]] = t[3] }
        else if (t[1] == "K") { NK++; KGPU[t[2]] = t[3]; KRUN[t[2]] = t[4]; KRUNS[t[2]] = t[5] }
        else if (t[1] == "S") { SWHO[++NS] = t[2]; STOT[NS] = t[3]; SMAX[NS] = t[4]; SFLAGS[NS] = t[5]; SIDX[t[2]] = NS }
        else if (t[1] == "C") {
            n = ++NC[t[2]]
            CCOL[t[2], n] = t[3]; CCELL[t[2], n] = t[4]; CGOT[t[2], n] = t[5]; CMAX[t[2], n] = t[6]
            CSTATE[t[2], n] = t[7]; CREL[t[2], n] = t[8]; CREP[t[2], n] = t[9]; CDEV[t[2], n] = t[10]
            CCAL[t[2], n] = t[11]; CNOTE[t[2], n] = t[12]
        }
    }
    close(export)
}

# the labs that run on the CPU (tools/labs.conf: LAB device cpu)
function load_labs(    line, t) {
    while ((getline line < labs) > 0) {
        split(line, t, " ")
        if (t[2] == "device" && t[3] == "cpu") CPULAB[t[1]] = 1
    }
    close(labs)
}

function load_measured(    line, t, k) {
    while ((getline line < measured) > 0) {
        split(line, t, "\t")
        if (t[2] != "M" || t[5] != "keeps_up") continue
        # who, key, what: the value and the device
        k = t[1] SUBSEP t[4] SUBSEP t[10]
        MVAL[k] = t[6] + 0; MDEV[k] = t[3]
        if (!((t[4] SUBSEP t[10]) in XSEEN)) { XSEEN[t[4], t[10]] = 1; XKEY[++NX] = t[4]; XWHAT[NX] = t[10] }
    }
    close(measured)
}

function load_runinfo(    line, t) {
    while ((getline line < runinfo) > 0) {
        split(line, t, "\t")
        RUNI[t[1], t[2], t[3]] = t[4]
    }
    close(runinfo)
}

function load_intake(    line, t, n) {
    while ((getline line < intake) > 0) {
        split(line, t, "\t")
        if (t[2] == "name") { DISPLAY[t[1]] = t[3]; continue }
        n = ++NI[t[1]]; IWORD[t[1], n] = t[2]; ITEXT[t[1], n] = t[3]
    }
    close(intake)
}

function load_private(    line) {
    NP = 0
    while ((getline line < private) > 0) if (line != "" && line != "/") PRIV[++NP] = line
    close(private)
    # the longest first: a folder inside another is cut whole
    for (i = 2; i <= NP; i++) {
        v = PRIV[i]
        for (j = i - 1; j >= 1 && length(PRIV[j]) < length(v); j--) PRIV[j + 1] = PRIV[j]
        PRIV[j + 1] = v
    }
}

# the solutions' value of each speed check, by GPU (the calibration files' rows)
function load_calib(    line, t, path, f, hdr) {
    while ((getline line < calib) > 0) {
        split(line, t, "\t"); path = t[1]
        hdr = 1
        while ((getline f < path) > 0) {
            if (hdr) { hdr = 0; continue }
            split(f, c, ",")
            # gpu,lab,check,reference,spread,runs,peak_gbps,run_at,toolkit,what (what may hold commas)
            w = f; for (i = 1; i <= 9; i++) sub(/^[^,]*,/, "", w)
            REF[c[1], c[2], c[3], w] = c[4] + 0
        }
        close(path)
    }
    close(calib)
}

# ---- a student's words ----------------------------------------------------------
# scrub(s): s with every path of this machine cut: a private folder's prefix
# taken off, then any other absolute path cut to its part from a workbook
# folder (labNN_*/, common/, tools/) or to its file name
function scrub(s,    i, p, out, ms, ml, path, k) {
    for (i = 1; i <= NP; i++) {
        p = PRIV[i]
        while ((k = index(s, p "/")) > 0) s = substr(s, 1, k - 1) substr(s, k + length(p) + 1)
        while ((k = index(s, p)) > 0) s = substr(s, 1, k - 1) "." substr(s, k + length(p))
    }
    out = ""
    while (match(s, /(^|[ \t"'`(=:,])\/[^ \t"'`():,;<>]*/)) {
        ms = RSTART; ml = RLENGTH
        path = substr(s, ms, ml)
        if (substr(path, 1, 1) != "/") { out = out substr(s, 1, ms); path = substr(path, 2) }
        else out = out substr(s, 1, ms - 1)
        if (match(path, /\/(lab[0-9][0-9]_[A-Za-z0-9_]*|common|tools)\//)) path = substr(path, RSTART + 1)
        else { sub(/^.*\//, "", path); if (path == "") path = "." }
        out = out path
        s = substr(s, ms + ml)
    }
    return out s
}

function words(s) {
    gsub(/grade\.conf's/, "the course's", s)
    gsub(/grade\.conf/, "the course's rules", s)
    return s
}

# student_line(line): a line of a file's report in a student's words ("" to leave out)
function student_line(l,    v, g) {
    if (l ~ /^  (ok|LOST) +[0-9]+\/[0-9]+ /) {
        v = (l ~ /^  ok/) ? "passed" : "lost"
        g = l; sub(/^  [A-Za-z]+ +/, "", g); pts = g; sub(/ .*/, "", pts); sub(/^[0-9]+\/[0-9]+ +/, "", g)
        split(pts, pp, "/")
        return "- " v ", " pp[1] " of " pp[2] " point" (pp[2] == 1 ? "" : "s") ": " words(g)
    }
    if (l ~ /^  info /) { sub(/^  info +- +/, "", l); return "- no points here: " words(l) }
    if (l ~ /^  CHECKER /) { sub(/^  CHECKER +/, "", l); return "- the grader's own check of your result: " l }
    if (l ~ /^  PHYSICS /) { sub(/^  PHYSICS +/, "", l); return "- a speed no real run reaches: " l }
    if (l ~ /^  (checker:|TRIPWIRE|score |\(graded by|\| )/) return ""
    if (l ~ /^  calibrated on /) {
        sub(/^  calibrated on /, "", l); sub(/ \(the class notes say why\)$/, "", l)
        return "- on " words(l) " (a check the instructor's own solution misses on this GPU is worth 0)"
    }
    if (l ~ /^  n = / || l ~ /^  [0-9]+ sizes/) { sub(/^  /, "", l); return "- your run: " l }
    if (l ~ /^  \.\.\. /) { sub(/^  /, "", l); return "  " l }
    sub(/^ +/, "", l)
    return "- " words(l)
}

# the report of a result, in a student's words (FB_HEAD: its first line's
# say, FB_ERR[1..FB_NERR]: the compiler's or the program's first lines)
function read_report(rep,    line, n, h) {
    FB_NL = 0; FB_NERR = 0; FB_HEAD = ""; n = 0
    if (rep == "") return
    while ((getline line < rep) > 0) {
        n++
        if (n == 1) {
            h = line; sub(/^[^:]*: /, "", h)
            FB_HEAD = h
            continue
        }
        if (line ~ /^  \| /) { if (FB_NERR < 8) FB_ERR[++FB_NERR] = substr(line, 5); continue }
        line = student_line(line)
        if (line != "") FB_LINE[++FB_NL] = line
    }
    close(rep)
}

function md_name(s) { gsub(/[<>]/, "", s); return s }

function plural(n, w) { return n " " w (n == 1 ? "" : "s") }

# ---- where a student's kernel stands: each exercise's class values ---------------
# the value of (who, key, what) in the class's terms: over the solution's on
# its GPU where the calibration has it (1 = the solution), else the ratio
function speed_value(who, key, what,    k, dev, lab, r) {
    k = who SUBSEP key SUBSEP what
    dev = MDEV[k]; lab = key; sub(/\+.*/, "", lab)
    r = ((dev SUBSEP lab SUBSEP "keeps_up" SUBSEP what) in REF) ? REF[dev, lab, "keeps_up", what] : 0
    SV_REF = r
    return r > 0 ? MVAL[k] / r : MVAL[k]
}

function speed_ranks(    x, s, who, k, n, v) {
    for (x = 1; x <= NX; x++) {
        n = 0; XREL[x] = 1
        for (s = 1; s <= NS; s++) {
            who = SWHO[s]
            k = who SUBSEP XKEY[x] SUBSEP XWHAT[x]
            if (!(k in MVAL)) continue
            v = speed_value(who, XKEY[x], XWHAT[x])
            if (SV_REF <= 0) XREL[x] = 0
            XV[x, ++n] = v; XWHO[x, n] = who
        }
        XN[x] = n
    }
    # relative only where every value had the solution's: else every value the ratio
    for (x = 1; x <= NX; x++) {
        if (XREL[x]) continue
        for (n = 1; n <= XN[x]; n++) XV[x, n] = MVAL[XWHO[x, n] SUBSEP XKEY[x] SUBSEP XWHAT[x]]
    }
    for (x = 1; x <= NX; x++) {
        for (n = 1; n <= XN[x]; n++) SORTV[n] = XV[x, n]
        sort_num(SORTV, XN[x])
        XMED[x] = XN[x] % 2 ? SORTV[(XN[x] + 1) / 2] : (SORTV[XN[x] / 2] + SORTV[XN[x] / 2 + 1]) / 2
        XLO[x] = SORTV[1]; XHI[x] = SORTV[XN[x]]
    }
}

function sort_num(A, n,    i, j, v) {
    for (i = 2; i <= n; i++) {
        v = A[i]
        for (j = i - 1; j >= 1 && A[j] > v; j--) A[j + 1] = A[j]
        A[j + 1] = v
    }
}

# the lines on who's kernels of KEY among the class's
function speed_lines(who, key,    x, n, me, above, below, v, out, ref, raw) {
    out = ""
    for (x = 1; x <= NX; x++) {
        if (XKEY[x] != key || !((who SUBSEP key SUBSEP XWHAT[x]) in MVAL)) continue
        raw = MVAL[who, key, XWHAT[x]]
        v = speed_value(who, key, XWHAT[x]); ref = SV_REF
        if (!XREL[x]) v = raw
        above = 0; below = 0
        for (n = 1; n <= XN[x]; n++) {
            if (XWHO[x, n] == who) continue
            if (XV[x, n] > v) above++
            else if (XV[x, n] < v) below++
        }
        out = out sprintf("- %s: %.2fx the kernel it is measured against", XWHAT[x], raw)
        if (ref > 0) out = out sprintf(" (the instructor's solution: %.2fx on this GPU)", ref)
        if (XN[x] > 1)
            out = out sprintf("; faster than %d and slower than %d of the %d other%s in the class who passed it " \
                              "(the class's middle value: %.2fx%s)", below, above, XN[x] - 1, (XN[x] == 2 ? "" : "s"),
                              XMED[x], XREL[x] ? " of the solution's" : "")
        else out = out "; no one else in the class passed it yet"
        out = out "\n"
    }
    return out
}

# ---- the feedback file of student s ------------------------------------------------
function cal_text(c, dev) {
    if (c == "-" || c == "") return ""
    if (c + 0 > 0) return "the speed each check asks for was set by the instructor's solutions run on " KGPU[c] " (measured " \
                         KRUN[c] ", " plural(KRUNS[c], "run") " a lab)"
    return "the speed each check asks for is the course's own, not measured on " dev
}

function write_feedback(s,    who, f, n, i, col, cell, any, cmd, sp, t, nn, lines, done) {
    who = SWHO[s]
    f = feedback "/" who ".md"
    printf "" > f
    out(f, "# Your grades" (who in DISPLAY ? ": " md_name(DISPLAY[who]) : ": " who))
    out(f, "")
    out(f, "Graded " day ". Total: **" STOT[s] " of " SMAX[s] " points**.")
    out(f, "")
    out(f, "| lab | your score | of |")
    out(f, "|-----|-----------:|---:|")
    for (n = 1; n <= NC[who]; n++) {
        col = CCOL[who, n]; cell = CCELL[who, n]
        if (col == "?" || cell == "" || cell == "-") continue
        out(f, "| " col " | " (cell == "missing" ? "0 (not handed in)" : cell == "node" ? "not graded yet" : cell) \
               " | " (cell == "node" ? LMAX[col] : CMAX[who, n]) " |")
    }
    for (n = 1; n <= NC[who]; n++) {
        col = CCOL[who, n]; cell = CCELL[who, n]
        if (cell == "-") continue
        out(f, "")
        if (cell == "missing") {
            out(f, "## " col ": not handed in (0 of " CMAX[who, n] ")")
            out(f, "")
            out(f, "There was no file for " col " in what you handed in.")
            continue
        }
        read_report(CREP[who, n])
        if (col == "?") out(f, "## Your hand-in")
        else if (cell == "node")
            out(f, "## " col ": not graded yet")
        else out(f, "## " col ": " CGOT[who, n] " of " CMAX[who, n] " points")
        out(f, "")
        if (cell == "node") {
            out(f, "The grading machine failed on this lab, not your file: it will be graded again. " \
                   "No point is lost for it.")
            continue
        }
        if (CSTATE[who, n] == "failed") out(f, "It did not build or run: " words(fail_why(FB_HEAD)))
        else if (CSTATE[who, n] == "rejected") out(f, "Its output was rejected: " words(FB_HEAD))
        else if (CDEV[who, n] != "" && CDEV[who, n] != "-") {
            t = cal_text(CCAL[who, n], CDEV[who, n])
            out(f, "It ran on " CDEV[who, n] (t != "" ? "; " t : "") ".")
        }
        cmd = RUNI[who, col, "command"]
        if (cmd != "") {
            sub(/ --csv/, "", cmd)
            out(f, "")
            t = col; sub(/[-+].*/, "", t)
            out(f, "The same run on your own " (t in CPULAB ? "computer" : "GPU") " (the same input, the same size):")
            out(f, "")
            out(f, "    " cmd)
        }
        if (FB_NERR > 0) {
            out(f, "")
            out(f, (CSTATE[who, n] == "failed" && FB_HEAD ~ /compile/ ? "The compiler's first errors:" : "Its last words:"))
            out(f, "")
            out(f, "```")
            for (i = 1; i <= FB_NERR; i++) out(f, FB_ERR[i])
            out(f, "```")
        }
        if (FB_NL > 0) {
            out(f, "")
            out(f, "Each check:")
            out(f, "")
            for (i = 1; i <= FB_NL; i++) out(f, FB_LINE[i])
        }
        sp = speed_lines(who, col)
        if (sp != "") {
            out(f, "")
            out(f, "Your kernels' speed in the class (the time of the kernel each is measured against, " \
                   "over yours: higher is faster):")
            out(f, "")
            nn = split(sp, lines, "\n")
            for (i = 1; i < nn; i++) out(f, lines[i])
        }
    }
    if (NI[who] > 0) {
        out(f, "")
        out(f, "## What was taken from your hand-in")
        out(f, "")
        for (i = 1; i <= NI[who]; i++) {
            t = IWORD[who, i]
            if (t == "took") out(f, "- graded: " ITEXT[who, i])
            else if (t == "refused") out(f, "- REFUSED (not read, not graded): " ITEXT[who, i])
            else if (t == "ignored") out(f, "- not graded (not an exercise file): " ITEXT[who, i])
            else if (t == "manifest") out(f, "- " ITEXT[who, i])
        }
    }
    close(f)
}

# the reason of a failed lab's report line ("KEY did not build or run: WHY")
function fail_why(h) { sub(/^[^:]* did not build or run: /, "", h); return h }

# out(FILE, LINE): LINE scrubbed, into FILE; prose wrapped at 100 columns (a list
# item's lines indented under it), a code block's lines and a table's rows kept whole
function out(f, line,    ind, cut, i) {
    gsub(/[\001-\010\013-\037\177]/, "?", line)
    line = scrub(line)
    if (line ~ /^```/) INCODE = !INCODE
    if (INCODE || line ~ /^(```|\||    )/) { print line > f; return }
    ind = (line ~ /^- /) ? "  " : ""
    while (length(line) > 100) {
        cut = 0
        for (i = 101; i > 40; i--) if (substr(line, i, 1) == " ") { cut = i; break }
        if (!cut) break
        print substr(line, 1, cut - 1) > f
        line = ind substr(line, cut + 1)
    }
    print line > f
}
