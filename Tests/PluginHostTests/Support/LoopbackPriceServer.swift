import Foundation
import HostShared
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A real HTTP server on 127.0.0.1 with scripted answers, for end-to-end
/// tests of the `host` executable. Nothing leaves the machine.
final class LoopbackPriceServer: Sendable {
    /// What the server does for a path.
    enum Reply: Sendable {
        /// Answer at once.
        case respond(status: Int, body: String)
        /// Answer only once `count` requests have arrived in total (proves
        /// requests are in flight together), or after `limit` regardless.
        case respondWhenConcurrent(count: Int, limit: Duration, status: Int, body: String)
        /// Answer after `delay`: a slow API. The delay is the scenario a test
        /// sets up (a source slower than a stranger), never a wait for a result.
        case respondAfter(Duration, status: Int, body: String)
        /// Never answer; the connection stays open until the server stops.
        case hang
        /// Answer 302 with this `Location`.
        case redirect(to: String)
        /// Answer at once, with these headers too.
        case respondWithHeaders(status: Int, headers: [String: String], body: String)
        /// Each request gets the next reply; the last one repeats.
        indirect case sequence([Reply])
    }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let shared: Shared

    /// The state handlers on the event loop and the test thread both touch.
    final class Shared: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
        func withLock<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }
    }

    struct State {
        var routes: [String: Reply] = [:]
        var requests: [String] = []
        /// How many requests each `.sequence` path has answered.
        var served: [String: Int] = [:]
        var inFlight = 0
        var maximumInFlight = 0
        var waiters: [(count: Int, reply: @Sendable () -> Void)] = []
    }

    /// The base URL to pass as `--api-base-url`.
    let baseURL: String
    /// The port it listens on, on 127.0.0.1.
    let port: Int

    /// Starts a server on an ephemeral loopback port.
    /// - Parameters:
    ///   - routes: The reply for each path.
    ///   - tls: Serve HTTPS with this configuration, rather than HTTP.
    ///   - hostName: The host the base URL names; it must be one that
    ///     reaches 127.0.0.1, or one a test proxy maps there.
    init(routes: [String: Reply], tls: TLSConfiguration? = nil, hostName: String = "127.0.0.1") async throws {
        let state = Shared(State(routes: routes))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let context = try tls.map(NIOSSLContext.init(configuration:))
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        self.group = group
        self.channel = channel
        self.shared = state
        self.port = channel.localAddress?.port ?? 0
        self.baseURL = "\(tls == nil ? "http" : "https")://\(hostName):\(self.port)"
    }

    /// The paths requested so far, in arrival order.
    var requests: [String] { shared.withLock { $0.requests } }

    /// The most requests that were open at the same time.
    var maximumInFlight: Int { shared.withLock { $0.maximumInFlight } }

    /// Stops the server and closes any hanging connections.
    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        // @unchecked: NIO calls a handler only on its channel's event loop.
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let state: Shared
        init(state: Shared) { self.state = state }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            let path = head.uri
            let (reply, ready) = state.withLock { state -> (Reply, [@Sendable () -> Void]) in
                state.requests.append(path)
                state.inFlight += 1
                state.maximumInFlight = max(state.maximumInFlight, state.inFlight)
                var reply = state.routes[path] ?? .respond(status: 404, body: #"{"errors":[{"id":"not_found","message":"Not found"}]}"#)
                if case .sequence(let replies) = reply, !replies.isEmpty {
                    let index = state.served[path, default: 0]
                    state.served[path] = index + 1
                    reply = replies[min(index, replies.count - 1)]
                }
                let ready = state.waiters.filter { $0.count <= state.requests.count }.map(\.reply)
                state.waiters.removeAll { $0.count <= state.requests.count }
                return (reply, ready)
            }
            ready.forEach { $0() }

            let loop = context.eventLoop
            let channel = context.channel
            let respond: @Sendable (Int, String, [String: String]) -> Void = { [state] status, body, extra in
                loop.execute {
                    state.withLock { $0.inFlight -= 1 }
                    var headers = HTTPHeaders()
                    for (name, value) in extra.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
                    headers.add(name: "Content-Type", value: "application/json")
                    headers.add(name: "Content-Length", value: "\(body.utf8.count)")
                    let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers)
                    channel.write(HTTPServerResponsePart.head(head), promise: nil)
                    channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body))), promise: nil)
                    channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
                }
            }
            switch reply {
            case .respond(let status, let body):
                respond(status, body, [:])
            case .respondWithHeaders(let status, let headers, let body):
                respond(status, body, headers)
            case .redirect(let location):
                respond(302, "", ["Location": location])
            case .respondAfter(let delay, let status, let body):
                let (seconds, attoseconds) = delay.components
                loop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) { respond(status, body, [:]) }
            case .hang, .sequence:
                break
            case .respondWhenConcurrent(let count, let limit, let status, let body):
                let once = Once { respond(status, body, [:]) }
                let arrived = state.withLock { state in
                    if state.requests.count >= count { return true }
                    state.waiters.append((count, { once.run() }))
                    return false
                }
                if arrived {
                    once.run()
                } else {
                    loop.scheduleTask(in: .nanoseconds(Int64(limit.components.seconds * 1_000_000_000))) { once.run() }
                }
            }
        }
    }
}

/// Runs a closure at most once, from any thread.
private final class Once: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>
    init(_ action: @escaping @Sendable () -> Void) { self.action = Mutex(action) }
    func run() { action.withLock { action in defer { action = nil }; return action }?() }
}
