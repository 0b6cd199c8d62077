#!/usr/bin/env bash
# What the worker sandbox costs (issue 22; target: at most 1 ms more per
# worker, for all its new layers, than the sandbox before it):
#   1. the confinement inside each worker, layer by layer, as `-v` prints it;
#   2. a worker's start, exec to its first frame, in interleaved rounds:
#      today's (every layer), the same without its own root and UTS
#      namespace (issue 35's cost), the same without its namespaces, and, with
#      BEFORE_REF, the worker of that commit started as that host did;
#      and the user and network namespaces a host makes once, for all its
#      workers (scripts/probes/sandbox_start.c);
#   3. with BEFORE_REF, `host fetch` of one third-party plugin (one worker)
#      under that commit's host and this one, interleaved
#      (scripts/compare-hosts.sh);
#   4. a system call under the filter against one without it, from a C
#      program that links the sandbox alone.
# Usage: scripts/benchmark-sandbox.sh                      (release build)
#        BEFORE_REF=e879e1f ROUNDS=100 scripts/benchmark-sandbox.sh
#        SCRATCH=.build-other JOBS=2 scripts/benchmark-sandbox.sh   (JOBS: build jobs, 1 by default)
#        REALTIME=1 BEFORE_REF=e879e1f scripts/benchmark-sandbox.sh
#        REALTIME=1 BIN=.build/debug scripts/benchmark-sandbox.sh   (no build: that build's products)
# BIN skips the release build (15+ minutes on a shared 2-core machine) and
# times the products already in that directory: a debug worker is fair for
# what the namespaces and the worker's own root cost, which is kernel work,
# not the worker's code (part 1's confinement is the worker's code: read it
# from a release build).
# REALTIME=1 (root) runs the timed parts, never the builds, at real-time
# priority (chrt -f 50): on a machine busy with other work, every extra
# sleep and wake-up on a worker's path waits its turn behind that work, and
# the figures measure the machine's load more than the sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${SCRATCH:-.build}
rounds=${ROUNDS:-60}
work=.build-bench/sandbox
mkdir -p "$work"
timed=()
[ "${REALTIME:-0}" = 1 ] && timed=(chrt -f 50)

build() { # DIR SCRATCH: the release products a worker benchmark needs
    for product in host patchbay-worker BitcoinPlugin EthereumPlugin; do
        (cd "$1" && swift build -c release -j "${JOBS:-1}" --scratch-path "$2" --product "$product" 2>&1 | grep -E "error|warning: .*Sources" || true)
    done
}
if [ -n "${BIN:-}" ]; then
    bin=$(cd "$BIN" && pwd -P)
else
    build . "$scratch"
    bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
fi

before=""
if [ -n "${BEFORE_REF:-}" ]; then
    # That commit's tree, built on its own: its host and worker as they were.
    source=$work/before-$(git rev-parse --short "$BEFORE_REF")
    if [ ! -d "$source" ]; then
        mkdir -p "$source"
        git archive "$BEFORE_REF" | tar -x -C "$source"
    fi
    build "$source" "$PWD/$source/.build"
    before=$(cd "$source" && swift build -c release --scratch-path .build --show-bin-path)
fi

# One plain-C plugin, as a third-party plugin would be: nobody vouches for it.
plugins=$work/plugins
mkdir -p "$plugins"
clang -shared -fPIC -std=c11 -O2 -I Sources/PluginABI/include -o "$plugins/libCDogecoinPlugin.so" Tests/Fixtures/CPlugins/fixture_plugin.c
prices=$work/prices/v2/prices/DOGE-USD
mkdir -p "$prices"
echo '{"data":{"base":"DOGE","currency":"USD","amount":"0.25"}}' >"$prices/spot.json"
api="file://$PWD/$work/prices"

echo "== 1. confinement inside the worker (median of $rounds runs, 2 workers each)"
${timed[@]+"${timed[@]}"} python3 - "$bin/host" "$rounds" <<'PY'
import re, statistics, subprocess, sys
host, rounds = sys.argv[1], int(sys.argv[2])
pattern = re.compile(r"confined in (\d+) µs \(Landlock (\d+) µs, seccomp (\d+) µs, rlimits (\d+) µs\)")
samples = []
for _ in range(rounds):
    run = subprocess.run([host, "list-fetchers", "--isolate", "--no-cache", "-v"], capture_output=True, text=True)
    samples += [tuple(map(int, m.groups())) for m in pattern.finditer(run.stderr)]
for index, name in enumerate(["total", "Landlock", "seccomp", "rlimits"]):
    values = [sample[index] for sample in samples]
    print(f"  {name:<9} median {statistics.median(values):6.0f} µs   p90 {statistics.quantiles(values, n=10)[-1]:6.0f} µs")
PY

