import Logging
import Synchronization

/// Writes the scan cache as a run's scans finish, one complete file per
/// result (``ScanCacheStore/write(_:)`` renames it into place), so a run
/// stopped at any moment, by Ctrl-C or a kill, keeps every scan it finished
/// and the next run scans only the rest.
///
/// It holds one slot per plugin file of the run, in search order: the
/// cache's entry when one describes the file, nil while it is not scanned.
final class ScanCacheWriter: Sendable {
    /// One file's entry, and its line as the old cache had it.
    struct Slot: Sendable {
        var entry: ScanCache.Entry
        var line: ArraySlice<UInt8>?
    }

    private let store: ScanCacheStore
    private let searchPath: [String]
    private let logger: Logger
    private let slots: Mutex<[Slot?]>
    /// Set by the first failed write: one warning per run.
    private let warned = OnceFlag()

    /// A writer for `slots`, the run's files in search order.
    init(store: ScanCacheStore, searchPath: [String], slots: [Slot?], logger: Logger) {
        self.store = store
        self.searchPath = searchPath
        self.slots = Mutex(slots)
        self.logger = logger
    }

    /// Records a scan's entry for the file at `index`, and writes the cache.
    func record(_ entry: ScanCache.Entry, at index: Int) {
        slots.withLock { $0[index] = Slot(entry: entry, line: nil) }
        _ = write()
        logger.debug("\(entry.path): scanned, written to the plugin cache \(store.path)")
    }

    /// Writes the cache with every slot filled so far.
    /// - Returns: Why it could not be written, if it could not; said once per run.
    @discardableResult
    func write() -> String? {
        // The lock spans the write: two results never race to rename, and the last file holds both.
        slots.withLock { slots -> String? in
            let filled = slots.compactMap { $0 }
            var cache = ScanCache(
                host: HostIdentity.current, abiVersion: PluginABIVersion.current, searchPath: searchPath, entries: filled.map(\.entry))
            cache.readLines = filled.map(\.line)
            do throws(ScanCacheStore.WriteError) {
                try store.write(cache)
                return nil
            } catch {
                if warned.set() { logger.warning("\(error); the next run scans the plugins again") }
                return error.description
            }
        }
    }
}
