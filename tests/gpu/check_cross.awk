# tests/gpu/check_cross.awk - the verdicts of one --check run, one check per
# configuration (tests/lib.sh check_cross calls it; POSIX awk).
#
# Input: the run's CSV (lab,kernel,role,size,block,grid,type,values,finish,
# seed,status,check). Variables: label (the checks' names start with it),
# expect (the kernels every configuration must have, blank-separated), ns,
# bs, ts, fs_, ss (the run's -n, -b, --type, --finish, --seed lists as given;
# empty: not given, any value matches), status (the run's exit status).
# Prints one "ok" or "FAIL" line per configuration, in the order of the
# lists: ok when each expected kernel has exactly one PASS row there (a
# library row, cub::... or cublas..., at the first block only, as the labs run it). Rows
# nobody expected, a wrong header and an exit status that disagrees with the
# rows fail too. A run that died leaves its later configurations without
# rows: those fail.

# A length as the labs print it: 2^k and K, M, G suffixes spelled out.
function norm(v,   m, k, u) {
    if (v ~ /^2\^[0-9]+$/) {
        m = 1
        for (k = substr(v, 3) + 0; k > 0; k--) m *= 2
        return sprintf("%.0f", m)
    }
    if (v ~ /^[0-9]+[KkMmGg]$/) {
        u = tolower(substr(v, length(v)))
        m = substr(v, 1, length(v) - 1) + 0
        m *= u == "k" ? 1024 : u == "m" ? 1048576 : 1073741824
        return sprintf("%.0f", m)
    }
    return v
}

function list(s, arr,   n, i) {
    if (s == "") { arr[1] = "*"; return 1 }
    n = split(s, arr, ",")
    for (i = 1; i <= n; i++) arr[i] = norm(arr[i])
    return n
}

function keyof(size, block, type, fin, seed) {
    return (N[1] == "*" ? "*" : size) SUBSEP (B[1] == "*" ? "*" : block) SUBSEP \
        (T[1] == "*" ? "*" : type) SUBSEP (F[1] == "*" ? "*" : fin) SUBSEP (S[1] == "*" ? "*" : seed)
}

BEGIN {
    FS = ","
    header = "lab,kernel,role,size,block,grid,type,values,finish,seed,status,check"
    nn = list(ns, N); nb = list(bs, B); nt = list(ts, T); nf = list(fs_, F); nss = list(ss, S)
    nk = split(expect, K, " ")
}

NR == 1 {
    if ($0 != header) { badhead = $0; exit }
    next
}

{
    k = keyof($4, $5, $7, $9, $10)
    rows[k, $2]++
    st[k, $2] = $11
    why[k, $2] = $12
    order[++nrows] = k SUBSEP $2
    if ($11 != "PASS") failed_rows++
}

END {
    if (badhead != "" || NR == 0) {
        printf "FAIL %s: no --check CSV (exit %d): %s\n", label, status, substr(badhead, 1, 200)
        exit
    }
    for (a = 1; a <= nt; a++) for (d = 1; d <= nf; d++) for (e = 1; e <= nss; e++)
    for (i = 1; i <= nn; i++) for (j = 1; j <= nb; j++) {
        k = keyof(N[i], B[j], T[a], F[d], S[e])
        name = label (N[i] != "*" ? " n=" N[i] : "") (B[j] != "*" ? " b=" B[j] : "") \
            (T[a] != "*" ? " --type " T[a] : "") (F[d] != "*" ? " --finish " F[d] : "") \
            (S[e] != "*" ? " --seed " S[e] : "")
        msg = ""
        for (x = 1; x <= nk; x++) {
            kn = K[x]
            if (kn ~ /^cub(::|las)/ && j > 1) continue
            used[k, kn] = 1
            if (!((k, kn) in rows)) msg = msg "; " kn ": no row"
            else if (rows[k, kn] > 1) msg = msg "; " kn ": " rows[k, kn] " rows"
            else if (st[k, kn] != "PASS") msg = msg "; " kn " " st[k, kn] ": " why[k, kn]
        }
        if (msg == "") print "ok " name
        else print "FAIL " name ": " substr(msg, 3, 400)
    }
    extra = ""
    for (r = 1; r <= nrows; r++)
        if (!(order[r] in used)) {
            split(order[r], parts, SUBSEP)
            extra = extra " " parts[6] "@" parts[1] "/" parts[2]
        }
    if (extra != "") printf "FAIL %s: rows nobody expected:%s\n", label, substr(extra, 1, 300)
    if (status != (failed_rows ? 1 : 0))
        printf "FAIL %s: exit status %d with %d rows not PASS\n", label, status, failed_rows + 0
}
