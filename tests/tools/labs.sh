#!/bin/sh
# tests/tools/labs.sh - tools/labs.conf is the one list of labs: the lab
# folders and the list agree, every lab has the keys the tools read, each
# exercise stub has its line in tests/shipped-exercises.cksum, and a new lab
# (a lab10 in a scratch copy: its folder and its lines in the list) is found
# by make, by tools/labs.sh and by .gitignore, and so are a second CPU lab
# and a side program. CPU only. POSIX sh.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

# the list's folders, and the lab folders at the top
folders=$(for l in $(lab_list); do lab_get "$l" folder; done)
bad=
for d in lab[0-9][0-9]_*; do
    [ -d "$d" ] || continue
    printf '%s\n' "$folders" | grep -qxF "$d" || bad="$bad; $d is not in tools/labs.conf"
done
for d in $folders; do [ -d "$d" ] || bad="$bad; $d (tools/labs.conf) is missing"; done
if [ -z "$bad" ]; then ok "the lab folders are those of tools/labs.conf ($(echo $(lab_list)))"
else notok "the lab folders are those of tools/labs.conf" "${bad#; }"; fi

# every lab: a device (gpu or cpu) and its types; a side program names its lab
bad=
for l in $(lab_list); do
    case $(lab_get "$l" device) in gpu | cpu) ;; *) bad="$bad; $l: device is not gpu or cpu" ;; esac
    [ -n "$(lab_get "$l" types)" ] || bad="$bad; $l has no types"
    p=$(lab_get "$l" part-of)
    [ -z "$p" ] || [ -n "$(lab_get "$p" folder)" ] || bad="$bad; $l is part of '$p', not a lab"
done
if [ -z "$bad" ]; then ok "every lab of tools/labs.conf has a device and types"
else notok "every lab of tools/labs.conf has a device and types" "${bad#; }"; fi

# the modes the list gives a lab are those the lab offers (./labNN --capabilities)
bad=
nb=0
for l in $(lab_list); do
    [ -x "./$l" ] || continue
    nb=$((nb + 1))
    caps=" $("./$l" --capabilities) "
    for m in finish sweep matrix latency; do
        case $caps in *" $m "*) o=1 ;; *) o=0 ;; esac
        h=0; lab_has "$l" modes $m && h=1
        [ $o -eq $h ] || bad="$bad; $l $([ $h -eq 1 ] && echo "lists $m, which it does not offer" || echo "offers $m, not in its modes")"
    done
done
if [ $nb -eq 0 ]; then skip "the list's modes against --capabilities" "no lab built"
elif [ -z "$bad" ]; then ok "each lab's modes in tools/labs.conf are what it offers (--capabilities, $nb labs)"
else notok "the list's modes against --capabilities" "${bad#; }"; fi

# every exercise stub has its line in tests/shipped-exercises.cksum, and every line a stub
bad=
for d in $folders; do
    for f in "$d/exercises.c" "$d/exercises.cuh"; do
        [ -f "$f" ] || continue
        awk -v f="$f" '$3 == f { found = 1 } END { exit !found }' tests/shipped-exercises.cksum ||
            bad="$bad; $f has no line"
    done
done
for f in $(awk '{ print $3 }' tests/shipped-exercises.cksum); do
    [ -f "$f" ] || bad="$bad; $f (a line) is no file"
done
if [ -z "$bad" ]; then ok "tests/shipped-exercises.cksum has a line for each lab's exercise file"
else notok "tests/shipped-exercises.cksum against the labs" "${bad#; }"; fi

# a lab10 (the first labNN from 10 that the list does not hold), in a scratch
# copy: make finds it (it is built, linked and cleaned), and tools/labs.sh lists it
L=10
while [ -n "$(lab_get lab$L folder)" ]; do L=$((L + 1)); done
S=$TMPD/lab$L
mkdir -p "$S/lab${L}_scratch"
cp -R Makefile common tools $(for l in $(lab_list); do lab_get "$l" folder; done | grep -v /) "$S/"
printf '%s\n' '// a new lab (tests/tools/labs.sh)' >"$S/lab${L}_scratch/lab$L.cu"
printf '%s\n' "lab$L folder lab${L}_scratch" "lab$L device gpu" "lab$L types int" >>"$S/tools/labs.conf"
run make -n --no-print-directory -C "$S" CUDA_ARCH=90 NVCC=nvcc HAVE_NVCC=yes GPU_CC= lab$L
if [ "$STATUS" -eq 0 ] && grep -q "LINK  *lab$L\"" "$OUTF" && grep -q "lab${L}_scratch/lab$L.cu" "$OUTF"; then
    ok "make lab$L builds a lab$L that tools/labs.conf lists"
