/// Layers of the worker sandbox that can be turned off, to measure what each
/// costs or to see how the host behaves on a kernel that lacks one.
///
/// A worker with a layer turned off reports it as missing, exactly as if the
/// kernel lacked it, so a run that requires a full sandbox refuses it.
///
/// ```swift
/// let skipped = try SandboxLayers(naming: "seccomp,rlimits")
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
    /// Every layer.
    package static let all: SandboxLayers = [.landlock, .seccomp, .rlimits]

    /// A name that is none of `landlock`, `seccomp`, `rlimits` or `all`.
    package struct UnknownName: Error, Sendable, Equatable, CustomStringConvertible {
        /// The name as given.
        package let name: String
        /// The name `name`, which names no layer.
        package init(name: String) { self.name = name }
        package var description: String {
            "'\(name)' names no sandbox layer; use landlock, seccomp, rlimits or all, separated by commas"
        }
    }

    /// The layers' names, comma-separated, as ``init(naming:)`` reads them: "landlock,seccomp".
    package var names: String {
        [(SandboxLayers.landlock, "landlock"), (.seccomp, "seccomp"), (.rlimits, "rlimits")].filter { contains($0.0) }.map(\.1).joined(separator: ",")
    }

    /// Parses a comma-separated list such as `landlock,seccomp`; an empty string is no layer.
    /// - Throws: ``UnknownName`` for a name that is not a layer.
    package init(naming list: String) throws(UnknownName) {
        var layers: SandboxLayers = []
        for name in list.split(separator: ",").map({ $0.filter { !$0.isWhitespace }.lowercased() }) where !name.isEmpty {
            switch name {
            case "landlock": layers.insert(.landlock)
            case "seccomp": layers.insert(.seccomp)
            case "rlimits": layers.insert(.rlimits)
            case "all": layers.formUnion(.all)
            default: throw UnknownName(name: name)
            }
        }
        self = layers
    }
}
