#if DEBUG || FUZZING
import PluginABI
import PluginBoundary

/// A plugin's `register_fetcher` calls as the host takes them
/// (`FetcherRegistrations.register`, in the host and in a worker alike):
/// each `pb_fetcher` is allocated at exactly its `struct_size`, so a read
/// past it is an AddressSanitizer report. Every field the size covers is
/// set; the rest of the allocation is 0xAB.
///
/// Input: up to eight calls, each a size byte (0 to 199 bytes, else 4 more
/// bytes give any size), a flag byte (bit 0: NULL symbol; bit 1: NULL
/// display name; bit 2: NULL `fetch`; bit 3: after `register_plugin`
/// returned; bit 4: `has_rank` is 1 and 4 more bytes give `rank`; bit 5:
/// `has_rank` is 0xAB, a byte that is neither 0 nor 1), then the symbol and
/// the display name, a length byte each (a NUL cuts them).
let fetcherRegistrationTarget = FuzzTarget("fetcher-registration", "FetcherRegistrations.register of pb_fetcher structs of any size; input: per call, size, flags, rank, symbol, display name") { input throws(PropertyViolation) in
    let registrations = FetcherRegistrations(path: "/plugins/libFuzz.so", name: "FuzzPlugin") { _ in }
    registrations.open()
    var taken: [String] = []
    var calls = 0
    while !input.isAtEnd && calls < 8 {
        calls += 1
        let sizeByte = input.byte()
        let size: UInt32 = sizeByte < 200 ? UInt32(sizeByte) : input.integer()
        let flags = input.byte()
        let declared: UInt32 = flags & 16 != 0 ? input.integer() : 0xABAB_ABAB
        let hasRank: UInt8 = flags & 16 != 0 ? 1 : flags & 32 != 0 ? 0xAB : 0
        let texts = [Array(input.counted()) + [0], Array(input.counted()) + [0]]
        if flags & 8 != 0 { registrations.close() } else { registrations.open() }
        let allocated = max(4, min(Int(size), MemoryLayout<pb_fetcher>.size))
        let fetcher = UnsafeMutableRawPointer.allocate(byteCount: allocated, alignment: MemoryLayout<pb_fetcher>.alignment)
        defer { fetcher.deallocate() }
        fetcher.initializeMemory(as: UInt8.self, repeating: 0xAB, count: allocated)
        fetcher.storeBytes(of: size, as: UInt32.self)
        /// Sets one field, when the allocation holds it.
        func set<Value>(_ field: PartialKeyPath<pb_fetcher>, _ value: Value) {
            let offset = MemoryLayout<pb_fetcher>.offset(of: field).unsafelyUnwrapped
            if offset + MemoryLayout<Value>.size <= allocated { fetcher.storeBytes(of: value, toByteOffset: offset, as: Value.self) }
        }
        let status = texts[0].withUnsafeBufferPointer { symbol in
            texts[1].withUnsafeBufferPointer { displayName in
                set(\pb_fetcher.symbol, flags & 1 == 0 ? UnsafeRawPointer(symbol.baseAddress)?.assumingMemoryBound(to: CChar.self) : nil)
                set(\pb_fetcher.display_name, flags & 2 == 0 ? UnsafeRawPointer(displayName.baseAddress)?.assumingMemoryBound(to: CChar.self) : nil)
                set(\pb_fetcher.context, UnsafeMutableRawPointer?.none)
                set(\pb_fetcher.fetch, flags & 4 == 0 ? fetchNothing : nil)
                if flags & 16 != 0 { set(\pb_fetcher.rank, declared) }
                set(\pb_fetcher.has_rank, hasRank)
                return registrations.register(fetcher.assumingMemoryBound(to: pb_fetcher.self))
            }
        }
        let symbol = String(decoding: texts[0].prefix { $0 != 0 }, as: UTF8.self)
        let displayName = String(validating: texts[1].prefix { $0 != 0 }, as: UTF8.self)
        guard status == PB_OK else { continue }
        try expect(size >= minimumFetcherSize && flags & 0x0D == 0, "a fetcher is taken only whole, with its fetch, inside register_plugin", "size \(size), flags \(flags)")
        try expect(matchesSymbolRule(symbol) && !taken.contains(symbol), "a fetcher is taken only for a valid symbol, once", symbol.debugDescription)
        taken.append(symbol)
        let registration = registrations.outcome.taken.last
        let shown = flags & 2 != 0 || displayName == "" ? symbol : displayName
        try expect(registration?.symbol == symbol && registration?.displayName == shown && (shown?.utf8.count ?? 0) <= PluginOutputRules.Limit.displayName, "a fetcher is kept as registered, its display name within the limit", "\(String(describing: registration?.displayName))")
        // The rank is read only when the size covers rank and has_rank, and any has_rank byte but 0 declares one.
        let rank = size >= rankedFetcherSize && hasRank != 0 ? declared : PB_RANK_SECONDARY.rawValue
        try expect(registration?.rank == rank, "a fetcher's rank is its own when its size covers has_rank and has_rank is set, else secondary", "size \(size), flags \(flags), rank \(String(describing: registration?.rank))")
    }
    try expect(registrations.outcome.taken.map(\.symbol) == taken, "the fetchers taken are those accepted, in order", "\(registrations.outcome.taken.map(\.symbol))")
}

/// The header's symbol rule, read the plain way: 1 to 16 of A-Z and 0-9.
func matchesSymbolRule(_ text: String) -> Bool {
    (1...Int(PB_SYMBOL_MAX_LENGTH)).contains(text.utf8.count)
        && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
}

/// A `fetch` that is never called: registering does not fetch.
private let fetchNothing: pb_fetch_fn = { _, _, _, _ in }
#endif
