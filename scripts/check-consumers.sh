#!/usr/bin/env bash
# Builds the two consumers that must stand alone (docs/PACKAGE_LAYOUT.md):
#   container-user  an app that registers and resolves one service with
#                   Patchbay, and a test of it that uses PatchbayTesting;
#   plugin-author   a Swift plugin (.so) that uses only PluginSDK.
# Each is a tiny package, made in a temporary directory, that depends on this
# checkout by path with the line the README documents, through a folder named
# differently from this one, so the line is shown to work whatever the
# checkout is called. Each must resolve no other package (no pin in
# Package.resolved, nothing checked out), build from an empty cache, and run.
# The plugin is also loaded into a built `host` and fetches a price from a
# file:// fixture: the host at $HOST, which must then exist, or else
# .build/debug/host when there is one.
#
# Usage: scripts/check-consumers.sh            one PASS/FAIL line per consumer
#        HOST=path/to/host scripts/check-consumers.sh
#        KEEP=1 scripts/check-consumers.sh     keep the temporary directory
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/patchbay-consumers.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "check-consumers: keeping $work"
else
    trap 'rm -rf "$work"' EXIT
fi
# The checkout under a name that is neither this folder's nor the package's.
ln -s "$repo" "$work/checkout-under-another-name"
dependency='.package(name: "patchbay", path: "../checkout-under-another-name", traits: [])'

