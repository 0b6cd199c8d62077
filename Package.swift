// swift-tools-version: 6.1
import PackageDescription

// One package, three consumers (docs/PACKAGE_LAYOUT.md):
//
// - the container (`Patchbay`, `PatchbayTesting`) and the plugin SDK
//   (`PluginABI`, `PriceKit`, `PluginSDK`) use no other package;
// - the host uses every package below, and only under the `Host` trait.
//
// `Host` is on by default, so `swift build` and `swift test` here build and
// test everything. A consumer that depends on this package with `traits: []`
// turns it off, and SwiftPM (6.2 and later) then resolves none of the host's
// dependencies. Keep it that way: every `.product` from another package goes
// behind `.when(traits: ["Host"])`, or `scripts/check-consumers.sh` fails.

/// Target dependencies that only the host uses.
let hostOnly: TargetDependencyCondition? = .when(traits: ["Host"])

/// For the worker and the modules it links: no implicit import of the
/// concurrency and string-processing modules, so `patchbay-worker` loads
/// only libswiftCore (and libswiftGlibc, libswiftSynchronization) at start:
/// libswift_Concurrency alone brings libdispatch and libBlocksRuntime.
/// Only the host's targets use these, and no consumer builds them.
let workerSwiftSettings: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-concurrency-module-import", "-Xfrontend", "-disable-implicit-string-processing-module-import",
    ])
]

