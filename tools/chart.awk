# tools/chart.awk - an SVG chart of one lab's --csv output (POSIX awk).
#
#   awk -v date=YYYY-MM-DD [-v note=TEXT] [-v type=bars|lines] -f tools/chart.awk FILE.csv > FILE.svg
#
# tools/chart is the friendlier way to call it. Two kinds of chart:
#   bars   one horizontal bar per kernel: its GB/s as a percentage of the copy
#          ceiling measured in the same run, with a line at 100%; FAIL rows in red.
#   lines  GB/s over n (log2 axis), one line per kernel, the ceiling dashed and
#          the theoretical peak dotted: for lab05's --sweep.
#   runs   two files or more (the same lab built two ways: lab06 with DLCM=ca
#          and DLCM=cg): grouped by kernel, one bar per file, each against its
#          own run's copy ceiling; the legend names each run by its build.
#   bench  tools/bench.sh's bench.csv (found by its columns): each bar's
#          measured value over the bar, a dot per bar, a line at 1 (the bar).
# The default is runs for several files, lines when the file holds three
# sizes or more, else bars.
# The SVG is standalone (no script, no external font or style) and opens in
# any browser; each bar and point carries a tooltip with its numbers.
# Exit status: 0 chart written; 1 the file is not a lab's --csv output.

BEGIN {
    FS = ","
    nrows = 0; nk = 0; nsz = 0
    split("#3366aa #ee6677 #228833 #ccbb44 #66ccee #aa3377 #777777 #ee7733 #000000 #009988", PAL, " ")
    NPAL = 10
    split("none 6,3 2,2 8,3,2,3", DASH, " ")
}

function xml(s) {
    gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
    return s
}

function die(msg) {
    print "chart: " msg | "cat 1>&2"
    close("cat 1>&2")
    FAILED = 1
    exit 1
}

{ sub(/\r$/, "") }
FNR == 1 { nfile++; FNAME[nfile] = FILENAME; have_header = 0 }
$0 ~ /^[ \t]*$/ { next }
!have_header {
    split("", C)
    for (i = 1; i <= NF; i++) C[$i] = i
    # tools/bench.sh's bench.csv: one row per bar (drawn by bench() below)
    if (("verdict" in C) && ("measured" in C) && ("bar" in C) && ("device" in C)) {
        BENCH = 1; have_header = 1; ncol = NF; hdr = $0
        next
    }
    split("lab device kernel n nx ny gbps pct_of_copy ceiling_gbps peak_gbps status", need, " ")
    for (i = 1; i in need; i++)
        if (!(need[i] in C)) die(FILENAME ": no column '" need[i] "': not the output of ./labNN --csv")
    have_header = 1; ncol = NF; hdr = $0
    next
}
$0 == hdr { next }
BENCH {
    if (NF != ncol) die(FILENAME ":" FNR ": " NF " fields, the header has " ncol)
    nrows++
    DEV = $C["device"]
    BL[nrows] = ($C["group"] == "sweep" ? $C["type"] " n = " $C["size"] : $C["size"]) ": " $C["what"]
    BM[nrows] = $C["measured"]; BB[nrows] = $C["bar"] + 0; BU[nrows] = $C["unit"]
    BV[nrows] = $C["verdict"]; BK[nrows] = $C["kernel"]
    next
}
{
    if (NF != ncol) die(FILENAME ":" FNR ": " NF " fields, the header has " ncol)
    nrows++
    LAB = $C["lab"]; DEV = $C["device"]
    K[nrows] = $C["kernel"]; NN[nrows] = $C["n"] + 0
    SZ[nrows] = ($C["nx"] + 0 > 0) ? $C["nx"] "x" $C["ny"] : $C["n"]
    G[nrows] = $C["gbps"] + 0; P[nrows] = $C["pct_of_copy"] + 0
    CE[nrows] = $C["ceiling_gbps"] + 0; PK = $C["peak_gbps"] + 0
    ST[nrows] = $C["status"]
    BYTES[nrows] = ("bytes" in C) ? $C["bytes"] + 0 : 0
    FI[nrows] = nfile; FSZ[nfile] = SZ[nrows]; FCE[nfile] = CE[nrows]
    if (!(nfile in FBUILD)) FBUILD[nfile] = ("build" in C) ? $C["build"] : ""
    if (!((K[nrows], nfile) in KROW)) KROW[K[nrows], nfile] = nrows
    if (!(K[nrows] in KSEEN)) { KSEEN[K[nrows]] = ++nk; KN[nk] = K[nrows] }
    if (!(SZ[nrows] in SSEEN)) { SSEEN[SZ[nrows]] = ++nsz; SN[nsz] = NN[nrows]; STXT[nsz] = SZ[nrows]; SCEIL[nsz] = CE[nrows] }
}

