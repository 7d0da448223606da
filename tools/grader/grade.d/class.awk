# tools/grader/grade.d/class.awk - the grader (POSIX awk), part 4 of 4: the class (one
# result per student and lab, copies, required labs, the table or gradebook).
# Run after the parts before it (tools/grader/grade.d/conf.awk says how).

# ---------------------------------------------------------------------------
# mode=class: one line per result (see the top of this file)
# ---------------------------------------------------------------------------
mode == "class" && NF >= 18 {
    nres++
    WHO[nres] = $1; NWHO[nres] = $2; REL[nres] = $3; REP[nres] = $4; SUM[nres] = $5
    RKEY[nres] = $6; RGOT[nres] = $7 + 0; RMAX[nres] = $8 + 0; RLOST[nres] = $9 + 0; RSTATE[nres] = $10
    RRUN[nres] = $11; RFP[nres] = $12; RNPASS[nres] = $13 + 0; RNEX[nres] = $14 + 0; RSOL[nres] = $15 + 0
    RLAB[nres] = $16; RCAL[nres] = $17; RDEV[nres] = $18; gsub(/_/, " ", RDEV[nres])
    RNOTE[nres] = (NF >= 19) ? $19 : ""
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

# the students: every owner, and the name a misnamed file carries (lab03-carol.csv)
function class_students(    i, k, key, best, who, gw) {
    for (i = 1; i <= nres; i++) {
        who = WHO[i]
        if (who == "") { gw = guess_who(i); if (gw != "") add_flag(gw, "misnamed " REL[i]); who = gw }
        if (who != "" && !(who in STUSEEN)) { STUSEEN[who] = 1; STU[++NSTU] = who }
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
    sort_strings(STU, NSTU)
}

# the class's columns: the required labs, the optional ones, then any
# other lab handed in in its default mode; a mode grade.conf does not
# list (lab02+float, lab05+matrix, ...) is an extra run, outside the total
function class_columns(    i, s, n, line) {
    NCLASSCOL = 0
    for (i = 1; i <= nreq; i++) { COL[++NCLASSCOL] = REQ[i]; ISCOL[REQ[i]] = 1 }
    # (an optional lab no student has a result for gets no column: a class graded from sources
    # never has lab05-finish or lab06+dlcm=cg)
    for (i = 1; i <= nres; i++) if (KEEP[i] && WHO[i] != "") HASKEY[RKEY[i]] = 1
    for (i = 1; i <= nopt; i++) if (!(OPT[i] in ISCOL) && (OPT[i] in HASKEY)) { COL[++NCLASSCOL] = OPT[i]; ISCOL[OPT[i]] = 1 }
    n = 0
    for (i = 1; i <= nres; i++)
        if (KEEP[i] && WHO[i] != "" && RKEY[i] != "?" && !(RKEY[i] in ISCOL) && RKEY[i] !~ /\+/) {
            ISCOL[RKEY[i]] = 1; EXTRA[++n] = RKEY[i]
        }
    sort_strings(EXTRA, n)
    for (i = 1; i <= n; i++) COL[++NCLASSCOL] = EXTRA[i]
    for (i = 1; i <= nres; i++) {
        if (!KEEP[i] || WHO[i] == "" || RKEY[i] == "?" || (RKEY[i] in ISCOL)) continue
        NXRUN++
        XRUNTXT[NXRUN] = WHO[i] " " RKEY[i] ": " REL[i] " " RGOT[i] "/" RMAX[i]
        file_note(REL[i], "extra run: " RKEY[i] " is not in grade.conf's required or optional line: shown, not counted")
    }
}

# per file: who handed it in (for the copies), and notes
function class_files(    i, j, s, f) {
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
}

# identical files from different owners
function class_copies(    j, s, f, g, ngroups, owners, nown, list) {
    for (f = 1; f <= nfiles; f++) {
        if (FSTATE[FILES[f]] == "failed" || FSTATE[FILES[f]] == "node") continue
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
}

# identical fingerprints of a lab from different owners, one of them with a PASS exercise
function class_fingerprints(    i, j, s, g, ngroups, owners, nown, list, parts) {
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
}

# solutions builds, physics verdicts, rejected files, labs that did not build or run, plain runs
function class_verdicts(    i, s, line, t, k, q) {
    NNG = 0
    for (i = 1; i <= nres; i++) {
        if (RSOL[i] && !((REL[i] SUBSEP "sol") in DONE)) {
            DONE[REL[i], "sol"] = 1
            NSOL++; SOLTXT[NSOL] = REL[i] " (" owner_short(i) "): " RKEY[i] " built with the instructor's solutions"
            add_flag(owner(i), "solutions " RKEY[i])
        }
        if (RSTATE[i] == "physics") { NPHY++; PHYTXT[NPHY] = REL[i] " (" owner_short(i) "): " RNOTE[i] }
        if (RSTATE[i] == "rejected") { NREJ++; REJTXT[NREJ] = REL[i] " (" owner_short(i) "): " RNOTE[i] }
        if (RSTATE[i] == "node") { # not graded (the node's fault, its task's): a flag of its own, never a 0
            NNODE++; NODETXT[NNODE] = owner(i) " " RKEY[i] ": " RNOTE[i]
            k = owner(i) SUBSEP not_graded_why(RNOTE[i])
            if (!(k in NGLABS)) NGORDER[++NNG] = k
            NGLABS[k] = NGLABS[k] " " RKEY[i]
        }
        if (RSTATE[i] == "failed") {
            NFAILED++; FAILTXT[NFAILED] = owner(i) " " RKEY[i] ": " RNOTE[i]
            add_flag(owner(i), "failed " (RKEY[i] == "?" ? "(no lab)" : RKEY[i]))
        }
        if (KEEP[i] && WHO[i] != "" && RSTATE[i] == "ok" && plain(i)) {
            NPLAIN++; PLAINTXT[NPLAIN] = REL[i] " (" WHO[i] "): " RKEY[i]
            add_flag(WHO[i], "plain " RKEY[i])
        }
        if (WHO[i] == "") LOST_ANY = 1       # credited to no one: someone must rename it
    }
    # one flag a student and reason: not graded lab02 lab03 (node fault: grade it again)
    for (i = 1; i <= NNG; i++) {
        split(NGORDER[i], q, SUBSEP)
        add_flag(q[1], "not graded" NGLABS[NGORDER[i]] " (" q[2] ": grade it again)")
    }
    # graded from sources: what a student's code pulls in beyond the stub's (trips=: who, lab, words)
    if (trips != "") {
        while ((getline line < trips) > 0) {
            split(line, t, "\t")
            gsub(/[^ -~]/, "?", t[3])
            NTRIP++; TRIPTXT[NTRIP] = t[1] " " t[2] ": " t[3]
            add_flag(t[1], "tripwire " t[2] " (" t[3] ")")
        }
        close(trips)
    }
    # graded from sources, the student's code WITHOUT a sandbox (nosandbox=: one student a
    # line), after what their code did
    if (nosandbox != "") {
        while ((getline line < nosandbox) > 0) if (line != "") add_flag(line, "graded WITHOUT a sandbox")
        close(nosandbox)
    }
}

# the students' scores and flags
function class_scores(    i, k, s, key, total, max, flags, c, who, m, rej, phy) {
    for (s = 1; s <= NSTU; s++) {
        who = STU[s]
        total = 0; max = 0; m = ""; rej = ""; phy = ""
        for (c = 1; c <= NCLASSCOL; c++) {
            key = COL[c]
            k = who SUBSEP key
            if (k in BEST) {
                i = BEST[k]
                CELL[s, c] = RGOT[i]
                if (RSTATE[i] == "node") CELL[s, c] = (not_graded_why(RNOTE[i]) == "node fault") ? "node" : "task"
                total += RGOT[i]; max += RMAX[i]
                if (RSTATE[i] == "rejected") rej = rej " " key
                if (RSTATE[i] == "physics") phy = phy " " key
            } else if (LISTED[key] == "required") {
                CELL[s, c] = "missing"
                max += cal_max(key, CLASSCAL)
                m = m " " key
                MISSING[who] = MISSING[who] (MISSING[who] == "" ? "" : ", ") key " missing"
            } else CELL[s, c] = "-"
        }
        for (i = 1; i <= nres; i++)
            if (KEEP[i] && (WHO[i] "") == (who "") && RKEY[i] == "?" && RSTATE[i] != "failed" && RSTATE[i] != "node") rej = rej " " REL[i]
        flags = ""
        if (m != "") flags = flags "; missing" m
        if (rej != "") flags = flags "; rejected" rej
        if (phy != "") flags = flags "; physics" phy
        if (who in FLAGOF) flags = flags FLAGOF[who]
        sub(/^; /, "", flags)
        TOTAL[s] = total; MAX[s] = max; FLAGS[s] = flags
        if (total < max || flags != "") NBAD++
    }
}

# the reports, each with its notes
function class_print(    i, s, w, f, n, line, rep, width, total, max, flags, c, list, hdr) {
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
    class_calibration()
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
    class_list(NNODE, NODETXT, "labs not graded, the node's or the task's fault (no point lost, none counted: grade them again):")
    class_list(NTRIP, TRIPTXT, "student code that pulls in more than the stub's (exit, output, constructors, /proc: " \
                               "read it; no point is lost):")
    class_list(NPLAIN, PLAINTXT, "plain runs, without exercise rows (ask for ./labNN --exercises --csv: make handin):")
    class_list(NXRUN, XRUNTXT, "extra runs (other modes; not counted: list a mode in grade.conf's optional line):")
    n = 0
    for (s = 1; s <= NSTU; s++) if (MISSING[STU[s]] != "") { n++; MISSTXT[n] = STU[s] ": " MISSING[STU[s]] }
    class_list(n, MISSTXT, "required labs not handed in (score 0):")

    if (format == "csv") {
        hdr = "student"
        for (c = 1; c <= NCLASSCOL; c++) hdr = hdr "," COL[c]
        print hdr ",total,max,flags,calibration"
        for (s = 1; s <= NSTU; s++) {
            line = csv_field(STU[s])
            for (c = 1; c <= NCLASSCOL; c++) line = line "," (CELL[s, c] == "missing" ? 0 : (CELL[s, c] ~ /^(-|node|task)$/ ? "" : CELL[s, c]))
            print line "," TOTAL[s] "," MAX[s] "," csv_field(FLAGS[s]) "," csv_field(student_bars(STU[s]))
        }
    } else if (NSTU > 0) {
        w = 7
        for (s = 1; s <= NSTU; s++) if (length(STU[s]) > w) w = length(STU[s])
        print ""
        line = sprintf("%-" w "s", "student")
        for (c = 1; c <= NCLASSCOL; c++) { width[c] = length(COL[c]) < 7 ? 7 : length(COL[c]); line = line sprintf(" %" width[c] "s", COL[c]) }
        print line sprintf(" %9s", "total")
        line = sprintf("%-" w "s", "(max)")
        for (c = 1; c <= NCLASSCOL; c++) line = line sprintf(" %" width[c] "s", cal_max(COL[c], CLASSCAL))
        print line
        for (s = 1; s <= NSTU; s++) {
            line = sprintf("%-" w "s", STU[s])
            for (c = 1; c <= NCLASSCOL; c++) line = line sprintf(" %" width[c] "s", CELL[s, c])
            print line sprintf(" %9s", TOTAL[s] "/" MAX[s])
        }
        n = 0
        for (s = 1; s <= NSTU; s++) if (FLAGS[s] != "") n++
        if (n) {
            print ""
            print "flags (read them before you publish the grades):"
            for (s = 1; s <= NSTU; s++) if (FLAGS[s] != "") print "  " STU[s] ": " FLAGS[s]
        }
        print ""
        printf "class: %d student%s; %d earned every point with nothing flagged, %d did not%s\n", NSTU, (NSTU == 1 ? "" : "s"),
               NSTU - NBAD, NBAD, (nreq ? " (required: " req_text() ")" : " (grade.conf names no required labs)")
    } else {
        n = 0; total = 0; max = 0
        for (i = 1; i <= nres; i++) { n++; total += RGOT[i]; max += RMAX[i] }
        printf "no file could be credited to a student; total %d/%d over %d lab result%s\n", total, max, n, (n == 1 ? "" : "s")
    }
}

# ---------------------------------------------------------------------------
# The speed bars: the calibration of each GPU (conf.awk: read_calibration),
# or grade.conf's as written and where they were set (set_on)
# ---------------------------------------------------------------------------
# CLASSCAL: the calibration every GPU result of the class was graded by (0:
# none, or results of several GPUs); the maximum of a missing lab uses it
function class_bars(    i, c) {
    CLASSCAL = -1
    for (i = 1; i <= nres; i++) {
        if (RCAL[i] == "-") continue
        c = RCAL[i] + 0
        if (CLASSCAL < 0) CLASSCAL = c
        else if (CLASSCAL != c) CLASSCAL = 0
        if (c == 0 && !((RDEV[i]) in NOCALN)) NOCALDEV[++NNOCAL] = RDEV[i]
        if (c == 0) NOCALN[RDEV[i]]++
        else CALUSED[c]++
    }
    if (CLASSCAL < 0) CLASSCAL = (NCAL == 1) ? 1 : 0
}

function set_on_text() { return SET_ON != "" ? ", set on " SET_ON : "" }

# the calibration, one line per speed check (text: in the class part; csv: stderr)
function class_calibration(    c, j, k, i, key, st, line, pre, m, n, list) {
    if (NCAL == 0) {
        if (NNOCAL == 0) return
        list = ""
        for (j = 1; j <= NNOCAL; j++) list = list (j > 1 ? ", " : "") NOCALDEV[j]
        say("speed bars: grade.conf's as written" set_on_text() "; not calibrated on " list \
            " (make grade SOURCES=dir calibrates; RESULTS=dir CALIBRATION=file applies one)")
        return
    }
    for (c = 1; c <= NCAL; c++) {
        say("speed bars calibrated on " CALGPU[c] " (" CALSHOW[c] ": the solutions, " CALRUNS[c] " run" \
            (CALRUNS[c] > 1 ? "s" : "") " a lab, " CALRUNAT[c] (CALTK[c] != "-" && CALTK[c] != "" ? ", " CALTK[c] : "") "; " (c in CALUSED ? CALUSED[c] : "no") \
            " result" (CALUSED[c] == 1 ? "" : "s") " graded by it); grade.conf's" set_on_text() ":")
        for (k = 1; k <= NCKEYS[c]; k++) {
            key = CKEYS[c, k]
            m = cal_max(key, c)
            for (i = 1; i <= nrules; i++) {
                if (R_LAB[i] != rules_key(key) || !is_speed(i)) continue
                st = cal_bar(i, c, key)
                pre = "  " key " " R_KIND[i] " " rule_what(i) ": "
                if (st == "") line = pre "not measured: grade.conf's bar"
                else if (st == "missed")
                    line = pre "not gradable on " CALGPU[c] ": the solution reaches " fmt_val(i, CB_REF) ", the chapter asks " \
                           (R_KIND[i] == "no_slower" ? "no slower than " R_A2[i] : fmt_val(i, rule_bar(i))) \
                           " (worth 0: " key "'s maximum " m " of " max_of(key) ")"
                else {
                    line = pre "the solution " fmt_val(i, CB_REF) " (spread " sprintf("%.1f%%", 100 * CB_SPR) "), "
                    if (R_KIND[i] == "no_slower")
                        line = line (st == "lowered" ? "also passes at " sprintf("%.2fx", CB_BAR) " its speed" : "grade.conf's rule")
                    else line = line "needs " fmt_val(i, CB_BAR) (st == "lowered" ? " (grade.conf " fmt_val(i, rule_bar(i)) ")" : "")
                    if (CB_SPR > CAL_NOISY) line = line "; NOISY: calibrate again on a quiet GPU"
                }
                say(line)
            }
        }
        if (CALPEAK[c] > 0 || CALFAST[c] > 0)
            say("  physics: a row faster than " sprintf("%.0f", CALPEAK[c]) " GB/s (the GPU's theoretical) or " PHYS_MAX "% of " \
                sprintf("%.0f", CALFAST[c]) " GB/s (the solutions' fastest, " CALFASTWHAT[c] ") scores 0")
    }
    if (NNOCAL > 0) {
        list = ""
        for (j = 1; j <= NNOCAL; j++) list = list (j > 1 ? ", " : "") NOCALDEV[j] " (" NOCALN[NOCALDEV[j]] ")"
        say("results of GPUs without a calibration, graded by grade.conf's bars" set_on_text() ": " list)
    }
}

# a student's speed bars for the gradebook: each GPU of their results, calibrated or not
function student_bars(who,    i, t, out, seen) {
    out = ""
    for (i = 1; i <= nres; i++) {
        if (!KEEP[i] || (WHO[i] "") != (who "") || RCAL[i] == "-") continue
        t = (RCAL[i] + 0) ? CALGPU[RCAL[i] + 0] " (calibrated " CALRUNAT[RCAL[i] + 0] ")" : RDEV[i] " (not calibrated)"
        if (t in seen) continue
        seen[t] = 1
        out = out (out == "" ? "" : "; ") t
    }
    return out
}

# the class: every stage above, in order; CLASS_STATUS 1 when a student lost a
# point or was flagged, or a file is credited to no one
function class_main() {
    class_students()
    class_bars()
    class_columns()
    class_files()
    class_copies()
    class_fingerprints()
    class_verdicts()
    class_intake()   # (below: intake= flags)
    class_scores()
    class_print()
    class_export()   # (below: export=)
    CLASS_STATUS = (NBAD || LOST_ANY) ? 1 : 0
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

# the reason of a record "not graded: WHY (...): ...": "node fault" (the node's fault, not
# the student's file), else WHY up to its first ( or : ("its task was cancelled" gives "task
# was cancelled"; tools/grader/grade_slurm.sh's collect writes those)
function not_graded_why(s) {
    if (s ~ /^not graded: the node's fault/) return "node fault"
    sub(/^not graded: /, "", s); sub(/[(:].*/, "", s); sub(/ +$/, "", s); sub(/^its /, "", s)
    return s
}

function fail_main(    i, lab, m) {
    if (FKEY0 == "") { FKEY0 = "?"; FWHY = "the file is empty" }
    gsub(/[^ -~]/, "?", FWHY)
    printf "%s: %s did not build or run: %s\n", label, FKEY0, FWHY
    for (i = 1; i <= nfl && i <= MAXERR; i++) { gsub(/[^ -~]/, "?", FLINE[i]); print "  | " FLINE[i] }
    if (nfl > MAXERR) print "  | ... (" (nfl - MAXERR) " more lines)"
    m = (FKEY0 == "?") ? 0 : cal_max(FKEY0, NCAL == 1)
    lab = FKEY0; sub(/\+.*/, "", lab)
    # a record of the grader's: not graded, the node's fault or its task's (a flag, never a 0)
    if (FKEY0 != "?" && FWHY ~ /^not graded: /) {
        printf "  score %s -/%d  (not graded: %s: grade it again)\n", FKEY0, m, not_graded_why(FWHY)
        emit_score("@@ " FKEY0 " 0 0 0 node - - 0 0 0 " lab " - - " FWHY)
        return
    }
    printf "  score %s 0/%d  (failed)\n", FKEY0, m
    emit_score("@@ " FKEY0 " 0 " m " 1 failed - - 0 0 0 " lab " - - " FWHY)
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
    if (MEASURE && nerr > 0) { printf "R\t%s\t%s\n", label, FIRSTPROB; exit 0 }
    if (nerr > 0) {
        # the lab(s) this file was meant to hold: from its rows, else from its name
        if (nany == 0 && match(label, /lab[0-9][0-9](-finish)?/)) note_key(substr(label, RSTART, RLENGTH), "", "", "")
        printf "%s: REJECTED (%d problem%s): not a lab's --csv output as written: 0\n", label, nerr, (nerr > 1 ? "s" : "")
        for (li = 1; li <= nerr && li <= MAXERR; li++) print "  " PROB[li]
        if (nerr > MAXERR) print "  ... and " (nerr - MAXERR) " more"
        if (nany == 0) { print "  score ? 0/?"; emit_score("@@ ? 0 0 1 rejected - - 0 0 0 ? - - " FIRSTPROB) }
        for (li = 1; li <= nany; li++) {
            m = cal_max(ANY[li], NCAL == 1)
            printf "  score %s 0/%d  (rejected)\n", ANY[li], m
            lab = ANY[li]; sub(/\+.*/, "", lab)
            emit_score("@@ " ANY[li] " 0 " m " 1 rejected " ANYRUN[ANY[li]] " " ANYFP[ANY[li]] " 0 0 " ANYSOL[ANY[li]] " " lab " - - " FIRSTPROB)
        }
        exit 0
    }
    for (li = 1; li <= nkeys; li++) grade_key(KEYS[li])
}

# ---------------------------------------------------------------------------
# What mode=class gives the feedback and the page (tools/grader/grade.d/publish.awk):
#   intake=FILE   the students' intake notes (tools/grader/intake.sh's, one line each:
#                 who, a tab, refused or name, a tab, the text): each refused
#                 file is a flag of the student's (class_intake, before the scores)
#   export=FILE   the class as data, tab-separated (class_export, after the
#                 table): L COLUMN MAX; K N GPU RUN_AT RUNS FILE (each
#                 calibration); S WHO TOTAL MAX FLAGS; C WHO COLUMN CELL GOT MAX
#                 STATE FILE REPORT DEVICE CAL NOTE (one a student and column,
#                 then one for each result of theirs no column holds: COLUMN ?)
# ---------------------------------------------------------------------------
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
