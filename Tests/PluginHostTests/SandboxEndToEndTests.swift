import Foundation
import Synchronization
import Testing

/// `--isolate` is a sandbox: from inside a worker, a plugin that opens
/// `/etc/passwd`, connects to a loopback port, forks, execs, writes a file
/// in `/tmp`, signals or traces the host, or leaves a child behind gets an
/// error and never the resource; and no worker, nor anything it started,
/// outlives the host. Every attack runs through the `host` executable, and
/// each test asserts the exact outcome.
///
/// A test that needs a kernel mechanism skips, with the reason, only when
/// the running kernel lacks it (``KernelSandbox`` asks the kernel).
@Suite("The worker sandbox, end to end", .timeLimit(.minutes(10)))
struct SandboxEndToEndTests {
    /// The attack `name` of `sandbox_attacks.c`. A worker sees none of the
    /// test's environment, so the test's values are compiled in: `parameters`
    /// become `-DSANDBOX_ATTACK_<key>=<value>`, a string quoted for C.
    static func attack(_ name: String, _ parameters: [String: String] = [:], numbers: [String: Int] = [:]) -> FixturePlugins.Fixture {
        let strings = parameters.sorted { $0.key < $1.key }.map { "-DSANDBOX_ATTACK_\($0.key)=\"\($0.value)\"" }
        let integers = numbers.sorted { $0.key < $1.key }.map { "-DSANDBOX_ATTACK_\($0.key)=\($0.value)" }
        return FixturePlugins.Fixture(
            fileName: "attack-\(name.lowercased()).so", source: "Tests/Fixtures/CPlugins/sandbox_attacks.c", defines: ["-DATTACK_\(name)"] + strings + integers)
    }

    static let openPasswd = attack("OPEN_PASSWD")
    static func connect(port: UInt16) -> FixturePlugins.Fixture { attack("CONNECT", numbers: ["PORT": Int(port)]) }
    static let fork = attack("FORK")
    static let exec = attack("EXEC")
    static func writeFile(_ path: String) -> FixturePlugins.Fixture { attack("WRITE_FILE", ["FILE": path]) }
    static let killHost = attack("KILL_HOST")
    static let ptrace = attack("PTRACE")
    static func orphan(token: String) -> FixturePlugins.Fixture { attack("ORPHAN", ["TOKEN": token]) }
    static let awaitKill = attack("AWAIT_KILL")

    static let partialWarning =
        "host: warning: isolated plugins run in a partial sandbox on this machine: no seccomp filter (turned off for this run); the other layers still apply"

