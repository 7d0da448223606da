# tools/labs.sh - the reader of tools/labs.conf, sourced by the tools' sh
# scripts from the workbook's root (POSIX sh).
#
#   lab_list [KEY [WORD]]   every lab, in order; with KEY, those that have
#                           it; with WORD, those whose KEY holds that word
#   lab_get LAB KEY         the value of LAB's KEY (empty when none)
#   lab_has LAB KEY WORD    whether LAB's KEY holds WORD
#   lab_has_other_type LAB T   whether LAB takes --type T besides its default
LABS_CONF=${LABS_CONF:-tools/labs.conf}

lab_list() {
    awk -v key="${1:-folder}" -v word="${2:-}" '
        /^#/ || NF < 2 || $2 != key { next }
        word != "" { for (i = 3; i <= NF; ++i) if ($i == word) { print $1; break }; next }
        { print $1 }' "$LABS_CONF"
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
