# tools/snapshots_apply.awk - put the outputs tools/snapshots.sh made back
# into a chapter, in place (POSIX awk; tools/snapshots.sh --apply runs it).
#
#   awk -v files="F1 F2 ..." -v made="LINE" [-v made_cpu="LINE"] -f tools/snapshots_apply.awk docs/lab02.md > new
#
# files: the chapter's snapshot files (each: five "# " header lines, then
# "$ COMMAND" and the output). Each fenced block whose first line is
# "$ COMMAND" takes the first file not used yet whose command it is: the
# block's lines become the file's, the line before the fence becomes
# "<!-- run: COMMAND -->" (added if missing), and the line after the closing
# fence becomes `made` (the GPU, toolkit and date; `made_cpu`, the CPU, under
# a block of lab01, which runs on the CPU), added if missing. A
# further "$ COMMAND" line inside the block takes the next file as well (the
# whole output of each: an excerpt is not kept). A block
# whose command has no file (a pasted excerpt the list leaves out) is kept
# as it is. Files left unused are named on stderr; exit 1.
# A file of another GPU's block (its header "# docs/PAGE (on SLUG): $ ...")
# goes only to a block marked "<!-- run on SLUG: COMMAND -->", an unmarked
# file only to a block that is not marked for a GPU.

function flush_pending() { if (have_prev) print prev; have_prev = 0 }

# the first file not used yet whose command is c, of GPU slug on ("": the main one), or 0
function file_for(c, on,   i) {
    for (i = 1; i <= nf; i++)
        if (!used[i] && CMD[i] == c && ON[i] == on) return i
    return 0
}

# the GPU slug of a run marker line ("<!-- run on SLUG: ... -->"), else ""
function marker_gpu(line) {
    if (line !~ /^<!-- run on [a-z0-9-]+: /) return ""
    sub(/^<!-- run on /, "", line); sub(/:.*/, "", line)
    return line
}

BEGIN {
    nf = split(files, F, " ")
    for (i = 1; i <= nf; i++) {
        getline hdr < F[i] # "# docs/labNN.md: $ COMMAND"
        cmd = hdr; sub(/^# docs\/[^:]*: \$ /, "", cmd)
        CMD[i] = cmd
        on = hdr; ON[i] = ""
        if (sub(/^# docs\/[^ :]* \(on /, "", on)) { sub(/\):.*/, "", on); ON[i] = on }
        close(F[i])
    }
}

# print file i's "$ COMMAND" line and output (after its five header lines)
function put(i,   n, line) {
    n = 0
    while ((getline line < F[i]) > 0)
        if (++n > 5) print line
    close(F[i])
    used[i] = 1
}

# inside a block being replaced: drop its old lines up to the closing fence;
# a further "$ COMMAND" in it takes the next file too, after a blank line
skipping {
    if ($0 ~ /^```/) { skipping = 0; print; after_fence = 1 }
    else if ($0 ~ /^\$ / && (k = file_for(substr($0, 3), cur_on))) {
        print ""
        put(k)
    }
    next
}

# the line after a replaced block: the provenance line, replaced or added
after_fence {
    after_fence = 0
    if ($0 ~ /^_Measured on /) { print cur_made; next }
    print cur_made
}

/^```/ && !in_block {
    # a fence opening a block: look at its first line before deciding
    fence = $0
    if ((getline first) <= 0) { flush_pending(); print fence; exit }
    cur_on = have_prev ? marker_gpu(prev) : ""
    if (fence == "```" && first ~ /^\$ / && (k = file_for(substr(first, 3), cur_on))) {
        if (have_prev && prev !~ /^<!-- run( on [a-z0-9-]+)?: /) print prev
        have_prev = 0
        print "<!-- run" (ON[k] != "" ? " on " ON[k] : "") ": " CMD[k] " -->"
        print fence
        # lab01 runs on the CPU: its caption names the CPU, not the GPU
        cur_made = (made_cpu != "" && CMD[k] ~ /^([^ ]*\/)?lab01( |$)/) ? made_cpu : made
        put(k) # the file's own "$ COMMAND" line and its output
        skipping = 1
        next
    }
    flush_pending()
    print fence
    if (first ~ /^```/) { print first; next } # an empty block
    in_block = 1
    print first
    next
}

in_block {
    print
    if ($0 ~ /^```/) in_block = 0
    next
}

{
    flush_pending()
    prev = $0
    have_prev = 1
}

END {
    if (after_fence) print cur_made # a replaced block that ends the page: its caption too
    flush_pending()
    for (i = 1; i <= nf; i++)
        if (!used[i]) { printf "snapshots: no block took %s (%s)\n", F[i], CMD[i] > "/dev/stderr"; bad = 1 }
    exit bad
}
