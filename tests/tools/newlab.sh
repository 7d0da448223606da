#!/bin/sh
# tests/tools/newlab.sh - docs/maintainers.md's "Add a lab", followed in a
# scratch copy of the workbook (POSIX sh; needs nvcc, no GPU): its steps
# block (the one after "<!-- newlab: steps -->") run as written adds the
# scan lab (tests/example/scanlab.cu) as lab08; the same lines with the
# names of tests/example/atomiclab.cu (an atomicAdd reduction of its own),
# its exercise file as lab07_atomic/exercises.cuh and the guide's
# "<!-- newlab: exercises -->" block add it as lab07. Then `make` builds
# every lab, and the CPU suites pass there: tests/tools/labs.sh on the whole
# list, and help.sh, width.sh and (without a device) tests/gpu/nodevice.sh on
# the two new labs (LABS_CONF: their lines alone; the others are this
# tree's and pass here). Every wb_/WB_ name the guide gives is common/'s.
# Fails when the guide and the code drift.
#
# The copy reuses this tree's build (build/ and the lab binaries, their times
# kept), at the architecture that build was made for (build/common/flags;
# without a build: CUDA_ARCH=75, one architecture): only the two labs
# compile. Run from the repository root (tests/run does).
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
GUIDE=docs/maintainers.md

# every name of common/'s API the guide gives exists there
missing=
for w in $(grep -o '`[^`]*`' "$GUIDE" | grep -o '\bwb_[a-z_0-9]*\|\bWB_[A-Z_0-9]*' | sort -u); do
    grep -rqw -- "$w" common/ || missing="$missing $w"
done
if [ -z "$missing" ]; then ok "newlab: every wb_ and WB_ name $GUIDE gives is common/'s"
else notok "newlab: names $GUIDE gives that common/ lacks" "${missing# }"; fi

# block MARKER: the code block after "<!-- newlab: MARKER -->" in the guide
block() {
    awk -v m="<!-- newlab: $1 -->" '$0 == m { on = 1; next }
        on == 1 && /^```/ { on = 2; next } on == 2 && /^```/ { exit } on == 2' "$GUIDE"
}
block steps >"$TMPD/steps"
block exercises >"$TMPD/exercises"
if [ ! -s "$TMPD/steps" ] || [ ! -s "$TMPD/exercises" ] || ! grep -q '^make lab08' "$TMPD/steps"; then
    notok "newlab: the guide's steps" "no '<!-- newlab: steps -->' block with 'make lab08', or no exercises block, in $GUIDE"
    exit 1
fi
if [ "${HAVE_NVCC:-$(command -v "${NVCC:-nvcc}" >/dev/null 2>&1 && echo yes)}" != yes ]; then
    skip "newlab: a scan lab and an atomicAdd lab by the guide" "no nvcc here"
    exit 0
fi

# the scratch copy, with this tree's build
S=$TMPD/wb
mkdir -p "$S"
cp -Rp Makefile README.md common docs tests tools "$S/" &&
    cp -Rp $(for l in $(lab_list); do lab_get "$l" folder; done | grep -v /) "$S/" || exit 2
[ -d build ] && (tar cf - --exclude=build/snapshots --exclude=build/trace --exclude=build/bench build |
    (cd "$S" && tar xpf -))
for l in $(lab_list); do [ -x "$l" ] && cp -p "$l" "$S/"; done
arch=75
if [ -f build/common/flags ]; then
    n=$(grep -o -- '-gencode' build/common/flags | wc -l)
    a=$(sed -n 's/.*-gencode arch=compute_\([0-9]*\),code=\[sm_[0-9]*,compute_[0-9]*\].*/\1/p' build/common/flags)
    if [ "$n" -eq 1 ] && [ -n "$a" ]; then arch=$a; elif [ "$n" -gt 1 ]; then arch=; fi
fi

# lab08: the steps as written; lab07: the same with its names, its exercise
# file in place before it is built
sed -e 's/scanlab/atomiclab/g; s/lab08_scan/lab07_atomic/g; s/lab08/lab07/g' "$TMPD/steps" >"$TMPD/steps07"
awk '/^make / { exit } { print }' "$TMPD/steps07" >"$TMPD/prep07"
awk '/^make / { on = 1 } on' "$TMPD/steps07" >"$TMPD/build07"
{
    cat "$TMPD/prep07"
    echo 'cp tests/example/atomiclab_exercises.cuh lab07_atomic/exercises.cuh'
    echo "sed 's|\"tests/example/atomiclab_exercises.cuh\"|\"lab07_atomic/exercises.cuh\"|' lab07_atomic/lab07.cu >lab07_atomic/x &&"
    echo '    mv lab07_atomic/x lab07_atomic/lab07.cu'
    cat "$TMPD/exercises" "$TMPD/build07"
} >"$TMPD/steps07.sh"
for L in 08 07; do
    f=$TMPD/steps; [ $L = 07 ] && f=$TMPD/steps07.sh
    run env -u MAKEFLAGS -u MAKELEVEL CUDA_ARCH="$arch" sh -ec "cd '$S' && . '$f'"
    if [ "$STATUS" -eq 0 ] && grep -q '^exercises' "$OUTF"; then
        ok "newlab: lab$L by the guide's steps builds and says what it offers ($(tail -n 1 "$OUTF"))"
    else
        notok "newlab: lab$L by the guide's steps" "exit $STATUS: $(tail -c 400 "$ERRF")"
        exit 1
    fi
done

# make builds every lab there; the CPU suites pass
run env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$S" CUDA_ARCH="$arch"
status_was 0 "newlab: make builds every lab, lab07 and lab08 among them"
awk '$1 == "lab07" || $1 == "lab08"' "$S/tools/labs.conf" >"$TMPD/new.conf"
suites="tests/tools/labs.sh tests/tools/help.sh tests/tools/width.sh"
has_gpu || suites="$suites tests/gpu/nodevice.sh"
for t in $suites; do
    conf=$TMPD/new.conf
    [ $t = tests/tools/labs.sh ] && conf= # the whole list (and make's own)
    rm -rf "$TMPD/suite" && mkdir -p "$TMPD/suite"
    (cd "$S" && export TMPD=$TMPD/suite && if [ -n "$conf" ]; then export LABS_CONF=$conf; fi && sh $t) \
        >"$TMPD/suite.out" 2>&1
    if grep -q '^FAIL ' "$TMPD/suite.out" || ! grep -q '^ok ' "$TMPD/suite.out"; then
        notok "newlab: $t with lab07 and lab08" "$(grep '^FAIL ' "$TMPD/suite.out" | head -n 3 | cut -c 1-200 | tr '\n' ' ')"
    else
        ok "newlab: $t passes with lab07 and lab08 ($(grep -c '^ok ' "$TMPD/suite.out") checks)"
    fi
done
