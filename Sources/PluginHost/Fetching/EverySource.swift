/// Asks every source of a symbol at once, each with the whole timeout, and
/// waits for them all: one row per source, then the ``Consensus`` of those
/// counted.
///
/// Only vouched sources are counted, unless the user asks for strangers
/// too (`countUnvouched`): a folder that ships copies of one plugin must
/// not choose the median, as an oracle aggregate counts only the sources
/// its operator admitted. A stranger's answer is still shown, marked as
/// not counted. With no counted answer there is no median, and the symbol
/// fails, saying why.
struct EverySource: Sendable {
    let symbol: String
    let currency: String
    /// In rank order, which is the order the attempts are reported in.
    let sources: [PluginFetcher]
    /// Whether someone vouched for each source, in the order of ``sources``.
    let vouched: [Bool]
    let timeout: Duration
    /// Whether answers of plugins nobody vouched for count too.
    let countUnvouched: Bool

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
        let attempts = zip(sources.indices, results).map { index, result in
            let outcome: SymbolFetch.Attempt.Outcome =
                switch result {
                case .success(let quote)?: .answered(quote)
                case .failure(let error)?: .failed(error)
                case nil: .notAsked
                }
            var attempt = SymbolFetch.Attempt(plugin: sources[index].plugin, outcome: outcome)
            attempt.counted = counts(index)
            return attempt
        }
        let answered = attempts.compactMap { if case .answered(let quote) = $0.outcome { quote } else { nil } }
        let counted = attempts.filter(\.counted).compactMap { if case .answered(let quote) = $0.outcome { quote } else { nil } }
        guard let first = counted.first else {
            if attempts.count == 1, case .failed(let error) = attempts[0].outcome {
                return SymbolFetch(symbol: symbol, attempts: attempts, result: .failure(error))
            }
            let kind: FetchError.Kind =
                answered.isEmpty ? .noSourceAnswered(sources: sources.map(\.plugin.label)) : .noVouchedAnswer(unvouchedAnswers: answered.count)
            return SymbolFetch(symbol: symbol, attempts: attempts, result: .failure(FetchError(symbol: symbol, kind)))
        }
        return SymbolFetch(symbol: symbol, attempts: attempts, result: .success(first), consensus: Consensus(amounts: counted.map(\.amount)))
    }

    /// Whether source `index`'s answer counts toward the consensus.
    private func counts(_ index: Int) -> Bool {
        countUnvouched || (index < vouched.count && vouched[index])
    }
}
