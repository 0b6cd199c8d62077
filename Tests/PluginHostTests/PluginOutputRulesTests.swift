import PluginABI
import PluginBoundary
@testable import PluginHost
import Testing
import WorkerProtocol

/// The rules every plugin-supplied value passes, in-process and isolated.
@Suite("What the host believes of a plugin")
struct PluginOutputRulesTests {
    static let plugin = PluginIdentity(name: "TestPlugin", version: "1.0.0", path: "/plugins/test.so", voucher: .bundled)
    static let request = PluginOutputRules.Request(symbol: "ETH", currency: "USD", plugin: plugin)

    @Test("Plain decimals are amounts", arguments: ["0", "1", "15840.01", "-3.5", "2718.281828459045235360287", String(repeating: "9", count: 40)])
    func plainDecimalsAreAccepted(amount: String) {
        #expect(PluginOutputRules.isPlainDecimal(amount))
    }

    @Test("Anything else is not", arguments: [
        "", "abc", "1e5", "NaN", "inf", "-", ".5", "5.", "1.2.3", "+1", " 1", "1 ", "1,000", "0x10", "١٢", "1\n", "--1",
        String(repeating: "9", count: 41), "1." + String(repeating: "0", count: 40),
    ])
    func otherTextIsRefused(amount: String) {
        #expect(!PluginOutputRules.isPlainDecimal(amount))
    }

    @Test("A quote for the symbol and currency asked, with a plain decimal, is accepted")
    func aGoodQuote() throws {
        let quote = try PluginOutputRules.quote(.init(base: "ETH", currency: "USD", amount: "3021.45"), for: Self.request).get()
        #expect(quote == Quote(symbol: "ETH", base: "ETH", currency: "USD", amount: "3021.45", plugin: Self.plugin))
    }

    @Test("A quote that omits base and currency gets the ones asked for")
    func omittedFieldsAreFilledIn() throws {
        let quote = try PluginOutputRules.quote(.init(amount: "1"), for: Self.request).get()
        #expect((quote.base, quote.currency) == ("ETH", "USD"))
    }

    @Test("A quote that breaks a rule becomes the symbol's error, naming the plugin", arguments: [
        (PluginOutputRules.Answer(base: "BTC", currency: "USD", amount: "1"), #"its base asset "BTC" is not the symbol asked for, ETH"#),
        (PluginOutputRules.Answer(base: "ETH", currency: "EUR", amount: "1"), #"its currency "EUR" is not the currency asked for, USD"#),
        (PluginOutputRules.Answer(amount: "1e5"), #"its amount "1e5" is not a plain decimal such as 1234.56 with at most 40 digits"#),
        (PluginOutputRules.Answer(error: String(repeating: "x", count: 513)), "its error message is longer than 512 bytes"),
    ])
    func badQuotesAreRefused(answer: PluginOutputRules.Answer, reason: String) {
        let result = PluginOutputRules.quote(answer, for: Self.request)
        #expect(result.failure?.message == "TestPlugin gave an answer the host refused: \(reason)")
    }

    @Test("An error wins over an amount, and an answer with neither says so")
    func errorsAndEmptyAnswers() {
        #expect(PluginOutputRules.quote(.init(amount: "1", error: "rate limited"), for: Self.request).failure?.message == "rate limited")
        #expect(PluginOutputRules.quote(.init(), for: Self.request).failure?.message == "TestPlugin answered with neither an amount nor an error")
    }

    @Test("C strings are read no further than the limit, and must be UTF-8")
    func cStrings() throws {
        let valid: [CChar] = Array("Ethereum".utf8CString)
        #expect(try valid.withUnsafeBufferPointer { try PluginOutputRules.text($0.baseAddress, .displayName, limit: 8) } == "Ethereum")
        #expect(throws: PluginOutputRules.Violation(field: .displayName, rule: "is longer than 7 bytes")) {
            try valid.withUnsafeBufferPointer { try PluginOutputRules.text($0.baseAddress, .displayName, limit: 7) }
        }
        // No NUL within the limit: only limit + 1 bytes are ever read.
        let unterminated: [CChar] = Array(repeating: 65, count: 9)
        #expect(throws: PluginOutputRules.Violation(field: .name, rule: "is longer than 8 bytes")) {
            try unterminated.withUnsafeBufferPointer { try PluginOutputRules.text($0.baseAddress, .name, limit: 8) }
        }
        let invalid: [CChar] = [65, -1, 66, 0]
        #expect(throws: PluginOutputRules.Violation(field: .name, rule: "is not valid UTF-8")) {
            try invalid.withUnsafeBufferPointer { try PluginOutputRules.text($0.baseAddress, .name, limit: 8) }
        }
        #expect(try PluginOutputRules.text(nil, .name, limit: 8) == nil)
    }

