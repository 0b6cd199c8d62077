#!/usr/bin/env bash
# Instructions per resolve, counted by callgrind: the difference between a run
# of 120,000 operations and one of 20,000, so start-up and registration cancel.
# Needs valgrind (Debian's `valgrind` package). Run from this folder:
#
#   bash count-instructions.sh [WORKLOAD ...]
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "count-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --product ResolveLoop >/dev/null 2>&1 ||
    { echo "count-instructions.sh: the loop does not build; run 'swift build -c release --product ResolveLoop' to see why" >&2; exit 1; }
loop=.build/release/ResolveLoop

count() { # workload operations -> instructions for the whole run
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$loop" "$1" "$2" 1 2>&1 | awk '/Collected/ { print $4 }'
}

workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(singleton transient argument named ranked graph lazy provider provider-get collection all alloc)
for workload in "${workloads[@]}"; do
    short=$(count "$workload" 20000)
    long=$(count "$workload" 120000)
    echo "$workload: $(( (long - short) / 100000 )) instructions per operation"
done
