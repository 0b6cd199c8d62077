import FoundationEssentials

/// Where one request goes.
enum ProxyDecision: Sendable, Equatable {
    case direct(because: String)
    case through(ProxyServer)
}
