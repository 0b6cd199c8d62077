import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

import Glibc

/// Why a server's certificate was refused, found after the fact.
///
/// NB: BoringSSL keeps the X509 verify result (expired, unknown issuer) on
/// the connection, and NIOSSL reports only `CERTIFICATE_VERIFY_FAILED`.
/// So when a handshake fails that way, a second handshake to the same
/// server, through the same proxy, keeps the chain the server presents and
/// reads its dates. Only failures pay for it.
enum CertificateDiagnosis {
    /// What the second handshake found.
    enum Reason: Equatable {
        /// The chain is in date: its issuer is not trusted.
        case untrusted
        /// A certificate of the chain expired at this time.
        case expired(time_t)
        /// A certificate of the chain is valid only from this time.
        case notYetValid(time_t)
        /// The server could not be asked again.
        case unknown

        /// The failure to report for `target`.
        func failure(for target: Endpoint) -> LibraryError {
            switch self {
            case .untrusted:
                LibraryError(.certificateUntrusted, "the TLS certificate of \(target) is not signed by a trusted certificate authority")
            case .expired(let time):
                LibraryError(.certificateExpired, "the TLS certificate of \(target) expired on \(CertificateDiagnosis.utc(time))")
            case .notYetValid(let time):
                LibraryError(.certificateNotYetValid, "the TLS certificate of \(target) is not valid until \(CertificateDiagnosis.utc(time))")
            case .unknown:
                LibraryError(.certificateUntrusted, "the TLS certificate of \(target) could not be verified")
            }
        }
    }

    /// Whether BoringSSL refused the peer's certificate chain.
    ///
    /// NB: NIOSSL exposes BoringSSL's error code only in the description.
    static func isVerificationFailure(_ error: BoringSSLInternalError) -> Bool {
        error.description.contains("CERTIFICATE_VERIFY_FAILED")
    }

    /// BoringSSL's reason, e.g. "wrong version number", without the file
    /// path inside the build that its description carries.
    static func reasonName(_ error: BoringSSLError) -> String {
        let stack: [BoringSSLInternalError]
        switch error {
        case .sslError(let errors), .unknownError(let errors): stack = errors
        default: return "\(error)"
        }
        guard let first = stack.first else { return "no reason given" }
        var text = Substring(first.description)
        if let at = text.firstRange(of: " at ") { text = text[..<at.lowerBound] }
        if let colon = text.lastIndex(of: ":") { text = text[text.index(after: colon)...] }
        return String(text.lowercased().map { $0 == "_" ? " " : $0 })
    }

    /// Connects to `target` again, through the client's proxy, and reads the
    /// dates of the chain it presents, within the fetch's own deadline (a
    /// shorter cap of its own gave the vague reason on a busy machine).
    static func diagnose(_ target: Endpoint, client: ClientKey, deadline: NIODeadline) async -> Reason {
        let chain = Mutex<[NIOSSLCertificate]>([])
        let limit = deadline
        do {
            let context = try NIOSSLContext(configuration: .makeClientConfiguration())
            let (host, port) = client.proxy.map { ($0.host, $0.port) } ?? (target.host, target.port)
            let channel = try await ClientBootstrap(group: HTTPClients.eventLoops)
                .connectTimeout(max(limit - .now(), .milliseconds(1)))
                .connect(host: host, port: port).get()
            let timer = channel.eventLoop.scheduleTask(deadline: limit) { () -> Void in channel.close(promise: nil) }
            defer { timer.cancel() }
            if let proxy = client.proxy {
                let opened = try await channel.eventLoop.submit {
                    let handler = TunnelHandler(promise: channel.eventLoop.makePromise())
                    try channel.pipeline.syncOperations.addHandler(handler)
                    return handler.promise.futureResult
                }.get()
                var request = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
                if let authorization = proxy.authorization { request += "Proxy-Authorization: \(authorization.headerValue)\r\n" }
                try await channel.writeAndFlush(ByteBuffer(string: request + "\r\n")).get()
                try await opened.get()
            }
            let serverName = isIPAddress(target.host) ? nil : target.host
            try await channel.eventLoop.submit {
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName) { certificates, promise in
                    chain.withLock { $0 = certificates }
                    promise.succeed(NIOSSLVerificationResult.failed)
                }
                try channel.pipeline.syncOperations.addHandler(handler)
            }.get()
            // The handler closes the channel once the handshake fails.
            try? await channel.closeFuture.get()
        } catch {
            return .unknown
        }
        return classify(chain.withLock { $0 }, now: time(nil))
    }

    /// A chain out of date says so; one in date was refused for its issuer.
    static func classify(_ chain: [NIOSSLCertificate], now: time_t) -> Reason {
        guard !chain.isEmpty else { return .unknown }
        for certificate in chain {
            if certificate.notValidAfter < now { return .expired(certificate.notValidAfter) }
            if certificate.notValidBefore > now { return .notYetValid(certificate.notValidBefore) }
        }
        return .untrusted
    }

    /// `2025-01-31 12:00 UTC`.
    static func utc(_ time: time_t) -> String {
        var seconds = time
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "\(time)" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }

    /// Whether `host` is an IPv4 or IPv6 literal, which TLS never sends as a server name.
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

/// Reads a proxy's answer to CONNECT, then passes every byte on untouched.
private final class TunnelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let promise: EventLoopPromise<Void>
    private var head: [UInt8] = []
    private var open = false

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !open else { return context.fireChannelRead(data) }
        var buffer = unwrapInboundIn(data)
        head += buffer.readBytes(length: buffer.readableBytes) ?? []
        guard let end = head.indices.dropLast(3).first(where: { head[$0...].starts(with: [13, 10, 13, 10]) }) else { return }
        let statusLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
        let status = statusLine.split(separator: " ").dropFirst().first
        guard status == "200" else {
            promise.fail(HTTPClientError.invalidProxyResponse)
            context.close(promise: nil)
            return
        }
        open = true
        promise.succeed(())
        let rest = head[(end + 4)...]
        if !rest.isEmpty { context.fireChannelRead(wrapInboundOut(ByteBuffer(bytes: rest))) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(HTTPClientError.invalidProxyResponse)
        context.fireChannelInactive()
    }
}
