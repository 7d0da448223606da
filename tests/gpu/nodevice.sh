# tests/gpu/nodevice.sh - on a machine without a usable CUDA device (CI): every
# GPU lab must say so on one line of at most 100 columns and exit 3, while -h,
# --list, --capabilities, --dry-run and bad input still work without touching
# the device; each lab is held to what it offers (--capabilities). POSIX sh.
. tests/lib.sh

for L in $(lab_list_parts_last device gpu); do
    if [ ! -x ./$L ]; then
        [ -d "$(lab_get $L folder)" ] && notok "$L built" "./$L missing" || skip "$L" "not in this tree"
        continue
    fi
    run ./$L -r 1
    if [ "$STATUS" -eq 3 ] && grep -q "no usable CUDA device" "$ERRF" && [ "$(wc -l <"$ERRF")" -eq 1 ]; then
        ok "$L without a device: one line, exit 3"
    else
        notok "$L without a device" "exit $STATUS, stderr: $(head -c 300 "$ERRF")"
    fi
    check_width "$L without a device: the line fits 100 columns" "$ERRF"
    if [ ! -e /proc/driver/nvidia/version ]; then
        expect_grep "$L without a driver says there is none (not: update it)" "no NVIDIA driver is loaded" "$ERRF"
    fi
    run ./$L --check -n 1
    if [ "$STATUS" -eq 3 ] && grep -q "no usable CUDA device" "$ERRF"; then ok "$L --check without a device: exit 3"
    else notok "$L --check without a device" "exit $STATUS, stderr: $(head -c 300 "$ERRF")"; fi
    expect_usage "$L --check -n 1,,2 (a bad list item before the device)" ./$L --check -n 1,,2
    expect_status 0 "$L -h without a device" ./$L -h
    run ./$L --list
    if [ "$STATUS" -eq 0 ] && [ "$(wc -l <"$OUTF")" -ge 2 ]; then ok "$L --list without a device"
    else notok "$L --list without a device" "exit $STATUS"; fi
    if offers ./$L explain; then
        expect_status 0 "$L --explain without a device (computed on the CPU)" ./$L --explain
    else expect_usage "$L refuses --explain (it offers none)" ./$L --explain; fi
    expect_status 0 "$L --capabilities without a device" ./$L --capabilities
    run ./$L --dry-run -r 1
    if [ "$STATUS" -eq 0 ] && grep -q "no device was opened" "$OUTF"; then ok "$L --dry-run without a device: the plan, exit 0"
    else notok "$L --dry-run without a device" "exit $STATUS, stderr: $(head -c 300 "$ERRF")"; fi
    expect_usage "$L --dry-run -n 0 (bad input still refused)" ./$L --dry-run -n 0
    expect_usage "$L -n 0 (bad input before the device)" ./$L -n 0
    expect_usage "$L unknown flag" ./$L --bogus
    expect_usage "$L -k unknown" ./$L -k noSuchKernel
    if offers ./$L finish; then # --finish host|device, checked before the device
        expect_usage "$L --finish gpu (bad input before the device)" ./$L --finish gpu
        expect_status 3 "$L --finish device without a device" ./$L --finish device -r 1
    else expect_usage "$L refuses --finish" ./$L --finish device; fi
    # the exercises, where it offers them: listed, and --exercises / -k
    # EXERCISE parse before the device
    run ./$L --list
    ex=$(awk '/^exercises in /{ on = 1; next } on && NF { print $1; exit }' "$OUTF")
    if ! offers ./$L exercises; then
        [ -z "$ex" ] && ok "$L offers no exercises and --list names none" ||
            notok "$L offers no exercises" "but --list names $ex"
        expect_usage "$L refuses --exercises (it offers none)" ./$L --exercises
    elif [ -n "$ex" ]; then
        exf=$(sed -n 's/^exercises in \([^ ]*\) .*/\1/p' "$OUTF" | head -n 1)
        if [ -n "$exf" ] && [ -f "$exf" ]; then ok "$L --list names its exercises and their file ($exf)"
        else notok "$L --list names its exercises and their file" "'$exf' is no file of this tree"; fi
        run ./$L -h
        expect_grep "$L -h documents --exercises" "^  --exercises " "$OUTF"
        expect_status 3 "$L --exercises without a device" ./$L --exercises -r 1
        expect_status 3 "$L -k $ex (an exercise) without a device" ./$L -k "$ex" -r 1
    else
        notok "$L offers exercises" "--list names none"
    fi
done
# a row's element types (its .types) are checked before the device: bad_reduce's rows run in int only
[ -x build/tests/bad_reduce ] &&
    expect_usage "bad_reduce --type float (int-only rows, refused before the device)" build/tests/bad_reduce --type float
