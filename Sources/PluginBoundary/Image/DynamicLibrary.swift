import Glibc

/// A shared library opened for the life of the process.
///
/// There is deliberately no `close`: Swift images cannot be unloaded safely
/// (their type metadata and conformances stay registered with the runtime),
/// so plugins are opened with `RTLD_NODELETE` and never `dlclose`d.
package struct DynamicLibrary: @unchecked Sendable {
    // @unchecked: the handle is an opaque token that dlsym accepts from any
    // thread, and it is never closed, so it cannot dangle.
    private let handle: UnsafeMutableRawPointer

    /// Opens `path` with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`.
    ///
    /// `RTLD_NOW` surfaces missing symbols here rather than as a crash at the
    /// first call; `RTLD_LOCAL` keeps one plugin's symbols from resolving
    /// another's.
    ///
    /// A library it needs that the loader cannot find is taken from the
    /// running Swift runtime's directory (``SwiftRuntime``), where an
    /// installed host keeps the toolchain's runtime set: a Swift plugin built
    /// with the host's toolchain loads alike in the host and in a worker.
    /// - Throws: ``PluginImageError/missingLibrary(name:runtimeDirectory:)``
    ///   when a library it needs is neither there nor where the loader
    ///   looks; else ``PluginImageError/notALibrary(reason:)`` with `dlerror()`'s reason.
    package static func open(_ path: String) throws(PluginImageError) -> DynamicLibrary {
        var budget = SwiftRuntime.openingBudget
        while true {
            _ = dlerror()
            if let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) { return DynamicLibrary(handle: handle) }
            let reason = lastError(trimming: path)
            guard let missing = SwiftRuntime.missingLibrary(in: reason) else { throw .notALibrary(reason: reason) }
            guard SwiftRuntime.open(missing, budget: &budget) else {
                throw .missingLibrary(name: missing, runtimeDirectory: SwiftRuntime.directory ?? "")
            }
        }
    }

    /// The address of `name` in this library, or nil when it is not exported.
    package func symbol(named name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }

    /// `dlerror()` repeats the path; the caller already names the file.
    private static func lastError(trimming path: String) -> String {
        guard let message = dlerror().map({ String(cString: $0) }) else { return "unknown dlopen error" }
        let prefix = path + ": "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }
}
