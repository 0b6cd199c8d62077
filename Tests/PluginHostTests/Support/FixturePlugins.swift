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
        /// Segfaults inside `register_plugin`.
        case segfaultInRegistration = "segfault-in-registration"
        /// Never returns from `register_plugin`.
        case hangInLoad = "hang-in-load"
        /// Calls `abort()` in `fetch`: ABRT.
        case abortInFetch = "abort-in-fetch"
        /// Calls `exit(3)` in `fetch`: EXIT.
        case exitInFetch = "exit-in-fetch"
        /// `fetch` never returns: it blocks the thread that called it.
        case hangInFetch = "hang-in-fetch"
        /// Never calls the completion: NEVER.
        case neverCallsBack = "never-calls-back"
        /// Calls the completion twice, "1.00" then "666.00": TWICE.
        case callsBackTwice = "calls-back-twice"
        /// Calls the completion 1 s after the host's timeout: LATE.
        case callsBackLate = "calls-back-late"
        /// Starts a background process that outlives its worker, then answers "3.00": SPAWN.
        case spawnsChild = "spawns-child"

        var defines: [String] {
            switch self {
            case .cPlugin: []
            case .noEntryPoint: ["-DFIXTURE_NO_ENTRY"]
            case .wrongABI: ["-DFIXTURE_ABI_VERSION=99", "-DFIXTURE_NAME=\"WrongABIPlugin\""]
            case .badMagic: ["-DFIXTURE_MAGIC=0xDEADBEEF"]
            case .registrationFails: ["-DFIXTURE_REGISTER_FAILS", "-DFIXTURE_NAME=\"FailingPlugin\""]
            case .duplicateBTC: ["-DFIXTURE_SYMBOL=\"BTC\"", "-DFIXTURE_NAME=\"DuplicateBitcoinPlugin\""]
            case .segfaultInRegistration: ["-DFIXTURE_SEGV_IN_REGISTER", "-DFIXTURE_SYMBOL=\"SEGV\"", "-DFIXTURE_NAME=\"SegfaultingPlugin\""]
            case .hangInLoad: ["-DFIXTURE_HANG_IN_REGISTER", "-DFIXTURE_SYMBOL=\"HANG\"", "-DFIXTURE_NAME=\"HangingPlugin\""]
            case .abortInFetch: ["-DFIXTURE_ABORT_IN_FETCH", "-DFIXTURE_SYMBOL=\"ABRT\"", "-DFIXTURE_NAME=\"AbortingPlugin\""]
            case .exitInFetch: ["-DFIXTURE_EXIT_IN_FETCH", "-DFIXTURE_SYMBOL=\"EXIT\"", "-DFIXTURE_NAME=\"ExitingPlugin\""]
            case .hangInFetch: ["-DFIXTURE_HANG_IN_FETCH", "-DFIXTURE_SYMBOL=\"STUCK\"", "-DFIXTURE_NAME=\"StuckPlugin\""]
            case .neverCallsBack: ["-DFIXTURE_NEVER_CALLS_BACK", "-DFIXTURE_SYMBOL=\"NEVER\"", "-DFIXTURE_NAME=\"SilentPlugin\""]
            case .callsBackTwice: ["-DFIXTURE_CALLS_BACK_TWICE", "-DFIXTURE_SYMBOL=\"TWICE\"", "-DFIXTURE_NAME=\"TwicePlugin\""]
            case .callsBackLate: ["-DFIXTURE_CALLS_BACK_LATE", "-DFIXTURE_SYMBOL=\"LATE\"", "-DFIXTURE_NAME=\"LatePlugin\"", "-pthread"]
            case .spawnsChild: ["-DFIXTURE_SPAWNS_CHILD", "-DFIXTURE_SYMBOL=\"SPAWN\"", "-DFIXTURE_NAME=\"SpawningPlugin\""]
            }
        }

        var fileName: String { rawValue + ".so" }

        var fixture: Fixture { Fixture(fileName: fileName, defines: defines) }
    }

    /// Any C fixture plugin: a source under `Tests/Fixtures/CPlugins`, the
    /// `-D` switches it is compiled with, and the file name it gets.
    ///
    /// Suites that need fixtures of their own declare them as static
    /// constants of this type next to their tests, rather than as cases of
    /// ``Variant``.
    struct Fixture: Hashable, Sendable {
        var fileName: String
        var source: String
        var defines: [String]

        init(fileName: String, source: String = "Tests/Fixtures/CPlugins/fixture_plugin.c", defines: [String] = []) {
            self.fileName = fileName
            self.source = source
            self.defines = defines
        }
    }

    static let repositoryRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private static let built = Mutex<[Fixture: URL]>([:])
    private static let outputDirectory = Result { try TemporaryDirectory.make() }

    /// The compiled library for `variant`, built once per test run.
    static func library(_ variant: Variant) async throws -> URL {
        try await library(variant.fixture)
    }

    /// The compiled library for `fixture`, built once per test run.
    ///
    /// Tests run in parallel and may build the same fixture at once, or two
    /// fixtures of one file name with different switches (a test's port,
    /// compiled in because a worker sees none of the test's environment):
    /// each build goes to a directory of its own, so nobody ever copies a
    /// half-written library or another fixture's.
    static func library(_ fixture: Fixture) async throws -> URL {
        if let url = built.withLock({ $0[fixture] }) { return url }
        let directory = try outputDirectory.get().appending(path: UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appending(path: fixture.fileName)
        try await compile(source: fixture.source, defines: fixture.defines, to: output)
        built.withLock { $0[fixture] = output }
        return output
    }

    /// Copies the given fixtures (and optionally the bundled plugins) into a
    /// fresh plugins directory.
    static func directory(with variants: [Variant], bundled: [String] = [], extraFiles: [String: Data] = [:]) async throws -> URL {
        try await directory(containing: variants.map(\.fixture), bundled: bundled, extraFiles: extraFiles)
    }

    /// Copies the given fixtures (and optionally the bundled plugins) into a
    /// fresh plugins directory.
    static func directory(containing fixtures: [Fixture], bundled: [String] = [], extraFiles: [String: Data] = [:]) async throws -> URL {
        let directory = try TemporaryDirectory.make().appending(path: "plugins")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for fixture in fixtures {
            try FileManager.default.copyItem(at: await library(fixture), to: directory.appending(path: fixture.fileName))
        }
        for name in bundled {
            try FileManager.default.copyItem(at: bundledPlugin(name), to: directory.appending(path: bundledPlugin(name).lastPathComponent))
        }
        for (name, data) in extraFiles {
            try data.write(to: directory.appending(path: name))
        }
        return directory
    }

    /// A private copy of `variant`'s library: a file of its own, so this
    /// process loads it afresh (glibc hands back an already loaded library
    /// for the same inode), with statics no other test shares.
    static func privateCopy(of variant: Variant) async throws -> URL {
        let copy = try TemporaryDirectory.make().appending(path: variant.fileName)
        try FileManager.default.copyItem(at: await library(variant.fixture), to: copy)
        return copy
    }

    /// A bundled plugin as `swift build` left it, e.g. `bundledPlugin("Bitcoin")`.
    static func bundledPlugin(_ name: String) -> URL {
        CommandRunner.buildDirectory.appending(path: "lib\(name)Plugin.so")
    }

    /// A library that exports the HTTP client's entry points but reports
    /// HTTP ABI `version`, compiled afresh into a directory of its own.
    static func httpLibrary(reportingVersion version: UInt32) async throws -> URL {
        let output = try TemporaryDirectory.make().appending(path: "libHostHTTP.so")
        try await compile(source: "Tests/Fixtures/CHTTPLibrary/other_version.c", defines: ["-DOTHER_VERSION=\(version)u"], to: output)
        return output
    }

    /// A library of this host's HTTP ABI that takes every request and never
    /// answers one, compiled afresh into a directory of its own.
    static func silentHTTPLibrary() async throws -> URL {
        let output = try TemporaryDirectory.make().appending(path: "libHostHTTP.so")
        try await compile(source: "Tests/Fixtures/CHTTPLibrary/other_version.c", defines: ["-DNEVER_ANSWERS"], to: output)
        return output
    }

    /// Compiles without blocking a thread of the cooperative pool: tests
    /// run in parallel on as many pool threads as there are cores, and a
    /// test that waited here for clang would stall every other test's
    /// timers and child processes meanwhile, and with them their clocks.
    private static func compile(source: String, defines: [String], to output: URL) async throws {
        try await ChildProcessSlots.withSlot { try await compileInSlot(source: source, defines: defines, to: output) }
    }

    private static func compileInSlot(source: String, defines: [String], to output: URL) async throws {
        let (process, errors) = compilation(source: source, defines: defines, to: output)
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        // Read on a Dispatch thread: a blocking read must not hold a pool thread either.
        let message = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: errors.fileHandleForReading.readAll()) }
        }
        for await _ in exited.stream {}
        // Closed now, not at deinit: see CommandRunner.run.
        try? errors.fileHandleForReading.close()
        guard process.terminationStatus == 0 else {
            throw CompileError(message: String(decoding: message, as: UTF8.self))
        }
    }

    /// ``library(_:)`` for the few callers that cannot await, such as a
    /// trait's condition; it blocks its thread while clang runs.
    static func librarySynchronously(_ fixture: Fixture) throws -> URL {
        if let url = built.withLock({ $0[fixture] }) { return url }
        let output = try outputDirectory.get().appending(path: "\(UUID().uuidString)-\(fixture.fileName)")
        let (process, errors) = compilation(source: fixture.source, defines: fixture.defines, to: output)
        try process.run()
        let message = errors.fileHandleForReading.readAll()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CompileError(message: String(decoding: message, as: UTF8.self))
        }
        return output
    }

    private static func compilation(source: String, defines: [String], to output: URL) -> (Process, Pipe) {
        let source = repositoryRoot.appending(path: source)
        let include = repositoryRoot.appending(path: "Sources/PluginABI/include")
        let httpInclude = repositoryRoot.appending(path: "Sources/HostHTTPABI/include")
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = [compiler, "-shared", "-fPIC", "-std=c11", "-Wall", "-Werror", "-pthread", "-I", include.path, "-I", httpInclude.path] + defines
            + ["-o", output.path, source.path]
        let errors = Pipe()
        process.standardError = errors
        return (process, errors)
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
