import Foundation
import Synchronization

/// An HTTP CONNECT proxy on 127.0.0.1 that records every tunnel it is asked
/// for, for end-to-end tests of the host's proxy support.
///
/// It never leaves the machine: a tunnel to 127.0.0.1, or to a name in its
/// `names` table (each mapped to 127.0.0.1), is opened; any other target is
/// answered 502 and recorded all the same. Blocking sockets on threads of
/// their own keep it independent of the event loops the test also runs.
final class LoopbackConnectProxy: Sendable {
    /// One CONNECT request as the proxy received it.
    struct Tunnel: Sendable, Equatable {
        /// `host:port`, as the client wrote it.
        let target: String
        /// The user name of a `Proxy-Authorization: Basic` header, if any.
        let user: String?
        /// Its password.
        let password: String?
    }

    /// The URL to set as `HTTPS_PROXY` or pass as `--proxy`.
    let url: String
    let port: Int

    private let listener: Int32
    private let names: Set<String>
    private let tunnels = Mutex<[Tunnel]>([])

    /// Starts listening on an ephemeral loopback port.
    /// - Parameter names: Host names to tunnel to 127.0.0.1, as a DNS server
    ///   on the proxy's side would; the host itself never resolves them.
    init(names: Set<String> = []) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE)
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.url = "http://127.0.0.1:\(port)"
        self.names = names
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The tunnels asked for so far, in order.
    var recorded: [Tunnel] { tunnels.withLock { $0 } }

    /// Stops accepting; open tunnels end when their client closes them.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let head = Self.readHead(client) else { return }
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let words = lines.first?.split(separator: " ") ?? []
        guard words.count == 3, words[0] == "CONNECT" else {
            Self.send(client, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            return
        }
        let target = String(words[1])
        var user: String?
        var password: String?
        for line in lines.dropFirst() where line.lowercased().hasPrefix("proxy-authorization: basic ") {
            let encoded = line.dropFirst("proxy-authorization: basic ".count)
            if let data = Data(base64Encoded: String(encoded)), let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") {
                user = String(text[..<colon])
                password = String(text[text.index(after: colon)...])
            }
        }
        tunnels.withLock { $0.append(Tunnel(target: target, user: user, password: password)) }
        guard let colon = target.lastIndex(of: ":"), let port = UInt16(target[target.index(after: colon)...]) else {
            Self.send(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            return
        }
        let host = String(target[..<colon])
        guard host == "127.0.0.1" || names.contains(host), let upstream = Self.connectLoopback(port: port) else {
            Self.send(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        }
        defer { close(upstream) }
        Self.send(client, "HTTP/1.1 200 Connection established\r\n\r\n")
        Self.pump(client, upstream)
    }

    /// Reads up to the blank line that ends a request head, byte by byte so
    /// that nothing after it is consumed.
    private static func readHead(_ socket: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 16384 {
            guard recv(socket, &byte, 1, 0) == 1 else { return nil }
            bytes.append(byte)
            if bytes.suffix(4) == [13, 10, 13, 10] { return String(decoding: bytes.dropLast(4), as: UTF8.self) }
        }
        return nil
    }

    private static func send(_ socket: Int32, _ text: String) {
        _ = sendAll(socket, Array(text.utf8)[...])
    }

    /// Writes every byte, or returns false when the socket is gone.
    private static func sendAll(_ socket: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return true }
            var sent = 0
            while sent < buffer.count {
                let count = Glibc.send(socket, start + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    private static func connectLoopback(port: UInt16) -> Int32? {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard upstream >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        if connected { return upstream }
        close(upstream)
        return nil
    }

    /// Copies bytes both ways until either side closes.
    private static func pump(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            guard poll(&fds, 2, -1) > 0 else {
                if errno == EINTR { continue }
                return
            }
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let count = recv(entry.fd, &buffer, buffer.count, 0)
                if count <= 0 { return }
                guard sendAll(index == 0 ? b : a, buffer[..<count]) else { return }
            }
        }
    }
}
