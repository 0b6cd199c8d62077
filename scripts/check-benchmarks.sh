#!/usr/bin/env bash
# Fails when a benchmark regresses beyond its threshold (BENCHMARKS.md,
# "Guard rails"). Two kinds of measure, both stable on a VM whose speed
# changes from minute to minute:
#   instructions  the container's instructions per operation, counted by
#                 callgrind in Benchmarks/Sources/ResolveLoop (a run of
#                 120,000 operations minus one of 20,000, so start-up cancels),
#                 with SWIFT_DETERMINISTIC_HASHING=1 so that a build gives the
#                 same count on every run;
#   startup       the release `host`'s start-up as a ratio to a Swift
#                 hello-world: both run in the same interleaved rounds, and
#                 the ratio of their medians is compared;
#   registry      issue 27's table from scripts/benchmark-registry.sh (1,000
#                 generated plugins): each pair's ratio from interleaved
#                 rounds, the cold scan against starting as many trivial
#                 processes, and a worker's exec to first frame in µs;
#   curl          issue 41's rows from scripts/benchmark-curl.sh: `host fetch`
#                 against curl on the same loopback server (http, https with
#                 a test CA, file), as the ratio of their CPU medians.
# The thresholds are files in Benchmarks/Thresholds, one per metric, each with
# its value and its margin in percent. A measure above threshold × (1 + margin)
# prints one REGRESSION line naming the metric, the measure, the threshold and
# the margin, and the script exits 1.
#
# Usage: scripts/check-benchmarks.sh                  check every kind
#        scripts/check-benchmarks.sh instructions     or some of them
#        scripts/check-benchmarks.sh --update [KIND]  rewrite the thresholds' values
#                                                     from this run (margins stay)
#        HOST_DIR=DIR scripts/check-benchmarks.sh     time the host in DIR (with the
#                                                     bundled plugins beside it)
#                                                     instead of building one
#        SCRATCH=.build-x ROUNDS=300 scripts/check-benchmarks.sh
# Builds: Benchmarks/.build (release ResolveLoop) and, unless HOST_DIR is set,
# a release host and the bundled plugins in $SCRATCH (default .build-check).
# Needs valgrind and python3.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

update=0
kinds=()
for argument in "$@"; do
    case $argument in
        --update) update=1 ;;
        instructions | startup | registry | curl) kinds+=("$argument") ;;
        *) echo "usage: $0 [--update] [instructions|startup|registry|curl]..." >&2; exit 64 ;;
    esac
