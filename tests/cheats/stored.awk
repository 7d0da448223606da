# tests/cheats/stored.awk - a stored run for the replaying cheats
# (tests/cheats/make_cheats.sh): a lab's --exercises --csv with every
# exercise row made PASS, its figures copied from the row it is measured
# against (a speedup of 1.000). Run: awk -F, -v OFS=, -f tests/cheats/stored.awk FILE FILE
FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; if (NR == FNR) next }
NR == FNR { line[$col["kernel"]] = $0; next }
FNR > 1 && $col["role"] != "kernel" && ($col["against"] in line) {
    kern = $col["kernel"]; role = $col["role"]; against = $col["against"]
    $0 = line[against]
    $col["kernel"] = kern; $col["role"] = role; $col["against"] = against
    $col["speedup"] = "1.000"; $col["status"] = "PASS"
}
{ print }
