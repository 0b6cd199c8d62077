#!/usr/bin/env bash
# What several sources per symbol cost (issue 26), measured from the outside
# on a release build, with the bundled Ethereum and Bitstamp plugins in a
# plugins directory of their own and the shipped fixtures as their APIs:
#
#   1. `fetch ETH`, one provider | two, the first answering   target <= 1.05x
#   2. `fetch ETH`, two providers: the first answering | the first failing
#      at once (a 404), so the second is loaded and asked: the difference,
#      against the second plugin's own load as `-v` logs it  target <= 1 load + 3 ms
#
# Pairs run in interleaved rounds (each round runs both, in random order) and
# the ratio is that of the medians, as in scripts/benchmark-registry.sh. The
# machine's load is printed beside the figures. Each run's stdout is checked,
# and the loads each makes are counted from `-v`: the first source alone when
# it answers, both when it fails.
# Usage: scripts/benchmark-sources.sh   (ROUNDS=100 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${SCRATCH:-.build-sources}
rounds=${ROUNDS:-100}
for product in host patchbay-worker HostHTTP EthereumPlugin BitstampPlugin; do
    swift build -c release -j 1 --scratch-path "$scratch" --product "$product" 2>&1 | grep -E "error|warning: .*Sources" || true
done
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

work=$(pwd)/.build-bench-sources
rm -rf "$work" && mkdir -p "$work/one" "$work/two" "$work/cwd" "$work/empty"
cp "$bin/libEthereumPlugin.so" "$work/one/"
cp "$bin/libEthereumPlugin.so" "$bin/libBitstampPlugin.so" "$work/two/"

python3 - "$rounds" "$bin/host" "$work" "$(pwd)/Fixtures" <<'PY'
import os, re, statistics, sys
sys.path.insert(0, "scripts/lib")
from interleaved import median, rounds as interleaved_rounds, run as timed
rounds, host, work, fixtures = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# In a directory the user named, nobody vouched for either plugin: the user's rank keeps Coinbase first.
env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "XDG_DATA_HOME": f"{work}/data",
       "XDG_CACHE_HOME": f"{work}/cache", "XDG_CONFIG_HOME": f"{work}/config", "HOST_RANKS": "EthereumPlugin:primary"}
coinbase, bitstamp = f"file://{fixtures}/coinbase", f"file://{fixtures}/bitstamp"

def fetch(directory, ethereum_base):
    # In-process, as the bundled plugins run for a user; the registry cache is warm after the first run.
    return ["fetch", "ETH", "-v", "--no-isolate", "--plugins-dir", f"{work}/{directory}", "--api-base-url", f"EthereumPlugin={ethereum_base}",
            "--api-base-url", f"BitstampPlugin={bitstamp}"]

one = fetch("one", coinbase)
two = fetch("two", coinbase)
failing = fetch("two", f"file://{work}/empty")
loads = {}

def run(arguments, expect):
    result = timed([host] + arguments, env=env, cwd=f"{work}/cwd", capture=True)
    if result.status != 0 or expect not in result.stdout:
        sys.exit(f"{' '.join(arguments)} exited {result.status}, printing {result.stdout!r}: {result.stderr[-800:]}")
    # "…/libBitstampPlugin.so: loaded in-process on demand in 3.1 ms"
    for path, amount, unit in re.findall(r"(\S+\.so): loaded \S+ on demand in ([0-9.]+) (ms|µs|s)\b", result.stderr):
        scale = {"ms": 1e-3, "µs": 1e-6, "s": 1.0}[unit]
        loads.setdefault((tuple(arguments), os.path.basename(path)), []).append(float(amount) * scale)
    return result

def interleaved(name, a, b):
    kept = interleaved_rounds({"a": lambda: run(*a), "b": lambda: run(*b)}, count=rounds, warmup=5)
    ma, mb = median(kept["a"]), median(kept["b"])
    print(f"{name:<64} {ma * 1000:7.2f} ms  {mb * 1000:7.2f} ms  {mb / ma:5.3f}x", flush=True)
    return ma, mb

print(f"load average before: {open('/proc/loadavg').read().split()[:3]}")
run(two, "EthereumPlugin")  # the first run scans both files into the cache
run(one, "EthereumPlugin")
print(f"== {rounds} interleaved rounds each; columns: first, second, second/first")
_, answered = interleaved("fetch ETH: one provider | two, the first answers", (one, "EthereumPlugin"), (two, "EthereumPlugin"))
_, failed_over = interleaved("fetch ETH, two providers: first answers | first fails at once", (two, "EthereumPlugin"), (failing, "BitstampPlugin"))
counts = {args: set(name for (a, name) in loads if a == args) for args in (tuple(two), tuple(failing))}
bitstamp_load = statistics.median(loads[(tuple(failing), "libBitstampPlugin.so")])
print(f"plugins loaded when the first answers: {sorted(counts[tuple(two)])}; when it fails: {sorted(counts[tuple(failing)])}")
print(f"failover adds {(failed_over - answered) * 1000:.2f} ms; the Bitstamp plugin's own load (-v, median): {bitstamp_load * 1000:.2f} ms")
print(f"load average after: {open('/proc/loadavg').read().split()[:3]}")
PY