    /// Every capped text field a plugin supplies, with its cap written out
    /// (not read from ``PluginOutputRules/Limit``, so that raising a cap fails
    /// here), and how the host reads it: from C memory or from a worker's frame.
    enum CappedField: String, CaseIterable, Sendable {
        case name, version, displayName, description, author, license, homepage, apiBaseURL, base, currency, amount, error

        /// The cap in bytes; the amount's is its 40 digits, a sign and a point.
        var cap: Int {
            switch self {
            case .name, .displayName: 64
            case .version: 32
            case .description, .apiBaseURL, .error: 512
            case .author, .license, .homepage: 128
            case .base, .currency: 16
            case .amount: 42
            }
        }

        var field: PluginOutputRules.Field {
            switch self {
            case .name: .name
            case .version: .version
            case .displayName: .displayName
            case .description: .description
            case .author: .author
            case .license: .license
            case .homepage: .homepage
            case .apiBaseURL: .apiBaseURL
            case .base: .base
            case .currency: .currency
            case .amount: .amount
            case .error: .error
            }
        }

        /// Reads `text` through the rule the host applies to this field: a
        /// descriptor's name and version and a display name as a worker's
        /// frames bring them, the descriptor's other text and an answer from
        /// C memory, as an in-process plugin hands them over.
        func read(_ text: String) throws(PluginOutputRules.Violation) {
            switch self {
            case .name: _ = try PluginOutputRules.identity(name: text, version: "1")
            case .version: _ = try PluginOutputRules.identity(name: "N", version: text)
            case .displayName: _ = try PluginOutputRules.displayName(text, symbol: "X")
            default: break
            }
            var failure: PluginOutputRules.Violation?
            text.withCString { pointer in
                do throws(PluginOutputRules.Violation) {
                    switch self {
                    case .name, .version, .displayName:
                        break
                    case .description, .author, .license, .homepage, .apiBaseURL:
                        _ = try PluginOutputRules.metadata(
                            abiVersion: 1, descriptorSize: 80, description: self == .description ? pointer : nil, author: self == .author ? pointer : nil,
                            license: self == .license ? pointer : nil, homepage: self == .homepage ? pointer : nil,
                            apiBaseURL: self == .apiBaseURL ? pointer : nil)
                    case .base, .currency, .amount, .error:
                        var result = pb_fetch_result()
                        result.struct_size = UInt32(MemoryLayout<pb_fetch_result>.size)
                        switch self {
                        case .base: result.base = pointer
                        case .currency: result.currency = pointer
                        case .amount: result.amount = pointer
                        default: result.error = pointer
                        }
                        _ = try PluginOutputRules.answer(from: result)
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
    }

    @Test("Each text field a plugin supplies is capped: its cap in bytes passes, one byte more is refused, naming the cap", arguments: CappedField.allCases)
    func capsOnPluginText(field: CappedField) throws {
        let fits = String(repeating: "7", count: field.cap)
        #expect(throws: Never.self) { try field.read(fits) }
        // A name's rule names the cap with the letters it may hold.
        let rule = field.field == .name
            ? #""\#(String(repeating: "7", count: 40))…" is not 1 to \#(field.cap) ASCII letters, digits, '.', '_' or '-'"# : "is longer than \(field.cap) bytes"
        #expect(throws: PluginOutputRules.Violation(field: field.field, rule: rule)) {
            try field.read(fits + "7")
        }
    }

    @Test("Symbols follow the header's rule, with the cases the SDK is held to")
    func symbols() throws {
        let cases = try ABIRuleCases.load().symbols
        for symbol in cases.valid {
            #expect(throws: Never.self, "\(symbol.debugDescription) is valid") { try PluginOutputRules.symbol(symbol) }
        }
        for symbol in cases.invalid {
            #expect(throws: PluginOutputRules.Violation.self, "\(symbol.debugDescription) is invalid") { try PluginOutputRules.symbol(symbol) }
        }
        #expect(throws: PluginOutputRules.Violation(field: .symbol, rule: #""eth" is not 1 to 16 upper-case letters or digits"#)) {
            try PluginOutputRules.symbol("eth")
        }
    }

    @Test("Long log lines are cut, not lost")
    func logLines() {
        let long = String(repeating: "a", count: PluginOutputRules.Limit.logLine + 10)
        #expect(PluginOutputRules.logLine(long) == String(repeating: "a", count: PluginOutputRules.Limit.logLine) + "… (cut at 2048 bytes)")
        #expect(PluginOutputRules.logLine("short") == "short")
    }

    @Test("A worker's load report gets the same rules: symbol, duplicates, lengths")
    func workerReports() throws {
        func reply(_ symbols: [String], name: String = "W") -> LoadReply {
            .registered(
                LoadReply.Descriptor(name: name, version: "1", metadata: PluginMetadata(abiVersion: 1, descriptorSize: 80, description: nil, author: nil, license: nil, homepage: nil)),
                LoadReply.Registrations(fetchers: symbols.map { .init(symbol: $0, displayName: $0, rank: 128) }, duplicates: [], refused: []))
        }
        func symbols(_ reply: LoadReply) -> [String] {
            if case .registered(_, let registrations) = reply { registrations.fetchers.map(\.symbol) } else { [] }
        }
        #expect(try symbols(reply(["ETH"]).checked(for: "/x")) == ["ETH"])
        #expect(throws: PluginOutputRules.Violation(field: .symbol, rule: "ETH is listed twice")) { try reply(["ETH", "ETH"]).checked(for: "/x") }
        #expect(throws: PluginOutputRules.Violation(field: .symbol, rule: #""E\#u{1B}[31mVIL" is not 1 to 16 upper-case letters or digits"#)) {
            try reply(["E\u{1B}[31mVIL"]).checked(for: "/x")
        }
        #expect(throws: PluginOutputRules.Violation(field: .name, rule: #""\#(String(repeating: "n", count: 40))…" is not 1 to 64 ASCII letters, digits, '.', '_' or '-'"#)) {
            try reply(["ETH"], name: String(repeating: "n", count: 65)).checked(for: "/x")
        }
        // Which plugin keeps a symbol is the host's to decide: a worker may only name its own file as an owner.
        let stolen = LoadReply.registered(
            LoadReply.Descriptor(name: "W", version: "1", metadata: PluginMetadata(abiVersion: 1, descriptorSize: 80, description: nil, author: nil, license: nil, homepage: nil)),
            LoadReply.Registrations(fetchers: [], duplicates: [.init(symbol: "BTC", owner: "/plugins/bitcoin.so")], refused: []))
        #expect(throws: PluginOutputRules.Violation(field: .symbol, rule: "BTC is said to be another file's")) { try stolen.checked(for: "/x") }
    }
}

extension Result {
    /// The failure, or nil on success.
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
