#!/bin/sh
# tools/grader/intake.sh - the hand-ins as a course collects them, made into folders
# in the workbook's layout that the grader reads safely (POSIX sh; tar).
#
#   sh tools/grader/intake.sh SOURCES STAGE      (tools/grader/grade_sources.sh runs it first)
#
# SOURCES holds one entry per student, any of:
#   (a) a folder in the workbook's layout: alice/lab02_neighbored/exercises.cuh;
#   (b) a course site's export: a folder per student with any name (Moodle's
#       "Anne Marie O'Brien_1234_assignsubmission_file_"), holding the loose
#       exercise files (any names: each is placed by its contents, the
#       exercises' names of tools/grader/grade.conf's done lines, else by the lab
#       its name says) or make submit's archive (NAME-sources.tar); a
#       .tar beside the folders is a student too (the name before .tar);
#   (c) a full clone of the workbook (GitHub Classroom): only its exercise
#       files are taken.
# STAGE gets (written anew): students/ID/ with the exercise files taken, in
# the workbook's layout, regular files only; notes/ID (the student's display
# name, where the files came from, each file taken, refused or ignored);
# names.tsv (ID, a tab, the display name, a tab, the kind of hand-in). ID is
# the display name made safe (letters, digits, . _ -; Moodle's
# _assignsubmission_... cut; unique, -2, -3 after a name taken).
#
# Never read, and named with the reason (one line on stderr naming the
# student and the file, and a `refused` note): a symbolic link, a hard link
# (a file with another name elsewhere), a device, a FIFO or a socket, a
# file over GRADE_INTAKE_MAX_KB (default 1024) KiB that would be taken, an
# archive over GRADE_INTAKE_ARCHIVE_KB (default 16384) KiB; in an archive,
# a member that is a link, a device or a FIFO, an absolute or `..` path, a
# name with characters other than letters, digits, blanks and . _ - + /, a
# name given twice, one over the size limit. An archive's members are
# listed (tar tvf) before anything is extracted; only the regular members
# accepted are extracted, by name, into STAGE/unpack/ID/ (removed at the
# end), never a link; what came out is checked again. Two different files
# for one lab: neither is taken (the student is told to keep one). A student
# with nothing taken still has a folder (the grader gives them a row).
# Exit status: 0 (what was refused is in the notes), 2 bad usage or no
# student in SOURCES.
here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(dirname "$(dirname "$here")")
usage="usage: sh tools/grader/intake.sh SOURCES STAGE (SOURCES: one folder or make submit .tar per student)"
src=${1:-}; stage=${2:-}
if [ $# -ne 2 ] || [ -z "$src" ] || [ -z "$stage" ]; then echo "intake: $usage" >&2; exit 2; fi
if [ ! -d "$src" ] || [ -L "$src" ]; then
    echo "intake: SOURCES='$src' is not a folder (one folder per student inside); $usage" >&2
    exit 2
fi
src=$(cd "$src" && pwd -P) || exit 2
maxkb=${GRADE_INTAKE_MAX_KB:-1024}
arkb=${GRADE_INTAKE_ARCHIVE_KB:-16384}
for v in "$maxkb" "$arkb"; do
    case $v in '' | *[!0-9]* | 0)
        echo "intake: GRADE_INTAKE_MAX_KB and GRADE_INTAKE_ARCHIVE_KB are numbers of KiB (got '$v')" >&2
        exit 2 ;;
    esac
