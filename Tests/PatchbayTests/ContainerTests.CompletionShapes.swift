import Patchbay
import Synchronization
import Testing

extension ContainerTests {
    /// Every mix of initializer and property injection among up to four objects, against a model of Swinject.
    ///
    /// A shape Swinject resolves must resolve with the same factory and
    /// completion runs in the same order, one instance of each object, every
    /// link pointing at it. A shape Swinject cannot resolve (it recurses until
    /// its depth limit) must throw ``ResolutionError/Code/circularDependency``,
    /// whose chain ends in a loop of initializers.
    @Suite struct CompletionShapes {
        /// How many shapes there are of each size, and how many of them Swinject resolves.
        static let expected: [Int: (shapes: Int, resolved: Int)] = [
            1: (1, 1), 2: (6, 5), 3: (279, 172), 4: (76_644, 30_465),
        ]

        /// Every shape in graph scope, Patchbay's default and the scope of Swinject's own case; in singleton
        /// scope, every shape of up to three objects (the 76,644 of four take as long again).
        @Test(arguments: [
            (1, Scope.graph), (2, .graph), (3, .graph), (4, .graph), (1, .singleton), (2, .singleton), (3, .singleton),
        ])
        func everyShapeResolvesAsSwinjectDoesOrThrowsItsCycle(objects: Int, scope: Scope) async {
            // NB: seconds of work: on a thread of its own, so that it holds no thread of the cooperative pool.
            let (shapes, resolved, mismatches) = await DedicatedThread.run { () -> (Int, Int, [String]) in
                let shapes = CompletionShape.all(objects: objects)
                var resolved = 0
                var mismatches: [String] = []
                for shape in shapes {
                    var model = SwinjectModel(shape)
                    let swinjectResolves = model.resolvesTheRoot()
                    if swinjectResolves { resolved += 1 }
                    if swinjectResolves == shape.hasInitializerCycle {
                        mismatches.append("\(shape): the model disagrees with the rule that a loop of initializers fails")
                    }
                    if let problem = Self.resolve(shape, in: scope, swinject: swinjectResolves ? model.events : nil) {
                        mismatches.append("\(shape): \(problem)")
                    }
                }
                return (shapes.count, resolved, mismatches)
            }
            #expect(shapes == Self.expected[objects]?.shapes)
            #expect(resolved == Self.expected[objects]?.resolved)
            #expect(
                mismatches.isEmpty,
                "\(mismatches.count) shapes differ, such as:\n\(mismatches.prefix(5).joined(separator: "\n"))")
        }

        /// Registers `shape` in `scope`, resolves `root`, and says what differs from Swinject, or nil.
        ///
        /// - Parameter swinject: The events of Swinject's resolve, or nil if it cannot resolve the shape.
        static func resolve(
            _ shape: CompletionShape, root: Int = 0, in scope: Scope, swinject: [SwinjectModel.Event]?
        ) -> String? {
            let names = CompletionShape.names
            let events = Mutex<[SwinjectModel.Event]>([])
            let built = Mutex<[ShapeNode]>([])
            defer {
                // Links run both ways: unlink every instance made, so that none outlives the check.
                for node in built.withLock({ $0 }) { node.links = [:] }
            }
            let container = Container()
            for index in 0..<shape.count {
                let initializers = shape.targets(of: index, by: .initializer)
                let properties = shape.targets(of: index, by: .property)
                let options = container.register(ShapeNode.self, name: names[index], scope: scope) { r in
                    events.withLock { $0.append(.factory(index)) }
                    var links: [Int: ShapeNode] = [:]
                    for target in initializers {
                        links[target] = try r.resolve(ShapeNode.self, name: names[target])
                    }
                    let node = ShapeNode(index: index, links: links)
                    built.withLock { $0.append(node) }
                    return node
                }
                if !properties.isEmpty {
                    options.initCompleted { r, node in
                        events.withLock { $0.append(.completion(index)) }
                        for target in properties {
                            node.links[target] = try r.resolve(ShapeNode.self, name: names[target])
                        }
                    }
                }
            }
            let resolved: ShapeNode
            do throws(ResolutionError) {
                resolved = try container.resolve(ShapeNode.self, name: names[root])
            } catch {
                guard swinject == nil else { return "threw \(error.code): \(error.pathDescription)" }
                return problemWithCycle(error, in: shape)
            }
            guard let swinject else { return "resolved, but Swinject recurses until its depth limit" }
            let ran = events.withLock { $0 }
            guard ran == swinject else { return "ran \(ran) where Swinject runs \(swinject)" }
            // One instance of each object, and every link of each points at the one instance of its target.
            var instances: [Int: ShapeNode] = [root: resolved]
            var unvisited = [resolved]
            while let node = unvisited.popLast() {
                let wanted = Set(shape.targets(of: node.index, by: .initializer) + shape.targets(of: node.index, by: .property))
                guard Set(node.links.keys) == wanted else {
                    return "\(names[node.index]) links to \(node.links.keys.sorted().map { names[$0] })"
                }
                for (target, linked) in node.links {
                    if let known = instances[target] {
                        guard known === linked else { return "two instances of \(names[target]) are linked" }
                    } else {
                        instances[target] = linked
                        unvisited.append(linked)
                    }
                }
            }
            let reached = shape.reached(from: root)
            return instances.count == reached ? nil : "\(instances.count) objects are linked, not \(reached)"
        }

