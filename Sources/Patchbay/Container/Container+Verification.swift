extension Container {
    /// Resolves every registration that takes no arguments, and reports every failure at once.
    ///
    /// Verification runs in throwaway copies of this container and its
    /// parents, with fresh instance storage: no singleton or cached instance
    /// of the real containers is made or changed. Factories do run, so keep
    /// them free of side effects that matter, and have them resolve through
    /// the resolver they receive, not a container they captured. A
    /// registration with arguments cannot be called without its arguments; it
    /// is checked when another factory resolves it with arguments.
    ///
    /// ```swift
    /// @Test func containerIsComplete() throws {
    ///     try AppContainer.make().verify()
    /// }
    /// ```
    ///
    /// - Returns: The dependency graph observed.
    /// - Throws: ``VerificationError`` listing each registration that failed, and the graph.
    @discardableResult
    public func verify() throws(VerificationError) -> DependencyGraph {
        let recorder = GraphRecorder()
        let probe = copyForVerification(recorder: recorder)
        let roots = probe.effectiveRegistrations(includingParents: true).filter(\.argumentTypes.isEmpty)
        var failures: [VerificationError.Failure] = []
        for registration in roots {
            recorder.addNode(registration)
            do {
                guard let found = probe.locate(registration.key) else { continue }
                try probe.withScratch(for: registration.witness) { scratch throws(ResolutionError) in
                    if let failure = probe.produce(found, arguments: probe.noArgumentTuple, into: scratch) {
                        throw failure
                    }
                    registration.witness.destroy(scratch)
                }
            } catch {
                failures.append(.init(registration: RegistrationInfo(registration), error: error))
            }
        }
        // NB: keep the copies alive until every resolve above has finished with them.
        withExtendedLifetime(probe) {}
        guard failures.isEmpty else {
            throw VerificationError(failures: failures, checkedCount: roots.count, graph: recorder.graph)
        }
        return recorder.graph
    }

    /// Resolves every registration that takes no arguments, and returns the dependencies observed, failures included.
    ///
    /// - Returns: The graph from ``verify()``, with services that are not
    ///   registered as missing nodes.
    public func dependencyGraph() -> DependencyGraph {
        do {
            return try verify()
        } catch {
            return error.graph
        }
    }

    private func copyForVerification(recorder: GraphRecorder) -> Container {
        let parentCopy = parent?.copyForVerification(recorder: recorder)
        return Container(copying: self, parent: parentCopy, recorder: recorder)
    }
}
