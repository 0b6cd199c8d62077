#!/usr/bin/env python3
"""The system calls plugin workers make once confined, against the allow list.

Runs `host fetch` of every symbol the given plugin directories provide,
each plugin in a worker, under `strace -f`, and counts the calls each worker
(and every thread it starts) makes after it installs its seccomp filter:
what the allow list in Sources/CWorkerSandbox/seccomp_filter.c must hold.
For ioctl, prctl and fcntl it also counts the commands. Each call is marked
with its rule, or NOT LISTED; the script exits 1 if any is not listed.

The workers run without their namespaces (HOST_SANDBOX_DISABLE=namespaces):
in a PID namespace strace sees thread ids it cannot match to the host's.
Namespaces add no system call after the filter.

Usage: scripts/syscall-profile.py [--host .build/debug/host] [--api-base-url URL] PLUGINS_DIR...
"""
import argparse, collections, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^(\d+)\s+(?:<\.\.\. (\w+) resumed>|(\w+)\()(.*)$")
DETAILED = {"ioctl": 1, "prctl": 0, "fcntl": 1}


def allow_list():
    """The calls seccomp_filter.c names, with their rule's macro."""
    text = open(os.path.join(ROOT, "Sources/CWorkerSandbox/seccomp_filter.c")).read()
    return {name: macro for macro, name in re.findall(r"^\s*(ALLOW|FAIL|RULE)\((\w+),", text, re.M)}


def profile(trace):
    """Counts per call, and per command for the detailed ones, after each worker's seccomp()."""
    parent, workers, confined = {}, set(), set()
    counts, commands = collections.Counter(), collections.defaultdict(collections.Counter)

    def worker_of(tid):
        for _ in range(64):
            if tid in workers:
                return tid
            if tid not in parent:
                return None
            tid = parent[tid]
        return None

    for line in open(trace, errors="replace"):
        match = LINE.match(line)
        if not match:
            continue
        tid, resumed, name, rest = int(match.group(1)), match.group(2), match.group(3), match.group(4)
        call = name or resumed
        if call in ("clone", "clone3", "fork", "vfork"):
            result = re.search(r"= (\d+)\s*$", line)
            if result:
                parent[int(result.group(1))] = tid
        if name == "execve" and "patchbay-worker" in rest:
            workers.add(tid)
            confined.discard(tid)
        worker = worker_of(tid)
        if worker is None or resumed:
            continue
        if tid == worker and tid not in confined:
            if name == "seccomp":
                confined.add(tid)
            continue
        counts[name] += 1
        if name in DETAILED:
            arguments = rest.split(",")
            index = DETAILED[name]
            commands[name][arguments[index].strip().rstrip(")") if len(arguments) > index else "?"] += 1
    return len(workers), counts, commands


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default=os.path.join(ROOT, ".build/debug/host"))
    parser.add_argument("--api-base-url", default="file://" + os.path.join(ROOT, "Fixtures/coinbase"))
    parser.add_argument("directories", nargs="+")
    options = parser.parse_args()

    environment = dict(os.environ, HOST_SANDBOX_DISABLE="namespaces", HOST_NO_CACHE="1")
    flags = ["--isolate"] + [argument for directory in options.directories for argument in ("--plugins-dir", directory)]
    listed = subprocess.run([options.host, "list-fetchers", "--format", "json"] + flags, env=environment, capture_output=True, text=True)
    symbols = [row["symbol"] for row in json.loads(listed.stdout or "[]")]
    if not symbols:
        sys.exit(f"syscall-profile: no plugin in {' '.join(options.directories)}: {listed.stderr.strip()}")
    with tempfile.TemporaryDirectory() as scratch:
        trace = os.path.join(scratch, "trace")
        subprocess.run(
            ["strace", "-f", "-qq", "-o", trace, options.host, "fetch"] + symbols + ["--api-base-url", options.api_base_url] + flags,
            env=environment, capture_output=True)
        workers, counts, commands = profile(trace)

    rules = allow_list()
    print(f"{workers} workers fetched {', '.join(symbols)}; calls after the filter:")
    missing = []
    for call, count in sorted(counts.items()):
        rule = rules.get(call)
        if rule is None:
            missing.append(call)
        print(f"{count:7d}  {call:<22} {rule or 'NOT LISTED'}")
        for command, times in commands[call].most_common(8):
            print(f"{'':9}{times:6d}  {command}")
    if missing:
        print(f"not on the allow list: {', '.join(missing)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
