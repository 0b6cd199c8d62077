import FoundationEssentials
import Glibc

/// The offline advice after an API that could not be reached, for the very
/// request that failed: a fixture folder that holds its file, named only
/// when the file is there, else the file a folder of one's own needs.
///
/// A BTC line names `v2/prices/BTC-USD/spot.json`, a Bitstamp line
/// Bitstamp's folder and `BitstampPlugin=`, and a host outside a checkout
/// (an installed one) names no fixtures it does not have:
///
///     with no network, fetch from the offline fixtures instead: --api-base-url BitstampPlugin=file:///src/patchbay/Fixtures/bitstamp
///     with no network, give --api-base-url file:///DIR, a folder that holds DIR/v2/prices/DOGE-USD/spot.json
struct OfflineFixtures: Sendable {
    /// A folder of fixtures, and the plugin its `--api-base-url` names
    /// (nil: every plugin, as the README's offline command gives it).
    struct Folder: Sendable {
        let path: String
        let plugin: String?
    }

    /// Where to look, in order.
    let folders: [Folder]

    /// A checkout's fixtures: Coinbase-shaped ones, which the default API's
    /// plugins ask, and Bitstamp's, which the bundled BitstampPlugin asks.
    /// - Parameter checkout: The checkout the host runs from; nil for none.
    init(checkout: String?) {
        folders = checkout.map { root in
            [Folder(path: "\(root)/Fixtures/coinbase", plugin: nil), Folder(path: "\(root)/Fixtures/bitstamp", plugin: "BitstampPlugin")]
        } ?? []
    }

    /// What to do offline instead of asking `url`.
    /// - Parameter url: The URL that could not be reached.
    /// - Returns: The fixture folder that answers it, or the file a folder needs.
    func advice(for url: URL) -> String {
        // A plugin chooses the URL: a path with `..`, or anything but plain
        // names, could probe files outside the folders, so it gets no path.
        guard let relative = Self.relativePath(of: url) else {
            return "with no network, give --api-base-url file:///DIR, a folder laid out like the API"
        }
        for folder in folders where access("\(folder.path)/\(relative)", R_OK) == 0 || access("\(folder.path)/\(relative).json", R_OK) == 0 {
            return "with no network, fetch from the offline fixtures instead: --api-base-url \(folder.plugin.map { "\($0)=" } ?? "")file://\(folder.path)"
        }
        return "with no network, give --api-base-url file:///DIR, a folder that holds DIR/\(relative).json"
    }

    /// The URL's path as a file:// base reads it (no leading or trailing
    /// `/`), when every segment is a plain name; else nil.
    static func relativePath(of url: URL) -> String? {
        let segments = url.path(percentEncoded: true).split(separator: "/")
        guard !segments.isEmpty, segments.count <= 16 else { return nil }
        for segment in segments {
            guard segment != ".", segment != "..", segment.count <= 64,
                segment.utf8.allSatisfy({ $0.isPlainNameByte })
            else { return nil }
        }
        return segments.joined(separator: "/")
    }
}

extension UInt8 {
    /// A-Z, a-z, 0-9, `.`, `_` and `-`.
    fileprivate var isPlainNameByte: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2E || self == 0x5F || self == 0x2D
    }
}
