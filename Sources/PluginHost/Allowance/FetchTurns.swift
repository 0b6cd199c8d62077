import Synchronization

/// The user's fetches of one plugin, a few at a time: the others wait their
/// turn, in the order asked, until their deadline.
///
/// A `fetch` of 500 symbols asks each plugin for hundreds of prices at once.
/// That is the user's own work, not a flood, so it queues here rather than
/// meeting the caps meant for a plugin that floods the host: with at most
/// ``PluginAllowance/Limit/fetchesAtOnce`` fetches running, a plugin that
/// makes one request per fetch never has more waiting than
/// ``PluginAllowance/Limit/requestsOutstanding`` allows, and its worker
/// never needs more threads than its PID namespace gives. Only requests a
/// plugin makes beyond that are its own, and refused.
final class FetchTurns: Sendable {
    private let limit: Int
    private let state = Mutex(State())

    private struct State {
        var running = 0
        var lastID = 0
        var waiting: [Waiter] = []
    }

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
        let timer: Task<Void, Never>
    }

    /// Turns for `limit` fetches at once.
    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Takes a turn if one is free, without waiting.
    /// - Returns: true with a turn, which ``finish()`` gives back.
    func startNow() -> Bool {
        state.withLock { state in
            guard state.running < limit, state.waiting.isEmpty else { return false }
            state.running += 1
            return true
        }
    }

    /// Waits for a turn, at most until `deadline`.
    /// - Returns: true with a turn, which ``finish()`` gives back; false
    ///   when the deadline came first.
    /// - Complexity: O(*w*) for *w* fetches waiting, when the deadline comes first.
    func start(by deadline: ContinuousClock.Instant) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            // Deciding and queueing under one lock: a turn given back meanwhile goes to this fetch, not to nobody.
            let admitted = state.withLock { state -> Bool in
                if state.running < limit {
                    state.running += 1
                    return true
                }
                state.lastID += 1
                let id = state.lastID
                let timer = Task { [weak self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    if !Task.isCancelled { self?.expire(id) }
                }
                state.waiting.append(Waiter(id: id, continuation: continuation, timer: timer))
                return false
            }
            if admitted { continuation.resume(returning: true) }
        }
    }

    /// Gives a turn back: to the fetch that has waited longest, if any.
    func finish() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.timer.cancel()
        next?.continuation.resume(returning: true)
    }

    /// The fetch `id` is out of time: it stops waiting, without a turn.
    private func expire(_ id: Int) {
        let expired = state.withLock { state -> Waiter? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiting.remove(at: index)
        }
        expired?.continuation.resume(returning: false)
    }
}
