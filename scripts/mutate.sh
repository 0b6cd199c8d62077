#!/usr/bin/env bash
# Mutation testing of the checks that protect users.
#
# Each line of the list below plants one small bug in a check a user relies
# on (the descriptor and trust checks, the lock, what the host believes of a
# plugin, the URL policy, HTTPS, the container's scopes, exact amounts). For each,
# this script replaces an exact text, which must occur exactly once in its
# file, builds incrementally, runs the tests that should notice, restores the
# file, and prints one line:
#
#   KILLED    id  (seconds)  description      a test failed (or the build did,
#                                              or the tests timed out: it says so)
#   SURVIVED  id  (seconds)  description      every test passed: a test is missing
#   STALE     id  (seconds)  description      the text is not in the file exactly
#                                              once, or the filter ran no test:
#                                              update the line
#
# then "N killed, N survived, N stale", and exits 1 if any survived or is stale.
#
# The tree is left exactly as found: each file is copied before it is changed
# and copied back (contents, mode and mtime) after its run, on exit, and on
# INT, TERM and HUP; the bytes are then checked against a SHA-256 taken
# before. Only SIGKILL can stop that: the next run then finds the copy in
# .build/mutate-restore and puts it back first, if the file still holds the
# planted bug. At the end the clean tree is built once more, so .build holds no
# mutated code (the last file restored is recompiled: its mtime is restored,
# but the build records the mutated one).
#
# Run it on a tree whose tests pass (a mutant is killed by any failing test).
# The whole list takes about 2.5 hours on a 2-core machine (about a minute a row: an
# incremental build, then the tests, per mutant), so CI runs only --rotate,
# after `swift test` has built everything.
#
# Every row is a line of docs/PROTECTIVE_CHECKS.md, the table of the checks
# that protect users: each names the test that fails without its check and
# the mutation ids below. --check also checks that the table and this list
# name the same ids.
#
# Usage: scripts/mutate.sh                  every mutation
#        scripts/mutate.sh --rotate [N]     the CI subset: N mutations (default 6),
#                                           one slice of the list chosen by the
#                                           commit (see below)
#        scripts/mutate.sh --only ID[,ID]   the named ones
#        scripts/mutate.sh --area NAME      the ones of one area (--list shows them)
#        scripts/mutate.sh --suite ...      run the whole suite for each mutant,
#                                           not its row's filter: a survivor
#                                           here survives every test there is
#        scripts/mutate.sh --list           print the list and exit
#        scripts/mutate.sh --table          rewrite the rows of docs/PROTECTIVE_CHECKS.md
#                                           from the list (its text before the
#                                           first section is kept)
#        scripts/mutate.sh --check          check every pattern occurs exactly
#                                           once, and the table names every id,
#                                           without building (seconds)
#        KEEP=1 scripts/mutate.sh ...       keep each mutant's build and test log
#        scripts/mutate.sh --diff BASE      generated mutants, not the list: every
#                                           operator of scripts/mutants.py on every
#                                           line of Sources/ changed since BASE
#            [--sample N] [--seed S]        N of them, chosen at random by S
#            [--minutes M]                  start no mutant after M minutes
#
# --diff prints one line per mutant,
#
#   KILLED      id  file:line  operator  (seconds)  what changed
#   SURVIVED    ...                                 no test noticed: write one, or
#                                                   record it in Tests/mutants-equivalent.txt
#   EQUIVALENT  ...                                 recorded there, with its reason; not run
#
# then the counts, the minutes and the mutants a minute, and exits 1 if any
# survived. Each mutant runs the suites mapped to its folder (TEST_MAP in
# scripts/mutants.py, plus the filters of this list's rows for its file), or
# with --suite the whole suite. Tests/mutants-equivalent.txt holds one row
# per equivalent mutant: id, file:line, operator and a reason a reviewer can
# check, tab-separated; --check fails on a row whose mutant the tree no
# longer generates.
#
# --rotate cuts the list into slices of N, dealt round-robin (slice k holds
# rows k, k+S, k+2S, … of S slices), so a slice spans the areas. The slice is
# the number of commits reachable from HEAD modulo S (ROTATE_SLICE=k picks
# one by hand): a given commit always runs the same slice, and successive
# commits on main walk through every row.
#
# When you add a check that protects users, add its mutation here and its
# row to docs/PROTECTIVE_CHECKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

