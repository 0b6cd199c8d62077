internal import PluginABI

/// The `pb_fetch_fn` of every fetcher the SDK registers.
let fetchTrampoline: pb_fetch_fn = { fetcherContext, request, completion, completionContext in
    FetchBridge.start(fetcherContext, request, completion, completionContext)
}

enum FetchBridge {
    /// Copies what it needs from the host-owned request, starts a task and
    /// returns at once. The task answers through `completion` exactly once.
    static func start(
        _ fetcherContext: UnsafeMutableRawPointer?,
        _ request: UnsafePointer<pb_fetch_request>?,
        _ completion: pb_fetch_completion_fn?,
        _ completionContext: UnsafeMutableRawPointer?
    ) {
        // Without a completion there is nobody to answer; the host will time out.
        guard let completion else { return }
        let reply = FetchCompletion(completion: completion, context: completionContext)
        guard let fetcherContext else {
            reply.fail("The host called fetch with a NULL fetcher context: pass back the context the plugin registered")
            return
        }
        let fetcher = Unmanaged<FetcherBox>.fromOpaque(fetcherContext).takeUnretainedValue().fetcher
        let parsed: (currency: String, timeout: Duration?)
        switch parse(request) {
        case .success(let value): parsed = value
        case .failure(let problem):
            reply.fail("Could not fetch \(fetcher.symbol): \(problem.message)")
            return
        }
        Task {
            do {
                reply.succeed(try await fetcher.price(in: parsed.currency, timeout: parsed.timeout))
            } catch {
                let message = "\(error)".singleLine
                reply.fail(message.isEmpty ? "Could not fetch \(fetcher.symbol): the fetcher failed without a message" : message)
            }
        }
    }

    struct RequestError: Error {
        let message: String
    }

    /// Reads `currency` and, when the host's struct has it, `timeout_ms`.
    static func parse(_ request: UnsafePointer<pb_fetch_request>?) -> Result<(currency: String, timeout: Duration?), RequestError> {
        guard let request else {
            return .failure(RequestError(message: "the host sent a NULL request"))
        }
        let raw = UnsafeRawPointer(request)
        let size = Int(raw.load(as: UInt32.self))
        guard let currencyOffset = MemoryLayout<pb_fetch_request>.offset(of: \.currency),
              let timeoutOffset = MemoryLayout<pb_fetch_request>.offset(of: \.timeout_ms),
              size >= currencyOffset + MemoryLayout<UnsafePointer<CChar>?>.size
        else {
            return .failure(RequestError(message: "the host's request is \(size) bytes, too small to hold a currency"))
        }
        guard let currency = raw.load(fromByteOffset: currencyOffset, as: UnsafePointer<CChar>?.self) else {
            return .failure(RequestError(message: "the host sent a NULL currency"))
        }
        var timeout: Duration?
        if size >= timeoutOffset + MemoryLayout<UInt32>.size {
            let milliseconds = raw.load(fromByteOffset: timeoutOffset, as: UInt32.self)
            timeout = milliseconds == 0 ? nil : .milliseconds(milliseconds)
        }
        return .success((String(cString: currency), timeout))
    }
}
