/// What identifies the running host build: its executable's identity. A
/// rebuilt host may read plugins differently, so it scans them again.
enum HostIdentity {
    /// `dev:inode:size:mtime` of `/proc/self/exe`, read once per process.
    static let current: String = {
        guard let identity = try? FileIdentity.of(path: "/proc/self/exe") else { return "unknown" }
        return "\(identity.device):\(identity.inode):\(identity.size):\(identity.modifiedNanoseconds)"
    }()
}
