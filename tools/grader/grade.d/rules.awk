# tools/grader/grade.d/rules.awk - the grader (POSIX awk), part 3 of 4: grade.conf's checks
# on one key of a file, and mode=file's main.
# Run after the parts before it (tools/grader/grade.d/conf.awk says how).

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

# timed_pair(key, what, a, b): the size at which rows a and b were both
# run, their rows in PAIR_A and PAIR_B; "" (and why in M_ERR) when one is
# missing or did not PASS, since only a verified time counts
function timed_pair(key, what, a, b,    sz) {
    sz = size_with(key, a, b)
    if (sz == "") { M_ERR = what ": " missing_text(key, a, b); return "" }
    PAIR_A = krow(key, a, sz); PAIR_B = krow(key, b, sz)
    if (STATUS[PAIR_A] != "PASS" || STATUS[PAIR_B] != "PASS") {
        M_ERR = what ": " (STATUS[PAIR_A] != "PASS" ? a : b) " failed verification, so its time does not count"
        return ""
    }
    return sz
}

# measure(i, key): what speed check i measures in this file. M_ERR: why it
# cannot be measured ("" if it can); M_VAL: the value (faster, keeps_up:
# time ratio; versus: GB/s ratio; near_copy: pct_of_copy / 100; no_slower:
# time(B) / time(A)); M_SPR: the rows' half interquartile ranges over their
# medians, added; M_TXT: the report's words before the threshold; M_DIFF and
# M_ALLOW: no_slower's percent slower and allowance; M_AT: the size text
function measure(i, key,    a, b, sz, r, rr, want) {
    M_ERR = ""; M_TXT = ""; M_AT = ""
    a = R_A1[i]; b = R_A2[i]
    if (R_KIND[i] == "faster") {
        if ((sz = timed_pair(key, "faster", a, b)) == "") return
        M_VAL = TIME[PAIR_B] / TIME[PAIR_A]; M_SPR = (SPREAD[PAIR_A] + SPREAD[PAIR_B]) / 200; M_AT = at_text(key, sz)
        M_TXT = sprintf("faster: %s %s %s: time ratio %.2fx", a, (M_VAL >= 1 ? "beats" : "is slower than"), b, M_VAL)
    } else if (R_KIND[i] == "no_slower") {
        if ((sz = timed_pair(key, "no_slower", a, b)) == "") return
        M_VAL = TIME[PAIR_B] / TIME[PAIR_A]; M_SPR = (SPREAD[PAIR_A] + SPREAD[PAIR_B]) / 200; M_AT = at_text(key, sz)
        M_ALLOW = (SPREAD[PAIR_A] + SPREAD[PAIR_B]) / 2 + R_A3[i]
        M_DIFF = 100 * (TIME[PAIR_A] / TIME[PAIR_B] - 1)
        if (M_DIFF <= 0) M_TXT = sprintf("no_slower: %s is %.2fx as fast as %s", a, M_VAL, b)
        else M_TXT = sprintf("no_slower: %s is %.1f%% slower than %s, allowance %.1f%%", a, M_DIFF, b, M_ALLOW)
    } else if (R_KIND[i] == "near_copy") {
        sz = size_with_set(key, a, "", "")
        if (sz == "") { M_ERR = "near_copy: no kernel matching " a " in the file"; return }
        r = best_of(key, a, sz, "")
        if (!r) { M_ERR = "near_copy: no kernel matching " a " passed verification" at_text(key, sz); return }
        M_VAL = PCT[r] / 100; M_SPR = SPREAD[r] / 200; M_AT = at_text(key, sz)
        M_TXT = sprintf("near_copy: fastest of %s is %s at %.1f%% of the copy ceiling (%.0f of %.0f GB/s)",
                        a, KERN[r], PCT[r], GBPS[r], CEIL[r])
    } else if (R_KIND[i] == "versus") {
        if (size_with(key, b, "") == "") { M_ERR = "versus: " b " is not in the file (was the lab run with -k?)"; return }
        sz = size_with_set(key, a, b, b)
        if (sz == "") { M_ERR = "versus: no kernel matching " a " ran at a size where " b " ran"; return }
        rr = krow(key, b, sz)
        if (STATUS[rr] != "PASS") { M_ERR = "versus: " b " failed verification" at_text(key, sz); return }
        r = best_of(key, a, sz, b)
        if (!r) { M_ERR = "versus: no kernel matching " a " passed verification" at_text(key, sz); return }
        if (GBPS[rr] <= 0) { M_ERR = "versus: " b " shows 0 GB/s"; return }
        M_VAL = GBPS[r] / GBPS[rr]; M_SPR = (SPREAD[r] + SPREAD[rr]) / 200; M_AT = at_text(key, sz)
        M_TXT = sprintf("versus: fastest of %s is %s at %.2fx %s (%.0f vs %.0f GB/s)", a, KERN[r], M_VAL, b, GBPS[r], GBPS[rr])
    } else if (R_KIND[i] == "keeps_up") {
        r = exrow(key, a)
        if (r <= 0) { M_ERR = exercise_block(key, a, r); return }
        rr = krow(key, AGAINST[r], SZ[r])
        if (STATUS[r] != "PASS") { M_ERR = exercise_block(key, a, r); return }
        if (STATUS[rr] != "PASS") {
            M_ERR = "keeps_up: " AGAINST[r] ", which " a " is measured against, failed verification, so the ratio does not count"
            return
        }
        M_VAL = TIME[rr] / TIME[r]; M_SPR = (SPREAD[r] + SPREAD[rr]) / 200; M_AT = at_text(key, SZ[r])
        M_TXT = sprintf("keeps_up: %s at %.2fx %s", a, M_VAL, AGAINST[r])
    }
}

