# tools/grader/grade.d/html.awk - the class on one page (POSIX awk), after publish.awk
# (whose BEGIN loads the class and calls write_html). One self-contained HTML
# file: its style inline, its charts inline SVG, no script, nothing fetched.
#
#   <table id="gradebook">  one row per student (tr.student), the flagged ones
#                           first, then the others, each lab's cell, the
#                           total and the flags; the names as handed in
#   <svg class="dist">      one per lab: how many students scored what (tenths
#                           of the lab's maximum), and how many have none
#                           (not handed in) or not graded yet
#   <svg class="speed">     one per exercise a student passed: each student's
#                           speed (a dot; the time of the kernel it is
#                           measured against over theirs), against the
#                           instructor's solution's on the same GPU (the
#                           line at 1) where the calibration has it, else
#                           the ratio itself

function esc(s) {
    gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
    gsub(/'/, "\\&#39;", s)
    return s
}

function h(line) { print line > html }

function write_html(    s, c, n, who, cls, order, no, i) {
    printf "" > html
    h("<!DOCTYPE html>")
    h("<html lang=\"en\"><head><meta charset=\"utf-8\">")
    h("<title>The class at a glance, " esc(day) "</title>")
    h("<style>")
    h("body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 24px; color: #222; }")
    h("table { border-collapse: collapse; font-size: 13px; }")
    h("th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; }")
    h("th:first-child, td:first-child, td.name, td.flags { text-align: left; }")
    h("tr.flagged { background: #fff1ee; } td.flags { color: #a32; min-width: 16em; }")
    h("td.missing, td.node { color: #888; font-style: italic; }")
    h("section.charts { display: flex; flex-wrap: wrap; gap: 16px; }")
    h("figure { margin: 0; max-width: 440px; } figcaption { font-size: 12px; color: #555; }")
    h("</style></head><body>")
    h("<h1>The class at a glance</h1>")
    h("<p>Graded " esc(day) ": " NS " student" (NS == 1 ? "" : "s") ". " esc(cal_summary()) "</p>")

    # the gradebook, the flagged students first
    h("<h2>Gradebook</h2>")
    h("<table id=\"gradebook\"><thead><tr><th>student</th><th>name as handed in</th>")
    for (c = 1; c <= NL; c++) h("<th>" esc(LCOL[c]) "<br>(" LMAX[LCOL[c]] ")</th>")
    h("<th>total</th><th>flags</th></tr></thead><tbody>")
    no = 0
    for (s = 1; s <= NS; s++) if (SFLAGS[s] != "") order[++no] = s
    for (s = 1; s <= NS; s++) if (SFLAGS[s] == "") order[++no] = s
    for (i = 1; i <= no; i++) {
        s = order[i]; who = SWHO[s]
        cls = (SFLAGS[s] != "") ? "student flagged" : "student"
        h("<tr class=\"" cls "\"><td>" esc(who) "</td><td class=\"name\">" esc(who in DISPLAY ? DISPLAY[who] : who) "</td>")
        for (c = 1; c <= NL; c++) h(cell_html(who, LCOL[c]))
        h("<td>" STOT[s] "/" SMAX[s] "</td><td class=\"flags\">" esc(SFLAGS[s]) "</td></tr>")
    }
    h("</tbody></table>")

    h("<h2>Each lab's scores</h2>")
    h("<section class=\"charts\">")
    for (c = 1; c <= NL; c++) dist_svg(LCOL[c])
    h("</section>")

    h("<h2>Each exercise's speed across the class</h2>")
    if (NX == 0) h("<p>No student passed an exercise with a speed check.</p>")
    h("<section class=\"charts\">")
    for (n = 1; n <= NX; n++) speed_svg(n)
    h("</section>")
    h("<p id=\"end\">End of the report.</p>")
    h("</body></html>")
    close(html)
}

function cal_summary(    c, t) {
    if (NK == 0) return "Speed bars: the course's own (no calibration)."
    t = "Speed bars calibrated on"
    for (c = 1; c <= NK; c++) t = t (c > 1 ? "," : "") " " KGPU[c] " (" KRUN[c] ", " plural(KRUNS[c], "run") " a lab)"
    return t "."
}

# the gradebook cell of who's column col
function cell_html(who, col,    n) {
    for (n = 1; n <= NC[who]; n++) {
        if (CCOL[who, n] != col) continue
        if (CCELL[who, n] == "missing") return "<td class=\"missing\">missing</td>"
        if (CCELL[who, n] == "node") return "<td class=\"node\">not graded</td>"
        if (CCELL[who, n] == "-") return "<td>-</td>"
        return "<td>" esc(CCELL[who, n]) "</td>"
    }
    return "<td>-</td>"
}

# a histogram of a lab's scores: tenths of its maximum, then none and not graded
function dist_svg(col,    s, n, who, b, cnt, none, top, w, hh, x, y, bh, bw, i, lab, m, g) {
    m = LMAX[col] + 0
    for (b = 0; b <= 12; b++) cnt[b] = 0
    for (s = 1; s <= NS; s++) {
        who = SWHO[s]
        for (n = 1; n <= NC[who]; n++) {
            if (CCOL[who, n] != col) continue
            if (CCELL[who, n] == "missing") cnt[11]++
            else if (CCELL[who, n] == "node") cnt[12]++
            else if (CCELL[who, n] != "-") {
                g = CCELL[who, n] + 0
                b = (m > 0) ? int(10 * g / m) : 0
                if (b > 10) b = 10
                cnt[b]++
            }
        }
    }
    top = 0; for (b = 0; b <= 12; b++) if (cnt[b] > top) top = cnt[b]
    none = (top == 0); if (top < 1) top = 1
    bw = 24; w = 40 + 13 * (bw + 4) + 10; hh = 170
    h("<figure><svg class=\"dist\" width=\"" w "\" height=\"" hh "\" " \
      "viewBox=\"0 0 " w " " hh "\" font-size=\"10\">")
    h("<title>" esc(col) ": how many students scored what</title>")
    h("<line x1=\"36\" y1=\"130\" x2=\"" w - 6 "\" y2=\"130\" stroke=\"#888\"/>")
    if (none) h("<text x=\"" w / 2 "\" y=\"80\" text-anchor=\"middle\" fill=\"#888\">no student handed it in</text>")
    for (b = 0; b <= 12; b++) {
        x = 40 + b * (bw + 4)
        bh = 110 * cnt[b] / top
        lab = (b <= 10) ? (b * 10 "%") : (b == 11 ? "none" : "n.g.")
        h("<rect x=\"" x "\" y=\"" sprintf("%.1f", 130 - bh) "\" width=\"" bw "\" height=\"" sprintf("%.1f", bh) \
          "\" fill=\"" (b <= 10 ? "#3366aa" : "#aaaaaa") "\"><title>" esc(lab) ": " cnt[b] "</title></rect>")
        if (cnt[b] > 0) h("<text x=\"" x + bw / 2 "\" y=\"" sprintf("%.1f", 126 - bh) "\" text-anchor=\"middle\">" cnt[b] "</text>")
        h("<text x=\"" x + bw / 2 "\" y=\"144\" text-anchor=\"middle\" fill=\"#555\">" lab "</text>")
    }
    h("</svg><figcaption>" esc(col) ": students by score, in tenths of " m " points (none: not handed in; " \
      "n.g.: not graded yet)</figcaption></figure>")
}

# exercise x's speeds, one dot per student, against the solution's (1) or as ratios
function speed_svg(x,    n, lo, hi, w, hh, x0, x1, v, px, step, t, y) {
    lo = XLO[x]; hi = XHI[x]
    if (XREL[x]) { if (lo > 1) lo = 1; if (hi < 1) hi = 1 }
    if (hi - lo < 0.2) { lo -= 0.1; hi += 0.1 }
    if (lo < 0) lo = 0
    x0 = 30; x1 = 410; w = 440; hh = 110
    h("<figure><svg class=\"speed\" width=\"" w "\" height=\"" hh "\" " \
      "viewBox=\"0 0 " w " " hh "\" font-size=\"10\">")
    h("<title>" esc(XKEY[x] " " XWHAT[x]) ": the class's speeds</title>")
    h("<line x1=\"" x0 "\" y1=\"70\" x2=\"" x1 "\" y2=\"70\" stroke=\"#888\"/>")
    step = (hi - lo) / 4
    for (t = 0; t <= 4; t++) {
        v = lo + t * step; px = x0 + (x1 - x0) * (v - lo) / (hi - lo)
        h("<text x=\"" sprintf("%.1f", px) "\" y=\"86\" text-anchor=\"middle\" fill=\"#555\">" sprintf("%.2f", v) "</text>")
    }
    if (XREL[x]) {
        px = x0 + (x1 - x0) * (1 - lo) / (hi - lo)
        h("<line x1=\"" sprintf("%.1f", px) "\" y1=\"20\" x2=\"" sprintf("%.1f", px) "\" y2=\"74\" stroke=\"#cc3311\" " \
          "stroke-dasharray=\"5,3\"/>")
        h("<text x=\"" sprintf("%.1f", px) "\" y=\"15\" text-anchor=\"middle\" fill=\"#cc3311\">the solution</text>")
    }
    for (n = 1; n <= XN[x]; n++) {
        v = XV[x, n]; px = x0 + (x1 - x0) * (v - lo) / (hi - lo)
        y = 62 - 8 * ((n - 1) % 4)
        h("<circle cx=\"" sprintf("%.1f", px) "\" cy=\"" y "\" r=\"4\" fill=\"#3366aa\" fill-opacity=\"0.7\">" \
          "<title>" esc(XWHO[x, n]) ": " sprintf("%.2f", v) "</title></circle>")
    }
    h("</svg><figcaption>" esc(XKEY[x]) " " esc(XWHAT[x]) ": " plural(XN[x], "student") " who passed it; " \
      (XREL[x] ? "each one's speed over the solution's on the same GPU (1: as fast)" : \
       "each one's time ratio against its reference kernel (no calibration: no solution line)") "</figcaption></figure>")
}
