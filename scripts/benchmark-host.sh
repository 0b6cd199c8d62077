#!/usr/bin/env bash
# Benchmarks of the `host` executable, from the outside (issue #3):
#   1. a cold `host list-fetchers` with no plugins, with the 2 bundled Swift
#      plugins, and with 100 generated C plugins, against a Swift hello-world;
#   2. `host fetch ETH BTC` against a loopback server, against curl doing the
#      same two GETs;
#   3. `host list-fetchers` and the hello-world again, in interleaved rounds;
#   4. both once more from a cold page cache (as root only: it drops the
#      kernel's caches before every run).
# Usage: scripts/benchmark-host.sh   (release build; writes .build-bench/)
#        SCRATCH=.build-other scripts/benchmark-host.sh   to build elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."

command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
command -v curl >/dev/null || { apt-get update -qq && apt-get install -y -qq curl; }

scratch=${SCRATCH:-.build}
for product in host HostHTTP BitcoinPlugin EthereumPlugin; do
    swift build -c release --scratch-path "$scratch" --product "$product" | grep -E "error|warning: .*Sources" || true
done
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

work=.build-bench
rm -rf "$work" && mkdir -p "$work/none" "$work/c100"

# A trivial Swift binary: the floor for any Swift process start.
echo 'print("hello")' >"$work/hello.swift"
swiftc -O "$work/hello.swift" -o "$work/hello" 2>/dev/null

# 100 distinct plain-C plugins, built from the test fixture source.
for i in $(seq -w 1 100); do
    clang -O2 -shared -fPIC -std=c11 -I Sources/PluginABI/include \
        -DFIXTURE_SYMBOL="\"P$i\"" -DFIXTURE_NAME="\"Generated$i\"" \
        -o "$work/c100/libGenerated$i.so" Tests/Fixtures/CPlugins/fixture_plugin.c &
    (( 10#$i % 8 == 0 )) && wait
done
wait

# Each command's median from a hyperfine JSON export, and its ratio to the first's.
medians() {
    python3 - "$1" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
floor = statistics.median(results[0]["times"])
for result in results:
    median = statistics.median(result["times"])
    print(f"{result['command']:<28} median {median * 1000:6.1f} ms  {median / floor:4.2f}x")
PY
}

echo "== list-fetchers (process start + discovery + load + print)"
# Medians over many runs: on a shared VM the means swing by a few ms.
hyperfine --warmup 10 --runs 200 -N --export-markdown "$work/list.md" --export-json "$work/list.json" \
    -n "hello-world (Swift)" "$work/hello" \
    -n "host, 0 plugins" "$bin/host list-fetchers --plugins-dir $work/none" \
    -n "host, 2 bundled plugins" "$bin/host list-fetchers" \
    -n "host, 100 C plugins" "$bin/host list-fetchers --plugins-dir $work/c100"

# A loopback Coinbase-compatible server answering from the shipped fixtures.
port_file="$work/port"
python3 scripts/lib/coinbase_server.py Fixtures/coinbase "$port_file" &
server_pid=$!
trap 'kill $server_pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$port_file")"

echo "== fetch ETH BTC over loopback HTTP"
hyperfine --warmup 5 --runs 40 -N --export-markdown "$work/fetch.md" \
    -n "curl, 2 GETs" "curl -sf $base/v2/prices/ETH-USD/spot $base/v2/prices/BTC-USD/spot" \
    -n "host fetch ETH BTC" "$bin/host fetch ETH BTC --api-base-url $base"

echo
cat "$work/list.md" "$work/fetch.md"
echo
echo "== list-fetchers, medians against the hello-world"
medians "$work/list.json"

# hyperfine runs one command's rounds after the other's, so a VM that changes
# speed mid-run skews the ratio; here each round runs both, back to back.
echo
echo "== list-fetchers against the hello-world, 300 interleaved rounds"
python3 - "$work/hello" "$bin/host" <<'PY'
import sys
sys.path.insert(0, "scripts/lib")
from interleaved import median, rounds, run
hello, host = sys.argv[1], sys.argv[2]
kept = rounds({"hello-world": lambda: run([hello]), "host list-fetchers": lambda: run([host, "list-fetchers"])}, count=300)
floor = median(kept["hello-world"])
for name, runs in kept.items():
    if any(one.status != 0 for one in runs):
        sys.exit(f"benchmark-host: {name} failed")
    print(f"{name:<28} median {median(runs) * 1000:6.1f} ms  {median(runs) / floor:4.2f}x")
PY
# Cold in the strict sense: nothing of either binary or its libraries in
# memory. Needs root, for /proc/sys/vm/drop_caches.
if [ -w /proc/sys/vm/drop_caches ]; then
    echo
    echo "== list-fetchers against the hello-world, page cache dropped before each run"
    hyperfine -N --runs 30 --prepare 'sh -c "sync; echo 3 > /proc/sys/vm/drop_caches"' \
        --export-json "$work/cold.json" \
        -n "hello-world (Swift)" "$work/hello" \
        -n "host, 2 bundled plugins" "$bin/host list-fetchers" >/dev/null
    medians "$work/cold.json"
else
    echo
    echo "(skipped the cold-cache run: it needs root to write /proc/sys/vm/drop_caches)"
fi
