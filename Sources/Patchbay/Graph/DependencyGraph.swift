/// The services a container builds and what each one resolved, as observed by ``Container/verify()``.
///
/// Export it for a diagram: ``dot`` for Graphviz, ``mermaid`` for Markdown
/// renderers that draw Mermaid.
///
/// ```swift
/// let graph = try container.verify()
/// print(graph.mermaid)
/// // graph LR
/// //   n0["BitcoinPriceFetcher"] --> n1["Networking"]
/// ```
public struct DependencyGraph: Sendable, CustomStringConvertible {
    /// A service in the graph: a registration, or a requested service that is not registered.
    public struct Node: Hashable, Sendable, CustomStringConvertible {
        /// The service's type, name and argument types.
        public let step: ResolutionStep
        /// The registration's scope, or nil for a service that is not registered.
        public let scope: Scope?

        /// Whether something asked for this service and nothing is registered for it.
        public var isMissing: Bool { scope == nil }

        /// The label drawn for the node, such as `PriceFetcher(name: "ETH")`.
        public var description: String { step.description }

        /// A node for a drawing derived from a verified graph, such as the host's failover order.
        /// - Parameters:
        ///   - step: The service's type, name and argument types.
        ///   - scope: Its scope, or nil for a service that is not registered.
        package init(step: ResolutionStep, scope: Scope?) {
            self.step = step
            self.scope = scope
        }
    }

    /// A dependency: resolving `from` resolved `to`.
    public struct Edge: Hashable, Sendable, CustomStringConvertible {
        /// The service whose factory asked.
        public let from: ResolutionStep
        /// The service it received.
        public let to: ResolutionStep
        /// The protocol it asked for, when that was a forwarded type (`implements`) of `to`.
        public let forwardedType: Any.Type?

        /// An edge for a drawing derived from a verified graph.
        /// - Parameters:
        ///   - from: The service whose factory asked.
        ///   - to: The service it received.
        ///   - forwardedType: The protocol it asked for, when that was a forwarded type of `to`.
        package init(from: ResolutionStep, to: ResolutionStep, forwardedType: Any.Type? = nil) {
            self.from = from
            self.to = to
            self.forwardedType = forwardedType
        }

        /// The edge as `A -> B`, or `A -> B (as P)` through a forwarded type.
        public var description: String {
            "\(from) -> \(to)" + (forwardedType.map { " (as \(typeName($0)))" } ?? "")
        }

        /// Whether two edges are the same, comparing types by identity.
        ///
        /// - Parameters:
        ///   - lhs: One value.
        ///   - rhs: The other.
        /// - Returns: Whether they are equal.
        public static func == (lhs: Edge, rhs: Edge) -> Bool {
            lhs.from == rhs.from && lhs.to == rhs.to
                && lhs.forwardedType.map(ObjectIdentifier.init) == rhs.forwardedType.map(ObjectIdentifier.init)
        }

        /// Hashes the parts that `==` compares.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(from)
            hasher.combine(to)
            hasher.combine(forwardedType.map(ObjectIdentifier.init))
        }
    }

    /// Every service, sorted by label.
    public let nodes: [Node]
    /// Every dependency, sorted by the labels of its ends.
    public let edges: [Edge]

    /// Creates a graph; nodes and edges are sorted for stable output.
    ///
    /// - Parameters:
    ///   - nodes: The services.
    ///   - edges: The dependencies between them.
    public init(nodes: [Node], edges: [Edge]) {
        self.nodes = nodes.sorted { ($0.description, $0.isMissing ? 1 : 0) < ($1.description, $1.isMissing ? 1 : 0) }
        self.edges = edges.sorted { $0.description < $1.description }
    }

    /// The edges as lines of `A -> B`.
    public var description: String {
        edges.map(\.description).joined(separator: "\n")
    }

    /// The graph in Graphviz DOT: boxes labelled with the service and scope;
    /// missing services drawn dashed and red.
    ///
    /// Render it with `dot -Tsvg graph.dot -o graph.svg`.
    public var dot: String {
        let ids = identifiers
        var lines = ["digraph Patchbay {", "  rankdir=LR;", "  node [shape=box];"]
        for (index, node) in nodes.enumerated() {
            let label = dotEscaped(node.description) + "\\n" + dotEscaped(node.scope.map { "(\($0))" } ?? "(not registered)")
            let style = node.isMissing ? ", style=dashed, color=red" : ""
            lines.append("  n\(index) [label=\"\(label)\"\(style)];")
        }
        for edge in edges {
            guard let from = ids[NodeID(edge.from, missing: false)],
                let to = ids[NodeID(edge.to, missing: false)] ?? ids[NodeID(edge.to, missing: true)]
            else { continue }
            let label = edge.forwardedType.map { " [label=\"\(dotEscaped("as " + typeName($0)))\"]" } ?? ""
            lines.append("  \(from) -> \(to)\(label);")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The graph as a Mermaid flowchart; missing services get the `missing` class.
    ///
    /// Paste it into a fenced `mermaid` block in Markdown.
    public var mermaid: String {
        let ids = identifiers
        var lines = ["graph LR"]
        for (index, node) in nodes.enumerated() {
            let scope = node.scope.map { "\($0)" } ?? "not registered"
            lines.append("  n\(index)[\"\(mermaidEscaped(node.description))<br/>(\(scope))\"]")
        }
        for edge in edges {
            guard let from = ids[NodeID(edge.from, missing: false)],
                let to = ids[NodeID(edge.to, missing: false)] ?? ids[NodeID(edge.to, missing: true)]
            else { continue }
            let label = edge.forwardedType.map { "|\"as \(mermaidEscaped(typeName($0)))\"|" } ?? ""
            lines.append("  \(from) -->\(label) \(to)")
        }
        let missing = nodes.indices.filter { nodes[$0].isMissing }.map { "n\($0)" }
        if !missing.isEmpty {
            lines.append("  classDef missing stroke:#d00,stroke-dasharray:4")
            lines.append("  class \(missing.joined(separator: ",")) missing")
        }
        return lines.joined(separator: "\n")
    }

    private struct NodeID: Hashable {
        let step: ResolutionStep
        let missing: Bool
        init(_ step: ResolutionStep, missing: Bool) {
            self.step = step
            self.missing = missing
        }
    }

    private var identifiers: [NodeID: String] {
        var ids: [NodeID: String] = [:]
        for (index, node) in nodes.enumerated() {
            ids[NodeID(node.step, missing: node.isMissing)] = "n\(index)"
        }
        return ids
    }
}

/// Escapes a DOT label. Control characters and bidirectional controls come
/// out visibly escaped (``VisibleText``), so a name cannot break the
/// line-oriented output or reorder it on a terminal.
private func dotEscaped(_ string: String) -> String {
    var result = ""
    for character in VisibleText.escaped(string) {
        switch character {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        default: result.append(character)
        }
    }
    return result
}

private func mermaidEscaped(_ string: String) -> String {
    var result = ""
    for character in VisibleText.escaped(string) {
        switch character {
        case "\"": result += "#quot;"
        case "<": result += "#lt;"
        case ">": result += "#gt;"
        default: result.append(character)
        }
    }
    return result
}