let package = Package(
    name: "Patchbay",
    // The minimums the container and the SDK need (Synchronization's `Mutex`
    // and `Atomic`); they build there, untested. The host's targets are
    // Linux-only, which no `platforms` entry can say: they load ELF `.so`
    // plugins through /proc, sandbox workers with Landlock and seccomp, and
    // import Glibc and FoundationEssentials unconditionally. Elsewhere, depend
    // on the container or the SDK products (with `traits: []`), not the host.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The dependency-injection container, usable by any Swift program.
        .library(name: "Patchbay", targets: ["Patchbay"]),
        // Swift Testing support: give each test its own container.
        .library(name: "PatchbayTesting", targets: ["PatchbayTesting"]),
        // The C ABI between the host and its plugins (a single header).
        .library(name: "PluginABI", targets: ["PluginABI"]),
        // What a Swift plugin links: never linked into the host.
        .library(name: "PluginSDK", targets: ["PluginSDK"]),
        // The bundled plugins, loaded by `host` with dlopen.
        .library(name: "BitcoinPlugin", type: .dynamic, targets: ["BitcoinPlugin"]),
        .library(name: "EthereumPlugin", type: .dynamic, targets: ["EthereumPlugin"]),
        .library(name: "BitstampPlugin", type: .dynamic, targets: ["BitstampPlugin"]),
        // No PluginHost product: nothing outside this package uses the host's
        // library (plugin authors use PluginSDK, container users Patchbay), so
        // its API is `package`, free to change with the `host` command.
        // The host's HTTP client, loaded by `host` on its first http(s) request.
        .library(name: "HostHTTP", type: .dynamic, targets: ["HostHTTP"]),
        .executable(name: "host", targets: ["HostCommand"]),
        // What `host` starts once per sandboxed plugin (WorkerStartup).
        .executable(name: "patchbay-worker", targets: ["PluginWorker"]),
    ],
    traits: [
        .trait(
            name: "Host",
            description: "The plugin host and its HTTP client, with SwiftNIO, swift-nio-ssl, AsyncHTTPClient, swift-crypto, swift-log and swift-argument-parser."
        ),
        .default(enabledTraits: ["Host"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Only the tests use these two: they issue their own CA and server certificates.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // NB: one C thread-local for the engine; Swift has no thread-local storage.
        .target(name: "CPatchbay"),
        .target(name: "Patchbay", dependencies: ["CPatchbay"]),
        .target(name: "PatchbayTesting", dependencies: ["Patchbay"]),

        .target(name: "PluginABI"),
        .target(name: "PriceKit"),
        .target(name: "PluginSDK", dependencies: ["PluginABI", "PriceKit"]),
        .target(name: "BitcoinPlugin", dependencies: ["PluginSDK"], path: "Plugins/BitcoinPlugin"),
        .target(name: "EthereumPlugin", dependencies: ["PluginSDK"], path: "Plugins/EthereumPlugin"),
        .target(name: "BitstampPlugin", dependencies: ["PluginSDK"], path: "Plugins/BitstampPlugin"),

        .target(name: "HostShared", dependencies: ["HostHTTPABI", "PluginABI"]),
        // The host's side of the C boundary, for the host's own loader and a worker's alike: no Foundation.
        // CWorkerSandbox for the Swift runtime's directory, which a worker's root maps and a plugin's
        // missing runtime libraries are taken from (SwiftRuntime).
        .target(name: "PluginBoundary", dependencies: ["CWorkerSandbox", "PluginABI"], swiftSettings: workerSwiftSettings),
        // The frames between the host and a worker, and the worker's start-up contract: no Foundation.
        .target(name: "WorkerProtocol", dependencies: ["CWorkerSandbox", "PluginBoundary"], swiftSettings: workerSwiftSettings),
        // `patchbay-worker`: only the sandbox, the frames and the boundary; PluginHost is out of its reach.
        .executableTarget(
            name: "PluginWorker", dependencies: ["CWorkerSandbox", "PluginABI", "PluginBoundary", "WorkerProtocol"], swiftSettings: workerSwiftSettings),
        // NB: Landlock, seccomp-bpf and rlimits for isolated workers, in C: raw system calls Swift cannot make.
        .target(name: "CWorkerSandbox"),
        .target(name: "HostHTTPABI", dependencies: ["PluginABI"]),
        // NB: openat2(2), which glibc does not wrap, for file:// reads that stay beneath their directory.
        .target(name: "CFileBeneath"),
        .target(
            name: "HostHTTP",
            dependencies: [
                "HostHTTPABI",
                "HostShared",
                "PluginABI",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: hostOnly),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: hostOnly),
            ]
        ),
        .target(
            name: "PluginHost",
            dependencies: [
                "CFileBeneath",
                "CWorkerSandbox",
                "HostHTTPABI",
                "HostShared",
                "Patchbay",
                "PluginABI",
                "PluginBoundary",
                "WorkerProtocol",
                .product(name: "Logging", package: "swift-log", condition: hostOnly),
                .product(name: "Crypto", package: "swift-crypto", condition: hostOnly),
            ]
        ),
        .executableTarget(
            name: "HostCommand",
            dependencies: [
                "Patchbay",
                "PluginBoundary",
                "PluginHost",
                "WorkerProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: hostOnly),
                .product(name: "Logging", package: "swift-log", condition: hostOnly),
            ],
            plugins: ["BuildInfo"]
        ),
        // The commit and the Swift version `host --version` prints, written into the build folder, never the source tree.
        .plugin(name: "BuildInfo", capability: .buildTool(), path: "BuildPlugins/BuildInfo"),

        // Fuzz targets for every parser of untrusted input (docs/FUZZING.md).
        // `scripts/fuzz.sh` builds PatchbayFuzz as a libFuzzer binary; in a
        // normal build it replays saved inputs, and FuzzTargetTests replays
        // the corpora under `Fuzz/`. No product: nothing outside uses them.
        .target(name: "FuzzTargets", dependencies: ["HostHTTPABI", "HostShared", "PluginABI", "PluginBoundary", "PluginHost", "PriceKit", "WorkerProtocol"]),
        // NB: declares libFuzzer's driver, which PatchbayFuzz's own `main` calls.
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "PatchbayFuzz", dependencies: ["CFuzzerDriver", "FuzzTargets", "PluginHost"]),

        .testTarget(name: "PatchbayTests", dependencies: ["Patchbay", "PatchbayTesting"]),
        .testTarget(name: "PriceKitTests", dependencies: ["PriceKit"]),
        .testTarget(name: "FuzzTargetTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "PluginSDKTests", dependencies: ["PluginABI", "PluginSDK"]),
        .testTarget(name: "WorkerProtocolTests", dependencies: ["PluginBoundary", "WorkerProtocol"]),
        .testTarget(
            name: "PluginHostTests",
            dependencies: [
                "HostShared",
                "PluginBoundary",
                "PluginHost",
                "HostCommand",
                "WorkerProtocol",
                .product(name: "NIOCore", package: "swift-nio", condition: hostOnly),
                .product(name: "NIOPosix", package: "swift-nio", condition: hostOnly),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: hostOnly),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: hostOnly),
                .product(name: "X509", package: "swift-certificates", condition: hostOnly),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: hostOnly),
                .product(name: "Crypto", package: "swift-crypto", condition: hostOnly),
            ],
            // `host --help` as it should read; see HelpSnapshotTests.
            exclude: ["Snapshots"]
        ),
    ]
)