# ---------------------------------------------------------------------------
# The list: mutation ID FILE PATTERN REPLACEMENT TEST-FILTER DESCRIPTION
# PATTERN is literal text that must occur exactly once in FILE; TEST-FILTER is
# the regular expression `swift test --filter` gets.
# ---------------------------------------------------------------------------
list() {
    area abi "The ABI descriptor and the ELF file"
    mutation descriptor-size Sources/PluginBoundary/Image/PluginDescriptor.swift 'guard size >= minimumDescriptorSize else' 'guard size <= minimumDescriptorSize else' 'PluginLoaderTests|DescriptorSizeEndToEndTests' "descriptor size check reversed: a smaller descriptor is read past its end"
    mutation descriptor-magic Sources/PluginBoundary/Image/PluginDescriptor.swift 'guard magic == PB_PLUGIN_MAGIC else' 'guard magic != 0 else' 'BrokenPluginTests' "any non-zero descriptor magic is accepted"
    mutation descriptor-abi Sources/PluginBoundary/Image/PluginDescriptor.swift 'guard abiVersion == PB_PLUGIN_ABI_VERSION else' 'guard abiVersion >= PB_PLUGIN_ABI_VERSION else' 'BrokenPluginTests' "a plugin built for a later ABI version is loaded"
    area files "Plugin files and every directory on their way"
    mutation trust-group-writable-dir Sources/PluginHost/Trust/TrustRules.swift 'let writable = facts.permissions & 0o022' 'let writable = facts.permissions & (subject.isDirectory ? 0o002 : 0o022)' 'TrustRulesTests|TrustEndToEndTests/writableDirectory' "a group-writable plugins directory is accepted"
    mutation trust-world-writable-file Sources/PluginHost/Trust/TrustRules.swift 'let writable = facts.permissions & 0o022' 'let writable = facts.permissions & (subject.isDirectory ? 0o022 : 0o020)' 'TrustRulesTests|TrustEndToEndTests/writablePlugin' "a world-writable plugin file is accepted"
    mutation trust-owner Sources/PluginHost/Trust/TrustRules.swift 'owner == currentUser || owner == 0' 'owner == currentUser || owner >= 0' 'TrustRulesTests' "a file or directory of another user is trusted"
    mutation trust-size-cap Sources/PluginHost/Trust/TrustRules.swift 'guard rule.applies(to: subject), facts.size > Self.maximumPluginSize else { return nil }' 'guard rule.applies(to: subject), facts.size > Self.maximumPluginSize << 8 else { return nil }' 'TrustRulesTests/sizeRule|VouchingEndToEndTests/sparseFileOverTheCap' "a plugin file of many gigabytes is read and hashed"
    mutation way-ancestors Sources/PluginHost/Trust/TrustRules.swift 'for step in walk.steps where !skipping.contains(step.directory) {' 'for step in walk.steps.suffix(1) where !skipping.contains(step.directory) {' 'VouchingEndToEndTests/(ancestorOthersCanWrite|symlinkChainThroughWritableDirectory)' "only the last directory on a plugin's way is checked, not its ancestors"
    mutation way-link-directory Sources/PluginHost/Trust/TrustRules.swift 'guard step.role == .ancestor, step.facts.permissions & 0o1000 != 0 else { return violation }' 'guard step.role != .file else { return violation }' 'TrustRulesTests|VouchingEndToEndTests/symlinkChainThroughWritableDirectory' "a symlink chain may pass through a directory others can write"
    mutation way-sticky-entry Sources/PluginHost/Trust/TrustRules.swift 'guard isTrusted(owner: step.entryOwner) else {' 'guard isTrusted(owner: step.facts.owner) else {' 'TrustRulesTests/ancestors' "another user's entry in /tmp is trusted because /tmp is root's"
    mutation worker-executable-checked Sources/PluginHost/Isolation/WorkerExecutable.swift 'check(path, rules: TrustRules(currentUser: UInt32(geteuid())))' 'WorkerFile.open(path).map { .success($0) } ?? .failure(WorkerError(.loading, .missingExecutable(searched: [path])))' 'WorkerExecutableEndToEndTests' "the worker (patchbay-worker) is run whoever owns it and whoever may write it or its directory"
    mutation worker-executable-way Sources/PluginHost/Isolation/WorkerExecutable.swift 'if let violation = rules.violation(onTheWay: walk, to: guarded) { return refused(violation) }' '_ = guarded' 'WorkerExecutableEndToEndTests/writableLibraryDirectory' "the worker is run from a lib/patchbay others may write"
    mutation worker-executable-file Sources/PluginHost/Isolation/WorkerExecutable.swift 'if let violation = rules.violation(of: facts, for: .workerExecutable(path: walk.target)) { return refused(violation) }' '_ = facts' 'WorkerExecutableEndToEndTests/foreignWorker|WorkerExecutableEndToEndTests/writableWorker' "a worker another user owns, or others may write, is run"
    mutation worker-executable-descriptor Sources/CWorkerSandbox/worker_spawn.c 'syscall(SYS_execveat, executable, "", request->argv, request->envp, AT_EMPTY_PATH);' 'execve(request->path, request->argv, request->envp);' 'WorkerExecutableSwapTests' "the worker is run by its path after the check, so a file put there since runs instead of the one checked"
    mutation worker-library-path-rules Sources/PluginHost/Isolation/WorkerLibraryPath.swift 'rules.violation(of: facts, for: .directory(path: walk.target)) == nil else { continue }' 'facts.owner >= 0 else { continue }' 'WorkerLibraryPathEndToEndTests/writableDirectoryLeftOut' "a directory of LD_LIBRARY_PATH that others may write is bound into every worker's root, where the dynamic linker loads their code before any sandbox"
    mutation worker-runtime-library-name Sources/PluginBoundary/Image/SwiftRuntime.swift 'guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }' 'guard !name.isEmpty else { return nil }' 'SwiftRuntimeTests' "a library a plugin names by a path (../../tmp/x/libswiftCore.so) is opened from beside the host's Swift runtime directory, that is from anywhere, in the host or its worker"
    area lock "Lock files and the trust store"
    mutation lock-digest Sources/PluginHost/Trust/ApplicableLock.swift 'let expected, actual != expected {' 'let expected, actual.count != expected.count {' 'LockFileEndToEndTests/tamperedAfterLocking' "lock digests compared by length only: a changed plugin loads"
    mutation lock-unlisted Sources/PluginHost/Trust/ApplicableLock.swift 'throw PluginLoadError(.notLocked(lock: lock.path, role: lock.role))' 'return nil' 'LockFileEndToEndTests/notInLock' "a plugin the lock file does not list loads unchecked"
    mutation lock-dangling Sources/PluginHost/Trust/PluginTrust.swift 'return lstat(candidate, &status) == 0 ? candidate : nil' 'return stat(candidate, &status) == 0 ? candidate : nil' 'LockFileEdgeCaseTests/spoiledLockRefusesEverything' "a dangling plugins.lock is taken for none, and every plugin beside it loads unpinned"
    mutation lock-nonblock Sources/PluginHost/Trust/PluginLock.swift 'let descriptor = open(walk.target, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)' 'let descriptor = open(walk.target, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)' 'LockFileEdgeCaseTests/spoiledLockRefusesEverything' "a named pipe in plugins.lock's place hangs the host"
    mutation lock-size-cap Sources/PluginHost/Trust/PluginLock.swift 'static let maximumSize = 1 << 20' 'static let maximumSize = 1 << 40' 'LockFileEdgeCaseTests/spoiledLockRefusesEverything' "a plugins.lock of any size is read whole"
    mutation lock-binary-star Sources/PluginHost/Trust/PluginLock.swift 'utf8[65] == UInt8(ascii: " ") || utf8[65] == UInt8(ascii: "*")' 'utf8[65] == UInt8(ascii: " ")' 'PluginLockTests' "a line sha256sum -b wrote is malformed, so its plugin is refused"
    mutation lock-uppercase Sources/PluginHost/Trust/PluginLock.swift 'let digest = String(decoding: utf8[0..<64], as: UTF8.self).lowercased()' 'let digest = String(decoding: utf8[0..<64], as: UTF8.self)' 'PluginLockTests' "an upper-case digest never matches, so its plugin is refused"
    mutation lock-file-directory Sources/PluginHost/Trust/PluginLock.swift 'if let violation = rules.violation(onTheWay: walk, to: role.guarded(path)) {' 'if let violation = rules.violation(onTheWay: walk, to: role.guarded(path)), walk.steps.isEmpty {' 'VouchingEndToEndTests/lockFileInWritableDirectory' "a lock file in a directory others can write is believed"
    mutation trust-line-break-name Sources/PluginHost/Trust/TrustStore.swift 'guard let what = PluginLock.unwritable(name: path) else { return nil }' 'guard let what = PluginLock.unwritable(name: path), what.isEmpty else { return nil }' 'VouchingEndToEndTests/lineBreakInName' "a file name holding a line break is written into the trust store, which then vouches for nothing"
    mutation lock-name-line-break Sources/PluginHost/Trust/PluginLock.swift 'if name.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) { return "a line break" }' 'if name.contains("\n") || name.contains("\r") { return "a line break" }' 'LockPluginsNameEndToEndTests' "lock-plugins and trust read names by Character, so a CRLF in a name (one Character) is written into the lock file"
    mutation lock-name-control Sources/PluginHost/Trust/PluginLock.swift 'if name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "a control character" }' '' 'LockPluginsNameEndToEndTests' "lock-plugins writes a name holding an escape or a tab into the lock file or the trust store"
    mutation trust-store-one-rule Sources/PluginHost/Trust/PathWalk.swift 'let role: Role = last.role == .file ? .ancestor : last.role' 'let role: Role = last.role' 'VouchingEndToEndTests/stickyConfigHome' "the trust store is refused for writing where reading believes it (a sticky, shared XDG_CONFIG_HOME)"
    area placement "Who vouches, and where a plugin runs"
    mutation vouch-lock-beside-plugins Sources/PluginHost/Trust/PlacementRule.swift 'if case .file(let allowlist) = trust.allowlist, lock.listing(path) != nil {' 'if let allowlist = lock.listing(path)?.path {' 'VouchingEndToEndTests/pluginCannotVouchForItself' "a plugins.lock shipped beside a plugin moves it in-process"
    mutation vouch-changed-file Sources/PluginHost/Trust/ApplicableLock.swift 'if let trusted, actual != trusted.digest {' 'if let trusted, actual.count != trusted.digest.count {' 'VouchingEndToEndTests/trustAndUntrust' "a vouched-for file that changed still runs in-process"
    mutation vouch-bundled-location Sources/PluginHost/Trust/BundledLocation.swift '        return rules.violation(of: facts, for: subject)' '        return facts.kind == .directory ? nil : rules.violation(of: facts, for: subject)' 'TrustRulesTests/bundledLocation' "bundled plugins are vouched for beside a host whose directory others can write"
    mutation lock-plugins-bundled Sources/PluginHost/Trust/Host+Locking.swift 'case .bundled where trust.allowlist == .perDirectory:' 'case .bundled where trust.allowlist != .perDirectory:' 'VouchingEndToEndTests/lockPluginsNeverBesideTheExecutable' "lock-plugins pins the bundled plugins, so a rebuild leaves them refused"
    mutation lock-plugins-working-directory Sources/PluginHost/Trust/Host+Locking.swift '            case _ where inWorkingDirectory:' '            case _ where inWorkingDirectory && false:' 'VouchingEndToEndTests/lockPluginsNeverBesideTheExecutable' "lock-plugins vouches for whatever ./plugins holds"
    mutation placement-on-demand Sources/PluginHost/Loading/PluginLoad.swift '        switch placement.place {' '        switch Placement.Place.inProcess {' 'RegistryCacheEndToEndTests/sandboxedByDefault|CallbackMisbehaviourTests' "a plugin loaded on demand runs in-process whoever vouched for it"
    mutation placement-eager Sources/PluginHost/Host.swift 'if placements[start].place == .isolated {' 'if placements[start].place == .isolated, options.policy != .byTrust {' 'ContainmentEndToEndTests/refusedRegistrationsAreExplained' "without the cache, an unvouched plugin runs in-process"
    mutation placement-bundled-unchecked Sources/PluginHost/Trust/PlacementRule.swift '        if origin == .bundled {' '        if origin == .bundled { return (.bundled, "bundled with the host") }; if origin == .bundled {' 'VouchingEndToEndTests/bundledBesideAnOpenExecutableDirectory' "plugins beside a host are vouched for wherever the host is, in a directory others may write too"
    area identity "Who a plugin is: its file and who vouched for it, never the name it declares"
    mutation name-rule Sources/PluginBoundary/Rules/PluginOutputRules.swift 'guard (1...Limit.name).contains(name.utf8.count), name.utf8.allSatisfy(allowed) else {' 'guard (1...Limit.name).contains(name.utf8.count) else {' 'IdentityEndToEndTests/badName' "a plugin may call itself \`median of 3, spread 0.00%\` and print a fake median row"
    mutation name-theft Sources/PluginHost/Trust/NameClaims.swift 'for claim in claims where claim.voucher == .nobody {' 'for claim in claims where claim.voucher == .nobody && claims.isEmpty {' 'IdentityEndToEndTests/thiefRefused|IdentityEndToEndTests/thievesInJSON' "a plugin nobody vouched for takes a bundled plugin's name, and answers as it when the real sources fail"
    mutation selector-name-vouched Sources/PluginHost/Providers/PluginSelector.swift 'case .name(let selected): vouched && name == selected' 'case .name(let selected): name == selected' 'IdentityEndToEndTests/strangersByFile' "--source by name asks a plugin nobody vouched for that declares that name"
    mutation rank-name-vouched Sources/PluginHost/Providers/RankOverrides.swift '        guard plugin.isVouched else { return nil }' '' 'SymbolProvidersTests/namesRankOnlyVouched' "HOST_RANKS by name ranks a plugin nobody vouched for that declares that name"
    mutation base-name-vouched Sources/PluginHost/Networking/APIBases+Parsing.swift '} else if vouched {' '} else if true {' 'IdentityEndToEndTests/baseByFile' "--api-base-url PLUGIN=URL by name gives that base to a plugin nobody vouched for that declares the name"
    mutation log-label-in-process Sources/PluginHost/Loading/PluginLoader.swift 'label: identity.label, services: services' 'label: name, services: services' 'PluginLogLinesEndToEndTests/onceWithVerbose' "a stranger's log lines in-process carry the name it declares alone, as a vouched plugin's do"
    mutation log-label-worker Sources/PluginHost/Isolation/IsolatedPluginLoader.swift 'PluginIdentity.label(name: descriptor.name, path: path, voucher: voucher(path))' 'descriptor.name' 'PluginLogLinesEndToEndTests/onceWithVerbose' "a stranger's log lines from its worker carry the name it declares alone, as a vouched plugin's do"
    mutation rank-cap-after-override Sources/PluginHost/Providers/SymbolProviders.swift 'if voucher == .nobody, rank > .secondary {' 'if voucher == .nobody, wanted == nil, rank > .secondary {' 'SymbolProvidersTests/overrides|IdentityEndToEndTests/capAfterOverride' "HOST_RANKS lifts a plugin nobody vouched for above secondary: the override comes after the cap"
    mutation lock-plugins-resolved Sources/PluginHost/Trust/Host+Locking.swift 'candidate.origin == .workingDirectory || PluginDiscovery.origin(ofFile: path) == .workingDirectory' 'candidate.origin == .workingDirectory' 'IdentityEndToEndTests/lockPluginsLeavesWorkingPluginsOut' "lock-plugins --plugins-dir plugins (or HOST_PLUGINS_DIR, or the absolute path) vouches for ./plugins"
    mutation isolate-one-or-zero Sources/PluginHost/Settings/HostWiring.swift 'case "1": return true' 'case "1", "yes", "true", "on": return true' 'IsolationEndToEndTests/badEnvironment' "HOST_ISOLATE=yes is taken as 1, though the documents and the error say 1 or 0"
    area cache "The scan cache"
    mutation cache-identity Sources/PluginHost/ScanCache/PluginCatalog.swift 'let index = entries.index(of: candidate.path), entries.entries[index].identity == identity {' 'let index = entries.index(of: candidate.path), entries.entries[index].identity == entries.entries[index].identity {' 'RegistryCacheEndToEndTests/replacedFile' "a changed plugin file is listed from the cache, not rescanned"
    mutation cache-changed-before-load Sources/PluginHost/Loading/PluginFile.swift 'if let identity, file.identity() != identity {' 'if let identity, file.identity() == nil, identity.size < 0 {' 'RegistryCacheTests/changedBeforeLoad' "a file replaced after the listing is loaded on the listing's word"
    mutation cache-owner-mode Sources/PluginHost/ScanCache/ScanCacheStore.swift 'guard status.st_mode & 0o022 == 0 else' 'guard status.st_mode & 0o002 == 0 else' 'RegistryCacheEndToEndTests/spoiledCache|RegistryCacheTests' "a cache file its group may write is believed"
    mutation cache-owner Sources/PluginHost/ScanCache/ScanCacheStore.swift 'guard status.st_uid == geteuid() else { return .failure(.notOwned(owner: status.st_uid)) }' 'guard status.st_uid == geteuid() || status.st_uid > 0 else { return .failure(.notOwned(owner: status.st_uid)) }' 'RegistryCacheTests|RegistryCacheEndToEndTests/spoiledCache' "a scan cache of another user is believed"
    mutation cache-dir-owner Sources/PluginHost/ScanCache/ScanCacheStore.swift 'guard status.st_uid == geteuid() else { throw WriteError(path: directory, .notOwned(' 'guard status.st_uid == geteuid() || status.st_uid > 0 else { throw WriteError(path: directory, .notOwned(' 'RegistryCacheTests/foreignDirectoryRefused' "a scan cache is written into a directory of another user"
    mutation cache-regular Sources/PluginHost/ScanCache/ScanCacheStore.swift 'guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }' 'guard status.st_mode & S_IFMT != 0 else { return .failure(.notARegularFile) }' 'RegistryCacheTests/directoryInItsPlace' "a scan cache that is no regular file (a named pipe, a device) is read"
    mutation cache-lock-appeared Sources/PluginHost/ScanCache/PluginCatalog.swift 'if entries.entries[index].sha256 != nil || !locks.lock(for: candidate.path).needsDigest { return .cached(candidate, entry: index) }' 'return .cached(candidate, entry: index)' 'CachedListingChecksEndToEndTests/lockFileAfterTheScan' "a lock file that appears after the scan does not pin the cached plugin"
    mutation cache-lock-check Sources/PluginHost/ScanCache/PluginCatalog.swift '_ = try lock.verify(path) { () throws(PluginLoadError) in' '_ = lock; _ = { () throws(PluginLoadError) in' 'CachedListingChecksEndToEndTests/lockFileAfterTheScan' "a listing from the cache skips the lock-file and trust-store check"
    mutation cache-placement-check Sources/PluginHost/ScanCache/PluginCatalog.swift 'try PluginFile.checkPlacement(of: path, isSymbolicLink: candidate.isSymbolicLink, rules: trust.rules, checked: &checkedDirectories)' '_ = checkedDirectories' 'CachedListingChecksEndToEndTests/directoryOpenedAfterTheScan' "a listing from the cache skips the checks of the file's directories"
    mutation cache-line-bound Sources/PluginHost/ScanCache/ScanCacheStore.swift 'guard index - lineStart <= maximumLineLength else { return nil }' 'guard index - lineStart <= Int.max else { return nil }' 'RegistryCacheTests/longLineIsBounded' "a 50 MB line in a scan cache is read in full before it is refused"
    mutation cache-line-bound-open Sources/PluginHost/ScanCache/ScanCacheStore.swift 'guard bytes.count - lineStart <= maximumLineLength else { return nil }' 'guard bytes.count - lineStart <= Int.max else { return nil }' 'RegistryCacheTests/longLineIsBounded' "a line that never ends is read to the end of the file before the cache is refused"
    area plugin-output "What the host believes of a plugin"
    mutation symbol-case Sources/PluginABI/include/patchbay_plugin.h "(character >= 'A' && character <= 'Z')" "(character >= 'A' && character <= 'z')" 'PluginOutputRulesTests/symbols|PluginRegistrationTests/symbolRule' "symbols may hold lower-case letters"
    mutation symbol-length Sources/PluginABI/include/patchbay_plugin.h 'length > PB_SYMBOL_MAX_LENGTH)' 'length > 2 * PB_SYMBOL_MAX_LENGTH)' 'PluginOutputRulesTests/symbols|PluginRegistrationTests/symbolRule' "symbols of 17 to 32 characters are accepted"
    mutation timeout-round-up Sources/PluginABI/include/patchbay_plugin.h '((uint64_t)attoseconds + 999999999999999u) / 1000000000000000u' '(uint64_t)attoseconds / 1000000000000000u' 'DurationUnitsTests|NetworkingViaHostTests' "a timeout under 1 ms becomes timeout_ms 0, which a plugin reads as no limit"
    mutation http-response-size Sources/PluginABI/include/patchbay_plugin.h 'if (response->struct_size < sizeof(pb_http_response)) return PB_HTTP_TRUNCATED;' 'if (response->struct_size < 4) return PB_HTTP_TRUNCATED;' 'HTTPCompletionTests|NetworkingViaHostTests' "a plugin reads a host's response past the end of its struct"
    area caps "The caps on what a plugin says"
    mutation text-length-cap Sources/PluginBoundary/Rules/PluginOutputRules.swift 'guard length <= limit else' 'guard length <= limit + 1 else' 'PluginOutputRulesTests/cStrings' "a plugin's C string may exceed its length limit"
    mutation frame-text-length-cap Sources/PluginBoundary/Rules/PluginOutputRules.swift 'guard string.utf8.count <= limit else' 'guard string.utf8.count <= limit * 4 else' 'PluginOutputRulesTests' "a plugin's text in Swift (worker frames, answers) may be 4 times its limit"
    mutation cap-version Sources/PluginBoundary/Rules/PluginOutputRules.swift 'package static let version = 32' 'package static let version = 320' 'PluginOutputRulesTests/capsOnPluginText|ContainmentEndToEndTests/textOverItsCapIsRefused' "a plugin's version may be ten times its cap"
    mutation cap-code Sources/PluginBoundary/Rules/PluginOutputRules.swift 'package static let code = 16' 'package static let code = 1 << 20' 'PluginOutputRulesTests/capsOnPluginText' "a quote's base or currency is read up to 1 MiB"
    mutation cap-amount-read Sources/PluginBoundary/Rules/PluginOutputRules.swift 'amount: try text(result.amount, .amount, limit: Limit.amountDigits + 2),' 'amount: try text(result.amount, .amount, limit: 1 << 20),' 'PluginOutputRulesTests/capsOnPluginText' "an amount is read up to 1 MiB"
    mutation cap-description Sources/PluginBoundary/Rules/PluginOutputRules.swift 'package static let description = 512' 'package static let description = 5120' 'PluginOutputRulesTests/capsOnPluginText|DescriptorMetadataTests' "a plugin's description may be ten times its cap"
    mutation cap-credit Sources/PluginBoundary/Rules/PluginOutputRules.swift 'package static let credit = 128' 'package static let credit = 1280' 'PluginOutputRulesTests/capsOnPluginText' "a plugin's author, licence and homepage may be ten times their cap"
    mutation body-cap-host Sources/PluginHost/Host.swift 'let maximumBodySize = 1 << 20' 'let maximumBodySize = 1 << 30' 'BodyCapEndToEndTests' "a body of up to 1 GiB is read into memory for a plugin"
    mutation frame-length-cap Sources/WorkerProtocol/Frames/Frame.swift 'package static let maximumLength = 16 << 20' 'package static let maximumLength = 1 << 40' 'FrameCodecTests' "a frame of any length is allocated for"
    area plugin-output "What the host believes of a plugin (continued)"
    mutation text-utf8 Sources/PluginBoundary/Rules/PluginOutputRules.swift 'guard let string = String(validating: bytes, as: UTF8.self) else {' 'guard let string = Optional(String(decoding: bytes, as: UTF8.self)) else {' 'PluginOutputRulesTests/cStrings' "invalid UTF-8 from a plugin is repaired instead of refused"
    mutation amount-digits Sources/PluginBoundary/Rules/PluginOutputRules.swift 'guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(isDigit) else { return false }' 'guard let whole = parts.first, !whole.isEmpty else { return false }' 'PluginOutputRulesTests|ContainmentEndToEndTests/nonDecimalAmountsAreRefused' "an amount's integer part may hold any character (1e5, NaN)"
    mutation quote-base Sources/PluginHost/Trust/PluginOutputRules+Quote.swift 'guard base == request.symbol else {' 'guard !base.isEmpty else {' 'PluginOutputRulesTests/badQuotesAreRefused' "a plugin's quote for another asset is accepted"
    mutation quote-currency Sources/PluginHost/Trust/PluginOutputRules+Quote.swift 'guard currency == request.currency else {' 'guard !currency.isEmpty else {' 'PluginOutputRulesTests/badQuotesAreRefused' "a plugin's quote in another currency is accepted"
    area calls "Completion tokens, timeouts and the threads plugin calls run on"
    mutation token-sequential Sources/PluginBoundary/Calls/PendingFetches.swift 'token = UInt64.random(in: 1...UInt64.max)' 'token = UInt64(state.waiting.count + state.finishedOrder.count + 1)' 'ContainmentEndToEndTests/forgedTokensAreIgnored' "completion tokens are sequential, so a plugin can answer another's fetch"
    mutation token-width-32 Sources/PluginBoundary/Calls/PendingFetches.swift 'token = UInt64.random(in: 1...UInt64.max)' 'token = UInt64.random(in: 1...UInt64(UInt32.max))' 'PendingFetchesTests/tokensUseAll64Bits|ContainmentEndToEndTests/pluginsSeeWideTokens' "completion tokens have 32 random bits, few enough to guess"
    mutation fetch-timeout Sources/PluginHost/Fetching/PluginFetcher.swift 'try? await Task.sleep(for: timeout)' 'try? await Task.sleep(for: timeout * 1000)' 'CallbackMisbehaviourTests/neverCallsBack' "--timeout does not end a fetch the plugin never answers"
    mutation plugin-call-inline Sources/PluginBoundary/Calls/PluginCallThread.swift 'package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {' 'package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) { body(); if Bool(true) { return }' 'ContainmentEndToEndTests/blockingFetchesTimeOut' "plugin calls run on the host's own threads, where a blocking one stops every timer"
    mutation late-answer-not-awaited Sources/PluginBoundary/Calls/PendingFetches.swift 'if answered, state.calling.contains(token) {' 'if !answered, state.calling.contains(token) {' 'PendingFetchesTests/answeredCallsAreWaitedFor' "a run exits while a plugin that answered still calls back, losing the log line of its second answer"
    area escaping "What reaches a terminal: every escaped class, every output line"
    mutation terminal-escape Sources/Patchbay/Graph/VisibleText.swift 'case 0x00...0x1F, 0x7F...0x9F: true' 'case 0x00...0x1A, 0x1C...0x1F, 0x7F...0x9F: true' 'TerminalTextTests|ContainmentEndToEndTests/escapeSequencesAreNeutralised' "ESC from a plugin reaches the terminal"
    mutation terminal-c1 Sources/Patchbay/Graph/VisibleText.swift 'case 0x00...0x1F, 0x7F...0x9F: true' 'case 0x00...0x1F, 0x7F...0x7F: true' 'TerminalTextTests' "C1 controls (U+0080-U+009F, CSI among them) from a plugin reach the terminal"
    mutation terminal-paragraph Sources/Patchbay/Graph/VisibleText.swift 'case 0x2028...0x2029: true' 'case 0x2028...0x2028: true' 'TerminalTextTests' "the paragraph separator U+2029 breaks a line on the terminal"
    mutation terminal-format Sources/Patchbay/Graph/VisibleText.swift 'default: scalar.properties.generalCategory == .format' 'default: false' 'TerminalTextTests|ContainerTests' "format characters (zero-width space and joiners, bidirectional marks, embeddings, overrides and isolates, U+061C, U+FEFF, U+180E, invisible operators, tags) reach the terminal and the graph"
    mutation terminal-format-end-to-end Sources/Patchbay/Graph/VisibleText.swift 'default: scalar.properties.generalCategory == .format' 'default: scalar.properties.generalCategory == .format && scalar.value < 0x200B' 'TerminalDisplayEndToEndTests/everyClassEscaped' "invisible and bidirectional characters in a plugin's name, display name, error line or file name reach a terminal"
    mutation terminal-tags Sources/Patchbay/Graph/VisibleText.swift 'case 0xE0000...0xE007F: true' 'case 0xE0000...0xE0000: true' 'TerminalTextTests' "the unassigned tag code points (U+E0002-U+E001F) reach the terminal"
    mutation terminal-hangul-fillers Sources/Patchbay/Graph/VisibleText.swift 'case 0x115F, 0x1160, 0x3164, 0xFFA0: true' 'case 0x115F, 0x1160: true' 'TerminalTextTests|TerminalDisplayEndToEndTests/everyClassEscaped' "the Hangul fillers U+3164 and U+FFA0, letters that show as blank, reach the terminal"
    mutation escape-list-problems Sources/HostCommand/Output/Rendering.swift 'report.error.map { TerminalText.escaped("\(report.path): \($0)") }' 'report.error.map { "\(report.path): \($0)" }' 'TerminalOutputEndToEndTests/everyCommandEscapes' "list-plugins prints a problem line with a plugin's text raw"
    mutation escape-placement-footer Sources/HostCommand/Output/Rendering.swift 'let lines = reasons.map { TerminalText.escaped(' 'let lines = reasons.map { String(' 'TerminalOutputEndToEndTests/everyCommandEscapes' "list-plugins prints the placement footer's file names raw"
    mutation escape-inspect-values Sources/HostCommand/Output/Rendering+Inspection.swift '"  " + key + String(repeating: " ", count: width - key.count) + "  " + TerminalText.escaped(value) + "\n"' '"  " + key + String(repeating: " ", count: width - key.count) + "  " + value + "\n"' 'TerminalOutputEndToEndTests/everyCommandEscapes' "inspect prints a plugin's descriptor text raw"
    mutation escape-trust-line Sources/HostCommand/TrustStoreCommand.swift 'print(TerminalText.escaped("trusted \(path) (SHA-256 \(sha256)\(was)): \(change)"))' 'print("trusted \(path) (SHA-256 \(sha256)\(was)): \(change)")' 'TerminalOutputEndToEndTests/everyCommandEscapes' "host trust prints a file name raw"
    mutation escape-lock-plugins Sources/HostCommand/LockPlugins.swift 'for line in written.lines { print(TerminalText.escaped(line)) }' 'for line in written.lines { print(line) }' 'TerminalOutputEndToEndTests/everyCommandEscapes' "lock-plugins prints file names raw"
    mutation escape-progress Sources/HostCommand/Output/ProgressLine.swift 'let name = TerminalText.escaped(String(progress.path.split(separator: "/").last ?? Substring(progress.path)))' 'let name = String(progress.path.split(separator: "/").last ?? Substring(progress.path))' 'ProgressLineTests/fileNameIsEscaped' "the progress line shows a file name raw"
    mutation escape-usage-error Sources/HostCommand/HostMain.swift '.map { TerminalText.escaped(String($0)) }' '.map { String($0) }' 'TerminalDisplayEndToEndTests/parserErrorEscaped' "a usage error repeats what the user typed raw (argument-parser's message)"
    mutation escape-new-plugin-name Sources/HostCommand/NewPlugin.swift '\(TerminalText.escaped(name))' '\(name)' 'TerminalDisplayEndToEndTests/newPluginEscapesTheName' "the name new-plugin refuses is echoed with its ESC and newline raw"
    mutation width-table-columns Sources/HostCommand/Output/TextTable.swift 'all.map { DisplayWidth.of($0[column]) }.max() ?? 0' 'all.map { $0[column].count }.max() ?? 0' 'DisplayWidthTests|TerminalDisplayEndToEndTests/columnsAlign' "table columns are padded by Character count: CJK and emoji names push the next column out of line"
    mutation width-wide Sources/HostCommand/Output/DisplayWidth.swift 'if isWide(value) { return 2 }' 'if isWide(value) { return 1 }' 'DisplayWidthTests|TerminalDisplayEndToEndTests/columnsAlign' "East Asian wide and fullwidth characters count as one column"
    mutation width-combining Sources/HostCommand/Output/DisplayWidth.swift 'case .nonspacingMark, .enclosingMark, .format, .control: return 0' 'case .format, .control: return 0' 'DisplayWidthTests' "a combining mark with no base before it counts as a column"
    mutation width-emoji Sources/HostCommand/Output/DisplayWidth.swift 'if properties.isEmojiPresentation { return 2 }' 'if properties.isEmojiPresentation { return 1 }' 'DisplayWidthTests' "an emoji the table does not list, or a flag, counts as one column"
    area worker-reports "What a worker reports, and its frames"
    mutation worker-symbol-rule Sources/PluginHost/Isolation/LoadReply+Checked.swift 'let symbol = try PluginOutputRules.symbol(fetcher.symbol)' 'let symbol = fetcher.symbol' 'PluginOutputRulesTests/workerReports' "a worker's load report skips the symbol rule"
    mutation rank-order Sources/PluginHost/Providers/SymbolProviders.swift '(provider.isVouched ? 1 << 33 : 1 << 32) + Int(provider.rank.value)' '(provider.isVouched ? 1 << 33 : 1 << 32)' 'SymbolProvidersTests|SourcesEndToEndTests/declaredRank' "sources are asked in search order only, whatever their ranks"
    mutation rank-stranger-capped Sources/PluginHost/Providers/SymbolProviders.swift 'if voucher == .nobody, rank > .secondary {' 'if voucher == .nobody, rank > .secondary, voucher != .nobody {' 'SymbolProvidersTests|ContainmentEndToEndTests/forgedRankIsCapped' "a plugin nobody vouched for puts itself first by declaring a high rank"
    mutation rank-zero-asked Sources/PluginHost/Registry/FetcherRegistry.swift 'places = all.indices.filter { all[$0].rank > .none }' 'places = Array(all.indices)' 'SourcesEndToEndTests/rankZero' "a source at rank 0 is asked though nobody named it"
    mutation fetcher-old-size Sources/PluginBoundary/Services/FetcherRegistrations.swift 'guard size >= minimumFetcherSize else {' 'guard size >= UInt32(MemoryLayout<pb_fetcher>.size) else {' 'SourcesEndToEndTests/oldFetcher' "a plugin built before ranks is refused for its smaller pb_fetcher"
    mutation worker-owner-claim Sources/PluginHost/Isolation/LoadReply+Checked.swift 'guard duplicate.owner == path else {' 'guard duplicate.owner == path || !duplicate.owner.isEmpty else {' 'PluginOutputRulesTests/workerReports' "a worker's load report may name another plugin's file as a symbol's owner"
    mutation frame-utf8 Sources/WorkerProtocol/Frames/FrameCodable.swift 'guard let text = String(validating: try reader.readBytes(), as: UTF8.self) else { throw .undecodable(.notUTF8) }' 'let text = String(decoding: try reader.readBytes(), as: UTF8.self)' 'FrameCodecTests' "invalid UTF-8 in a frame is repaired, so a decoded frame no longer encodes back to its bytes"
    mutation frame-count-cap Sources/WorkerProtocol/Frames/FrameReader.swift 'guard count <= remaining else { throw .undecodable(.truncated) }
        var items' 'var items' 'FrameCodecTests/hugeCounts' "a forged list count is believed and allocated for"
    mutation frame-trailing Sources/WorkerProtocol/Frames/FrameReader.swift 'guard remaining == 0 else {' 'guard remaining >= 0 else {' 'FrameCodecTests' "bytes after a message are ignored, so two bodies decode to one message"
    mutation frame-sorted-keys Sources/WorkerProtocol/Frames/FrameReader.swift 'if let previous, !(previous < key) { throw .undecodable(.unordered(what)) }' 'if let previous, previous == key + "\u{0}" { throw .undecodable(.unordered(what)) }' 'FrameCodecTests/malformedBodies' "a configuration's keys are read in any order, so one request has two encodings"
    mutation frame-unknown-tag Sources/WorkerProtocol/Frames/FrameFieldReader.swift 'guard found == nil, try readTag() == tag else { return }
        found = make' 'guard found == nil, try readTag() == tag || tag == 1 else { return }
        found = make' 'FrameCodecTests' "a tag that names no case is read as the first case"
    mutation worker-fetch-timeout Sources/PluginHost/Isolation/WorkerConnection.swift 'if !Task.isCancelled { run(machine.withLock { $0.fetchTimedOut(id) }) }' 'if Task.isCancelled { run(machine.withLock { $0.fetchTimedOut(id) }) }' 'IsolationEndToEndTests/hangInFetch' "the host never times out a worker's fetch"
    mutation worker-late-answer Sources/PluginHost/Isolation/WorkerConnection+StateMachine.swift 'guard reply.id >= nextFetchID else { return .none }' 'guard reply.id >= 0 else { return .none }' 'WorkerConnectionStateMachineTests' "an answer to a fetch the host never asked for is taken, not refused"
    area sandbox "The worker sandbox: what a worker may call (seccomp_filter.c)"
    mutation sandbox-default-allow Sources/CWorkerSandbox/seccomp_filter.c '        emit(builder, RETURN(SECCOMP_RET_TRAP));' '        emit(builder, RETURN(SECCOMP_RET_ALLOW));' 'SandboxEndToEndTests/(processAttacks|callsOnNoList)' "a system call on no list is allowed: the filter is a deny list again"
    mutation sandbox-clone-threads Sources/CWorkerSandbox/seccomp_filter.c 'IF_HAS_BITS(0, CLONE_THREAD, ALLOWED)' 'IF_HAS_BITS(0, 0, ALLOWED)' 'SandboxEndToEndTests/processAttacks' "clone without CLONE_THREAD is allowed: a plugin forks"
    mutation sandbox-ioctl Sources/CWorkerSandbox/seccomp_filter.c 'RULE(ioctl, REFUSED,' 'RULE(ioctl, ALLOWED,' 'SandboxEndToEndTests/terminalIsOutOfReach' "every ioctl is allowed, terminal ones too"
    mutation sandbox-kill-self Sources/CWorkerSandbox/seccomp_filter.c 'RULE(kill, REFUSED, "to itself only: abort() and raise()", IF_OWN_PID(0, ALLOWED)),' 'RULE(kill, ALLOWED, "to itself only: abort() and raise()", IF_OWN_PID(0, ALLOWED)),' 'SandboxEndToEndTests/processAttacks' "kill may name any process"
    mutation sandbox-rename Sources/CWorkerSandbox/seccomp_filter.c 'IF_EQUALS(0, PR_SET_NAME, FAILS(EPERM)),' 'IF_EQUALS(0, PR_SET_NAME, ALLOWED),' 'SandboxEndToEndTests/callsOnNoList' "a worker may rename itself sshd"
    mutation sandbox-sigsys-handler Sources/CWorkerSandbox/seccomp_filter.c 'IF_EQUALS(0, SIGSYS, REFUSED)' 'IF_EQUALS(0, SIGSYS, ALLOWED)' 'SandboxEndToEndTests/callsOnNoList' "a plugin may take SIGSYS over and hide what the filter refuses"
    mutation sandbox-fcntl-setown Sources/CWorkerSandbox/seccomp_filter.c 'RULE(fcntl, REFUSED,' 'RULE(fcntl, ALLOWED,' 'SandboxEndToEndTests/callsOnNoList' "fcntl(F_SETOWN) is allowed: SIGIO to another process"
    mutation sandbox-pdeathsig-takeback Sources/CWorkerSandbox/seccomp_filter.c 'IF_EQUALS(0, PR_GET_PDEATHSIG, ALLOWED),' 'IF_EQUALS(0, PR_GET_PDEATHSIG, ALLOWED), IF_EQUALS(0, PR_SET_PDEATHSIG, ALLOWED),' 'SandboxEndToEndTests/processRules' "a plugin may clear its parent-death signal and outlive the host"
    mutation sandbox-tgkill Sources/CWorkerSandbox/seccomp_filter.c 'RULE(tgkill, REFUSED,' 'RULE(tgkill, ALLOWED,' 'SandboxEndToEndTests/processRules' "tgkill may name a thread of any process"
    mutation sandbox-refused-named Sources/CWorkerSandbox/seccomp_filter.c '    atomic_compare_exchange_strong_explicit(&first_refused, &none, (uint32_t)info->si_syscall + 1, memory_order_relaxed, memory_order_relaxed);' '    (void)none;' 'SandboxEndToEndTests/(refusedCallIsNamed|inspectNamesTheRefusedCall)' "a refused system call is not named"
    mutation sandbox-init-signals Sources/CWorkerSandbox/worker_sandbox.c '    if (own_pid == 1) {' '    if (own_pid == 0) {' 'IsolationEndToEndTests' "a worker that is its PID namespace's first process ends by SIGABRT as something else"
    area spawn "The worker sandbox: what a worker inherits (worker_spawn.c, WorkerProcess, WorkerEnvironment)"
    mutation spawn-session Sources/CWorkerSandbox/worker_spawn.c '    if (setsid() < 0) fail(state, PB_SPAWN_STEP_SETUP);' '' 'SandboxEndToEndTests/noControllingTerminal' "a worker keeps the host's session and controlling terminal"
    mutation spawn-descriptors Sources/CWorkerSandbox/worker_spawn.c 'if (syscall(__NR_close_range, (unsigned)first_closed, ~0u, 0u) != 0) {' 'if (first_closed < 0) {' 'SandboxEndToEndTests/descriptorsAreOnlyThoseGiven' "a worker inherits the host's descriptors that are not close-on-exec"
    mutation spawn-output-pipe Sources/PluginHost/Isolation/WorkerProcess.swift 'let descriptors: [Int32] = [nullDevice, output.write, output.write, down.read, up.write, plugin]' 'let descriptors: [Int32] = [nullDevice, 2, 2, down.read, up.write, plugin]' 'SandboxEndToEndTests/(stderrFileKeepsItsBytes|descriptorsAreOnlyThoseGiven)|HostRequestCapsEndToEndTests/outputFlood' "a worker writes to the host's own stderr, which it can truncate"
    mutation spawn-environment Sources/PluginHost/Isolation/WorkerEnvironment.swift 'var environment = passed.compactMap { name in host[name].map { "\(name)=\($0)" } }' 'var environment = host.map { "\($0.key)=\($0.value)" }' 'SandboxEndToEndTests/environmentIsAnAllowList' "a worker gets the host's whole environment"
    mutation spawn-ipc-namespace Sources/CWorkerSandbox/worker_spawn.c '    if (request->namespaces & PB_SPAWN_IPC) flags |= CLONE_NEWIPC;' '' 'SandboxEndToEndTests/(sharedMemoryOfOthers|workerDiesWithTheHost)' "a worker shares the host's IPC namespace"
    mutation spawn-pid-namespace Sources/CWorkerSandbox/worker_spawn.c '    if (request->namespaces & PB_SPAWN_PID) flags |= CLONE_NEWPID;' '' 'SandboxEndToEndTests/workerDiesWithTheHost|HostRequestCapsEndToEndTests/threads' "a worker shares the host's PID namespace"
    mutation spawn-network-namespace Sources/CWorkerSandbox/worker_spawn.c 'if ((request->namespaces & PB_SPAWN_NET) && setns(request->shared_net_fd, CLONE_NEWNET) != 0)' 'if ((request->namespaces & PB_SPAWN_NET) && request->shared_net_fd < -1)' 'SandboxEndToEndTests/workerDiesWithTheHost' "a worker shares the host's network namespace"
    mutation spawn-task-cap Sources/CWorkerSandbox/worker_spawn.c 'if ((request->namespaces & PB_SPAWN_PID) && request->max_tasks && cap_tasks(request->max_tasks) != 0) {' 'if ((request->namespaces & PB_SPAWN_PID) && request->max_tasks && 0) {' 'HostRequestCapsEndToEndTests/threads' "a worker may start any number of threads"
    mutation root-pivot Sources/CWorkerSandbox/worker_spawn.c '    if (syscall(SYS_pivot_root, ".", ".") != 0) return PB_SPAWN_STEP_ROOT;' '    if (0) return PB_SPAWN_STEP_ROOT;' 'SandboxRootEndToEndTests/learnsNothing' "a worker never pivots into its own root: it stats, reads links and mounts of the host's"
    mutation root-proc-mount Sources/CWorkerSandbox/worker_spawn.c '"hidepid=2,subset=pid"' '"hidepid=2"' 'SandboxRootEndToEndTests/learnsNothing' "a worker's /proc shows the kernel's files: cmdline, boot_id, keys, loadavg, stat"
    mutation root-uts Sources/CWorkerSandbox/worker_spawn.c '    if (request->namespaces & PB_SPAWN_UTS) flags |= CLONE_NEWUTS;' '' 'SandboxRootEndToEndTests/learnsNothing' "a worker shares the host's UTS namespace: uname names the host"
    mutation spawn-parent-death Sources/CWorkerSandbox/worker_spawn.c '    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(state, PB_SPAWN_STEP_SETUP);' '' 'SandboxEndToEndTests/workerDiesWithTheHost' "a worker outlives a host killed with SIGKILL"
    area allowance "What a plugin may ask of the host (Allowance/)"
    mutation cap-outstanding Sources/PluginHost/Allowance/PluginAllowance.swift 'if state.outstanding >= Limit.requestsOutstanding {' 'if state.outstanding >= Limit.requestsOutstanding * 1000 {' 'HostRequestCapsEndToEndTests/(httpFlood|httpFrameFlood)' "a plugin may have any number of http_get requests waiting at once"
    mutation cap-per-fetch Sources/PluginHost/Allowance/PluginAllowance.swift '} else if state.requests >= Limit.requestsPerFetch * (state.fetches + 1) {' '} else if state.requests >= Limit.requestsPerFetch * (state.fetches + 1000) {' 'HostRequestCapsEndToEndTests/httpFlood' "a plugin may make any number of http_get requests per fetch"
    mutation cap-host-side Sources/PluginHost/Isolation/WorkerConnection.swift '            if let (refusal, first) = allowance.startRequest() {' '            if let (refusal, first) = allowance.startRequest(), refusal.plugin.isEmpty {' 'HostRequestCapsEndToEndTests/httpFrameFlood' "the host takes every httpGet frame a worker writes, past its own services"
    mutation cap-log-lines Sources/PluginHost/Allowance/PluginAllowance.swift 'guard state.logLines < Limit.logLines else {' 'guard state.logLines < Limit.logLines * 100 else {' 'HostRequestCapsEndToEndTests/(logFlood|outputFlood)' "a plugin may write any number of log lines"
    mutation cap-url-length Sources/PluginHost/Loading/HostServices.swift 'guard text.utf8.count <= URLPolicy.maximumLength else {' 'guard text.utf8.count <= URLPolicy.maximumLength * 1000 else {' 'HostRequestCapsEndToEndTests/longURL' "a URL of any length is parsed and checked"
    mutation cap-echo Sources/PluginBoundary/Rules/PluginOutputRules.swift 'guard length > Limit.echo else { return text }' 'guard length > Limit.echo * 10000 else { return text }' 'HostRequestCapsEndToEndTests/longURL' "a host message repeats a plugin's text whole, however long"
    area sandbox "The worker sandbox: what is shown is what holds now, and the Landlock and resource layers"
    mutation sandbox-judged-now Sources/PluginHost/ScanCache/PluginCatalog.swift 'if placement.place == .isolated && options.isolation.judgesSandbox {' 'if placement.place == .isolated && options.isolation.judgesSandbox && false {' 'SandboxEndToEndTests/(listingShowsThisRunsSandbox|requireSandboxJudgesThisRun)' "listings show the sandbox a scan recorded, not this run's"
    mutation sandbox-switch-checked Sources/PluginHost/Settings/HostWiring.swift 'return try SandboxLayers(naming: environment[.sandboxDisable] ?? "")' 'return (try? SandboxLayers(naming: environment[.sandboxDisable] ?? "")) ?? []' 'SandboxEndToEndTests/(badSwitchEverywhere|badEnvironment)' "a bad HOST_SANDBOX_DISABLE is taken as none on some path"
    mutation sandbox-landlock-fs Sources/CWorkerSandbox/worker_sandbox.c 'if (!failed && syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) failed = errno;' 'if (!failed && ruleset < 0) failed = errno;' 'SandboxEndToEndTests/(openPasswd|writeInTmp)' "the worker's Landlock ruleset is built but never enforced"
    mutation sandbox-landlock-net Sources/CWorkerSandbox/worker_sandbox.c 'attributes.handled_access_net = PB_LL_NET_BIND_TCP | PB_LL_NET_CONNECT_TCP;' 'attributes.handled_access_net = 0;' 'SandboxEndToEndTests' "the worker's Landlock network rule is dropped (TCP connect allowed)"
    mutation sandbox-scope-signal Sources/CWorkerSandbox/worker_sandbox.c 'attributes.scoped = PB_LL_SCOPE_ABSTRACT_UNIX_SOCKET | PB_LL_SCOPE_SIGNAL;' 'attributes.scoped = PB_LL_SCOPE_ABSTRACT_UNIX_SOCKET;' 'SandboxEndToEndTests/signalRefusedByLandlockAlone' "Landlock no longer scopes signals: a worker may signal processes outside its domain"
    mutation sandbox-landlock-write Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 1);' 'SandboxEndToEndTests/overwriteExistingFile' "Landlock leaves writing to existing files unhandled"
    mutation sandbox-landlock-make-reg Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 8);' 'SandboxEndToEndTests/mknodRefusedByLandlockAlone' "Landlock leaves creating files unhandled"
    mutation sandbox-rlimit-fsize Sources/CWorkerSandbox/worker_sandbox.c '    if (!failed && set_limit(RLIMIT_FSIZE, 0, 0) != 0) failed = errno;' '' 'SandboxEndToEndTests/workerDiesWithTheHost' "a worker may write files of any size"
    mutation sandbox-rlimit-core Sources/CWorkerSandbox/worker_sandbox.c '    if (!failed && set_limit(RLIMIT_CORE, 0, 0) != 0) failed = errno;' '' 'SandboxEndToEndTests/workerDiesWithTheHost' "a crashing worker may dump core, with the host's memory it was given"
    mutation sandbox-rlimit-cpu Sources/CWorkerSandbox/worker_sandbox.c '    if (!failed && set_limit(RLIMIT_CPU, policy->cpu_seconds, policy->cpu_seconds + 1) != 0) failed = errno;' '' 'SandboxEndToEndTests/workerDiesWithTheHost' "a worker may spin on the CPU for ever"
    area urls "What a plugin may fetch"
    mutation url-port Sources/PluginHost/Networking/URLPrefix.swift ' && candidate.effectivePort == url.effectivePort' '' 'URLPolicyTests|URLPolicyEndToEndTests/loopbackAttacks' "the URL policy ignores the port: any port on the API's host is admitted"
    mutation url-path-prefix Sources/PluginHost/Networking/URLPrefix.swift '&& candidate.segments.starts(with: url.directorySegments)' '&& candidate.segments.starts(with: url.directorySegments.prefix(0))' 'URLPolicyTests' "the URL policy ignores the path: anything on the API's host is admitted"
    mutation url-dot-segment Sources/PluginHost/Networking/StrictURL.swift 'guard text != ".", text != ".." else {' 'guard text != "." else {' 'URLPolicyTests' "a '..' path segment is accepted"
    mutation url-encoded-slash Sources/PluginHost/Networking/StrictURL.swift 'guard value != 0, value != UInt8(ascii: "/"), value != UInt8(ascii: "\\") else {' 'guard value != 0, value != UInt8(ascii: "\\") else {' 'URLPolicyTests' "an encoded '/' (%2F) in a path is accepted"
    mutation url-redirect Sources/PluginHost/Loading/HostServices.swift 'current = try urlPolicy.checkRedirect(to: location, from: current, asked: text)' 'current = try URLPolicy.apiBase(location).checkRedirect(to: location, from: current, asked: text)' 'HostServicesPolicyTests' "a redirect is followed wherever it leads"
    mutation offline-advice-dot-segment Sources/HostCommand/OfflineFixtures.swift 'guard segment != ".", segment != "..", segment.count <= 64,' 'guard segment != ".", segment.count <= 64,' 'OfflineAdviceTests' "the offline advice looks a '..' path up: a plugin's unreachable URL could tell it which files exist outside the fixture folders"
    mutation redirect-hop-timeout Sources/PluginHost/Loading/HostServices.swift 'let remaining = hop == 0 ? timeout : deadline - clock.now' 'let remaining = timeout' 'HostServicesPolicyTests/(redirectChainSharesTheDeadline|redirectChainTimesOut)' "each hop of a redirect chain gets the whole timeout, so a chain outlasts it"
    mutation retry-hop-timeout Sources/PluginHost/Loading/HostServices+Retries.swift '            hopTimeout = deadline - clock.now' '            hopTimeout = timeout' 'HostServicesPolicyTests/retriesShareTheDeadline' "each retry gets the whole timeout, so retries outlast it"
    mutation file-root-boundary Sources/PluginHost/Networking/FileNetworking.swift 'path.utf8.starts(with: (root + "/").utf8)' 'path.utf8.starts(with: root.utf8)' 'FileNetworkingTests' "a file read may go to a sibling of its root (/srv/prices-secret for /srv/prices)"
    mutation file-resolve-beneath Sources/CFileBeneath/file_beneath.c 'how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;' 'how.resolve = RESOLVE_NO_MAGICLINKS;' 'FileNetworkingTests' "file reads follow '..' and symlinks out of their root"
    area https "HTTPS and proxies"
    mutation tls-no-verification Sources/HostHTTP/HTTPClients.swift 'var tls = TLSConfiguration.makeClientConfiguration()' 'var tls = TLSConfiguration.makeClientConfiguration(); tls.certificateVerification = .none' 'NetworkEndToEndTests/untrusted' "an HTTPS server's certificate is not verified"
    mutation tls-no-hostname Sources/HostHTTP/HTTPClients.swift 'var tls = TLSConfiguration.makeClientConfiguration()' 'var tls = TLSConfiguration.makeClientConfiguration(); tls.certificateVerification = .noHostnameVerification' 'NetworkEndToEndTests/wrongName' "an HTTPS certificate for another name is accepted"
    mutation proxy-password-shown Sources/PluginHost/Networking/ProxyServer.swift 'guard let at = text.lastIndex(of: "@") else { return text }' 'guard let at = text.lastIndex(of: "@"), at < text.startIndex else { return text }' 'NetworkEndToEndTests/badProxy|NetworkSettingsTests' "a proxy URL's password is printed in error lines"
    area container "The container's scopes"
    mutation scope-singleton Sources/Patchbay/Resolution/Container+Engine.swift 'registration.state.store(Registration.ready, ordering: .releasing)' 'registration.state.store(Registration.empty, ordering: .releasing)' 'ContainerTests/Scopes' "a singleton is made again on every resolve"
    mutation scope-graph Sources/Patchbay/Resolution/Container+Engine.swift 'state.pointee.depth > 1 || registration.completion != nil' 'state.pointee.depth > 1 && registration.completion != nil' 'ContainerTests/Scopes' "a graph-scope instance is not shared within a resolve"
    mutation scope-shared Sources/Patchbay/Resolution/Container+Engine.swift 'registration.holdWeakly(object)' '_ = object' 'ContainerTests/WeakStorage' "a shared-scope instance is not shared while someone holds it"
    mutation scope-circularity Sources/Patchbay/Resolution/ResolutionState.swift 'if path[index].toOpaque() == entry.toOpaque() {' 'if path[index].toOpaque() == entry.toOpaque() && index < 0 {' 'ContainerTests/Circularity' "a dependency cycle is not detected (it runs to the depth limit)"
    mutation reentry-any-completion Sources/Patchbay/Resolution/ResolutionState.swift 'guard completing > index + 1, registration.scope.kind != .unique else {' 'guard completing > 0, registration.scope.kind != .unique else {' 'ContainerTests/Completions|ContainerTests/CompletionShapes' "a factory is re-entered from a completion that began before its latest run, so a loop of initializers is not thrown at once"
    mutation reentry-first-run Sources/Patchbay/Resolution/ResolutionState.swift 'try reenter(registration, at: index)' 'try reenter(registration, at: 0)' 'ContainerTests/CompletionShapes' "a re-entry is checked against a factory's first run, not its latest: a loop of initializers below a completion runs to the depth limit"
    mutation lazy-forgets-graph Sources/Patchbay/OnDemand/Lazy.swift 'graph = resolution.pointee.depth > 0 ? resolution.pointee.currentObjectGraph() : nil' 'graph = resolution.pointee.depth < 0 ? resolution.pointee.currentObjectGraph() : nil' 'ContainerTests/LazyGraph' "a Lazy forgets the graph it was made in, and builds a second instance of a graph-scope service"
    mutation any-registration-any-name Sources/Patchbay/Container/Container+Introspection.swift 'hasRegistration(ObjectIdentifier(serviceType)) { $0.name == name }' 'hasRegistration(ObjectIdentifier(serviceType)) { _ in true }' 'ContainerTests/AnyRegistration' "hasAnyRegistration(_:name:) matches any name, unlike Swinject's"
    mutation reset-reach Sources/Patchbay/Container/Container.swift 'container = includingParents ? current.parent : nil' 'container = current.parent' 'ContainerTests/ParentChild' "a child's reset(_:includingParents: false) drops its parents' instances too"
    mutation all-stale Sources/Patchbay/OnDemand/RegistrationList.swift 'current.registry.generation.load(ordering: .acquiring) == generations[index]' 'current.registry.generation.load(ordering: .acquiring) != UInt.max' 'ContainerTests/Collections' "All lists what was registered when it was first resolved, missing later registrations"
    mutation on-demand-first Sources/Patchbay/Container/Container+Resolution.swift 'guard let found = locate(key) ?? locateOnDemand(key) else {' 'guard let found = locateOnDemand(key) ?? locate(key) else {' 'ContainerTests/LazyAndProvider' "a cached maker of Lazy or Provider shadows a registration of it made later"
    mutation main-actor-off-main Sources/Patchbay/MainActor/MainActorCheck.swift 'guard pb_is_current_executor(mainActor.0, mainActor.1) else {' 'guard pb_is_current_executor(mainActor.0, mainActor.1) || true else {' 'MainActorRegistrationTests' "a main-actor service is built off the main actor instead of the resolve throwing"
    mutation implements-keeps-name Sources/Patchbay/Registration/RegistrationOptions.swift 'service: ObjectIdentifier(type), arguments: key.arguments, name: name)' 'service: ObjectIdentifier(type), arguments: key.arguments, name: key.name)' 'PortingTableTests' "implements(_:) forwards under the registration's name, where Swinject forwards unnamed"
    mutation reset-singleton-noop Sources/Patchbay/Container/Container.swift 'if scope.kind == .singleton {' 'if scope.kind == .singleton && false {' 'PortingTableTests|ContainerTests/Scopes' "reset(.singleton, …), the port of Swinject's resetObjectScope(.container), keeps the old singletons"
    area amounts "Exact amounts"
    mutation decimal-through-double Sources/PriceKit/DecimalAmount.swift 'self.text = text' 'self.text = Double(text).map { "\($0)" } ?? text' 'DecimalAmountTests|CoinbaseSpotFetcherTests' "an amount goes through Double and loses digits"
    mutation decimal-json-number Sources/PriceKit/DecimalAmount+Codable.swift 'text = try container.decode(String.self)' 'text = try (try? container.decode(String.self)) ?? String(container.decode(Double.self))' 'DecimalAmountTests|CoinbaseSpotFetcherErrorTests' "an amount sent as a JSON number is accepted through Double"
    mutation decimal-fraction Sources/PriceKit/DecimalAmount.swift 'return !fraction.isEmpty && fraction.allSatisfy(isDigit)' 'return !fraction.isEmpty' 'DecimalAmountTests' "an amount's fraction may hold any character (1.5e3)"
    mutation coinbase-quote-currency Sources/PriceKit/Coinbase/CoinbaseSpotFetcher.swift 'guard [quote.base.uppercased(), quote.currency.uppercased()] == requested else {' 'guard quote.base.uppercased() == requested[0] else {' 'CoinbaseSpotFetcherErrorTests/aQuoteForAnotherPairIsRejected' "Coinbase's quote currency is not compared with the one asked for"
    mutation coinbase-quote-base Sources/PriceKit/Coinbase/CoinbaseSpotFetcher.swift 'guard [quote.base.uppercased(), quote.currency.uppercased()] == requested else {' 'guard quote.currency.uppercased() == requested[1] else {' 'CoinbaseSpotFetcherErrorTests/aQuoteForAnotherPairIsRejected' "Coinbase's quote asset is not compared with the one asked for"
    area sources "Several sources per symbol"
    mutation consensus-median Sources/PluginHost/Fetching/Consensus.swift 'median = (values[middle - 1].value + values[middle].value).halved()' 'median = values[middle].value' 'ConsensusTests' "an even count's median is the upper middle amount, not the mean of the two"
    mutation consensus-rounded-limit Sources/PluginHost/Fetching/ExactDecimal.swift 'return divisor.isNegative ? left < right : left > right' 'return (percentage(of: divisor, decimals: 2) ?? .zero) > percent' 'ConsensusTests' "--max-spread compares the rounded spread, so a spread under 0.005 % passes a limit of 0"
    mutation base-shared Sources/PluginHost/Loading/HostServices.swift 'var granted = prefix.map { [$0] } ?? []' 'var granted = (prefix.map { [$0] } ?? []) + apiBases.byPlugin.values.compactMap { try? URLPrefix($0) }' 'APIBaseEndToEndTests/basesAreSeparate' "one plugin's API base lets every plugin fetch there"
    mutation base-declared-unvouched Sources/PluginHost/Loading/HostServices.swift 'if base.origin == .declared, !vouched, let prefix,' 'if base.origin == .declared, vouched == !vouched, let prefix,' 'APIBaseEndToEndTests/declaredBase' "a plugin nobody vouched for fetches under the base it declares itself"
    mutation grant-digest Sources/PluginHost/Loading/HostServices.swift 'if claim.digest == claim.grant.sha256, let grantPrefix' 'if let grantPrefix' 'NetworkGrantEndToEndTests/allowThenDisallowThenChange' "a plugin file that changed after host allow keeps its network grant"
    mutation grant-base-prefix Sources/PluginHost/Loading/HostServices.swift '!(networkGrant?.admits(prefix.url) ?? false)' 'networkGrant == nil' 'NetworkGrantEndToEndTests/grantOfAnotherURL' "host allow --url URL also lets the plugin fetch under the base it declares"
    mutation grant-declared-reach Sources/PluginHost/Trust/Host+Allowing.swift 'if let reach = (try? StrictURL(granted))?.reachUnasked {' 'if let reach = Optional<String>.none {' 'NetworkGrantEndToEndTests/declaredBaseBeyondTheNetwork' "host allow grants a stranger the file:/// or link-local base it declares, unasked"
    mutation grant-link-local-decimal Sources/PluginHost/Networking/StrictURL+Reach.swift 'guard inet_aton(host, &address) != 0 else' 'guard inet_pton(AF_INET, host, &address) == 1 else' 'NetworkGrantEndToEndTests/declaredBaseBeyondTheNetwork' "a link-local base written as one decimal number (2852039166) is not seen as link-local"
    mutation grant-file-only Sources/PluginHost/Trust/NetworkGrants.swift 'return grants[PluginLock.canonical(pluginPath)]' 'return grants.values.first' 'NetworkGrantEndToEndTests/allowThenDisallowThenChange' "host allow of one plugin file grants another file too"
    mutation fetcher-rank-bytes Sources/PluginBoundary/Services/FetcherRegistrations.swift 'let covered = size >= rankedFetcherSize' 'let covered = size >= minimumFetcherSize' 'FetcherRankReadingTests' "the host reads has_rank past the end of a fetcher whose struct_size covers rank but not has_rank"
    mutation fetcher-rank-size Sources/PluginABI/include/patchbay_plugin.h 'if (fetcher->struct_size < offsetof(pb_fetcher, has_rank) + sizeof(bool) || !fetcher->has_rank) return PB_RANK_SECONDARY;' 'if (!fetcher->has_rank) return PB_RANK_SECONDARY;' 'PluginRegistrationTests/headerRankRule' "the host reads a fetcher's rank past the end of an older plugin's struct"
    mutation failover-stops Sources/PluginHost/Fetching/Failover.swift 'outcomes[index] = .failed(error)' 'outcomes[index] = .failed(error); asked = sources.count' 'SourcesEndToEndTests/failover' "when the first source fails, no other is asked"
    mutation failover-whole-timeout Sources/PluginHost/Fetching/Failover.swift 'let budget = (index == 0 ? timeout : remaining) / left' 'let budget = (index == 0 ? timeout : remaining)' 'SourcesEndToEndTests/failover' "the first source may take the whole --timeout, leaving the next none"
    mutation hedge-never Sources/PluginHost/Fetching/Failover.swift 'if index == asked - 1, outcomes[index] == .abandoned { askNext() }' 'if index == asked - 1, outcomes[index] == .abandoned, hedge == nil { askNext() }' 'SourcesEndToEndTests/hedge' "--hedge never asks the next source while the first is slow"
    mutation consensus-vouched-only Sources/PluginHost/Fetching/EverySource.swift 'countUnvouched || (index < vouched.count && vouched[index])' 'countUnvouched || index < vouched.count' 'StrangerConsensusEndToEndTests/(strangersCannotMoveTheMedian|noVouchedSource)' "copies of a plugin nobody vouched for are counted in the --all-sources median and spread"
    mutation order-vouched-first Sources/PluginHost/Providers/SymbolProviders.swift '(provider.isVouched ? 1 << 33 : 1 << 32) + Int' '(1 << 32) + Int' 'SymbolProvidersTests' "a stranger is asked before a vouched plugin the user demoted below its rank"
    mutation share-vouched-only Sources/PluginHost/Fetching/Failover.swift 'vouched.indices[index...].count { vouched[$0] == vouched[index] }' 'vouched.indices[index...].count' 'FailoverShareTests|StrangerConsensusEndToEndTests/strangersCannotStarve' "strangers take equal shares of --timeout, starving a vouched source"
    mutation hedge-stranger-guard Sources/PluginHost/Fetching/Failover.swift 'if !vouched[asked], vouchedRunning > 0 { return }' 'if !vouched[asked], vouchedRunning > 0, hedge == nil { return }' 'StrangerConsensusEndToEndTests/hedgeWaitsForVouched' "--hedge starts a stranger while a vouched source is still running, so its instant answer wins"
    mutation caps-queue-user-fetches Sources/PluginHost/Allowance/FetchTurns.swift 'self.limit = max(limit, 1)' 'self.limit = max(limit, 1) * 1000' 'StrangerConsensusEndToEndTests/fiveHundredSymbols' "a fetch of 500 symbols runs every fetch at once, so the request and thread caps refuse the user's own work"
    mutation call-threads-reused Sources/PluginBoundary/Calls/PluginCallThread.swift 'if IdleCallThreads.shared.handOff(body) { return }' '_ = IdleCallThreads.shared' 'StrangerConsensusEndToEndTests/fiveHundredSymbols' "each plugin call starts a thread of its own, so a worker's PID namespace is used up after about 150 fetches and the rest fail"
    mutation bitstamp-pair Sources/PriceKit/Bitstamp/BitstampTickerFetcher.swift 'if let quoted = ticker.pair, quoted.uppercased() != pair {' 'if let quoted = ticker.pair, quoted.isEmpty {' 'BitstampTickerFetcherTests/otherPair' "Bitstamp's ticker of another pair is taken for the one asked"
    area strangers "Strangers never hold the user's work, and budgets across workers"
    mutation stranger-scans-beside-fetch Sources/PluginHost/ScanCache/PluginCatalog.swift 'if !rebuild, !strangers.isEmpty, knowsEverySymbolFetched(plan, scanned: outcomes) {' 'if !rebuild, !strangers.isEmpty, false, knowsEverySymbolFetched(plan, scanned: outcomes) {' 'StrangerScansEndToEndTests/hangingStrangersDoNotHoldAFetch' "a fetch of a bundled symbol waits on the scans of new files nobody vouched for"
    mutation stranger-scans-cut Sources/PluginHost/ScanCache/PluginCatalog.swift 'limit: ScanLimit(startBy: deadline, cutAt: deadline)' 'limit: ScanLimit(startBy: deadline, cutAt: nil)' 'StrangerScansEndToEndTests/hangingStrangersDoNotHoldAFetch' "strangers' scans beside a fetch outlive its --timeout, to their load timeout"
    mutation fetch-answer-before-scans Sources/HostCommand/Fetch.swift '        fflush(nil)' '        _ = 0' 'FetchBesideScansEndToEndTests/answerComesBeforeTheScansEnd' "a fetch's answer waits in its buffer until the strangers' scans beside it stop at --timeout"
    mutation background-name-theft Sources/PluginHost/ScanCache/PluginCatalog.swift 'Self.noteNameThefts(zip(candidates, scanned).map { ($0.path, $1) }, holders: holders, logger: logger, names: names)' '_ = holders' 'FetchBesideScansEndToEndTests/nameTheftSaidInTheRunThatFoundIt' "a stranger that takes a bundled plugin's name, found by a scan beside a fetch, is not said until the next run"
    mutation scan-written-as-finished Sources/PluginHost/ScanCache/ScanCacheWriter.swift '_ = write()' '_ = slots.withLock { $0.count }' 'StrangerScansEndToEndTests/interruptedScanKeepsProgress' "the scan cache is written only at the end: Ctrl-C loses every scan"
    mutation budget-concurrent-cap Sources/PluginHost/Support/AsyncSlots.swift 'guard state.inUse < capacity else {' 'guard state.inUse < capacity * 2 else {' 'AsyncSlotsTests|StrangerScansEndToEndTests/fiftyHeavyStrangersStayWithinTheBudget' "twice as many strangers' workers run at once as the memory budget allows"
    mutation budget-worker-limit Sources/PluginHost/Isolation/IsolatedPluginLoader.swift 'addressSpace: options.memoryBudget.perWorkerBytes)' 'addressSpace: nil)' 'StrangerScansEndToEndTests/workerLimitFollowsTheBudget' "a worker's address-space limit ignores the memory budget"
    mutation budget-stranger-stops Sources/PluginHost/Loading/OnDemandPlugin.swift 'guard oneShot, state.calls == 0, let worker = state.worker else { return nil }' 'guard oneShot, state.calls < 0, let worker = state.worker else { return nil }' 'StrangerScansEndToEndTests/fiftyHeavyStrangersStayWithinTheBudget' "a stranger's worker keeps its place to the end of the run, so strangers beyond the budget's places never load"
    mutation budget-cgroup-memory-controller Sources/PluginHost/Isolation/CgroupDelegation.swift 'guard let available = read(controllers), available.split(whereSeparator: \.isWhitespace).contains("memory") else {' 'guard let available = read(controllers) else {' 'CgroupDelegationTests' "a cgroup v2 subtree without the memory controller is taken for a delegated one, and the budget is kept by nothing the kernel enforces"
    mutation budget-cgroup-memory-max Sources/PluginHost/Isolation/CgroupDelegation.swift 'if let failed = Self.write("\(bytes)", to: run + "/memory.max") {' 'if let failed = Self.write("max", to: run + "/memory.max") {' 'CgroupDelegationTests' "the run's cgroup has no memory.max: workers in it may take any memory"
    mutation budget-cgroup-workers-admitted Sources/PluginHost/Isolation/WorkerSlots.swift 'let failed = group.admit(pid)' 'let failed = Optional<Int32>.none' 'CgroupDelegationTests/slotsDecideOnce' "workers are left outside the run's cgroup, so its memory.max holds none of them"
    mutation no-cache-concurrent Sources/PluginHost/Isolation/IsolatedPluginLoader.swift 'group.addTask { (index, await finish(path, started: await start(path, locks: locks))) }' 'let loaded = await finish(path, started: await start(path, locks: locks)); group.addTask { (index, loaded) }' 'StrangerScansEndToEndTests/noCacheLoadsConcurrently' "--no-cache loads the workers one after another: each hanging plugin adds its load timeout"
    area fuzz "Found by fuzzing (docs/FUZZING.md): each fix undone"
    mutation fuzz-elf-offset Sources/PluginBoundary/Image/ELFHeaderCheck.swift 'let programHeaders = Int(exactly: word64(header, 32))' 'let programHeaders = Optional(Int(word64(header, 32)))' 'BrokenPluginTests' "a program-header offset past Int64.max traps: a 74-byte file crashes list-plugins"
    mutation fuzz-lock-crlf Sources/PluginHost/Trust/PluginLock.swift 'for (index, bytes) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let rawLine = String(decoding: bytes, as: UTF8.self)' 'for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {' 'PluginLockTests' "a lock file with CRLF endings is one line and locks nothing"
    mutation fuzz-identity-overflow Sources/PluginHost/Files/FileIdentity.swift 'modifiedNanoseconds = Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)' 'modifiedNanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)' 'RegistryCacheTests/farFutureFile' "a plugin dated past 2262 crashes list-plugins"
    mutation fuzz-cache-combining-mark Sources/PluginHost/ScanCache/ScanCacheCodec.swift 'let value = String(Substring(field.utf8.dropFirst()))' 'let value = String(field.dropFirst())' 'RegistryCacheTests/combiningMarks' "a plugin version starting with a combining mark makes the scan cache unreadable"
    mutation fuzz-retry-after-year Sources/PluginHost/Networking/RetryAfter.swift 'fields[5] == "GMT", fields[3].utf8.count == 4,' 'fields[5] == "GMT",' 'NetworkSettingsTests/retryAfter' "a Retry-After with a long year crashes the host"
    mutation fuzz-url-percent-sign Sources/PluginHost/Networking/StrictURL.swift '                utf8[high...utf8.index(after: high)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
