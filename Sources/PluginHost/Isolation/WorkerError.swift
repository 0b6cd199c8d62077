import HostShared
import PluginBoundary

import Glibc

/// How a plugin's worker process failed: it could not start, crashed,
/// exited, hung, or broke the frame protocol.
struct WorkerError: Error, Sendable, Equatable {
    /// What the worker was doing.
    enum Phase: Sendable, Equatable {
        case loading
        case fetching
    }

    enum Cause: Sendable, Equatable {
        /// Killed by a signal it did not handle, e.g. SIGSEGV.
        case signal(Int32)
        /// Called `exit` (or returned from `main`) with this status.
        case exited(Int32)
        /// Did not answer within the limit and was killed.
        case hung(after: Duration)
        /// Sent something that is not a frame of the protocol.
        case protocolViolation(String)
        /// Could not be started at all.
        case spawnFailed(SystemError)
        /// There is no worker executable in any place the host looks.
        case missingExecutable(searched: [String])
        /// The worker executable, or a directory on its way, breaks a trust
        /// rule: others could replace it, so it is not run.
        case untrustedExecutable(TrustViolation)
    }

    let phase: Phase
    let cause: Cause
    /// The plugin's name when known, e.g. "EthereumPlugin"; nil while loading.
    var plugin: String?

    init(_ phase: Phase, _ cause: Cause, plugin: String? = nil) {
        self.phase = phase
        self.cause = cause
        self.plugin = plugin
    }

    /// Set once the run has said that the worker executable is missing or refused.
    static let noWorkerReported = OnceFlag()

    /// Whether the worker never ran: no plugin code did, and nothing about the
    /// plugin was learned, so a scan does not remember it.
    var neverStarted: Bool {
        switch cause {
        case .missingExecutable, .untrustedExecutable, .spawnFailed: true
        case .signal, .exited, .hung, .protocolViolation: false
        }
    }

    /// Whether the failure is the same for every plugin of the run (there
    /// is no worker it may run), so one line says it, not one per plugin.
    var isRunWide: Bool {
        switch cause {
        case .missingExecutable, .untrustedExecutable: true
        case .signal, .exited, .hung, .protocolViolation, .spawnFailed: false
        }
    }

    /// While loading: "the plugin crashed with SIGSEGV (segmentation fault)
    /// while loading; …". While fetching, the plugin's name leads.
    /// - Parameter names: What the program calls the settings that fix it, e.g. `--load-timeout`.
    func message(naming names: SettingNames) -> String {
        let who = plugin ?? "the plugin"
        let doing = phase == .loading ? "loading" : "fetching"
        let fix = "remove it from the plugins directory or ask its author for a fix"
        switch cause {
        case .signal(let signal):
            return "\(who) crashed with \(Self.name(ofSignal: signal)) while \(doing), in its isolated worker; \(fix)"
        case .exited(let status):
            return "\(who) exited with status \(status) while \(doing), in its isolated worker; \(fix)"
        case .hung(let after) where phase == .loading:
            return "\(who) did not finish loading within \(after.humanReadable), so its isolated worker was stopped; raise \(names.loadTimeout) if it is only slow, or \(fix)"
        case .hung(let after):
            return "\(who) did not answer within \(after.humanReadable), so its isolated worker was stopped; raise \(names.fetchTimeout) if it is only slow, or \(fix)"
        case .protocolViolation(let detail):
            return "\(who)'s isolated worker broke the frame protocol while \(doing) (\(detail)); \(fix)"
        case .missingExecutable(let searched):
            return "cannot run plugins in sandboxed workers: there is no executable \(searched.joined(separator: " or ")); \(InstalledLayout.running.restoreAdvice("it"))"
        case .untrustedExecutable(let violation):
            return "cannot run plugins in sandboxed workers: \(violation)"
        case .spawnFailed(let error):
            return "cannot start an isolated worker for \(who): \(error.sentence); \(names.loadInProcess), or check that the host executable is readable"
        }
    }

    /// "SIGSEGV (segmentation fault)" for the signals a crash raises.
    static func name(ofSignal signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
            SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS", SIGPIPE: "SIGPIPE",
            SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGHUP: "SIGHUP", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
            SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2", SIGALRM: "SIGALRM",
        ]
        let name = names[signal] ?? "signal \(signal)"
        guard let text = strsignal(signal) else { return name }
        return "\(name) (\(String(cString: text).lowercased()))"
    }
}
