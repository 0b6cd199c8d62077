import ArgumentParser
import PluginHost

/// What `host allow` and `host disallow` say: one line, on stdout for a
/// change and on stderr for a refusal, which exits 1.
enum NetworkGrantReport {
    static func report(_ change: NetworkGrantChange) throws {
        let path = change.path
        switch change.outcome {
        case .allowed(let url, let sha256, let placement, let replaced):
            let was = replaced.map { ", replacing its grant of \($0.url) for SHA-256 \($0.sha256)" } ?? ""
            print(TerminalText.escaped("allowed \(path) (SHA-256 \(sha256)\(was)) to fetch under \(url): it still runs \(place(placement))"))
        case .needsNone(let placement):
            StandardError.write(
                "host: error: \(TerminalText.escaped("\(path) needs no grant: it is \(vouched(placement.voucher)), so it fetches under the API base it declares already; --api-base-url gives it another"))\n")
            throw ExitCode.failure
        case .refused(let reason):
            StandardError.write("host: error: \(TerminalText.escaped("not allowing \(path): \(reason)"))\n")
            throw ExitCode.failure
        case .disallowed(let url, let placement):
            print(TerminalText.escaped("disallowed \(path): it may no longer fetch under \(url); it still runs \(place(placement))"))
        case .notAllowed(let placement):
            StandardError.write(
                "host: error: \(TerminalText.escaped("\(path) has no network grant, so there is nothing to take back; it runs \(place(placement)); `host list-plugins` shows what each plugin may fetch"))\n")
            throw ExitCode.failure
        }
    }

    /// Who vouched, as the rest of a sentence "it is …".
    private static func vouched(_ voucher: Placement.Voucher) -> String {
        switch voucher {
        case .bundled: "bundled with the host"
        case .trustStore(let store): "vouched for in your trust store \(store)"
        case .allowlist(let allowlist): "vouched for in the allowlist \(allowlist)"
        case .nobody: "vouched for by nobody"
        }
    }

    /// "in a sandboxed worker (nobody vouched for it)".
    private static func place(_ placement: Placement) -> String {
        "\(placement.place == .isolated ? "in a sandboxed worker" : "in-process") (\(placement.reason))"
    }
}
