import ArgumentParser
import FoundationEssentials
import PluginHost

/// `host fetch SYMBOL...`: fetch prices concurrently.
struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch the current price of one or more symbols, concurrently.",
        discussion: """
            Exit status: \(ExitCode.success.rawValue) when every symbol succeeded; \(ExitCode.failure.rawValue) when a fetch failed, \
            including a plugin that crashed, exited or hung under --isolate; \(ExitCode.unknownSymbol.rawValue) when a symbol is unknown, \
            e.g. because its plugin was refused; \(ExitCode.validationFailure.rawValue) for a usage error.
            """
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

    func validate() throws {
        guard !symbols.isEmpty else {
            throw ValidationError("Name at least one symbol, e.g. `host fetch ETH`; `host list-fetchers` shows them all.")
        }
        guard (3...5).contains(currency.count), currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw ValidationError("--currency '\(currency)' is not a currency code; use e.g. USD or EUR.")
        }
    }

    func run() async throws {
        let loaded = try await plugins.loadPlugins(fetching: symbols)
        let results = await loaded.fetch(symbols, currency: currency.uppercased(), timeout: timeout.duration)
        await loaded.shutdown()
        print(Rendering.prices(results, as: format), terminator: "")
        let failures = results.compactMap { result -> FetchError? in
            if case .failure(let error) = result { error } else { nil }
        }
        if format == .table {
            let hint = failures.contains(where: \.isUnknownSymbol) ? plugins.workingDirectoryHint() : nil
            for failure in failures {
                var line = failure.description(naming: .host)
                if failure.isUnknownSymbol, let hint { line += "; \(hint)" }
                StandardError.write("host: error: \(TerminalText.escaped(line))\n")
            }
        }
        if failures.contains(where: \.isUnknownSymbol) { throw ExitCode.unknownSymbol }
        if !failures.isEmpty { throw ExitCode.failure }
        // Exit with the listing still allocated, as a report command does: freeing a
        // thousand plugins' rows costs more than the process has left to do.
        withExtendedLifetime(loaded) { HostCLI.exit() }
    }
}
