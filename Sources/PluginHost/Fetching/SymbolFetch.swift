/// What fetching one symbol got: each source asked, what it answered, and
/// the answer.
package struct SymbolFetch: Sendable {
    /// One source, and what came of asking it.
    package struct Attempt: Sendable, Equatable {
        /// What came of asking a source.
        package enum Outcome: Sendable, Equatable {
            /// It answered with a price.
            case answered(Quote)
            /// It failed: an error, a refused answer, a crash or a timeout.
            case failed(FetchError)
            /// It was asked, and another source's answer won before its own came.
            case abandoned
            /// It was not asked: the timeout had run out first.
            case notAsked
        }

        /// The plugin.
        package let plugin: PluginIdentity
        /// What came of it.
        package let outcome: Outcome
        /// With every source asked: whether its answer counts toward the
        /// consensus (a vouched source's, or any with `--count-unvouched`).
        package var counted = false
    }

    /// The symbol, as the user typed it.
    package let symbol: String
    /// How many sources the plan had for the symbol; 0 when it had none
    /// (an unknown symbol, say).
    package let sourceCount: Int
    /// Each source asked, in the order asked; when no source answered,
    /// also those the timeout left unasked.
    package let attempts: [Attempt]
    /// The price: the first answer in failover; the first source's answer
    /// in rank order when every source was asked; or why there is none.
    package let result: Result<Quote, FetchError>
    /// When every source was asked and at least one counted source
    /// answered: the median and spread of the counted answers.
    package let consensus: Consensus?

    /// A fetch that asked no source, because of `error`.
    init(symbol: String, error: FetchError) {
        self.symbol = symbol
        self.sourceCount = 0
        self.attempts = []
        self.result = .failure(error)
        self.consensus = nil
    }

    /// A fetch that asked its sources.
    init(symbol: String, attempts: [Attempt], result: Result<Quote, FetchError>, consensus: Consensus? = nil) {
        self.symbol = symbol
        self.sourceCount = attempts.count
        // Sources left unasked because another answered are no attempts; unasked for want of time, they explain a failure.
        let answered = (try? result.get()) != nil
        self.attempts = answered ? attempts.filter { $0.outcome != .notAsked } : attempts
        self.result = result
        self.consensus = consensus
    }

    /// The sources that failed, with why, in the order asked.
    package var failures: [(plugin: PluginIdentity, error: FetchError)] {
        attempts.compactMap { attempt in
            if case .failed(let error) = attempt.outcome { (attempt.plugin, error) } else { nil }
        }
    }

    /// Every price the sources answered, in the order asked.
    package var quotes: [Quote] {
        attempts.compactMap { attempt in
            if case .answered(let quote) = attempt.outcome { quote } else { nil }
        }
    }
}
