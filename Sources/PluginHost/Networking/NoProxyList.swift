/// The hosts that bypass the proxy, as curl reads `NO_PROXY`: a comma- or
/// space-separated list of host names, domains, IP addresses, IPv4 ranges
/// in CIDR form, or `*` for every host.
///
/// `example.com` and `.example.com` both match `example.com` and every name
/// under it; `127.0.0.1` matches that address; `10.0.0.0/8` matches the
/// range. Ports in entries are ignored, and names compare without case.
package struct NoProxyList: Sendable, Equatable {
    private enum Entry: Sendable, Equatable {
        case everything
        case domain(String)
        case ipv4Range(address: UInt32, prefix: Int)
    }

    private let entries: [Entry]

    /// Reads a `NO_PROXY` value; an empty one matches nothing.
    package init(_ text: String) {
        entries = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).compactMap { raw in
            var entry = raw.lowercased()
            if entry == "*" { return .everything }
            if let slash = entry.firstIndex(of: "/"), let prefix = Int(entry[entry.index(after: slash)...]),
                let address = Self.ipv4(String(entry[..<slash])), (0...32).contains(prefix)
            {
                return .ipv4Range(address: address, prefix: prefix)
            }
            if entry.hasPrefix("[") , let close = entry.firstIndex(of: "]") {
                entry = String(entry[entry.index(after: entry.startIndex)..<close])
            } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
                entry = String(entry[..<colon])
            }
            while entry.hasPrefix(".") { entry.removeFirst() }
            while entry.hasSuffix(".") { entry.removeLast() }
            return entry.isEmpty ? nil : .domain(entry)
        }
    }

    /// Whether requests to `host` go directly rather than through the proxy.
    /// - Parameter host: A host name or IP address, IPv6 without brackets.
    package func matches(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        let address = Self.ipv4(name)
        return entries.contains { entry in
            switch entry {
            case .everything:
                return true
            case .domain(let domain):
                return name == domain || (address == nil && name.hasSuffix("." + domain))
            case .ipv4Range(let network, let prefix):
                guard let address else { return false }
                let mask: UInt32 = prefix == 0 ? 0 : ~UInt32(0) << (32 - prefix)
                return address & mask == network & mask
            }
        }
    }

    /// A dotted-quad IPv4 address as a number, or nil.
    private static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
