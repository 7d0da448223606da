# tests/gpu/speed.awk - the direction of a lesson between rows of one run's
# CSV (tests/gpu/gpu_speed.sh; tests/tools/speed_claims.sh feeds it files
# where a direction is reversed). POSIX awk.
#
# Variables: label (the checks' names start with it); claims, checks
# separated by ";", each one of
#   "A beats B"     A's median time is below B's (the lesson's direction)
#   "A level B"     A is faster than B, or level with it: no slower beyond
#                   the rows' own spread (A's q1 no later than B's q3: their
#                   middle halves overlap) or than 2% (two medians of one
#                   kernel differ by that much from run to run; at a few
#                   microseconds, a tick of the event timer)
#   "A costs B C"   what A costs over B is less than what B loses to C:
#                   A's median - B's < B's median - C's (a fix whose price
#                   is smaller than the step B's lesson teaches, C faster)
# Each claim is checked at every n (size) where the run has its rows (a
# --sweep has several), one ok or FAIL line per claim. Where a check would
# fail and both of its rows reach 85% of the copy ceiling (pct_of_copy),
# neither has room to show the lesson: "ok ... at the ceiling on this GPU".
# A missing row, or a run with no rows, fails. Rows are read by their
# header's names (docs/output.md); only PASS rows count.
BEGIN { FS = ","; CEIL = 85; LEVEL = 1.02 }
NR == 1 {
    for (i = 1; i <= NF; i++) h[$i] = i
    if (!("kernel" in h) || !("time_ms" in h) || !("q1_ms" in h) || !("q3_ms" in h) || !("pct_of_copy" in h))
        bad_header = $0
    next
}
$(h["status"]) == "PASS" {
    n = $(h["n"]); k = $(h["kernel"])
    if (!(n in seen)) { seen[n] = 1; ns[++nn] = n }
    t[k, n] = $(h["time_ms"]) + 0; q1[k, n] = $(h["q1_ms"]) + 0; q3[k, n] = $(h["q3_ms"]) + 0
    pct[k, n] = $(h["pct_of_copy"]) + 0; have[k, n] = 1
}
function show(k, n) { return sprintf("%s %.4f ms (%.1f%% of copy)", k, t[k, n], pct[k, n]) }
END {
    nc = split(claims, cl, ";")
    for (c = 1; c <= nc; c++) {
        m = split(cl[c], w, " ")
        if (m < 3) continue
        a = w[1]; rel = w[2]; b = w[3]; cc = w[4]
        fails = ""; ceil = ""; shown = ""; checked = 0
        for (j = 1; j <= nn; j++) {
            n = ns[j]
            if (!have[a, n] && !have[b, n] && (rel != "costs" || !have[cc, n])) continue
            if (!have[a, n] || !have[b, n] || (rel == "costs" && !have[cc, n])) {
                fails = fails sprintf(" n=%s: no PASS row for %s;", n,
                                      !have[a, n] ? a : !have[b, n] ? b : cc)
                continue
            }
            checked++
            if (rel == "beats") good = t[a, n] < t[b, n]
            else if (rel == "level") good = q1[a, n] <= q3[b, n] || t[a, n] <= t[b, n] * LEVEL
            else if (rel == "costs") good = t[a, n] - t[b, n] < t[b, n] - t[cc, n]
            else { fails = fails " unknown claim '" cl[c] "';"; continue }
            if (good) { if (shown == "") shown = sprintf("%s, %s", show(a, n), show(b, n)); continue }
            if (pct[a, n] >= CEIL && pct[b, n] >= CEIL) {
                ceil = ceil sprintf(" n=%s", n)
                continue
            }
            third = (rel == "costs") ? ", " show(cc, n) : ""
            fails = fails sprintf(" n=%s: %s, %s (q1..q3 %.4f..%.4f and %.4f..%.4f)%s;", n, show(a, n),
                                  show(b, n), q1[a, n], q3[a, n], q1[b, n], q3[b, n], third)
        }
        what = rel == "beats" ? a " beats " b : rel == "level" ? a " no slower than " b \
             : a " costs less over " b " than " b " loses to " cc
        where = (checked > 1) ? sprintf(" at %d sizes", checked) : ""
        detail = (checked > 1) ? "every n" : shown
        if (bad_header != "") printf "FAIL %s: %s: the CSV's header lacks a column: %s\n", label, what, substr(bad_header, 1, 120)
        else if (fails != "" || !checked) printf "FAIL %s: %s:%s\n", label, what, fails == "" ? " no rows" : fails
        else if (ceil != "") printf "ok %s: %s%s, at the ceiling on this GPU (%s)\n", label, what, where, substr(ceil, 2)
        else printf "ok %s: %s%s (%s)\n", label, what, where, detail
    }
}