    /// Runs `host fetch SYMBOL --isolate --format json` with `fixture` alone
    /// and returns the symbol's row and the run's output.
    func fetch(_ symbol: String, from fixture: FixturePlugins.Fixture, environment: [String: String] = [:]) async throws
        -> (row: [String: String], output: CommandRunner.Output)
    {
        let directory = try await FixturePlugins.directory(containing: [fixture])
        let output = try await CommandRunner.host(
            ["fetch", symbol, "--isolate", "--format", "json", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase],
            environment: environment)
        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        return (try #require(rows.first, "\(output.stderr)"), output)
    }

    // MARK: Attacks

    @Test(
        "Filesystem: /etc/passwd is not in the worker's own root, and without that root Landlock denies opening it",
        .enabled("the running kernel has no Landlock") { await KernelSandbox.has(.landlock) }
    )
    func openPasswd() async throws {
        let (row, _) = try await fetch("PASSWD", from: Self.openPasswd)
        #expect(row["error"] == "open(/etc/passwd): No such file or directory")
        // NB: without the root, Landlock alone must refuse.
        let (landlocked, output) = try await fetch("PASSWD", from: Self.openPasswd, environment: ["HOST_SANDBOX_DISABLE": "namespaces"])
        #expect(landlocked["error"] == "open(/etc/passwd): Permission denied")
        #expect(output.status == 1)
    }

    @Test(
        "Filesystem: a file cannot be created in /tmp, and none appears",
        .enabled("the running kernel has no Landlock") { await KernelSandbox.has(.landlock) }
    )
    func writeInTmp() async throws {
        let target = try TemporaryDirectory.make().appending(path: "written-by-a-plugin")
        #expect(target.path.hasPrefix("/tmp/"))

        // NB: the worker's own root has no /tmp; without it, Landlock alone must refuse.
        let (row, output) = try await fetch("WRITE", from: Self.writeFile(target.path), environment: ["HOST_SANDBOX_DISABLE": "namespaces"])

        #expect(row["error"] == "open(O_CREAT) and write: Permission denied")
        #expect(output.status == 1)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test(
        "Network: a TCP connection to a loopback port the test listens on is refused, and none arrives",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) }
    )
    func connectToLoopback() async throws {
        let listener = try LoopbackListener()
        defer { listener.close() }

        let (row, output) = try await fetch("CONNECT", from: Self.connect(port: listener.port))

        #expect(row["error"] == "socket(AF_INET, SOCK_STREAM): Operation not permitted")
        #expect(output.status == 1)
        // The host has exited, so any connection the worker made is queued by now.
        #expect(listener.pendingConnection() == false)
    }

    @Test(
        "Processes and other processes: fork, exec, a signal to the host and ptrace of the host all fail",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) },
        arguments: [
            (SandboxEndToEndTests.fork, "FORK", "fork(): Operation not permitted"),
            (SandboxEndToEndTests.exec, "EXEC", "execve(/bin/sh): Operation not permitted"),
            (SandboxEndToEndTests.killHost, "KILL", "kill(host, SIGKILL): Operation not permitted"),
            (SandboxEndToEndTests.ptrace, "PTRACE", "ptrace(PTRACE_ATTACH, host): Operation not permitted"),
        ])
    func processAttacks(fixture: FixturePlugins.Fixture, symbol: String, expected: String) async throws {
        let (row, output) = try await fetch(symbol, from: fixture)
        #expect(row["error"] == expected)
        // The host lived to report it.
        #expect(output.status == 1)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    // MARK: No orphans

    @Test(
        "A plugin cannot fork a child to outlive the host: the fork fails",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) }
    )
    func orphanCannotFork() async throws {
        let token = Self.processToken()
        let (row, output) = try await fetch("ORPHAN", from: Self.orphan(token: token))
        #expect(row["error"] == "fork(): Operation not permitted")
        #expect(output.status == 1)
        #expect(await LivingProcesses.settle { LivingProcesses.named(token).isEmpty }, LivingProcesses.settleMessage("the plugin's child did not end"))
    }

    @Test("Without the seccomp filter a plugin can fork, and the host kills its child with the worker's process group")
    func orphanDiesWithItsWorker() async throws {
        let token = Self.processToken()
        let (row, output) = try await fetch("ORPHAN", from: Self.orphan(token: token), environment: ["HOST_SANDBOX_DISABLE": "seccomp"])

        // The fork worked; the child shares the host's stderr, so the run
        // ended only once the child had exited too.
        #expect(row["amount"] == "1.00")
        #expect(output.status == 0)
        if await KernelSandbox.isFull() {
            #expect(output.stderrLines == [Self.partialWarning])
        }
        #expect(await LivingProcesses.settle { LivingProcesses.named(token).isEmpty }, LivingProcesses.settleMessage("the plugin's child did not end"))
    }

    @Test("A worker never outlives its host, even one that hides its pipe from the host: killing the host with SIGKILL takes the worker with it")
    func workerDiesWithTheHost() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.awaitKill])
        let host = Process()
        host.executableURL = CommandRunner.buildDirectory.appending(path: "host")
        host.arguments = ["fetch", "AWAIT", "--isolate", "--timeout", "30", "--plugins-dir", directory.path]
        host.environment = ["PATH": "/usr/bin:/bin"]
        host.currentDirectoryURL = try TemporaryDirectory.make()
        let errors = Pipe()
        host.standardError = errors
        host.standardOutput = FileHandle.nullDevice
        host.standardInput = FileHandle.nullDevice
        // The host logs its worker's output: its end of file is the signal that the host is gone.
        let (chunks, feed) = AsyncStream<Data>.makeStream()
        try host.run()
        let hostPID = host.processIdentifier
        DispatchQueue.global().async {
            errors.fileHandleForReading.readChunks { feed.yield(Data($0)) }
            feed.finish()
        }

        let waiting = Mutex<Int32?>(nil)
        let stderr = Mutex("")
        let seen: (pid: Int32, status: String, limits: String, namespaces: [String])?
        do {
            seen = try await Deadline.within(.seconds(120), "the end of the host's stderr") {
                var text = ""
                defer { stderr.withLock { [text] in $0 = text } }
                var seen: (pid: Int32, status: String, limits: String, namespaces: [String])?
                for await chunk in chunks {
                    text += String(decoding: chunk, as: UTF8.self)
                    // The worker prints this from inside the plugin's fetch, and the host logs it as the plugin's.
                    guard seen == nil, text.contains("] warning: worker waiting\n") else { continue }
                    // NB: the worker said so through the host, which has it as a child by then; the
                    // listing in /proc can trail that by a moment, so it is read again, a bounded number of times.
                    var found: Int32?
                    for _ in 0..<3000 {
                        found = Self.children(of: hostPID).first
                        if found != nil { break }
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    if let pid = found {
                        // Look at what the kernel holds the worker to, then kill the host.
                        waiting.withLock { $0 = pid }
                        let namespaces = ["user", "pid", "ipc", "net", "mnt"].map { Self.namespace($0, of: pid) }
                        seen = (pid, Self.procFile(pid, "status"), Self.procFile(pid, "limits"), namespaces)
                        kill(hostPID, SIGKILL)
                    }
                }
                return seen
            }
        } catch {
            // Leave nothing running: the host, and a worker that outlived it.
            kill(hostPID, SIGKILL)
            if let worker = waiting.withLock({ $0 }) { kill(worker, SIGKILL) }
            throw error
        }

        let worker = try #require(seen, "the worker never said it was waiting, or was not found as the host's child; the host said: \(stderr.withLock { $0 })")
        #expect(await LivingProcesses.settle { !LivingProcesses.isAlive(worker.pid) }, LivingProcesses.settleMessage("the worker \(worker.pid) did not end"))
        #expect(worker.status.contains("NoNewPrivs:\t1"))
        if await KernelSandbox.has(.seccomp) {
            #expect(worker.status.contains("Seccomp:\t2"))
        }
        #expect(worker.status.contains("CapEff:\t0000000000000000"))
        // Half the default memory budget of 2 GiB (MemoryBudget.perWorkerBytes).
        #expect(Self.limit("Max address space", in: worker.limits) == ["1073741824", "1073741824"])
        #expect(Self.limit("Max open files", in: worker.limits) == ["64", "64"])
        #expect(Self.limit("Max file size", in: worker.limits) == ["0", "0"])
        #expect(Self.limit("Max core file size", in: worker.limits) == ["0", "0"])
        #expect(Self.limit("Max cpu time", in: worker.limits) == ["60", "61"])
        if await KernelSandbox.has(.namespaces) {
            // PID 1 of a PID namespace of its own, in namespaces none of which is the test's.
            #expect(worker.status.contains("NSpid:\t\(worker.pid)\t1\n"), "\(worker.status)")
            let own = ["user", "pid", "ipc", "net", "mnt"].map { Self.namespace($0, of: getpid()) }
            for (mine, its) in zip(own, worker.namespaces) {
                #expect(!its.isEmpty && mine != its, "\(its) is the test's own")
            }
        }
    }

    // MARK: What list-plugins says

    @Test(
        "A Swift plugin and a C plugin load and fetch in a full sandbox, over file://, and list-plugins says so",
        .enabled("the running kernel lacks part of the sandbox") { await KernelSandbox.isFull() }
    )
    func fullSandboxListing() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let prices = try Self.priceFiles(["ETH": "2000.5", "DOGE": "0.25"])

        let fetched = try await CommandRunner.host(
            ["fetch", "ETH", "DOGE", "--isolate", "--plugins-dir", directory.path, "--api-base-url", prices.absoluteString])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stderr.isEmpty)
        #expect(fetched.stdout.contains("ETH     USD       2000.5  EthereumPlugin"))
        #expect(fetched.stdout.contains("DOGE    USD       0.25    CDogecoinPlugin"))

        let json = try await CommandRunner.host(["list-plugins", "--isolate", "--format", "json", "--plugins-dir", directory.path])
        let rows = try HostFixtures.pluginRows(json.stdout)
        for name in ["libCDogecoinPlugin.so", "libEthereumPlugin.so"] {
            #expect(rows[name]?["status"] as? String == "loaded")
            #expect(rows[name]?["sandbox"] as? String == "full")
            #expect(rows[name]?["sandboxMissing"] == nil)
        }

        let table = try await CommandRunner.host(["list-plugins", "--isolate", "--plugins-dir", directory.path])
        let lines = table.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.first == ["PLUGIN", "VERSION", "STATUS", "MODE", "VOUCHED", "SANDBOX", "CACHED", "FETCHERS", "PATH"])
        #expect(lines.contains(["CDogecoinPlugin", "0.1.0", "loaded", "isolated", "nobody", "full", "no", "DOGE", "\(directory.path)/libCDogecoinPlugin.so"]))
        #expect(lines.contains(["EthereumPlugin", "1.0.0", "loaded", "isolated", "nobody", "full", "no", "ETH", "\(directory.path)/libEthereumPlugin.so"]))
        #expect(lines.contains(["isolated,", "--isolate:", "CDogecoinPlugin,", "EthereumPlugin"]))
    }

    @Test("In-process plugins are listed with no sandbox")
    func inProcessListing() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let json = try await CommandRunner.host(["list-plugins", "--format", "json", "--no-isolate", "--plugins-dir", directory.path])
        let rows = try HostFixtures.pluginRows(json.stdout)
        #expect(rows["libCDogecoinPlugin.so"]?["mode"] as? String == "in-process")
        #expect(rows["libCDogecoinPlugin.so"]?["sandbox"] as? String == "none")
        #expect(rows["libCDogecoinPlugin.so"]?["sandboxMissing"] == nil)
    }

    @Test("A partial sandbox is one warning per run, and list-plugins names what is missing")
    func partialSandboxWarnsOnce() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let disabled = ["HOST_SANDBOX_DISABLE": "seccomp"]

        let json = try await CommandRunner.host(
            ["list-plugins", "--isolate", "--format", "json", "--plugins-dir", directory.path], environment: disabled)
        #expect(json.stderrLines == [Self.partialWarning])
        let rows = try HostFixtures.pluginRows(json.stdout)
        for name in ["libCDogecoinPlugin.so", "libEthereumPlugin.so"] {
            #expect(rows[name]?["status"] as? String == "loaded")
            #expect(rows[name]?["sandbox"] as? String == "partial")
            #expect(rows[name]?["sandboxMissing"] as? [String] == ["seccomp filter (turned off for this run)"])
        }

        let table = try await CommandRunner.host(["list-plugins", "--isolate", "--plugins-dir", directory.path], environment: disabled)
        #expect(table.stdout.contains("loaded  isolated  nobody   partial (no seccomp filter)  no      DOGE"), "\(table.stdout)")
    }

    // MARK: --require-sandbox

    @Test(
        "--require-sandbox and HOST_REQUIRE_SANDBOX=1 isolate plugins and load them when the sandbox is full",
        .enabled("the running kernel lacks part of the sandbox") { await KernelSandbox.isFull() },
        arguments: [(["--require-sandbox"], [String: String]()), ([], ["HOST_REQUIRE_SANDBOX": "1"])]
    )
    func requireSandboxLoads(flags: [String], environment: [String: String]) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let output = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", directory.path] + flags, environment: environment)
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let rows = try HostFixtures.pluginRows(output.stdout)
        #expect(rows["libCDogecoinPlugin.so"]?["status"] as? String == "loaded")
        #expect(rows["libCDogecoinPlugin.so"]?["sandbox"] as? String == "full")
    }

    @Test(
        "--require-sandbox refuses a plugin whose worker gets less than a full sandbox, in one line, before it loads",
        arguments: [(["--require-sandbox"], [String: String]()), ([], ["HOST_REQUIRE_SANDBOX": "1"])]
    )
    func requireSandboxRefuses(flags: [String], environment: [String: String]) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let plugin = "\(directory.path)/libCDogecoinPlugin.so"
        let refusal =
            "refused (sandbox): a full sandbox is required, and its worker got a partial one: no seccomp filter (turned off for this run); turn the missing layers back on, or allow a partial sandbox"

        let output = try await CommandRunner.host(
            ["fetch", "DOGE", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags,
            environment: environment.merging(["HOST_SANDBOX_DISABLE": "seccomp"]) { $1 })

        #expect(output.status == 2)
        #expect(output.stderrLines.first == "host: warning: skipping \(plugin): \(refusal)")
        #expect(output.stderrLines.count == 2, "\(output.stderr)")

        let listed = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", directory.path] + flags,
            environment: environment.merging(["HOST_SANDBOX_DISABLE": "seccomp"]) { $1 })
        let row = try #require(try HostFixtures.pluginRows(listed.stdout)["libCDogecoinPlugin.so"])
        #expect(row["status"] as? String == "failed")
        #expect(row["error"] as? String == refusal)
        #expect(row["sandbox"] as? String == "partial")
    }

    @Test("Requiring a sandbox while turning isolation off is a usage error", arguments: [
        (["--require-sandbox", "--no-isolate"], [String: String](), "--require-sandbox runs plugins in sandboxed workers, which --no-isolate turns off; drop one of the two"),
        ([], ["HOST_REQUIRE_SANDBOX": "1", "HOST_ISOLATE": "0"], "HOST_REQUIRE_SANDBOX=1 runs plugins in sandboxed workers, which HOST_ISOLATE=0 turns off; drop one of the two"),
        (["--no-isolate"], ["HOST_REQUIRE_SANDBOX": "1"], "HOST_REQUIRE_SANDBOX=1 runs plugins in sandboxed workers, which --no-isolate turns off; drop one of the two"),
    ])
    func requireSandboxWithoutIsolation(flags: [String], environment: [String: String], message: String) async throws {
        let output = try await CommandRunner.host(["list-fetchers"] + flags, environment: environment)
        #expect(output.status == 64)
        #expect(output.stderrLines.first == "host: error: \(message)")
    }

    @Test("A bad HOST_SANDBOX_DISABLE or HOST_REQUIRE_SANDBOX is one usage line", arguments: [
        (["HOST_SANDBOX_DISABLE": "selinux"], "host: error: HOST_SANDBOX_DISABLE 'selinux' names no sandbox layer; use landlock, seccomp, rlimits, namespaces or all, separated by commas, or unset it"),
        (["HOST_REQUIRE_SANDBOX": "maybe"], "host: error: HOST_REQUIRE_SANDBOX 'maybe' is not 1 or 0; set HOST_REQUIRE_SANDBOX=1 to refuse plugins without a full sandbox, or unset it"),
    ])
    func badEnvironment(environment: [String: String], message: String) async throws {
        let output = try await CommandRunner.host(["list-fetchers", "--isolate"], environment: environment)
        #expect(output.status == 64)
        #expect(output.stderrLines.first == message)
    }

    // MARK: Helpers

    /// A process name (at most 15 bytes) no other test run uses.
    static func processToken() -> String {
        "pb-" + UUID().uuidString.prefix(12).lowercased()
    }

    /// The children of every thread of `pid`, as `/proc` lists them; when no
    /// thread's `children` file names one (it is exact only while the children
    /// are stopped), every process whose parent is `pid`, from its `stat`.
    static func children(of pid: Int32) -> [Int32] {
        let listed = entries(of: "/proc/\(pid)/task").flatMap { task in
            procFile(pid, "task/\(task)/children").split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        guard listed.isEmpty else { return listed }
        return entries(of: "/proc").compactMap(Int32.init).filter { candidate in
            // "PID (NAME) STATE PPID ...": the name may hold spaces and parentheses.
            let stat = procFile(candidate, "stat")
            guard let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }

    /// A directory's entry names, read with readdir(3): FileManager's listing
    /// throws when an entry vanishes while it is read (a thread or process that
    /// ended), which on a busy machine gave no entry at all.
    static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // NB: read in place; copying `d_name` copies 256 bytes, past a short record
            // at the end of readdir's buffer (Foundation's Process.run crashes so, swift-corelibs-foundation#5472).
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self))
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The namespace `kind` (user, pid, ipc, net, mnt) of `pid`, e.g. "pid:[4026531836]"; empty when unreadable.
    static func namespace(_ kind: String, of pid: Int32) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/\(kind)")) ?? ""
    }

    static func procFile(_ pid: Int32, _ name: String) -> String {
        (try? String(contentsOfFile: "/proc/\(pid)/\(name)", encoding: .utf8)) ?? ""
    }

    /// The soft and hard values of one row of `/proc/PID/limits`.
    static func limit(_ name: String, in limits: String) -> [String] {
        guard let line = limits.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return [] }
        return line.dropFirst(name.count).split(separator: " ").prefix(2).map(String.init)
    }

    /// A `file://` API base with a spot price for each symbol, in USD.
    static func priceFiles(_ amounts: [String: String]) throws -> URL {
        let root = try TemporaryDirectory.make()
        for (symbol, amount) in amounts {
            let directory = root.appending(path: "v2/prices/\(symbol)-USD")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(#"{"data":{"base":"\#(symbol)","currency":"USD","amount":"\#(amount)"}}"#.utf8)
                .write(to: directory.appending(path: "spot.json"))
        }
        return root
    }
}

