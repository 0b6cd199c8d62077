import Glibc
import PluginABI
import PluginBoundary
import WorkerProtocol

/// Why a plugin file was not loaded.
///
/// Every description is one line that names what was found, what the host
/// expected, and what to do about it.
package struct PluginLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case notALibrary(reason: String)
        /// A system call on the file, or on its `directory`, failed.
        case unreadable(SystemError, directory: String? = nil)
        /// No thread could be started to load it on.
        case notStarted(SystemError)
        /// Its descriptor was missing or wrong, as the host's loader or a worker's found.
        case descriptor(PluginImageError)
        case registrationFailed(status: Int32, lastError: String?)
        case nothingRegistered(refused: [String])
        case untrusted(TrustViolation)
        case lockFile(LockFileError)
        case notLocked(lock: String, role: LockFileError.Role)
        case digestMismatch(actual: String, expected: String, lock: String, role: LockFileError.Role)
        /// The user vouched for another digest of this file in their trust store.
        case trustedDigestMismatch(actual: String, trusted: String, store: String)
        case isolated(WorkerError)
        /// A full sandbox is required, and the worker got less.
        case sandboxRequired(SandboxReport)
        /// Its scan failed, as the scan cache remembers until the file changes.
        case failedScan(String)
        /// The file changed between the listing that named it and its load.
        case changedSinceListed
        /// Nobody vouched for it, and it declares the name of the plugin at
        /// `holder`, which `voucher` vouched for (``NameClaims``).
        case nameTaken(holder: String, voucher: Placement.Voucher)
    }

    let kind: Kind
    /// The plugin's name, when its descriptor was read before the failure.
    var name: String?
    /// The plugin's version, when its descriptor was read before the failure.
    var version: String?
    /// What the descriptor said beyond name and version, when it was read.
    var metadata: PluginMetadata?

    init(_ kind: Kind) { self.kind = kind }

    /// This failure, with what the plugin's descriptor said before it happened.
    func describing(name: String?, version: String?, metadata: PluginMetadata?) -> PluginLoadError {
        var described = self
        (described.name, described.version, described.metadata) = (name, version, metadata)
        return described
    }

    /// What the host's loader, or a worker's, found wrong with the file or its descriptor.
    init(image: PluginImageError) {
        if case .notALibrary(let reason) = image {
            kind = .notALibrary(reason: reason)
        } else {
            kind = .descriptor(image)
        }
    }

    /// Why the file is no loadable library, when that is the failure:
    /// "cannot open it: Permission denied", "it is not an ELF file".
    var libraryProblem: String? {
        switch kind {
        case .notALibrary(let reason): reason
        case .unreadable(let error, nil): error.description
        case .unreadable(let error, let directory?): error.sentence(about: "its directory \(directory)")
        case .notStarted(let error): error.sentence
        default: nil
        }
    }

    /// Whether a trust check refused the file before any of its code ran
    /// (ownership, permissions, symlink target or lock file).
    package var isTrustRefusal: Bool {
        switch kind {
        case .untrusted, .lockFile, .notLocked, .digestMismatch, .trustedDigestMismatch: true
        default: false
        }
    }

    /// One line: what is wrong with the file and how to fix it, in neutral
    /// words; ``message(naming:)`` names the program's settings.
    package var description: String {
        message(naming: SettingNames())
    }

    /// One line: what is wrong with the file and how to fix it, naming the
    /// settings as the program calls them.
    package func message(naming names: SettingNames) -> String {
        switch kind {
        case .unreadable(let error, nil) where error.code == ENOENT:
            "there is no such file: check the path"
        case .notALibrary, .unreadable, .notStarted:
            Self.message(for: .notALibrary(reason: libraryProblem ?? ""))
        case .descriptor(.missingLibrary(let library, let directory)):
            Self.missingLibrary(library, runtimeDirectory: directory, toolchain: names.swiftToolchain)
        case .descriptor(let problem):
            Self.message(for: problem)
        case .registrationFailed(let status, let lastError):
            "registration failed with status \(status)" + (lastError.map { ": \($0)" } ?? "; the plugin logged no reason")
        case .nothingRegistered(let refused) where !refused.isEmpty:
            "the host refused every fetcher it registered: \(refused.joined(separator: "; ")); fix the pb_fetcher it passes to register_fetcher"
        case .nothingRegistered:
            "it registered no fetchers; call services->register_fetcher from register_plugin"
        case .untrusted(let violation):
            violation.description
        case .lockFile(let error):
            error.message(naming: names)
        case .notLocked(let lock, .allowlist):
            "refused (lock file): it is not listed in \(lock); check the file, then run \(names.lockPlugins) with the same flags to add it"
        case .notLocked(let lock, _):
            "refused (lock file): it is not listed in \(lock), which pins every plugin beside it; check the file, then add the line `sha256sum` prints for it to \(lock)"
        case .digestMismatch(let actual, let expected, let lock, .allowlist):
            "refused (lock file): its SHA-256 is \(actual), but \(lock) expects \(expected); the file changed after it was locked: if you changed it, check it and run \(names.lockPlugins) with the same flags"
        case .digestMismatch(let actual, let expected, let lock, _):
            "refused (lock file): its SHA-256 is \(actual), but \(lock) expects \(expected); the file changed after it was pinned: if you changed it, check it and put the line `sha256sum` prints for it in \(lock)"
        case .trustedDigestMismatch(let actual, let trusted, let store):
            "refused (trust store): its SHA-256 is \(actual), but you vouched for \(trusted) in \(store); the file changed after you trusted it: if you changed it, check it and vouch for it again with \(names.trust), or take the vouch back with \(names.untrust) to run it sandboxed"
        case .isolated(let failure):
            failure.message(naming: names)
        case .sandboxRequired(let sandbox):
            "refused (sandbox): \(sandbox.refusal)"
        case .failedScan(let description):
            description
        case .changedSinceListed:
            "the file changed after this run listed it; run the command again to scan it anew"
        case .nameTaken(let holder, let voucher):
            "refused (name): it calls itself \(name ?? "by that name"), the name of \(holder) (\(voucher.name)); nobody vouched for it, so it may not take a vouched plugin's name: rename the plugin, or vouch for this file with \(names.trust)"
        }
    }
}

