import FoundationEssentials
import PluginBoundary

import Glibc

/// Finds plugin files.
///
/// Search order, first match wins for a symbol:
/// 1. the `--plugins-dir` directories, in the order given; otherwise
/// 2. the `HOST_PLUGINS_DIR` directories (colon-separated); otherwise
/// 3. the usual directories, in this order:
///    1. the bundled plugins, beside the `host` executable in a build
///       directory or in `PREFIX/lib/patchbay/plugins` when installed
///       (``InstalledLayout``; files named `lib*Plugin.so`, which is how
///       `swift build` names them);
///    2. the user's, `$XDG_DATA_HOME/patchbay/plugins`
///       (`~/.local/share/patchbay/plugins` when `XDG_DATA_HOME` is unset);
///    3. the system's, `/usr/local/lib/patchbay/plugins`, then
///       `/usr/lib/patchbay/plugins`;
///    4. `./plugins`.
///
/// Within a directory, files load in file-name order. The same file reached
/// twice (say through a symlinked directory) loads once. A usual directory
/// that does not exist is skipped in silence; one the user named is warned about.
package struct PluginDiscovery: Sendable {
    /// One place to search.
    package struct Location: Sendable, Equatable {
        /// The directory.
        package let directory: String
        /// Which files in it count as plugins.
        package let pattern: Pattern
        /// Whether a missing directory deserves a warning (the user named it).
        package let isExplicit: Bool
        /// Which of the search path's places this is.
        package let origin: Origin

        /// Creates a location.
        package init(directory: String, pattern: Pattern, isExplicit: Bool, origin: Origin? = nil) {
            self.directory = directory
            self.pattern = pattern
            self.isExplicit = isExplicit
            self.origin = origin ?? (isExplicit ? .named : .workingDirectory)
        }
    }

    /// Where a location comes from, which says who put plugins there.
    package enum Origin: String, Sendable, Equatable {
        /// Beside the `host` executable: built with it.
        case bundled
        /// The user's data directory.
        case user
        /// A system-wide directory.
        case system
        /// `./plugins`.
        case workingDirectory = "working directory"
        /// Named by `--plugins-dir` or `HOST_PLUGINS_DIR`.
        case named
    }

    /// Why a search path cannot be used.
    package struct ConfigurationError: Error, Sendable, Equatable {
        /// The value of `HOST_PLUGINS_DIR` that names no usable directory.
        package let environmentValue: String
    }

    /// The system-wide plugin directories, searched after the user's.
    package static let systemDirectories = ["/usr/local/lib/patchbay/plugins", "/usr/lib/patchbay/plugins"]

    /// Which files of a directory count as plugins.
    package enum Pattern: Sendable, Equatable {
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
    package let locations: [Location]

    /// Creates a discovery over explicit locations.
    package init(locations: [Location]) {
        self.locations = locations
    }

    /// The search path for a run of `host`.
    /// - Parameters:
    ///   - flags: The `--plugins-dir` values.
    ///   - environment: The value of `HOST_PLUGINS_DIR`, if set.
    ///   - bundledDirectory: Where the plugins bundled with the host are
    ///     (``InstalledLayout/bundledPluginsDirectory``).
    ///   - dataHome: `$XDG_DATA_HOME`, or `$HOME/.local/share` when that is
    ///     unset; nil when neither is set, which skips the user's directory.
    ///   - systemDirectories: The system-wide directories, in order.
    ///   - workingDirectory: The current directory, for `./plugins`.
    /// - Throws: ``ConfigurationError`` when `HOST_PLUGINS_DIR` is set but
    ///   empty or has an empty entry (`''`, `':::'`, `'a::b'`): silently
    ///   falling back to the usual directories would load plugins the user
    ///   did not mean to name.
    package init(
        flags: [String], environment: String?, bundledDirectory: String, dataHome: String?,
        systemDirectories: [String] = Self.systemDirectories, workingDirectory: String
    ) throws(ConfigurationError) {
        if !flags.isEmpty {
            locations = flags.map { Location(directory: $0, pattern: .anySharedLibrary, isExplicit: true, origin: .named) }
        } else if let environment {
            let entries = environment.split(separator: ":", omittingEmptySubsequences: false)
            guard !entries.contains(where: \.isEmpty) else { throw ConfigurationError(environmentValue: environment) }
            locations = entries.map { Location(directory: String($0), pattern: .anySharedLibrary, isExplicit: true, origin: .named) }
        } else {
            let user = dataHome.map { [Location(directory: FilePaths.join($0, "patchbay/plugins"), pattern: .anySharedLibrary, isExplicit: false, origin: .user)] } ?? []
            locations =
                [Location(directory: bundledDirectory, pattern: .bundledPlugins, isExplicit: false, origin: .bundled)] + user
                + systemDirectories.map { Location(directory: $0, pattern: .anySharedLibrary, isExplicit: false, origin: .system) }
                + [Location(directory: workingDirectory + "/plugins", pattern: .anySharedLibrary, isExplicit: false, origin: .workingDirectory)]
        }
    }

    /// `$XDG_DATA_HOME`, or `$HOME/.local/share`, as the XDG base directory
    /// specification defines the user's data directory; a relative
    /// `XDG_DATA_HOME` is ignored, as the specification says.
    package static func dataHome(xdgDataHome: String?, home: String?) -> String? {
        if let xdgDataHome, xdgDataHome.hasPrefix("/") { return xdgDataHome }
        guard let home, !home.isEmpty else { return nil }
        return FilePaths.join(home, ".local/share")
    }

    /// Where a file named on its own would have been found: among the
    /// host's bundled plugins, in `./plugins`, or nowhere in particular.
    package static func origin(ofFile path: String) -> Origin {
        let workingDirectory = FileManager.default.currentDirectoryPath
        let absolute = path.hasPrefix("/") ? path : FilePaths.join(workingDirectory, path)
        let directory = FilePaths.resolved(FilePaths.directory(of: absolute))
        if directory == FilePaths.resolved(InstalledLayout.running.bundledPluginsDirectory) && Pattern.bundledPlugins.matches(FilePaths.name(of: absolute)) {
            return .bundled
        }
        return directory == FilePaths.resolved(FilePaths.join(workingDirectory, "plugins")) ? .workingDirectory : .named
    }

    /// The plugin files to load, in load order.
    /// - Parameter warn: Receives one line per explicit directory that cannot be read.
    package func files(warn: (String) -> Void = { _ in }) -> [String] {
        candidates(warn: warn).map(\.path)
    }

    /// A plugin file found, with where it was found and what identifies its content.
    package struct Candidate: Sendable, Equatable {
        /// The file as found in its directory.
        package let path: String
        /// Which place of the search path it is in.
        package let origin: Origin
        /// What `stat` says of the file a symlink leads to; nil for a dangling
        /// symlink, kept so the loader can say what it points at.
        let identity: FileIdentity?
        /// Whether the path itself is a symlink.
        let isSymbolicLink: Bool
    }

    /// The plugin files to load, in load order, with their origins and identities.
    ///
    /// One `stat` per file: its device and inode tell the same file reached
    /// twice (through a symlinked directory, say) apart, and are the start of
    /// what the scan cache keys on.
    /// - Parameter warn: Receives one line per explicit directory that cannot be read.
    func candidates(warn: (String) -> Void = { _ in }) -> [Candidate] {
        /// A file, as a device and an inode.
        struct FileKey: Hashable {
            let device: UInt64
            let inode: UInt64
        }
        var seen = Set<FileKey>()
        var seenDangling = Set<String>()
        var found: [Candidate] = []
        for location in locations {
            guard let stream = opendir(location.directory) else {
                if location.isExplicit {
                    let reason = SystemError(operation: "read", errno: errno).reason
                    warn("plugins directory \(location.directory) cannot be read (\(reason)); check that path")
                }
                continue
            }
            defer { closedir(stream) }
            // Each file is looked up in the open directory: one path step, not one per folder of its path.
            let directory = dirfd(stream)
            for name in FilePaths.names(of: stream).sorted() where location.pattern.matches(name) {
                let path = FilePaths.join(location.directory, name)
                // lstat first: most plugins are plain files, and then one call says both what they are and who they are.
                var status = stat()
                guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let isSymbolicLink = status.st_mode & S_IFMT == S_IFLNK
                if isSymbolicLink && fstatat(directory, name, &status, 0) != 0 {
                    // A dangling symlink stays in, so the loader can say what it points at.
                    if seenDangling.insert(path).inserted {
                        found.append(Candidate(path: path, origin: location.origin, identity: nil, isSymbolicLink: true))
                    }
                    continue
                }
                guard status.st_mode & S_IFMT != S_IFDIR else { continue }
                let identity = FileIdentity(status)
                if seen.insert(FileKey(device: identity.device, inode: identity.inode)).inserted {
                    found.append(Candidate(path: path, origin: location.origin, identity: identity, isSymbolicLink: isSymbolicLink))
                }
            }
        }
        return found
    }
}

let sharedLibrarySuffix = ".so"
