import PluginABI
import PluginBoundary
import Testing

/// How the host reads a fetcher's declared rank: only within `struct_size`,
/// and `has_rank` as a byte, since a plugin may put any byte there.
@Suite("A fetcher's rank, read within its struct_size")
struct FetcherRankReadingTests {
    /// Registers one ETH fetcher from a full-sized buffer whose first
    /// `size` bytes are the plugin's struct and the rest is what follows it
    /// in memory; returns the rank the host took.
    static func rank(size: Int, rank: UInt32, hasRank: UInt8) -> UInt32? {
        let registrations = FetcherRegistrations(path: "/plugins/libRank.so", name: "RankPlugin") { _ in }
        registrations.open()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<pb_fetcher>.size, alignment: MemoryLayout<pb_fetcher>.alignment)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<pb_fetcher>.size)
        let status = "ETH".withCString { symbol in
            let fetch: pb_fetch_fn = { _, _, _, _ in }
            buffer.storeBytes(of: UInt32(size), as: UInt32.self)
            buffer.storeBytes(of: symbol, toByteOffset: MemoryLayout<pb_fetcher>.offset(of: \.symbol)!, as: UnsafePointer<CChar>?.self)
            buffer.storeBytes(of: fetch, toByteOffset: MemoryLayout<pb_fetcher>.offset(of: \.fetch)!, as: pb_fetch_fn?.self)
            buffer.storeBytes(of: rank, toByteOffset: MemoryLayout<pb_fetcher>.offset(of: \.rank)!, as: UInt32.self)
            buffer.storeBytes(of: hasRank, toByteOffset: MemoryLayout<pb_fetcher>.offset(of: \.has_rank)!, as: UInt8.self)
            return registrations.register(buffer.assumingMemoryBound(to: pb_fetcher.self))
        }
        guard status == PB_OK else { return nil }
        return registrations.outcome.taken.first?.rank
    }

    @Test("A struct_size that covers rank but not has_rank declares nothing, whatever lies past it")
    func sizeCoversRankOnly() {
        let rankOnly = MemoryLayout<pb_fetcher>.offset(of: \.has_rank)!
        #expect(Self.rank(size: rankOnly, rank: 999, hasRank: 1) == PB_RANK_SECONDARY.rawValue)
        #expect(Self.rank(size: rankOnly + 1, rank: 999, hasRank: 1) == 999)
    }

    @Test("Any has_rank byte but 0 declares the rank; 0 gets secondary")
    func hasRankByte() {
        let size = MemoryLayout<pb_fetcher>.size
        #expect(Self.rank(size: size, rank: 7, hasRank: 0xAB) == 7)
        #expect(Self.rank(size: size, rank: 7, hasRank: 0) == PB_RANK_SECONDARY.rawValue)
        #expect(Self.rank(size: size, rank: PB_RANK_NONE.rawValue, hasRank: 1) == PB_RANK_NONE.rawValue)
    }
}
