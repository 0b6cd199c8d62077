#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds plugin files.
///
/// Search order, first match wins for a symbol:
/// 1. the `--plugins-dir` directories, in the order given; otherwise
/// 2. the `HOST_PLUGINS_DIR` directories (colon-separated); otherwise
/// 3. the defaults: the bundled plugins beside the `host` executable (files
///    named `lib*Plugin.so`, which is how `swift build` names them), then
///    `./plugins` when it exists.
///
/// Within a directory, files load in file-name order. The same file reached
/// twice (say through a symlinked directory) loads once.
public struct PluginDiscovery: Sendable {
    /// One place to search.
    public struct Location: Sendable, Equatable {
        /// The directory.
        public let directory: String
        /// Which files in it count as plugins.
        public let pattern: Pattern
        /// Whether a missing directory deserves a warning (the user named it).
        public let isExplicit: Bool

        /// Creates a location.
        public init(directory: String, pattern: Pattern, isExplicit: Bool) {
            self.directory = directory
            self.pattern = pattern
            self.isExplicit = isExplicit
        }
    }

    /// Which files of a directory count as plugins.
    public enum Pattern: Sendable, Equatable {
        /// Every `*.so` file.
        case anySharedLibrary
        /// Only `lib*Plugin.so`, for directories that hold other libraries too.
        case bundledPlugins

        func matches(_ fileName: String) -> Bool {
            switch self {
            case .anySharedLibrary: fileName.hasSuffix(sharedLibrarySuffix)
            case .bundledPlugins: fileName.hasPrefix("lib") && fileName.hasSuffix("Plugin" + sharedLibrarySuffix)
            }
        }
    }

    /// Where to look, in order.
    public let locations: [Location]

    /// Creates a discovery over explicit locations.
    public init(locations: [Location]) {
        self.locations = locations
    }

    /// The search path for a run of `host`.
    /// - Parameters:
    ///   - flags: The `--plugins-dir` values.
    ///   - environment: The value of `HOST_PLUGINS_DIR`, if set.
    ///   - executableDirectory: Where the running `host` binary is.
    ///   - workingDirectory: The current directory, for `./plugins`.
    public init(flags: [String], environment: String?, executableDirectory: String, workingDirectory: String) {
        let explicit = flags.isEmpty ? (environment ?? "").split(separator: ":").map(String.init) : flags
        if !explicit.isEmpty {
            locations = explicit.map { Location(directory: $0, pattern: .anySharedLibrary, isExplicit: true) }
        } else {
            locations = [
                Location(directory: executableDirectory, pattern: .bundledPlugins, isExplicit: false),
                Location(directory: workingDirectory + "/plugins", pattern: .anySharedLibrary, isExplicit: false),
            ]
        }
    }

    /// The directory of the running executable, where `swift build` puts the
    /// bundled plugins beside `host`.
    public static var runningExecutableDirectory: String {
        FilePaths.directory(of: FilePaths.resolved("/proc/self/exe"))
    }

    /// The plugin files to load, in load order.
    /// - Parameter warn: Receives one line per explicit directory that cannot be read.
    public func files(warn: (String) -> Void = { _ in }) -> [String] {
        var seen = Set<String>()
        var files: [String] = []
        for location in locations {
            let names: [String]
            do {
                names = try FilePaths.names(in: location.directory)
            } catch {
                if location.isExplicit {
                    warn("plugins directory \(location.directory) cannot be read (\(error.reason)); check the path given to --plugins-dir or HOST_PLUGINS_DIR")
                }
                continue
            }
            for name in names.sorted() where location.pattern.matches(name) {
                let path = FilePaths.join(location.directory, name)
                if let facts = try? FileFacts.of(path: path) {
                    guard facts.kind != .directory else { continue }
                } else {
                    // A dangling symlink stays in, so the loader can say what it points at.
                    guard (try? FileFacts.of(linkAt: path))?.kind == .symbolicLink else { continue }
                }
                let identity = FilePaths.resolved(path)
                if seen.insert(identity).inserted { files.append(path) }
            }
        }
        return files
    }
}

#if os(macOS)
let sharedLibrarySuffix = ".dylib"
#else
let sharedLibrarySuffix = ".so"
#endif
