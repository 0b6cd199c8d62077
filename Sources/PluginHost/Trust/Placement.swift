/// Where a plugin's code runs, why it runs there, and who vouched for it.
///
/// `PlacementRule` makes every placement; nothing else decides where a
/// plugin runs.
package struct Placement: Sendable, Equatable, Codable {
    /// In the host's own process, or in a sandboxed worker of its own.
    package enum Place: String, Sendable, Equatable, Codable {
        /// Loaded into the host with `dlopen`: trusted code.
        case inProcess = "in-process"
        /// Loaded in a sandboxed worker process.
        case isolated
    }

    /// Who vouched for a plugin: only these move it in-process by default.
    /// Nothing a plugin or a downloaded folder can supply is among them.
    package enum Voucher: Sendable, Hashable, Codable {
        /// The build that bundled it beside the host, by its location.
        case bundled
        /// The user, in their trust store (`host trust`), at this path.
        case trustStore(path: String)
        /// The user, in the allowlist named on the command line, at this path.
        case allowlist(path: String)
        /// Nobody: it runs sandboxed unless the user says otherwise.
        case nobody

        /// The name scripts read: `bundled`, `trust-store`, `allowlist` or `nobody`.
        package var name: String {
            switch self {
            case .bundled: "bundled"
            case .trustStore: "trust-store"
            case .allowlist: "allowlist"
            case .nobody: "nobody"
            }
        }
    }

    /// Where it runs.
    package let place: Place
    /// Why, in a few words: "bundled with the host", "--isolate", …
    package let reason: String
    /// Who vouched for it, whatever a switch then decided.
    package let voucher: Voucher

    /// Creates a placement.
    package init(_ place: Place, because reason: String, vouchedBy voucher: Voucher) {
        self.place = place
        self.reason = reason
        self.voucher = voucher
    }
}