' '' 'FuzzCorpusReplayTests' "\"%+e\" in a URL is read as byte 0x0E where Foundation reads it as written (caught by the fuzz regression replay)"
    mutation fuzz-coinbase-case Sources/PriceKit/Coinbase/CoinbaseSpotFetcher.swift 'return Price(base: requested[0], currency: requested[1], amount: quote.amount)' 'return Price(base: quote.base, currency: quote.currency, amount: quote.amount)' 'CoinbaseSpotFetcherTests/acceptsAnswerCodesInAnotherCase' "a price in Coinbase's casing, which the host refuses"
    mutation fuzz-url-bracketed-name Sources/PluginHost/Networking/StrictURL.swift '&& Self.isIPv6Address(String(host.dropFirst().dropLast()))' '&& (Self.isIPv6Address(String(host.dropFirst().dropLast())) || true)' 'URLPolicyTests/malformed|FuzzCorpusReplayTests' "a bracketed host that is no IPv6 address ([c]) passes the policy, though Foundation reads it as the name c"
    area survivors "Survivors of an outside mutation pass (issue 36), each killed by a test of its class"
    mutation survivor-user-dir-bundled Sources/PluginHost/Loading/PluginDiscovery.swift 'pattern: .anySharedLibrary, isExplicit: false, origin: .user)' 'pattern: .anySharedLibrary, isExplicit: false, origin: .bundled)' 'VouchingEndToEndTests/(whereEachDirectoryRuns|originOfEachDirectory)' "every plugin in the user's data directory runs in-process, as if bundled"
    mutation survivor-system-dir-bundled Sources/PluginHost/Loading/PluginDiscovery.swift 'systemDirectories.map { Location(directory: $0, pattern: .anySharedLibrary, isExplicit: false, origin: .system) }' 'systemDirectories.map { Location(directory: $0, pattern: .anySharedLibrary, isExplicit: false, origin: .bundled) }' 'VouchingEndToEndTests/originOfEachDirectory' "every plugin in /usr/local/lib/patchbay/plugins runs in-process, as if bundled"
    mutation survivor-working-dir-bundled Sources/PluginHost/Loading/PluginDiscovery.swift 'pattern: .anySharedLibrary, isExplicit: false, origin: .workingDirectory)' 'pattern: .anySharedLibrary, isExplicit: false, origin: .bundled)' 'VouchingEndToEndTests/(whereEachDirectoryRuns|originOfEachDirectory)' "every plugin in ./plugins runs in-process, as if bundled"
    mutation survivor-flag-dir-bundled Sources/PluginHost/Loading/PluginDiscovery.swift 'locations = flags.map { Location(directory: $0, pattern: .anySharedLibrary, isExplicit: true, origin: .named) }' 'locations = flags.map { Location(directory: $0, pattern: .anySharedLibrary, isExplicit: true, origin: .bundled) }' 'VouchingEndToEndTests/(whereEachDirectoryRuns|originOfEachDirectory)' "every plugin in a --plugins-dir runs in-process, as if bundled"
    mutation survivor-environment-dir-bundled Sources/PluginHost/Loading/PluginDiscovery.swift 'locations = entries.map { Location(directory: String($0), pattern: .anySharedLibrary, isExplicit: true, origin: .named) }' 'locations = entries.map { Location(directory: String($0), pattern: .anySharedLibrary, isExplicit: true, origin: .bundled) }' 'VouchingEndToEndTests/(whereEachDirectoryRuns|originOfEachDirectory)' "every plugin in HOST_PLUGINS_DIR runs in-process, as if bundled"
    mutation survivor-seccomp-clone3 Sources/CWorkerSandbox/seccomp_filter.c 'FAIL(clone3, ENOSYS, ' 'ALLOW(clone3, ' 'SandboxEndToEndTests/seccompEntriesAlone' "clone3 is allowed: with its flags out of the filter's reach, a plugin forks"
    mutation survivor-seccomp-fchmod Sources/CWorkerSandbox/seccomp_filter.c 'ALLOW(dup, "stdio"),' 'ALLOW(fchmod, "mutant"), ALLOW(dup, "stdio"),' 'SandboxEndToEndTests/seccompEntriesAlone' "fchmod is allowed: a plugin changes the mode of what it holds open"
    mutation survivor-seccomp-mknodat Sources/CWorkerSandbox/seccomp_filter.c 'ALLOW(dup, "stdio"),' 'ALLOW(mknodat, "mutant"), ALLOW(dup, "stdio"),' 'SandboxEndToEndTests/seccompEntriesAlone' "mknodat is allowed: only Landlock stands between a plugin and a new file or device node"
    mutation survivor-landlock-execute Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 0);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves running files unhandled"
    mutation survivor-landlock-read-file Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 2);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves reading files unhandled"
    mutation survivor-landlock-read-dir Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 3);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves listing directories unhandled"
    mutation survivor-landlock-remove-dir Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 4);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves removing directories unhandled"
    mutation survivor-landlock-remove-file Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 5);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves removing files unhandled"
    mutation survivor-landlock-make-char Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 6);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves making character devices unhandled"
    mutation survivor-landlock-make-dir Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 7);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves making directories unhandled"
    mutation survivor-landlock-make-sock Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 9);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves making Unix sockets unhandled"
    mutation survivor-landlock-make-fifo Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 10);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves making named pipes unhandled"
    mutation survivor-landlock-make-block Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 11);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves making block devices unhandled"
    mutation survivor-landlock-make-sym Sources/CWorkerSandbox/worker_sandbox.c '    uint64_t rights = PB_LL_FS_ABI1;' '    uint64_t rights = PB_LL_FS_ABI1 & ~(1ull << 12);' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves making symlinks unhandled"
    mutation survivor-landlock-truncate Sources/CWorkerSandbox/worker_sandbox.c 'if (abi >= 3) rights |= PB_LL_FS_TRUNCATE;' '' 'SandboxEndToEndTests/everyLandlockRightAlone' "Landlock leaves truncating files unhandled"
    mutation survivor-parent-death-term Sources/CWorkerSandbox/worker_spawn.c 'PR_SET_PDEATHSIG, SIGKILL' 'PR_SET_PDEATHSIG, SIGTERM' 'SandboxEndToEndTests/workerThatIgnoresSIGTERMDiesWithTheHost' "the parent-death signal is SIGTERM, which a plugin ignores to outlive the host"
    mutation survivor-environment-name Sources/PluginHost/Isolation/WorkerEnvironment.swift '"LD_LIBRARY_PATH",' '"LD_LIBRARY_PATH", "HOME",' 'SandboxEndToEndTests/everyUnlistedNameStaysOut' "one more name of the host's environment (HOME) reaches the worker"
    mutation survivor-report-refused-cap Sources/PluginHost/Isolation/LoadReply+Checked.swift 'let refused = try refused.map { reason throws(PluginOutputRules.Violation) in try PluginOutputRules.text(reason, .error, limit: PluginOutputRules.Limit.error) }' 'let refused = refused' 'PluginOutputRulesTests/(reportTextAtItsCap|reportTextOnePastItsCap)' "a worker's reasons for refused registrations have no length cap"
    mutation survivor-report-last-error-cap Sources/PluginHost/Isolation/LoadReply+Checked.swift 'lastError: try lastError.map { text throws(PluginOutputRules.Violation) in try PluginOutputRules.text(text, .error, limit: PluginOutputRules.Limit.error) })' 'lastError: lastError)' 'PluginOutputRulesTests/(reportTextAtItsCap|reportTextOnePastItsCap)' "a worker's last error of a failed registration has no length cap"
    mutation survivor-report-image-error-cap Sources/PluginHost/Isolation/LoadReply+Checked.swift 'case .notALibrary(let reason): return .notALibrary(reason: try text(reason))' 'case .notALibrary(let reason): return .notALibrary(reason: reason)' 'PluginOutputRulesTests/(reportTextAtItsCap|reportTextOnePastItsCap)' "a worker's reason a file is no library has no length cap"
    mutation survivor-report-rule-cap Sources/PluginHost/Isolation/LoadReply+Checked.swift 'case .invalidDescriptor(let violation): return .invalidDescriptor(PluginOutputRules.Violation(field: violation.field, rule: try text(violation.rule)))' 'case .invalidDescriptor(let violation): return .invalidDescriptor(violation)' 'PluginOutputRulesTests/(reportTextAtItsCap|reportTextOnePastItsCap)' "a worker's rule a descriptor broke has no length cap"
    mutation survivor-unreadable-rule-cap Sources/PluginHost/Trust/PluginOutputRules+Quote.swift 'violation: Violation(field: violation.field, rule: echoed(violation.rule))' 'violation: violation' 'PluginOutputRulesTests/unreadableRuleIsCut' "the rule of an answer a worker reports as unreadable is repeated whole, up to a 16 MiB frame"
    mutation survivor-trust-store-owner-only Sources/PluginHost/Trust/TrustRules.swift 'guard let violation = violation(of: .notWritableByOthers, by: step.facts, for: subject) else { return nil }' 'if case .trustStore = guarded { return nil }; guard let violation = violation(of: .notWritableByOthers, by: step.facts, for: subject) else { return nil }' 'VouchingEndToEndTests/(trustStoreDirectoryModes|trustStoreAncestorModes)' "the trust store's directories are checked by owner only: one its group or others can write vouches"
    mutation survivor-walk-dot-dot Sources/PluginHost/Trust/PathWalk.swift 'currentFacts = try facts(of: current)
                continue' 'continue' 'TrustRulesTests/wayThroughDotDot' "a way through .. judges the next entry by the directory it left, not the one it came back to"
    mutation survivor-bundled-ancestors Sources/PluginHost/Trust/BundledLocation.swift 'if let violation = rules.violation(onTheWay: walk, to: guarded) { return violation }' '_ = walk' 'TrustRulesTests/bundledLocationAncestors' "the host's location vouches for bundled plugins under a directory others can write"
    mutation survivor-frame-list-whole-body Sources/WorkerProtocol/Frames/FrameReader.swift 'guard count <= remaining else { throw .undecodable(.truncated) }
        var items' 'guard count <= bytes.count else { throw .undecodable(.truncated) }
        var items' 'FrameCodecTests/listCountAgainstItsOwnBytes' "a list's count is weighed against the whole body, not the bytes after it"
    mutation survivor-answer-while-loading Sources/PluginHost/Isolation/WorkerConnection+StateMachine.swift 'case .starting, .confined, .loading:
                return violation("it answered fetch' 'case .loading: return .none
            case .starting, .confined:
                return violation("it answered fetch' 'WorkerConnectionStateMachineTests' "a fetch answer while the plugin is still loading is taken quietly, not refused"
    mutation survivor-unique-completion Sources/Patchbay/Resolution/Container+Engine.swift 'if registration.scope.kind != .unique {
            state.pointee.completing' 'if registration.scope.kind != .unique || true {
            state.pointee.completing' 'ContainerTests/UniqueCompletions' "a unique-scope completion lets a factory above it run again, which builds another and loops to the depth limit"
    mutation survivor-bracketed-ipv4 Sources/PluginHost/Networking/StrictURL.swift 'return inet_pton(AF_INET6, text, &address) == 1' 'return inet_pton(AF_INET6, text, &address) == 1 || inet_pton(AF_INET, text, &address) == 1' 'URLPolicyTests/bracketed' "a bracketed IPv4 address ([127.0.0.1]) is taken as a host"
    mutation survivor-cap-outstanding-off-by-one Sources/PluginHost/Allowance/PluginAllowance.swift 'if state.outstanding >= Limit.requestsOutstanding {' 'if state.outstanding > Limit.requestsOutstanding {' 'RequestCapsTests' "a plugin may have 9 requests waiting at once, one past the cap"
    mutation survivor-cap-per-fetch-off-by-one Sources/PluginHost/Allowance/PluginAllowance.swift '} else if state.requests >= Limit.requestsPerFetch * (state.fetches + 1) {' '} else if state.requests > Limit.requestsPerFetch * (state.fetches + 1) {' 'RequestCapsTests' "a plugin may make one request more than its fetches allow"
    mutation survivor-cap-log-lines-off-by-one Sources/PluginHost/Allowance/PluginAllowance.swift 'guard state.logLines < Limit.logLines else {' 'guard state.logLines <= Limit.logLines else {' 'RequestCapsTests' "a plugin may write 1,001 log lines, one past the cap"
    mutation survivor-cap-url-length-off-by-one Sources/PluginHost/Loading/HostServices.swift 'guard text.utf8.count <= URLPolicy.maximumLength else {' 'guard text.utf8.count < URLPolicy.maximumLength else {' 'HostServicesPolicyTests/urlLengthAtItsLimit' "a URL of exactly 8,192 bytes, the cap, is refused"
    mutation survivor-cap-echo-off-by-one Sources/PluginBoundary/Rules/PluginOutputRules.swift 'guard length > Limit.echo else { return text }' 'guard length >= Limit.echo else { return text }' 'RequestCapsTests/echoAtItsLimit' "a plugin's text of exactly 256 bytes, the cap, is cut in a host message"
    mutation survivor-lazy-current-graph Sources/Patchbay/OnDemand/Lazy.swift 'resolution.pointee.objectGraph?.toOpaque() == Unmanaged.passUnretained(graph).toOpaque()' 'resolution.pointee.objectGraph != nil' 'ContainerTests/(LazySeveralGraphs|LazyGraph)' "a Lazy read inside another resolution resolves in that resolution's graph, not the one it was made in"
    mutation survivor-failover-last-share Sources/PluginHost/Fetching/Failover.swift 'let budget = (index == 0 ? timeout : remaining) / left' 'let budget = (index == 0 ? timeout : remaining) / (left == 1 && index > 0 ? 2 : left)' 'SourcesEndToEndTests/timeShareFromEveryPosition' "the last source gets half the time left, not all of it"
    mutation survivor-hedge-first-only Sources/PluginHost/Fetching/Failover.swift 'if index == asked - 1, outcomes[index] == .abandoned { askNext() }' 'if index == 0, index == asked - 1, outcomes[index] == .abandoned { askNext() }' 'SourcesEndToEndTests/hedgeFromEveryPosition' "only the first source is hedged: a slow second source is waited for to its end"
    mutation survivor-no-cache-grouping Sources/PluginHost/Host.swift 'while end < candidates.count, placements[end].place == placements[start].place { end += 1 }' 'while end < candidates.count, placements[end].place != placements[start].place { end += 1 }' 'VouchingEndToEndTests/strangerAfterBundledWithoutCache' "with --no-cache, a plugin in ./plugins is loaded in-process with the bundled plugins before it"
    mutation survivor-shared-user-namespace Sources/CWorkerSandbox/worker_spawn.c 'int error = run_shared_child(&state, CLONE_NEWUSER | CLONE_NEWNET);' 'int error = run_shared_child(&state, CLONE_NEWNET);' 'SharedNamespacesTests' "the workers' network namespace is made in the host's user namespace: only root's workers get one"
    mutation survivor-allowance-fetch-counted Sources/PluginHost/Allowance/PluginAllowance.swift 'state.withLock { $0.fetches += 1 }' 'state.withLock { $0.fetches += 0 }' 'RequestCapsTests/perFetchAtItsLimit' "a fetch the host asks for earns a plugin no requests: it is refused after its first 16 in a run"
    mutation survivor-seccomp-ioctl-request Sources/CWorkerSandbox/seccomp_filter.c 'IF_EQUALS(1, TCGETS, FAILS(ENOTTY))' 'IF_EQUALS(0, TCGETS, FAILS(ENOTTY))' 'SandboxEndToEndTests/ioctlRequestsAlone' "the ioctl rule reads the descriptor, not the request: isatty is refused, not answered ENOTTY"
    mutation survivor-allowlist-empty Sources/PluginHost/Trust/Host+Locking.swift 'guard !lines.isEmpty else { return }' 'if false { return }' 'LockFileEndToEndTests/nothingToLockWritesNothing' "lock-plugins --allowlist with nothing to lock writes an empty allowlist, which refuses every plugin"
    mutation survivor-elf-read-at-zero Sources/PluginBoundary/Image/ELFHeaderCheck.swift 'guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }' 'guard offset > 0, count >= 0, offset <= size, count <= size - offset else { return nil }' 'PluginLoaderTests|BrokenPluginTests' "the ELF header at offset 0 cannot be read: every plugin is refused as too short"
    mutation survivor-root-path-slashes Sources/CWorkerSandbox/worker_spawn.c "while (*path == '/' && path[1] == '/') path++;" "while (*path == '/' || path[1] == '/') path++;" 'SandboxRootEndToEndTests/learnsNothing' "every path of a worker's own root loses its leading /: the root is refused, and the worker sees the host's files"
    mutation survivor-entry-index-fast-path Sources/PluginHost/ScanCache/PluginCatalog.swift 'if next < entries.count, entries[next].path == path {' 'if next < entries.count, entries[next].path != path {' 'RegistryCacheEndToEndTests/removedAndAddedFiles' "after a file is removed, the next file is matched with the removed one's cache entry and scanned again"
    mutation survivor-all-sources-timeout-share Sources/PluginHost/Fetching/EverySource.swift 'group.addTask { [currency, timeout] in (index, await source.price(in: currency, timeout: timeout)) }' 'group.addTask { [currency, timeout, count = sources.count] in (index, await source.price(in: currency, timeout: timeout / count)) }' 'SourcesEndToEndTests/allSourcesGetTheWholeTimeout' "--all-sources splits --timeout among the sources it asks at once"
}

# ---------------------------------------------------------------------------

test_timeout=300   # seconds for one mutant's test run; longer counts as killed
suite_timeout=1800 # seconds for one run of the whole suite (--suite)
build_timeout=1800 # seconds for one build
restore_dir=.build/mutate-restore
table=docs/PROTECTIVE_CHECKS.md

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

mode=all only="" area_wanted="" rotate="" suite=0 diff_base="" sample=0 seed=0 minutes=""
while [ $# -gt 0 ]; do
    case $1 in
        --list) mode=list ;;
        --table) mode=table ;;
        --check) mode=check ;;
        --suite) suite=1 ;;
        --rotate)
            rotate=6
            if [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]]; then rotate=$2; shift; fi ;;
        --rotate=*) rotate=${1#--rotate=} ;;
        --only) [ $# -ge 2 ] || { echo "mutate: --only needs IDs, e.g. --only descriptor-size,scope-shared" >&2; exit 64; }
                only=$2; shift ;;
        --only=*) only=${1#--only=} ;;
        --area) [ $# -ge 2 ] || { echo "mutate: --area needs a name; --list shows them" >&2; exit 64; }
                area_wanted=$2; shift ;;
        --area=*) area_wanted=${1#--area=} ;;
        --diff) [ $# -ge 2 ] || { echo "mutate: --diff needs a commit, e.g. --diff HEAD~1" >&2; exit 64; }
                diff_base=$2; shift ;;
        --diff=*) diff_base=${1#--diff=} ;;
        --sample) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "mutate: --sample takes a whole number of mutants, e.g. --sample 20" >&2; exit 64; }
                sample=$2; shift ;;
        --seed) [ $# -ge 2 ] || { echo "mutate: --seed needs a value" >&2; exit 64; }
                seed=$2; shift ;;
        --minutes) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "mutate: --minutes takes a whole number, e.g. --minutes 10" >&2; exit 64; }
                minutes=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "mutate: unknown argument '$1'; see --help" >&2; exit 64 ;;
    esac
    shift
