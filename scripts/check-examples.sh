#!/usr/bin/env bash
# Builds and runs, end to end, everything a plugin author is shown:
#   getting-started  the snippets of PluginSDK's Getting Started article,
#                    extracted from the Markdown exactly as written: the
#                    Swift manifest, entry point and test, and the C plugin;
#                    and the test of PriceKit's Getting Started;
#   c-example        Examples/CPlugin, built with its Makefile;
#   rust-example     Examples/RustPlugin, with `cargo build --offline`, or
#                    `rustc` when there is no cargo;
#   new-plugin-c     `host new-plugin --language c`, built with its Makefile;
#   new-plugin-swift `host new-plugin --language swift`, built as its README says.
# Each plugin is loaded into a built `host` and must fetch its price from a
# file:// fixture, byte for byte, and turn a missing fixture (a Coinbase-shaped
# 404 body) into one error line. Swift packages depend on this checkout by
# path, resolve no other package, and build with an empty cache.
#
# A missing toolchain (cc, cargo and rustc) skips its checks with a SKIP line
# that says why; it does not fail.
#
# Usage: HOST=path/to/host scripts/check-examples.sh   (default .build/debug/host)
#        KEEP=1 scripts/check-examples.sh               keep the temporary directory
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
host=${HOST:-$repo/.build/debug/host}
case $host in /*) ;; *) host=$PWD/$host ;; esac
[ -x "$host" ] || { echo "check-examples: no executable host at $host; build it with \`swift build\`" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/patchbay-examples.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "check-examples: keeping $work"
else
    trap 'rm -rf "$work"' EXIT
fi
failures=0
cc=$(command -v cc || command -v clang || true)

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f s", b - a }'; }

# fail NAME REASON [LOG]: prints the FAIL line, then the end of the log.
fail() {
    echo "FAIL $1: $2"
    [ -n "${3:-}" ] && [ -s "$3" ] && tail -n 20 "$3" | sed 's/^/    /'
    failures=$((failures + 1))
}

# The Coinbase-shaped fixtures every plugin reads: {base}/v2/prices/SYM-USD/spot.json.
fixtures=$work/fixtures
for pair in DOGE:0.1234 TEST:0.1234 SOL:123.456789012345678901 ADA:0.98765432109876543210; do
    symbol=${pair%%:*} amount=${pair#*:}
    mkdir -p "$fixtures/v2/prices/$symbol-USD"
    printf '{"data":{"base":"%s","currency":"USD","amount":"%s"}}\n' "$symbol" "$amount" >"$fixtures/v2/prices/$symbol-USD/spot.json"
done
amount_of() { sed -n 's/.*"amount":"\([^"]*\)".*/\1/p' "$fixtures/v2/prices/$1-USD/spot.json"; }

# fetches NAME DIR SYMBOL PLUGIN: the plugin in DIR must fetch SYMBOL's exact
# amount, and answer a currency without a fixture with one Coinbase error line.
fetches() {
    local name=$1 dir=$2 symbol=$3 plugin=$4 output expected error
    expected=$(amount_of "$symbol")
    output=$("$host" fetch "$symbol" --plugins-dir "$dir" --api-base-url "file://$fixtures" 2>&1) || true
    if ! printf '%s\n' "$output" | grep -Eq "^$symbol +USD +$expected +$plugin( \\(unvouched, [^)]*\\))?\$"; then
        printf '%s\n' "$output" >"$work/$name-fetch.log"
        fail "$name" "host did not fetch $symbol $expected through $plugin" "$work/$name-fetch.log"
        return 1
    fi
    error=$("$host" fetch "$symbol" --currency GBP --plugins-dir "$dir" --api-base-url "file://$fixtures" 2>&1 >/dev/null) && {
        fail "$name" "fetching $symbol in GBP, which has no fixture, succeeded"
        return 1
    }
    case $error in
        "host: error: $symbol: Coinbase answered HTTP 404 for $symbol-GBP: no fixture file at "*"(not_found)") ;;
        *)
            printf '%s\n' "$error" >"$work/$name-error.log"
            fail "$name" "the 404 body did not become one Coinbase error line" "$work/$name-error.log"
            return 1
            ;;
    esac
    fetched="$symbol $expected, and GBP's 404 as one Coinbase error line"
}

# inspects NAME FILE: `host inspect` must call it a working plugin.
inspects() {
    if ! "$host" inspect "$2" >"$work/$1-inspect.log" 2>&1; then
        fail "$1" "host inspect $2 exited with an error" "$work/$1-inspect.log"
        return 1
    fi
}

