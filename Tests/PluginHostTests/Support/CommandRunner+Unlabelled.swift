import Foundation

extension CommandRunner.Output {
    /// This output with each ` (unvouched, PATH)` label taken out, for a
    /// test about something else than how a plugin nobody vouched for is
    /// shown (`IdentityEndToEndTests` asserts the labels).
    var unlabelled: CommandRunner.Output {
        func clean(_ text: String) -> String { text.replacing(#/ \(unvouched, [^)]*\)/#, with: "") }
        var cleaned = CommandRunner.Output(status: status, stdout: clean(stdout), stderr: clean(stderr))
        cleaned.elapsed = elapsed
        return cleaned
    }
}