        /// Swinject's four-object case and its mirror image, from each object: one instance of each, wired both ways.
        @Test(arguments: [
            ("A", ["A", "B", "C", "D", "D.initCompleted", "B", "C", "C.initCompleted", "A", "B"]),
            ("B", ["B", "C", "D", "D.initCompleted", "B", "C", "C.initCompleted", "A", "B"]),
            ("C", ["C", "D", "D.initCompleted", "B", "C", "C.initCompleted", "A", "B"]),
            ("D", ["D", "D.initCompleted", "B", "C", "C.initCompleted", "A", "B"]),
        ])
        func swinjectsFourObjectsResolveFromEachOfThem(root: String, runs: [String]) throws {
            let index = try #require(CompletionShape.names.firstIndex(of: root))
            var model = SwinjectModel(.swinjectsFourObjects, root: index)
            let resolves = model.resolvesTheRoot()
            #expect(resolves)
            #expect(model.events.map(\.description) == runs)
            for scope in [Scope.graph, .singleton, .cached, .shared] {
                #expect(Self.resolve(.swinjectsFourObjects, root: index, in: scope, swinject: model.events) == nil)
            }
        }

        @Test(arguments: [
            ("A", ["A", "A.initCompleted", "C", "B", "B.initCompleted", "D", "C", "C.initCompleted", "D"]),
            ("B", ["B", "A", "A.initCompleted", "C", "B", "B.initCompleted", "D", "C", "C.initCompleted", "D"]),
            ("C", ["C", "B", "A", "A.initCompleted", "C", "B", "B.initCompleted", "D", "C", "C.initCompleted", "D"]),
            ("D", ["D", "C", "B", "A", "A.initCompleted", "C", "B", "B.initCompleted", "D", "C", "C.initCompleted", "D"]),
        ])
        func theMirrorImageResolvesFromEachObject(root: String, runs: [String]) throws {
            let mirror = CompletionShape.swinjectsFourObjects.mirrored
            #expect(mirror.description == "A() B(a:) C(b:) D(c:) A.c B.d C.d")
            let index = try #require(CompletionShape.names.firstIndex(of: root))
            var model = SwinjectModel(mirror, root: index)
            let resolves = model.resolvesTheRoot()
            #expect(resolves)
            #expect(model.events.map(\.description) == runs)
            for scope in [Scope.graph, .singleton, .cached, .shared] {
                #expect(Self.resolve(mirror, root: index, in: scope, swinject: model.events) == nil)
            }
        }

        @Test func aLoopOfInitializersIsThrownAtOnceWithItsChain() {
            // Swinject's case with C built around A instead of setting it later: A > B > C > A by initializers alone.
            var edges = CompletionShape.swinjectsFourObjects.edges
            edges[2 * 4 + 0] = .initializer
            let shape = CompletionShape(count: 4, edges: edges)
            var model = SwinjectModel(shape)
            let resolves = model.resolvesTheRoot()
            #expect(!resolves, "Swinject recurses until its depth limit")
            let container = Container()
            for (index, name) in CompletionShape.names.enumerated() {
                let initializers = shape.targets(of: index, by: .initializer)
                container.register(ShapeNode.self, name: name) { r in
                    ShapeNode(
                        index: index,
                        links: try Dictionary(
                            uniqueKeysWithValues: initializers.map {
                                ($0, try r.resolve(ShapeNode.self, name: CompletionShape.names[$0]))
                            }))
                }
            }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(ShapeNode.self, name: "A") }
            #expect(error?.code == .circularDependency)
            #expect(
                error?.pathDescription
                    == #"ShapeNode(name: "A") > ShapeNode(name: "B") > ShapeNode(name: "C") > ShapeNode(name: "A")"#)
        }

        /// Says what is wrong with a cycle error for `shape`, or nil: its chain must end in a loop of initializers.
        static func problemWithCycle(_ error: ResolutionError, in shape: CompletionShape) -> String? {
            guard error.code == .circularDependency else { return "threw \(error.code), not a cycle: \(error)" }
            let chain = error.path.compactMap { $0.name.flatMap(CompletionShape.names.firstIndex(of:)) }
            guard chain.count == error.path.count, let last = chain.last,
                let start = chain.dropLast().lastIndex(of: last)
            else {
                return "the chain \(error.pathDescription) does not end in a repeat"
            }
            let loop = Array(chain[start...])
            for (from, to) in zip(loop, loop.dropFirst()) where shape.edge(from, to) != .initializer {
                return "the chain \(error.pathDescription) repeats through a property, which a completion could break"
            }
            return nil
        }
    }
}

/// One object of a ``CompletionShape``: its index, and the instances it links to, by index.
// @unchecked Sendable: each instance is built and linked on the one thread that resolves its shape.
final class ShapeNode: @unchecked Sendable {
    let index: Int
    var links: [Int: ShapeNode]

    init(index: Int, links: [Int: ShapeNode]) {
        self.index = index
        self.links = links
    }
}