# swift_build NAME DIR ARGS...: a first build with an empty cache, which must
# resolve no package but this checkout.
swift_build() {
    local name=$1 dir=$2
    shift 2
    if ! (cd "$dir" && swift build --cache-path "$dir/.cache" "$@" >"$dir/build.log" 2>&1); then
        fail "$name" "swift build $* failed" "$dir/build.log"
        return 1
    fi
    if [ -n "$(ls -A "$dir/.build/checkouts" 2>/dev/null)" ]; then
        fail "$name" "resolved other packages: $(ls "$dir/.build/checkouts" | tr '\n' ' ')"
        return 1
    fi
}

# block FILE LANGUAGE N: the Nth fenced block of LANGUAGE in the Markdown FILE.
block() {
    awk -v want="$3" -v fence="\`\`\`$2" '
        $0 == fence { n++; on = (n == want); next }
        /^```/ { on = 0 }
        on { print }' "$1"
}

check_getting_started() {
    local name=getting-started dir=$work/DogecoinPlugin article=$repo/Sources/PluginSDK/PluginSDK.docc/GettingStarted.md started
    started=$(now)
    mkdir -p "$dir/Sources/DogecoinPlugin" "$dir/Tests/DogecoinPluginTests" "$dir/Tests/PriceKitArticleTests" "$dir/plugins"
    # The manifest, with this checkout in place of the article's ../patchbay,
    # and a test target for the article's test.
    block "$article" swift 1 \
        | sed "s|\.package(name: \"patchbay\", path: \"\.\./patchbay\", traits: \[\])|.package(name: \"patchbay\", path: \"$repo\", traits: [])|" \
        | sed 's|^    \]$|        .testTarget(name: "DogecoinPluginTests", dependencies: ["DogecoinPlugin"]),\n        .testTarget(name: "PriceKitArticleTests", dependencies: ["DogecoinPlugin"]),\n    ]|' >"$dir/Package.swift"
    block "$article" swift 2 >"$dir/Sources/DogecoinPlugin/DogecoinPlugin.swift"
    # The tests exactly as the articles show them, imports included: PluginSDK's, and PriceKit's second snippet.
    block "$article" swift 3 >"$dir/Tests/DogecoinPluginTests/DogecoinPluginTests.swift"
    block "$repo/Sources/PriceKit/PriceKit.docc/GettingStarted.md" swift 2 >"$dir/Tests/PriceKitArticleTests/PriceKitArticleTests.swift"
    grep -q "path: \"$repo\"" "$dir/Package.swift" || { fail "$name" "the article's manifest no longer has the dependency line this script replaces"; return 0; }
    swift_build "$name" "$dir" --build-tests || return 0
    if ! (cd "$dir" && swift test --skip-build --cache-path "$dir/.cache" >"$dir/test.log" 2>&1); then
        fail "$name" "the article's test failed" "$dir/test.log"
        return 0
    fi
    cp "$dir/.build/debug/libDogecoinPlugin.so" "$dir/plugins/"
    fetches "$name" "$dir/plugins" DOGE DogecoinPlugin || return 0
    local swift_result=$fetched
    if [ -z "$cc" ]; then
        echo "PASS $name: Swift manifest, entry point and both articles' tests built and passed, fetched $swift_result ($(seconds "$started" "$(now)")); C snippet SKIPPED: no cc or clang"
        return 0
    fi
    mkdir -p "$work/c-snippet/plugins"
    block "$article" c 1 >"$work/c-snippet/test_plugin.c"
    if ! "$cc" -std=c11 -Wall -Wextra -Werror -shared -fPIC -I "$repo/Sources/PluginABI/include" \
        "$work/c-snippet/test_plugin.c" -o "$work/c-snippet/plugins/libTestPlugin.so" 2>"$work/c-snippet/build.log"; then
        fail "$name" "the article's C plugin does not compile" "$work/c-snippet/build.log"
        return 0
    fi
    fetches "$name" "$work/c-snippet/plugins" TEST TestPlugin || return 0
    echo "PASS $name: Swift manifest, entry point and both articles' tests built and passed, fetched $swift_result; C plugin compiled with -Wall -Wextra -Werror, fetched $fetched ($(seconds "$started" "$(now)"))"
}

check_c_example() {
    local name=c-example dir=$work/c-example started
    [ -n "$cc" ] || { echo "SKIP $name: no cc or clang on PATH; install gcc or clang to build it"; return 0; }
    command -v make >/dev/null || { echo "SKIP $name: no make on PATH; install make to build it"; return 0; }
    started=$(now)
    mkdir -p "$dir/plugins"
    if ! make -s -C "$repo/Examples/CPlugin" CC="$cc" PLUGIN="$dir/plugins/libSolanaCPlugin.so" >"$dir/build.log" 2>&1; then
        fail "$name" "make failed" "$dir/build.log"
        return 0
    fi
    inspects "$name" "$dir/plugins/libSolanaCPlugin.so" || return 0
    fetches "$name" "$dir/plugins" SOL SolanaCPlugin || return 0
    echo "PASS $name: built with make, inspected, fetched $fetched ($(seconds "$started" "$(now)"))"
}

check_rust_example() {
    local name=rust-example dir=$work/rust-example started how
    mkdir -p "$dir/plugins"
    started=$(now)
    if command -v cargo >/dev/null; then
        how="cargo build --release --offline"
        if ! cargo build --release --offline --quiet --manifest-path "$repo/Examples/RustPlugin/Cargo.toml" --target-dir "$dir/target" >"$dir/build.log" 2>&1; then
            fail "$name" "$how failed" "$dir/build.log"
            return 0
        fi
        cp "$dir/target/release/librust_price_plugin.so" "$dir/plugins/"
    elif command -v rustc >/dev/null; then
        how="rustc"
        if ! rustc --edition 2021 --crate-type cdylib -O -C panic=abort -o "$dir/plugins/librust_price_plugin.so" \
            "$repo/Examples/RustPlugin/src/lib.rs" >"$dir/build.log" 2>&1; then
            fail "$name" "$how failed" "$dir/build.log"
            return 0
        fi
    else
        echo "SKIP $name: neither cargo nor rustc is on PATH; install Rust (https://rustup.rs) to build it"
        return 0
    fi
    inspects "$name" "$dir/plugins/librust_price_plugin.so" || return 0
    fetches "$name" "$dir/plugins" ADA CardanoRustPlugin || return 0
    echo "PASS $name: built with $how, inspected, fetched $fetched ($(seconds "$started" "$(now)"))"
}

check_new_plugin_c() {
    local name=new-plugin-c dir=$work/scaffold-c started
    [ -n "$cc" ] || { echo "SKIP $name: no cc or clang on PATH; install gcc or clang to build it"; return 0; }
    command -v make >/dev/null || { echo "SKIP $name: no make on PATH; install make to build it"; return 0; }
    started=$(now)
    if ! "$host" new-plugin Dogecoin --language c --symbol DOGE --output "$dir" >"$work/$name.log" 2>&1; then
        fail "$name" "host new-plugin failed" "$work/$name.log"
        return 0
    fi
    # Exactly the README's build step.
    if ! (cd "$dir" && make CC="$cc" >"$dir/build.log" 2>&1); then
        fail "$name" "make failed" "$dir/build.log"
        return 0
    fi
    inspects "$name" "$dir/plugins/libDogecoinPlugin.so" || return 0
    fetches "$name" "$dir/plugins" DOGE DogecoinPlugin || return 0
    echo "PASS $name: made, built with make as its README says, inspected, fetched $fetched ($(seconds "$started" "$(now)"))"
}

check_new_plugin_swift() {
    local name=new-plugin-swift dir=$work/scaffold-swift started
    started=$(now)
    if ! "$host" new-plugin Dogecoin --language swift --symbol DOGE --output "$dir" --sdk-path "$repo" >"$work/$name.log" 2>&1; then
        fail "$name" "host new-plugin failed" "$work/$name.log"
        return 0
    fi
    # The README's build step, with an empty cache.
    swift_build "$name" "$dir" -c release --product DogecoinPlugin || return 0
    mkdir -p "$dir/plugins"
    cp "$dir/.build/release/libDogecoinPlugin.so" "$dir/plugins/"
    inspects "$name" "$dir/plugins/libDogecoinPlugin.so" || return 0
    fetches "$name" "$dir/plugins" DOGE DogecoinPlugin || return 0
    echo "PASS $name: made, built in release as its README says, inspected, fetched $fetched ($(seconds "$started" "$(now)"))"
}

started=$(now)
check_getting_started
check_c_example
check_rust_example
check_new_plugin_c
check_new_plugin_swift
echo "check-examples: $failures failure(s) in $(seconds "$started" "$(now)")"
[ "$failures" = 0 ]
