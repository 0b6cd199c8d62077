#!/usr/bin/env bash
# What a user would run instead of `host fetch ETH`: curl on the same URL
# (issue 41). Each row is `curl -s URL` against `host fetch ETH
# --api-base-url BASE`, on the same loopback Coinbase-shaped server, as the
# ratio of their CPU medians (user + system time of the process and its
# children) from interleaved rounds:
#
#   http   curl -s http://127.0.0.1:PORT/…            target <= 2x
#   https  curl -s --cacert CA https://127.0.0.1:PORT/…, and the host with
#          --ca-file CA (a test CA made here with openssl)     target <= 2x
#   file   curl -s file://…/spot.json, the host's --api-base-url file://…
#                                                             target <= 1.5x
#
# The wall-time medians are printed too. The environment is the caller's,
# without HOST_*: SSL_CERT_FILE and SSL_CERT_DIR, if set, apply to both.
# The last lines, `MEASURE name value detail`, are what check-benchmarks.sh reads.
#
# Usage: scripts/benchmark-curl.sh               ROUNDS=40 by default; builds release
#        BIN=DIR scripts/benchmark-curl.sh       the release host, libHostHTTP.so and
#                                                bundled plugins in DIR; build nothing
#        ONLY=http,https scripts/benchmark-curl.sh   some rows only
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

rounds=${ROUNDS:-40}
only=${ONLY:-http,https,file}
for tool in curl openssl python3; do
    command -v "$tool" >/dev/null || { echo "benchmark-curl: $tool is not installed" >&2; exit 1; }
done
if [ -n "${BIN:-}" ]; then
    bin=$(cd "$BIN" && pwd)
else
    scratch=${SCRATCH:-.build}
    for product in host HostHTTP BitcoinPlugin EthereumPlugin; do
        swift build -c release --scratch-path "$scratch" --product "$product" 2>&1 | grep -E "error|warning: .*Sources" || true
    done
    bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
fi
for file in host libHostHTTP.so libEthereumPlugin.so; do
    [ -e "$bin/$file" ] || { echo "benchmark-curl: no $file in $bin; build the release products or set BIN" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/patchbay-curl.XXXXXX")
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# A test CA and a certificate for 127.0.0.1 that it signed.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=Benchmark CA" \
    -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >"$work/server.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile "$work/server.ext" -out "$work/server.pem" 2>/dev/null

# One loopback server, plain and TLS on two ports, answering from the shipped fixtures.
python3 scripts/lib/coinbase_server.py "$repo/Fixtures/coinbase" "$work/ports" "$work/server.pem" "$work/server.key" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/ports" ] && break; sleep 0.1; done
read -r http_port https_port <"$work/ports"
path=/v2/prices/ETH-USD/spot

python3 - "$rounds" "$bin/host" "$work" "$only" "$http_port" "$https_port" "$path" "$repo/Fixtures/coinbase" <<'PY'
import os, sys
sys.path.insert(0, "scripts/lib")
from interleaved import load, median, rounds as interleaved_rounds, run
count, host, work, only, http_port, https_port, path, fixtures = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split(","), *sys.argv[5:]
environment = {key: value for key, value in os.environ.items() if not key.startswith("HOST_")}
environment["XDG_CACHE_HOME"] = f"{work}/cache"
ca = f"{work}/ca.pem"
rows = {
    "http": (["curl", "-s", f"http://127.0.0.1:{http_port}{path}"],
             [host, "fetch", "ETH", "--api-base-url", f"http://127.0.0.1:{http_port}"]),
    "https": (["curl", "-s", "--cacert", ca, f"https://127.0.0.1:{https_port}{path}"],
              [host, "fetch", "ETH", "--api-base-url", f"https://127.0.0.1:{https_port}", "--ca-file", ca]),
    "file": (["curl", "-s", f"file://{fixtures}{path}.json"],
             [host, "fetch", "ETH", "--api-base-url", f"file://{fixtures}"]),
}

def once(command):
    def call():
        result = run(command, env=environment, capture=True)
        if result.status != 0 or "2718.281828459045235360287" not in result.stdout:
            sys.exit(f"benchmark-curl: {' '.join(command)} exited {result.status}, printing {result.stdout!r}: {result.stderr[-500:]}")
        return result
    return call

measures = []
print(f"== {count} interleaved rounds each; CPU (user + system) medians, then wall medians")
print(f"{'row':<6} {'curl cpu':>9} {'host cpu':>9} {'ratio':>6}   {'curl wall':>9} {'host wall':>9} {'ratio':>6}")
for name, (curl, fetch) in rows.items():
    if name not in only:
        continue
    kept = interleaved_rounds({"curl": once(curl), "host": once(fetch)}, count=count)
    cc, hc = median(kept["curl"], "cpu"), median(kept["host"], "cpu")
    cw, hw = median(kept["curl"]), median(kept["host"])
    print(f"{name:<6} {cc * 1000:7.1f}ms {hc * 1000:7.1f}ms {hc / cc:5.2f}x   {cw * 1000:7.1f}ms {hw * 1000:7.1f}ms {hw / cw:5.2f}x  (load {load()})", flush=True)
    measures.append((name, hc / cc, f"{hc * 1000:.1f}ms/{cc * 1000:.1f}ms"))
for key, value, detail in measures:
    print(f"MEASURE Curl.{key} {value:.3f} {detail}")
PY
