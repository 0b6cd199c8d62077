/// Every registration of one service type that takes no arguments, in the order ``All`` lists them, for one container.
///
/// Built once per container and service type, and kept until a registration
/// is published in that container or one of its parents; so ``All`` sorts
/// and merges only after a change, not on every resolve.
// @unchecked Sendable: immutable once built. The registrations and containers
// are unretained: the registries own every registration they ever published,
// and the container that keeps this list keeps its parents.
@usableFromInline
final class RegistrationList: @unchecked Sendable {
    @usableFromInline
    let entries: [Container.Located]
    /// The registration name of each entry.
    @usableFromInline
    let names: [String?]
    /// The registry generation of each container in the chain, nearest first, when the list was built.
    private let generations: [UInt]

    init(entries: [Container.Located], names: [String?], generations: [UInt]) {
        self.entries = entries
        self.names = names
        self.generations = generations
    }

    /// Whether no registration has been published in `container`'s chain since the list was built.
    func isCurrent(for container: Container) -> Bool {
        var index = 0
        var next: Container? = container
        while let current = next {
            guard index < generations.count,
                current.registry.generation.load(ordering: .acquiring) == generations[index]
            else { return false }
            index += 1
            next = current.parent
        }
        return index == generations.count
    }
}
