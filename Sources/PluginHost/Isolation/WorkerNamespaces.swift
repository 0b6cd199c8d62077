import CWorkerSandbox
import PluginBoundary
import Synchronization
import WorkerProtocol

import Glibc

/// The namespaces this host's workers start in: every one the kernel allows.
///
/// Learned once per process, when the first worker is about to start or a
/// listing asks what a worker would get: the user and network namespaces
/// all workers share are made (`pb_spawn_prepare_shared`), and a namespace
/// the kernel refuses a worker is left out of every later start and named as
/// a missing layer, with the kernel's reason. See `worker_spawn.h` for the
/// shape of a start and why the network namespace is shared.
final class WorkerNamespaces: Sendable {
    /// The process's namespaces, made on first use.
    static let shared = WorkerNamespaces()

    /// One namespace, as a bit of `pb_spawn_namespace` and as a report names it.
    enum Kind: CaseIterable, Sendable {
        case user, pid, ipc, network, mount, uts
        /// Not a namespace, but made in the mount namespace and refused as one: its own root (``WorkerRoot``).
        case root

        var bit: UInt32 {
            switch self {
            case .user: PB_SPAWN_USER.rawValue
            case .pid: PB_SPAWN_PID.rawValue
            case .ipc: PB_SPAWN_IPC.rawValue
            case .network: PB_SPAWN_NET.rawValue
            case .mount: PB_SPAWN_MOUNT.rawValue
            case .uts: PB_SPAWN_UTS.rawValue
            case .root: PB_SPAWN_ROOT.rawValue
            }
        }

        /// "PID namespace".
        var layer: String {
            switch self {
            case .user: "user namespace"
            case .pid: "PID namespace"
            case .ipc: "IPC namespace"
            case .network: "network namespace"
            case .mount: "mount namespace"
            case .uts: "UTS namespace"
            case .root: "root of its own"
            }
        }
    }

    /// The most threads and processes one worker may have: its PID
    /// namespace's pid_max less one. 301 is the least pid_max the kernel
    /// takes. A worker runs about a dozen threads; the rest is the plugin's.
    static let maximumTasks: UInt32 = 300

    /// What a start asks for.
    struct Plan: Sendable {
        /// `pb_spawn_namespace` bits.
        var namespaces: UInt32
        var sharedUser: Int32
        var sharedNetwork: Int32
        /// What its own root holds, when it gets one.
        var root: WorkerRoot?

        /// No namespace at all: a run that turns them off.
        static let none = Plan(namespaces: 0, sharedUser: -1, sharedNetwork: -1, root: nil)

        /// A start in these namespaces, of this host's uid and gid, with the
        /// task cap; the caller fills in what to run, or leaves it a probe.
        /// Its root paths point into ``root``, which the caller keeps alive.
        var request: pb_spawn_request {
            var request = pb_spawn_request()
            request.struct_size = UInt32(MemoryLayout<pb_spawn_request>.size)
            request.namespaces = namespaces
            request.shared_user_fd = sharedUser
            request.shared_net_fd = sharedNetwork
            request.uid = getuid()
            request.gid = getgid()
            request.max_tasks = WorkerNamespaces.maximumTasks
            // A probe runs nothing; a start sets the file to run.
            request.executable_fd = -1
            if namespaces & PB_SPAWN_ROOT.rawValue != 0 { root?.fill(&request) }
            return request
        }
    }

    private let state = Mutex(State())

    private struct State {
        var prepared = false
        var sharedUser: Int32 = -1
        var sharedNetwork: Int32 = -1
        /// The namespaces still tried.
        var namespaces = PB_SPAWN_ALL_NAMESPACES
        /// Why each namespace left out was, in the order they were.
        var refused: [(Kind, String)] = []
        /// Why the task cap does not hold, once a start found out.
        var taskCap: String?
        /// What a probe's child got, once one ran.
        var probed: UInt32?
    }

    private init() {}

    /// What the next worker starts in. Makes the shared namespaces the
    /// first time, which takes about a millisecond: call it from the thread
    /// that starts workers, or one that may wait.
    /// - Parameter executable: The real path of the worker to run, whose
    ///   root (``WorkerRoot``) holds it; nil for a probe, whose root holds
    ///   the libraries only.
    func plan(executable: String? = nil) -> Plan {
        let root = WorkerRoot.forWorker(executable)
        return state.withLock { state in
            if !state.prepared {
                state.prepared = true
                var shared = pb_spawn_shared()
                shared.struct_size = UInt32(MemoryLayout<pb_spawn_shared>.size)
                pb_spawn_prepare_shared(getuid(), getgid(), &shared)
                state.sharedUser = shared.user_fd
                state.sharedNetwork = shared.net_fd
                if shared.net_fd < 0 {
                    state.namespaces &= ~Kind.network.bit
                    state.refused.append((.network, Self.refusal(shared.net_errno)))
                }
            }
            return Plan(namespaces: state.namespaces, sharedUser: state.sharedUser, sharedNetwork: state.sharedNetwork, root: root)
        }
    }