# check_speed(i, key): speed check i against grade.conf's threshold, or the
# bar the calibration of this file's GPU (CALC) sets for it (cal_bar)
function check_speed(i, key,    st, pass, need, txt) {
    measure(i, key)
    st = cal_bar(i, CALC, key)
    if (st == "missed") {
        result(0, 0, (M_ERR != "" ? M_ERR : M_TXT M_AT) "; " not_gradable(i))
        return
    }
    if (M_ERR != "") { result(R_PTS[i], 0, M_ERR); return }
    if (R_KIND[i] == "no_slower") {
        pass = (M_DIFF <= M_ALLOW + 1e-9)
        txt = M_TXT M_AT
        if (st == "lowered") {
            if (!pass && M_VAL >= CB_BAR - 1e-9) pass = 1
            txt = txt sprintf(" (calibrated: %.2fx its speed or more passes; the solution %.2fx)", CB_BAR, CB_REF)
        }
    } else {
        need = (st == "lowered") ? CB_BAR : rule_bar(i)
        pass = (M_VAL >= need - 1e-9)
        txt = M_TXT ", needs " (R_KIND[i] == "near_copy" && st != "lowered" ? R_A2[i] "%" : fmt_val(i, need))
        if (st == "lowered") txt = txt " (calibrated: grade.conf " fmt_val(i, rule_bar(i)) ", the solution " fmt_val(i, CB_REF) ")"
        txt = txt M_AT
    }
    result(R_PTS[i], pass ? R_PTS[i] : 0, txt)
}

# the words for a check the solutions miss on this GPU (after cal_bar)
function not_gradable(i) {
    return "not gradable on " CALGPU[CALC] ": the solution reaches " fmt_val(i, CB_REF) ", the chapter asks " \
           (R_KIND[i] == "no_slower" ? "no slower than " R_A2[i] : fmt_val(i, rule_bar(i))) " (worth 0 here)"
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
        if (cal_bar(i, CALC, CKEY) == "missed") continue    # worth 0 here: check_speed says why
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

# the key's shape from its rows: +matrix for a lab05 run with matrix rows
# only (-n NXxNY), +sweep for a run with several sizes of one kind (--sweep)
function shape_of(key,    r, n1, seen, lab) {
    n1 = 0; lab = LABN[RUNLINE[key]]
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != key || ROLE[r] != "kernel") continue
        if (has_mode(lab, "matrix") && NX[r] > 0) continue
        if (!(SZ[r] in seen)) { seen[SZ[r]] = 1; n1++ }
    }
    if (has_mode(lab, "matrix") && n1 == 0) return "+matrix"
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

# the end of the @@ line after LAB: the calibration (CAL) and the device
function cal_fields(dev, key,    i, sp) {
    sp = 0
    for (i = 1; i <= nrules; i++) if (R_LAB[i] == rules_key(key) && is_speed(i)) sp = 1
    return " " (sp ? CALC + 0 : "-") " " dev_word(dev)
}

