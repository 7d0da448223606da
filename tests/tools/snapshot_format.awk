# tests/tools/snapshot_format.awk - the pasted outputs of the chapters are in the
# programs' format of today (tests/tools/docs.sh runs it on docs/labNN*.md; POSIX
# awk). Numbers are never compared, only the shape of what a program prints:
#   - each block a program printed (first line "$ ./lab...", "$ build/...",
#     "$ make ...") has a "<!-- run: COMMAND -->" line above it (make
#     snapshots writes them) naming its command, and a "_Measured on ..._"
#     line under it (the GPU, toolkit and date);
#   - every line of it fits in 100 columns;
#   - a table's banner: its field names among today's, in today's order, and
#     a speedup column has its "speedup" line;
#   - the summary line in today's words: "labNN: PASS - 2 of 2 kernels
#     verified; fastest NAME: 580 GB/s (19.0% of copy)".
# Prints one line per problem, "FILE:LINE: what"; nothing when all is well.
BEGIN {
    order = "device ceiling build size grid block timed speedup columns total"
    n = split(order, names, " ")
    for (i = 1; i <= n; i++) rank[names[i]] = i
}
# a block that ends its file has no line under it: that is a missing one too
function no_made(file, line) { print file ":" line ": no \"_Measured on GPU, toolkit, date_\" line under the block" }
FNR == 1 && want_made { no_made(prev_file, prev_fnr + 1) }
FNR == 1 { in_block = 0; marker = ""; want_made = 0 }
{ prev_file = FILENAME; prev_fnr = FNR }
END { if (want_made) no_made(prev_file, prev_fnr + 1) }
want_made {
    want_made = 0
    if ($0 !~ /^_Measured on .*[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/) no_made(FILENAME, FNR)
}
/^<!-- run( on [a-z0-9-]+)?: .* -->$/ { marker = $0; sub(/^<!-- run( on [a-z0-9-]+)?: /, "", marker); sub(/ -->$/, "", marker); next }
/^```/ && !in_block {
    in_block = 1; first = 1; start = FNR; last_rank = 0; has_speedup_col = 0; has_speedup_line = 0
    mark = marker; marker = ""
    next
}
in_block && /^```/ {
    in_block = 0
    if (ours) {
        if (has_speedup_col && !has_speedup_line)
            print FILENAME ":" start ": a table with a speedup column and no \"speedup\" banner line (an older format)"
        want_made = 1
    }
    ours = 0
    next
}
in_block && first {
    first = 0
    ours = $0 ~ /^\$ (\.\/lab|build\/|make )/
    if (ours && mark != substr($0, 3))
        print FILENAME ":" FNR ": \"" $0 "\" has no <!-- run: " substr($0, 3) " --> line above it (make snapshots)"
    next
}
in_block && ours {
    if (/^\$ /) last_rank = 0 # the next command's output, in the same block
    # (a usage error is one line whatever its length: exit 2 and what to give)
    if (length($0) > 100 && $0 !~ /^lab[0-9][0-9](-[a-z]+)?: -/) print FILENAME ":" FNR ": " length($0) " columns"
    # a banner line: one of today's field names at column 1, blanks to column 9, its text from 10
    if ($0 ~ /^[a-z]+ +/ && $0 !~ /^[a-z]+ +\|/ && ($1 in rank) && length($1) < 9 &&
        substr($0, length($1) + 1, 9 - length($1)) ~ /^ +$/ && substr($0, 10, 1) != " ") {
        if (rank[$1] < last_rank) print FILENAME ":" FNR ": banner field \"" $1 "\" out of today's order"
        last_rank = rank[$1]
        if ($1 == "speedup") has_speedup_line = 1
    }
    if ($0 ~ /^kernel +/ && $0 ~ / speedup /) has_speedup_col = 1
    if ($0 ~ /^lab[0-9][0-9](-[a-z]+)?: (PASS|FAIL)/ &&
        $0 !~ /^lab[0-9][0-9](-[a-z]+)?: (PASS - [0-9]+ of [0-9]+ (kernels|kernel runs) verified|FAIL - [0-9]+ of [0-9]+ (kernels|kernel runs) gave a wrong result)/)
        print FILENAME ":" FNR ": the summary line in an older wording"
    if ($0 ~ /^lab[0-9][0-9](-[a-z]+)?: .*; fastest / && $0 !~ /; fastest [^ ]+: [0-9.]+ GB\/s \([0-9.]+% of copy\)/)
        print FILENAME ":" FNR ": the summary's fastest clause in an older wording"
}
