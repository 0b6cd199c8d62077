/// How `fetch` asks the sources of each symbol.
///
/// ```swift
/// FetchPlan()                              // the first source, then the next if it fails
/// FetchPlan(hedge: .seconds(1))            // and the next one too if the first is slow
/// FetchPlan(sources: .named("BitstampPlugin"))
/// FetchPlan(sources: .all)                 // every source at once, for a consensus of the vouched ones
/// FetchPlan(sources: .all, countUnvouched: true)   // … of every source
/// ```
package struct FetchPlan: Sendable, Equatable {
    /// Which sources are asked.
    package enum Sources: Sendable, Equatable {
        /// The first in rank order; the next only when it fails (or, with a
        /// hedge, is slow), all within one timeout.
        case failover
        /// Only the plugin of that name, whatever its rank.
        case named(String)
        /// Every source but those at rank 0, at once.
        case all
    }

    /// Which sources are asked.
    package var sources: Sources
    /// With ``Sources/failover``: how long a source may go unanswered
    /// before the next is asked too; nil to ask the next only on failure.
    package var hedge: Duration?
    /// With ``Sources/all``: whether answers of plugins nobody vouched for
    /// count toward the median and spread; by default they are only shown.
    package var countUnvouched: Bool

    /// A plan.
    /// - Parameters:
    ///   - sources: Which sources are asked; by default, failover.
    ///   - hedge: How long a source may go unanswered before the next is asked too.
    ///   - countUnvouched: Whether strangers' answers count toward a consensus.
    package init(sources: Sources = .failover, hedge: Duration? = nil, countUnvouched: Bool = false) {
        self.sources = sources
        self.hedge = hedge
        self.countUnvouched = countUnvouched
    }
}