done
if [ -n "$rotate" ] && ! [[ $rotate =~ ^[1-9][0-9]*$ ]]; then
    echo "mutate: --rotate takes a whole number of mutations, e.g. --rotate 6" >&2; exit 64
fi

if [ -n "$diff_base" ] && { [ "$mode" != all ] || [ -n "$only$area_wanted$rotate" ]; }; then
    echo "mutate: --diff goes with --sample, --seed, --minutes and --suite only" >&2; exit 64
fi
if [ -z "$diff_base" ] && [ "$sample$seed" != 00 -o -n "$minutes" ]; then
    echo "mutate: --sample, --seed and --minutes go with --diff" >&2; exit 64
fi

# Collect the list into parallel arrays. A generated mutant (--diff) has its
# mutated file in mutants_dir, and where it is (file:line operator) in wheres.
ids=() areas=() titles=() files=() patterns=() replacements=() filters=() descriptions=()
wheres=() equivalents=()
current_area="" current_title=""
area() { current_area=$1 current_title=$2; }
mutation() {
    ids+=("$1") areas+=("$current_area") titles+=("$current_title") files+=("$2") patterns+=("$3") replacements+=("$4") filters+=("$5") descriptions+=("$6")
}
list
mutants_dir=.build/mutants
if [ -n "$diff_base" ]; then
    ids=() files=() filters=() descriptions=()
    rm -rf "$mutants_dir"
    generated=$(python3 scripts/mutants.py list --diff "$diff_base" --sample "$sample" --seed "$seed" --out "$mutants_dir") || exit $?
    while IFS=$'\t' read -r m_id m_file m_line m_operator m_filter m_reason m_description; do
        ids+=("$m_id") files+=("$m_file") filters+=("$m_filter") descriptions+=("$m_description")
        wheres+=("$m_file:$m_line $m_operator") equivalents+=("$m_reason")
    done <<<"$generated"
    [ -n "$generated" ] || ids=()
    if [ ${#ids[@]} = 0 ]; then echo "mutate: no mutant on the lines of Sources/ changed since $diff_base"; exit 0; fi
fi

if [ "$mode" = table ]; then
    # The table's text up to its first section, then one section per run of
    # rows of an area, one row per mutation.
    [ -f "$table" ] || { echo "mutate: $table is missing" >&2; exit 1; }
    head=$(sed '/^## /,$d' "$table")
    {
        printf '%s\n' "$head"
        previous=""
        for i in "${!ids[@]}"; do
            if [ "${areas[$i]}:${titles[$i]}" != "$previous" ]; then
                previous="${areas[$i]}:${titles[$i]}"
                printf '\n## %s\n\n`scripts/mutate.sh --area %s`\n\n' "${titles[$i]}" "${areas[$i]}"
                printf '| Without the check | Tests that fail | File | Mutation |\n|---|---|---|---|\n'
            fi
            description=${descriptions[$i]}
            tests=${filters[$i]//|/\\|}
            printf '| %s | `%s` | `%s` | `%s` |\n' "${description^}" "$tests" "${files[$i]#Sources/}" "${ids[$i]}"
        done
    } >"$table.new"
    mv "$table.new" "$table"
    echo "mutate: wrote ${#ids[@]} rows to $table"
    exit 0
fi

if [ "$mode" = list ]; then
    for i in "${!ids[@]}"; do
        printf '%-30s [%s] %s\n    %s\n    filter: %s\n' "${ids[$i]}" "${areas[$i]}" "${descriptions[$i]}" "${files[$i]}" "${filters[$i]}"
    done
    exit 0
fi

selected=()
if [ -n "$diff_base" ]; then
    selected=("${!ids[@]}")
elif [ -n "$only" ]; then
    IFS=, read -r -a wanted <<<"$only"
    for id in "${wanted[@]}"; do
        found=""
        for i in "${!ids[@]}"; do [ "${ids[$i]}" = "$id" ] && found=$i; done
        [ -n "$found" ] || { echo "mutate: no mutation named '$id'; see --list" >&2; exit 64; }
        selected+=("$found")
    done
elif [ -n "$area_wanted" ]; then
    for i in "${!ids[@]}"; do [ "${areas[$i]}" = "$area_wanted" ] && selected+=("$i"); done
    [ ${#selected[@]} -gt 0 ] || { echo "mutate: no area named '$area_wanted'; see --list" >&2; exit 64; }
elif [ -n "$rotate" ]; then
    slices=$(( (${#ids[@]} + rotate - 1) / rotate ))
    if [ -n "${ROTATE_SLICE:-}" ]; then
        slice=$ROTATE_SLICE
    elif commits=$(git rev-list --count HEAD 2>/dev/null); then
        slice=$commits
    else
        # No history (an exported tree): the commit id, if any, else slice 0.
        slice=$(( 0x$(git rev-parse --short=8 HEAD 2>/dev/null || echo 0) ))
    fi
    [[ $slice =~ ^[0-9]+$ ]] || { echo "mutate: ROTATE_SLICE must be a whole number" >&2; exit 64; }
    slice=$(( slice % slices ))
    for i in "${!ids[@]}"; do [ $(( i % slices )) = "$slice" ] && selected+=("$i"); done
    names=""
    for i in "${selected[@]}"; do names+="${names:+,}${ids[$i]}"; done
    echo "mutate: slice $slice of $slices (ROTATE_SLICE=$slice scripts/mutate.sh --rotate $rotate runs it again): $names"
else
    selected=("${!ids[@]}")
fi

# Literal text replacement (no regular expressions) of FILE into OUTPUT:
# exits 3 unless the pattern occurs exactly once. Perl, because Debian
# always has it.
replace_once() {
    perl -e '
        my ($file, $pattern, $replacement, $output) = @ARGV;
        open(my $in, "<", $file) or die "mutate: cannot read $file: $!\n";
        my $text = do { local $/; <$in> };
        close $in;
        my ($count, $at) = (0, -1);
        for (my $i = index($text, $pattern); $i >= 0; $i = index($text, $pattern, $i + 1)) {
            $at = $i if $count == 0;
            $count++;
        }
        exit 3 unless $count == 1;
        substr($text, $at, length($pattern)) = $replacement;
        open(my $out, ">", $output) or die "mutate: cannot write $output: $!\n";
        print $out $text;
        close $out or die "mutate: cannot write $output: $!\n";
    ' "$@"
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

# How often the literal PATTERN occurs in FILE.
occurrences() {
    perl -e '
        my ($file, $pattern) = @ARGV;
        open(my $in, "<", $file) or do { print "0\n"; exit 0 };
        my $text = do { local $/; <$in> };
        my $count = 0;
        for (my $i = index($text, $pattern); $i >= 0; $i = index($text, $pattern, $i + 1)) { $count++ }
        print "$count\n";
    ' "$@"
}

# A run killed by SIGKILL left a mutated file behind: put it back if it still
# holds the mutation; never overwrite edits made since.
if [ -f "$restore_dir/path" ]; then
    left_file=$(cat "$restore_dir/path")
    left_sum=$(sha "$left_file" 2>/dev/null || true)
    if [ "$left_sum" = "$(sha "$restore_dir/original")" ]; then
        rm -rf "$restore_dir"
    elif [ -f "$restore_dir/mutated-sum" ] && [ "$left_sum" = "$(cat "$restore_dir/mutated-sum")" ]; then
        cp -p "$restore_dir/original" "$left_file"
        rm -rf "$restore_dir"
        echo "mutate: restored $left_file, which an earlier run left mutated"
    else
        echo "mutate: $restore_dir holds the original of $left_file from an interrupted run, but the file has changed since; compare and delete $restore_dir" >&2
        exit 2
    fi
fi

if [ "$mode" = check ]; then
    # The ledger of equivalent generated mutants: every row still names one.
    python3 scripts/mutants.py check || ledger_stale=1
    stale=0
    for i in "${selected[@]}"; do
        count=$(occurrences "${files[$i]}" "${patterns[$i]}")
        if [ "$count" != 1 ]; then
            printf 'STALE     %-30s the pattern occurs %s times in %s\n' "${ids[$i]}" "$count" "${files[$i]}"
            stale=$((stale + 1))
        fi
    done
    # The table and the list name the same ids: every mutation is a row's,
    # and every id a row names is a mutation here.
    unlisted=0
    if [ -f "$table" ]; then
        cited=$(grep -o '`[a-z0-9][a-z0-9-]*`' "$table" | tr -d '`' | sort -u)
        for i in "${!ids[@]}"; do
            if ! grep -qxF "${ids[$i]}" <<<"$cited"; then
                printf 'UNLISTED  %-30s no row of %s names it\n' "${ids[$i]}" "$table"
                unlisted=$((unlisted + 1))
            fi
        done
        known=$(printf '%s\n' "${ids[@]}")
        while read -r id; do
            [ -n "$id" ] || continue
            # Only words that look like ids in the Mutations column are ids.
            if grep -q -- "| \`$id\`\|, \`$id\`" "$table" && ! grep -qxF "$id" <<<"$known"; then
                printf 'UNKNOWN   %-30s %s names it, but there is no such mutation\n' "$id" "$table"
                unlisted=$((unlisted + 1))
            fi
        done <<<"$cited"
    else
        echo "mutate: $table is missing" >&2
        unlisted=1
    fi
    echo "${#selected[@]} checked, $stale stale, $unlisted not matching the table"
    [ "$stale" = 0 ] && [ "$unlisted" = 0 ] && [ -z "${ledger_stale:-}" ]
    exit
fi

# The file being mutated, its copy and checksums; empty when none is.
current_file="" current_sum=""
child=""

# Puts the current file back as it was, and checks its bytes.
restore() {
    [ -n "$current_file" ] || return 0
    cp -p "$restore_dir/original" "$current_file"
    if [ "$(sha "$current_file")" != "$current_sum" ]; then
        echo "mutate: could not restore $current_file; its original is in $restore_dir/original" >&2
        return 1
    fi
    rm -rf "$restore_dir"
    current_file=""
}

on_signal() {
    local status=$1
    trap - INT TERM HUP
    if [ -n "$child" ]; then
        kill -TERM "$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    fi
    restore || true
    echo "mutate: interrupted; the tree is as it was" >&2
    exit "$status"
}
trap 'restore || true' EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
trap 'on_signal 129' HUP

# Runs a command in the background and waits, so that a signal is handled at
# once rather than when a 5-minute test run ends. `timeout` puts the command
# in a process group of its own and kills all of it.
run() {
    local seconds=$1 log=$2 status=0
    shift 2
    timeout --kill-after=10 "$seconds" "$@" >"$log" 2>&1 &
    child=$!
    wait "$child" || status=$?
    child=""
    return "$status"
}

logs=$(mktemp -d "${TMPDIR:-/tmp}/mutate.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "mutate: keeping the build and test logs in $logs"
else
    trap 'restore || true; rm -rf "$logs"' EXIT
fi

echo "mutate: building the unmutated tree"
if ! run "$build_timeout" "$logs/build.log" swift build --build-tests; then
    tail -n 30 "$logs/build.log" >&2
    echo "mutate: the unmutated tree does not build; fix that first" >&2
    exit 2
fi

killed=0 survived=0 stale=0 equivalent=0 by_compiler=0 ran=0 skipped=0
run_started=$SECONDS
for i in "${selected[@]}"; do
    id=${ids[$i]} file=${files[$i]} description=${descriptions[$i]}
    started=$SECONDS
    verdict="" note=""
    if [ -n "$diff_base" ]; then
        if [ "${equivalents[$i]}" != - ]; then
            equivalent=$((equivalent + 1))
            printf '%-10s  %s  %s  %s — %s\n' EQUIVALENT "$id" "${wheres[$i]}" "$description" "${equivalents[$i]}"
            continue
        fi
        if [ -n "$minutes" ] && [ $((SECONDS - run_started)) -ge $((minutes * 60)) ]; then
            skipped=$((skipped + 1))
            continue
        fi
    fi

    mkdir -p "$restore_dir"
    cp -p "$file" "$restore_dir/original"
    current_sum=$(sha "$file")
    printf '%s\n' "$file" >"$restore_dir/path"
    current_file=$file
    status=0
    if [ -n "$diff_base" ]; then
        # The generator's whole mutated file, if the file is still the one it read.
        if [ "$(sha "$file")" = "$(cat "$mutants_dir/$id.sha256")" ]; then
            cp "$mutants_dir/$id" "$restore_dir/mutated"
        else
            status=3
        fi
    else
        replace_once "$file" "${patterns[$i]}" "${replacements[$i]}" "$restore_dir/mutated" || status=$?
    fi
    if [ "$status" = 0 ]; then
        # Recorded before the file changes, so that a run killed at any point
        # can be undone by the next.
        sha "$restore_dir/mutated" >"$restore_dir/mutated-sum"
        cat "$restore_dir/mutated" >"$file"
    fi
    if [ "$status" = 3 ]; then
        verdict=STALE note=" — the pattern is not in $file exactly once"
    elif [ "$status" != 0 ]; then
        restore
        echo "mutate: could not apply $id to $file" >&2
        exit 2
    else
        if ! run "$build_timeout" "$logs/$id.build.log" swift build --build-tests; then
            verdict=KILLED note=" — by a compile error"
            by_compiler=$((by_compiler + 1))
        else
            status=0
            if [ "$suite" = 1 ]; then
                run "$suite_timeout" "$logs/$id.test.log" swift test --skip-build || status=$?
            else
                run "$test_timeout" "$logs/$id.test.log" swift test --skip-build --filter "${filters[$i]}" || status=$?
            fi
            if [ "$status" = 124 ] || [ "$status" = 137 ]; then
                verdict=KILLED note=" — the tests timed out"
            elif [ "$status" != 0 ]; then
                verdict=KILLED
                # Where the failing expectations are, to tell which tests killed it.
                where=$(grep -oE 'recorded an issue at [A-Za-z0-9_.+]+\.swift:[0-9]+' "$logs/$id.test.log" | sed 's/recorded an issue at //' | sort -u | head -4 | paste -sd' ' || true)
                [ -z "$where" ] || note=" — $where"
            elif ! grep -Eq 'Test run with [1-9][0-9]* tests?' "$logs/$id.test.log"; then
                verdict=STALE note=" — the filter '${filters[$i]}' runs no test"
            else
                verdict=SURVIVED
            fi
        fi
    fi
    restore
    ran=$((ran + 1))
    case $verdict in
        KILLED) killed=$((killed + 1)) ;;
        SURVIVED) survived=$((survived + 1)) ;;
        STALE) stale=$((stale + 1)) ;;
    esac
    if [ -n "$diff_base" ]; then
        printf '%-10s  %s  %s  (%d s)  %s%s\n' "$verdict" "$id" "${wheres[$i]}" $((SECONDS - started)) "$description" "$note"
    else
        printf '%-8s  %-30s (%4d s)  %s%s\n' "$verdict" "$id" $((SECONDS - started)) "$description" "$note"
    fi
done

# Leave .build as it was: built from the unmutated tree.
if ! run "$build_timeout" "$logs/build.log" swift build --build-tests; then
    tail -n 30 "$logs/build.log" >&2
    echo "mutate: the restored tree failed to build" >&2
    exit 2
fi

if [ -n "$diff_base" ]; then
    elapsed=$((SECONDS - run_started))
    rate=$(awk -v n="$ran" -v s="$elapsed" 'BEGIN { printf "%.2f", (s > 0) ? n * 60 / s : 0 }')
    echo "${#ids[@]} mutants: $killed killed ($by_compiler by a compile error), $survived survived, $equivalent equivalent, $stale stale, $skipped not run (--minutes); $ran run in $((elapsed / 60)) min $((elapsed % 60)) s, $rate a minute"
    [ "$survived" = 0 ] && [ "$stale" = 0 ]
    exit
fi
echo "$killed killed, $survived survived, $stale stale"
[ "$survived" = 0 ] && [ "$stale" = 0 ]
