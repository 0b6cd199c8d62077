import CWorkerSandbox
import Glibc
import Testing

/// The namespaces every worker shares (`pb_spawn_prepare_shared`): a user
/// namespace of their own, not the host's, which owns their empty network
/// namespace. Made inside its own user namespace, the network namespace
/// needs no privilege in the host's, so a host an ordinary user runs gets
/// one too; made in the host's, only root's would, and every other user's
/// workers would reach the network. (The test runs as whoever runs the
/// suite; root gets the fallback too, so only the owner tells them apart.)
@Suite("The namespaces workers share")
struct SharedNamespacesTests {
    /// `NS_GET_USERNS` of `<linux/nsfs.h>`, `_IO(0xb7, 0x1)`: the user namespace that owns a namespace.
    static let owningUserNamespace: UInt = 0xb701

    /// The namespace's inode, which names it.
    static func inode(_ descriptor: Int32) -> ino_t? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status.st_ino : nil
    }

    @Test(
        "Workers share a user namespace other than the host's, and it owns their network namespace",
        .enabled("the running kernel lets a child make user, PID and mount namespaces") { await KernelSandbox.has(.namespaces) }
    )
    func userNamespaceOfTheirOwn() throws {
        var shared = pb_spawn_shared()
        shared.struct_size = UInt32(MemoryLayout<pb_spawn_shared>.size)
        pb_spawn_prepare_shared(getuid(), getgid(), &shared)
        defer {
            if shared.user_fd >= 0 { close(shared.user_fd) }
            if shared.net_fd >= 0 { close(shared.net_fd) }
        }
        #expect(shared.user_errno == 0, "no user namespace for the workers: \(String(cString: strerror(shared.user_errno)))")
        let user = try #require(shared.user_fd >= 0 ? shared.user_fd : nil, "no user namespace for the workers")
        let network = try #require(shared.net_fd >= 0 ? shared.net_fd : nil, "no network namespace for the workers")

        let host = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC)
        defer { if host >= 0 { close(host) } }
        #expect(host >= 0)
        #expect(Self.inode(user) != nil && Self.inode(user) != Self.inode(host), "the workers' user namespace is the host's")

        let owner = ioctl(network, Self.owningUserNamespace)
        defer { if owner >= 0 { close(owner) } }
        #expect(owner >= 0, "NS_GET_USERNS: \(String(cString: strerror(errno)))")
        #expect(Self.inode(owner) == Self.inode(user), "the workers' network namespace is owned by another user namespace than theirs")
    }
}
