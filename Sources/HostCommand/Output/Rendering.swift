import FoundationEssentials
import PluginHost
import WorkerProtocol

/// Turns the host's results into what `host` prints.
///
/// The JSON shapes are a contract that scripts rely on:
/// - `list-fetchers`: `[{"symbol","name","plugin"}]`
/// - `list-plugins`: `[{"name","version","path","status","mode","modeReason","vouchedBy","cached","sandbox","fetchers","allowedURLs","error"?,"warnings"?,"sandboxMissing"?}]`,
///   where `mode` is `in-process` or `isolated` and `modeReason` says why, `vouchedBy` is `bundled`, `trust-store`,
///   `allowlist` or `nobody`, `cached` whether the registry cache
///   described the plugin, `sandbox` is `full`, `partial` or `none` and `sandboxMissing` names each missing layer with its reason,
///   plus `"description"`, `"author"`, `"license"` and `"homepage"` when the descriptor sets them
/// - `fetch`: `[{"symbol","currency","amount","plugin"} | {"symbol","error"}]`
enum Rendering {
    /// The fetcher listing.
    static func fetchers(_ fetchers: [FetcherListing], as format: OutputFormat) -> String {
        switch format {
        case .json:
            return json(fetchers.map { FetcherRow(symbol: $0.symbol, name: $0.displayName, plugin: $0.plugin.name) })
        case .table:
            var table = TextTable("SYMBOL", "NAME", "PLUGIN")
            table.rows = fetchers.map { [$0.symbol, $0.displayName, $0.plugin.name] }
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
                + allowedURLsNote(reports)
        }
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

    /// Under the plugin table: where plugins may fetch. Every plugin of a
    /// host has the same grants, so one line says it for all. The URLs are
    /// plain ASCII: ``URLPrefix`` refuses anything else.
    private static func allowedURLsNote(_ reports: [PluginReport]) -> String {
        var allowed: [String] = []
        for url in reports.flatMap(\.allowedURLs) where !allowed.contains(url) { allowed.append(url) }
        return allowed.isEmpty ? "" : "\nPlugins may fetch only under: \(allowed.joined(separator: ", "))\n"
    }

    /// The fetch results, one per symbol in the order asked.
    static func prices(_ results: [Result<Quote, FetchError>], as format: OutputFormat) -> String {
        switch format {
        case .json:
            return json(results.map(PriceRow.init))
        case .table:
            var table = TextTable("SYMBOL", "CURRENCY", "AMOUNT", "PLUGIN")
            table.rows = results.compactMap { result in
                guard case .success(let quote) = result else { return nil }
                return [quote.symbol, quote.currency, quote.amount, quote.plugin.name]
            }
            return table.rows.isEmpty ? "" : table.rendered
        }
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
        error = report.error
        warnings = report.warnings.isEmpty ? nil : report.warnings
        sandboxMissing = report.sandbox.missing.isEmpty ? nil : report.sandbox.missing.map(\.description)
        description = report.metadata?.description
        author = report.metadata?.author
        license = report.metadata?.license
        homepage = report.metadata?.homepage
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

private struct PriceRow: Encodable {
    let result: Result<Quote, FetchError>

    init(_ result: Result<Quote, FetchError>) { self.result = result }

    private enum Key: String, CodingKey { case symbol, currency, amount, plugin, error }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch result {
        case .success(let quote):
            try container.encode(quote.symbol, forKey: .symbol)
            try container.encode(quote.currency, forKey: .currency)
            try container.encode(quote.amount, forKey: .amount)
            try container.encode(quote.plugin.name, forKey: .plugin)
        case .failure(let error):
            try container.encode(error.symbol, forKey: .symbol)
            try container.encode(error.message(naming: .host), forKey: .error)
        }
    }
}
