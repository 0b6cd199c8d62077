/// What `host allow` or `host disallow` did for one file.
package struct NetworkGrantChange: Sendable {
    /// The outcome for one file.
    package enum Outcome: Sendable {
        /// Its grant is recorded: it may fetch under `url` and runs as
        /// `placement` says; `replaced` is the grant it held before, if another.
        case allowed(url: String, sha256: String, placement: Placement, replaced: NetworkGrant?)
        /// Someone vouched for it, so it fetches under its declared base already: nothing recorded.
        case needsNone(Placement)
        /// It failed a check, or has no base to grant: nothing recorded; the reason, in one line.
        case refused(String)
        /// Its grant is gone: it was allowed `url`, and runs as `placement` says.
        case disallowed(url: String, placement: Placement)
        /// The grants did not list it: nothing to take back.
        case notAllowed(Placement)
    }

    /// The file, absolute, as the grants name it.
    package let path: String
    /// What happened.
    package let outcome: Outcome
}