done
maxb=$((maxkb * 1024)); arb=$((arkb * 1024))
umask 022
mkdir -p "$stage" || exit 2
stage=$(cd "$stage" && pwd -P) || exit 2
case $stage/ in "$src"/*) echo "intake: STAGE $stage is inside SOURCES; give another folder" >&2; exit 2 ;; esac
rm -rf "$stage/students" "$stage/notes" "$stage/unpack" "$stage/names.tsv"
mkdir -p "$stage/students" "$stage/notes" "$stage/unpack" || exit 2
: >"$stage/names.tsv"
nl='
'

# the workbook's exercise files ("LAB PATH" a line) and each lab's exercises'
# names (tools/grader/grade.conf's done lines: "LAB NAME" a line), which place a loose file
layout=$stage/unpack/.layout
sh "$here/grade_task.sh" --labs "$top" >"$layout"
sigs=$stage/unpack/.sigs
awk '$3 == "done" && $1 ~ /^lab[0-9][0-9]$/ { print $1, $4 }' "${GRADE_CONF:-$here/grade.conf}" >"$sigs"

# safe_id NAME: NAME made an ID (letters, digits, . _ -), not yet taken
safe_id() {
    b=$(printf '%s' "$1" | sed 's/_assignsubmission_.*$//; s/\.tar$//; s/-sources$//' |
        LC_ALL=C tr -c 'A-Za-z0-9._-' '_' | LC_ALL=C tr -s '_' | sed 's/^[-._]*//; s/_*$//' | cut -c 1-64)
    case $b in '' | handin | calibration | students | notes | unpack) b=student${b:+-$b} ;; esac
    id=$b; k=1
    while [ -e "$stage/students/$id" ]; do k=$((k + 1)); id=$b-$k; done
    echo "$id"
}
# printable TEXT: TEXT with control characters as ?
printable() { printf '%s' "$1" | LC_ALL=C tr '\000-\037\177' '?'; }

# note WORD TEXT: a line of the student's notes
note() { printf '%s %s\n' "$1" "$2" >>"$notes"; }
# refuse LABEL WHY: LABEL is not read; one line on stderr naming the student and the file
refuse() {
    note refused "$1: $2"
    printf 'grade: intake: %s: %s refused: %s\n' "$(printable "$disp")" "$(printable "$1")" "$2" |
        awk '{ print (length($0) > 100 ? substr($0, 1, 96) " ..." : $0) }' >&2
}

# walk DIR FIND-TESTS...: the entries of DIR (not under .git, no name with a
# line break) that pass find's tests, relative to DIR, one a line
walk() {
    wdir=$1; shift
    (cd "$wdir" && find . \( -name .git -o -name "*$nl*" \) -prune -o "$@" -print) | sed 's|^\./||'
}

# specials DIR LABELPREFIX: every entry of DIR (not under .git) that is not
# read: links, devices, FIFOs, sockets, hard links, names with a line break;
# each refused; their paths (relative to DIR) in $stage/unpack/.skip
specials() {
    : >"$stage/unpack/.skip"
    if (cd "$1" && find . -name .git -prune -o -name "*$nl*" -print -prune) | grep -q .; then
        refuse "$2(a name with a line break)" "a file name holding a line break: not read"
    fi
    skip "$1" "$2" "a symbolic link: not followed (hand in the file itself)" -type l
    skip "$1" "$2" "a device, FIFO or socket: not read" ! -type d ! -type f ! -type l
    skip "$1" "$2" "a hard link (another name for a file elsewhere): not read" -type f -links +1
}

# skip DIR LABELPREFIX WHY FIND-TESTS...: each entry of DIR that passes the
# tests refused with WHY, and its path added to $stage/unpack/.skip
skip() {
    sdir=$1; slabel=$2; swhy=$3; shift 3
    walk "$sdir" "$@" | while IFS= read -r f; do refuse "$slabel$f" "$swhy"; echo "$f"; done >>"$stage/unpack/.skip"
}

# regular DIR: the regular files of DIR that may be read (not under .git, no
# name with a line break, not a hard link), relative to DIR, one a line
regular() {
    walk "$1" -type f -links 1 | LC_ALL=C sort
}

# lab_of FILE NAME: the lab a loose file is for, from its contents (the lab
# whose exercises it names most), else from NAME (labNN in it, or a .c file:
# the lab whose exercise file is .c); empty when it cannot tell
lab_of() {
    awk -v name="$2" '
        FNR == NR { lab[NR] = $1; word[NR] = $2; n = NR; next }
        { for (i = 1; i <= n; i++) if (index($0, word[i])) {
              s = $0
              while (match(s, word[i])) {
                  b = substr(s, RSTART - 1, 1); a = substr(s, RSTART + RLENGTH, 1)
                  if ((RSTART == 1 || b !~ /[A-Za-z0-9_]/) && a !~ /[A-Za-z0-9_]/) score[lab[i]]++
                  s = substr(s, RSTART + RLENGTH)
              }
          } }
        END {
            best = ""; tie = 0
            for (l in score) if (best == "" || score[l] > score[best]) { best = l; tie = 0 } else if (score[l] == score[best]) tie = 1
            if (best != "" && !tie) { print best; exit }
            if (match(name, /lab[0-9][0-9]/)) { print substr(name, RSTART, RLENGTH); exit }
        }' "$sigs" "$1"
}

