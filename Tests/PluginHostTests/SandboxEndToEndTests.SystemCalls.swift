import Foundation
import Testing

/// The filter is an allow list: a system call on no list fails with EPERM,
/// and `-v` and `host inspect` name the first one a plugin was refused.
extension SandboxEndToEndTests {
    // NB: <sys/syscall.h>'s numbers are not visible to Swift.
    #if arch(x86_64)
    static let personalityNumber = 135
    static let kcmpNumber = 312
    #else
    static let personalityNumber = 92
    static let kcmpNumber = 272
    #endif

    @Test(
        "Calls a worker never needs are refused with EPERM: inotify on the test's directory, pidfd_open and pidfd_getfd of the parent, renaming itself sshd, taking SIGSYS over, SIGIO to another process",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) }
    )
    func callsOnNoList() async throws {
        let watched = try TemporaryDirectory.make()
        let fixtures = [
            Self.attack("INOTIFY", ["DIR": watched.path]), Self.attack("PIDFD"), Self.attack("RENAME"), Self.attack("SIGSYS"), Self.attack("SETOWN"),
        ]

        let (rows, output) = try await fetchByDefault(["WATCH", "PIDFD", "RENAME", "SIGSYS", "SETOWN"], from: fixtures)

        #expect(rows["WATCH"]?["error"] == "inotify_init1: Operation not permitted")
        #expect(rows["PIDFD"]?["error"] == "pidfd_open(the parent): Operation not permitted")
        #expect(rows["RENAME"]?["error"] == "prctl(PR_SET_NAME, sshd): Operation not permitted")
        // The handler that names refused calls stays the sandbox's.
        #expect(rows["SIGSYS"]?["error"] == "sigaction(SIGSYS): Operation not permitted")
        #expect(rows["SETOWN"]?["error"] == "fcntl(0, F_SETOWN, parent): Operation not permitted")
        #expect(output.status == 1)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    @Test(
        "A call on no list is refused and named: -v logs the first one each plugin was refused, by name and number",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) },
        arguments: [
            ("PERSONALITY", "PERS", "personality(0xffffffff)", "personality", Self.personalityNumber),
            ("KCMP", "KCMP", "kcmp(self, parent, KCMP_FILE)", "kcmp", Self.kcmpNumber),
        ])
    func refusedCallIsNamed(attack: String, symbol: String, call: String, name: String, number: Int) async throws {
        let (rows, output) = try await fetchByDefault([symbol], from: [Self.attack(attack)], arguments: ["-v"])

        #expect(rows[symbol]?["error"] == "\(call): Operation not permitted")
        #expect(output.status == 1)
        let file = "attack-\(attack.lowercased()).so"
        let named = output.stderrLines.filter { $0.contains("refused the system call") }
        #expect(named == [
            "host: debug: plugin \(file): its sandbox refused the system call \(name) (number \(number)), which failed with EPERM; it is not on the list a worker may make"
        ], "\(output.stderr)")
    }

    @Test(
        "host inspect names the first system call the plugin's sandbox refused while it loaded",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) }
    )
    func inspectNamesTheRefusedCall() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.attack("PERSONALITY")])
        let file = directory.appending(path: "attack-personality.so").path

        let table = try await CommandRunner.host(["inspect", file])
        let json = try await CommandRunner.host(["inspect", file, "--format", "json"])

        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("\n  Refused call  personality (number \(Self.personalityNumber)), the first system call its sandbox refused (it failed with EPERM)\n"), "\(table.stdout)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["refusedSystemCall"] as? String == "personality")
    }

    @Test("A plugin that only computes and calls http_get is refused nothing: the bundled plugins and a C plugin name no refused call")
    func ordinaryPluginsAreRefusedNothing() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum", "Bitcoin"])
        let prices = try Self.priceFiles(["ETH": "2000.5", "BTC": "90000", "DOGE": "0.25"])

        let output = try await CommandRunner.host(
            ["fetch", "ETH", "BTC", "DOGE", "--isolate", "-v", "--plugins-dir", directory.path, "--api-base-url", prices.absoluteString])

        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("refused the system call"), "\(output.stderr)")
        let full = await KernelSandbox.isFull()
        for name in ["libCDogecoinPlugin.so", "libEthereumPlugin.so", "libBitcoinPlugin.so"] {
            let inspected = try await CommandRunner.host(["inspect", directory.appending(path: name).path, "--format", "json"])
            let object = try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any]
            #expect(object?["working"] as? Bool == true, "\(inspected.stderr)")
            if full { #expect(object?["sandbox"] as? String == "full") }
            #expect(object?["refusedSystemCall"] == nil)
        }
    }
}
