import Synchronization

/// A hash table of registrations: lock-free to read, locked to write.
///
/// Readers load the current table with one acquiring load and probe its slots,
/// each an atomic word holding an unretained `Registration` address. Nothing
/// on the read path writes shared memory, so resolves on several cores do not
/// contend. Writers take `writer`, publish a slot with a releasing store, and
/// grow by publishing a new table. Replaced registrations and outgrown tables
/// are kept until the registry itself goes, because a reader may still be
/// using them: memory grows with the number of `register` calls, not with
/// the number of resolves.
struct Registry: ~Copyable, Sendable {
    private typealias Slots = UnsafeMutablePointer<Atomic<UInt>>

    private struct Writer {
        /// Every table ever published (the last is current), freed in `deinit`.
        var tables: [Slots] = []
        var capacity = 0
        var count = 0
        /// Owns every registration ever published, including replaced ones.
        var owned: [Registration] = []
        /// The registration each key resolves to now.
        var current: [RegistrationKey: Registration] = [:]
        /// When each key was first published, for listing in registration order.
        var order: [RegistrationKey: Int] = [:]
        /// Every registration of a key that has ranked ones, in registration
        /// order; the key resolves to the first of the highest rank.
        var ranked: [RegistrationKey: [RankedRegistration]] = [:]
    }

    private let table = Atomic<UInt>(0)
    private let writer = Mutex<Writer>(Writer())
    /// Counts the changes published, so that what is derived from the registrations can tell it is stale.
    let generation = Atomic<UInt>(0)

    init() {
        writer.withLock { writer in
            let slots = Registry.makeTable(capacity: 16)
            writer.tables.append(slots)
            writer.capacity = 16
            table.store(UInt(bitPattern: slots), ordering: .releasing)
        }
    }

    deinit {
        writer.withLock { writer in
            for slots in writer.tables {
                let capacity = Int(slots[0].load(ordering: .relaxed)) + 1
                slots.deinitialize(count: capacity + 1)
                slots.deallocate()
            }
            writer.tables.removeAll()
        }
    }

    /// The registration for `key` in this registry alone, unretained.
    ///
    /// - Complexity: O(1) on average: the table is kept at most half full.
    @inline(__always)
    func lookup(_ key: RegistrationKey) -> Unmanaged<Registration>? {
        guard let slots = Slots(bitPattern: table.load(ordering: .acquiring)) else { return nil }
        let mask = slots[0].load(ordering: .relaxed)
        var index = key.hash & mask
        while true {
            let raw = slots[Int(index &+ 1)].load(ordering: .acquiring)
            guard let address = UnsafeRawPointer(bitPattern: raw) else { return nil }
            let registration = Unmanaged<Registration>.fromOpaque(address)
            if registration._withUnsafeGuaranteedRef({ $0.key == key }) {
                return registration
            }
            index = (index &+ 1) & mask
        }
    }

    /// Publishes `registration`, replacing any with the same key, ranked ones included.
    func publish(_ registration: Registration) {
        writer.withLock { writer in
            writer.ranked[registration.key] = nil
            install(registration, &writer)
        }
    }

    /// Publishes `registration` beside the key's others, as one more candidate of `rank`.
    ///
    /// The key resolves to its highest-ranked registration, the first
    /// published among equals; one published without a rank counts as rank 0.
    func publish(_ registration: Registration, rank: Int) {
        writer.withLock { writer in
            var candidates =
                writer.ranked[registration.key]
                ?? writer.current[registration.key].map { [RankedRegistration(registration: $0, rank: 0)] } ?? []
            candidates.append(RankedRegistration(registration: registration, rank: rank))
            writer.ranked[registration.key] = candidates
            // The first of the highest rank: only a strictly higher rank displaces it.
            let winner = candidates.reduce(candidates[0]) { best, next in next.rank > best.rank ? next : best }
            if writer.current[registration.key] !== winner.registration {
                install(winner.registration, &writer)
            } else {
                writer.owned.append(registration)
                generation.add(1, ordering: .releasing)
            }
        }
    }

    /// Makes `registration` the one its key resolves to.
    private func install(_ registration: Registration, _ writer: inout Writer) {
        writer.owned.append(registration)
        let isNew = writer.current.updateValue(registration, forKey: registration.key) == nil
        if isNew {
            writer.order[registration.key] = writer.order.count
            writer.count += 1
            if writer.count * 2 > writer.capacity {
                grow(&writer)
            }
        }
        guard let slots = writer.tables.last else { return }
        Registry.store(registration, in: slots)
        generation.add(1, ordering: .releasing)
        checkInvariants(writer)
    }

    /// Every registration of `key` with its rank, highest rank first, then in
    /// registration order; the one it resolves to is first.
    func candidates(for key: RegistrationKey) -> [RankedRegistration] {
        writer.withLock { writer in Registry.candidates(for: key, writer) }
    }

    private static func candidates(for key: RegistrationKey, _ writer: Writer) -> [RankedRegistration] {
        guard let ranked = writer.ranked[key] else {
            return writer.current[key].map { [RankedRegistration(registration: $0, rank: 0)] } ?? []
        }
        return ranked.enumerated().sorted { ($0.element.rank, $1.offset) > ($1.element.rank, $0.offset) }.map(\.element)
    }

