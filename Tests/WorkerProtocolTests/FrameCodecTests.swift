import PluginBoundary
import Testing
import WorkerProtocol

/// The frame codec as a pure function of bytes: every message encodes and
/// decodes back, a body that decodes encodes back to the same bytes, and no
/// input, however forged, makes decoding trap.
@Suite("The frame codec")
struct FrameCodecTests {
    static let metadata = PluginMetadata(abiVersion: 1, descriptorSize: 80, description: "d", author: nil, license: "MIT", homepage: "h", apiBaseURL: "https://api.test")
    static let descriptor = LoadReply.Descriptor(name: "EthereumPlugin", version: "1.0.0", metadata: metadata)

    /// One of every message and case, with awkward values.
    static let workerMessages: [WorkerToHost] = [
        .sandboxed(SandboxReport(level: .full, missing: [])),
        .sandboxed(
            SandboxReport(
                level: .partial, missing: [.init(layer: "Landlock", reason: "the kernel has no Landlock")],
                cost: .init(landlockMicroseconds: 41.5, seccompMicroseconds: .nan, rlimitsMicroseconds: -0.0, totalMicroseconds: .infinity))),
        .loaded(
            .registered(
                descriptor,
                .init(fetchers: [.init(symbol: "ETH", displayName: "Ether\u{0}eum ✓", rank: 256), .init(symbol: "BTC", displayName: "", rank: .max)], duplicates: [.init(symbol: "ETH", owner: "/p")], refused: ["r"]))),
        .loaded(.registrationFailed(descriptor, status: -3, lastError: nil)),
        .loaded(.registrationFailed(descriptor, status: 2, lastError: "cannot start")),
        .loaded(.refused(.notALibrary(reason: "it is not an ELF file"))),
        .loaded(.refused(.missingEntryPoint)),
        .loaded(.refused(.nullDescriptor)),
        .loaded(.refused(.badMagic(found: 0xDEAD_BEEF))),
        .loaded(.refused(.abiMismatch(plugin: 99))),
        .loaded(.refused(.descriptorTooSmall(plugin: 4))),
        .loaded(.refused(.incompleteDescriptor(field: "name"))),
        .loaded(.refused(.invalidDescriptor(.init(field: .displayName, rule: "is not valid UTF-8")))),
        .log(LogFrame(level: .error, message: "")),
        .httpGet(HTTPRequestFrame(id: .max, url: "https://api.coinbase.com/v2", timeoutMilliseconds: .max)),
        .fetched(FetchReply(id: 1, outcome: .called(.answered(.init(base: "ETH", currency: nil, amount: "1.5", error: nil))))),
        .fetched(FetchReply(id: 2, outcome: .called(.unreadable(.init(field: .amount, rule: "is longer than 42 bytes"))))),
        .fetched(FetchReply(id: 3, outcome: .called(.malformed))),
        .fetched(FetchReply(id: 4, outcome: .noSuchFetcher)),
        .fetched(FetchReply(id: 5, outcome: .notCalled(PluginCallThread.startError(11)))),
    ]

    static let hostMessages: [HostToWorker] = [
        .load(LoadRequest(path: "/p/x.so", configuration: ["b": "2", "a": "1", "": ""], defaultTimeoutMilliseconds: 10_000, logLevel: .debug)),
        .load(
            LoadRequest(
                path: "/p/y.so", configuration: [:], apiBases: APIBases(byPlugin: ["B": "file:///b", "A": "https://a.test"], everyPlugin: "http://e.test"),
                defaultTimeoutMilliseconds: 1, logLevel: .error)),
        .fetch(FetchRequest(id: 9, symbol: "ETH", currency: "USD", timeoutMilliseconds: 0)),
        .httpResponse(HTTPResponseFrame(id: 3, outcome: .response(status: -1, body: [0, 255, 10]))),
        .httpResponse(HTTPResponseFrame(id: 4, outcome: .failure("timed out after 2 s"))),
    ]

    /// The body of a frame: the frame without its length prefix.
    static func body(_ message: some FrameCodable) throws -> [UInt8] {
        Array(try Frame.encode(message).dropFirst(4))
    }

    @Test("Every message from a worker reads back as itself", arguments: workerMessages)
    func workerRoundTrip(message: WorkerToHost) throws {
        let frame = try Frame.encode(message)
        let length = frame.count - 4
        #expect(Array(frame.prefix(4)) == [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) })
        let decoded = try Frame.decode(WorkerToHost.self, from: Array(frame.dropFirst(4)))
        // NaN is not equal to itself: compare encodings, which are exact.
        #expect(try Self.body(decoded) == Self.body(message))
    }

