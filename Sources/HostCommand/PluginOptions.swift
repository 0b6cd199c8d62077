import ArgumentParser
import Foundation
import Logging
import PluginHost

/// The options every subcommand takes: where plugins are and what they talk to.
struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugins-dir"),
        help: ArgumentHelp("A directory to load plugins from; repeat for more. Overrides HOST_PLUGINS_DIR.", valueName: "dir")
    )
    var pluginsDirectories: [String] = []

    @Option(
        name: .customLong("api-base-url"),
        help: ArgumentHelp(
            "Base URL of the Coinbase-compatible API: http, https or file. Overrides HOST_API_BASE_URL. (default: \(Self.defaultAPIBaseURL))",
            valueName: "url"
        )
    )
    var apiBaseURL: String?

    @Flag(name: .shortAndLong, help: "Log what the host and its plugins do, to stderr.")
    var verbose = false

    static let defaultAPIBaseURL = "https://api.coinbase.com"

    /// The API base from the flag, the environment, or the default.
    func resolvedAPIBaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let (text, source) =
            if let apiBaseURL { (apiBaseURL, "--api-base-url") }
            else if let value = environment["HOST_API_BASE_URL"], !value.isEmpty { (value, "HOST_API_BASE_URL") }
            else { (Self.defaultAPIBaseURL, "the default") }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme),
            scheme == "file" || url.host() != nil
        else {
            throw ValidationError(
                "\(source) '\(text)' is not an http, https or file URL; use e.g. https://api.coinbase.com or file://$PWD/Fixtures/coinbase"
            )
        }
        return url
    }

    /// Wires the production host and loads its plugins.
    func loadPlugins() throws -> LoadedPlugins {
        let apiBaseURL = try resolvedAPIBaseURL()
        LoggingSystem.bootstrap { label in
            var handler = StderrLogHandler(label: label)
            handler.logLevel = verbose ? .debug : .warning
            return handler
        }
        let discovery = PluginDiscovery(
            flags: pluginsDirectories,
            environment: ProcessInfo.processInfo.environment["HOST_PLUGINS_DIR"],
            executableDirectory: Self.executableDirectory,
            workingDirectory: FileManager.default.currentDirectoryPath
        )
        return Host.live(discovery: discovery, apiBaseURL: apiBaseURL, logger: Logger(label: "host")).loadPlugins()
    }

    /// The directory of the running binary, where `swift build` puts the bundled plugins.
    static var executableDirectory: String {
        let executable = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().path
    }
}

extension OutputFormat: ExpressibleByArgument {}