host=${HOST:-$repo/.build/debug/host}
case $host in /*) ;; *) host=$PWD/$host ;; esac
failures=0

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f s", b - a }'; }

# fail NAME REASON LOG: prints the FAIL line, then the end of the log.
fail() {
    echo "FAIL $1: $2"
    [ -s "$3" ] && tail -n 20 "$3" | sed 's/^/    /'
    failures=$((failures + 1))
}

# resolve NAME DIR: resolves DIR with an empty cache, then checks that it
# pinned and checked out no package. Sets `resolve_time`.
resolve() {
    local name=$1 dir=$2 started pins
    started=$(now)
    if ! (cd "$dir" && swift package resolve --cache-path "$dir/.cache" >"$dir/resolve.log" 2>&1); then
        fail "$name" "swift package resolve failed" "$dir/resolve.log"
        return 1
    fi
    resolve_time=$(seconds "$started" "$(now)")
    pins=0
    [ -f "$dir/Package.resolved" ] && pins=$(grep -c '"identity"' "$dir/Package.resolved" || true)
    if [ "$pins" != 0 ] || [ -n "$(ls -A "$dir/.build/checkouts" 2>/dev/null)" ]; then
        grep '"identity"' "$dir/Package.resolved" >>"$dir/resolve.log" 2>/dev/null || true
        fail "$name" "resolved $pins other package(s); expected none (is a product of another package used without \`condition: hostOnly\` in Package.swift?)" "$dir/resolve.log"
        return 1
    fi
}

# build NAME DIR [ARGS...]: a first build, with an empty cache. Sets `build_time`.
build() {
    local name=$1 dir=$2 started
    shift 2
    started=$(now)
    if ! (cd "$dir" && swift build --cache-path "$dir/.cache" "$@" >"$dir/build.log" 2>&1); then
        fail "$name" "swift build failed" "$dir/build.log"
        return 1
    fi
    build_time=$(seconds "$started" "$(now)")
}

check_container_user() {
    local name=container-user dir=$work/container-user output
    mkdir -p "$dir/Sources/App" "$dir/Tests/AppTests"
    cat >"$dir/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [
        $dependency,
    ],
    targets: [
        .target(name: "Greeting", dependencies: [.product(name: "Patchbay", package: "patchbay")]),
        .executableTarget(name: "App", dependencies: ["Greeting", .product(name: "Patchbay", package: "patchbay")]),
        .testTarget(
            name: "AppTests",
            dependencies: ["Greeting", .product(name: "PatchbayTesting", package: "patchbay")]
        ),
    ]
)
EOF
    mkdir -p "$dir/Sources/Greeting"
    cat >"$dir/Sources/Greeting/Greeting.swift" <<'EOF'
public import Patchbay

public protocol Greeting: Sendable {
    var text: String { get }
}

public struct PlainGreeting: Greeting {
    public let text = "resolved by Patchbay"
    public init() {}
}

/// Registers the app's services.
public func registerServices(in container: Container) {
    container.register((any Greeting).self) { _ in PlainGreeting() }
}
EOF
    cat >"$dir/Sources/App/main.swift" <<'EOF'
import Greeting
import Patchbay

let container = Container()
registerServices(in: container)
print(try container.resolve((any Greeting).self).text)
EOF
    cat >"$dir/Tests/AppTests/GreetingTests.swift" <<'EOF'
import Greeting
import Patchbay
import PatchbayTesting
import Testing

struct StubGreeting: Greeting {
    let text = "stub"
}

@Suite struct GreetingTests {
    @Test(.isolatedContainer { container in
        container.register((any Greeting).self) { _ in StubGreeting() }
    })
    func resolvesTheTestsOwnContainer() throws {
        #expect(try Container.current.resolve((any Greeting).self).text == "stub")
    }
}
EOF
    resolve "$name" "$dir" || return 0
    build "$name" "$dir" --build-tests || return 0
    output=$("$dir/.build/debug/App" 2>&1) || { fail "$name" "App exited with an error: $output" /dev/null; return 0; }
    if [ "$output" != "resolved by Patchbay" ]; then
        fail "$name" "App printed \"$output\", expected \"resolved by Patchbay\"" /dev/null
        return 0
    fi
    if ! (cd "$dir" && swift test --skip-build --cache-path "$dir/.cache" >"$dir/test.log" 2>&1); then
        fail "$name" "its PatchbayTesting test failed" "$dir/test.log"
        return 0
    fi
    echo "PASS $name: resolved no other package (resolve $resolve_time); first build with tests $build_time; App printed \"$output\", its PatchbayTesting test passed"
}

check_plugin_author() {
    local name=plugin-author dir=$work/DogecoinPlugin output loaded
    mkdir -p "$dir/Sources/DogecoinPlugin"
    # The manifest and the entry point of PluginSDK's Getting Started article.
    cat >"$dir/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DogecoinPlugin",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DogecoinPlugin", type: .dynamic, targets: ["DogecoinPlugin"]),
    ],
    dependencies: [
        $dependency,
    ],
    targets: [
        .target(
            name: "DogecoinPlugin",
            dependencies: [.product(name: "PluginSDK", package: "patchbay")]
        ),
    ]
)
EOF
    cat >"$dir/Sources/DogecoinPlugin/DogecoinPlugin.swift" <<'EOF'
import PluginSDK

/// The plugin's entry point: the host finds it by the name `patchbay_plugin_entry`.
@c(patchbay_plugin_entry)
public func patchbayPluginEntry() -> UnsafeRawPointer {
    PluginExport.descriptor(name: "DogecoinPlugin", version: "1.0.0") { services in
        [CoinbaseSpotFetcher(base: "DOGE", displayName: "Dogecoin",
                             networking: services.networking, apiBaseURL: services.apiBaseURL)]
    }
}
EOF
    resolve "$name" "$dir" || return 0
    build "$name" "$dir" --product DogecoinPlugin || return 0
    local library=$dir/.build/debug/libDogecoinPlugin.so
    if ! nm -D --defined-only "$library" 2>/dev/null | grep -q ' T patchbay_plugin_entry$'; then
        fail "$name" "$library does not export patchbay_plugin_entry" /dev/null
        return 0
    fi
    if [ ! -x "$host" ] && [ -n "${HOST:-}" ]; then
        fail "$name" "no executable host at HOST=$HOST; build it with \`swift build\`" /dev/null
        return 0
    elif [ ! -x "$host" ]; then
        echo "PASS $name: resolved no other package (resolve $resolve_time); first build $build_time; built libDogecoinPlugin.so (not loaded: no host at $host; build the root first)"
        return 0
    fi
    mkdir -p "$dir/plugins" "$dir/fixtures/v2/prices/DOGE-USD"
    cp "$library" "$dir/plugins/"
    echo '{"data":{"base":"DOGE","currency":"USD","amount":"0.1234"}}' >"$dir/fixtures/v2/prices/DOGE-USD/spot.json"
    output=$("$host" fetch DOGE --plugins-dir "$dir/plugins" --api-base-url "file://$dir/fixtures" 2>&1) || true
    loaded=$(printf '%s\n' "$output" | grep -E '^DOGE +USD +0\.1234 +DogecoinPlugin( \(unvouched, [^)]*\))?$' || true)
    if [ -z "$loaded" ]; then
        printf '%s\n' "$output" >"$dir/host.log"
        fail "$name" "$host did not fetch DOGE through the plugin" "$dir/host.log"
        return 0
    fi
    echo "PASS $name: resolved no other package (resolve $resolve_time); first build $build_time; host loaded libDogecoinPlugin.so and fetched \"$loaded\""
}

started=$(now)
check_container_user
check_plugin_author
echo "check-consumers: $failures failure(s) in $(seconds "$started" "$(now)")"
[ "$failures" = 0 ]
