/// The user's grant to one plugin file nobody vouched for: it may fetch
/// under `url` while its content is the one granted, and it keeps running
/// in its sandboxed worker (`host allow`).
///
/// A grant is for content, as a vouch is: ``HostServices`` admits `url`
/// only when the digest of the file loaded or listed is `sha256`.
package struct NetworkGrant: Sendable, Equatable, Codable {
    /// The SHA-256 of the file granted, lower-case hex.
    package let sha256: String
    /// The prefix it may fetch under: the base it declared, or one the user gave.
    package let url: String

    /// A grant for a file, and the digest of the file as loaded or listed:
    /// what ``HostServices`` needs to say whether the grant holds.
    package struct Claim: Sendable, Equatable {
        /// The grant the user recorded for the file's path.
        package let grant: NetworkGrant
        /// The SHA-256 of the file as loaded or listed; nil when unknown, which holds no grant.
        package let digest: String?

        /// Creates a claim.
        package init(grant: NetworkGrant, digest: String?) {
            self.grant = grant
            self.digest = digest
        }
    }

    /// What a grant came to for one plugin, as listings show it.
    package enum State: Sendable, Equatable, Codable {
        /// The file is the one granted: it may fetch under the URL.
        case granted(url: String)
        /// The file changed since it was granted: the grant does not apply.
        case changed(url: String)

        /// The granted URL, whether or not it applies.
        package var url: String {
            switch self {
            case .granted(let url), .changed(let url): url
            }
        }
    }
}
