import WorkerProtocol

/// A worker's environment: built from an allow list, never copied from the host's.
///
/// The host's environment holds what a plugin must not see: tokens,
/// `AWS_*`, a proxy URL with its password. A worker gets the locale and the
/// time zone, so that text and dates read as the user's; the library path,
/// without which it may not find a library where the host found it (its
/// directories that pass the trust rules only, ``WorkerLibraryPath``);
/// and what the worker itself needs, which the host writes.
enum WorkerEnvironment {
    /// The host's variables a worker may see, when the host has them.
    static let passed = [
        "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES", "TZ",
        "LD_LIBRARY_PATH",
    ]

    /// The worker's environment, as `NAME=value` strings.
    /// - Parameters:
    ///   - host: The host's environment.
    ///   - skipped: The sandbox layers this run turns off.
    ///   - addressSpace: The worker's RLIMIT_AS in bytes, from the memory budget; nil for the worker's default.
    static func make(from host: [String: String], skipping skipped: SandboxLayers, addressSpace: UInt64? = nil) -> [String] {
        var environment = passed.compactMap { name in host[name].map { "\(name)=\($0)" } }
        // The library path's directories the worker's root holds, and no other (``WorkerLibraryPath``).
        if let index = environment.firstIndex(where: { $0.hasPrefix("LD_LIBRARY_PATH=") }) {
            environment[index] = "LD_LIBRARY_PATH=" + WorkerLibraryPath.ofHost(host).joined(separator: ":")
        }
        // The Swift runtime's crash backtracer would take seconds to
        // symbolicate a plugin's crash; the host reports it in one line.
        // Naming its (unused) path skips the runtime's search for it at
        // start, a `dladdr` over libswiftCore's symbols: 2% of a worker's start.
        environment.append("SWIFT_BACKTRACE=enable=no,swift-backtrace=")
        // libdispatch reports a failed setpriority through syslog(3), which
        // opens a socket the filter refuses; there is nobody to read it.
        environment.append("LIBDISPATCH_LOG=NO")
        // Written from the layers the host validated: a worker reads only names it knows.
        if !skipped.isEmpty { environment.append("\(WorkerStartup.skippedLayersVariable)=\(skipped.names)") }
        if let addressSpace { environment.append("\(WorkerStartup.addressSpaceVariable)=\(addressSpace)") }
        return environment
    }
}
