// swift-tools-version: 6.1
// Benchmarks for Patchbay, in a package of their own so that users of Patchbay
// never resolve the benchmark dependencies. Run from this folder:
//
//   swift package --disable-sandbox benchmark
import PackageDescription

let package = Package(
    name: "PatchbayBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Patchbay", path: "..", traits: []),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
    ],
    targets: [
        // The services under test, and their registration in Patchbay.
        .target(
            name: "Workload",
            dependencies: [.product(name: "Patchbay", package: "Patchbay")]
        ),
        // A bare resolve loop for callgrind: `bash count-instructions.sh`.
        .executableTarget(name: "ResolveLoop", dependencies: ["Workload"]),
        .executableTarget(
            name: "ContainerBenchmarks",
            dependencies: [
                "Workload",
                .product(name: "Patchbay", package: "Patchbay"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Benchmarks/ContainerBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        )
    ]
)
