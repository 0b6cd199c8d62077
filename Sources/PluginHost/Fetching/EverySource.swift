/// Asks every source of a symbol at once, each with the whole timeout, and
/// waits for them all: one row per source, then their ``Consensus``.
struct EverySource: Sendable {
    let symbol: String
    let currency: String
    /// In rank order, which is the order the attempts are reported in.
    let sources: [PluginFetcher]
    let timeout: Duration

    /// Asks the sources and returns when each has answered or timed out.
    func run() async -> SymbolFetch {
        let results = await withTaskGroup(of: (Int, Result<Quote, FetchError>).self) { group in
            for (index, source) in sources.enumerated() {
                group.addTask { [currency, timeout] in (index, await source.price(in: currency, timeout: timeout)) }
            }
            var results = [Result<Quote, FetchError>?](repeating: nil, count: sources.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
        let attempts = zip(sources, results).map { source, result in
            let outcome: SymbolFetch.Attempt.Outcome =
                switch result {
                case .success(let quote)?: .answered(quote)
                case .failure(let error)?: .failed(error)
                case nil: .notAsked
                }
            return SymbolFetch.Attempt(plugin: source.plugin, outcome: outcome)
        }
        let answered = attempts.compactMap { if case .answered(let quote) = $0.outcome { quote } else { nil } }
        guard let first = answered.first else {
            if attempts.count == 1, case .failed(let error) = attempts[0].outcome {
                return SymbolFetch(symbol: symbol, attempts: attempts, result: .failure(error))
            }
            return SymbolFetch(symbol: symbol, attempts: attempts, result: .failure(FetchError(symbol: symbol, .noSourceAnswered(sources: sources.map(\.plugin.label)))))
        }
        return SymbolFetch(symbol: symbol, attempts: attempts, result: .success(first), consensus: Consensus(amounts: answered.map(\.amount)))
    }
}
