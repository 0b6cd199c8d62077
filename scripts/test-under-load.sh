#!/usr/bin/env bash
# Runs the whole test suite while every core is kept busy by other work, as
# on a busy laptop or a small CI runner, and fails if any run fails.
#
# A wall-clock limit in a test is there to catch a hang, never to judge
# speed, and threads meet on signals, not sleeps: this is the proof. It
# builds first, unloaded, then starts one busy loop per core (plus --extra
# more) at the tests' own priority, and runs `swift test --skip-build`
# --runs times in a row. The loops stop when the script ends, however it ends.
#
# Usage: scripts/test-under-load.sh [--runs N] [--extra N | --load N] [-- ARGS...]
#        ARGS go to `swift test --skip-build` (e.g. --filter PatchbayTests).
#        --load N runs N busy loops in all, whatever the cores: --load 40
#        is forty on two cores, the load at which the suite must still pass.
#
# Default: 3 runs, one loop per online core. About 1.5 minutes a run on two
# cores once built; several times that at --load 40.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
extra=0
load=""
test_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
        --extra) extra="${2:?--extra needs a number}"; shift 2 ;;
        --load) load="${2:?--load needs a number of busy loops, e.g. --load 40}"; shift 2 ;;
        --) shift; test_args=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "test-under-load: unknown argument $1; see --help" >&2; exit 64 ;;
    esac
done
case "$runs$extra$load" in *[!0-9]*) echo "test-under-load: --runs, --extra and --load take whole numbers" >&2; exit 64 ;; esac

swift build --build-tests

loops=()
stop_loops() {
    [ ${#loops[@]} -eq 0 ] || kill "${loops[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap stop_loops EXIT
trap 'exit 130' INT TERM HUP

cores=$(getconf _NPROCESSORS_ONLN)
for _ in $(seq 1 "${load:-$((cores + extra))}"); do
    # A shell busy loop: no package to install, and it never blocks.
    sh -c 'while :; do :; done' &
    loops+=($!)
done
echo "test-under-load: ${#loops[@]} busy loops on $cores cores; load $(cut -d' ' -f1-3 /proc/loadavg)"

failed=0
for run in $(seq 1 "$runs"); do
    started=$(date +%s)
    if swift test --skip-build ${test_args[@]+"${test_args[@]}"} >".build/test-under-load-$run.log" 2>&1; then
        verdict=passed
    else
        verdict=FAILED
        failed=$((failed + 1))
    fi
    summary=$(grep -E '^(✔|✘|􁁛|􀢄).*Test run with|Test run with' ".build/test-under-load-$run.log" | tail -1 || true)
    echo "test-under-load: run $run of $runs $verdict in $(( $(date +%s) - started )) s, load $(cut -d' ' -f1-3 /proc/loadavg): $summary"
    if [ "$verdict" = FAILED ]; then
        grep -E '✘|error:' ".build/test-under-load-$run.log" | head -40 || true
        echo "test-under-load: the whole log is .build/test-under-load-$run.log"
    fi
done

if [ "$failed" -gt 0 ]; then
    echo "test-under-load: $failed of $runs runs failed under load" >&2
    exit 1
fi
echo "test-under-load: all $runs runs passed under load"