    /// Leaves out the namespaces a start failed to make, for it and every
    /// later one, and says whether there is anything left to try without them.
    /// - Returns: False when the failure was not a namespace's.
    func refuse(after result: pb_spawn_result, asked plan: Plan) -> Bool {
        let reason = Self.refusal(result.error)
        let kinds: [Kind]
        switch pb_spawn_step(result.failed_step) {
        case PB_SPAWN_STEP_JOIN_USER, PB_SPAWN_STEP_ID_MAP: kinds = [.user]
        case PB_SPAWN_STEP_JOIN_NET: kinds = [.network]
        // Its own root needs its PID and mount namespaces (its /proc is the PID namespace's).
        case PB_SPAWN_STEP_PROC: kinds = [.pid, .root]
        case PB_SPAWN_STEP_UTS: kinds = [.uts]
        case PB_SPAWN_STEP_ROOT: kinds = [.root]
        case PB_SPAWN_STEP_NAMESPACES:
            // clone does not say which flag it refused: without a user
            // namespace of its own first, then without any new one.
            kinds = plan.namespaces & Kind.user.bit != 0 ? [.user] : [.pid, .ipc, .mount, .uts, .root]
        default: return false
        }
        let asked = kinds.filter { plan.namespaces & $0.bit != 0 }
        guard !asked.isEmpty else { return false }
        state.withLock { state in
            for kind in asked where state.namespaces & kind.bit != 0 {
                state.namespaces &= ~kind.bit
                state.refused.append((kind, reason))
            }
        }
        return true
    }

    /// Records what a start found out about the task cap.
    func noteTaskCap(_ result: pb_spawn_result) {
        guard result.task_cap_errno != 0 else { return }
        state.withLock { state in
            if state.taskCap == nil {
                let error = SystemError(operation: "write pid_max", errno: result.task_cap_errno)
                state.taskCap = "the kernel cannot cap a PID namespace's tasks (pid_max: \(error.reason)); it needs Linux 6.14"
            }
        }
    }

    /// The layers a worker started with `namespaces` lacks, with why.
    func gaps(got namespaces: UInt32, skipping skipped: SandboxLayers) -> [SandboxReport.Gap] {
        if skipped.contains(.namespaces) {
            return [SandboxReport.Gap(layer: "namespaces", reason: SandboxReport.Gap.turnedOff)]
        }
        return state.withLock { state in
            var gaps = Kind.allCases.filter { namespaces & $0.bit == 0 }.map { kind in
                SandboxReport.Gap(layer: kind.layer, reason: state.refused.first { $0.0 == kind }?.1 ?? Self.refusal(0))
            }
            if namespaces & Kind.pid.bit != 0, let taskCap = state.taskCap {
                gaps.append(SandboxReport.Gap(layer: "task cap", reason: taskCap))
            }
            return gaps
        }
    }

    /// What a worker started now would lack, found by starting a child that
    /// makes the namespaces and exits (`pb_spawn_worker` with no path). Runs
    /// on the thread that starts workers; waits for it without blocking.
    func probe(skipping skipped: SandboxLayers) async -> [SandboxReport.Gap] {
        if skipped.contains(.namespaces) { return gaps(got: 0, skipping: skipped) }
        return await withCheckedContinuation { continuation in
            let refused = WorkerSpawnThread.shared.run { [self] in
                continuation.resume(returning: probeOnThisThread(skipping: skipped))
            }
            if refused != nil { continuation.resume(returning: probeOnThisThread(skipping: skipped)) }
        }
    }

    /// ``probe(skipping:)`` on the calling thread, which must not be one of
    /// the cooperative pool's: it waits about a millisecond the first time.
    func probeOnThisThread(skipping skipped: SandboxLayers) -> [SandboxReport.Gap] {
        if skipped.contains(.namespaces) { return gaps(got: 0, skipping: skipped) }
        if let probed = state.withLock({ $0.probed }) { return gaps(got: probed, skipping: skipped) }
        let got = tryNamespaces()
        state.withLock { $0.probed = got }
        return gaps(got: got, skipping: skipped)
    }

    /// Starts children that make the namespaces and exit until one works
    /// or none is left to leave out.
    /// - Returns: The namespaces the last child got.
    private func tryNamespaces() -> UInt32 {
        for _ in Kind.allCases {
            let plan = plan()
            var request = plan.request
            var result = pb_spawn_result()
            result.struct_size = UInt32(MemoryLayout<pb_spawn_result>.size)
            if pb_spawn_worker(&request, &result) == 0 {
                noteTaskCap(result)
                return result.namespaces
            }
            guard refuse(after: result, asked: plan) else { break }
        }
        return plan().namespaces
    }

    private static func refusal(_ code: Int32) -> String {
        code == 0 ? "the kernel refused it" : "the kernel refused it (\(SystemError(operation: "make the namespace", errno: code).reason))"
    }
}
