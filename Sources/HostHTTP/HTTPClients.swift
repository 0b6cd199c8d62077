import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

import Glibc

/// What sets one client apart from another: where it connects through and
/// which certificates it trusts.
struct ClientKey: Hashable, Sendable {
    /// An HTTP proxy that tunnels every request with CONNECT.
    struct Proxy: Hashable, Sendable {
        let host: String
        let port: Int
        let username: String?
        let password: String?

        /// `host:port`, never the credentials.
        var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

        /// The `Proxy-Authorization` value, when there are credentials.
        var authorization: HTTPClient.Authorization? {
            username.map { .basic(username: $0, password: password ?? "") }
        }
    }

    let proxy: Proxy?
    /// Whether requests are `https`: a plain `http` client builds no TLS
    /// configuration and reads no CA file, so its trust fields are left at
    /// their defaults (one plain client per proxy).
    let usesTLS: Bool
    let trustsSystemRoots: Bool
    /// PEM files and directories of extra trust roots.
    let caPaths: [String]
}

/// One client per ``ClientKey`` for the life of the process, so none ever
/// needs a shutdown and connections are reused between requests.
enum HTTPClients {
    /// What making each client gave; a failure (an unreadable CA file) is
    /// kept too, as every request with that key would fail the same way.
    private static let clients = Mutex<[ClientKey: Result<HTTPClient, LibraryError>]>([:])

    /// The client for `key`, made on first use.
    static func client(for key: ClientKey) -> Result<HTTPClient, LibraryError> {
        // Made under the lock: it reads a few small files, once per key.
        clients.withLock { clients in
            if let known = clients[key] { return known }
            let made = Result { () throws(LibraryError) in try make(key) }
            clients[key] = made
            return made
        }
    }

    /// Connection attempts are not retried: a command-line run should say
    /// "connection refused" at once; the host decides what is worth asking
    /// again. Redirects are not followed: the host checks each hop against
    /// its URL policy before it asks for the next.
    private static func make(_ key: ClientKey) throws(LibraryError) -> HTTPClient {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        // NB: AsyncHTTPClient makes its TLS context only for an https
        // connection; the trust roots are read here, so only then too.
        if key.usesTLS { configuration.tlsConfiguration = try tlsConfiguration(key) }
        if let proxy = key.proxy {
            configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: proxy.authorization)
        }
        return HTTPClient(eventLoopGroup: eventLoops, configuration: configuration)
    }

    /// One event-loop thread for every client: a run makes a few requests
    /// at once, and NIO's shared group would start one thread per core.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The client TLS settings for `key`: the system's roots unless it says
    /// otherwise, and its extra roots beside them. With the system's roots,
    /// the system's own bundle and directory (often what `SSL_CERT_FILE` and
    /// `SSL_CERT_DIR` name) are left to BoringSSL, which already reads the
    /// bundle once and looks the directory up by hash, as OpenSSL does.
    static func tlsConfiguration(_ key: ClientKey) throws(LibraryError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        let paths = key.trustsSystemRoots ? key.caPaths.filter { !SystemTrustStore.isLoadedByDefault($0) } : key.caPaths
        let extra = try TrustRoots.certificates(in: paths)
        if key.trustsSystemRoots {
            tls.trustRoots = .default
            if !extra.isEmpty { tls.additionalTrustRoots = [.certificates(extra)] }
        } else {
            tls.trustRoots = .certificates(extra)
        }
        return tls
    }
}

/// Reads extra trust roots from PEM files and directories.
enum TrustRoots {
    /// Every certificate in `paths`. A file must hold at least one; a
    /// directory's files that hold none are skipped, as OpenSSL skips them.
    static func certificates(in paths: [String]) throws(LibraryError) -> [NIOSSLCertificate] {
        var certificates: [NIOSSLCertificate] = []
        for path in paths {
            var facts = stat()
            guard stat(path, &facts) == 0 else {
                throw LibraryError(.trustRoots, "cannot read the CA certificates in \(path) (\(HTTPGet.describe(IOError(errnoCode: errno, reason: "stat"))))")
            }
            if facts.st_mode & S_IFMT == S_IFDIR {
                for file in files(in: path) {
                    certificates += (try? NIOSSLCertificate.fromPEMFile(file)) ?? []
                }
                continue
            }
            let found: [NIOSSLCertificate]
            do {
                found = try NIOSSLCertificate.fromPEMFile(path)
            } catch {
                throw LibraryError(.trustRoots, "cannot read the CA certificates in \(path): it is not a PEM file of certificates")
            }
            guard !found.isEmpty else {
                throw LibraryError(.trustRoots, "cannot read the CA certificates in \(path): it holds no PEM certificate")
            }
            certificates += found
        }
        return certificates
    }

    /// The regular files (or links to them) directly inside `directory`.
    private static func files(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var files: [String] = []
        while let entry = readdir(stream) {
            // NB: read in place; copying `d_name` copies 256 bytes, past a short record
            // at the end of readdir's buffer (Foundation's Process.run crashes so, swift-corelibs-foundation#5472).
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self))
            guard !name.hasPrefix(".") else { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var facts = stat()
            if stat(path, &facts) == 0, facts.st_mode & S_IFMT == S_IFREG { files.append(path) }
        }
        return files.sorted()
    }
}