else
    notok "make lab$L builds a new lab" "exit $STATUS: $(head -c 300 "$ERRF") $(grep LINK "$OUTF" | head -c 200)"
fi
run make -n --no-print-directory -C "$S" CUDA_ARCH=90 NVCC=nvcc HAVE_NVCC=yes GPU_CC= BIN="$TMPD/bin$L/"
expect_grep "plain make builds lab$L too" "LINK  *$TMPD/bin$L/lab$L\"" "$OUTF"
run make -n --no-print-directory -C "$S" clean
expect_grep "make clean removes ./lab$L" "^rm -rf .* lab$L( |$)" "$OUTF"
run make --no-print-directory -C "$S" help
expect_grep "make help says lab01..lab$L" "^  lab01\.\.lab$L " "$OUTF"
# a second CPU lab and a side program, from their lines in the list alone
# (the Makefile's generic rules: no lab named in it)
L2=$((L + 1))
while [ -n "$(lab_get lab$L2 folder)" ]; do L2=$((L2 + 1)); done
mkdir -p "$S/lab${L2}_cpu" "$S/lab${L}_scratch/side"
printf '%s\n' '/* a second CPU lab (tests/tools/labs.sh) */' >"$S/lab${L2}_cpu/lab$L2.c"
printf '%s\n' '/* its exercises */' >"$S/lab${L2}_cpu/exercises.c"
printf '%s\n' '// a side program (tests/tools/labs.sh)' >"$S/lab${L}_scratch/side/side.cu"
printf '%s\n' "lab$L2 folder lab${L2}_cpu" "lab$L2 device cpu" "lab$L2 types int" \
    "lab$L-side folder lab${L}_scratch/side" "lab$L-side device gpu" "lab$L-side types int" \
    "lab$L-side part-of lab$L" >>"$S/tools/labs.conf"
run make -n --no-print-directory -C "$S" CUDA_ARCH=90 NVCC=nvcc HAVE_NVCC=yes GPU_CC= lab$L2 lab$L-side
if [ "$STATUS" -eq 0 ] && grep -q "LINK  *lab$L2\"" "$OUTF" && grep -q -- "-c -o build/lab${L2}_cpu/exercises.o" "$OUTF" &&
    grep -q "LINK  *lab$L-side\"" "$OUTF" && grep -q "lab${L}_scratch/side/side.cu" "$OUTF"; then
    ok "make builds a second CPU lab (lab$L2) and a side program (lab$L-side) from their lines alone"
else
    notok "make builds a second CPU lab and a side program" "exit $STATUS: $(head -c 300 "$ERRF") $(grep LINK "$OUTF" | head -c 200)"
fi
run make -n --no-print-directory -C "$S" CUDA_ARCH=90 NVCC=nvcc HAVE_NVCC=yes GPU_CC= cpu-tests
expect_grep "make cpu-tests builds every CPU lab (lab$L2 too)" "LINK  *lab$L2\"" "$OUTF"
run make -n --no-print-directory -C "$S" clean
expect_grep "make clean removes ./lab$L-side" "^rm -rf .* lab$L-side( |$)" "$OUTF"
got=$(cd "$S" && . tools/labs.sh && echo $(lab_list device gpu))
case " $got " in *" lab$L "*) ok "tools/labs.sh lists lab$L ($got)" ;;
    *) notok "tools/labs.sh lists lab$L" "it lists: $got" ;; esac

# git leaves a lab10's binary and a side program's out (where this is a git work tree)
if command -v git >/dev/null 2>&1 && [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    if git check-ignore -q lab10 && git check-ignore -q lab10-side && ! git check-ignore -q lab10_x/lab10.cu; then
        ok ".gitignore leaves out ./lab10 and ./lab10-side, not a lab10_x folder's files"
    else
        notok ".gitignore and a lab10" "git check-ignore: lab10, lab10-side ignored, lab10_x/lab10.cu not"
    fi
else
    skip ".gitignore and a lab10" "not a git work tree (a students' copy)"
fi
