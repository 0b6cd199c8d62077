/// Asks a symbol's sources one after the other, within one timeout, until
/// one answers: the next is asked when the one before fails, or, with a
/// hedge, when it has not answered after the hedge's delay ("The Tail at
/// Scale"). The first good answer wins; the others' late answers are
/// ignored, as any late answer is.
///
/// The vouched sources share the timeout among themselves: without a
/// hedge, each gets an equal share of the time left to the vouched ones,
/// and the last vouched source all of it, so a source that fails at once
/// leaves its share to the rest and one source gets the whole timeout. A
/// stranger (a plugin nobody vouched for, asked after every vouched one,
/// ``SymbolProviders``) is asked only with what is left once every vouched
/// source has failed, the strangers sharing it alike: however many
/// strangers a folder ships, they cannot shorten a vouched source's time.
/// With a hedge, every source may run until the timeout, since they
/// overlap; but no stranger starts while a vouched source is still running.
/// A source is loaded only when it is asked (``PluginFetcher`` loads
/// on-demand plugins on their first fetch), so a first source that answers
/// costs no other plugin's load.
struct Failover: Sendable {
    let symbol: String
    let currency: String
    /// In the order they are asked: every vouched source before every stranger.
    let sources: [PluginFetcher]
    /// Whether someone vouched for each source, in the order of ``sources``.
    let vouched: [Bool]
    let timeout: Duration
    let hedge: Duration?

    /// Sources in the order asked, and whether each was vouched for.
    init(symbol: String, currency: String, sources: [PluginFetcher], vouched: [Bool], timeout: Duration, hedge: Duration?) {
        self.symbol = symbol
        self.currency = currency
        self.sources = sources
        self.vouched = sources.indices.map { $0 < vouched.count && vouched[$0] }
        self.timeout = timeout
        self.hedge = hedge
    }

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
        var vouchedRunning = 0

        /// Asks the next source, if any and if time is left: a stranger
        /// only once no vouched source is running.
        func askNext() {
            guard asked < sources.count else { return }
            if !vouched[asked], vouchedRunning > 0 { return }
            let remaining = deadline - clock.now
            guard remaining > .zero else { return }
            let index = asked
            // The first source's share is taken from the timeout itself, so one source waits exactly the timeout asked for.
            let left = hedge == nil ? Self.sharing(from: index, vouched: vouched) : 1
            let budget = (index == 0 ? timeout : remaining) / left
            let (source, currency) = (sources[index], currency)
            asked += 1
            running += 1
            if vouched[index] { vouchedRunning += 1 }
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
                if vouched[index] { vouchedRunning -= 1 }
                askNext()
            case .hedgeDue(let index):
                // Only the source asked last is hedged, and only while it has not answered.
                if index == asked - 1, outcomes[index] == .abandoned { askNext() }
            }
            if running == 0 { break }
        }
        return SymbolFetch(symbol: symbol, attempts: attempts(outcomes), result: .failure(failure(outcomes)))
    }

    /// How many sources share the time left when source `index` is asked:
    /// it and those after it of its kind, vouched or not. The vouched ones
    /// come first, so a stranger never counts against a vouched source's share.
    static func sharing(from index: Int, vouched: [Bool]) -> Int {
        vouched.indices[index...].count { vouched[$0] == vouched[index] }
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
