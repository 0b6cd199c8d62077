#!/usr/bin/env bash
# The README's first offline command, exactly as written, on a fresh clone.
#
# Clones this repository's HEAD into a temporary folder, takes from README.md
# the first command of a console block that fetches from the file://
# fixtures, runs it there with bash, and checks that it exits 0 and prints
# the fixtures' ether price. The command is read from the README, not copied
# here, so the two cannot drift apart. It builds from nothing: several
# minutes on two cores.
#
# Usage: scripts/check-fresh-clone.sh
#        KEEP=1 scripts/check-fresh-clone.sh   keep the clone
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# A command continued with a trailing backslash takes its next lines too, as
# a shell given the copied lines would.
command=$(awk '
    taking { text = text "\n" $0; if ($0 !~ /\\$/) { print text; exit } next }
    /^```console/ { inside = 1; next }
    /^```/ { inside = 0 }
    inside && /^\$ / && /file:\/\// {
        sub(/^\$ /, ""); text = $0
        if ($0 ~ /\\$/) { taking = 1; next }
        print text; exit
    }
' "$repo/README.md")
if [ -z "$command" ]; then
    echo "FAIL check-fresh-clone: README.md has no console command that fetches from file://; the README must show one"
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/patchbay-clone.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "check-fresh-clone: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
git clone --quiet "$repo" "$work/patchbay"

echo "check-fresh-clone: in a fresh clone, running the README's first offline command:"
echo "  \$ $command"
start=$(date +%s)
status=0
(cd "$work/patchbay" && bash -c "$command") > "$work/stdout" 2> "$work/stderr" || status=$?
seconds=$(($(date +%s) - start))
if [ "$status" -ne 0 ] || ! grep -q '^ETH .*2718.281828459045235360287' "$work/stdout"; then
    echo "FAIL check-fresh-clone: exit status $status after ${seconds} s; it printed:"
    cat "$work/stdout"
    tail -n 30 "$work/stderr"
    exit 1
fi
cat "$work/stdout"
echo "PASS check-fresh-clone: the README's first offline command works on a fresh clone (${seconds} s, build included)"
