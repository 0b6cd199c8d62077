import PluginBoundary
@testable import PluginHost
import Testing

/// The one rule of who provides what, as every way of loading asks it.
@Suite("Which plugin keeps a symbol")
struct SymbolOwnershipTests {
    @Test("The first file in search order keeps a symbol; a later one keeps only the rest, and is told who keeps it")
    func firstKeeps() {
        let ownership = SymbolOwnership()
        let first = ownership.settle(["BTC", "ETH"], symbol: { $0 }, for: "/p/a.so")
        #expect(first.kept == ["BTC", "ETH"])
        #expect(first.duplicates.isEmpty)
        let second = ownership.settle(["DOGE", "ETH"], symbol: { $0 }, for: "/p/b.so")
        #expect(second.kept == ["DOGE"])
        #expect(second.duplicates == [.init(symbol: "ETH", owner: "/p/a.so")])
        #expect(Settlement<String>.warning(for: second.duplicates[0]) == "symbol ETH is already provided by /p/a.so; keeping that one and ignoring this plugin's")
    }

    @Test("A file settled again keeps its own symbols: a load on demand after a listing")
    func settledAgain() {
        let ownership = SymbolOwnership()
        _ = ownership.settle(["ETH"], symbol: { $0 }, for: "/p/a.so")
        _ = ownership.settle(["BTC"], symbol: { $0 }, for: "/p/b.so")
        #expect(ownership.settle(["ETH", "BTC"], symbol: { $0 }, for: "/p/a.so").kept == ["ETH"])
        #expect(ownership.owner(of: "ETH", otherThan: "/p/a.so") == nil)
        #expect(ownership.owner(of: "ETH", otherThan: "/p/b.so") == "/p/a.so")
    }

    @Test("A file that keeps nothing fails, naming every symbol and who keeps it, or every refusal")
    func keepsNothing() {
        let ownership = SymbolOwnership()
        _ = ownership.settle(["ETH"], symbol: { $0 }, for: "/p/a.so")
        let taken = ownership.settle(["ETH"], symbol: { $0 }, for: "/p/b.so")
        #expect(taken.failure(after: [.init(symbol: "BTC", owner: "/p/b.so")], refused: [])?.description
            == "every symbol it registers is already taken (BTC by /p/b.so, ETH by /p/a.so)")
        let refused = ownership.settle([String](), symbol: { $0 }, for: "/p/c.so")
        #expect(refused.failure(after: [], refused: ["its symbol \"x\" is bad"])?.description
            == "the host refused every fetcher it registered: its symbol \"x\" is bad; fix the pb_fetcher it passes to register_fetcher")
        #expect(ownership.settle(["DOGE"], symbol: { $0 }, for: "/p/d.so").failure(after: [], refused: []) == nil)
    }
}
