/// How much memory all of a run's plugin workers may take together
/// (`--memory-budget`, `HOST_MEMORY_BUDGET`).
///
/// Where the system delegates a cgroup v2 subtree, the kernel holds the
/// run's workers to it together (`CgroupDelegation`, `RunCgroup`). The
/// host cannot count on one (a system with cgroup v1, or a v2 tree it may
/// not write, has none), so the budget is also kept with what every Linux
/// offers: each worker gets an address-space limit (RLIMIT_AS,
/// ``perWorkerBytes``), and at most ``concurrentWorkers`` workers of
/// plugins nobody vouched for run at once.
/// Address space is never less than the memory a worker uses, so those
/// workers together never use more than the budget, however many files a
/// folder holds.
///
/// ```swift
/// let budget = try MemoryBudget(parsing: "3GiB") // 2 workers of 1.5 GiB
/// ```
package struct MemoryBudget: Sendable, Equatable, CustomStringConvertible {
    /// The budget, in bytes.
    package let bytes: UInt64

    /// 2 GiB: two workers of 1 GiB, one per core of a small machine.
    package static let standard = MemoryBudget(checkedBytes: 2 << 30)
    /// 1 GiB: below it a worker's limit (half the budget) would not hold
    /// the Swift runtime's reserved arenas and stacks.
    package static let minimumBytes: UInt64 = 1 << 30
    /// 2 GiB: what one worker may take however large the budget, since a
    /// worker that needs more is a plugin allocating without bound.
    package static let largestWorkerBytes: UInt64 = 2 << 30

    private init(checkedBytes: UInt64) {
        bytes = checkedBytes
    }

    /// Reads a size such as `2GiB`, `1536MiB` or `3221225472` (bytes); the
    /// units are binary (`K`, `M`, `G`, `T`, with or without `iB` or `B`).
    /// - Throws: ``MemoryBudgetError`` for anything else, or a budget below 1 GiB.
    package init(parsing text: String) throws(MemoryBudgetError) {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count).lowercased()
        let shifts: [String: UInt64] = [
            "": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40,
        ]
        guard !digits.isEmpty, digits.count <= 19, let number = UInt64(digits), let shift = shifts[unit] else {
            throw MemoryBudgetError(value: text, reason: .notASize)
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        guard !overflow else { throw MemoryBudgetError(value: text, reason: .notASize) }
        guard bytes >= Self.minimumBytes else { throw MemoryBudgetError(value: text, reason: .belowMinimum) }
        self.bytes = bytes
    }

    /// Each worker's address-space limit: half the budget, at most 2 GiB.
    package var perWorkerBytes: UInt64 { min(Self.largestWorkerBytes, bytes / 2) }

    /// How many workers of plugins nobody vouched for run at once.
    package var concurrentWorkers: Int { Int(bytes / perWorkerBytes) }

    /// The budget as a user writes it, e.g. `2GiB` or `1536MiB`.
    package var description: String { Self.size(bytes) }

    /// `bytes` in the largest binary unit that divides it.
    package static func size(_ bytes: UInt64) -> String {
        for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] as [(UInt64, String)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return "\(bytes)B"
    }
}

/// A memory budget the host cannot use.
package struct MemoryBudgetError: Error, Sendable, Equatable {
    /// Why it was refused.
    package enum Reason: Sendable, Equatable {
        case notASize
        case belowMinimum
    }

    /// The text given.
    package let value: String
    /// Why it was refused.
    package let reason: Reason

    /// One line naming `setting` (`--memory-budget` or `HOST_MEMORY_BUDGET`), the value and the fix.
    package func message(naming setting: String) -> String {
        switch reason {
        case .notASize:
            "\(setting) '\(value)' is not a size; give e.g. 2GiB or 1536MiB (at least \(MemoryBudget.size(MemoryBudget.minimumBytes)))"
        case .belowMinimum:
            "\(setting) '\(value)' is below \(MemoryBudget.size(MemoryBudget.minimumBytes)), too little for two plugin workers; give e.g. 2GiB"
        }
    }
}
