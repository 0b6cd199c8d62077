import ArgumentParser
import PluginHost

/// What `host trust` and `host untrust` share: wiring the host with a trust
/// store to change, and saying what changed, one line per file.
enum TrustStoreCommand {
    /// The host, refusing to go on without a place for the store.
    static func host(_ plugins: PluginOptions) throws -> PluginHost.Host {
        guard plugins.wiring.trustStorePath() != nil else {
            throw ValidationError("there is no trust store without a configuration directory; set XDG_CONFIG_HOME or HOME")
        }
        return try plugins.host()
    }

    /// The store could not be changed: one line, exit 1.
    static func failure(_ error: TrustStoreError) -> ExitCode {
        StandardError.write("host: error: \(TerminalText.escaped(error.message(naming: .host)))\n")
        return ExitCode.failure
    }

    /// Prints one line per file, on stdout for a change and on stderr for a
    /// refusal, and exits 1 when any file was refused or not in the store.
    static func report(_ changes: [TrustChange]) throws {
        var failed = false
        for change in changes {
            let path = change.path
            switch change.outcome {
            case .trusted(let sha256, let before, let after, let replaced):
                // A store that held another digest refused the file until now.
                let change = replaced.map { _ in "it now runs \(place(after)), no longer refused as changed" } ?? movement(from: before, to: after)
                let was = replaced.map { ", replacing \($0)" } ?? ""
                print(TerminalText.escaped("trusted \(path) (SHA-256 \(sha256)\(was)): \(change)"))
            case .alreadyTrusted(let sha256, let placement):
                print(TerminalText.escaped("\(path) is already trusted (SHA-256 \(sha256)): it runs \(place(placement))"))
            case .bundled(let placement):
                print(TerminalText.escaped("\(path) is bundled with the host, whose location vouches for it: nothing to record; it runs \(place(placement))"))
            case .refused(let reason):
                failed = true
                StandardError.write("host: error: \(TerminalText.escaped("not trusting \(path): \(reason)"))\n")
            case .untrusted(let before, let after):
                print(TerminalText.escaped("untrusted \(path): \(movement(from: before, to: after))"))
            case .notTrusted(let placement):
                failed = true
                StandardError.write(
                    "host: error: \(TerminalText.escaped("\(path) is not in your trust store, so there is nothing to take back; it runs \(place(placement)); `host trust --list` shows what is"))\n")
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// "it now runs in-process, no longer in a sandboxed worker", or "it still runs …".
    private static func movement(from before: Placement, to after: Placement) -> String {
        guard before.place != after.place else { return "it still runs \(place(after))" }
        return "it now runs \(place(after)), no longer \(words(for: before.place))"
    }

    /// Where and why: "in-process (vouched for in your trust store …)".
    private static func place(_ placement: Placement) -> String {
        "\(words(for: placement.place)) (\(placement.reason))"
    }

    private static func words(for place: Placement.Place) -> String {
        switch place {
        case .inProcess: "in-process"
        case .isolated: "in a sandboxed worker"
        }
    }
}
