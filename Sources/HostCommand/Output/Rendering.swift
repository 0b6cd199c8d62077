import FoundationEssentials
import PluginHost
import WorkerProtocol

/// Turns the host's results into what `host` prints.
///
/// The JSON shapes are a contract that scripts rely on:
/// - `list-fetchers`: `[{"symbol","name","plugin","path","vouchedBy","rank","declaredRank","rankReason"?,"default"}]`, `vouchedBy` as in `list-plugins`,
///   `rank` the one `fetch` uses, `declaredRank` the fetcher's own and `rankReason` why they differ;
///   the table's PLUGIN is `NAME (unvouched, PATH)` for a plugin nobody vouched for, and its RANK `128 (declared 256, capped: …)`
/// - `list-plugins`: `[{"name","version","path","status","mode","modeReason","vouchedBy","cached","sandbox","fetchers","allowedURLs","apiBaseURL"?,"apiBaseOrigin"?,"withheldAPIBaseURL"?,"granted"?:{"url","status":"matches"|"changed"},"error"?,"warnings"?,"sandboxMissing"?}]`,
///   where `mode` is `in-process` or `isolated` and `modeReason` says why, `vouchedBy` is `bundled`, `trust-store`,
///   `allowlist` or `nobody`, `cached` whether the scan cache
///   described the plugin, `sandbox` is `full`, `partial` or `none` and `sandboxMissing` names each missing layer with its reason,
///   plus `"description"`, `"author"`, `"license"` and `"homepage"` when the descriptor sets them
/// - `fetch`: see ``Rendering/prices(_:as:everySource:)``
enum Rendering {
    /// The fetcher listing.
    ///
    /// Every provider of every symbol, symbols sorted and each one's
    /// providers in the order `fetch` asks them, with its rank; the one
    /// `fetch` asks first is the symbol's default.
    static func fetchers(_ providers: SymbolProviders, as format: OutputFormat) -> String {
        let rows = providers.symbols.flatMap { symbol in
            let first = providers.first(for: symbol)
            return providers.providers(of: symbol).map { provider in
                FetcherRow(
                    symbol: provider.symbol, name: provider.displayName, plugin: provider.plugin.name, path: provider.plugin.path,
                    vouchedBy: provider.voucher.name, label: provider.plugin.label, rank: provider.rank.value, declaredRank: provider.declared.value,
                    rankReason: provider.rankOrigin.reason, default: provider == first)
            }
        }
        switch format {
        case .json:
            return json(rows)
        case .table:
            var table = TextTable("SYMBOL", "NAME", "PLUGIN", "RANK", "DEFAULT")
            table.rows = rows.map { [$0.symbol, $0.name, $0.label, rankCell($0.rank, declared: $0.declaredRank, reason: $0.rankReason), $0.default ? "yes" : "-"] }
            return table.rendered
        }
    }

    /// The plugin listing.
    static func plugins(_ reports: [PluginReport], as format: OutputFormat) -> String {
        switch format {
        case .json:
            return json(reports.map(PluginRow.init))
        case .table:
            var table = TextTable("PLUGIN", "VERSION", "STATUS", "MODE", "VOUCHED", "SANDBOX", "CACHED", "FETCHERS", "PATH")
            table.rows = reports.map {
                [
                    $0.name, $0.version ?? "-", $0.status.rawValue, $0.placement?.place.rawValue ?? "-", $0.placement?.voucher.name ?? "-",
                    $0.sandbox.summary, $0.cached ? "yes" : "no",
                    $0.fetchers.isEmpty ? "-" : $0.fetchers.joined(separator: ","), $0.path,
                ]
            }
            let problems = reports.compactMap { report in report.error.map { TerminalText.escaped("\(report.path): \($0)") } }
            return table.rendered + (problems.isEmpty ? "" : "\n" + problems.joined(separator: "\n") + "\n") + modesNote(reports)
                + allowedURLsNote(reports) + networkGrantsNote(reports)
        }
    }

    /// Under the plugin table: each plugin's network grant (`host allow`),
    /// and whether it holds; nothing when no plugin has one.
    private static func networkGrantsNote(_ reports: [PluginReport]) -> String {
        let lines = reports.compactMap { report -> String? in
            switch report.networkGrant {
            case nil: nil
            // By file: only strangers hold grants, and a stranger's name is its own say.
            case .granted(let url)?: "\(report.path): may fetch under \(url)"
            case .changed(let url)?: "\(report.path): not under \(url): the file changed since you allowed it; check it and run `host allow` again"
            }
        }
        guard !lines.isEmpty else { return "" }
        return "\nNetwork grants (host allow):\n" + lines.map { "  " + TerminalText.escaped($0) }.joined(separator: "\n") + "\n"
    }

    /// Under the plugin table: why each plugin runs where it does, one line
    /// per reason, since most plugins share one.
    private static func modesNote(_ reports: [PluginReport]) -> String {
        var reasons: [(placement: Placement, plugins: [String])] = []
        for report in reports {
            guard let placement = report.placement else { continue }
            if let index = reasons.firstIndex(where: { $0.placement == placement }) {
                reasons[index].plugins.append(report.name)
            } else {
                reasons.append((placement, [report.name]))
            }
        }
        guard !reasons.isEmpty else { return "" }
        let lines = reasons.map { TerminalText.escaped("\($0.placement.place.rawValue), \($0.placement.reason): \($0.plugins.joined(separator: ", "))") }
        return "\nWhere plugins run:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + "\n"
    }