function grade_key(ikey,    i, r, nk, rules, lo, hi, s, dev, sizes, rk, np, ex, st, exs, first, key, maxk) {
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
    # the calibration of this GPU, if one was given (CALC 0: grade.conf's bars)
    CALC = (dev in CALIDX) ? CALIDX[dev] : 0
    CKEY = key
    maxk = cal_max(key, CALC)
    lo = ""; hi = ""
    for (i = 1; i <= NSIZES[ikey]; i++) {
        s = SIZES[ikey, i]
        if (lo == "" || SIZEN[ikey, s] < SIZEN[ikey, lo]) lo = s
        if (hi == "" || SIZEN[ikey, s] > SIZEN[ikey, hi]) hi = s
    }
    sizes = (NSIZES[ikey] > 1) ? "n = " SIZETXT[ikey, lo] " .. " SIZETXT[ikey, hi] " (" NSIZES[ikey] " sizes)" : "n = " SIZETXT[ikey, lo]
    exs = ex ? sprintf(", %d exercise%s (%d PASS, %d FAIL, %d todo)", ex, (ex > 1 ? "s" : ""), st["PASS"], st["FAIL"], st["todo"]) : ", no exercise rows"
    if (MEASURE) { measure_key(ikey, key, first); return }
    printf "%s: %s on %s, build %s, run %s\n", label, key, dev, BUILD[first], RUNAT[first]
    printf "  %s: %d kernel%s%s\n", sizes, nk, (nk == 1 ? "" : "s"), exs
    if (CHECKED) checker_lines(ikey)
    rk = rules_key(key)
    if (CALC && maxk < max_of(key))
        printf "  calibrated on %s: %d of grade.conf's %d points can be earned here (the class notes say why)\n",
               CALGPU[CALC], maxk, max_of(key)
    np = physics(ikey)
    if (np > 0) {
        for (i = 1; i <= np && i <= 6; i++) printf "  PHYSICS  %s\n", PHYS[i]
        if (np > 6) printf "  ... and %d more\n", np - 6
        printf "  score %s 0/%d  (speeds no real run reaches: the times were edited)\n", key, maxk
        emit_score("@@ " key " 0 " maxk " 1 physics " RUNAT[first] " " (FP[first] == "" ? "-" : FP[first]) " " npass_ex " " ex " " \
                   (BUILD[first] ~ /\+solutions$/ ? 1 : 0) " " LABN[first] cal_fields(dev, key) " " PHYS[PHYSWORST])
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
        else if (R_KIND[i] == "done") check_done(i, ikey)
        else check_speed(i, ikey)
    }
    if (!rules) printf "  (grade.conf has no checks for %s: the file was only checked for consistency)\n", key
    printf "  score %s %d/%d%s\n", key, GOT, maxk, LOST ? "  (lost points)" : ""
    emit_score("@@ " key " " GOT " " maxk " " LOST " ok " RUNAT[first] " " (FP[first] == "" ? "-" : FP[first]) " " npass_ex " " ex " " \
               (BUILD[first] ~ /\+solutions$/ ? 1 : 0) " " LABN[first] cal_fields(dev, key))
}

# mode=measure: each speed check of KEY as measured in this file, and its
# fastest GB/s (conf.awk's header says the lines); nothing is graded
function measure_key(ikey, key, first,    i, rk, r, best, bw, w) {
    rk = rules_key(key)
    for (i = 1; i <= nrules; i++) {
        if (R_LAB[i] != rk || !is_speed(i)) continue
        measure(i, ikey)
        if (M_ERR != "") { printf "E\t%s\t%s\t%s\t%s\t%s\n", DEV[first], key, R_KIND[i], rule_what(i), M_ERR; continue }
        printf "M\t%s\t%s\t%s\t%.6f\t%.6f\t%s\t%s\t%s\n", DEV[first], key, R_KIND[i], M_VAL, M_SPR, PEAK[first],
               RUNAT[first], rule_what(i)
    }
    best = 0; w = ""
    for (r = 1; r <= nrows; r++) {
        if (KEY[r] != ikey || TODO[r] || BUILD[r] ~ /^cpu/ || STATUS[r] != "PASS") continue
        if (GBPS[r] > best) { best = GBPS[r]; w = KERN[r] }
        if (CEIL[r] > best) { best = CEIL[r]; w = "the copy" }
    }
    if (best > 0) printf "F\t%s\t%s\t%.2f\t%s\t%s\t%s in %s\n", DEV[first], key, best, PEAK[first], RUNAT[first], w, key
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