/// Which sandbox mechanisms the running kernel has, asked of the kernel
/// itself (`Tests/Fixtures/CPlugins/kernel_probe.c`, loaded with dlopen),
/// never of the host under test: a host that wrongly reported a mechanism
/// missing must fail these tests, not skip them.
enum KernelSandbox {
    enum Mechanism {
        /// Landlock filesystem rules (ABI 1).
        case landlock
        /// seccomp-bpf filters, on an architecture the host has a filter for.
        case seccomp
        /// A child in new user, PID, IPC, network and mount namespaces, with a /proc of its own.
        case namespaces
        /// pid_max per PID namespace (Linux 6.14): the task cap.
        case taskCap
        /// Landlock's scopes (ABI 6, Linux 6.12): signals and abstract sockets stay in the domain.
        case landlockScopes
    }

    private static let probe = FixturePlugins.Fixture(fileName: "kernel-probe.so", source: "Tests/Fixtures/CPlugins/kernel_probe.c")

    /// The probe, loaded once per test run; nil when it cannot be built.
    private static let library = Task<Library?, Never> {
        guard let url = try? await FixturePlugins.library(probe), let handle = dlopen(url.path, RTLD_NOW) else { return nil }
        return Library(handle: handle)
    }

    /// A dlopen handle, never closed.
    struct Library: @unchecked Sendable {
        // @unchecked: the handle is only passed to dlsym, which is thread-safe.
        let handle: UnsafeMutableRawPointer