# candidate LAB LABEL FILE: FILE (a regular file, read) is LABEL's hand-in for LAB
candidate() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$stage/unpack/.cand"; }

# take_size FILE LABEL: FILE is small enough to take (else refused)
take_size() {
    sz=$(wc -c <"$1" | tr -d ' ')
    [ "$sz" -le "$maxb" ] && return 0
    refuse "$2" "$sz bytes, over the limit of $maxb (GRADE_INTAKE_MAX_KB=$maxkb)"
    return 1
}

# layout_root DIR: the shallowest folder under DIR (DIR itself: empty) holding
# an exercise file where the workbook has it, relative to DIR; "-" when none
layout_root() {
    regular "$1" | awk -v layout="$layout" '
        BEGIN { best = "-"; while ((getline l < layout) > 0) { split(l, f, " "); path[++n] = f[2] } }
        { for (i = 1; i <= n; i++) {
              if ($0 == path[i]) r = ""
              else if (substr($0, length($0) - length(path[i])) == "/" path[i]) r = substr($0, 1, length($0) - length(path[i]) - 1)
              else continue
              d = gsub(/\//, "/", r) + (r != "")
              if (best == "-" || d < bd) { best = r; bd = d }
          } }
        END { print best }'
}

# tree DIR LABEL KIND: the exercise files of DIR: those of its layout root
# (kinds a, c), else each loose source file placed by lab_of (kind b); archives
# (.tar) opened where KIND is "folder" (not inside an archive)
tree() {
    tdir=$1; tlabel=$2
    specials "$tdir" "$tlabel"
    root=$(layout_root "$tdir")
    if [ "$root" != "-" ]; then
        rdir=$tdir${root:+/$root}
        if [ -f "$rdir/Makefile" ] || [ -d "$rdir/.git" ] || [ -f "$rdir/tools/labs.conf" ]; then
            how="a clone of the workbook${root:+ (in $root/)}"
        else how="a folder in the workbook's layout${root:+ (in $root/)}"; fi
        note from "$tlabel$how"
        while read -r l p; do
            grep -qxF "${root:+$root/}$p" "$stage/unpack/.skip" && continue
            [ -f "$rdir/$p" ] || continue
            [ -z "$(find "$rdir/$p" -links +1)" ] || continue # (named by specials)
            take_size "$rdir/$p" "$tlabel${root:+$root/}$p" && candidate "$l" "$tlabel${root:+$root/}$p" "$rdir/$p"
        done <"$layout"
        # the rest: ignored (a clone's: counted)
        regular "$tdir" | awk -v root="${root:+$root/}" -v layout="$layout" -v clone="$(case $how in *clone*) echo 1 ;; esac)" '
            BEGIN { while ((getline l < layout) > 0) { split(l, f, " "); take[root f[2]] = 1 } }
            ($0 in take) || $0 == root "handin.cksum" { next }
            clone { n++; next }
            { if (++n <= 20) print "ignored " $0 }
            END { if (clone && n) print "ignored " n " other files of the clone (only the exercise files are graded)"
                  else if (n > 20) print "ignored ... and " (n - 20) " more" }' >>"$notes"
        return
    fi
    lflag=$stage/unpack/.loose$(printf '%s' "$tlabel" | cksum | cut -d ' ' -f 1)
    rm -f "$lflag"
    regular "$tdir" | while IFS= read -r f; do
        case $f in
            *.tar)
                # (a subshell: unpack's tree sets tdir, tlabel; what it finds goes to files)
                if [ "$3" = folder ]; then (unpack "$tdir/$f" "$tlabel$f")
                else note ignored "$tlabel$f (an archive inside an archive: not opened)"; fi ;;
            *.zip | *.tgz | *.tar.gz | *.tar.bz2 | *.tar.xz | *.gz | *.7z | *.rar)
                refuse "$tlabel$f" "an archive this grader does not open: hand in make submit's .tar" ;;
            *.c | *.cuh | *.cu | *.h | *.cpp | *.txt)
                take_size "$tdir/$f" "$tlabel$f" || continue
                l=$(lab_of "$tdir/$f" "$f")
                if [ -n "$l" ] && grep -q "^$l " "$layout"; then
                    # (said once: where the files came from)
                    [ -f "$lflag" ] || { : >"$lflag"; note from "${tlabel}loose files, each placed by its contents"; }
                    candidate "$l" "$tlabel$f" "$tdir/$f"
                else note ignored "$tlabel$f (not an exercise file: it names no lab's exercises)"; fi ;;
            *) note ignored "$tlabel$f" ;;
        esac
    done
}

