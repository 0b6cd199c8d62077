#!/usr/bin/env bash
# Installs the host into a temporary prefix with scripts/install.sh and uses
# the installed copy the way a user would, with nothing but the prefix and
# the system: `env -i`, PATH=PREFIX/bin:/usr/bin:/bin and a fresh HOME.
#
#   0. the installer names the host(1) that PREFIX/bin/host now hides (a
#      fake one, behind PREFIX/bin on the PATH it runs with);
#   1. ldd finds every library of the host, its HTTP library, its worker and
#      its bundled plugins inside the prefix or among the system's own;
#   2. list-fetchers lists the bundled plugins, list-plugins runs them
#      in-process (the install vouches for them), and --version runs; so
#      does the second name, patchbay;
#   3. fetch from the Coinbase-shaped file:// fixtures, and over http:// from
#      a loopback server, through the installed HTTP library; offline advice
#      names each failed request's own file and no fixtures the install lacks;
#   4. new-plugin --language c finds the installed header; make builds the
#      project; inspect passes it; fetch gets its price;
#   4b. new-plugin --language swift (against this checkout's PluginSDK), built
#      with the toolchain on the caller's PATH in each configuration of
#      SWIFT_PLUGIN_CONFIGS: inspect passes it in a sandboxed worker, fetch
#      gets its price sandboxed, then `host trust` and fetch in-process;
#   5. --uninstall leaves nothing in the prefix (patchbay included).
#
# Usage: scripts/check-install.sh                      release build, then the checks
#        scripts/check-install.sh --build-dir DIR      install from an existing build (CI reuses .build/debug)
#        KEEP=1 scripts/check-install.sh               keep the temporary folder
#        SWIFT_PLUGIN_CONFIGS=debug scripts/check-install.sh ...
#                                                      build the Swift plugin in debug only (default: "debug release";
#                                                      CI: debug, about 15 s, where release adds about 30 s)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/patchbay-install.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "check-install: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
prefix="$work/prefix"
home="$work/home"
mkdir -p "$prefix" "$home" "$work/dns-bin"
prefix=$(cd "$prefix" && pwd -P)

failures=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /' | tail -n 20; failures=$((failures + 1)); }
# user CMD...: runs CMD as a user of the installed host would, in $home.
user() { (cd "$home" && env -i PATH="$prefix/bin:/usr/bin:/bin" HOME="$home" "$@"); }

# A stand-in for host(1), the DNS lookup tool, behind PREFIX/bin on the installer's PATH.
printf '#!/bin/sh\necho "the DNS lookup tool"\n' > "$work/dns-bin/host"
chmod +x "$work/dns-bin/host"
PATH="$prefix/bin:$work/dns-bin:$PATH" "$repo/scripts/install.sh" --prefix "$prefix" "$@" > "$work/install.log" 2>&1 || { cat "$work/install.log"; echo "FAIL install"; exit 1; }
pass "install into a temporary prefix"

# 0. The installer says which host(1) the install hides, and how to call it.
shadowed="note: $prefix/bin/host now comes before $work/dns-bin/host (the DNS lookup tool); call that one as $work/dns-bin/host, or this one as patchbay"
if grep -q -x -F "$shadowed" "$work/install.log"; then
    pass "install.sh names the host(1) it hides"
else
    fail "install.sh names the host(1) it hides" "$(cat "$work/install.log")"
fi

