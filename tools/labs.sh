# tools/labs.sh - the reader of tools/labs.conf, sourced by the tools' sh
# scripts from the workbook's root (POSIX sh).
#
#   lab_list [KEY [WORD]]   every lab, in order; with KEY, those that have
#                           it; with WORD, those whose KEY holds that word
#   lab_list_parts_last [KEY [WORD]]   the same, a lab's side programs
#                           (part-of) after every lab: lab05-finish after lab06
#   lab_get LAB KEY         the value of LAB's KEY (empty when none)
#   lab_has LAB KEY WORD    whether LAB's KEY holds WORD
#   lab_has_other_type LAB T   whether LAB takes --type T besides its default
LABS_CONF=${LABS_CONF:-tools/labs.conf}

lab_list() {
    lab_select_ "${1:-folder}" "${2:-}" 0
}

lab_list_parts_last() {
    lab_select_ "${1:-folder}" "${2:-}" 1
}

lab_select_() { # KEY WORD PARTS_LAST
    awk -v key="$1" -v word="$2" -v last="$3" '
        /^#/ || NF < 2 { next }
        !($1 in seen) { seen[$1]; order[++n] = $1 }
        $2 == "part-of" { part[$1] = 1 }
        $2 == key && word == "" { want[$1] = 1 }
        $2 == key && word != "" { for (i = 3; i <= NF; ++i) if ($i == word) want[$1] = 1 }
        END {
            for (p = 0; p <= last; ++p)
                for (i = 1; i <= n; ++i)
                    if (want[order[i]] && (!last || (order[i] in part) == p)) print order[i]
        }' "$LABS_CONF"
}

lab_get() {
    awk -v lab="$1" -v key="$2" '
        $1 == lab && $2 == key { sub(/^[^ ]+ +[^ ]+ */, ""); print; exit }' "$LABS_CONF"
}

lab_has() {
    case " $(lab_get "$1" "$2") " in *" $3 "*) return 0 ;; esac
    return 1
}

lab_has_other_type() {
    lab_has "$1" types "$2" && [ "$(lab_get "$1" types | cut -d' ' -f1)" != "$2" ]
}
