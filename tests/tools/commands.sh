#!/bin/sh
# tests/tools/commands.sh - every command the docs give a reader to paste
# runs (POSIX sh, no GPU needed): each `./labNN ...` and `make ...` line of a
# code block of README.md and docs/ (tests/tools/doc_commands.awk finds
# them and says the conventions: a description is a `#` comment, a line
# meant to fail is marked `# exits N`). Here, parse-only:
# - `./labNN ARGS` runs as `./labNN ARGS --dry-run`, which parses, prints
#   the plan and exits 0 without opening a device; a line marked `# exits 2`
#   (bad input) must exit 2, a line marked with another status (a run's
#   verdict) must still parse (0). A GPU lab not built here is skipped.
# - `make ARGS` runs as `make -n ARGS` (every target and variable known; a
#   VAR=value names one of the variables `make help` lists).
# Each distinct command once. With a GPU, tests/gpu/gpu_docs.sh runs them
# as written. Run from the repository root (tests/run does).
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

LIST=$TMPD/commands
awk -f tests/tools/doc_commands.awk README.md docs/*.md >"$LIST"
total=$(wc -l <"$LIST" | tr -d ' ')
if [ "$total" -lt 100 ]; then
    notok "the docs' commands found" "only $total (tests/tools/doc_commands.awk reads the code blocks)"
else
    ok "the docs' commands found: $total lines of code blocks"
fi

# the variables make takes (the Makefile's "things you may set")
VARS=$(awk '/^# ---- things you may set/ { on = 1; next } on && !NF { exit }
    on && /^[A-Z_]+ +\?=/ { print $1 }' Makefile | tr '\n' ' ')

# each distinct command once: the first line that gives it, and its status
awk -F'\t' '!seen[$3 "\t" $2]++' "$LIST" >"$LIST.u"
nlab=0; nmake=0; nskip=0; bad=0
while IFS='	' read -r where want cmd; do
    # shellcheck disable=SC2086
    set -f; set -- $cmd; set +f
    case $1 in
        make)
            shift
            for w in "$@"; do
                case $w in
                    *=*) case " $VARS " in *" ${w%%=*} "*) ;; *)
                        notok "$where: $cmd" "make takes no variable ${w%%=*} (make help lists them)"
                        bad=$((bad + 1)) ;; esac ;;
                esac
            done
            run make -n --no-print-directory "$@"
            nmake=$((nmake + 1))
            exp=$want; [ "$exp" -ne 2 ] && exp=0
            ;;
        *)
            if [ ! -x "$1" ]; then nskip=$((nskip + 1)); continue; fi
            bin=$1; shift
            run "$bin" "$@" --dry-run
            nlab=$((nlab + 1))
            exp=$want; [ "$exp" -ne 2 ] && exp=0
            case " $* " in *" -h "* | *" --help "* | *" --list "* | *" --capabilities "*) plan=0 ;; *) plan=1 ;; esac
            if [ "$STATUS" -eq 0 ] && [ $plan -eq 1 ] && ! grep -q "no device was opened" "$OUTF"; then
                notok "$where: $cmd" "--dry-run printed no plan: $(head -c 200 "$OUTF")"
                bad=$((bad + 1))
                continue
            fi
            ;;
    esac
    if [ "$STATUS" -ne "$exp" ]; then
        notok "$where: $cmd" "exit $STATUS, marked to exit $want (parse-only: $exp); $(head -c 240 "$ERRF")"
        bad=$((bad + 1))
    fi
done <"$LIST.u"
[ $bad -eq 0 ] && ok "every command of the docs parses as marked ($nlab lab lines --dry-run, $nmake make -n)"
[ $nskip -gt 0 ] && skip "the docs' commands of labs not built here" "$nskip lines (no nvcc?)"

# the marking is held: a line marked to exit 2 must, and one the parser
# refuses is caught (the test itself, on a made-up page)
cat >"$TMPD/page.md" <<'EOF'
```sh
./lab01 -n 0                  # exits 2: n starts at 1
./lab01 -n 17                 the description without a '#'
make lab01 && ./lab01 -r 3 > out.csv
```
```text
make bench on a GPU: output, not a command
```
EOF
awk -f tests/tools/doc_commands.awk "$TMPD/page.md" | cut -f 2,3 >"$TMPD/page.got"
printf '2\t./lab01 -n 0\n0\t./lab01 -n 17 the description without a '"'"'#'"'"'\n0\tmake lab01\n0\t./lab01 -r 3\n' \
    >"$TMPD/page.want"
if cmp -s "$TMPD/page.got" "$TMPD/page.want"; then ok "doc_commands.awk: marks, comments, && and > and text blocks"
else notok "doc_commands.awk on a made-up page" "$(tr '\t\n' ' |' <"$TMPD/page.got" | cut -c 1-200)"; fi
if [ -x ./lab01 ]; then
    expect_usage "a description without '#' fails --dry-run (exit 2)" ./lab01 -n 17 the description --dry-run
    expect_usage "./lab01 -n 0 --dry-run exits 2, as marked" ./lab01 -n 0 --dry-run
fi
