/// One service in a resolution path: its type, name and argument types.
///
/// Its description reads `PriceFetcher`, `PriceFetcher(name: "ETH")` or
/// `PriceFetcher(name: "ETH", arguments: String, Int)`.
public struct ResolutionStep: Hashable, Sendable, CustomStringConvertible {
    /// The requested service type.
    public let serviceType: Any.Type
    /// The registration name, or nil for the unnamed registration.
    public let name: String?
    /// The types of the arguments passed to the factory, in order.
    public let argumentTypes: [Any.Type]

    /// Creates a step.
    ///
    /// - Parameters:
    ///   - serviceType: The requested service type.
    ///   - name: The registration name, or nil.
    ///   - argumentTypes: The factory's argument types, in order.
    public init(serviceType: Any.Type, name: String? = nil, argumentTypes: [Any.Type] = []) {
        self.serviceType = serviceType
        self.name = name
        self.argumentTypes = argumentTypes
    }

    /// The service type's name, such as `PriceFetcher`.
    public var serviceTypeName: String { typeName(serviceType) }

    /// The step as `Type(name: "…", arguments: …)`, leaving out what is absent.
    public var description: String {
        var details: [String] = []
        if let name { details.append("name: \(quoted(name))") }
        if !argumentTypes.isEmpty { details.append("arguments: \(typeList(argumentTypes))") }
        return details.isEmpty ? serviceTypeName : "\(serviceTypeName)(\(details.joined(separator: ", ")))"
    }

    /// Whether two steps are the same, comparing types by identity.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: The other.
    /// - Returns: Whether they are equal.
    public static func == (lhs: ResolutionStep, rhs: ResolutionStep) -> Bool {
        lhs.serviceType == rhs.serviceType && lhs.name == rhs.name
            && lhs.argumentTypes.map(ObjectIdentifier.init) == rhs.argumentTypes.map(ObjectIdentifier.init)
    }

    /// Hashes the parts that `==` compares.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(serviceType))
        hasher.combine(name)
        for type in argumentTypes { hasher.combine(ObjectIdentifier(type)) }
    }
}

/// A type's name as a user wrote it, such as `PriceFetcher`; a protocol existential prints as the protocol.
func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}

/// `(String, Int)`-style list of type names; `()` when empty.
func typeList(_ types: [Any.Type]) -> String {
    types.isEmpty ? "()" : types.map(typeName).joined(separator: ", ")
}

/// The string in double quotes, with quotes and backslashes escaped.
func quoted(_ string: String) -> String {
    var result = "\""
    for character in string {
        if character == "\"" || character == "\\" { result.append("\\") }
        result.append(character)
    }
    result.append("\"")
    return result
}