# --------------------------------------------------------------------------
# log2 by arithmetic alone (some small awks are built without log())
function log2(x,    e, y, y2, t, s, k) {
    if (x <= 0) return 0
    e = 0
    while (x >= 2) { x /= 2; e++ }
    while (x < 1) { x *= 2; e-- }
    y = (x - 1) / (x + 1); y2 = y * y; t = y; s = 0     # ln x = 2 atanh(y), y <= 1/3
    for (k = 1; k < 40; k += 2) { s += t / k; t *= y2 }
    return e + 2 * s / 0.69314718055994530942
}

# a round step giving about `want` ticks from 0 to top
function nice_step(top, want,    raw, mag, f) {
    raw = top / want
    mag = 1
    while (mag * 10 <= raw) mag *= 10
    while (mag > raw) mag /= 10
    f = raw / mag
    if (f <= 1) return mag
    if (f <= 2) return 2 * mag
    if (f <= 5) return 5 * mag
    return 10 * mag
}

function mib(b) { return sprintf("%.1f MiB", b / 1048576) }

function header(w, h, title, sub1, sub2) {
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n", w, h, w, h
    printf "<title>%s</title>\n", xml(title)
    if (ENVIRON["CHART_MADE"] != "") printf "<desc>\n%s\n</desc>\n", xml(ENVIRON["CHART_MADE"])
    printf "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h
    printf "<text x=\"16\" y=\"26\" font-size=\"17\" font-weight=\"bold\">%s</text>\n", xml(title)
    printf "<text x=\"16\" y=\"46\" fill=\"#444444\">%s</text>\n", xml(sub1)
    if (sub2 != "") printf "<text x=\"16\" y=\"63\" fill=\"#444444\">%s</text>\n", xml(sub2)
}

# The % of copy axis of a bar chart whose bars run from x0 (0%) to x1
# (xmax %) between the heights top and bottom: a grid line and its label
# every `step` %, and the copy ceiling (100%) dashed, labelled above.
function pct_axis(x0, x1, xmax, step, top, bottom,    v) {
    for (v = 0; v <= xmax + 0.001; v += step) {
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>\n", x0 + (x1 - x0) * v / xmax, top - 6, x0 + (x1 - x0) * v / xmax, bottom
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%d%%</text>\n", x0 + (x1 - x0) * v / xmax, bottom + 18, v
    }
    v = x0 + (x1 - x0) * 100 / xmax
    printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cc3311\" stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n", v, top - 6, v, bottom + 4
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#cc3311\">copy ceiling = 100%%</text>\n", v, top - 10
}

function title_text() {
    return LAB " - " DEV (note != "" ? " - " note : "") (date != "" ? " - " date : "")
}

