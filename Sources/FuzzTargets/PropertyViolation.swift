/// An output that breaks a property its parser promises, such as a cache
/// entry that does not read back as written.
package struct PropertyViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target that found it; filled in by ``FuzzTarget/run(_:)``.
    package var target: String
    /// The property, as a sentence in the present tense.
    package let property: String
    /// The values involved.
    package let detail: String

    init(target: String = "", property: String, detail: String) {
        self.target = target
        self.property = property
        self.detail = detail
    }

    /// One line: "url-policy: an accepted URL reads back the same: …".
    package var description: String { "\(target): \(property): \(detail)" }
}

/// Throws a ``PropertyViolation`` unless `condition` holds.
/// - Parameters:
///   - condition: The property, evaluated.
///   - property: What it promises, as a sentence.
///   - detail: The values involved, built only on failure.
func expect(_ condition: Bool, _ property: String, _ detail: @autoclosure () -> String) throws(PropertyViolation) {
    guard condition else { throw PropertyViolation(property: property, detail: detail()) }
}
