import HostHTTPABI

/// A request copied out of its `host_http_request`.
struct RequestSpec: Sendable {
    let url: String
    let timeout: Duration
    let maximumBodySize: Int
    /// Which client performs it: the proxy and the trust roots.
    let client: ClientKey

    init?(_ request: host_http_request) {
        guard let url = request.url else { return nil }
        self.url = String(cString: url)
        self.timeout = .milliseconds(Int64(request.timeout_ms))
        self.maximumBodySize = Int(clamping: request.max_body_bytes)
        let proxy = request.proxy_host.map { host in
            ClientKey.Proxy(
                host: String(cString: host), port: Int(request.proxy_port), username: request.proxy_username.map { String(cString: $0) },
                password: request.proxy_password.map { String(cString: $0) })
        }
        // Plain http reads no trust root, so its clients ignore them.
        guard self.url.prefix(6).lowercased() == "https:" else {
            self.client = ClientKey(proxy: proxy, usesTLS: false, trustsSystemRoots: true, caPaths: [])
            return
        }
        let paths = (0..<request.ca_path_count).compactMap { index in request.ca_paths?[index].map { String(cString: $0) } }
        self.client = ClientKey(proxy: proxy, usesTLS: true, trustsSystemRoots: request.trust_system_roots != 0, caPaths: paths)
    }
}
