import PluginABI
import Testing

/// How the SDK answers the host's `fetch`: what it makes of the request, and
/// that it answers through the completion.
@Suite("Answering the host's fetch")
struct FetchBridgeTests {
    @Test("timeout_ms reaches the fetcher as milliseconds, and 0 as no limit", arguments: [
        (milliseconds: UInt32(0), seen: "0"), (milliseconds: 1, seen: "1"), (milliseconds: 1500, seen: "1500"),
    ])
    func timeout(milliseconds: UInt32, seen: String) async throws {
        let host = RecordingHost(configuration: ["api_base_url": "https://api.example.com", "symbols": #"["ETH"]"#])
        #expect(TestPlugin.register(with: host) == PB_OK)
        let fetcher = try #require(host.registrations.first)
        #expect(await fetch(fetcher, timeoutMilliseconds: milliseconds) == .amount(seen))
    }

    @Test("A request the host's struct is too small for is answered with an error, not read past its end")
    func truncatedRequest() async throws {
        let host = RecordingHost(configuration: ["api_base_url": "https://api.example.com", "symbols": #"["ETH"]"#])
        #expect(TestPlugin.register(with: host) == PB_OK)
        let fetcher = try #require(host.registrations.first)
        #expect(await fetch(fetcher, timeoutMilliseconds: 0, structSize: 4) == .error("Could not fetch ETH: the host's request is 4 bytes, too small to hold a currency"))
    }

    /// What the completion received.
    enum Answer: Equatable {
        case amount(String)
        case error(String)
    }

    /// Calls the registered `fetch` as a host does, and waits for its completion.
    private func fetch(_ fetcher: RecordingHost.Registration, timeoutMilliseconds: UInt32, structSize: UInt32? = nil) async -> Answer {
        await withCheckedContinuation { continuation in
            // Released by the completion, which the SDK calls exactly once.
            let waiter = Unmanaged.passRetained(AnswerWaiter(continuation)).toOpaque()
            "USD".withCString { currency in
                var request = pb_fetch_request(
                    struct_size: structSize ?? UInt32(MemoryLayout<pb_fetch_request>.size), currency: currency, timeout_ms: timeoutMilliseconds)
                fetcher.fetch(fetcher.context, &request, receiveAnswer, waiter)
            }
        }
    }
}

/// Carries a test's continuation through `completion_context`.
private final class AnswerWaiter: Sendable {
    let continuation: CheckedContinuation<FetchBridgeTests.Answer, Never>

    init(_ continuation: CheckedContinuation<FetchBridgeTests.Answer, Never>) {
        self.continuation = continuation
    }
}

/// The host's `pb_fetch_completion_fn`, as a test plays it.
private let receiveAnswer: pb_fetch_completion_fn = { context, result in
    guard let context else { return }
    let waiter = Unmanaged<AnswerWaiter>.fromOpaque(context).takeRetainedValue()
    let amount = result?.pointee.amount.map { String(cString: $0) }
    let error = result?.pointee.error.map { String(cString: $0) } ?? "no result"
    waiter.continuation.resume(returning: amount.map(FetchBridgeTests.Answer.amount) ?? .error(error))
}
