#!/usr/bin/env bash
# What the worker sandbox costs (issue 11, section 3; target: at most 1 ms
# more per worker than without it):
#   1. the confinement itself, timed inside each worker (`-v` prints it),
#      layer by layer;
#   2. `host list-fetchers --isolate` with the sandbox and with every layer
#      turned off (HOST_SANDBOX_DISABLE=all), in interleaved rounds: wall
#      time, and CPU time of the host and its workers;
#   3. a system call under the seccomp filter against one without it, and
#      each layer's cost, from a C program that links the sandbox alone.
# Usage: scripts/benchmark-sandbox.sh          (release build)
#        SCRATCH=.build-other ROUNDS=100 scripts/benchmark-sandbox.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${SCRATCH:-.build}
rounds=${ROUNDS:-60}
for product in host BitcoinPlugin EthereumPlugin; do
    swift build -c release --scratch-path "$scratch" --product "$product" | grep -E "error|warning: .*Sources" || true
done
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
work=.build-bench/sandbox
mkdir -p "$work"

echo "== 1. confinement inside the worker (median of $rounds runs, 2 workers each)"
python3 - "$bin/host" "$rounds" <<'PY'
import re, statistics, subprocess, sys
host, rounds = sys.argv[1], int(sys.argv[2])
pattern = re.compile(r"confined in (\d+) µs \(Landlock (\d+) µs, seccomp (\d+) µs, rlimits (\d+) µs\)")
samples = []
for _ in range(rounds):
    run = subprocess.run([host, "list-fetchers", "--isolate", "-v"], capture_output=True, text=True)
    samples += [tuple(map(int, m.groups())) for m in pattern.finditer(run.stderr)]
for index, name in enumerate(["total", "Landlock", "seccomp", "rlimits"]):
    values = [sample[index] for sample in samples]
    print(f"  {name:<9} median {statistics.median(values):6.0f} µs   p90 {statistics.quantiles(values, n=10)[-1]:6.0f} µs")
PY

echo "== 2. host list-fetchers --isolate, with and without the sandbox ($rounds interleaved rounds)"
python3 - "$bin/host" "$rounds" <<'PY'
import os, random, resource, statistics, subprocess, sys, time
host, rounds = sys.argv[1], int(sys.argv[2])
variants = {"sandbox": {}, "no sandbox": {"HOST_SANDBOX_DISABLE": "all"}}
wall = {name: [] for name in variants}
cpu = {name: [] for name in variants}
for _ in range(rounds):
    for name in random.sample(list(variants), len(variants)):
        environment = dict(os.environ, **variants[name])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([host, "list-fetchers", "--isolate"], env=environment, capture_output=True, check=True)
        wall[name].append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
for name in variants:
    print(f"  {name:<10} wall median {statistics.median(wall[name]) * 1000:5.1f} ms (mean {statistics.mean(wall[name]) * 1000:5.1f} ± {statistics.stdev(wall[name]) * 1000:4.1f})"
          f"   CPU median {statistics.median(cpu[name]) * 1000:5.1f} ms (mean {statistics.mean(cpu[name]) * 1000:5.1f})")
print(f"  difference: wall {(statistics.median(wall['sandbox']) - statistics.median(wall['no sandbox'])) * 1000:+.2f} ms,"
      f" CPU {(statistics.mean(cpu['sandbox']) - statistics.mean(cpu['no sandbox'])) * 1000 / 2:+.2f} ms per worker (mean)")
PY

echo "== 3. the C sandbox alone: each layer, and getppid() under the filter"
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
    printf("%d %.0f %.0f %.0f %.0f %.0f %.0f\n", status, report.total_ns / 1e3, report.landlock_ns / 1e3, report.seccomp_ns / 1e3,
           report.rlimits_ns / 1e3, before, after);
    return 0;
}
C
clang -O2 -std=c11 -I Sources/CWorkerSandbox/include Sources/CWorkerSandbox/worker_sandbox.c "$work/layers.c" -o "$work/layers" -ldl
# Its output goes through a pipe: the file-size limit of 0 would refuse a file.
for _ in $(seq "$rounds"); do "$work/layers" | cat; done | python3 -c '
import statistics, sys
rows = [list(map(float, line.split())) for line in sys.stdin]
assert all(row[0] == 0 for row in rows), "a layer did not apply"
for index, name in [(1, "total"), (2, "Landlock"), (3, "seccomp"), (4, "rlimits")]:
    print(f"  {name:<9} median {statistics.median(row[index] for row in rows):6.0f} µs")
print(f"  getppid() median {statistics.median(row[5] for row in rows):.0f} ns without the filter, {statistics.median(row[6] for row in rows):.0f} ns with it")
'
