/// A set of up to four services, each needing some of the others by initializer or by a property set in `initCompleted`.
///
/// Object 0 is the one resolved. Shapes are generated whole: every mix of
/// edges between `count` objects in which object 0 reaches every other one,
/// each once up to renaming the others (a shape and its relabelling resolve
/// alike, so only one of them is kept).
struct CompletionShape: Sendable, CustomStringConvertible {
    /// How one object needs another.
    enum Edge: Int, Sendable {
        case none = 0, initializer, property
    }

    static let names = ["A", "B", "C", "D"]

    let count: Int
    /// Row-major, `from * count + to`; the diagonal is `.none`.
    let edges: [Edge]

    func edge(_ from: Int, _ to: Int) -> Edge {
        edges[from * count + to]
    }

    /// The objects `from` needs by `kind`, in order.
    func targets(of from: Int, by kind: Edge) -> [Int] {
        (0..<count).filter { edge(from, $0) == kind }
    }

    /// Such as `A(b:) B(c:) C(d:) D() C.a D.b D.c`: each initializer, then each property.
    var description: String {
        let initializers = (0..<count).map { from in
            let parameters = targets(of: from, by: .initializer).map { "\(Self.names[$0].lowercased()):" }
            return "\(Self.names[from])(\(parameters.joined()))"
        }
        let properties = (0..<count).flatMap { from in
            targets(of: from, by: .property).map { "\(Self.names[from]).\(Self.names[$0].lowercased())" }
        }
        return (initializers + properties).joined(separator: " ")
    }

    /// Whether some objects need each other by initializer alone, in a loop: no completion can break that.
    var hasInitializerCycle: Bool {
        var state = [Int](repeating: 0, count: count)  // 0 unseen, 1 on the stack, 2 done
        func visit(_ node: Int) -> Bool {
            state[node] = 1
            for next in targets(of: node, by: .initializer) {
                if state[next] == 1 || (state[next] == 0 && visit(next)) { return true }
            }
            state[node] = 2
            return false
        }
        return (0..<count).contains { state[$0] == 0 && visit($0) }
    }

    /// Every shape of `count` objects, up to renaming objects 1 and above.
    static func all(objects count: Int) -> [CompletionShape] {
        let pairs = (0..<count).flatMap { from in (0..<count).filter { $0 != from }.map { (from, $0) } }
        let permutations = permutationsOf(Array(1..<max(count, 1)))
        var total = 1
        for _ in pairs { total *= 3 }
        var shapes: [CompletionShape] = []
        for code in 0..<total {
            var edges = [Edge](repeating: .none, count: count * count)
            var rest = code
            for (from, to) in pairs {
                edges[from * count + to] = Edge(rawValue: rest % 3) ?? .none
                rest /= 3
            }
            let shape = CompletionShape(count: count, edges: edges)
            guard shape.reachesEveryObject else { continue }
            // Kept only if no renaming of the other objects gives a smaller code.
            let isCanonical = permutations.allSatisfy { permutation in
                let renamed = [0] + permutation
                var renamedCode = 0
                var weight = 1
                for (from, to) in pairs {
                    renamedCode += shape.edge(renamed[from], renamed[to]).rawValue * weight
                    weight *= 3
                }
                return renamedCode >= code
            }
            if isCanonical { shapes.append(shape) }
        }
        return shapes
    }

    /// Swinject's own four-object case: `A(b:)`, `B(c:)`, `C(d:)` and `D()`, with `c.a`, `d.b` and `d.c` set in `initCompleted`.
    static let swinjectsFourObjects = CompletionShape(
        count: 4,
        edges: [
            .none, .initializer, .none, .none,
            .none, .none, .initializer, .none,
            .property, .none, .none, .initializer,
            .none, .property, .property, .none,
        ])

    /// The same shape with every link turned around, each keeping its kind: `A()`, `B(a:)`, `C(b:)`, `D(c:)`, `a.c`, `b.d`, `c.d`.
    var mirrored: CompletionShape {
        CompletionShape(count: count, edges: (0..<count * count).map { edges[($0 % count) * count + $0 / count] })
    }

    /// How many objects `root` reaches, itself included.
    func reached(from root: Int) -> Int {
        var reached: Set<Int> = [root]
        var next = [root]
        while let from = next.popLast() {
            for to in 0..<count where edge(from, to) != .none && reached.insert(to).inserted {
                next.append(to)
            }
        }
        return reached.count
    }

    private var reachesEveryObject: Bool {
        reached(from: 0) == count
    }

    private static func permutationsOf(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutationsOf(rest).map { [first] + $0 }
        }
    }
}

/// What Swinject 2.10.0's `Container.resolve(entry:invoker:)` does with a shape, step by step, as a model to compare with.
///
/// Swinject looks for the instance kept in the graph, runs the factory if
/// there is none, looks again (a re-entered run below may have kept one),
/// keeps its own result otherwise, and then runs `initCompleted`. It never
/// refuses a repeat: a chain no completion can break recurses until its
/// depth limit of 200 and stops the program.
struct SwinjectModel {
    /// One event: `factory(i)` when object i's factory starts, `completion(i)` when its `initCompleted` does.
    enum Event: Hashable, CustomStringConvertible {
        case factory(Int), completion(Int)

        var description: String {
            switch self {
            case .factory(let index): CompletionShape.names[index]
            case .completion(let index): "\(CompletionShape.names[index]).initCompleted"
            }
        }
    }

    let shape: CompletionShape
    let root: Int
    private(set) var events: [Event] = []
    private var kept: [Int: Int] = [:]
    private var instances = 0
    private var depth = 0

    init(_ shape: CompletionShape, root: Int = 0) {
        self.shape = shape
        self.root = root
    }

    /// Resolves the root, and returns whether Swinject would (false: it hit its depth limit).
    mutating func resolvesTheRoot() -> Bool {
        resolve(root) != nil
    }

    private mutating func resolve(_ object: Int) -> Int? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 200 else { return nil }
        if let instance = kept[object] { return instance }
        events.append(.factory(object))
        for dependency in shape.targets(of: object, by: .initializer) {
            guard resolve(dependency) != nil else { return nil }
        }
        instances += 1
        if let instance = kept[object] { return instance }
        kept[object] = instances
        let properties = shape.targets(of: object, by: .property)
        if !properties.isEmpty {
            events.append(.completion(object))
            for dependency in properties {
                guard resolve(dependency) != nil else { return nil }
            }
        }
        return instances
    }
}