        func function<Function>(_ name: String, as type: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
    }

    typealias Probe = @convention(c) () -> Int32

    /// The kernel's Landlock ABI, whether it has seccomp filters, and what
    /// namespaces a child gets, asked once per test run; every mechanism when
    /// the probe cannot be built, so the tests run and fail rather than skip.
    private static let answers = Task<(landlockABI: Int32, seccomp: Bool, namespaces: Int32), Never> {
        guard let library = await library.value, let landlock = library.function("kernel_probe_landlock_abi", as: Probe.self),
            let seccomp = library.function("kernel_probe_seccomp_filters", as: Probe.self),
            let namespaces = library.function("kernel_probe_namespaces", as: Probe.self)
        else { return (7, true, 3) }
        // It forks and waits: not on a thread of the cooperative pool.
        let made = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: namespaces()) }
        }
        return (landlock(), seccomp() == 1, made)
    }

    /// Opens a pseudo-terminal that is not the test's controlling terminal.
    /// - Returns: Its leader and follower descriptors.
    static func openTerminal() async throws -> (leader: Int32, follower: Int32) {
        typealias Open = @convention(c) (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Int32
        guard let open = await library.value?.function("kernel_probe_open_terminal", as: Open.self) else { throw ProbeMissing() }
        var leader: Int32 = -1
        var follower: Int32 = -1
        guard open(&leader, &follower) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (leader, follower)
    }

    /// Whether the POSIX message queue `name` exists in the test's IPC namespace.
    static func messageQueueExists(_ name: String) async throws -> Bool {
        typealias Exists = @convention(c) (UnsafePointer<CChar>) -> Int32
        guard let exists = await library.value?.function("kernel_probe_mq_exists", as: Exists.self) else { throw ProbeMissing() }
        return exists(name) == 1
    }

    struct ProbeMissing: Error {}

    /// Whether the kernel has `mechanism`.
    static func has(_ mechanism: Mechanism) async -> Bool {
        let answers = await answers.value
        return switch mechanism {
        case .landlock: answers.landlockABI >= 1
        case .seccomp: answers.seccomp
        case .namespaces: answers.namespaces & 1 != 0
        case .taskCap: answers.namespaces & 2 != 0
        case .landlockScopes: answers.landlockABI >= 6
        }
    }

    /// Whether the kernel has every layer of the sandbox: Landlock ABI 6
    /// (files, network, scopes), seccomp filters, the namespaces and the task cap.
    static func isFull() async -> Bool {
        let answers = await answers.value
        return answers.landlockABI >= 6 && answers.seccomp && answers.namespaces == 3
    }
}