    /// Publishes a changed copy of the current registration for `key`, atomically with reading it.
    ///
    /// - Parameters:
    ///   - key: The key of the registration to change.
    ///   - change: Makes the replacement from the current registration.
    /// - Returns: The replacement, or nil if nothing is registered for `key`.
    @discardableResult
    func update(_ key: RegistrationKey, _ change: (Registration) -> Registration) -> Registration? {
        writer.withLock { writer in
            guard let original = writer.current[key], let slots = writer.tables.last else {
                return nil
            }
            let replacement = change(original)
            writer.owned.append(replacement)
            writer.current[key] = replacement
            if var candidates = writer.ranked[key], let index = candidates.firstIndex(where: { $0.registration === original }) {
                candidates[index] = RankedRegistration(registration: replacement, rank: candidates[index].rank)
                writer.ranked[key] = candidates
            }
            Registry.store(replacement, in: slots)
            generation.add(1, ordering: .releasing)
            checkInvariants(writer)
            return replacement
        }
    }

    /// The registration each key resolves to now.
    var current: [Registration] {
        writer.withLock { Array($0.current.values) }
    }

    /// Whether some current registration is for the service type `service` and has a key that `matches`.
    func containsService(_ service: ObjectIdentifier, where matches: (RegistrationKey) -> Bool) -> Bool {
        writer.withLock { writer in writer.current.keys.contains { $0.service == service && matches($0) } }
    }

    /// The current registrations for the service type `service`, in the order their keys were first published.
    func current(forService service: ObjectIdentifier) -> [Registration] {
        writer.withLock { writer in
            writer.current.values.filter { $0.key.service == service }
                .sorted { writer.order[$0.key, default: 0] < writer.order[$1.key, default: 0] }
        }
    }

    /// Every registration of each key of the service type `service`, keys in
    /// the order they were first published, each key's in rank order.
    func candidates(forService service: ObjectIdentifier) -> [[RankedRegistration]] {
        writer.withLock { writer in
            writer.current.keys.filter { $0.service == service }
                .sorted { writer.order[$0, default: 0] < writer.order[$1, default: 0] }
                .map { Registry.candidates(for: $0, writer) }
        }
    }

    /// The current registration for `key`, read under the lock.
    func current(for key: RegistrationKey) -> Registration? {
        writer.withLock { $0.current[key] }
    }

    /// In debug builds, checks after every change that the published table
    /// holds exactly the current registrations, at most half full.
    ///
    /// - Complexity: O(1), or O(*n*) while there are at most 64 registrations,
    ///   so that a debug build registering thousands does not slow to O(*n*²).
    private func checkInvariants(_ writer: Writer) {
        #if DEBUG
            guard let slots = writer.tables.last else {
                preconditionFailure("Registry has no table")
            }
            let capacity = Int(slots[0].load(ordering: .relaxed)) + 1
            precondition(UInt(bitPattern: slots) == table.load(ordering: .relaxed), "the last table is not published")
            precondition(writer.count == writer.current.count, "count is \(writer.count), not \(writer.current.count)")
            precondition(writer.count * 2 <= capacity, "table more than half full")
            guard writer.count <= 64 else { return }
            var occupied = 0
            for index in 1...capacity {
                guard let address = UnsafeRawPointer(bitPattern: slots[index].load(ordering: .relaxed)) else {
                    continue
                }
                occupied += 1
                let registration = Unmanaged<Registration>.fromOpaque(address).takeUnretainedValue()
                precondition(writer.current[registration.key] === registration, "a slot holds a stale registration")
            }
            precondition(occupied == writer.count, "\(occupied) slots occupied for \(writer.count) keys")
            for registration in writer.current.values {
                precondition(lookup(registration.key)?.takeUnretainedValue() === registration, "a key is unreachable")
            }
        #endif
    }

    private func grow(_ writer: inout Writer) {
        let capacity = writer.capacity * 2
        let slots = Registry.makeTable(capacity: capacity)
        for registration in writer.current.values {
            Registry.store(registration, in: slots)
        }
        writer.tables.append(slots)
        writer.capacity = capacity
        table.store(UInt(bitPattern: slots), ordering: .releasing)
    }

    private static func makeTable(capacity: Int) -> Slots {
        let slots = Slots.allocate(capacity: capacity + 1)
        slots.initialize(to: Atomic(UInt(capacity - 1)))
        for index in 1...capacity {
            (slots + index).initialize(to: Atomic(0))
        }
        return slots
    }

    /// Stores into the slot for the registration's key: the one holding the same key, or the first empty one.
    private static func store(_ registration: Registration, in slots: Slots) {
        let mask = slots[0].load(ordering: .relaxed)
        var index = registration.key.hash & mask
        let address = UInt(bitPattern: Unmanaged.passUnretained(registration).toOpaque())
        while true {
            let raw = slots[Int(index &+ 1)].load(ordering: .relaxed)
            if let existing = UnsafeRawPointer(bitPattern: raw) {
                let occupant = Unmanaged<Registration>.fromOpaque(existing).takeUnretainedValue()
                if occupant.key != registration.key {
                    index = (index &+ 1) & mask
                    continue
                }
            }
            slots[Int(index &+ 1)].store(address, ordering: .releasing)
            return
        }
    }
}
