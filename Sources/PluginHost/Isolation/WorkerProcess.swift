import CWorkerSandbox
import FoundationEssentials
import PluginBoundary
import WorkerProtocol

import Glibc

/// A plugin worker: `patchbay-worker`, started as ``WorkerStartup`` says,
/// inheriting nothing it was not given.
///
/// Started by `pb_spawn_worker` (`worker_spawn.h`), not `posix_spawn`, which
/// cannot make namespaces. Its descriptors, set up before it runs any code,
/// are those of ``WorkerStartup``, with 1 and 2 one pipe the host reads
/// (``WorkerOutput``): each line becomes a log line of the plugin. Every
/// other descriptor of the host is closed in it.
///
/// Its environment is ``WorkerEnvironment``'s allow list, never the host's.
/// It is in a session of its own, with no controlling terminal, and in
/// namespaces of its own where the kernel allows (``WorkerNamespaces``): a
/// user namespace, a PID namespace in which it is PID 1 with a /proc of its
/// own and at most ``WorkerNamespaces/maximumTasks`` tasks, an IPC and a
/// mount namespace, and the host's one empty network namespace.
///
/// No worker outlives the host, and nothing a worker starts outlives the
/// worker: the kernel kills the worker when the host's spawn thread ends
/// (`PR_SET_PDEATHSIG`, set before it runs any code of its own), kills
/// everything in a PID namespace when its first process ends, and the host
/// kills the worker's process group (its session's) whenever it stops or
/// reaps it. Under the full sandbox a worker cannot start a process at all.
struct WorkerProcess: Sendable {
    /// The worker's process id, in the host's PID namespace.
    let pid: pid_t
    /// The host's ends of the two frame pipes.
    let toWorker: Int32
    let fromWorker: Int32
    /// The host's end of the pipe that is the worker's stdout and stderr.
    let output: Int32
    /// The layers the host could not give it: namespaces the kernel refused.
    let missing: [SandboxReport.Gap]
    /// Whether it is its PID namespace's first process, which ends by a
    /// signal it raises through its exit status (`pb_sandbox_exit_signal`).
    let isNamespaceInit: Bool

    static let framesIn = WorkerStartup.framesIn
    static let framesOut = WorkerStartup.framesOut
    static let pluginFile = WorkerStartup.pluginFile

    /// How a worker ended.
    enum Exit: Sendable, Equatable {
        case exited(Int32)
        case signal(Int32)
    }

