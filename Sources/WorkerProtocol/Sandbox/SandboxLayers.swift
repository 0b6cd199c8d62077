/// Layers of the worker sandbox that can be turned off, to measure what each
/// costs or to see how the host behaves on a kernel that lacks one.
///
/// A worker with a layer turned off reports it as missing, exactly as if the
/// kernel lacked it, so a run that requires a full sandbox refuses it.
///
/// ```swift
/// let skipped = try SandboxLayers(naming: "seccomp,rlimits")
/// skipped.names   // "seccomp,rlimits"
/// ```
package struct SandboxLayers: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8

    /// Creates a set from its raw bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Landlock: files, network and scopes.
    package static let landlock = SandboxLayers(rawValue: 1 << 0)
    /// The seccomp-bpf filter.
    package static let seccomp = SandboxLayers(rawValue: 1 << 1)
    /// The resource limits.
    package static let rlimits = SandboxLayers(rawValue: 1 << 2)
    /// The namespaces a worker starts in, and the task cap that comes with its PID namespace.
    package static let namespaces = SandboxLayers(rawValue: 1 << 3)
    /// Every layer.
    package static let all: SandboxLayers = [.landlock, .seccomp, .rlimits, .namespaces]

    /// Each layer with its name, in the order names are written.
    private static let named: [(SandboxLayers, String)] = [(.landlock, "landlock"), (.seccomp, "seccomp"), (.rlimits, "rlimits"), (.namespaces, "namespaces")]

    /// The layers as ``init(naming:)`` reads them, e.g. "seccomp,rlimits"; empty for none.
    package var names: String {
        Self.named.filter { contains($0.0) }.map(\.1).joined(separator: ",")
    }

    /// A name that is none of `landlock`, `seccomp`, `rlimits`, `namespaces` or `all`.
    package struct NameError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The name as given.
        package let name: String
        /// The name `name`, which names no layer.
        package init(name: String) { self.name = name }
        package var description: String {
            "'\(name)' names no sandbox layer; use landlock, seccomp, rlimits, namespaces or all, separated by commas"
        }
    }

    /// Parses a comma-separated list such as `landlock,seccomp`; an empty string is no layer.
    /// - Throws: ``NameError`` for a name that is not a layer.
    package init(naming list: String) throws(NameError) {
        var layers: SandboxLayers = []
        for name in list.split(separator: ",").map({ $0.filter { !$0.isWhitespace }.lowercased() }) where !name.isEmpty {
            if name == "all" {
                layers.formUnion(.all)
            } else if let layer = Self.named.first(where: { $0.1 == name })?.0 {
                layers.insert(layer)
            } else {
                throw NameError(name: name)
            }
        }
        self = layers
    }
}