# --------------------------------------------------------------------------
# bars: one per row, GB/s as % of the ceiling
function bars(    i, maxp, xmax, labw, len, x0, x1, top, rowh, w, h, y, bw, step, lab, col, sub1, sub2, tip, sz) {
    maxp = 100
    labw = 0
    for (i = 1; i <= nrows; i++) {
        if (P[i] > maxp) maxp = P[i]
        lab = K[i] (nsz > 1 ? "  (" SZ[i] ")" : "")
        LBL[i] = lab
        len = length(lab)
        if (len > labw) labw = len
    }
    step = 20
    xmax = step * int((maxp * 1.04 + step - 0.001) / step)
    x0 = 24 + labw * 7.3            # the bars start here (12px labels)
    x1 = x0 + 520                   # xmax ends here
    w = x1 + 190
    rowh = 26; top = 100
    h = top + nrows * rowh + 50
    if (nsz == 1) {
        sz = STXT[1]
        sub1 = "n = " sz (BYTES[1] > 0 ? " (" mib(BYTES[1]) " moved)" : "") "; bar: GB/s as % of the copy ceiling of the same run"
        sub2 = sprintf("ceiling %.0f GB/s (copy of the same bytes, read+write counted)%s", SCEIL[1], (PK > 0 ? sprintf("; theoretical peak %.0f GB/s", PK) : ""))
    } else {
        sub1 = "bar: GB/s as % of the copy ceiling measured in the same run at the same size"
        sub2 = (PK > 0) ? sprintf("theoretical peak %.0f GB/s", PK) : ""
    }
    header(w, h, title_text(), sub1, sub2)
    pct_axis(x0, x1, xmax, step, top, top + nrows * rowh)
    for (i = 1; i <= nrows; i++) {
        y = top + (i - 1) * rowh
        bw = (x1 - x0) * (P[i] > 0 ? P[i] : 0) / xmax
        col = (ST[i] == "PASS") ? "#3366aa" : "#cc3311"
        tip = sprintf("%s%s: %.2f GB/s, %.1f%% of the %.0f GB/s ceiling, %s", K[i], (nsz > 1 ? " at " SZ[i] : ""), G[i], P[i], CE[i], ST[i])
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">%s</text>\n", x0 - 8, y + 16, xml(LBL[i])
        printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"17\" fill=\"%s\"><title>%s</title></rect>\n", x0, y + 4, bw, col, xml(tip)
        printf "<text x=\"%.1f\" y=\"%d\" stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\"%s>%s</text>\n", x0 + bw + 6, y + 16,
               (ST[i] == "PASS" ? "" : " fill=\"#cc3311\" font-weight=\"bold\""),
               xml(sprintf((G[i] >= 100 ? "%.0f" : "%.3g") " GB/s (%.1f%%)%s", G[i], P[i], (ST[i] == "PASS" ? "" : " FAIL")))
    }
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%% of the copy ceiling</text>\n", (x0 + x1) / 2, top + nrows * rowh + 38
    print "</svg>"
}

# --------------------------------------------------------------------------
# lines: GB/s over log2 n, one line per kernel
function px(n) { return L + (R - L) * (log2(n) - LX0) / (LX1 - LX0) }
function py(g) { return B - (B - T) * g / YMAX }

