import FoundationEssentials

/// Sends each URL to the networking for its scheme: `file` to one, `http`
/// and `https` to another. Any other scheme fails without I/O.
package struct SchemeRoutingNetworking: HostNetworking {
    let web: any HostNetworking
    let files: any HostNetworking

    /// Creates a router.
    /// - Parameters:
    ///   - web: Handles `http` and `https`.
    ///   - files: Handles `file`.
    package init(web: any HostNetworking, files: any HostNetworking) {
        self.web = web
        self.files = files
    }

    /// Hands `url` to the networking for its scheme.
    /// - Parameters:
    ///   - url: An `http`, `https` or `file` URL.
    ///   - timeout: Passed on unchanged.
    /// - Returns: What that networking answered, or a failure naming the
    ///   unsupported scheme.
    package func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        switch url.scheme?.lowercased() {
        case "http", "https": await web.get(url, timeout: timeout)
        case "file": await files.get(url, timeout: timeout)
        default: .failure(Self.unsupported(url))
        }
    }

    /// Hands `url` to the networking for its scheme, for one hop.
    /// - Parameters:
    ///   - url: An `http`, `https` or `file` URL.
    ///   - timeout: Passed on unchanged.
    /// - Returns: What that networking answered, or a failure naming the
    ///   unsupported scheme.
    package func hop(_ url: URL, timeout: Duration) async -> HTTPHop {
        switch url.scheme?.lowercased() {
        case "http", "https": await web.hop(url, timeout: timeout)
        case "file": await files.hop(url, timeout: timeout)
        default: .outcome(.failure(Self.unsupported(url)))
        }
    }

    private static func unsupported(_ url: URL) -> String {
        "unsupported URL scheme in \(url.absoluteString); use http, https or file"
    }
}
