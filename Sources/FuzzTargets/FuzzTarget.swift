/// One parser of untrusted input, driven by arbitrary bytes, with the
/// properties its output must have.
///
/// A target calls the project's real code, never a copy: the fuzzer
/// (`scripts/fuzz.sh`) and the replay suite (`swift test`) run the same
/// ``run(_:)``. A crash in the code under test stops either one; a broken
/// property comes back as a ``PropertyViolation``, which the fuzzer turns
/// into a trap so that libFuzzer keeps the input.
///
/// ```swift
/// let target = FuzzTarget.named("url-policy")
/// try target?.run(Array("https://h.test/v2\nhttps://h.test/v2/x".utf8))
/// ```
package struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz.sh` and the corpus folder use, e.g. `url-policy`.
    package let name: String
    /// One line: the code under test and what the input is.
    package let summary: String
    private let body: @Sendable (inout FuzzInput) throws(PropertyViolation) -> Void

    /// Creates a target.
    /// - Parameters:
    ///   - name: Its name, in kebab case.
    ///   - summary: The code under test and the shape of the input.
    ///   - body: Reads the input, calls the code under test and checks its
    ///     properties, throwing the first that fails.
    init(_ name: String, _ summary: String, _ body: @escaping @Sendable (inout FuzzInput) throws(PropertyViolation) -> Void) {
        self.name = name
        self.summary = summary
        self.body = body
    }

    /// Runs one input through the code under test.
    /// - Parameter bytes: Any bytes at all.
    /// - Throws: ``PropertyViolation`` when the output breaks a property.
    package func run(_ bytes: [UInt8]) throws(PropertyViolation) {
        var input = FuzzInput(bytes)
        do {
            try body(&input)
        } catch {
            throw PropertyViolation(target: name, property: error.property, detail: error.detail)
        }
    }
}