    /// Starts a worker, from ``WorkerSpawnThread``.
    /// - Parameters:
    ///   - executable: The worker executable (``WorkerExecutable``), run by its descriptor.
    ///   - plugin: The plugin file's descriptor, which becomes the worker's fd 5;
    ///     it must stay open until this returns.
    ///   - skipped: The sandbox layers this run turns off.
    /// - Throws: ``WorkerError`` with the reason when a pipe or the start fails.
    static func spawn(
        executable: WorkerFile, plugin: Int32, skipping skipped: SandboxLayers = [], addressSpace: UInt64? = nil
    ) async throws(WorkerError) -> WorkerProcess {
        let environment = WorkerEnvironment.make(from: ProcessInfo.processInfo.environment, skipping: skipped, addressSpace: addressSpace)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<WorkerProcess, WorkerError>, Never>) in
            // One thread runs every start: it is the parent whose death kills
            // the worker, and it never ends; and no other start of ours runs
            // between creating these descriptors and marking them close-on-exec.
            let refused = WorkerSpawnThread.shared.run {
                continuation.resume(returning: Result { () throws(WorkerError) in
                    try spawnOnThisThread(executable: executable, environment: environment, plugin: plugin, skipping: skipped)
                })
            }
            if let refused { continuation.resume(returning: .failure(WorkerError(.loading, .spawnFailed(refused)))) }
        }
        return try result.get()
    }

    /// A pipe whose ends are close-on-exec (glibc's pipe2 is not visible to
    /// Swift; the spawn thread stands in for O_CLOEXEC's atomicity, since
    /// only it starts processes).
    private static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    private static func spawnOnThisThread(
        executable file: WorkerFile, environment: [String], plugin: Int32, skipping skipped: SandboxLayers
    ) throws(WorkerError) -> WorkerProcess {
        // Its real path: the worker's root holds its directory (``WorkerRoot``).
        let executable = file.path
        func failure(_ operation: String) -> WorkerError {
            WorkerError(.loading, .spawnFailed(SystemError(operation: operation, errno: errno)))
        }
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        let nullDevice = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard nullDevice >= 0 else { throw failure("open /dev/null") }
        opened.append(nullDevice)
        guard let down = pipe() else { throw failure("make a pipe") }
        opened += [down.read, down.write]
        guard let up = pipe() else { throw failure("make a pipe") }
        opened += [up.read, up.write]
        guard let output = pipe() else { throw failure("make a pipe") }
        opened += [output.read, output.write]

        // Indexed by the worker's descriptor number (WorkerStartup).
        let descriptors: [Int32] = [nullDevice, output.write, output.write, down.read, up.write, plugin]
        // No arguments: nothing secret ever goes on a command line.
        let argv = [strdup(executable), nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var result = pb_spawn_result()
        // A start the kernel refuses a namespace for is tried again without
        // it, and so is every later one; there are five to leave out.
        for _ in 0...WorkerNamespaces.Kind.allCases.count {
            let plan = skipped.contains(.namespaces) ? .none : WorkerNamespaces.shared.plan(executable: executable)
            var request = plan.request
            result = pb_spawn_result()
            result.struct_size = UInt32(MemoryLayout<pb_spawn_result>.size)
            let started = executable.withCString { path in
                descriptors.withUnsafeBufferPointer { descriptors in
                    request.path = path
                    // The file checked, whatever is at its path by now.
                    request.executable_fd = file.descriptor
                    request.descriptors = descriptors.baseAddress
                    request.descriptor_count = UInt32(descriptors.count)
                    return argv.withUnsafeBufferPointer { argv in
                        envp.withUnsafeBufferPointer { envp in
                            request.argv = argv.baseAddress
                            request.envp = envp.baseAddress
                            return withExtendedLifetime((plan, file)) { pb_spawn_worker(&request, &result) == 0 }
                        }
                    }
                }
            }
            if started {
                WorkerNamespaces.shared.noteTaskCap(result)
                // The worker's ends stay the worker's; the host keeps its own.
                opened = [nullDevice, down.read, up.write, output.write]
                return WorkerProcess(
                    pid: result.pid, toWorker: down.write, fromWorker: up.read, output: output.read,
                    missing: WorkerNamespaces.shared.gaps(got: result.namespaces, skipping: skipped),
                    isNamespaceInit: result.namespaces & PB_SPAWN_PID.rawValue != 0)
            }
            guard WorkerNamespaces.shared.refuse(after: result, asked: plan) else { break }
        }
        let operation = result.failed_step == PB_SPAWN_STEP_EXEC.rawValue ? "run \(executable)" : "start a worker"
        throw WorkerError(.loading, .spawnFailed(SystemError(operation: operation, errno: result.error)))
    }

    /// Sends SIGKILL to the worker and its process group. Harmless when the
    /// worker already exited but was not yet reaped.
    func kill() {
        _ = Glibc.kill(-pid, SIGKILL)
        // In case it left the group, where no seccomp filter stopped it.
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the worker to end and reaps it, without blocking a thread:
    /// the pipe loop watches its pidfd (``WorkerExitWatch``), or, on a kernel
    /// without pidfds, it polls `waitpid(WNOHANG)` with growing pauses. A
    /// worker still alive after `limit` is killed.
    /// - Returns: How it ended.
    func exit(within limit: Duration = .seconds(5)) async -> Exit {
        if let watch = WorkerExitWatch(pid: pid) {
            let stopper = Task {
                try await Task.sleep(for: limit)
                kill()
            }
            await watch.ended()
            stopper.cancel()
            // Ended, and not reaped yet, so its pid, which is also its
            // group's id, cannot have been reused: kill what it started.
            _ = Glibc.kill(-pid, SIGKILL)
            var status: Int32 = 0
            // Returns at once: the worker has ended.
            reap(&status)
            return decode(status)
        }
        let start = ContinuousClock.now
        var pause = Duration.milliseconds(1)
        var killed = false
        while true {
            var info = siginfo_t()
            let polled = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if polled == 0 && info.si_signo == SIGCHLD {
                // Ended, and not reaped yet, so its pid, which is also its
                // group's id, cannot have been reused: kill what it started.
                _ = Glibc.kill(-pid, SIGKILL)
                var status: Int32 = 0
                // Returns at once: the worker has ended.
                reap(&status)
                return decode(status)
            }
            if polled < 0 && errno != EINTR {
                // Reaped elsewhere or never ours; nothing more to learn.
                return .exited(-1)
            }
            if !killed && ContinuousClock.now - start > limit {
                kill()
                killed = true
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Reaps the ended worker, noting its peak resident memory for the run's budget report.
    private func reap(_ status: inout Int32) {
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        WorkerSlots.notePeakResident(kibibytes: Int(usage.ru_maxrss))
    }

    /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, which Swift cannot import as macros.
    /// A namespace's first process ends by a signal it raised through its
    /// exit status, which this reads back as the signal.
    func decode(_ status: Int32) -> Exit {
        let signal = status & 0x7F
        guard signal == 0 else { return .signal(signal) }
        let code = (status >> 8) & 0xFF
        if isNamespaceInit, case let raised = pb_sandbox_exit_signal(code), raised != 0 { return .signal(raised) }
        return .exited(code)
    }
}
