# tools/grade.d/rules.awk - the grader (POSIX awk), part 3 of 4: grade.conf's checks
# on one key of a file, and mode=file's main.
# Run after the parts before it (tools/grade.d/conf.awk says how).

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

# timed_pair(i, key, what, a, b): the size at which rows a and b were both
# run, their rows in PAIR_A and PAIR_B; "" (and rule i scored 0) when one
# is missing or did not PASS, since only a verified time counts
function timed_pair(i, key, what, a, b,    sz) {
    sz = size_with(key, a, b)
    if (sz == "") { result(R_PTS[i], 0, what ": " missing_text(key, a, b)); return "" }
    PAIR_A = krow(key, a, sz); PAIR_B = krow(key, b, sz)
    if (STATUS[PAIR_A] != "PASS" || STATUS[PAIR_B] != "PASS") {
        result(R_PTS[i], 0, what ": " (STATUS[PAIR_A] != "PASS" ? a : b) " failed verification, so its time does not count")
        return ""
    }
    return sz
}

function check_faster(i, key,    fast, slow, want, sz, rf, rs, ratio) {
    fast = R_A1[i]; slow = R_A2[i]; want = R_A3[i] + 0
    if ((sz = timed_pair(i, key, "faster", fast, slow)) == "") return
    rf = PAIR_A; rs = PAIR_B
    ratio = TIME[rs] / TIME[rf]
    result(R_PTS[i], (ratio >= want - 1e-9) ? R_PTS[i] : 0,
           sprintf("faster: %s %s %s: time ratio %.2fx, needs %.2fx%s", fast, (ratio >= 1 ? "beats" : "is slower than"),
                   slow, ratio, want, at_text(key, sz)))
}

function check_no_slower(i, key,    a, b, tol, sz, ra, rb, allow, diff, text) {
    a = R_A1[i]; b = R_A2[i]; tol = R_A3[i] + 0
    if ((sz = timed_pair(i, key, "no_slower", a, b)) == "") return
    ra = PAIR_A; rb = PAIR_B
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

# graded from sources: the checker's count, how to repeat the run, the rows
# whose lab said PASS and the checker did not, the tripwire
function checker_lines(key,    r, np, nf, nt, n, tw) {
    np = 0; nf = 0; nt = 0; n = 0
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != key) continue
        if (STATUS[r] == "PASS") np++
        else if (STATUS[r] == "todo") nt++
        else nf++
    }
    if (runinfo == "") {
        printf "  checker: no record of this run (no .run file beside it): no row counts as verified\n"
        return
    }
    printf "  checker: %d PASS, %d FAIL, %d todo; seed %s, n = %s, fingerprint %s (the grader's cksum of %s); the run again: %s\n",
           np, nf, nt, RUN["seed"], RUN["size"], RUNFP, RUN["file"], RUN["command"]
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != key || STATUS[r] != "FAIL" || LABWORD[r] != "PASS") continue
        if (++n <= 6) printf "  CHECKER  %s at n = %s: the lab said PASS; %s\n", KERN[r], SZTXT[r], CHKWHY[r]
    }
    if (n > 6) printf "  ... and %d more rows the lab called PASS\n", n - 6
    tw = RUN["tripwire"]
    if (tw != "" && tw != "none" && tw != "not-checked")
        printf "  TRIPWIRE  the student's code pulls in %s beyond the stub's: read it (a flag; no point is lost)\n", tw
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
    if (CHECKED) checker_lines(ikey)
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

