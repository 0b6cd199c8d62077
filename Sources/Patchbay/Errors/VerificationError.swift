/// Every registration that ``Container/verify()`` could not resolve, each with its error.
public struct VerificationError: Error, CustomStringConvertible {
    /// One registration that failed to resolve.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The registration that failed.
        public let registration: RegistrationInfo
        /// Why it failed.
        public let error: ResolutionError

        /// The registration, then its error's description indented beneath it.
        public var description: String {
            let indented = error.description.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "   " + $0 }.joined(separator: "\n")
            return "\(registration):\n\(indented)"
        }
    }

    /// The failures, in the order of the registrations' descriptions.
    public let failures: [Failure]
    /// How many registrations were checked.
    public let checkedCount: Int
    /// The dependencies observed, including the missing services.
    public let graph: DependencyGraph

    /// A summary line, then each failure numbered with its full message.
    public var description: String {
        let count = failures.count
        var text = "Verification failed: \(count) of \(checkedCount) registration\(checkedCount == 1 ? "" : "s") "
        text += "could not be resolved.\n"
        for (index, failure) in failures.enumerated() {
            text += "\n\(index + 1). \(failure)\n"
        }
        return text
    }
}
