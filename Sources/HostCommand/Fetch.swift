import ArgumentParser
import FoundationEssentials
import Glibc
import PluginHost

/// `host fetch SYMBOL...`: fetch prices concurrently.
struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch the current price of one or more symbols, concurrently.",
        discussion: """
            Exit status: \(ExitCode.success.rawValue) when every symbol succeeded; \(ExitCode.failure.rawValue) when a fetch failed, \
            including a plugin that crashed, exited or hung under --isolate; \(ExitCode.unknownSymbol.rawValue) when a symbol is unknown, \
            e.g. because its plugin was refused; \(ExitCode.validationFailure.rawValue) for a usage error.
            """ + "\n\n" + PluginOptions.selectorRule
    )

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "Symbols to fetch, e.g. ETH BTC.")
    var symbols: [String]

    @Option(help: "Quote currency (ISO 4217 code).")
    var currency = "USD"

    @Option(
        help: ArgumentHelp("Seconds to wait for each price, from 0.001 to 3600. (default: \(TimeLimit.standard))", valueName: "seconds"),
        transform: TimeLimit.init(parsing:))
    var timeout = TimeLimit.standard

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp("Ask only this plugin for each symbol, whatever its rank: a vouched plugin's name, as list-fetchers shows it, or any plugin's file, e.g. ./plugins/libX.so.", valueName: "plugin"))
    var source: String?

    @Option(
        name: .customLong("hedge"),
        help: ArgumentHelp(
            "Seconds a source may go unanswered before the next source is asked too; the first good answer wins. From 0.001 to 3600.",
            valueName: "seconds"),
        transform: TimeLimit.init(parsing:))
    var hedge: TimeLimit?

    @Flag(
        name: .customLong("all-sources"),
        help: "Ask every source of each symbol at once; print each answer, then the median and spread of the vouched ones.")
    var allSources = false

    @Flag(
        name: .customLong("count-unvouched"),
        help: "With --all-sources or --max-spread: count the answers of plugins nobody vouched for in the median and spread too.")
    var countUnvouched = false

    @Option(
        name: .customLong("max-spread"),
        help: ArgumentHelp(
            "Exit \(ExitCode.failure.rawValue) when the sources of a symbol disagree by more than this percentage of their median, e.g. 0.5. Implies --all-sources.",
            valueName: "percent"))
    var maxSpread: String?

    func validate() throws {
        guard !symbols.isEmpty else {
            throw ValidationError("Name at least one symbol, e.g. `host fetch ETH`; `host list-fetchers` shows them all.")
        }
        guard (3...5).contains(currency.count), currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw ValidationError("--currency '\(currency)' is not a currency code; use e.g. USD or EUR.")
        }
        if let maxSpread, SpreadLimit(percent: maxSpread) == nil {
            throw ValidationError("--max-spread '\(maxSpread)' is not a percentage; give a plain decimal such as 0.5 or 2")
        }
        let everySource = allSources || maxSpread != nil
        if let source, everySource {
            throw ValidationError("--source \(source) asks one source and \(allSources ? "--all-sources" : "--max-spread") asks them all; drop one of the two")
        }
        if countUnvouched, !everySource {
            throw ValidationError("--count-unvouched counts sources in a median, which only --all-sources or --max-spread computes; add --all-sources, or drop --count-unvouched")
        }
        if hedge != nil, source != nil || everySource {
            throw ValidationError("--hedge asks the next source when one is slow, which \(source != nil ? "--source" : "asking every source at once") leaves none to; drop --hedge")
        }
    }

    /// How the flags say each symbol's sources are asked.
    var plan: FetchPlan {
        if allSources || maxSpread != nil { return FetchPlan(sources: .all, countUnvouched: countUnvouched) }
        if let source { return FetchPlan(sources: .named(source)) }
        return FetchPlan(hedge: hedge?.duration)
    }

    func run() async throws {
        let loaded = try await plugins.loadPlugins(fetching: symbols, strangerScanTime: timeout.duration)
        let plan = plan
        let fetches = await loaded.fetch(symbols, currency: currency.uppercased(), timeout: timeout.duration, plan: plan)
        await loaded.stopWorkers()
        print(Rendering.prices(fetches, as: format, everySource: plan.sources == .all), terminator: "")
        // The answer now, whatever still scans in the background for the next run.
        fflush(nil)
        let failures = fetches.compactMap { fetch -> FetchError? in
            if case .failure(let error) = fetch.result { error } else { nil }
        }
        if format == .table {
            let hint = failures.contains(where: \.isUnknownSymbol) ? plugins.workingDirectoryHint() : nil
            for fetch in fetches {
                for line in Rendering.failureLines(fetch, hint: hint) { StandardError.write(line + "\n") }
            }
        }
        let disagreements = maxSpread.flatMap(SpreadLimit.init(percent:)).map { limit in disagreement(fetches, limit: limit) } ?? []
        for line in disagreements { StandardError.write(line + "\n") }
        // Scans of new strangers go on until --timeout; the exit status is still the fetch's.
        await loaded.finishBackgroundScans()
        if failures.contains(where: \.isUnknownSymbol) { throw ExitCode.unknownSymbol }
        if !failures.isEmpty || !disagreements.isEmpty { throw ExitCode.failure }
        // Exit with the listing still allocated, as a report command does: freeing a
        // thousand plugins' rows costs more than the process has left to do.
        withExtendedLifetime(loaded) { HostCLI.exit() }
    }

    /// One error line per symbol whose sources disagree by more than `limit`.
    private func disagreement(_ fetches: [SymbolFetch], limit: SpreadLimit) -> [String] {
        fetches.compactMap { fetch in
            guard let consensus = fetch.consensus, consensus.exceeds(limit) else { return nil }
            let spread = consensus.spread.map { "by \($0)%" } ?? "around a median of 0, which no percentage measures"
            // Strangers' answers shown above and not counted are no part of the disagreement.
            let counted = fetch.quotes.count > consensus.count ? "counted " : ""
            let line = "\(fetch.symbol): its \(consensus.count) \(counted)sources disagree \(spread), more than --max-spread \(limit) allows (median \(consensus.median)); "
                + "see each source's amount above, or raise --max-spread"
            return "host: error: \(TerminalText.escaped(line))"
        }
    }
}
