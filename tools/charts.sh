#!/bin/sh
# tools/charts.sh - every kept chart redrawn from the runs it was drawn from
# (make charts; POSIX sh, no GPU needed).
#
#   sh tools/charts.sh [--check] [DIR...]      (default: docs/results/*/)
#
# Each SVG of DIR records in its <desc> (tools/chart writes it) the options
# it was drawn with and the CSV files it was drawn from, which sit beside it,
# each with its cksum and size. Without --check, each chart is drawn again
# from its files as they are now (tools/chart, the same options), and
# replaced where that differs. With --check nothing is written: one line for
# each chart that is not current, and why:
#   - no record: not drawn by tools/chart (a chart kept by hand);
#   - a file it was drawn from is gone;
#   - a file changed since: the chart is older than its data;
#   - the drawing differs from what tools/chart draws from the same data
#     (edited by hand, or tools/chart changed since).
# make snapshots runs it after the runs it keeps (docs/results/<gpu>/);
# tests/tools/charts.sh runs --check.
# Exit status: 0 every chart current (or redrawn); 1 a chart not current
# (--check) or that cannot be redrawn; 2 bad usage.
cd "$(dirname "$0")/.." || exit 2
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
case ${1:-} in -*) echo "usage: sh tools/charts.sh [--check] [DIR...]" >&2; exit 2 ;; esac
[ $# -eq 0 ] && set -- docs/results/*/
tmp=$(mktemp -d "${TMPDIR:-/tmp}/charts.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# unxml: the text of an XML attribute or element, unescaped
unxml() { sed 's/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g'; }

bad=0 n=0 redrawn=0
for d in "$@"; do
    for svg in "${d%/}"/*.svg; do
        [ -f "$svg" ] || continue
        n=$((n + 1))
        dir=$(dirname "$svg")
        awk '/^<desc>$/ { on = 1; next } /^<\/desc>$/ { exit } on' "$svg" | unxml >"$tmp/made"
        if ! grep -q '^data ' "$tmp/made"; then
            echo "$svg: no record of its data (not drawn by tools/chart): draw it with tools/chart"
            bad=1
            continue
        fi
        type=$(sed -n 's/^tools\/chart -t //p' "$tmp/made")
        note=$(sed -n 's/^tools\/chart -n //p' "$tmp/made")
        day=$(sed -n 's/^tools\/chart -d //p' "$tmp/made")
        set --
        why= gone=0
        while read -r _ f sum size; do
            if [ ! -f "$dir/$f" ]; then why="$f, which it was drawn from, is gone"; gone=1; break; fi
            now=$(cksum <"$dir/$f" | awk '{ print $1, $2 }')
            [ "$now" = "$sum $size" ] || why="${why:+$why; }older than its data: $f changed since it was drawn"
            set -- "$@" "$dir/$f"
        done <<EOF
$(grep '^data ' "$tmp/made")
EOF
        if [ -n "$why" ] && { [ $check -eq 1 ] || [ $gone -eq 1 ]; }; then
            echo "$svg: $why$([ $check -eq 1 ] && echo ' (make charts redraws it)')"
            bad=1
            continue
        fi
        if ! sh tools/chart ${type:+-t "$type"} -n "$note" -d "$day" "$@" >"$tmp/new.svg" 2>"$tmp/err"; then
            echo "$svg: tools/chart cannot draw it again: $(head -n 1 "$tmp/err")"
            bad=1
            continue
        fi
        cmp -s "$tmp/new.svg" "$svg" && continue
        if [ $check -eq 1 ]; then
            echo "$svg: not what tools/chart draws from its data (edited by hand, or tools/chart changed: make charts)"
            bad=1
        else
            cp "$tmp/new.svg" "$svg" && redrawn=$((redrawn + 1)) && echo "  redrawn: $svg"
        fi
    done
done
[ $check -eq 1 ] || echo "charts: $n kept, $redrawn redrawn"
exit $bad