done
[ ${#kinds[@]} -gt 0 ] || kinds=(instructions startup registry curl)
wants() { [[ " ${kinds[*]} " == *" $1 "* ]]; }

thresholds=$repo/Benchmarks/Thresholds
scratch=${SCRATCH:-.build-check}
rounds=${ROUNDS:-300}
started=$(date +%s.%N)
work=$(mktemp -d "${TMPDIR:-/tmp}/patchbay-benchmarks.XXXXXX")
trap 'rm -rf "$work"' EXIT
measures=$work/measures   # lines of: metric-file-stem value detail
: >"$measures"

command -v python3 >/dev/null || { echo "check-benchmarks: python3 is not installed" >&2; exit 1; }

if wants instructions; then
    command -v valgrind >/dev/null || { echo "check-benchmarks: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
    (cd Benchmarks && swift build -c release --product ResolveLoop >"$work/loop-build.log" 2>&1) || {
        tail -n 20 "$work/loop-build.log" >&2
        echo "check-benchmarks: Benchmarks' ResolveLoop does not build (above)" >&2
        exit 1
    }
    loop=$repo/Benchmarks/.build/release/ResolveLoop
    # One callgrind run per line, two at a time: counts do not depend on load.
    for file in "$thresholds"/ResolveLoop.*.json; do
        workload=$(basename "$file" .json)
        workload=${workload#ResolveLoop.}
        printf '%s %s\n' "$workload" 20000 "$workload" 120000
    done >"$work/runs"
    export SWIFT_DETERMINISTIC_HASHING=1
    xargs -P 2 -L 1 sh -c 'valgrind --tool=callgrind --callgrind-out-file=/dev/null "$0" "$1" "$2" 1 2>&1 |
        awk -v w="$1" -v n="$2" "/Collected/ { print w, n, \$4 }"' "$loop" <"$work/runs" >"$work/counts"
    unset SWIFT_DETERMINISTIC_HASHING
    python3 - "$work/counts" >>"$measures" <<'PY'
import sys
counts = {}
for line in open(sys.argv[1]):
    workload, operations, instructions = line.split()
    counts.setdefault(workload, {})[int(operations)] = int(instructions)
for workload, runs in sorted(counts.items()):
    if set(runs) != {20000, 120000}:
        sys.exit(f"check-benchmarks: callgrind did not count both runs of ResolveLoop {workload}")
    print(f"ResolveLoop.{workload} {(runs[120000] - runs[20000]) / 100000:.1f} -")
PY
fi

if wants startup || wants registry || wants curl; then
    if [ -n "${HOST_DIR:-}" ]; then
        bin=$(cd "$HOST_DIR" && pwd)
    else
        for product in host patchbay-worker HostHTTP BitcoinPlugin EthereumPlugin; do
            swift build -c release --scratch-path "$scratch" --product "$product" >"$work/host-build.log" 2>&1 || {
                tail -n 20 "$work/host-build.log" >&2
                echo "check-benchmarks: the release $product does not build (above)" >&2
                exit 1
            }
        done
        bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
    fi
    [ -x "$bin/host" ] || { echo "check-benchmarks: no executable host in $bin" >&2; exit 1; }
fi

if wants startup; then
    echo 'print("hello")' >"$work/hello.swift"
    swiftc -O "$work/hello.swift" -o "$work/hello" 2>"$work/hello.log" || { cat "$work/hello.log" >&2; exit 1; }
    python3 - "$work/hello" "$bin/host" "$repo/Fixtures/coinbase" "$rounds" "$thresholds" >>"$measures" <<'PY'
import os, sys
sys.path.insert(0, "scripts/lib")
from interleaved import median, rounds as interleaved_rounds, run
hello, host, fixtures, count, thresholds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
# The same environment for every run: no plugins directory or API base from
# the caller's, and a registry cache of its own, filled by the warm-up rounds.
environment = {key: value for key, value in os.environ.items() if not key.startswith("HOST_")}
environment["XDG_CACHE_HOME"] = os.path.join(os.path.dirname(hello), "cache")
commands = {
    "hello": [hello],
    "HostStartup.help": [host, "--help"],
    "HostStartup.list-fetchers": [host, "list-fetchers"],
    "HostStartup.list-fetchers-no-cache": [host, "list-fetchers", "--no-cache"],
    "HostStartup.fetch-file": [host, "fetch", "ETH", "--api-base-url", f"file://{fixtures}"],
}
# Only the commands with a threshold file; the hello-world is the floor.
commands = {name: command for name, command in commands.items() if name == "hello" or os.path.exists(os.path.join(thresholds, name + ".json"))}

def once(command):
    def call():
        result = run(command, env=environment)
        if result.status != 0:
            sys.exit(f"check-benchmarks: {' '.join(command)} exited with {result.status}")
        return result
    return call

times = interleaved_rounds({name: once(command) for name, command in commands.items()}, count=count)
floor = median(times.pop("hello"))
for name, runs in times.items():
    print(f"{name} {median(runs) / floor:.3f} {median(runs) * 1000:.2f}ms/{floor * 1000:.2f}ms")
PY
fi

if wants registry; then
    # Fewer rounds than the script's default: a guard rail, not a report.
    BIN=$bin ROUNDS=${REGISTRY_ROUNDS:-15} scripts/benchmark-registry.sh >"$work/registry.log" 2>&1 || {
        tail -n 20 "$work/registry.log" >&2
        echo "check-benchmarks: scripts/benchmark-registry.sh failed (above)" >&2
        exit 1
    }
    grep -v '^MEASURE' "$work/registry.log" | sed -n '/^==/,$p'
    sed -n 's/^MEASURE //p' "$work/registry.log" >>"$measures"
fi

if wants curl; then
    BIN=$bin ROUNDS=${CURL_ROUNDS:-30} scripts/benchmark-curl.sh >"$work/curl.log" 2>&1 || {
        tail -n 20 "$work/curl.log" >&2
        echo "check-benchmarks: scripts/benchmark-curl.sh failed (above)" >&2
        exit 1
    }
    grep -v '^MEASURE' "$work/curl.log"
    sed -n 's/^MEASURE //p' "$work/curl.log" >>"$measures"
fi

status=0
python3 - "$thresholds" "$measures" "$update" <<'PY' || status=$?
import json, pathlib, sys
directory, measures, update = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
units = {"instructionsPerOperation": "instructions per operation", "ratioToHelloWorld": "× a Swift hello-world",
         "ratio": "× its pair", "microseconds": "µs", "ratioToCurl": "× curl's CPU"}
failures = 0
for line in open(measures):
    stem, value, detail = line.split()
    value = float(value)
    path = directory / f"{stem}.json"
    threshold = json.loads(path.read_text())
    (key,) = [key for key in threshold if key in units]
    limit = threshold[key] * (1 + threshold["marginPercent"] / 100)
    shown = f"{value:.0f}" if key in ("instructionsPerOperation", "microseconds") else f"{value:.2f}"
    what = f"{stem}: {shown} {units[key]}" + ("" if detail == "-" else f" ({detail})")
    bound = f"threshold {threshold[key]:g}, margin {threshold['marginPercent']:g}% (limit {limit:.2f})"
    if update:
        threshold[key] = round(value) if key in ("instructionsPerOperation", "microseconds") else round(value, 2)
        path.write_text(json.dumps(threshold, indent=2, sort_keys=True) + "\n")
        print(f"updated     {what}; was {bound}")
    elif value > limit:
        failures += 1
        print(f"REGRESSION  {what}; {bound}: {100 * (value / threshold[key] - 1):+.1f}% over the threshold")
    elif value < threshold[key] / (1 + threshold["marginPercent"] / 100):
        print(f"improved    {what}; {bound}: lower the threshold with scripts/check-benchmarks.sh --update")
    else:
        print(f"ok          {what}; {bound}")
sys.exit(1 if failures else 0)
PY
echo "check-benchmarks: $([ $status = 0 ] && echo "no regression" || echo "regressions above") in $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f s", b - a }')"
exit $status
