import PluginHost

/// At most ``limit`` child processes that the test support starts run at once.
///
/// Swift Testing starts every test at once, and each end-to-end test starts
/// hosts and compilers: unbounded, the test process held 1,400 descriptors
/// within 40 s, mostly pipes. Past about 1,350, Foundation's `Process.run`
/// over-reads its `/proc/self/fd` listing and the whole test process dies
/// with SIGSEGV (swift-corelibs-foundation#5472, fixed after Swift 6.3).
/// A slot is held only while a child runs, never while its test waits for
/// anything else, so a run can always finish and give its slot back.
enum ChildProcessSlots {
    /// Far above what two cores run usefully at once, and a few pipes each
    /// keep the test process far below Foundation's limit.
    static let limit = 48

    /// The host's own places, first come first served, as its workers take them.
    private static let slots = AsyncSlots(capacity: limit)

    /// Runs `body` once a slot is free, and frees it after.
    static func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        await slots.acquire()
        defer { slots.release() }
        return try await body()
    }
}
