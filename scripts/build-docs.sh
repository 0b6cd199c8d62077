#!/usr/bin/env bash
# Builds the DocC documentation of every module with a catalog (Patchbay,
# PluginHost, PluginSDK, PriceKit) with the toolchain's own `docc`, and
# fails on any warning: a broken ``Symbol`` link, a missing article, a
# parameter documented under the wrong name. Then checks that every relative
# link in the Markdown pages (README.md, docs/, ...) resolves
# (scripts/check-doc-links.sh).
#
# The symbol graphs come from `swift package dump-symbol-graph`, which uses
# the debug build (building it first if needed); no package plugin is
# resolved. PluginHost's API is `package`, so symbols are taken down to that
# level.
#
# Usage: scripts/build-docs.sh                 writes .build/documentation/MODULE.doccarchive
#        OUTPUT=DIR scripts/build-docs.sh      writes the archives into DIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
output=${OUTPUT:-$repo/.build/documentation}
mkdir -p "$output"

log=$(mktemp "${TMPDIR:-/tmp}/patchbay-docs.XXXXXX")
trap 'rm -f "$log"' EXIT
if ! swift package dump-symbol-graph --minimum-access-level package --skip-synthesized-members >"$log" 2>&1; then
    tail -n 30 "$log"
    echo "build-docs: swift package dump-symbol-graph failed" >&2
    exit 1
fi
graphs=$(sed -n 's/.*Files written to \(.*\)$/\1/p' "$log" | tail -n 1)
[ -d "$graphs" ] || { cat "$log"; echo "build-docs: cannot tell where the symbol graphs were written" >&2; exit 1; }

failures=0
for catalog in Sources/*/*.docc; do
    module=$(basename "$(dirname "$catalog")")
    # Only this module's graphs (and its extensions of others'), so links resolve within it.
    only=$(mktemp -d "${TMPDIR:-/tmp}/patchbay-graphs.XXXXXX")
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$only/" 2>/dev/null || true
    if docc convert "$catalog" --additional-symbol-graph-dir "$only" --fallback-display-name "$module" \
        --fallback-bundle-identifier "com.patchbay.$module" --output-path "$output/$module.doccarchive" \
        --warnings-as-errors >"$log" 2>&1; then
        echo "PASS docs $module: $output/$module.doccarchive"
    else
        echo "FAIL docs $module:"
        sed 's/^/    /' "$log" | tail -n 40
        failures=$((failures + 1))
    fi
    rm -rf "$only"
done
# Every relative link in the Markdown pages resolves (a file, a heading).
"$repo/scripts/check-doc-links.sh" || failures=$((failures + 1))
[ "$failures" -eq 0 ] || { echo "build-docs: $failures check(s) failed: documentation warnings or errors, or broken links" >&2; exit 1; }
