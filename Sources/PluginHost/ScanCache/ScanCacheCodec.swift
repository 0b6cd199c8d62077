import PluginBoundary
import WorkerProtocol

/// The scan cache's file format: one line per plugin file, fields
/// separated by tabs, read without a general-purpose decoder.
///
/// Every `host` run with a warm cache reads the whole file, so reading it must
/// cost little beside a thousand `stat`s: `JSONDecoder` took a third of a
/// warm `list-fetchers` over 1,000 plugins. The format is still text, so a
/// person can read it:
///
/// ```
/// patchbay-registry-cache\t2
/// host\t<identity>
/// abi\t1
/// search\t<directory>\x1f<directory>…
/// entry\t<path>\t<device>\t<inode>\t… (see `fields(of:)`)
/// end\t<number of entries>
/// ```
///
/// Text fields escape `\`, tab, newline and carriage return (`\\`, `\t`,
/// `\n`, `\r`) and the two separators used inside a field, U+001F between
/// list items and U+001E between the parts of an item (`\u`, `\v`). A missing
/// optional is an empty field; a present one starts with `=`. The last line
/// counts the entries, so a file cut short is refused, never read as fewer
/// plugins.
enum ScanCacheCodec {
    /// Why a file is not a cache this host can read.
    struct DecodeError: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    private static let magic = "patchbay-registry-cache"
    private static let itemSeparator: Character = "\u{1F}"
    private static let partSeparator: Character = "\u{1E}"
    private static let itemByte: UInt8 = 0x1F
    private static let partByte: UInt8 = 0x1E