    @Test("Every message from the host reads back as itself", arguments: hostMessages)
    func hostRoundTrip(message: HostToWorker) throws {
        #expect(try Frame.decode(HostToWorker.self, from: Self.body(message)) == message)
    }

    @Test("Every body cut short is refused as truncated, never read as less")
    func truncation() throws {
        for message in Self.workerMessages {
            let body = try Self.body(message)
            for length in 0..<body.count {
                #expect(throws: FrameError.undecodable(.truncated)) { try Frame.decode(WorkerToHost.self, from: Array(body.prefix(length))) }
            }
        }
    }

    @Test("Bytes after a message, an unknown tag, a bad flag, invalid UTF-8 and unordered keys are each refused by name")
    func malformedBodies() throws {
        let log = try Self.body(WorkerToHost.log(LogFrame(level: .info, message: "é")))
        #expect(throws: FrameError.undecodable(.trailingBytes(1))) { try Frame.decode(WorkerToHost.self, from: log + [0]) }
        #expect(throws: FrameError.undecodable(.unknownTag(9, of: "message from a worker"))) { try Frame.decode(WorkerToHost.self, from: [9]) }
        #expect(throws: FrameError.undecodable(.unknownTag(7, of: "log level"))) { try Frame.decode(WorkerToHost.self, from: [3, 7]) }
        var split = log
        split[split.count - 1] = 0xFF
        #expect(throws: FrameError.undecodable(.notUTF8)) { try Frame.decode(WorkerToHost.self, from: split) }
        let failed = try Self.body(WorkerToHost.loaded(.registrationFailed(Self.descriptor, status: 1, lastError: nil)))
        var flag = failed
        flag[flag.count - 1] = 2
        #expect(throws: FrameError.undecodable(.badFlag(2))) { try Frame.decode(WorkerToHost.self, from: flag) }
        // Two keys "b" then "a": the same configuration has only the sorted encoding.
        var unordered = FrameWriter()
        unordered.write(UInt8(1))
        unordered.write("/p")
        unordered.write(UInt32(2))
        for text in ["b", "1", "a", "2"] { unordered.write(text) }
        unordered.write(UInt32(0))
        unordered.write(UInt8(0))
        #expect(throws: FrameError.undecodable(.unordered("configuration keys"))) { try Frame.decode(HostToWorker.self, from: unordered.bytes) }
    }

    @Test("A count larger than the bytes left is refused before anything is allocated for it")
    func hugeCounts() {
        // registered, a descriptor, then a fetcher count of 2³² − 1.
        var writer = FrameWriter()
        writer.write(UInt8(2))
        writer.write(UInt8(1))
        writer.write(Self.descriptor)
        writer.write(UInt32.max)
        #expect(throws: FrameError.undecodable(.truncated)) { try Frame.decode(WorkerToHost.self, from: writer.bytes) }
    }

    @Test("A body over 16 MiB is refused when encoded, and its length prefix when decoded")
    func sizeCap() throws {
        let big = HostToWorker.httpResponse(HTTPResponseFrame(id: 1, outcome: .response(status: 200, body: [UInt8](repeating: 0, count: Frame.maximumLength))))
        #expect(throws: FrameError.tooLong(Frame.maximumLength + 22)) { try Frame.encode(big) }
        var decoder = FrameDecoder()
        [UInt8]([0x01, 0x00, 0x00, 0x01]).withUnsafeBytes { decoder.append($0) }
        #expect(throws: FrameError.tooLong(0x0100_0001)) { try decoder.next() }
    }

    @Test("Random bodies never trap, and whatever decodes encodes back to the same bytes")
    func randomBodies() throws {
        var generator = SplitMix64(seed: 0x5EED)
        let seeds = (Self.workerMessages.map { try? Self.body($0) } + Self.hostMessages.map { try? Self.body($0) }).compactMap { $0 }
        var decoded = 0
        for round in 0..<20_000 {
            // Half mutate a real body, half are noise: mutants reach deep into the decoder.
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = seeds[Int(generator.next() % UInt64(seeds.count))]
                for _ in 0..<(1 + generator.next() % 3) where !bytes.isEmpty {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            } else {
                bytes = (0..<Int(generator.next() % 48)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            }
            if let message = try? Frame.decode(WorkerToHost.self, from: bytes) {
                decoded += 1
                #expect(try Self.body(message) == bytes)
            }
            if let message = try? Frame.decode(HostToWorker.self, from: bytes) {
                decoded += 1
                #expect(try Self.body(message) == bytes)
            }
        }
        // Mutants of real bodies often still decode: the round trip was exercised.
        #expect(decoded > 1000)
    }
}

/// A small deterministic generator, so a failure reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
