/// How long an instance made by a registration lives, and who shares it.
///
/// Each scope has one name, the one every listing, graph and error prints:
/// `unique`, `graph`, `singleton`, `cached`, `shared` and `custom(name)`.
/// Swinject calls three of them `transient`, `container` and `weak`; the
/// porting table in the Getting Started article maps every Swinject name.
///
/// ```swift
/// container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
/// ```
///
/// ## Across parent and child containers
///
/// Scopes that store an instance (``singleton``, ``cached``, ``shared``) keep it
/// in the registration, so the instance belongs to the container that
/// registered it: resolving it through a child returns the parent's instance,
/// and its factory resolves its dependencies from the registering container,
/// never from a child's overrides. Scopes that store nothing between
/// resolutions (``unique``, ``graph``) run the factory with the container you
/// resolved from, so a child's overrides reach their dependencies. A
/// ``custom(_:)`` scope stores its instances too, and behaves the same way.
///
/// ## Scopes of your own
///
/// For a lifetime such as a request or a session, make a ``CustomScope`` and
/// register with ``custom(_:)``; its instances live until its
/// ``CustomScope/reset()``.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    // NB: a struct over a private enum, so that new scopes are not a source break.
    enum Kind: UInt8, Sendable {
        case unique, graph, singleton, cached, shared, custom
        /// The maker of a type made on demand, such as `Lazy<T>`: never registered, never listed.
        case onDemand
    }

    let kind: Kind
    /// The storage of a ``custom(_:)`` scope; nil for the built-in scopes.
    let custom: CustomScope?

    init(_ kind: Kind) {
        self.kind = kind
        self.custom = nil
    }

    /// The scope of the makers a container caches for types made on demand.
    static let onDemand = Scope(.onDemand)

    private init(custom: CustomScope) {
        self.kind = .custom
        self.custom = custom
    }

    /// A new instance on every resolve.
    public static let unique = Scope(.unique)

    /// One instance per top-level resolve, shared by everything built during it; the default.
    public static let graph = Scope(.graph)

    /// One instance for the life of the registering container, created exactly once even when threads race.
    public static let singleton = Scope(.singleton)

    /// Like ``singleton``, until ``Container/reset(_:includingParents:)`` with `.cached` drops it and the next resolve makes a new one.
    public static let cached = Scope(.cached)

    /// A class instance kept only while something else holds a strong reference to it.
    ///
    /// A value that is not a class instance cannot be held weakly, so it is
    /// made anew on every resolve, as with ``unique``.
    public static let shared = Scope(.shared)

    /// A scope whose instances live in `storage` until its ``CustomScope/reset()``.
    ///
    /// ```swift
    /// let request = CustomScope(name: "request")
    /// container.register(RequestContext.self, scope: .custom(request)) { _ in RequestContext() }
    /// let context = try container.resolve(RequestContext.self)  // the same one until request.reset()
    /// ```
    ///
    /// Two scopes made from the same ``CustomScope`` are equal; scopes from
    /// different ones are not, even if their names are the same.
    ///
    /// - Parameter storage: The scope that keeps the instances.
    /// - Returns: The scope to pass to ``Container/register(_:name:scope:factory:)`` or ``RegistrationOptions/scope(_:)``.
    public static func custom(_ storage: CustomScope) -> Scope {
        Scope(custom: storage)
    }

    /// Every built-in scope, in order from the shortest-lived to the longest-lived storage.
    public static let allScopes: [Scope] = [.unique, .graph, .shared, .cached, .singleton]

    /// The scope's name, such as `singleton`, or `custom(request)` for a ``CustomScope`` named `request`.
    public var description: String {
        if let custom {
            return custom.description
        }
        return switch kind {
        case .unique: "unique"
        case .graph: "graph"
        case .singleton: "singleton"
        case .cached: "cached"
        case .shared: "shared"
        case .custom: "custom"
        case .onDemand: "on demand"
        }
    }

    /// Whether two scopes are the same: the same built-in scope, or the same ``CustomScope``.
    ///
    /// - Parameters:
    ///   - lhs: One scope.
    ///   - rhs: The other.
    /// - Returns: Whether they are equal.
    public static func == (lhs: Scope, rhs: Scope) -> Bool {
        lhs.kind == rhs.kind && lhs.custom === rhs.custom
    }

    /// Hashes the parts that `==` compares.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(custom.map(ObjectIdentifier.init))
    }

    /// Whether the registration keeps an instance between resolves.
    var storesInstance: Bool {
        switch kind {
        case .unique, .graph, .onDemand: false
        case .singleton, .cached, .shared, .custom: true
        }
    }
}
