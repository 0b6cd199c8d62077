import Synchronization

/// Collects the registrations and the dependencies between them that ``Container/verify()`` observes.
@usableFromInline
final class GraphRecorder: Sendable {
    private struct State {
        var nodes: [RegistrationKey: DependencyGraph.Node] = [:]
        var edges: [EdgeKey: DependencyGraph.Edge] = [:]
    }

    private struct EdgeKey: Hashable {
        let from: RegistrationKey
        let to: RegistrationKey
        let via: ObjectIdentifier?
    }

    private let state = Mutex<State>(State())

    func addNode(_ registration: Registration) {
        state.withLock { state in
            if state.nodes[registration.key] == nil {
                state.nodes[registration.key] = DependencyGraph.Node(
                    step: registration.step, scope: registration.scope)
            }
        }
    }

    func record(from: Registration?, to: Registration, via forwardedType: Any.Type?) {
        addNode(to)
        guard let from else { return }
        addNode(from)
        state.withLock { state in
            let key = EdgeKey(from: from.key, to: to.key, via: forwardedType.map(ObjectIdentifier.init))
            state.edges[key] = DependencyGraph.Edge(
                from: from.step, to: to.step, forwardedType: forwardedType)
        }
    }

    func recordMissing(from: Registration?, requested: ResolutionStep) {
        let key = RegistrationKey(
            service: ObjectIdentifier(requested.serviceType),
            arguments: ObjectIdentifier(MissingNode.self), name: requested.description)
        state.withLock { state in
            if state.nodes[key] == nil {
                state.nodes[key] = DependencyGraph.Node(step: requested, scope: nil)
            }
            guard let from else { return }
            if state.nodes[from.key] == nil {
                state.nodes[from.key] = DependencyGraph.Node(step: from.step, scope: from.scope)
            }
            state.edges[EdgeKey(from: from.key, to: key, via: nil)] = DependencyGraph.Edge(
                from: from.step, to: requested, forwardedType: nil)
        }
    }

    var graph: DependencyGraph {
        state.withLock { state in
            DependencyGraph(nodes: Array(state.nodes.values), edges: Array(state.edges.values))
        }
    }
}

/// Distinguishes a missing service's node key from any registration's.
private enum MissingNode {}
