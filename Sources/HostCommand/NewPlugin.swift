import ArgumentParser
import FoundationEssentials
import PluginHost

/// `host new-plugin NAME`: writes a plugin project that builds and fetches as is.
struct NewPlugin: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a ready-to-build plugin project in Swift or C.",
        discussion: """
            The project has one fetcher that asks the Coinbase-compatible API for SYMBOL's spot price through the host's \
            http_get. Its README says how to build it, drop the .so into ./plugins and fetch. \
            Both are made from a Patchbay checkout: the one this host was built in, or the one --sdk-path names. \
            The Swift package depends on that checkout's PluginSDK; the C project copies its patchbay_plugin.h and example plugin. \
            Exit status: \(ExitCode.success.rawValue) when the project was written; \(ExitCode.failure.rawValue) when it could not be; \
            \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    enum Language: String, ExpressibleByArgument, CaseIterable {
        case swift
        case c
    }

    @Argument(help: ArgumentHelp("The plugin's name, e.g. Dogecoin; \"Plugin\" is appended unless it ends with it.", valueName: "name"))
    var name: String

    @Option(help: "The language: swift or c.")
    var language: Language

    @Option(help: ArgumentHelp("The fetcher's symbol, 1 to 16 of A-Z and 0-9. (default: the name, upper-cased)", valueName: "symbol"))
    var symbol: String?

    @Option(help: ArgumentHelp("The folder to create; it must not exist or be empty. (default: ./NAME)", valueName: "dir"))
    var output: String?

    @Option(
        name: .customLong("sdk-path"),
        help: ArgumentHelp("A Patchbay checkout to build against. (default: the one this host was built in, if any)", valueName: "dir"))
    var sdkPath: String?

    /// "Dogecoin" and "DogecoinPlugin" both give "DogecoinPlugin".
    var pluginName: String { name.hasSuffix("Plugin") ? name : name + "Plugin" }

    /// The name without "Plugin", for the display name and the default symbol.
    var baseName: String { String(pluginName.dropLast("Plugin".count)) }

    var resolvedSymbol: String { symbol ?? String(baseName.uppercased().prefix(16)) }

    func validate() throws {
        guard let first = name.first, first.isASCII, first.isLetter, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            !baseName.isEmpty, pluginName.count <= 64
        else {
            throw ValidationError("'\(TerminalText.escaped(name))' is not a plugin name; use ASCII letters and digits, starting with a letter, e.g. Dogecoin")
        }
        let symbol = resolvedSymbol
        guard (1...16).contains(symbol.count), symbol.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw ValidationError("--symbol '\(TerminalText.escaped(symbol))' is not 1 to 16 of A-Z and 0-9; use e.g. --symbol DOGE")
        }
    }

    func run() throws {
        let folder = output ?? baseName
        let checkout = try checkoutDirectory()
        let template = PluginTemplate(pluginName: pluginName, symbol: resolvedSymbol, displayName: baseName, checkout: checkout)
        let files: [(path: String, text: String)]
        switch language {
        case .swift:
            // Until Patchbay is published there is no URL to depend on: only a checkout.
            guard let checkout else {
                throw failure(
                    "a Swift plugin depends on a Patchbay checkout until the package is published, and this host was not built in one; pass --sdk-path DIR"
                )
            }
            files = template.swiftFiles(checkout: checkout)
        case .c:
            // A checkout's (named or the build's), else an installed copy's header and example.
            let layout = InstalledLayout.running
            guard let header = checkout.map({ "\($0)/Sources/PluginABI/include/\(InstalledLayout.pluginHeaderName)" }) ?? layout.pluginHeader,
                let example = checkout.map({ "\($0)/Examples/CPlugin/coinbase_plugin.c" }) ?? layout.cPluginExample
            else {
                throw failure(
                    "a C plugin is made from patchbay_plugin.h and Examples/CPlugin of a Patchbay checkout, or their installed copies, and this host was not built in one; pass --sdk-path DIR"
                )
            }
            files = template.cFiles(example: try read(example), header: try read(header))
        }
        try write(files, into: folder)
        let shownFolder = TerminalText.escaped(folder)
        print("wrote \(language == .swift ? "a Swift package" : "a C project") for \(pluginName) (fetcher \(resolvedSymbol)) in \(shownFolder):")
        for file in files { print("  \(file.path)") }
        print("next: cd \(shownFolder) && see README.md to build it and run `host fetch \(resolvedSymbol) --plugins-dir plugins`")
    }

    /// `--sdk-path`, checked; else the checkout whose `.build` holds this executable.
    private func checkoutDirectory() throws -> String? {
        if let sdkPath {
            let absolute = sdkPath.hasPrefix("/") ? sdkPath : HostEnvironment.current.workingDirectory + "/" + sdkPath
            guard InstalledLayout.isCheckout(absolute) else {
                throw ValidationError("--sdk-path \(TerminalText.escaped(sdkPath)) is not a Patchbay checkout (no Sources/PluginABI/include/patchbay_plugin.h in it); name the folder you cloned")
            }
            return URL(filePath: absolute).standardized.path
        }
        return InstalledLayout.running.checkout
    }

    private func read(_ path: String) throws -> String {
        do {
            return try String(contentsOf: URL(filePath: path), encoding: .utf8)
        } catch {
            throw failure("cannot read \(path) (\(error)); pass --sdk-path DIR naming a complete Patchbay checkout")
        }
    }

    private func write(_ files: [(path: String, text: String)], into folder: String) throws {
        let manager = FileManager.default
        if let existing = try? manager.contentsOfDirectory(atPath: folder), !existing.isEmpty {
            throw failure("\(folder) already exists and is not empty; pass --output DIR naming a new folder")
        }
        do {
            for file in files {
                let url = URL(filePath: folder).appending(path: file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
            }
        } catch {
            throw failure("cannot write into \(folder) (\(error)); check that you may write there, or pass --output DIR")
        }
    }

    /// One error line, escaped (it may name a folder the user typed), then the failure status.
    private func failure(_ message: String) -> ExitCode {
        StandardError.write("host: error: \(TerminalText.escaped(message))\n")
        return ExitCode.failure
    }
}