# 1. Every library from the prefix or the system (what the loader finds by
# itself, `ldconfig -p`), none from the toolchain or the build.
system=$(ldconfig -p | awk '$NF ~ /^\// { print $NF }' | xargs realpath -m | sort -u)
outside=
# The runtime set beside them (libFoundationNetworking.so needs the system's
# libcurl, ...) is for plugins that link it, and is not checked here.
for binary in "$prefix/bin/host" "$prefix/lib/patchbay/libHostHTTP.so" "$prefix"/lib/patchbay/plugins/*.so $( [ -f "$prefix/lib/patchbay/patchbay-worker" ] && echo "$prefix/lib/patchbay/patchbay-worker"); do
    resolved=$(env -i PATH=/usr/bin:/bin ldd "$binary" 2>&1)
    if grep -q "not found" <<< "$resolved"; then outside+="$binary: $(grep "not found" <<< "$resolved")"$'\n'; fi
    while read -r path; do
        case $path in "$prefix"/*) continue ;; esac
        grep -q -x -F "$(realpath -m "$path")" <<< "$system" || outside+="$binary: $path"$'\n'
    done < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 }' <<< "$resolved")
done
if [ -z "$outside" ]; then pass "ldd: every library is in the prefix or the system's"; else fail "ldd: libraries from outside the prefix and the system" "$outside"; fi

# 2. The installed host lists its bundled plugins.
if output=$(user host list-fetchers 2>&1) && grep -q "^BTC " <<< "$output" && grep -q "^ETH " <<< "$output"; then
    pass "host list-fetchers"
else
    fail "host list-fetchers" "$output"
fi
# The install's location vouches for its bundled plugins: each runs in-process, none in a worker.
if output=$(user host list-plugins 2>&1) && [ "$(grep -c -E "^[A-Za-z]+Plugin +[^ ]+ +loaded +in-process +bundled " <<< "$output")" -ge 2 ] \
    && ! grep -q -E "^[A-Za-z]+Plugin .* (isolated|failed) " <<< "$output"; then
    pass "host list-plugins: the bundled plugins run in-process, vouched for by the install"
else
    fail "host list-plugins: the bundled plugins run in-process, vouched for by the install" "$output"
fi
if output=$(user host --version 2>&1) && grep -q "plugin ABI" <<< "$output"; then pass "host --version"; else fail "host --version" "$output"; fi
if [ "$(readlink "$prefix/bin/patchbay")" = host ] && output=$(user patchbay fetch ETH --api-base-url "file://$repo/Fixtures/coinbase" 2>&1) \
    && grep -q "^ETH .*2718.281828459045235360287" <<< "$output"; then
    pass "patchbay, the second name, fetches as host does"
else
    fail "patchbay, the second name, fetches as host does" "$output"
fi

# 3. A fetch from the file:// fixtures goes through the installed HTTP routing and the bundled plugins.
if output=$(user host fetch ETH BTC --api-base-url "file://$repo/Fixtures/coinbase" 2>&1) && grep -q "^ETH .*2718.281828459045235360287" <<< "$output"; then
    pass "host fetch ETH BTC from file://"
else
    fail "host fetch ETH BTC from file://" "$output"
fi

# 3a. Offline, each source's line names the file its own request needs, and
# no fixture folder, which the install does not have; a Bitstamp fixture
# missing reads as Bitstamp's 404. Port 1 on loopback refuses at once.
if ! output=$(user host fetch BTC --all-sources --api-base-url http://127.0.0.1:1 2>&1) \
    && grep -q "BitcoinPlugin failed: .*; with no network, give --api-base-url file:///DIR, a folder that holds DIR/v2/prices/BTC-USD/spot.json$" <<< "$output" \
    && grep -q "BitstampPlugin failed: .*; with no network, give --api-base-url file:///DIR, a folder that holds DIR/api/v2/ticker/btcusd.json$" <<< "$output" \
    && ! grep -q -e "ETH-USD" -e "Fixtures/" <<< "$output"; then
    pass "offline advice names each source's own file, and no fixtures the install lacks"
else
    fail "offline advice names each source's own file, and no fixtures the install lacks" "$output"
fi
if ! output=$(user host fetch BTC --source BitstampPlugin --api-base-url "BitstampPlugin=file://$home/no-fixtures" 2>&1) \
    && grep -q "^host: error: BTC: Bitstamp answered HTTP 404 for BTC/USD: no fixture file at " <<< "$output" && ! grep -q Coinbase <<< "$output"; then
    pass "a missing Bitstamp fixture reads as Bitstamp's 404"
else
    fail "a missing Bitstamp fixture reads as Bitstamp's 404" "$output"
fi

# 3b. An http:// fetch goes through the installed libHostHTTP.so, to a
# loopback server that answers from the same fixtures (60 s at most).
python3 - "$repo/Fixtures/coinbase" "$work/port" <<'PY' &
import http.server, os, sys, time
root, port_file = sys.argv[1], sys.argv[2]
class Fixtures(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = os.path.join(root, self.path.lstrip("/") + ".json")
        body = open(path, "rb").read() if os.path.isfile(path) else b'{"errors":[{"id":"not_found","message":"no fixture"}]}'
        self.send_response(200 if os.path.isfile(path) else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Fixtures)
server.timeout = 1
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_port))
os.rename(port_file + ".tmp", port_file)
deadline = time.monotonic() + 60
while time.monotonic() < deadline and not os.path.exists(port_file + ".stop"):
    server.handle_request()
PY
server=$!
for _ in $(seq 100); do [ -f "$work/port" ] && break; sleep 0.1; done
if [ -f "$work/port" ] && output=$(user host fetch ETH --api-base-url "http://127.0.0.1:$(cat "$work/port")" 2>&1) && grep -q "^ETH .*2718.281828459045235360287" <<< "$output"; then
    pass "host fetch ETH over http:// (the installed libHostHTTP.so)"
else
    fail "host fetch ETH over http:// (the installed libHostHTTP.so)" "${output:-the loopback server did not start}"
fi
touch "$work/port.stop"
wait "$server" 2>/dev/null || true

# 4. A C plugin made from the installed header, built, inspected and fetched.
if command -v make >/dev/null && command -v cc >/dev/null; then
    mkdir -p "$home/fixtures/v2/prices/DOGE-USD"
    echo '{"data":{"base":"DOGE","currency":"USD","amount":"0.1234"}}' > "$home/fixtures/v2/prices/DOGE-USD/spot.json"
    if output=$(user host new-plugin Dogecoin --language c --symbol DOGE 2>&1); then pass "host new-plugin --language c"; else fail "host new-plugin --language c" "$output"; fi
    if output=$(user make -C Dogecoin 2>&1); then pass "make"; else fail "make" "$output"; fi
    if output=$(user host inspect Dogecoin/plugins/libDogecoinPlugin.so 2>&1); then pass "host inspect"; else fail "host inspect" "$output"; fi
    if output=$(cd "$home/Dogecoin" && env -i PATH="$prefix/bin:/usr/bin:/bin" HOME="$home" host fetch DOGE --api-base-url "file://$home/fixtures" 2>&1) \
        && grep -q "^DOGE .*0.1234" <<< "$output"; then
        pass "host fetch DOGE from ./plugins"
    else
        fail "host fetch DOGE from ./plugins" "$output"
    fi
else
    echo "SKIP new-plugin --language c: no make or cc"
fi

# 4b. A Swift plugin made with new-plugin, built with the caller's toolchain
# (the one that built the host), against the installed host: sandboxed (a
# stranger's), then in-process once trusted, in each configuration.
if command -v swift >/dev/null; then
    mkdir -p "$home/swift-fixtures/v2/prices/SWFT-USD"
    echo '{"data":{"base":"SWFT","currency":"USD","amount":"4.5678"}}' > "$home/swift-fixtures/v2/prices/SWFT-USD/spot.json"
    if output=$(user host new-plugin SwiftCoin --language swift --symbol SWFT --sdk-path "$repo" 2>&1); then pass "host new-plugin --language swift"; else fail "host new-plugin --language swift" "$output"; fi
    for config in ${SWIFT_PLUGIN_CONFIGS:-debug release}; do
        started=$(date +%s)
        plugins="$home/SwiftCoin/plugins-$config"
        if ! output=$(cd "$home/SwiftCoin" && HOME="$home" swift build -c "$config" --product SwiftCoinPlugin --cache-path "$work/swift-cache" 2>&1); then
            fail "swift build -c $config (the Swift plugin)" "$output"
            continue
        fi
        mkdir -p "$plugins" && cp "$home/SwiftCoin/.build/$config/libSwiftCoinPlugin.so" "$plugins/"
        plugin="$plugins/libSwiftCoinPlugin.so"
        if output=$(user host inspect "$plugin" 2>&1) && grep -q "Inspected in  an isolated worker" <<< "$output"; then
            pass "host inspect: the $config Swift plugin loads in a sandboxed worker"
        else
            fail "host inspect: the $config Swift plugin loads in a sandboxed worker" "$output"
        fi
        if output=$(user host fetch SWFT --plugins-dir "$plugins" --api-base-url "file://$home/swift-fixtures" 2>&1) \
            && grep -q "^SWFT .*4.5678 .*SwiftCoinPlugin (unvouched" <<< "$output"; then
            pass "host fetch SWFT: the $config Swift plugin, sandboxed"
        else
            fail "host fetch SWFT: the $config Swift plugin, sandboxed" "$output"
        fi
        if output=$(user host trust "$plugin" 2>&1) && output=$(user host list-plugins --plugins-dir "$plugins" 2>&1) \
            && grep -q -E "^SwiftCoinPlugin +[^ ]+ +loaded +in-process " <<< "$output" \
            && output=$(user host fetch SWFT --plugins-dir "$plugins" --api-base-url "file://$home/swift-fixtures" 2>&1) \
            && grep -q -E "^SWFT .*4.5678 +SwiftCoinPlugin\$" <<< "$output"; then
            pass "host trust, then fetch SWFT: the $config Swift plugin, in-process ($(( $(date +%s) - started )) s with its build)"
        else
            fail "host trust, then fetch SWFT: the $config Swift plugin, in-process" "$output"
        fi
    done
else
    echo "SKIP new-plugin --language swift: no swift on the PATH"
fi

# 5. Uninstalling leaves nothing behind.
if output=$("$repo/scripts/install.sh" --prefix "$prefix" --uninstall 2>&1) && [ -z "$(ls -A "$prefix")" ]; then
    pass "install.sh --uninstall leaves an empty prefix"
else
    fail "install.sh --uninstall leaves an empty prefix" "$output"$'\n'"$(cd "$prefix" && find . | head -20)"
fi

if [ "$failures" -gt 0 ]; then echo "check-install: $failures check(s) failed"; exit 1; fi
echo "check-install: the installed host works with nothing but its prefix and the system"