extension PluginLoadError {
    /// A library the plugin needs that neither the system's loader nor the
    /// host's Swift runtime has: a plugin built with another toolchain, or
    /// linking a library nobody installed. Removing the plugin is no fix.
    private static func missingLibrary(_ library: String, runtimeDirectory: String, toolchain: String) -> String {
        let runtime = runtimeDirectory.isEmpty ? "this host's Swift runtime" : "this host's Swift runtime (\(runtimeDirectory))"
        return "it needs \(library), which neither \(runtime) nor the system's libraries have: "
            + "rebuild the plugin with \(toolchain), or install \(library) where the system's loader finds it (a directory `ldconfig` knows)"
    }

    /// What is wrong with a descriptor, and the fix.
    private static func message(for problem: PluginImageError) -> String {
        switch problem {
        case .notALibrary(let reason):
            "not a loadable plugin library: \(reason); remove it from the plugins directory or rebuild it"
        case .missingEntryPoint:
            "not a Patchbay plugin: it does not export \(PB_PLUGIN_ENTRY_SYMBOL)(); build it against patchbay_plugin.h and export that function"
        case .nullDescriptor:
            "\(PB_PLUGIN_ENTRY_SYMBOL)() returned NULL instead of a descriptor; return a pointer to a static pb_plugin_descriptor"
        case .badMagic(let found):
            "descriptor magic is \(hex(found)), expected \(hex(PB_PLUGIN_MAGIC)) (\"PBAY\"); the file exports \(PB_PLUGIN_ENTRY_SYMBOL) but is not a Patchbay plugin"
        case .abiMismatch(let plugin):
            "incompatible plugin ABI: the host uses ABI version \(PB_PLUGIN_ABI_VERSION), the plugin was built for ABI version \(plugin); rebuild the plugin against this host's patchbay_plugin.h"
        case .descriptorTooSmall(let plugin):
            "incompatible plugin ABI: descriptor struct_size is \(plugin) bytes, the host needs at least \(minimumDescriptorSize); rebuild the plugin against this host's patchbay_plugin.h"
        case .incompleteDescriptor(let field):
            "descriptor field \(field) is NULL; set it in the plugin's pb_plugin_descriptor"
        case .invalidDescriptor(let violation):
            "refused: the descriptor's \(violation.field.rawValue) \(violation.rule); fix the plugin's pb_plugin_descriptor"
        case .missingLibrary(let library, let directory):
            missingLibrary(library, runtimeDirectory: directory, toolchain: SettingNames().swiftToolchain)
        }
    }
}

private func hex(_ value: UInt32) -> String {
    "0x" + String(value, radix: 16, uppercase: true)
}
