/// How long an instance made by a registration lives, and who shares it.
///
/// The names follow Resolver and Swinject, and each has an alias for the other
/// library's spelling (`transient`, `container`, `weak`).
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
/// resolved from, so a child's overrides reach their dependencies.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    // NB: a struct over a private enum, so that new scopes are not a source break.
    enum Kind: UInt8, Sendable {
        case unique, graph, singleton, cached, shared
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// A new instance on every resolve.
    public static let unique = Scope(.unique)

    /// One instance per top-level resolve, shared by everything built during it; the default.
    public static let graph = Scope(.graph)

    /// One instance for the life of the registering container, created exactly once even when threads race.
    public static let singleton = Scope(.singleton)

    /// Like ``singleton``, until ``Container/reset(_:)`` with `.cached` drops it and the next resolve makes a new one.
    public static let cached = Scope(.cached)

    /// A class instance kept only while something else holds a strong reference to it.
    ///
    /// A value that is not a class instance cannot be held weakly, so it is
    /// made anew on every resolve, as with ``unique``.
    public static let shared = Scope(.shared)

    /// Swinject's name for ``unique``.
    public static var transient: Scope { .unique }

    /// Swinject's name for ``singleton``.
    public static var container: Scope { .singleton }

    /// Swinject's name for ``shared``.
    public static var weak: Scope { .shared }

    /// Every scope, in order from the shortest-lived to the longest-lived storage.
    public static let allScopes: [Scope] = [.unique, .graph, .shared, .cached, .singleton]

    /// The scope's name, such as `singleton`.
    public var description: String {
        switch kind {
        case .unique: "unique"
        case .graph: "graph"
        case .singleton: "singleton"
        case .cached: "cached"
        case .shared: "shared"
        }
    }

    /// Whether the registration keeps an instance between resolves.
    var storesInstance: Bool {
        switch kind {
        case .unique, .graph: false
        case .singleton, .cached, .shared: true
        }
    }
}