function lines(    i, j, k, ymax, step, v, w, h, pts, col, dash, lx, ly, kk, order, tip, lo, hi, every, e) {
    # sizes in increasing order
    for (i = 1; i <= nsz; i++) ORD[i] = i
    for (i = 2; i <= nsz; i++) for (j = i; j > 1 && SN[ORD[j]] < SN[ORD[j - 1]]; j--) { k = ORD[j]; ORD[j] = ORD[j - 1]; ORD[j - 1] = k }
    lo = SN[ORD[1]]; hi = SN[ORD[nsz]]
    LX0 = int(log2(lo)); LX1 = int(log2(hi) + 0.999999)
    if (LX1 <= LX0) LX1 = LX0 + 1
    ymax = 0
    for (i = 1; i <= nrows; i++) { if (G[i] > ymax) ymax = G[i]; if (CE[i] > ymax) ymax = CE[i] }
    if (PK > ymax) ymax = PK
    if (ymax <= 0) ymax = 1
    step = nice_step(ymax * 1.05, 6)
    YMAX = step * int((ymax * 1.05) / step + 0.999)
    w = 960; h = 560
    L = 80; R = 700; T = 84; B = 490
    header(w, h, title_text(), "GB/s (bytes the algorithm must move / median time) over n, log2 axis",
           "dashed: the copy ceiling measured at each n in the same run" (PK > 0 ? sprintf("; dotted: theoretical peak %.0f GB/s", PK) : ""))
    # axes and grid
    for (v = 0; v <= YMAX + step / 1000; v += step) {
        printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", L, py(v), R, py(v)
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555555\">%s</text>\n", L - 6, py(v) + 4, v
    }
    every = (LX1 - LX0 > 14) ? 2 : 1
    for (e = LX0; e <= LX1; e++) {
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eeeeee\"/>\n", L + (R - L) * (e - LX0) / (LX1 - LX0), T, L + (R - L) * (e - LX0) / (LX1 - LX0), B
        if ((e - LX0) % every == 0)
            printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">2<tspan dy=\"-6\" font-size=\"9\">%d</tspan></text>\n", L + (R - L) * (e - LX0) / (LX1 - LX0), B + 20, e
    }
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n", L, B, R, B
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n", L, T, L, B
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333333\">n (elements)</text>\n", (L + R) / 2, B + 44
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333333\" transform=\"rotate(-90 %d %d)\">GB/s</text>\n", 24, (T + B) / 2, 24, (T + B) / 2
    # peak and ceiling
    if (PK > 0) {
        printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#999999\" stroke-dasharray=\"2,3\"/>\n", L, py(PK), R, py(PK)
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#777777\">theoretical peak</text>\n", R - 4, py(PK) - 5
    }
    pts = ""
    for (i = 1; i <= nsz; i++) pts = pts sprintf("%.1f,%.1f ", px(SN[ORD[i]]), py(SCEIL[ORD[i]]))
    printf "<polyline points=\"%s\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"7,4\"/>\n", pts
    # one line per kernel
    for (k = 1; k <= nk; k++) {
        col = PAL[(k - 1) % NPAL + 1]
        dash = DASH[int((k - 1) / NPAL) % 4 + 1]
        pts = ""
        for (i = 1; i <= nsz; i++)
            for (j = 1; j <= nrows; j++)
                if (K[j] == KN[k] && SZ[j] == STXT[ORD[i]]) pts = pts sprintf("%.1f,%.1f ", px(NN[j]), py(G[j]))
        printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", pts, col, (dash == "none" ? "" : " stroke-dasharray=\"" dash "\"")
        for (j = 1; j <= nrows; j++) {
            if (K[j] != KN[k]) continue
            tip = sprintf("%s at n = %s: %.2f GB/s, %.1f%% of the %.0f GB/s ceiling, %s", K[j], SZ[j], G[j], P[j], CE[j], ST[j])
            if (ST[j] == "PASS")
                printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s</title></circle>\n", px(NN[j]), py(G[j]), col, xml(tip)
            else
                printf "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#cc3311\" stroke-width=\"2\"><title>%s</title></path>\n", px(NN[j]) - 4, py(G[j]) - 4, xml(tip)
        }
    }
    # legend
    lx = R + 24; ly = T + 4
    for (k = 1; k <= nk; k++) {
        col = PAL[(k - 1) % NPAL + 1]
        dash = DASH[int((k - 1) / NPAL) % 4 + 1]
        printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", lx, ly + (k - 1) * 20, lx + 26, ly + (k - 1) * 20, col, (dash == "none" ? "" : " stroke-dasharray=\"" dash "\"")
        printf "<text x=\"%d\" y=\"%d\">%s</text>\n", lx + 32, ly + (k - 1) * 20 + 4, xml(KN[k])
    }
    ly += nk * 20
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"7,4\"/>\n", lx, ly, lx + 26, ly
    printf "<text x=\"%d\" y=\"%d\">copy ceiling</text>\n", lx + 32, ly + 4
    print "</svg>"
}

