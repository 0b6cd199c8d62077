#!/usr/bin/env bash
# Times one `host` command line under two builds of the host, in interleaved
# rounds (each round runs both, in random order), and prints each median and
# their ratio. A VM that changes speed mid-run then slows both alike, which
# back-to-back runs (hyperfine's) cannot promise.
#
# Usage: scripts/compare-hosts.sh [-n ROUNDS] BEFORE_DIR AFTER_DIR -- HOST_ARGUMENTS...
#   BEFORE_DIR and AFTER_DIR each hold a `host` executable (and the bundled
#   plugins beside it, as `swift build -c release` leaves them).
# Example, the cost of random tokens and detached plugin calls (issue 11):
#   scripts/compare-hosts.sh /tmp/before .build/release -- \
#       fetch ETH --api-base-url "file://$PWD/Fixtures/coinbase"
set -euo pipefail

rounds=300
if [ "${1:-}" = "-n" ]; then rounds=$2; shift 2; fi
[ $# -ge 3 ] && [ "$3" = "--" ] || { echo "usage: $0 [-n ROUNDS] BEFORE_DIR AFTER_DIR -- HOST_ARGUMENTS..." >&2; exit 64; }
before=$1 after=$2
shift 3
for directory in "$before" "$after"; do
    [ -x "$directory/host" ] || { echo "$0: no executable host in $directory; build one with swift build -c release" >&2; exit 66; }
done

python3 - "$(cd "$(dirname "$0")" && pwd)/lib" "$rounds" "$before/host" "$after/host" "$@" <<'PY'
import statistics, sys
sys.path.insert(0, sys.argv[1])
from interleaved import median, rounds, run
count, before, after, arguments = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
kept = rounds({"before": lambda: run([before] + arguments), "after": lambda: run([after] + arguments)}, count=count)
for name, runs in kept.items():
    samples = [one.wall for one in runs]
    print(f"{name:<7} median {statistics.median(samples) * 1000:7.2f} ms   p25 {statistics.quantiles(samples, n=4)[0] * 1000:7.2f} ms   exit {sorted(set(one.status for one in runs))}")
ratio = median(kept["after"]) / median(kept["before"])
paired = statistics.median(a.wall / b.wall for a, b in zip(kept["after"], kept["before"]))
print(f"after/before: {ratio:.3f} (ratio of medians), {paired:.3f} (median of per-round ratios), {count} rounds")
PY
