@testable import PluginBoundary
import Synchronization
import Testing

/// The completion tokens a plugin gets as its `completion_context`: what
/// keeps one plugin from answering another's fetch.
@Suite("Completion tokens")
struct PendingFetchesTests {
    /// Begins `count` fetches on a table of their own and returns their tokens.
    static func tokens(_ count: Int) -> [UInt64] {
        let table = PendingFetches()
        return (0..<count).map { _ in table.begin(plugin: "P") { _ in } }
    }

    @Test("Every one of a token's 64 bits is random: over 512 tokens each bit is seen both set and clear")
    func tokensUseAll64Bits() {
        let tokens = Self.tokens(512)
        // A token of fewer random bits (32, 48, 63) leaves some bit always
        // clear; each bit is set in 512 random tokens but with probability 2^-512.
        let everSet = tokens.reduce(UInt64(0)) { $0 | $1 }
        let everClear = tokens.reduce(UInt64(0)) { $0 | ~$1 }
        #expect(everSet == .max, "bits never set: \(String(~everSet, radix: 2))")
        #expect(everClear == .max, "bits never clear: \(String(~everClear, radix: 2))")
    }

    @Test("Tokens are distinct, never 0 (NULL), and not a sequence: no token is its predecessor's neighbour")
    func tokensAreNotSequential() {
        let tokens = Self.tokens(512)
        #expect(Set(tokens).count == tokens.count)
        #expect(!tokens.contains(0))
        // Random tokens differ by less than 2^32 with probability 2^-31 per pair.
        let close = zip(tokens, tokens.dropFirst()).filter { $0.0 &- $0.1 < 1 << 32 || $0.1 &- $0.0 < 1 << 32 }
        #expect(close.isEmpty, "neighbouring tokens: \(close.prefix(3))")
    }

    @Test("Only the token issued for a fetch answers it; a guessed one is a forgery, a second call is late")
    func onlyTheIssuedTokenAnswers() {
        let table = PendingFetches()
        let strays = Mutex<[PendingFetches.Stray]>([])
        table.reportStrays { stray in strays.withLock { $0.append(stray) } }
        let answers = Mutex(0)
        let token = table.begin(plugin: "P") { _ in answers.withLock { $0 += 1 } }

        table.complete(token: token ^ 1, with: nil)
        table.complete(token: token &+ 1, with: nil)
        #expect(answers.withLock { $0 } == 0)
        table.complete(token: token, with: nil)
        table.complete(token: token, with: nil)

        #expect(answers.withLock { $0 } == 1)
        #expect(strays.withLock { $0 } == [.forged(count: 1), .forged(count: 2), .late(plugin: "P")])
    }

    @Test("A run waits for a call that answered and has not returned (it may still call back), never for one that timed out")
    func answeredCallsAreWaitedFor() {
        let table = PendingFetches()
        let answered = table.begin(plugin: "P") { _ in }
        let timedOut = table.begin(plugin: "Q") { _ in }
        table.callStarted(token: answered)
        table.callStarted(token: timedOut)
        #expect(!table.hasAnsweredCallsRunning)

        #expect(table.cancel(token: timedOut))
        #expect(!table.hasAnsweredCallsRunning)
        table.complete(token: answered, with: nil)
        #expect(table.hasAnsweredCallsRunning)

        table.callReturned(token: answered)
        #expect(!table.hasAnsweredCallsRunning)
        table.callReturned(token: timedOut)
        #expect(!table.hasAnsweredCallsRunning)
    }
}
