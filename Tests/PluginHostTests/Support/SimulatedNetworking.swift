import Foundation
import Logging
import PluginHost
import Synchronization

/// Networking that answers from a table and records every URL, injected
/// through the same ``HostNetworking`` seam production uses.
final class SimulatedNetworking: HostNetworking {
    private let answers: [String: HTTPOutcome]
    private let log = Mutex<[String]>([])

    /// - Parameter answers: Outcome by URL path, e.g. `/v2/prices/BTC-USD/spot`.
    init(_ answers: [String: HTTPOutcome]) {
        self.answers = answers
    }

    /// Every URL requested, in order.
    var requestedURLs: [String] { log.withLock { $0 } }

    func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        log.withLock { $0.append(url.absoluteString) }
        return answers[url.path()] ?? .response(status: 404, body: Array(#"{"errors":[{"id":"not_found","message":"Not found"}]}"#.utf8))
    }

    /// A Coinbase spot-price body.
    static func spot(_ base: String, _ currency: String, _ amount: String) -> HTTPOutcome {
        .response(status: 200, body: Array(#"{"data":{"base":"\#(base)","currency":"\#(currency)","amount":"\#(amount)"}}"#.utf8))
    }
}

extension HostServices {
    /// Services for in-process loader tests.
    ///
    /// - Parameter logger: Where plugins' log lines go; by default, nowhere a test reads.
    static func simulated(
        _ networking: any HostNetworking, apiBaseURL: String = "http://prices.test", logger: Logger = Logger(label: "test")
    ) -> HostServices {
        HostServices(
            networking: networking,
            configuration: Host.configuration(apiBaseURL: URL(string: apiBaseURL)!),
            logger: logger
        )
    }
}
