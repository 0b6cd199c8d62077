#!/usr/bin/env bash
# The registry cache's targets (issue 12), measured from the outside on a
# release build: the 2 bundled plugins alone against the same 2 plus 1,000
# generated C plugins (one symbol each) in the user's plugin directory.
#
#   1. `list-fetchers`, warm cache: 1,000 against 2          target <= 1.5x
#   2. `fetch ETH`, warm cache: 1,000 against 2               target <= 1.3x
#   3. a cold scan of the 1,000 in sandboxed workers          target <= 10 s
#   4. `list-fetchers` after one of the 1,000 changed, against a warm one
#                                                             target <= 1.5x
#   5. `fetch` of one third-party symbol, sandboxed by default, against the
#      same fetch in-process (--no-isolate)                   target <= 1.5x
#
# Pairs run in interleaved rounds (each round runs both, in random order) and
# the ratio is that of the medians: a VM that changes speed mid-run slows
# both sides alike. Usage: scripts/benchmark-registry.sh   (ROUNDS=100 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${SCRATCH:-.build-registry}
rounds=${ROUNDS:-100}
count=${PLUGINS:-1000}
for product in host BitcoinPlugin EthereumPlugin; do
    swift build -c release --scratch-path "$scratch" --product "$product" 2>&1 | grep -E "error|warning: .*Sources" || true
done
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

work=$(pwd)/.build-bench-registry
rm -rf "$work" && mkdir -p "$work/few/patchbay/plugins" "$work/many/patchbay/plugins" "$work/cwd" "$work/api/v2/prices/ETH-USD"
compiler=$(command -v clang || command -v cc)
plugins=$work/many/patchbay/plugins
echo "== generating $count C plugins"
for i in $(seq -w 1 "$count"); do
    "$compiler" -O2 -shared -fPIC -std=c11 -I Sources/PluginABI/include \
        -DFIXTURE_SYMBOL="\"P$i\"" -DFIXTURE_NAME="\"Generated$i\"" \
        -o "$plugins/libGenerated$i.so" Tests/Fixtures/CPlugins/fixture_plugin.c &
    (( 10#$i % 16 == 0 )) && wait
done
wait
# Two builds of one plugin, swapped in and out for the rescan after a change.
changed=$plugins/libGenerated0500.so
cp "$changed" "$work/changed-a.so"
"$compiler" -O2 -shared -fPIC -std=c11 -I Sources/PluginABI/include -DFIXTURE_SYMBOL='"P0500"' -DFIXTURE_NAME='"Generated0500b"' \
    -o "$work/changed-b.so" Tests/Fixtures/CPlugins/fixture_plugin.c
echo '{"data":{"base":"ETH","currency":"USD","amount":"3000.00"}}' >"$work/api/v2/prices/ETH-USD/spot"
mkdir -p "$work/api/v2/prices/P0001-USD"
echo '{"data":{"base":"P0001","currency":"USD","amount":"1.00"}}' >"$work/api/v2/prices/P0001-USD/spot"

python3 - "$rounds" "$bin/host" "$work" <<'PY'
import os, random, shutil, statistics, subprocess, sys, time
rounds, host, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
api = f"file://{work}/api"

def environment(data, cache):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"),
           "XDG_DATA_HOME": f"{work}/{data}", "XDG_CACHE_HOME": f"{work}/cache-{cache}"}
    return env

def run(arguments, env):
    started = time.perf_counter()
    result = subprocess.run([host] + arguments, env=env, cwd=f"{work}/cwd", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)} exited {result.returncode}: {result.stderr.decode()[:500]}")
    return elapsed

def interleaved(name, a, b, before_b=None):
    """Medians of two (arguments, env) runs in interleaved rounds, and their ratio b/a."""
    times = {"a": [], "b": []}
    for round in range(rounds + 5):
        order = [("a", a), ("b", b)]
        random.shuffle(order)
        for side, (arguments, env) in order:
            if side == "b" and before_b: before_b()
            elapsed = run(arguments, env)
            if round >= 5: times[side].append(elapsed)
    ma, mb = statistics.median(times["a"]), statistics.median(times["b"])
    print(f"{name:<58} {ma * 1000:8.1f} ms  {mb * 1000:8.1f} ms  {mb / ma:5.2f}x", flush=True)
    return mb / ma

few, many = environment("few", "few"), environment("many", "many")
# Warm both caches (the first run of each scans).
run(["list-fetchers"], few)

print("== cold scan of the 1,000 in sandboxed workers (host rescan; median of 3)")
cold = []
for _ in range(3):
    shutil.rmtree(f"{work}/cache-many", ignore_errors=True)
    cold.append(run(["rescan"], many))
print(f"cold scan: median {statistics.median(cold):.2f} s of {[round(t, 2) for t in cold]}", flush=True)

print(f"== {rounds} interleaved rounds each; columns: first, second, second/first")
interleaved("list-fetchers: 2 plugins | 1,002", (["list-fetchers"], few), (["list-fetchers"], many))
interleaved("fetch ETH: 2 plugins | 1,002", (["fetch", "ETH", "--api-base-url", api], few), (["fetch", "ETH", "--api-base-url", api], many))
state = {"b": False}
def swap():
    state["b"] = not state["b"]
    source = f"{work}/changed-{'b' if state['b'] else 'a'}.so"
    staged = f"{work}/many/patchbay/plugins/.staged"
    shutil.copyfile(source, staged)
    os.rename(staged, f"{work}/many/patchbay/plugins/libGenerated0500.so")
interleaved("list-fetchers, 1,002: warm | after one file changed", (["list-fetchers"], many), (["list-fetchers"], many), before_b=swap)
interleaved("fetch P0001 (third-party), 1,002: in-process | sandboxed",
            (["fetch", "P0001", "--no-isolate", "--api-base-url", api], many), (["fetch", "P0001", "--api-base-url", api], many))
PY
