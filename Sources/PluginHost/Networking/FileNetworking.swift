#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers `file://` URLs from the file system, for offline runs and
/// fixtures shipped in the repository.
///
/// `file:///data/v2/prices/BTC-USD/spot` reads that file, or `spot.json`
/// beside it. A missing file is a 404, as a server would answer.
public struct FileNetworking: HostNetworking {
    /// Creates file-backed networking.
    public init() {}

    /// Reads the file `url` names, or the same path with `.json` appended.
    /// - Parameters:
    ///   - url: A `file://` URL.
    ///   - timeout: Ignored: a local read does not wait on anyone.
    /// - Returns: Status 200 with the file's bytes; status 404 with a
    ///   Coinbase-shaped error body when neither file exists; a failure when
    ///   the file exists but cannot be read.
    public func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        let path = url.path(percentEncoded: false)
        for candidate in [path, path + ".json"] {
            guard let facts = try? FileFacts.of(path: candidate), facts.kind != .directory else {
                continue
            }
            do {
                let data = try Data(contentsOf: URL(filePath: candidate))
                return .response(status: 200, body: Array(data))
            } catch {
                return .failure("cannot read \(candidate): \(FilePaths.reason(error))")
            }
        }
        let body = #"{"errors":[{"id":"not_found","message":"no fixture file at \#(path) or \#(path).json"}]}"#
        return .response(status: 404, body: Array(body.utf8))
    }
}
