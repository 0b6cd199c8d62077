import PluginBoundary
import WorkerProtocol

/// What a scan learned about each plugin file, kept between runs so that a
/// listing need not load any plugin.
///
/// The cache decides only which file provides which symbol and what to list.
/// It never decides that a file is safe to load: a plugin is still checked
/// right before it is loaded, and a file whose identity changed since its
/// scan is scanned again, never loaded on the strength of the cache.
struct ScanCache: Sendable, Equatable {
    /// Bumped whenever the layout below changes; any other value is refused.
    static let format = 3

    /// ``format`` as written.
    var format = Self.format
    /// The host that wrote it (see ``HostIdentity``): another host, or the
    /// same one rebuilt, may read plugins differently.
    var host: String
    /// The plugin ABI the scans were made under.
    var abiVersion: UInt32
    /// The search path the entries come from, in order.
    var searchPath: [String]
    /// One entry per plugin file, in load order.
    var entries: [Entry]
    /// The bytes of each entry's line as read from the file, nil for an
    /// entry made since: a rewrite copies an unchanged entry's line instead
    /// of encoding it again (a thousand entries cost 2 ms to encode). Empty,
    /// or one per entry. Not part of the cache's value.
    var readLines: [ArraySlice<UInt8>?] = []

    static func == (lhs: ScanCache, rhs: ScanCache) -> Bool {
        lhs.format == rhs.format && lhs.host == rhs.host && lhs.abiVersion == rhs.abiVersion && lhs.searchPath == rhs.searchPath
            && lhs.entries == rhs.entries
    }

    /// One plugin file, as scanned.
    struct Entry: Sendable, Equatable {
        /// The file as found in its directory.
        var path: String
        /// What identifies its content without reading it.
        var identity: FileIdentity
        /// Its SHA-256, when a lock file applied at scan time.
        var sha256: String?
        /// The descriptor's name, or the file name when it could not be read.
        var name: String
        /// The descriptor's version, when it could be read.
        var version: String?
        /// The descriptor's ABI version, when it could be read.
        var abiVersion: UInt32?
        /// The fetchers it registered, in order.
        var fetchers: [Fetcher]
        /// Whether it loaded when scanned.
        var status: PluginReport.Status
        /// Why it failed, for a failed plugin: remembered until the file changes.
        var error: String?
        /// Problems that did not stop it loading.
        var warnings: [String] = []
        /// What the descriptor says beyond name and version, when it could be read.
        var metadata: PluginMetadata?
        /// What confined the scanning worker.
        var sandbox: SandboxReport = .unconfined
    }

    /// A fetcher as a scan saw it.
    struct Fetcher: Sendable, Equatable {
        var symbol: String
        var displayName: String
        /// The rank it declares, before the host's cap and the user's overrides.
        var rank: UInt32
    }
}
