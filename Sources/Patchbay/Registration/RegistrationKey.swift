/// The identity of a registration: service type, argument types and name.
///
/// The hash is computed once, from the two type identities and the name, so
/// that a lookup costs one probe of the registry without running `Hasher` for
/// the common unnamed case.
struct RegistrationKey: Hashable, Sendable {
    let service: ObjectIdentifier
    let arguments: ObjectIdentifier
    let name: String?
    let hash: UInt

    @inline(__always)
    init(service: ObjectIdentifier, arguments: ObjectIdentifier, name: String?) {
        self.service = service
        self.arguments = arguments
        self.name = name
        var mixed = RegistrationKey.mix(service, arguments)
        if let name {
            mixed ^= UInt(bitPattern: name.hashValue) &* 0x1656_67B1_9E37_79F9
        }
        self.hash = mixed ^ (mixed >> 29)
    }

    /// The key of an unnamed registration; the same key as passing a nil name, without its branch.
    @inline(__always)
    init(service: ObjectIdentifier, arguments: ObjectIdentifier) {
        self.service = service
        self.arguments = arguments
        self.name = nil
        let mixed = RegistrationKey.mix(service, arguments)
        self.hash = mixed ^ (mixed >> 29)
    }

    /// A multiplicative mix of the two metadata addresses; they are aligned,
    /// so the low bits alone would cluster.
    @inline(__always)
    private static func mix(_ service: ObjectIdentifier, _ arguments: ObjectIdentifier) -> UInt {
        (UInt(bitPattern: service) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt(bitPattern: arguments) &* 0xC2B2_AE3D_27D4_EB4F)
    }

    @inline(__always)
    static func == (lhs: RegistrationKey, rhs: RegistrationKey) -> Bool {
        guard lhs.hash == rhs.hash && lhs.service == rhs.service && lhs.arguments == rhs.arguments else {
            return false
        }
        // NB: spelled out, so that two nil names never reach String comparison.
        switch (lhs.name, rhs.name) {
        case (nil, nil): return true
        case (let left?, let right?): return left == right
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