# --------------------------------------------------------------------------
# runs: several files side by side, grouped by kernel, one bar per file

# what tells run f apart: its build without the GPU code ("dlcm=ca"), else
# its file name
function run_label(f,    b, g) {
    b = FBUILD[f]
    sub(/^(sm_[0-9]+|fat|cpu)\+?/, "", b)
    sub(/\+?solutions$/, "", b)
    if (b == "") b = "default build"
    for (g = 1; g <= nfile; g++)
        if (g != f && FBUILD[g] == FBUILD[f]) {
            b = FNAME[f]; sub(/.*\//, "", b); sub(/\.csv$/, "", b)
            break
        }
    return b
}

function runs(    i, f, k, maxp, xmax, labw, len, x0, x1, top, barh, grouph, w, h, y, bw, step, col, tip, lx, sub1) {
    maxp = 100; labw = 0
    for (i = 1; i <= nrows; i++) if (P[i] > maxp) maxp = P[i]
    for (k = 1; k <= nk; k++) { len = length(KN[k]); if (len > labw) labw = len }
    for (f = 1; f <= nfile; f++) RL[f] = run_label(f)
    step = 20
    xmax = step * int((maxp * 1.04 + step - 0.001) / step)
    x0 = 24 + labw * 7.3
    x1 = x0 + 520
    w = x1 + 190
    barh = 15; grouph = nfile * (barh + 2) + 12
    top = 100 + 18 * nfile
    h = top + nk * grouph + 50
    sub1 = "bars: GB/s as % of the copy ceiling of each bar's own run; a group per kernel, a bar per run"
    header(w, h, LAB " - " DEV " - " (note != "" ? note : "runs side by side") (date != "" ? " - " date : ""), sub1, "")
    for (f = 1; f <= nfile; f++) {     # the legend: a run per line
        col = PAL[(f - 1) % NPAL + 1]
        y = 70 + (f - 1) * 18
        printf "<rect x=\"16\" y=\"%d\" width=\"14\" height=\"12\" fill=\"%s\"/>\n", y, col
        printf "<text x=\"36\" y=\"%d\">%s</text>\n", y + 10,
               xml(sprintf("%s: n = %s, copy ceiling %.0f GB/s (%s)", RL[f], FSZ[f], FCE[f], FBUILD[f]))
    }
    pct_axis(x0, x1, xmax, step, top, top + nk * grouph)
    for (k = 1; k <= nk; k++) {
        y = top + (k - 1) * grouph
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">%s</text>\n", x0 - 8, y + 4 + (nfile * (barh + 2)) / 2 + 4, xml(KN[k])
        for (f = 1; f <= nfile; f++) {
            lx = y + 4 + (f - 1) * (barh + 2)
            if (!((KN[k], f) in KROW)) {
                printf "<text x=\"%.1f\" y=\"%d\" fill=\"#777777\">(not in this run)</text>\n", x0 + 6, lx + 12
                continue
            }
            i = KROW[KN[k], f]
            bw = (x1 - x0) * (P[i] > 0 ? P[i] : 0) / xmax
            col = (ST[i] == "PASS") ? PAL[(f - 1) % NPAL + 1] : "#cc3311"
            tip = sprintf("%s, %s: %.2f GB/s, %.1f%% of the %.0f GB/s ceiling, %s", K[i], RL[f], G[i], P[i], CE[i], ST[i])
            printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>\n", x0, lx, bw, barh, col, xml(tip)
            printf "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\"%s>%s</text>\n", x0 + bw + 6, lx + 12,
                   (ST[i] == "PASS" ? "" : " fill=\"#cc3311\" font-weight=\"bold\""),
                   xml(sprintf((G[i] >= 100 ? "%.0f" : "%.3g") " GB/s (%.1f%%) %s%s", G[i], P[i], RL[f], (ST[i] == "PASS" ? "" : " FAIL")))
        }
    }
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%% of the copy ceiling of its run</text>\n", (x0 + x1) / 2, top + nk * grouph + 38
    print "</svg>"
}

# --------------------------------------------------------------------------
# bench: tools/bench.sh's bars, each measured value over its bar (1 = the
# bar), a dot per bar joined to the bar's line; met in blue, missed in red
function bx(r) { return BX0 + (BX1 - BX0) * (r - BLO) / (BHI - BLO) }

function bench(    i, r, lo, hi, labw, len, top, rowh, w, h, y, step, v, col, txt, tip, u) {
    lo = 0.9; hi = 1.1; labw = 0
    for (i = 1; i <= nrows; i++) {
        len = length(BL[i]); if (len > labw) labw = len
        if (BM[i] == "" || BB[i] <= 0) continue
        r = BM[i] / BB[i]
        if (r < lo) lo = r
        if (r > hi) hi = r
    }
    step = nice_step(hi - lo, 8)
    BLO = step * int(lo / step); BHI = step * int(hi / step + 0.999999)
    BX0 = 24 + labw * 7.3; BX1 = BX0 + 460
    w = BX1 + 300; rowh = 20; top = 100
    h = top + nrows * rowh + 50
    header(w, h, "make bench - " DEV (note != "" ? " - " note : "") (date != "" ? " - " date : ""),
           "each bar: the measured value over the bar (1 = the bar; at or right of it: met)",
           "measured in one run against the same run's reference row (medians of CUDA-event times)")
    for (v = BLO; v <= BHI + step / 1000; v += step) {
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>\n", bx(v), top - 6, bx(v), top + nrows * rowh
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%.2f</text>\n", bx(v), top + nrows * rowh + 18, v
    }
    printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cc3311\" stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n", bx(1), top - 6, bx(1), top + nrows * rowh + 4
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#cc3311\">the bar</text>\n", bx(1), top - 10
    for (i = 1; i <= nrows; i++) {
        y = top + (i - 1) * rowh
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">%s</text>\n", BX0 - 8, y + 14, xml(BL[i])
        if (BM[i] == "" || BB[i] <= 0) {
            printf "<text x=\"%.1f\" y=\"%d\" fill=\"#777777\">%s</text>\n", bx(1) + 8, y + 14, xml(BV[i])
            continue
        }
        r = BM[i] / BB[i]
        u = BU[i] == "%" ? "%" : "x"
        col = BV[i] == "met" ? "#3366aa" : "#cc3311"
        txt = BM[i] u " " BV[i] " (" BK[i] ")"
        tip = BL[i] ": " BM[i] u ", bar " BB[i] u ", " BV[i] ", " BK[i]
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n", bx(1), y + 10, bx(r), y + 10, col
        printf "<circle cx=\"%.1f\" cy=\"%d\" r=\"4.5\" fill=\"%s\"><title>%s</title></circle>\n", bx(r), y + 10, col, xml(tip)
        printf "<text x=\"%.1f\" y=\"%d\" stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\"%s>%s</text>\n",
               (r >= 1 ? bx(r) : bx(1)) + 10, y + 14, (BV[i] == "met" ? "" : " fill=\"#cc3311\" font-weight=\"bold\""), xml(txt)
    }
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">measured / bar</text>\n", (BX0 + BX1) / 2, top + nrows * rowh + 38
    print "</svg>"
}

END {
    if (FAILED) exit 1
    if (BENCH) { if (nrows == 0) die(FILENAME ": no data rows"); bench(); exit 0 }
    if (!have_header) die(FILENAME ": empty, or no header: not the output of ./labNN --csv")
    if (nrows == 0) die(FILENAME ": no data rows")
    if (nfile > 1 && type != "" && type != "runs") die("-t " type " draws one file; several files are drawn as runs side by side")
    if (type == "") type = (nfile > 1) ? "runs" : (nsz >= 3) ? "lines" : "bars"
    if (type == "runs") runs()
    else if (type == "lines") lines()
    else bars()
}
