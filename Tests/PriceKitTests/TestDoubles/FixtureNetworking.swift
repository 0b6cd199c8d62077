import Foundation
import PriceKit

/// A ``Networking`` double that serves `file://` URLs the way the host
/// does: the exact path, else the path with `.json` appended, else 404; a
/// trailing `/` is dropped first.
struct FixtureNetworking: Networking {
    /// `Fixtures` in the repository, found from this file's path.
    static let fixtures = URL(filePath: #filePath)
        .deletingLastPathComponent()   // TestDoubles
        .deletingLastPathComponent()   // PriceKitTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .appending(path: "Fixtures", directoryHint: .isDirectory)
    /// `Fixtures/coinbase`.
    static let coinbaseRoot = fixtures.appending(path: "coinbase", directoryHint: .isDirectory)
    /// `Fixtures/bitstamp`.
    static let bitstampRoot = fixtures.appending(path: "bitstamp", directoryHint: .isDirectory)

    func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse {
        guard url.isFileURL else {
            throw TransportError(reason: "FixtureNetworking serves file:// URLs only, not \(url)")
        }
        var path = url.path()
        while path.hasSuffix("/") { path.removeLast() }
        for candidate in [path, path + ".json"] {
            if let data = FileManager.default.contents(atPath: candidate) {
                return HTTPResponse(status: 200, body: Array(data))
            }
        }
        return HTTPResponse(status: 404)
    }
}
