import Patchbay
import Testing

extension ContainerTests {
    /// Ranked registrations made and resolved from many threads at once.
    @Suite(.timeLimit(.minutes(2))) struct RankedConcurrency {
        @Test func registeringFromManyThreadsKeepsEveryRegistrationAndTheHighestRankWins() async {
            let threads = 8
            let perThread = 50
            let outcome = await DedicatedThread.run { () -> (winner: Int?, ranks: [Int], readersSawOnlyRegistered: Bool) in
                let container = Container(defaultScope: .singleton)
                container.register(Int.self, name: "rank", rank: -1) { _ in -1 }
                let writers = (0..<threads).map { thread in
                    JoinableThread { () -> Bool in
                        for step in 0..<perThread {
                            let rank = thread * perThread + step
                            container.register(Int.self, name: "rank", rank: rank) { _ in rank }
                        }
                        return true
                    }
                }
                // Readers race the writers: every resolve finds some registered rank, never a torn or missing key.
                let readers = (0..<2).map { _ in
                    JoinableThread { () -> Bool in
                        (0..<500).allSatisfy { _ in ((try? container.resolve(Int.self, name: "rank")) ?? -2) >= -1 }
                    }
                }
                _ = writers.map { $0.join() }
                let readersOK = readers.allSatisfy { $0.join() == true }
                let ranks = (try? container.resolveAll(Int.self, name: "rank").services) ?? []
                return (try? container.resolve(Int.self, name: "rank"), ranks, readersOK)
            }
            let count = threads * perThread
            #expect(outcome.winner == count - 1)
            #expect(outcome.ranks == Array((-1..<count).reversed()))
            #expect(outcome.readersSawOnlyRegistered)
        }
    }
}
