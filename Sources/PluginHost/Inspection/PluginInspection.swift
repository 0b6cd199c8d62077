import PluginBoundary

/// What `host inspect` found in one plugin file, without fetching anything:
/// its descriptor and fetchers, every trust check with its verdict, the lock
/// file's verdict, where it would run, and its problem, if any.
///
/// Build one with ``Host/inspect(_:isolation:policy:ranks:)``; `host inspect`
/// prints it as a table or, through ``encode(to:)``, as JSON.
package struct PluginInspection: Sendable, Encodable {
    /// The file, as given.
    package let path: String
    /// Whether the file is a working plugin: every check passed and it
    /// registered at least one fetcher.
    package var isWorking: Bool { report.status == .loaded }
    /// What `list-plugins` would report for the file, loaded alone.
    package let report: PluginReport
    /// The descriptor, or nil when loading stopped before it was read.
    package var descriptor: PluginMetadata? { report.metadata }
    /// The fetchers it registered, in registration order.
    package let fetchers: [Fetcher]
    /// The ownership, permission and ELF checks, in the order the loader makes them.
    package let checks: [Check]
    /// The lock file's verdict.
    package let lock: LockStatus
    /// Whether the host, run with the same options, would load it in-process
    /// or in an isolated worker.
    package let placement: Placement
    /// Whether it would load in a worker.
    package var loadsIsolated: Bool { placement.place == .isolated }
    /// How the memory budget holds its workers (`WorkerSlots.keepingDescription`):
    /// by the kernel in a delegated cgroup v2 subtree, or by the host's caps, and why.
    package var memoryBudget = ""

    /// One registered fetcher, and the rank the host would give it.
    package struct Fetcher: Sendable, Encodable, Equatable {
        /// The ticker, e.g. "DOGE".
        package let symbol: String
        /// Its display name, e.g. "Dogecoin".
        package let displayName: String
        /// The rank it declares (`pb_fetcher_rank`).
        package let declaredRank: SourceRank
        /// The rank `fetch` would order it by, with the same options.
        package let rank: SourceRank
        /// Why ``rank`` is not ``declaredRank``, when it is not.
        package let rankOrigin: SymbolProviders.RankOrigin

        private enum CodingKeys: String, CodingKey { case symbol, displayName, declaredRank, rank, rankReason }

        /// `{"symbol","displayName","declaredRank","rank","rankReason"?}`, as `list-fetchers` words ranks.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(symbol, forKey: .symbol)
            try container.encode(displayName, forKey: .displayName)
            try container.encode(declaredRank.value, forKey: .declaredRank)
            try container.encode(rank.value, forKey: .rank)
            try container.encodeIfPresent(rankOrigin.reason, forKey: .rankReason)
        }
    }

    /// One trust check and its verdict.
    package struct Check: Sendable, Encodable, Equatable {
        /// The rule: "regular file", "owner", "ELF shared library", …
        package let check: String
        /// The file or directory it was made on.
        package let path: String
        /// Whether it passed.
        package let passed: Bool
        /// For a failure, the refusal the loader would print.
        package let problem: String?
    }

    /// The lock file's verdict on the file.
    package struct LockStatus: Sendable, Encodable, Equatable {
        /// What the lock file said.
        package enum Verdict: String, Sendable, Encodable {
            /// No lock file applies: the file loads unverified.
            case unlocked
            /// The file's digest is the one the lock file lists.
            case matches
            /// The lock file does not list the file.
            case notListed = "not-listed"
            /// The lock file lists another digest.
            case mismatch
            /// The lock file cannot be read or is not trusted.
            case unusable
        }

        /// The verdict.
        package let verdict: Verdict
        /// The lock file that applies, if any.
        package let lockFile: String?
        /// The file's SHA-256, when it could be read.
        package let sha256: String?
        /// For a failing verdict, the refusal the loader would print.
        package let problem: String?

        /// Whether the lock file lets the file load.
        package var passed: Bool { verdict == .unlocked || verdict == .matches }
    }

    enum CodingKeys: String, CodingKey {
        case path, working, name, version, descriptor, fetchers, checks, lock, mode, modeReason, vouchedBy, sandbox, refusedSystemCall, problem, warnings
        case declaredAPIBaseURL, apiBaseURL, apiBaseOrigin
    }

    /// The JSON shape `host inspect --format json` prints, a contract scripts rely on.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(isWorking, forKey: .working)
        try container.encode(report.name, forKey: .name)
        try container.encodeIfPresent(report.version, forKey: .version)
        try container.encodeIfPresent(descriptor.map(DescriptorRow.init), forKey: .descriptor)
        try container.encode(fetchers, forKey: .fetchers)
        try container.encode(checks, forKey: .checks)
        try container.encode(lock, forKey: .lock)
        try container.encode(placement.place.rawValue, forKey: .mode)
        try container.encode(placement.reason, forKey: .modeReason)
        try container.encode(placement.voucher.name, forKey: .vouchedBy)
        try container.encode(sandboxLevel, forKey: .sandbox)
        try container.encodeIfPresent(report.refusedSystemCall?.name ?? report.refusedSystemCall.map { "\($0.number)" }, forKey: .refusedSystemCall)
        try container.encodeIfPresent(report.error, forKey: .problem)
        try container.encode(report.warnings, forKey: .warnings)
        try encodeAPIBase(into: &container)
    }

    /// What the host believed of the API base: the one the descriptor
    /// declares, and the one the plugin is told, with who chose it.
    private func encodeAPIBase(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
        try container.encodeIfPresent(descriptor?.apiBaseURL, forKey: .declaredAPIBaseURL)
        try container.encodeIfPresent(report.apiBase?.url, forKey: .apiBaseURL)
        try container.encodeIfPresent(report.apiBase?.origin.rawValue, forKey: .apiBaseOrigin)
    }

    /// The descriptor's fields, with the sizes the host accepts beside the plugin's.
    private struct DescriptorRow: Encodable {
        let abiVersion: UInt32
        let hostABIVersion: UInt32
        let structSize: UInt32
        let hostMinimumStructSize: Int
        let hostStructSize: Int
        let description: String?
        let author: String?
        let license: String?
        let homepage: String?

        init(_ metadata: PluginMetadata) {
            abiVersion = metadata.abiVersion
            hostABIVersion = PluginABIVersion.current
            structSize = metadata.descriptorSize
            hostMinimumStructSize = PluginMetadata.minimumDescriptorSize
            hostStructSize = PluginMetadata.currentDescriptorSize
            description = metadata.description
            author = metadata.author
            license = metadata.license
            homepage = metadata.homepage
        }
    }
}