/// A TCP socket listening on 127.0.0.1, which never accepts: a connection
/// made to it waits in its queue, where ``pendingConnection()`` finds it.
struct LoopbackListener {
    let descriptor: Int32
    let port: UInt16

    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 8) == 0 else {
            let code = errno
            Glibc.close(listener)
            throw Failure(call: "bind or listen", code: code)
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        descriptor = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Whether a connection is waiting to be accepted; never blocks.
    func pendingConnection() -> Bool {
        let accepted = accept(descriptor, nil, nil)
        if accepted >= 0 { Glibc.close(accepted) }
        return accepted >= 0
    }

    func close() {
        Glibc.close(descriptor)
    }
}

/// The processes that are running, as `/proc` shows them.
enum LivingProcesses {
    /// How long ``settle(within:_:)`` waits by default.
    static let defaultSettle: Duration = .seconds(30)

    /// Why `what` failing to settle is a defect: the wait was far above its idle time.
    static func settleMessage(_ what: String, within limit: Duration = defaultSettle) -> Comment {
        Comment(rawValue: "\(what) within \(limit), at least 10 times the slowest idle run: a process outlived what should have ended it")
    }

    /// Whether `condition` holds within `limit`, looking every 10 ms.
    ///
    /// The default, 30 s, is at least 10 times the slowest idle run: a
    /// killed process is reaped in milliseconds; ``settleMessage`` says so
    /// when it fails.
    ///
    /// NB: a clock, because a process that is not the test's child cannot be
    /// awaited from Swift (glibc's `pidfd_open` is not imported), and the
    /// signal the tests do await, the end of a pipe the process held, comes
    /// a moment early: the kernel closes a dying process's descriptors before
    /// it becomes a zombie.
    static func settle(within limit: Duration = defaultSettle, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// The pids of living (not zombie) processes whose name is `name`.
    static func named(_ name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            SandboxEndToEndTests.procFile(pid, "comm") == name + "\n" && isAlive(pid)
        }
    }

    /// Whether `pid` is a process that has not exited; a zombie has.
    static func isAlive(_ pid: Int32) -> Bool {
        let stat = SandboxEndToEndTests.procFile(pid, "stat")
        // "PID (NAME) STATE ...": the name may hold spaces and parentheses, the state follows the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != nil && state != "Z" && state != "X"
    }
}
