# tests/tools/doc_commands.awk - the commands a reader pastes from the docs:
# every `./labNN ...` and `make ...` in a code block of README.md and docs/
# (POSIX awk; tests/tools/commands.sh and tests/gpu/gpu_docs.sh read it).
#
#   awk -f tests/tools/doc_commands.awk README.md docs/*.md
#
# prints one line per command: FILE:LINE <TAB> STATUS <TAB> COMMAND, where
# STATUS is the exit status the line is marked with (0 unless marked).
#
# The conventions it holds the docs to:
# - A command starts a line of a code block (after an optional "$ " prompt);
#   a line that ends in "\" goes on on the next. A code block fenced
#   ```text holds output only: none of its lines is a command.
# - Whatever follows " # " is a comment: a description beside a command is
#   a comment, so that the line pastes as it stands.
# - A line meant to fail says so in its comment with the status it exits
#   with: `./lab05 --sweep -n 5    # exits 2: the sweep starts at 2^10`.
# - `A && B` is two commands; a redirection (`> file`) or a pipe ends one.
#   Of each part, only `./labNN ...` (NN two digits, as ./lab05-finish) and
#   `make ...` are commands here; `./labNN` itself is a placeholder.
# - The blocks under a "<!-- newlab: ... -->" line (docs/maintainers.md) add
#   a lab that this tree does not have: tests/tools/newlab.sh runs them in a
#   scratch copy, so they are not listed here.
function flush(    parts, np, i, c, status, comment, m) {
    if (cmd == "")
        return
    status = 0
    comment = ""
    if (match(cmd, /(^| )#/)) {
        comment = substr(cmd, RSTART)
        cmd = substr(cmd, 1, RSTART - 1)
    }
    if (match(comment, /exits [0-9]+/))
        status = substr(comment, RSTART + 6, RLENGTH - 6) + 0
    np = split(cmd, parts, /&&/)
    for (i = 1; i <= np; i++) {
        c = parts[i]
        sub(/[|>].*$/, "", c)
        sub(/^[ \t]+/, "", c)
        sub(/[ \t]+$/, "", c)
        gsub(/[ \t]+/, " ", c)
        if (c ~ /^\.\/lab[0-9][0-9]([-a-z0-9]*)?( |$)/ || c ~ /^make( |$)/)
            printf "%s:%d\t%d\t%s\n", file, line, status, c
    }
    cmd = ""
}
FNR == 1 { flush(); inblock = 0; text = 0; cont = 0; newlab = 0 }
/^<!-- newlab: / { newlab = 1; next }
/^```/ {
    flush()
    if (!inblock) { inblock = 1; text = $0 ~ /^```text/ || newlab; transcript = -1 } else inblock = 0
    newlab = 0
    cont = 0
    next
}
!inblock || text { next }
{
    l = $0
    if (cont) {            # the command goes on from the line before
        more = sub(/\\$/, "", l)
        cmd = cmd " " l
        cont = more
        if (!cont)
            flush()
        next
    }
    # a block whose first line is a prompt ("$ ...") is a transcript: only
    # its prompt lines are commands, the rest is their output
    if (transcript < 0)
        transcript = l ~ /^\$ /
    if (transcript && l !~ /^\$ /)
        next
    sub(/^\$ /, "", l)
    if (l !~ /^(\.\/lab[0-9]|make( |$))/)
        next
    file = FILENAME
    line = FNR
    cont = sub(/\\$/, "", l)
    cmd = l
    if (!cont)
        flush()
}
END { flush() }
