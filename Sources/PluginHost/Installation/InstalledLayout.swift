import Glibc
import WorkerProtocol

/// Where the host's pieces are, relative to the running `host`: the one
/// type every lookup of the bundled plugins, the HTTP library, the worker
/// executable and the plugin header asks.
///
/// Two layouts exist, and each piece is looked for beside `host` first,
/// then under `../lib/patchbay/`:
///
/// - a build directory (`.build/debug`, `.build/release`), where `swift build`
///   puts everything beside `host`;
/// - an installed copy (`scripts/install.sh --prefix PREFIX`):
///
///   ```
///   PREFIX/bin/host
///   PREFIX/lib/patchbay/libHostHTTP.so, patchbay-worker, the Swift runtime libraries
///   PREFIX/lib/patchbay/plugins/lib*Plugin.so
///   PREFIX/include/patchbay/patchbay_plugin.h
///   PREFIX/share/patchbay/CPlugin/coinbase_plugin.c
///   ```
///
/// The layout also says how the host was started, so that advice names the
/// fix that works: `swift build` in a checkout, the installer for an
/// installed copy.
package struct InstalledLayout: Sendable, Equatable {
    /// How the running host came to be where it is.
    package enum Kind: Sendable, Equatable {
        /// A build directory inside a Patchbay checkout.
        case checkout(String)
        /// An installed copy under a prefix, e.g. `~/.local`.
        case installed(prefix: String)
        /// A `host` somewhere else, copied by hand.
        case elsewhere
    }

    /// The directory of the `host` executable, symlinks resolved.
    package let executableDirectory: String
    /// How the host was started.
    package let kind: Kind

    /// The layout around an executable in `directory`.
    /// - Parameter directory: Where `host` is, symlinks resolved.
    package init(executableDirectory directory: String) {
        self.executableDirectory = directory
        let parent = FilePaths.directory(of: directory)
        if Self.isDirectory(FilePaths.join(parent, "lib/patchbay")), FilePaths.name(of: directory) == "bin" {
            kind = .installed(prefix: parent)
        } else if let checkout = Self.checkout(containing: directory) {
            kind = .checkout(checkout)
        } else {
            kind = .elsewhere
        }
    }

    /// The layout around the running executable.
    package static let running = InstalledLayout(executableDirectory: FilePaths.directory(of: FilePaths.resolved("/proc/self/exe")))

    /// The name of the plugin header.
    package static let pluginHeaderName = "patchbay_plugin.h"

    /// `PREFIX/lib/patchbay`, where an installed host keeps what it loads.
    private var libraryDirectory: String {
        FilePaths.join(FilePaths.directory(of: executableDirectory), "lib/patchbay")
    }

    /// The file `name` beside `host`, else under `../lib/patchbay/`; when
    /// neither exists, the path beside `host`, for messages to name.
    /// - Parameter name: A file name, e.g. `libHostHTTP.so`.
    package func piece(_ name: String) -> String {
        let places = places(of: name)
        return places.first { access($0, F_OK) == 0 } ?? places[0]
    }

    /// Where the file `name` is looked for, in order: beside `host`, then
    /// under `../lib/patchbay/`.
    package func places(of name: String) -> [String] {
        [FilePaths.join(executableDirectory, name), FilePaths.join(libraryDirectory, name)]
    }

    /// The directory of the plugins bundled with the host: beside it in a
    /// build directory, `PREFIX/lib/patchbay/plugins` in an installed copy.
    package var bundledPluginsDirectory: String {
        if case .installed = kind { return FilePaths.join(libraryDirectory, "plugins") }
        return executableDirectory
    }

    /// The HTTP client library, `libHostHTTP.so`.
    package var httpLibrary: String { piece("libHostHTTP.so") }

    /// The worker executable, `patchbay-worker`.
    package var workerExecutable: String { piece(WorkerStartup.executableName) }

    /// The plugin header, `patchbay_plugin.h`: the checkout's, or the
    /// installed copy's under `PREFIX/include/patchbay`; nil when neither exists.
    package var pluginHeader: String? {
        source(inCheckout: "Sources/PluginABI/include/\(Self.pluginHeaderName)", installed: "include/patchbay/\(Self.pluginHeaderName)")
    }

    /// The example C plugin `host new-plugin --language c` starts from: the
    /// checkout's, or the installed copy's under `PREFIX/share/patchbay`;
    /// nil when neither exists.
    package var cPluginExample: String? {
        source(inCheckout: "Examples/CPlugin/coinbase_plugin.c", installed: "share/patchbay/CPlugin/coinbase_plugin.c")
    }

    /// A file shipped for plugin authors, at `inCheckout` in a checkout or
    /// `installed` under the prefix, when it can be read.
    private func source(inCheckout: String, installed: String) -> String? {
        let candidate: String
        switch kind {
        case .checkout(let checkout): candidate = FilePaths.join(checkout, inCheckout)
        case .installed(let prefix): candidate = FilePaths.join(prefix, installed)
        case .elsewhere: return nil
        }
        return access(candidate, R_OK) == 0 ? candidate : nil
    }

    /// The checkout this host was built in, if it runs from one.
    package var checkout: String? {
        if case .checkout(let checkout) = kind { checkout } else { nil }
    }

    /// How to put back a piece the host shipped with, such as the HTTP
    /// library or the bundled plugins, fitted to how the host was started:
    /// "run `swift build` in /src/patchbay to restore it".
    /// - Parameter piece: What to restore, as the sentence names it: "it", "the bundled plugins".
    package func restoreAdvice(_ piece: String) -> String {
        switch kind {
        case .checkout(let checkout):
            "run `swift build` in \(checkout) to restore \(piece)"
        case .installed(let prefix):
            "run `scripts/install.sh --prefix \(prefix)` in a Patchbay checkout to restore \(piece)"
        case .elsewhere:
            "this host is neither in a checkout's build folder nor installed, so \(piece) is not where it looks: run the host from its build folder, or install it with `scripts/install.sh`"
        }
    }

    /// Whether `path` is a Patchbay checkout: a package with the plugin header.
    package static func isCheckout(_ path: String) -> Bool {
        access(FilePaths.join(path, "Package.swift"), F_OK) == 0
            && access(FilePaths.join(path, "Sources/PluginABI/include/\(pluginHeaderName)"), F_OK) == 0
    }

    /// The checkout whose `.build` holds `directory`, within four levels
    /// (`.build/x86_64-unknown-linux-gnu/debug` is three).
    private static func checkout(containing directory: String) -> String? {
        var candidate = directory
        for _ in 0..<4 {
            candidate = FilePaths.directory(of: candidate)
            if candidate == "/" { return nil }
            if isCheckout(candidate) { return candidate }
        }
        return nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
