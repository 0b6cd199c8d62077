import Foundation
import Testing

/// System V and POSIX IPC: the filter refuses every call, and without it the
/// worker's own IPC namespace holds nothing of anyone else's and keeps
/// nothing after the worker.
extension SandboxEndToEndTests {
    @Test("A shared-memory segment the test made is neither found nor attached", arguments: [
        ([String: String](), "shmget(the test's key): Operation not permitted; shmat(the test's id): Operation not permitted"),
        (["HOST_SANDBOX_DISABLE": "seccomp"], "shmget(the test's key): No such file or directory; shmat(the test's id): Invalid argument"),
    ])
    func sharedMemoryOfOthers(environment: [String: String], expected: String) async throws {
        let key = key_t.random(in: 0x5000_0000...0x5FFF_FFFF)
        let id = shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0o600)
        try #require(id >= 0, "shmget: \(String(cString: strerror(errno)))")
        defer { shmctl(id, IPC_RMID, nil) }

        let fixture = Self.attack("SHM", numbers: ["SHM_KEY": Int(key), "SHM_ID": Int(id)])
        let (rows, output) = try await fetchByDefault(["SHM"], from: [fixture], environment: environment)

        #expect(rows["SHM"]?["error"] == expected)
        #expect(output.status == 1)
        var facts = shmid_ds()
        #expect(shmctl(id, IPC_STAT, &facts) == 0 && facts.shm_nattch == 0, "someone attached the test's segment")
    }

    @Test("A message queue and a POSIX queue are refused, and without the filter leave nothing behind", arguments: [
        ([String: String](), "msgget(IPC_PRIVATE): Operation not permitted", "mq_open: Operation not permitted"),
        (["HOST_SANDBOX_DISABLE": "seccomp,landlock"], "msgget(IPC_PRIVATE): succeeded", "mq_open: succeeded"),
    ])
    func queuesLeaveNothing(environment: [String: String], msgget: String, mqOpen: String) async throws {
        let token = Self.processToken()
        let before = Self.systemVQueues()

        let (rows, output) = try await fetchByDefault(
            ["MSG", "MQ"], from: [Self.attack("MSGGET"), Self.attack("MQ_OPEN", ["TOKEN": token])], environment: environment)

        #expect(rows["MSG"]?["error"] == msgget)
        #expect(rows["MQ"]?["error"] == mqOpen)
        #expect(output.status == 1)
        // The host has exited: what its workers made went with their IPC namespaces.
        #expect(Self.systemVQueues() == before)
        #expect(try await KernelSandbox.messageQueueExists("/" + token) == false, "the worker's POSIX queue is in the test's namespace")
    }

    /// The System V message queues of this IPC namespace, as `ipcs -q` lists them.
    static func systemVQueues() -> [String] {
        let table = (try? String(contentsOfFile: "/proc/sysvipc/msg", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
    }
}
