import Foundation
import Synchronization

/// Builds the C fixture plugins from `Tests/Fixtures/CPlugins` into a
/// temporary directory, so that `swift build` never produces them and a
/// normal run of `host` never sees them.
enum FixturePlugins {
    /// A variant of `fixture_plugin.c`, chosen with `-D` switches.
    enum Variant: String, CaseIterable, Sendable {
        /// A working plugin in plain C: DOGE.
        case cPlugin = "libCDogecoinPlugin"
        /// Exports no `patchbay_plugin_entry`.
        case noEntryPoint = "no-entry-point"
        /// Built for ABI version 99.
        case wrongABI = "wrong-abi"
        /// Descriptor magic is not 'PBAY'.
        case badMagic = "bad-magic"
        /// `register_plugin` logs an error and fails.
        case registrationFails = "registration-fails"
        /// Registers BTC, which the bundled Bitcoin plugin already owns.
        case duplicateBTC = "zz-duplicate-btc"

        var defines: [String] {
            switch self {
            case .cPlugin: []
            case .noEntryPoint: ["-DFIXTURE_NO_ENTRY"]
            case .wrongABI: ["-DFIXTURE_ABI_VERSION=99", "-DFIXTURE_NAME=\"WrongABIPlugin\""]
            case .badMagic: ["-DFIXTURE_MAGIC=0xDEADBEEF"]
            case .registrationFails: ["-DFIXTURE_REGISTER_FAILS", "-DFIXTURE_NAME=\"FailingPlugin\""]
            case .duplicateBTC: ["-DFIXTURE_SYMBOL=\"BTC\"", "-DFIXTURE_NAME=\"DuplicateBitcoinPlugin\""]
            }
        }

        var fileName: String { rawValue + ".so" }
    }

    static let repositoryRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private static let built = Mutex<[Variant: URL]>([:])
    private static let outputDirectory = Result { try TemporaryDirectory.make() }

    /// The compiled library for `variant`, built once per test run.
    static func library(_ variant: Variant) throws -> URL {
        if let url = built.withLock({ $0[variant] }) { return url }
        let output = try outputDirectory.get().appending(path: variant.fileName)
        try compile(defines: variant.defines, to: output)
        built.withLock { $0[variant] = output }
        return output
    }

    /// Copies the given fixtures (and optionally the bundled plugins) into a
    /// fresh plugins directory.
    static func directory(with variants: [Variant], bundled: [String] = [], extraFiles: [String: Data] = [:]) throws -> URL {
        let directory = try TemporaryDirectory.make().appending(path: "plugins")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for variant in variants {
            try FileManager.default.copyItem(at: library(variant), to: directory.appending(path: variant.fileName))
        }
        for name in bundled {
            try FileManager.default.copyItem(at: bundledPlugin(name), to: directory.appending(path: bundledPlugin(name).lastPathComponent))
        }
        for (name, data) in extraFiles {
            try data.write(to: directory.appending(path: name))
        }
        return directory
    }

    /// A bundled plugin as `swift build` left it, e.g. `bundledPlugin("Bitcoin")`.
    static func bundledPlugin(_ name: String) -> URL {
        CommandRunner.buildDirectory.appending(path: "lib\(name)Plugin.so")
    }

    private static func compile(defines: [String], to output: URL) throws {
        let source = repositoryRoot.appending(path: "Tests/Fixtures/CPlugins/fixture_plugin.c")
        let include = repositoryRoot.appending(path: "Sources/PluginABI/include")
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = [compiler, "-shared", "-fPIC", "-std=c11", "-Wall", "-Werror", "-I", include.path] + defines
            + ["-o", output.path, source.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readAll()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CompileError(message: String(decoding: message, as: UTF8.self))
        }
    }

    /// The Swift toolchain ships clang; fall back to the system's cc.
    private static var compiler: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let hasClang = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/clang") }
        return hasClang ? "clang" : "cc"
    }

    struct CompileError: Error, CustomStringConvertible {
        let message: String
        var description: String { "compiling a fixture plugin failed:\n\(message)" }
    }
}
