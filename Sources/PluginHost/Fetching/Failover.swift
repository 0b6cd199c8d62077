/// Asks a symbol's sources one after the other, within one timeout, until
/// one answers: the next is asked when the one before fails, or, with a
/// hedge, when it has not answered after the hedge's delay ("The Tail at
/// Scale"). The first good answer wins; the others' late answers are
/// ignored, as any late answer is.
///
/// Without a hedge, each source gets an equal share of the time left, and
/// the last all of it: one source gets the whole timeout, as before there
/// were several, and a source that fails at once leaves its share to the
/// rest. With a hedge, every source may run until the timeout, since they
/// overlap. A source is loaded only when it is asked (``PluginFetcher``
/// loads on-demand plugins on their first fetch), so a first source that
/// answers costs no other plugin's load.
struct Failover: Sendable {
    let symbol: String
    let currency: String
    /// In the order they are asked.
    let sources: [PluginFetcher]
    let timeout: Duration
    let hedge: Duration?

    private enum Event: Sendable {
        /// Source `index` answered.
        case answered(Int, Result<Quote, FetchError>)
        /// The hedge's delay passed since source `index` was asked.
        case hedgeDue(Int)
    }

    /// Asks the sources; returns as soon as one answers, or all have failed.
    func run() async -> SymbolFetch {
        guard !sources.isEmpty else {
            return SymbolFetch(symbol: symbol, error: FetchError(symbol: symbol, .noSourceAnswered(sources: [])))
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let (events, sink) = AsyncStream<Event>.makeStream()
        defer { sink.finish() }
        var outcomes = [SymbolFetch.Attempt.Outcome](repeating: .notAsked, count: sources.count)
        var asked = 0
        var running = 0

        /// Asks the next source, if any and if time is left.
        func askNext() {
            guard asked < sources.count else { return }
            let remaining = deadline - clock.now
            guard remaining > .zero else { return }
            let index = asked
            // The first source's share is taken from the timeout itself, so one source waits exactly the timeout asked for.
            let left = hedge == nil ? sources.count - index : 1
            let budget = (index == 0 ? timeout : remaining) / left
            let (source, currency) = (sources[index], currency)
            asked += 1
            running += 1
            outcomes[index] = .abandoned
            Task { sink.yield(.answered(index, await source.price(in: currency, timeout: budget))) }
            if let hedge, asked < sources.count {
                Task {
                    try? await Task.sleep(for: hedge)
                    sink.yield(.hedgeDue(index))
                }
            }
        }

        askNext()
        for await event in events {
            switch event {
            case .answered(let index, .success(let quote)):
                outcomes[index] = .answered(quote)
                return SymbolFetch(symbol: symbol, attempts: attempts(outcomes), result: .success(quote))
            case .answered(let index, .failure(let error)):
                outcomes[index] = .failed(error)
                running -= 1
                askNext()
            case .hedgeDue(let index):
                // Only the source asked last is hedged, and only while it has not answered.
                if index == asked - 1, outcomes[index] == .abandoned { askNext() }
            }
            if running == 0 { break }
        }
        return SymbolFetch(symbol: symbol, attempts: attempts(outcomes), result: .failure(failure(outcomes)))
    }

    private func attempts(_ outcomes: [SymbolFetch.Attempt.Outcome]) -> [SymbolFetch.Attempt] {
        zip(sources, outcomes).map { SymbolFetch.Attempt(plugin: $0.plugin, outcome: $1) }
    }

    /// The error of a symbol no source answered: the source's own when it
    /// was the only one, else one naming them all.
    private func failure(_ outcomes: [SymbolFetch.Attempt.Outcome]) -> FetchError {
        if sources.count == 1, case .failed(let error) = outcomes[0] { return error }
        return FetchError(symbol: symbol, .noSourceAnswered(sources: sources.map(\.plugin.label)))
    }
}
