import HostShared
import PluginBoundary

/// Why a symbol produced no price.
package struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case unknownSymbol(available: [String])
        /// Timed out while the plugin had an `http_get` outstanding.
        case timedOut(after: Duration, plugin: String)
        /// Timed out with no `http_get` outstanding: the plugin itself never answered.
        case neverAnswered(after: Duration, plugin: String)
        /// The plugin reported an error: `message` is its own words, checked
        /// by ``PluginOutputRules``; empty when it gave none.
        case pluginFailed(plugin: String, message: String)
        /// The plugin passed a NULL or undersized `pb_fetch_result`.
        case malformedResult(plugin: String)
        /// The plugin, listed from the scan cache, failed to load for the fetch.
        case notLoaded(plugin: String, path: String, PluginLoadError)
        /// The plugin, loaded for the fetch, no longer registers the symbol it was listed with.
        case noLongerRegistered(plugin: String, path: String)
        /// The plugin's worker has no fetcher for the symbol.
        case noFetcherInWorker
        /// No thread could be started to call the plugin.
        case notCalled(SystemError)
        case emptyResult(plugin: String)
        /// The plugin's answer broke one of ``PluginOutputRules``'s rules.
        case invalidAnswer(plugin: String, violation: PluginOutputRules.Violation)
        /// The plugin's isolated worker crashed, exited, hung or broke the protocol.
        case worker(WorkerError)
        /// The user named a source that does not provide the symbol.
        case noSuchSource(String, sources: [String])
        /// Every provider of the symbol has rank 0, and none was named.
        case onlyUnranked(sources: [String])
        /// The fetch ran out of time before this source was asked.
        case notAsked(plugin: String)
        /// Several sources were asked, or were to be, and none answered.
        case noSourceAnswered(sources: [String])
        /// The plugin was busy with as many of this run's fetches as it may
        /// run at once until the time ran out.
        case noTurn(after: Duration, plugin: String)
        /// Every source was asked for a consensus, and only plugins nobody
        /// vouched for answered, which are not counted.
        case noVouchedAnswer(unvouchedAnswers: Int)
    }

    /// The symbol that failed, as the user typed it.
    package let symbol: String
    let kind: Kind
    /// How many plugin files failed to load or were refused, for the hint on an unknown symbol.
    var failedPluginFiles = 0
    /// How to get plugins when none loaded, fitted to how the host was started (``Host/noPluginsFix``).
    var noPluginsFix: String?

    init(symbol: String, _ kind: Kind) {
        self.symbol = symbol
        self.kind = kind
    }

    /// One line for the user, without the symbol (tables show it beside).
    /// - Parameter names: What the program calls the settings that fix it, e.g. `--timeout`.
    package func message(naming names: SettingNames) -> String {
        switch kind {
        case .unknownSymbol where failedPluginFiles > 0:
            "unknown symbol \(symbol)\(availability); \(failedPluginFiles) plugin file\(failedPluginFiles == 1 ? "" : "s") failed to load and may provide it: \(names.listPlugins) to see why"
        case .unknownSymbol(let available) where available.isEmpty:
            "unknown symbol \(symbol): no fetchers are loaded; \(noPluginsFix ?? "\(InstalledLayout.running.restoreAdvice("the bundled plugins")), or \(names.addPluginsDirectory)")"
        case .unknownSymbol:
            "unknown symbol \(symbol)\(availability)"
        case .timedOut(let after, let plugin):
            "timed out after \(after.humanReadable) waiting for the network on behalf of \(plugin); raise \(names.fetchTimeout) to wait longer, or check the API's address and your connection"
        case .neverAnswered(let after, let plugin):
            "\(plugin) never answered within \(after.humanReadable), and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise \(names.fetchTimeout) if it is only slow"
        case .pluginFailed(let plugin, let message):
            message.isEmpty ? "\(plugin) failed without a message" : message
        case .malformedResult(let plugin):
            "\(plugin) passed a NULL or undersized pb_fetch_result"
        case .notLoaded(let plugin, let path, let error):
            "\(plugin) (\(path)) could not be loaded: \(error.message(naming: names))"
        case .noLongerRegistered(let plugin, let path):
            "\(plugin) (\(path)) no longer registers \(symbol)"
        case .noFetcherInWorker:
            "the worker has no fetcher for \(symbol)"
        case .notCalled(let error):
            error.sentence
        case .emptyResult(let plugin):
            "\(plugin) answered with neither an amount nor an error"
        case .invalidAnswer(let plugin, let violation):
            "\(plugin) gave an answer the host refused: \(violation)"
        case .worker(let failure):
            failure.message(naming: names)
        case .noSuchSource(let source, let sources):
            "no source named \(source) provides \(symbol); pass \(names.source) with one of its sources: \(sources.joined(separator: ", "))"
                + (sources.contains { $0.contains("/") } ? " (a name selects only plugins someone vouched for; any other is named by its file)" : "")
        case .onlyUnranked(let sources):
            "\(symbol) is provided only at rank 0, which is never asked unless named (\(sources.joined(separator: ", "))); pass \(names.source) \(sources.first ?? "PLUGIN"), or give it a rank with \(names.ranks)=\(sources.first ?? "PLUGIN"):128"
        case .notAsked(let plugin):
            "\(plugin) was not asked: the time \(names.fetchTimeout) allows had run out"
        case .noSourceAnswered(let sources):
            "no source answered (\(sources.joined(separator: ", "))); each one's reason is on its own line"
        case .noTurn(let after, let plugin):
            "\(plugin) was busy with \(PluginAllowance.Limit.fetchesAtOnce) other fetches of this run, the most a plugin runs at once, for all of \(after.humanReadable); "
                + "raise \(names.fetchTimeout) to wait longer, or fetch fewer symbols at once"
        case .noVouchedAnswer(let count):
            "no vouched source answered, so there is no median: \(count == 1 ? "the answer" : "the \(count) answers") of plugins nobody vouched for \(count == 1 ? "is" : "are") not counted; "
                + "pass \(names.countUnvouched) to count them, or vouch for a plugin with \(names.trust) FILE"
        }
    }

    /// `SYMBOL: message`.
    /// - Parameter names: What the program calls the settings that fix it.
    package func description(naming names: SettingNames) -> String { "\(symbol): \(message(naming: names))" }

    /// ``message(naming:)`` with the library's own names for settings.
    package var message: String { message(naming: SettingNames()) }

    private var availability: String {
        guard case .unknownSymbol(let available) = kind else { return "" }
        return available.isEmpty ? "; no fetchers are loaded" : "; available symbols: \(available.joined(separator: ", "))"
    }

    /// ``description(naming:)`` with the library's own names for settings.
    package var description: String { description(naming: SettingNames()) }

    /// Whether only plugins nobody vouched for answered, so no consensus
    /// was counted: the one failure of every source asked that no
    /// source's own line explains.
    package var isNoVouchedAnswer: Bool {
        if case .noVouchedAnswer = kind { true } else { false }
    }

    /// Whether the symbol was unknown rather than failing to fetch.
    package var isUnknownSymbol: Bool {
        if case .unknownSymbol = kind { true } else { false }
    }
}
