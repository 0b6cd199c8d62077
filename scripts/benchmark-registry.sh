#!/usr/bin/env bash
# Every figure of issue 27's table, from one script, on a release build: the
# 2 bundled plugins alone against the same 2 plus 1,000 generated C plugins
# (one symbol each) in the user's plugin directory, and a worker's start.
#
#   list-fetchers    warm list-fetchers, 1,002 plugins / 2               target <= 1.5x
#   fetch            warm fetch ETH, 1,002 / 2                           target <= 1.3x
#   sandboxed-fetch  fetch of a third-party symbol, sandboxed / in-process  <= 1.2x
#   changed          list-fetchers after one of 1,000 files changed / warm  <= 1.2x
#   scan             cold scan of the 1,000 (host rescan), 2 cores / the time to
#                    start 1,000 trivial processes two at a time          <= 4x
#   worker-start     exec to first frame, full sandbox: target <= 3 ms; guarded
#                    as its ratio to a C program that only writes a frame,
#                    started the same way (scripts/probes/sandbox_start.c, the
#                    host's own start; against OLD_HOST's `host plugin-worker`
#                    when given)
#
# Pairs run in interleaved rounds (each round runs both, in random order) and
# the ratio is that of the medians: a machine whose speed changes mid-run slows
# both sides alike. Each row prints the 1-minute load average when it ended.
# The last lines, `MEASURE name value detail`, are what check-benchmarks.sh reads.
#
# Usage: scripts/benchmark-registry.sh              ROUNDS=40 PLUGINS=1000 by default
#        BIN=DIR scripts/benchmark-registry.sh      use the release host, worker and
#                                                   bundled plugins in DIR; build nothing
#        OLD_HOST=PATH scripts/benchmark-registry.sh  also start PATH's `plugin-worker`
#        ONLY=list-fetchers,scan scripts/benchmark-registry.sh   some rows only
#        REALTIME=1 scripts/benchmark-registry.sh   (root) the timed part, never the
#                                                   builds, at real-time priority (chrt -f 50)
# REALTIME=1: on a machine busy with other work, every hand-off between the
# host's threads and its worker waits its turn behind that work, and the
# ratios measure the machine's load more than the host. The load is printed
# either way; say which was used beside a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

scratch=${SCRATCH:-.build-registry}
rounds=${ROUNDS:-40}
count=${PLUGINS:-1000}
only=${ONLY:-list-fetchers,fetch,sandboxed-fetch,changed,scan,worker-start}
if [ -n "${BIN:-}" ]; then
    bin=$(cd "$BIN" && pwd)
else
    for product in host patchbay-worker BitcoinPlugin EthereumPlugin; do
        swift build -c release --scratch-path "$scratch" --product "$product" 2>&1 | grep -E "error|warning: .*Sources" || true
    done
    bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
fi
for file in host patchbay-worker libBitcoinPlugin.so libEthereumPlugin.so; do
    [ -e "$bin/$file" ] || { echo "benchmark-registry: no $file in $bin; build the release products or set BIN" >&2; exit 1; }
done

