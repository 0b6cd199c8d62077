import PluginBoundary
import WorkerProtocol

import Glibc

/// `patchbay-worker`: serves one plugin for its host, in a sandbox.
///
/// The host starts one worker per plugin file it runs out of process, with
/// the descriptors, environment and conversation of ``WorkerStartup``.
/// Before anything else, still on its main thread and alone, the worker
/// confines itself (``SandboxConfinement``); its first frame tells the host
/// what sandbox it got. (The host tied its life to the host's before it ran:
/// `worker_spawn.h`.) Then ``HostLink`` serves the host until it closes the pipe.
@main
enum WorkerMain {
    static func main() {
        guard isPipe(WorkerStartup.framesIn), isPipe(WorkerStartup.framesOut) else {
            complain("it is started by the host, one per sandboxed plugin, with its pipes on fds 3 and 4; it is not meant to be run by hand")
            exit(WorkerStartup.ExitStatus.notStartedByHost)
        }
        // The host checked the names before it started the worker; anything
        // unreadable is no reason to confine less.
        let skipped = getenv(WorkerStartup.skippedLayersVariable).flatMap { try? SandboxLayers(naming: String(cString: $0)) } ?? []
        // The host's share of its memory budget; a value it did not write is no reason to allow more.
        let addressSpace = getenv(WorkerStartup.addressSpaceVariable).flatMap { UInt64(String(cString: $0)) }
            .map { min($0, SandboxConfinement.addressSpaceBytes) } ?? SandboxConfinement.addressSpaceBytes
        let sandbox = SandboxConfinement.confine(pluginFile: WorkerStartup.pluginFile, skipping: skipped, addressSpace: addressSpace)
        // The plugin may start processes where no seccomp filter stops it;
        // they must not keep the host's pipes open.
        for descriptor in [WorkerStartup.framesIn, WorkerStartup.framesOut, WorkerStartup.pluginFile] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        // A worker should die with its host, not outlive a broken pipe.
        _ = signal(SIGPIPE, SIG_DFL)
        let link = HostLink()
        PendingFetches.shared.reportStrays { stray in
            link.log(stray.isWarning ? .warning : .debug, stray.description, threshold: .debug)
        }
        // First, before the plugin is even loaded, so that it cannot be
        // forged: the host takes no second one.
        link.send(.sandboxed(sandbox))
        link.serve()
    }

    /// Writes one line to standard error: `patchbay-worker: error: …`.
    static func complain(_ problem: String) {
        var line = "\(WorkerStartup.executableName): error: \(problem)\n"
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = write(STDERR_FILENO, base + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    private static func isPipe(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }
}