    /// The file's bytes for `cache`.
    /// - Parameter reusingReadLines: Copy the line of each entry that has one
    ///   in ``ScanCache/readLines`` (it decodes to that entry) instead of
    ///   encoding the entry again.
    static func encode(_ cache: ScanCache, reusingReadLines: Bool = false) -> [UInt8] {
        let header = [
            "\(magic)\t\(cache.format)",
            "host\t\(escape(cache.host))",
            "abi\t\(cache.abiVersion)",
            "search\t\(list(cache.searchPath.map(escape)))",
        ]
        var bytes = Array((header.joined(separator: "\n") + "\n").utf8)
        let readLines = reusingReadLines && cache.readLines.count == cache.entries.count ? cache.readLines : []
        for (index, entry) in cache.entries.enumerated() {
            if !readLines.isEmpty, let line = readLines[index] {
                bytes += line
            } else {
                bytes += (["entry"] + fields(of: entry)).joined(separator: "\t").utf8
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        bytes += "end\t\(cache.entries.count)\n".utf8
        return bytes
    }

    /// The cache in `bytes`, or why they are not one.
    static func decode(_ bytes: [UInt8]) throws(DecodeError) -> ScanCache {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.last?.isEmpty == true else { throw DecodeError(description: "the last line is cut short") }
        lines.removeLast()
        guard lines.count >= 5 else { throw DecodeError(description: "it has \(lines.count) lines, fewer than any cache") }
        func field(_ line: ArraySlice<UInt8>, _ key: String) throws(DecodeError) -> String {
            let parts = line.split(separator: UInt8(ascii: "\t"), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, String(decoding: parts[0], as: UTF8.self) == key else {
                throw DecodeError(description: "expected a \(key) line, found \(String(decoding: line.prefix(40), as: UTF8.self).debugDescription)")
            }
            return String(decoding: parts[1], as: UTF8.self)
        }
        guard let format = Int(try field(lines[0], magic)) else { throw DecodeError(description: "its format is not a number") }
        let host = try unescape(field(lines[1], "host"))
        guard let abi = UInt32(try field(lines[2], "abi")) else { throw DecodeError(description: "its ABI version is not a number") }
        let search = try items(field(lines[3], "search")).map(unescape)
        guard let count = Int(try field(lines[lines.count - 1], "end")), count == lines.count - 5 else {
            throw DecodeError(description: "its end line does not count its \(lines.count - 5) entries")
        }
        var entries: [ScanCache.Entry] = []
        entries.reserveCapacity(count)
        var fields: [ArraySlice<UInt8>] = []
        fields.reserveCapacity(18)
        for line in lines[4..<(lines.count - 1)] {
            entries.append(try entry(line, fields: &fields))
        }
        var cache = ScanCache(host: host, abiVersion: abi, searchPath: search, entries: entries)
        cache.format = format
        cache.readLines = lines[4..<(lines.count - 1)].map { $0 }
        return cache
    }

    /// An entry's fields, in order.
    private static func fields(of entry: ScanCache.Entry) -> [String] {
        let identity = entry.identity
        let metadata = entry.metadata.map { metadata in
            list(["\(metadata.abiVersion)", "\(metadata.descriptorSize)"] + [metadata.description, metadata.author, metadata.license, metadata.homepage, metadata.apiBaseURL].map { optional($0) })
        }
        return [
            escape(entry.path), "\(identity.device)", "\(identity.inode)", "\(identity.size)", "\(identity.modifiedNanoseconds)",
            "\(identity.changedNanoseconds)", optional(entry.sha256), escape(entry.name), optional(entry.version),
            optional(entry.abiVersion.map { "\($0)" }), entry.status.rawValue, optional(entry.error), list(entry.warnings.map(escape)),
            list(entry.fetchers.map { [escape($0.symbol), escape($0.displayName), "\($0.rank)"].joined(separator: String(partSeparator)) }),
            optional(metadata, escaped: false),
            entry.sandbox.level.rawValue, list(entry.sandbox.missing.map { escape($0.layer) + String(partSeparator) + escape($0.reason) }),
        ]
    }

    /// One entry line; `fields` is scratch space, reused from line to line.
    private static func entry(_ line: ArraySlice<UInt8>, fields bytes: inout [ArraySlice<UInt8>]) throws(DecodeError) -> ScanCache.Entry {
        // Fields stay bytes until they are needed as text: numbers are read
        // from the bytes, and most optional fields are empty.
        bytes.removeAll(keepingCapacity: true)
        var start = line.startIndex
        for index in line.indices where line[index] == UInt8(ascii: "\t") {
            bytes.append(line[start..<index])
            start = index + 1
        }
        bytes.append(line[start...])
        guard bytes.count == 18, bytes[0].elementsEqual("entry".utf8) else {
            throw DecodeError(description: "an entry line has \(bytes.count - 1) fields, not 17")
        }
        func number<Value: FixedWidthInteger>(_ index: Int, _: Value.Type = Value.self) throws(DecodeError) -> Value {
            var value: Value = 0
            var digits = bytes[index][...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative {
                guard Value.isSigned else { throw DecodeError(description: "entry field \(index) is negative") }
                digits = digits.dropFirst()
            }
            for digit in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
                    throw DecodeError(description: "entry field \(index) is not a number")
                }
                // A negative number is summed downwards, so that its
                // type's minimum, which has no positive twin, reads back too.
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                let digit = Value(digit - UInt8(ascii: "0"))
                let (sum, carry) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
                guard !overflow, !carry else { throw DecodeError(description: "entry field \(index) is out of range") }
                value = sum
            }
            guard !digits.isEmpty else { throw DecodeError(description: "entry field \(index) is not a number") }
            return value
        }
        func text(_ index: Int) -> String {
            bytes[index].isEmpty ? "" : String(decoding: bytes[index], as: UTF8.self)
        }
        guard let status = PluginReport.Status(rawValue: text(11)), let level = SandboxReport.Level(rawValue: text(16)) else {
            throw DecodeError(description: "an entry has an unknown status or sandbox level")
        }
        let identity = FileIdentity(
            device: try number(2), inode: try number(3), size: try number(4), modifiedNanoseconds: try number(5), changedNanoseconds: try number(6))
        var entry = ScanCache.Entry(
            path: try unescape(text(1)), identity: identity, sha256: try optional(text(7)), name: try unescape(text(8)),
            version: try optional(text(9)), abiVersion: try optional(text(10)).flatMap { UInt32($0) }, fetchers: [], status: status,
            error: try optional(text(12)))
        entry.warnings = try items(text(13)).map(unescape)
        entry.fetchers = try items(text(14)).map { item throws(DecodeError) in
            let parts = item.utf8.split(separator: partByte, omittingEmptySubsequences: false)
            guard parts.count == 3, let rank = UInt32(String(Substring(parts[2]))) else {
                throw DecodeError(description: "a fetcher has no symbol, name and rank")
            }
            return ScanCache.Fetcher(symbol: try unescape(String(Substring(parts[0]))), displayName: try unescape(String(Substring(parts[1]))), rank: rank)
        }
        if let metadata = try optional(text(15), escaped: false) {
            let parts = items(metadata)
            guard parts.count == 7, let abi = UInt32(parts[0]), let size = UInt32(parts[1]) else {
                throw DecodeError(description: "an entry's descriptor metadata is malformed")
            }
            entry.metadata = PluginMetadata(
                abiVersion: abi, descriptorSize: size, description: try optional(parts[2]), author: try optional(parts[3]),
                license: try optional(parts[4]), homepage: try optional(parts[5]), apiBaseURL: try optional(parts[6]))
        }
        entry.sandbox = SandboxReport(
            level: level,
            missing: try items(bytes[17]).map { item throws(DecodeError) in
                let (layer, reason) = try pair(item)
                return SandboxReport.Gap(layer: layer, reason: reason)
            })
        return entry
    }

    // MARK: Fields

    private static func list(_ items: [String]) -> String {
        items.joined(separator: String(itemSeparator))
    }

    // NB: split on UTF-8 bytes, not Characters: grapheme breaking made a
    // warm listing's decoding twice as slow, and both separators are
    // one-byte control characters, which end any grapheme they are in.
    private static func items(_ field: String) -> [String] {
        field.isEmpty ? [] : field.utf8.split(separator: itemByte, omittingEmptySubsequences: false).map { String(Substring($0)) }
    }

    // ``items(_:)`` on a field's bytes, for the lists read in every warm run (a
    // plugin's fetchers): each part becomes text once, not three times.
    // Splitting on the one-byte separators before or after repairing
    // invalid UTF-8 gives the same parts.
    private static func items(_ field: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        field.isEmpty ? [] : field.split(separator: itemByte, omittingEmptySubsequences: false)
    }

    private static func pair(_ item: ArraySlice<UInt8>) throws(DecodeError) -> (String, String) {
        guard let separator = item.firstIndex(of: partByte), case let second = item[(separator + 1)...], !second.contains(partByte) else {
            throw DecodeError(description: "a list item has \(item.count { $0 == partByte } + 1) parts, not 2")
        }
        return (try unescape(String(decoding: item[..<separator], as: UTF8.self)), try unescape(String(decoding: second, as: UTF8.self)))
    }

    private static func optional(_ value: String?, escaped: Bool = true) -> String {
        value.map { "=" + (escaped ? escape($0) : $0) } ?? ""
    }

    private static func optional(_ field: String, escaped: Bool = true) throws(DecodeError) -> String? {
        // NB: the first byte, not the first Character: "=" followed by a
        // combining mark (a plugin's version "\u{301}1.0") is one Character.
        guard let first = field.utf8.first else { return nil }
        guard first == UInt8(ascii: "=") else {
            throw DecodeError(description: "an optional field starts with \(String(field.prefix(1)).debugDescription), not =")
        }
        let value = String(Substring(field.utf8.dropFirst()))
        return escaped ? try unescape(value) : value
    }

    private static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 0x1E || $0 == 0x1F }) else {
            return text
        }
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\u{1F}": escaped += "\\u"
            case "\u{1E}": escaped += "\\v"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    private static func unescape(_ text: String) throws(DecodeError) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var result = ""
        var iterator = text.unicodeScalars.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                result.unicodeScalars.append(character)
                continue
            }
            switch iterator.next() {
            case "\\": result += "\\"
            case "t": result += "\t"
            case "n": result += "\n"
            case "r": result += "\r"
            case "u": result += "\u{1F}"
            case "v": result += "\u{1E}"
            default: throw DecodeError(description: "a field has an unknown escape")
            }
        }
        return result
    }
}