work=$repo/.build-bench-registry
rm -rf "$work" && mkdir -p "$work/few/patchbay/plugins" "$work/many/patchbay/plugins" "$work/cwd" "$work/api/v2/prices/ETH-USD" "$work/probes"
compiler=$(command -v clang || command -v cc)
"$compiler" -O2 -std=c11 -I Sources/CWorkerSandbox/include -o "$work/probes/sandbox_start" scripts/probes/sandbox_start.c Sources/CWorkerSandbox/worker_spawn.c
"$compiler" -O2 -o "$work/probes/spawn_floor" scripts/probes/spawn_floor.c
"$compiler" -O2 -o "$work/probes/frame_floor" scripts/probes/frame_floor.c
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
changed=$plugins/libGenerated$(printf "%0${#count}d" $((count / 2))).so
cp "$changed" "$work/changed-a.so"
"$compiler" -O2 -shared -fPIC -std=c11 -I Sources/PluginABI/include -DFIXTURE_SYMBOL="\"P$(printf "%0${#count}d" $((count / 2)))\"" \
    -DFIXTURE_NAME='"ChangedB"' -o "$work/changed-b.so" Tests/Fixtures/CPlugins/fixture_plugin.c
echo '{"data":{"base":"ETH","currency":"USD","amount":"3000.00"}}' >"$work/api/v2/prices/ETH-USD/spot"
first=P$(printf "%0${#count}d" 1)
mkdir -p "$work/api/v2/prices/$first-USD"
echo "{\"data\":{\"base\":\"$first\",\"currency\":\"USD\",\"amount\":\"1.00\"}}" >"$work/api/v2/prices/$first-USD/spot"

timed=()
[ "${REALTIME:-0}" = 1 ] && timed=(chrt -f 50)
${timed[@]+"${timed[@]}"} python3 - "$rounds" "$bin" "$work" "$only" "$first" "$changed" "${OLD_HOST:-}" <<'PY'
import os, random, shutil, statistics, subprocess, sys
sys.path.insert(0, "scripts/lib")
from interleaved import load, median, rounds as interleaved_rounds, run as timed
rounds, bin, work, only, first, changed, old_host = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split(","), sys.argv[5], sys.argv[6], sys.argv[7]
host = os.path.join(bin, "host")
api = f"file://{work}/api"
measures = []

def environment(data, cache):
    return {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"),
            "XDG_DATA_HOME": f"{work}/{data}", "XDG_CACHE_HOME": f"{work}/cache-{cache}"}

def checked(arguments, env):
    result = timed([host] + arguments, env=env, cwd=f"{work}/cwd", capture="stderr")
    if result.status != 0:
        sys.exit(f"{' '.join(arguments)} exited {result.status}: {result.stderr[:500]}")
    return result

def run(arguments, env):
    return checked(arguments, env).wall

def interleaved(key, name, a, b, before_b=None):
    """Medians of two (arguments, env) runs in interleaved rounds, and their ratio b/a."""
    def once(arguments, env, before=None):
        def call():
            if before: before()
            return checked(arguments, env)
        return call
    kept = interleaved_rounds({"a": once(*a), "b": once(*b, before_b)}, count=rounds, warmup=5)
    ma, mb = median(kept["a"]), median(kept["b"])
    print(f"{name:<58} {ma * 1000:8.1f} ms  {mb * 1000:8.1f} ms  {mb / ma:5.2f}x  (load {load()})", flush=True)
    measures.append((key, mb / ma, f"{ma * 1000:.1f}ms/{mb * 1000:.1f}ms"))

few, many = environment("few", "few"), environment("many", "many")
# Fill both caches (the first run of each scans).
run(["list-fetchers"], few)
run(["list-fetchers"], many)

print(f"== {rounds} interleaved rounds each; columns: first, second, second/first")
if "list-fetchers" in only:
    interleaved("list-fetchers", "list-fetchers: 2 plugins | 1,002", (["list-fetchers"], few), (["list-fetchers"], many))
if "fetch" in only:
    interleaved("fetch", "fetch ETH: 2 plugins | 1,002", (["fetch", "ETH", "--api-base-url", api], few), (["fetch", "ETH", "--api-base-url", api], many))
if "sandboxed-fetch" in only:
    interleaved("sandboxed-fetch", f"fetch {first} (third-party), 1,002: in-process | sandboxed",
                (["fetch", first, "--no-isolate", "--api-base-url", api], many), (["fetch", first, "--api-base-url", api], many))
if "changed" in only:
    state = {"b": False}
    def swap():
        state["b"] = not state["b"]
        source = f"{work}/changed-{'b' if state['b'] else 'a'}.so"
        staged = f"{work}/many/patchbay/plugins/.staged"
        shutil.copyfile(source, staged)
        os.rename(staged, changed)
    interleaved("changed", "list-fetchers, 1,002: warm | after one file changed", (["list-fetchers"], many), (["list-fetchers"], many), before_b=swap)

if "scan" in only:
    print("== cold scan of the plugins in sandboxed workers (host rescan) against starting as many trivial processes, 2 at a time; 3 interleaved rounds")
    count = len([f for f in os.listdir(f"{work}/many/patchbay/plugins") if f.endswith(".so")])
    scans, floors = [], []
    for _ in range(3):
        for side in random.sample(["scan", "floor"], 2):
            if side == "scan":
                shutil.rmtree(f"{work}/cache-many", ignore_errors=True)
                scans.append(run(["rescan"], many))
            else:
                out = subprocess.run([f"{work}/probes/spawn_floor", str(count), "2"], capture_output=True, text=True, check=True)
                floors.append(float(out.stdout))
    scan, floor = statistics.median(scans), statistics.median(floors)
    print(f"{'cold scan of ' + str(count) + ' | ' + str(count) + ' trivial processes, 2 at a time':<58} {floor:8.2f} s   {scan:8.2f} s   {scan / floor:5.2f}x  (load {load()})", flush=True)
    measures.append(("scan", scan / floor, f"{scan:.2f}s/{floor:.2f}s"))

if "worker-start" in only:
    print("== exec to first frame (the sandbox report), full sandbox; interleaved")
    # First: the host's way, every namespace (the figure), and the floor the same way; then by posix_spawn, and the old worker.
    commands = ["full:" + os.path.join(bin, "patchbay-worker"), f"full:{work}/probes/frame_floor", "posix:" + os.path.join(bin, "patchbay-worker")]
    if old_host:
        commands.append(f"posix:{old_host} plugin-worker")
    out = subprocess.run([f"{work}/probes/sandbox_start", str(max(rounds * 5, 100)), os.path.join(bin, "libEthereumPlugin.so")] + commands,
                         capture_output=True, text=True, check=True)
    print(out.stdout, end="", flush=True)
    # The two "full:" lines (the probe also prints each start's end, indented, after it).
    lines = [line for line in out.stdout.splitlines() if line.startswith("full:")]
    worker, floor = (float(line.split("median")[1].split()[0]) for line in lines[:2])
    measures.append(("worker-start", worker / floor, f"{worker:.0f}us/{floor:.0f}us"))

for key, value, detail in measures:
    print(f"MEASURE Registry.{key} {value:.3f} {detail}")
PY
