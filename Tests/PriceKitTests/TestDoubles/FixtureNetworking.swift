import Foundation
import PriceKit

/// A ``Networking`` double that serves `file://` URLs the way the host
/// does: the exact path, else the path with `.json` appended, else 404.
struct FixtureNetworking: Networking {
    /// `Fixtures/coinbase` in the repository, found from this file's path.
    static let coinbaseRoot = URL(filePath: #filePath)
        .deletingLastPathComponent()   // TestDoubles
        .deletingLastPathComponent()   // PriceKitTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .appending(path: "Fixtures/coinbase", directoryHint: .isDirectory)

    func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse {
        guard url.isFileURL else {
            throw TransportError(reason: "FixtureNetworking serves file:// URLs only, not \(url)")
        }
        for candidate in [url.path(), url.path() + ".json"] {
            if let data = FileManager.default.contents(atPath: candidate) {
                return HTTPResponse(status: 200, body: Array(data))
            }
        }
        return HTTPResponse(status: 404)
    }
}
