import PluginBoundary

import Glibc

/// The checks ``PluginFile/open(_:rules:lock:)`` makes before loading,
/// made one by one so that each gets a verdict, where the loader stops at
/// the first failure. Runs no code of the plugin's.
struct FileInspection {
    let rules: TrustRules
    let locks: LockFileCache
    /// The program's names, for the fixes a lock-file problem suggests.
    var names = SettingNames()

    /// The checks on `path`, its directory, a symlink's target and the ELF
    /// headers, and the lock file's verdict.
    func run(_ path: String) -> (checks: [PluginInspection.Check], lock: PluginInspection.LockStatus) {
        var checks: [PluginInspection.Check] = []
        func record(_ name: String, _ path: String, _ problem: String?) {
            checks.append(PluginInspection.Check(check: name, path: path, passed: problem == nil, problem: problem))
        }
        func record(rulesFor facts: FileFacts, _ subject: TrustViolation.Subject) {
            for rule in TrustRules.Rule.allCases where rule.applies(to: subject) {
                record(rule.name(for: subject), subject.path, rules.violation(of: rule, by: facts, for: subject)?.description)
            }
        }

        var target = path
        var subject = TrustViolation.Subject.plugin(path: path)
        if (try? FileFacts.of(linkAt: path))?.kind == .symbolicLink {
            guard let resolved = realpath(path, nil) else {
                let error = SystemError(operation: "resolve", errno: errno)
                record("symlink target", path, TrustViolation(.plugin(path: path), .danglingSymlink(target: "its target", error: error)).description)
                return (checks, lockStatus(path, digest: nil))
            }
            target = String(cString: resolved)
            free(resolved)
            subject = .symlinkTarget(link: path, target: target)
        }

        let descriptor = open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor >= 0, let facts = try? FileFacts.of(descriptor: descriptor) {
            record(rulesFor: facts, subject)
        } else {
            record("readable", target, PluginLoadError(.unreadable(SystemError(operation: "open", errno: errno))).description)
        }
        let directory = FilePaths.directory(of: path)
        if let facts = try? FileFacts.of(path: directory) {
            record(rulesFor: facts, .directory(path: directory))
        }
        let targetDirectory = FilePaths.directory(of: target)
        if target != path, FilePaths.resolved(targetDirectory) != FilePaths.resolved(directory), let facts = try? FileFacts.of(path: targetDirectory) {
            record(rulesFor: facts, .targetDirectory(link: path, target: target, directory: targetDirectory))
        }
        if let walk = try? PathWalk.walk(path) {
            let covered: Set = [FilePaths.resolved(directory), FilePaths.resolved(targetDirectory)]
            record("directories on its path", walk.target, rules.violation(onTheWay: walk, to: .plugin, skipping: covered)?.description)
        }
        if descriptor >= 0 {
            do throws(PluginLoadError) {
                _ = try PluginFile.adopt(descriptor: descriptor)
                record("ELF shared library", target, nil)
            } catch {
                record("ELF shared library", target, error.description)
            }
        }
        let digest = descriptor >= 0 ? Self.digest(of: descriptor) : nil
        if let trusted = locks.lock(for: path).trusted {
            let problem = digest == trusted.digest ? nil : PluginLoadError(
                .trustedDigestMismatch(actual: digest ?? "unreadable", trusted: trusted.digest, store: trusted.store)).message(naming: names)
            record("trust store", trusted.store, problem)
        }
        return (checks, lockStatus(path, digest: digest))
    }

    /// The SHA-256 read through `descriptor`; nil for a file over the size
    /// limit, which is not read.
    private static func digest(of descriptor: Int32) -> String? {
        (try? FileFacts.of(descriptor: descriptor)).flatMap { facts in
            facts.size <= TrustRules.maximumPluginSize ? try? FileDigest.sha256(descriptor: descriptor, size: facts.size) : nil
        }
    }

    /// The lock file's verdict on a file of this `digest`.
    private func lockStatus(_ path: String, digest: String?) -> PluginInspection.LockStatus {
        func status(_ verdict: PluginInspection.LockStatus.Verdict, _ lockFile: String?, _ problem: PluginLoadError.Kind?) -> PluginInspection.LockStatus {
            .init(verdict: verdict, lockFile: lockFile, sha256: digest, problem: problem.map { PluginLoadError($0).message(naming: names) })
        }
        switch locks.lock(for: path).lockFile {
        case .none:
            return status(.unlocked, nil, nil)
        case .unusable(let error):
            return status(.unusable, error.path, .lockFile(error))
        case .lock(let lock):
            guard let expected = lock.expectedDigest(for: path) else { return status(.notListed, lock.path, .notLocked(lock: lock.path, role: lock.role)) }
            guard let digest else { return status(.mismatch, lock.path, .notALibrary(reason: "cannot read it to take its SHA-256")) }
            guard digest == expected else { return status(.mismatch, lock.path, .digestMismatch(actual: digest, expected: expected, lock: lock.path, role: lock.role)) }
            return status(.matches, lock.path, nil)
        }
    }
}