echo "== 2. a worker's start, exec to first frame ($rounds interleaved rounds)"
clang -O2 -std=c11 -I Sources/CWorkerSandbox/include scripts/probes/sandbox_start.c Sources/CWorkerSandbox/worker_spawn.c -o "$work/sandbox_start"
workers=("full:$bin/patchbay-worker" "shared:$bin/patchbay-worker" "plain:$bin/patchbay-worker")
# The worker's own root binds the Swift runtime's directory (issue 35).
SWIFT_RUNTIME=$(dirname "$(dirname "$(command -v swift)")")/lib/swift/linux
export SWIFT_RUNTIME
[ -n "$before" ] && workers+=("posix:$before/patchbay-worker")
${timed[@]+"${timed[@]}"} "$work/sandbox_start" "$rounds" "$plugins/libCDogecoinPlugin.so" "${workers[@]}"
# What the root's own system calls take in the kernel, whatever else the
# machine runs: perf trace's per-process summary of the worker's children
# steps, over full starts (root; no hardware counters needed).
if command -v perf >/dev/null && perf trace -s -o /dev/null true 2>/dev/null; then
    echo "== 2b. the root's system calls in a full start (perf trace -s, $rounds starts)"
    perf trace -s -e mount,umount2,pivot_root,sethostname,symlink,mkdir,chdir,statfs -o "$work/root-calls.txt" \
        "$work/sandbox_start" "$rounds" "$plugins/libCDogecoinPlugin.so" "full:$bin/patchbay-worker" >/dev/null
    python3 - "$work/root-calls.txt" <<'PY'
import collections, re, statistics, sys
totals, calls = [], collections.defaultdict(list)
for block in re.split(r"\n (?=\S.*\(\d+\), \d+ events)", open(sys.argv[1]).read()):
    if not block.lstrip().startswith("patchbay-worker"):
        continue
    rows = re.findall(r"^\s+(\w+)\s+\d+\s+\d+\s+([\d.]+)", block, re.M)
    for name, msec in rows:
        calls[name].append(float(msec) * 1000)
    totals.append(sum(float(msec) for _, msec in rows) * 1000)
totals.sort()
print(f"  all of them, per worker: median {statistics.median(totals):.0f} us  p10 {totals[len(totals) // 10]:.0f}  p90 {totals[len(totals) * 9 // 10]:.0f}  ({len(totals)} workers)")
for name, values in sorted(calls.items(), key=lambda item: -statistics.median(item[1])):
    print(f"  {name:<12} median {statistics.median(values):6.0f} us")
PY
fi

if [ -n "$before" ]; then
    echo "== 3. host fetch DOGE, one worker: $BEFORE_REF's host against this one ($rounds interleaved rounds)"
    ${timed[@]+"${timed[@]}"} scripts/compare-hosts.sh -n "$rounds" "$before" "$bin" -- fetch DOGE --no-cache --plugins-dir "$plugins" --api-base-url "$api"
fi

echo "== 4. the C sandbox alone: each layer, and getppid() under the filter"
cat >"$work/layers.c" <<'C'
#define _GNU_SOURCE
#include "worker_sandbox.h"
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static double getppid_ns(void) {
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < 1000000; i++) syscall(SYS_getppid);
    clock_gettime(CLOCK_MONOTONIC, &end);
    return ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / 1e6;
}
int main(int argc, char **argv) {
    (void)argc;
    int32_t self = open(argv[0], O_RDONLY);
    const char *paths[] = {"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"};
    const char *proc[] = {"/proc"};
    pb_sandbox_policy policy = {
        .struct_size = sizeof policy, .layers = PB_SANDBOX_ALL_LAYERS, .readable_fds = &self, .readable_fd_count = 1,
        .readable_paths = paths, .readable_path_count = 5, .file_reading_paths = proc, .file_reading_path_count = 1,
        .address_space_bytes = 2ull << 30, .open_files = 64, .cpu_seconds = 60,
    };
    pb_sandbox_report report = {.struct_size = sizeof report};
    double before = getppid_ns();
    int status = pb_sandbox_confine(&policy, &report);
    double after = getppid_ns();
    printf("%d %.0f %.0f %.0f %.0f %.0f %.0f %u\n", status, report.total_ns / 1e3, report.landlock_ns / 1e3, report.seccomp_ns / 1e3,
           report.rlimits_ns / 1e3, before, after, report.seccomp_instructions);
    return 0;
}
C
clang -O2 -std=c11 -I Sources/CWorkerSandbox/include Sources/CWorkerSandbox/worker_sandbox.c Sources/CWorkerSandbox/seccomp_filter.c \
    Sources/CWorkerSandbox/syscall_names.c "$work/layers.c" -o "$work/layers" -ldl
# Its output goes through a pipe: the file-size limit of 0 would refuse a file.
for _ in $(seq "$rounds"); do ${timed[@]+"${timed[@]}"} "$work/layers" | cat; done | python3 -c '
import statistics, sys
rows = [list(map(float, line.split())) for line in sys.stdin]
assert all(row[0] == 0 for row in rows), "a layer did not apply"
for index, name in [(1, "total"), (2, "Landlock"), (3, "seccomp"), (4, "rlimits")]:
    print(f"  {name:<9} median {statistics.median(row[index] for row in rows):6.0f} µs")
print(f"  the filter: {int(rows[0][7])} BPF instructions")
print(f"  getppid() median {statistics.median(row[5] for row in rows):.0f} ns without the filter, {statistics.median(row[6] for row in rows):.0f} ns with it")
'
