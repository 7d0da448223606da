# tests/tools/page.sh - sourced by the tests (after tests/lib.sh): the class's
# page (tools/grader/grade --html) as a real browser builds it (POSIX sh).
#
#   page_check HTML STUDENTS LABS [SPEEDS DOTS]
#
# Loads HTML in Debian's chromium, headless, with no network (--dump-dom: the
# DOM it built, not the page's text) and prints ok/FAIL lines: it loads with
# no error and whole (its last element there), no script and nothing to
# fetch, one row per student (STUDENTS) with the flagged first, one score
# chart per lab (LABS), and where given SPEEDS speed charts holding DOTS
# students' dots, with the solution's line. Without chromium: one skip line.
page_check() {
    pc_html=$1; pc_n=$2; pc_labs=$3; pc_speeds=${4:-}; pc_want=${5:-}
    pc_chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
    if [ -z "$pc_chrome" ]; then
        skip "report.html in a browser" "no chromium here (.ci/run installs it as root: apt-get install chromium)"
        return 0
    fi
    if grep -Eq '(src|href)=|<script|@import|url\(' "$pc_html"; then
        notok "report.html: self-contained" "$(grep -Eo '(src|href)=[^ ]*|<script|@import|url\(' "$pc_html" | head -n 3)"
    else ok "report.html: self-contained (no script, nothing to fetch)"; fi
    cp "$pc_html" "$TMPD/page.html"
    run timeout 120 "$pc_chrome" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$TMPD/chrome" \
        --enable-logging=stderr --v=0 --host-resolver-rules="MAP * ~NOTFOUND" --dump-dom "file://$TMPD/page.html"
    pc_dom=$TMPD/page-dom.html
    cp "$OUTF" "$pc_dom"
    pc_bad=$(grep -E 'CONSOLE|Failed to load|net::ERR_|Uncaught' "$ERRF" | head -n 3)
    if [ "$STATUS" -eq 0 ] && [ -z "$pc_bad" ] && grep -q '<p id="end">' "$pc_dom"; then
        ok "report.html: chromium loads it whole, no error ($("$pc_chrome" --version 2>/dev/null | head -n 1))"
    else notok "report.html: chromium loads it" "exit $STATUS; $pc_bad $(tail -c 300 "$ERRF")"; fi
    pc_rows=$(grep -o '<tr class="student[a-z ]*"' "$pc_dom" | wc -l | tr -d ' ')
    pc_order=$(grep -o '<tr class="student[a-z ]*"' "$pc_dom" |
        awk '/flagged/ { if (plain) print "flagged after unflagged" } !/flagged/ { plain = 1 }' | head -n 1)
    if [ "$pc_rows" -eq "$pc_n" ] && [ -z "$pc_order" ]; then ok "report.html: every student a row ($pc_rows), the flagged first"
    else notok "report.html: the gradebook's rows" "$pc_rows rows for $pc_n; $pc_order"; fi
    pc_dist=$(grep -o '<svg class="dist"' "$pc_dom" | wc -l | tr -d ' ')
    if [ "$pc_dist" -eq "$pc_labs" ]; then ok "report.html: each lab's scores, a chart each ($pc_dist)"
    else notok "report.html: each lab's chart" "$pc_dist charts for $pc_labs labs"; fi
    [ -n "$pc_speeds" ] || return 0
    pc_sp=$(grep -o '<svg class="speed"' "$pc_dom" | wc -l | tr -d ' ')
    pc_dots=$(awk '/<svg class="speed"/ { on = 1 } on && /<circle/ { n++ } /<\/svg>/ { on = 0 } END { print n + 0 }' "$pc_dom")
    if [ "$pc_sp" -eq "$pc_speeds" ] && [ "$pc_dots" -eq "$pc_want" ] && { [ "$pc_sp" -eq 0 ] || grep -q '>the solution<' "$pc_dom"; }; then
        ok "report.html: each exercise's speeds across the class against the solution ($pc_sp charts, $pc_dots dots)"
    else notok "report.html: the speed charts" "$pc_sp charts for $pc_speeds, $pc_dots dots for $pc_want"; fi
}

# md_joined FILE: FILE's markdown with each wrapped paragraph or list item on
# one line again (into $TMPD/NAME.joined, whose path it prints), code blocks
# and table rows as they are
md_joined() {
    awk '/^```/ { if (p != "") print p; p = ""; code = !code; print; next }
        code || /^(\||#|    )/ || $0 == "" { if (p != "") print p; p = ""; print; next }
        /^- / || p == "" { if (p != "") print p; p = $0; next }
        { sub(/^ +/, ""); p = p " " $0 }
        END { if (p != "") print p }' "$1" >"$TMPD/${1##*/}.joined"
    echo "$TMPD/${1##*/}.joined"
}
