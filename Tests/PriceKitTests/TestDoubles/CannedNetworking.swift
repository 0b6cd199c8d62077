import Foundation
import PriceKit
import Synchronization

/// A ``Networking`` double that answers every GET with one canned outcome
/// and records what it was asked.
final class CannedNetworking: Networking {
    struct Request: Equatable {
        let url: URL
        let timeout: Duration?
    }

    private let outcome: Result<HTTPResponse, TransportError>
    private let recorded = Mutex<[Request]>([])

    init(_ outcome: Result<HTTPResponse, TransportError>) {
        self.outcome = outcome
    }

    /// Answers `status` with `body` as UTF-8.
    static func answering(status: Int = 200, _ body: String) -> CannedNetworking {
        CannedNetworking(.success(HTTPResponse(status: status, body: Array(body.utf8))))
    }

    /// Fails every request as the host does when nothing answered.
    static func failing(_ reason: String) -> CannedNetworking {
        CannedNetworking(.failure(TransportError(reason: reason)))
    }

    var requests: [Request] { recorded.withLock { $0 } }

    func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse {
        recorded.withLock { $0.append(Request(url: url, timeout: timeout)) }
        return try outcome.get()
    }
}
