/// A description of one registration, for listing what a container can resolve.
///
/// ```swift
/// for registration in container.registrations() {
///     print(registration) // PriceFetcher(name: "ETH") [singleton]
/// }
/// ```
public struct RegistrationInfo: Hashable, Sendable, CustomStringConvertible {
    /// The registered service type, name and argument types.
    public let step: ResolutionStep
    /// How long instances live.
    public let scope: Scope
    /// The types this registration also resolves as, added with ``RegistrationOptions/implements(_:name:)``.
    public let forwardedTypes: [Any.Type]

    init(_ registration: Registration) {
        step = registration.step
        scope = registration.scope
        forwardedTypes = registration.forwardedTypes
    }

    /// The registered service type.
    public var serviceType: Any.Type { step.serviceType }
    /// The registration name, or nil.
    public var name: String? { step.name }
    /// The factory's argument types after the resolver, in order.
    public var argumentTypes: [Any.Type] { step.argumentTypes }

    /// The registration as `Type(name: "…", arguments: …) [scope]`, then `implements …` if it forwards.
    public var description: String {
        var text = "\(step) [\(scope)]"
        if !forwardedTypes.isEmpty {
            text += " implements \(forwardedTypes.map(typeName).joined(separator: ", "))"
        }
        return text
    }

    /// Whether two registrations are the same, comparing types by identity.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: The other.
    /// - Returns: Whether they are equal.
    public static func == (lhs: RegistrationInfo, rhs: RegistrationInfo) -> Bool {
        lhs.step == rhs.step && lhs.scope == rhs.scope
            && lhs.forwardedTypes.map(ObjectIdentifier.init) == rhs.forwardedTypes.map(ObjectIdentifier.init)
    }

    /// Hashes the parts that `==` compares.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(step)
        hasher.combine(scope)
    }
}