# unpack ARCHIVE LABEL: the archive's members listed first; the regular ones
# with safe names extracted by name into a folder of the student's own; then tree
unpack() {
    a=$1; al=$2
    asz=$(wc -c <"$a" | tr -d ' ')
    if [ "$asz" -gt "$arb" ]; then
        refuse "$al" "an archive of $asz bytes, over the limit of $arb (GRADE_INTAKE_ARCHIVE_KB=$arkb)"
        return
    fi
    ua=$stage/unpack/$id/$(( $(ls "$stage/unpack/$id" 2>/dev/null | wc -l) + 1 ))
    mkdir -p "$ua" || exit 2
    if ! tar -tf "$a" >"$ua.names" 2>/dev/null || ! tar -tvf "$a" >"$ua.long" 2>/dev/null; then
        refuse "$al" "not a tar archive tar can read (make submit writes one)"
        return
    fi
    if [ "$(wc -l <"$ua.names")" -ne "$(wc -l <"$ua.long")" ]; then
        refuse "$al" "its listing does not match its names (a member's name holds a line break?): not opened"
        return
    fi
    # each member: ok, or why not (the listing's type letter, size, name)
    awk -v maxb="$maxb" '
        FNR == NR { name[FNR] = $0; n = FNR; seen[$0]++; next }
        {
            t = substr($0, 1, 1); sz = ($2 ~ /\//) ? $3 : $5; nm = name[FNR]; why = ""
            c = "/" nm "/"
            if (t == "d") next
            if (t == "l") why = "a symbolic link in the archive"
            else if (t == "h") why = "a hard link in the archive"
            else if (t == "c" || t == "b") why = "a device in the archive"
            else if (t == "p") why = "a FIFO in the archive"
            else if (t != "-") why = "a member of type " t " (not a plain file)"
            else if (substr(nm, 1, 1) == "/") why = "an absolute path in the archive"
            else if (index(c, "/../")) why = "a .. path in the archive (it would land outside)"
            else if (nm !~ /^[A-Za-z0-9._ +\/-]+$/) why = "a name with characters other than letters, digits, blanks and . _ - + /"
            else if (seen[nm] > 1) why = "a name the archive gives twice"
            else if (sz + 0 > maxb) why = sz " bytes, over the limit of " maxb
            printf "%s\t%s\n", (why == "" ? "ok" : why), nm
        }' "$ua.names" "$ua.long" >"$ua.members"
    while IFS='	' read -r why m; do
        [ "$why" = ok ] || refuse "$al:$m" "$why: not extracted"
    done <"$ua.members"
    set --
    while IFS='	' read -r why m; do [ "$why" = ok ] && set -- "$@" "$m"; done <"$ua.members"
    if [ $# -gt 0 ]; then
        # (by name: only those members; -o: the files are ours, never the archive's owners)
        if ! (cd "$ua" && tar -xof "$a" -- "$@") 2>"$ua.err"; then
            refuse "$al" "tar could not extract it: $(head -n 1 "$ua.err" | cut -c 1-60)"
            rm -rf "$ua"; return
        fi
    fi
    # what came out: regular files and folders only, or nothing of it is read
    if [ -n "$(find "$ua" ! -type d ! -type f | head -n 1)" ] || [ -n "$(find "$ua" -type f -links +1 | head -n 1)" ]; then
        refuse "$al" "extracting it made a link or a special file: nothing of it is read"
        rm -rf "$ua"; return
    fi
    chmod -R u+rwX "$ua" 2>/dev/null
    note from "$al (an archive)"
    [ -f "$ua/handin.cksum" ] && printf '%s\t%s\n' "$ua" "$al" >>"$stage/unpack/.manifest"
    tree "$ua" "$al:" archive
}

# resolve: one file per lab into students/ID (two different ones for a lab: neither)
resolve() {
    cand=$stage/unpack/.cand
    [ -f "$cand" ] || return 0
    for l in $(cut -f 1 "$cand" | LC_ALL=C sort -u); do
        p=$(awk -v l="$l" '$1 == l { print $2 }' "$layout")
        set --
        first=; firstsum=; differ=; labels=
        while IFS='	' read -r cl lab f; do
            [ "$cl" = "$l" ] || continue
            s=$(cksum <"$f")
            labels="$labels, $lab"
            if [ -z "$first" ]; then first=$f; firstsum=$s; firstlab=$lab
            elif [ "$s" != "$firstsum" ]; then differ=1; fi
        done <"$cand"
        if [ -n "$differ" ]; then
            note refused "${labels#, }: two different files for $l: neither is graded (keep one)"
            printf 'grade: intake: %s: two different files for %s (%s): neither is graded\n' \
                "$(printable "$disp")" "$l" "$(printable "${labels#, }")" | cut -c 1-100 >&2
            continue
        fi
        mkdir -p "$stage/students/$id/${p%/*}" || exit 2
        cat "$first" >"$stage/students/$id/$p" || exit 2
        if [ "$firstlab" = "$p" ]; then note took "$p"; else note took "$p <- $firstlab"; fi
    done
    rm -f "$cand"
}

# check_manifest: each file taken from a make submit archive against its
# handin.cksum (a note where it differs: changed after make submit)
check_manifest() {
    [ -f "$stage/unpack/.manifest" ] || return 0
    while IFS='	' read -r ua al; do
        while read -r crc size p; do
            case $p in '' | \#*) continue ;; esac
            [ -f "$stage/students/$id/$p" ] || continue
            if [ "$(cksum <"$stage/students/$id/$p" | awk '{ print $1, $2 }')" != "$crc $size" ]; then
                note manifest "$p differs from $al's handin.cksum (changed after make submit?)"
            fi
        done <"$ua/handin.cksum"
    done <"$stage/unpack/.manifest"
    rm -f "$stage/unpack/.manifest"
}

# ---- every student ---------------------------------------------------------------
n=0
ls "$src" | LC_ALL=C sort >"$stage/unpack/.entries"
while IFS= read -r e; do
    p=$src/$e
    disp=$e
    case $e in *.tar) disp=${e%.tar}; disp=${disp%-sources} ;; esac
    if [ ! -L "$p" ] && [ ! -d "$p" ]; then
        case $e in *.tar) [ -f "$p" ] ;; *) false ;; esac || {
            echo "grade: intake: $(printable "$e") in $(basename "$src")/ is not a student's folder or .tar:" \
                "ignored" | cut -c 1-100 >&2
            continue
        }
    fi
    id=$(safe_id "$disp")
    mkdir -p "$stage/students/$id" || exit 2
    notes=$stage/notes/$id
    : >"$notes"
    note name "$(printable "$disp")"
    n=$((n + 1))
    rm -f "$stage/unpack/.cand" "$stage/unpack/.manifest"
    if [ -L "$p" ]; then
        refuse "$e" "the student's folder is a symbolic link: not followed"
    elif [ -d "$p" ]; then
        tree "$p" "" folder
    else
        if [ -n "$(find "$p" -links +1)" ]; then refuse "$e" "a hard link (another name for a file elsewhere): not read"
        else unpack "$p" "$e"; fi
    fi
    resolve
    check_manifest
    # the kind of hand-in, from where the files came from
    kind=$(awk '$1 == "from" { f = $0 } $1 == "from" && / \(an archive\)$/ { a = 1 }
        END { if (a) print "an archive"; else if (f ~ /a clone/) print "a clone"; else if (f ~ /layout/) print "layout"
              else if (f != "") print "loose files"; else print "nothing taken" }' "$notes")
    printf '%s\t%s\t%s\n' "$id" "$(printable "$disp" | tr '\t' ' ')" "$kind" >>"$stage/names.tsv"
done <"$stage/unpack/.entries"
rm -rf "$stage/unpack"
if [ "$n" -eq 0 ]; then
    echo "intake: no student in $src (one folder per student, or make submit's NAME-sources.tar)" >&2
    exit 2
fi
exit 0
