import PluginBoundary

/// Why the host did not fetch a URL a plugin asked for.
///
/// Its ``description`` is the one line the plugin's `http_get` completion
/// gets as its error, written for the plugin to show to its user.
package struct URLPolicyViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL the plugin asked for, as it wrote it.
    package let url: String
    private let reason: Reason

    indirect enum Reason: Sendable, Equatable {
        /// Not a URL the host reads: no grant could allow it.
        case malformed(StrictURL.ParseError)
        /// Well formed, but under no prefix.
        case outside(StrictURL, allowed: [String], grantOption: String?)
        /// A redirect led to a URL that is refused.
        case redirect(to: String, URLPolicyViolation)
        /// The networking refused it, e.g. a symbolic link out of a `file` base.
        case networking(String)
        /// Under the base the plugin declares, which nobody vouched for.
        case unvouched(URLPolicy.WithheldBase)
        /// Longer than ``URLPolicy/maximumLength``.
        case tooLong(bytes: Int)
    }

    init(url: String, _ reason: Reason) {
        self.url = url
        self.reason = reason
    }

    /// One line: what was refused, why, and, when a grant would allow it,
    /// how to grant it. The URL is the plugin's text, so it is cut
    /// (`PluginOutputRules.echoed(_:)`, in PluginBoundary): one refusal stays one readable line.
    package var description: String { "refused http_get of \(PluginOutputRules.echoed(url)): \(explanation)" }

    private var explanation: String {
        switch reason {
        case .malformed(let problem):
            return "it \(problem)"
        case .outside(let url, let allowed, let grantOption):
            let grant = PluginOutputRules.echoed(url.textWithoutQuery)
            let advice = grantOption.map { "pass \($0) \(grant)" } ?? "grant the host \(grant)"
            return "it is outside the URLs plugins may fetch (\(allowed.joined(separator: ", "))); to allow it, \(advice)"
        case .redirect(let location, let refusal):
            return "it redirects to \(PluginOutputRules.echoed(location)), and \(refusal.explanation)"
        case .networking(let reason):
            return reason
        case .unvouched(let withheld):
            let grant = withheld.baseOption.map { "pass \($0) \(withheld.selector)=\(withheld.base)" } ?? "give \(withheld.plugin) that base yourself"
            let allow = withheld.allowCommand.map { ", run \($0) on its file (it stays sandboxed)" } ?? ""
            let vouch = withheld.trustCommand.map { "\(allow), or vouch for the plugin with \($0)" } ?? allow
            return "it is under \(withheld.base), the API base \(withheld.plugin) declares, and nobody vouched for \(withheld.plugin); to let it fetch there, \(grant)\(vouch)"
        case .tooLong(let bytes):
            return "it is \(bytes) bytes long, and a URL may be at most \(URLPolicy.maximumLength)"
        }
    }
}