    /// Under the plugin table: where plugins may fetch. When every plugin
    /// may fetch under the same URLs, one line says it for all; otherwise
    /// one line per set of URLs, naming its plugins, and for a plugin whose
    /// declared base nobody vouched for, how to grant it. The URLs are plain
    /// ASCII: ``URLPrefix`` refuses anything else; names are escaped.
    private static func allowedURLsNote(_ reports: [PluginReport]) -> String {
        var groups: [(allowed: [String], withheld: String?, plugins: [String], selectors: [String])] = []
        for report in reports where !report.allowedURLs.isEmpty || report.withheldAPIBaseURL != nil {
            // A base is granted to a plugin nobody vouched for by its file: a name selects only vouched plugins.
            let selector = report.placement?.voucher == .nobody ? report.path : report.name
            if let index = groups.firstIndex(where: { $0.allowed == report.allowedURLs && $0.withheld == report.withheldAPIBaseURL }) {
                groups[index].plugins.append(report.name)
                groups[index].selectors.append(selector)
            } else {
                groups.append((report.allowedURLs, report.withheldAPIBaseURL, [report.name], [selector]))
            }
        }
        if groups.count == 1, groups[0].withheld == nil {
            return "\nPlugins may fetch only under: \(groups[0].allowed.joined(separator: ", "))\n"
        }
        guard !groups.isEmpty else { return "" }
        let lines = groups.map { group in
            var line = "\(group.plugins.joined(separator: ", ")): \(group.allowed.isEmpty ? "nothing" : group.allowed.joined(separator: ", "))"
            if let withheld = group.withheld {
                let grants = group.selectors.map { "--api-base-url \($0)=\(withheld)" }.joined(separator: " ")
                let allows = group.selectors.map { "`host allow \($0)`" }.joined(separator: " ")
                line += "; not \(withheld), which \(group.plugins.count == 1 ? "it declares" : "they declare") and nobody vouched for: pass \(grants), or run \(allows)"
            }
            return "  " + TerminalText.escaped(line)
        }
        return "\nWhere plugins may fetch:\n" + lines.joined(separator: "\n") + "\n"
    }

    /// What `host trust --list` prints: the store, then one row per file it
    /// lists. JSON: `{"store","trusted":[{"path","sha256","status":"matches"|"changed"|"missing"}]}`.
    static func trusted(_ files: [TrustedFile], store: String, as format: OutputFormat) -> String {
        switch format {
        case .json:
            return json(TrustListing(store: store, trusted: files.map { TrustedRow(path: $0.path, sha256: $0.sha256, status: $0.status.rawValue) }))
        case .table:
            guard !files.isEmpty else {
                return TerminalText.escaped("Your trust store \(store) vouches for no plugin file: only the bundled plugins run in-process.") + "\n"
            }
            var table = TextTable("STATUS", "SHA-256", "FILE")
            table.rows = files.map { [$0.status.rawValue, $0.sha256, $0.path] }
            return TerminalText.escaped("Your trust store \(store) vouches for:") + "\n" + table.rendered
        }
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and arrays cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

private struct FetcherRow: Encodable {
    let symbol: String
    let name: String
    let plugin: String
    let path: String
    let vouchedBy: String
    /// What the table shows; JSON has `plugin`, `path` and `vouchedBy` apart.
    let label: String
    let rank: UInt32
    let declaredRank: UInt32
    let rankReason: String?
    let `default`: Bool

    private enum CodingKeys: String, CodingKey { case symbol, name, plugin, path, vouchedBy, rank, declaredRank, rankReason, `default` }
}

private struct PluginRow: Encodable {
    let name: String
    let version: String?
    let path: String
    let status: PluginReport.Status
    let mode: Placement.Place?
    let modeReason: String?
    let vouchedBy: String?
    let cached: Bool
    let sandbox: SandboxReport.Level
    let fetchers: [String]
    let allowedURLs: [String]
    let apiBaseURL: String?
    let apiBaseOrigin: String?
    let withheldAPIBaseURL: String?
    let granted: GrantedRow?
    let error: String?
    let warnings: [String]?
    let sandboxMissing: [String]?
    let description: String?
    let author: String?
    let license: String?
    let homepage: String?

    init(_ report: PluginReport) {
        name = report.name
        version = report.version
        path = report.path
        status = report.status
        mode = report.placement?.place
        modeReason = report.placement?.reason
        vouchedBy = report.placement?.voucher.name
        cached = report.cached
        sandbox = report.sandbox.level
        fetchers = report.fetchers
        allowedURLs = report.allowedURLs
        apiBaseURL = report.apiBase?.url
        apiBaseOrigin = report.apiBase?.origin.rawValue
        withheldAPIBaseURL = report.withheldAPIBaseURL
        granted = report.networkGrant.map(GrantedRow.init)
        error = report.error
        warnings = report.warnings.isEmpty ? nil : report.warnings
        sandboxMissing = report.sandbox.missing.isEmpty ? nil : report.sandbox.missing.map(\.description)
        description = report.metadata?.description
        author = report.metadata?.author
        license = report.metadata?.license
        homepage = report.metadata?.homepage
    }
}

/// `"granted"` in `list-plugins`: the URL `host allow` granted, and whether
/// the file still `matches` the one granted or has `changed` (and so has no grant).
private struct GrantedRow: Encodable {
    let url: String
    let status: String

    init(_ state: NetworkGrant.State) {
        url = state.url
        switch state {
        case .granted: status = "matches"
        case .changed: status = "changed"
        }
    }
}

private struct TrustListing: Encodable {
    let store: String
    let trusted: [TrustedRow]
}

private struct TrustedRow: Encodable {
    let path: String
    let sha256: String
    let status: String
}
