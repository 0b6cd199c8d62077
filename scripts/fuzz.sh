#!/usr/bin/env bash
# Builds the fuzz targets (docs/FUZZING.md) into one libFuzzer binary and
# runs them, one after another, each for a while.
#
#   scripts/fuzz.sh                        every target, 60 s each
#   scripts/fuzz.sh url-policy --seconds 600
#   scripts/fuzz.sh --list                 the targets and what they read
#
# Each run starts from the seeds in Fuzz/Corpus/TARGET and the inputs that
# once failed it (Fuzz/Regressions/TARGET), and grows a working corpus in
# $FUZZ_SCRATCH/corpus/TARGET (default .build-fuzz), kept between runs.
# Runs are niced (FUZZ_NICE, default 19) and use one core: no -fork, no -jobs.
#
# Exits 0 when no target failed, 1 when one crashed, broke a property, hung
# or ran out of memory: the input is then printed in base64 with the
# commands to reproduce it and to keep it as a regression test, and left in
# $FUZZ_SCRATCH/artifacts/TARGET/TIME. Exits 64 on a bad argument.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
list=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds)
            [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --seconds takes a whole number of seconds, e.g. --seconds 30" >&2; exit 64; }
            seconds=$2
            shift 2
            ;;
        --list) list=1; shift ;;
        -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1; see scripts/fuzz.sh --help" >&2; exit 64 ;;
        *) targets+=("$1"); shift ;;
    esac
done

scratch=${FUZZ_SCRATCH:-.build-fuzz}
# -enable-testing: the parsers under test are internal to their modules.
# -DFUZZING: PatchbayFuzz's main runs libFuzzer instead of replaying inputs.
# -use-ld=lld: SwiftPM links `main` to the renamed Swift one, which gold
# cannot square with the `main` in libFuzzer's archive; lld can.
build=(swift build -c release --scratch-path "$scratch" --product PatchbayFuzz
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -DFUZZING -Xswiftc -use-ld=lld)
mkdir -p "$scratch"
started=$(date +%s)
if ! nice -n "${FUZZ_NICE:-19}" "${build[@]}" >"$scratch/build.log" 2>&1; then
    tail -40 "$scratch/build.log" >&2
    echo "fuzz.sh: the fuzz build failed (above; all of it in $scratch/build.log); the command was: ${build[*]}" >&2
    exit 1
fi
binary="$("${build[@]}" --show-bin-path)/PatchbayFuzz"
echo "fuzz.sh: built $binary in $(( $(date +%s) - started )) s"

known=$(PATCHBAY_FUZZ_TARGET=--list "$binary")
if [ "$list" = 1 ]; then
    echo "$known"
    exit 0
fi
names=$(cut -f1 <<<"$known")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets <<<"$names"
fi
for target in "${targets[@]}"; do
    grep -qx -- "$target" <<<"$names" || { echo "fuzz.sh: no target '$target'; the targets are: $(tr '\n' ' ' <<<"$names")" >&2; exit 64; }
done

failed=0
summary=()
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    artifacts="$scratch/artifacts/$target/$(date +%Y%m%d-%H%M%S)"
    mkdir -p "$corpus" "$artifacts"
    seeds=(Fuzz/Corpus/"$target")
    [ -d "Fuzz/Regressions/$target" ] && seeds+=("Fuzz/Regressions/$target")
    log="$scratch/$target.log"
    echo "fuzz.sh: $target for $seconds s"
    status=0
    # -timeout: an input that takes 20 s is a hang, a finding like a crash.
    # SWIFT_BACKTRACE: the Swift runtime's crash reporter reads memory ASan
    # then reports; libFuzzer's own report says what is needed.
    PATCHBAY_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no nice -n "${FUZZ_NICE:-19}" "$binary" "$corpus" "${seeds[@]}" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    size=$(find "$corpus" -type f | wc -l)
    if [ "$status" -eq 0 ]; then
        summary+=("$(printf '%-24s %8s s %12s runs %8s/s %6s inputs  ok' "$target" "$seconds" "${runs:-?}" "${rate:-?}" "$size")")
        continue
    fi
    failed=1
    summary+=("$(printf '%-24s %8s s %12s runs %8s/s %6s inputs  FAILED' "$target" "$seconds" "${runs:-?}" "${rate:-?}" "$size")")
    echo "fuzz.sh: $target FAILED (exit $status); the fuzzer's report:" >&2
    grep -v '^#\|^INFO\|^stat::' "$log" | tail -60 >&2
    for input in "$artifacts"/*; do
        [ -f "$input" ] || continue
        echo "fuzz.sh: the input, $(wc -c <"$input") bytes, in base64:" >&2
        base64 -w 76 "$input" >&2
        echo "fuzz.sh: reproduce: PATCHBAY_FUZZ_TARGET=$target $binary $input" >&2
        echo "fuzz.sh: keep it:   mkdir -p Fuzz/Regressions/$target && cp $input Fuzz/Regressions/$target/NAME" >&2
    done
done

echo "fuzz.sh: results (libFuzzer's executions and executions per second)"
printf '%s\n' "${summary[@]}"
exit "$failed"
