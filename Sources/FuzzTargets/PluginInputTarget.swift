#if DEBUG || FUZZING
import PluginABI
import Synchronization
@testable import PluginBoundary
@testable import PluginHost

/// The checks on what a plugin says (`PluginOutputRules`): symbols, texts read
/// through C pointers, log lines, fetch results and their amounts.
///
/// Input: a mode byte, then what that mode reads (see each case).
let pluginInputTarget = FuzzTarget("plugin-input", "the checks of what a plugin says: symbols, C strings, log lines, fetch results; input: mode byte, then its fields") { input throws(PropertyViolation) in
    switch input.byte() % 6 {
    case 0: try symbol(String(decoding: input.remaining(), as: UTF8.self))
    case 1: try cString(limit: Int(input.byte()), Array(input.remaining()))
    case 2: try logLine(Array(input.remaining()))
    case 3: try fetchResult(&input)
    case 4: try amount(String(decoding: input.remaining(), as: UTF8.self))
    default: try descriptorTexts(&input)
    }
}

/// A symbol is accepted exactly when it is 1 to 16 of A-Z and 0-9.
private func symbol(_ text: String) throws(PropertyViolation) {
    let accepted = (try? PluginOutputRules.symbol(text)) != nil
    let rule = matchesSymbolRule(text)
    try expect(accepted == rule, "a symbol is accepted exactly when it is 1 to \(PB_SYMBOL_MAX_LENGTH) of A-Z and 0-9", "\(text.debugDescription) accepted: \(accepted)")
}

/// A C string is accepted exactly when it is valid UTF-8 of at most
/// `limit` bytes before its NUL, and then read byte for byte.
private func cString(limit: Int, _ bytes: [UInt8]) throws(PropertyViolation) {
    let terminated = bytes + [0]
    let read = terminated.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { characters in
            Result { () throws(PluginOutputRules.Violation) in try PluginOutputRules.text(characters.baseAddress, .name, limit: limit) }
        }
    }
    let string = bytes.prefix { $0 != 0 }
    let valid = String(validating: string, as: UTF8.self)
    switch read {
    case .success(let text):
        try expect(string.count <= limit && valid != nil && text == valid && Array(text?.utf8 ?? "".utf8) == Array(string), "an accepted C string is valid UTF-8 within its limit, read exactly", "\(Array(string)) with limit \(limit) read as \(String(describing: text))")
    case .failure:
        try expect(string.count > limit || valid == nil, "a C string is refused only when too long or not UTF-8", "\(Array(string)) with limit \(limit)")
    }
}

/// A log line is cut at its limit and repaired, never refused.
private func logLine(_ bytes: [UInt8]) throws(PropertyViolation) {
    let line = bytes.prefix { $0 != 0 }
    let fromPointer = (bytes + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { PluginOutputRules.logLine($0.baseAddress.unsafelyUnwrapped) }
    }
    let limit = PluginOutputRules.Limit.logLine
    let text = String(decoding: line, as: UTF8.self)
    let fromFrame = PluginOutputRules.logLine(text)
    let suffix = "… (cut at \(limit) bytes)"
    if line.count <= limit {
        try expect(fromPointer == text, "a log line within the limit is kept as it is", "\(Array(line)) became \(fromPointer.debugDescription)")
    } else {
        try expect(fromPointer == String(decoding: line.prefix(limit), as: UTF8.self) + suffix, "a long log line is cut at the limit and says so", "\(line.count) bytes became \(fromPointer.utf8.count)")
    }
    if text.utf8.count <= limit {
        try expect(fromFrame == text, "a worker's log line within the limit is kept as it is", text.debugDescription)
    } else {
        try expect(fromFrame.hasSuffix(suffix) && fromFrame.utf8.count - suffix.utf8.count <= limit + 3, "a worker's long log line is cut at the limit", "\(text.utf8.count) bytes became \(fromFrame.utf8.count)")
    }
}

/// A plugin's `pb_fetch_result`, through the same callback path a plugin's
/// completion takes: input is a flag byte (bit n: field n is NULL; bit 4:
/// `struct_size` too small), then base, currency, amount and error, each a
/// length byte and its bytes.
private func fetchResult(_ input: inout FuzzInput) throws(PropertyViolation) {
    let flags = input.byte()
    let fields = (0..<4).map { _ in Array(input.counted()) + [0] }
    let request = PluginOutputRules.Request(symbol: "BTC", currency: "USD", plugin: PluginIdentity(name: "FuzzPlugin", version: "1", path: "/fuzz", voucher: .bundled))
    let answer = withCStrings(fields, nullWhere: flags) { base, currency, amount, error in
        var result = pb_fetch_result(
            struct_size: UInt32(MemoryLayout<pb_fetch_result>.size) - (flags & 0x10 == 0 ? 0 : 8), base: base, currency: currency, amount: amount, error: error)
        return complete(request, with: &result)
    }
    guard let answer else { throw PropertyViolation(property: "a fetch callback resumes its fetch at once", detail: "flags \(flags)") }
    guard case .success(let quote) = answer else { return }
    func field(_ index: Int) -> String? { flags & (1 << index) != 0 ? nil : String(decoding: fields[index].prefix { $0 != 0 }, as: UTF8.self) }
    try expect(flags & 0x10 == 0, "an undersized pb_fetch_result is refused", "\(quote)")
    try expect(quote.symbol == "BTC" && quote.base == "BTC" && quote.currency == "USD", "an accepted quote is for the symbol and currency asked", "\(quote)")
    try expect(quote.amount == field(2) && matchesDecimalGrammar(quote.amount, digitCap: PluginOutputRules.Limit.amountDigits), "an accepted amount is -?[0-9]+(.[0-9]+)? within the digit cap, kept exactly", quote.amount.debugDescription)
    try expect(field(3) == nil, "a result with an error is never a quote", "\(quote)")
}

/// Calls `body` with a C string for each field, or NULL where `flags` says.
private func withCStrings<T>(
    _ fields: [[UInt8]], nullWhere flags: UInt8, _ body: (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> T
) -> T {
    func pointer(_ index: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
        flags & (1 << index) != 0 ? nil : UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
    }
    return fields[0].withUnsafeBufferPointer { a in
        fields[1].withUnsafeBufferPointer { b in
            fields[2].withUnsafeBufferPointer { c in
                fields[3].withUnsafeBufferPointer { d in body(pointer(0, a), pointer(1, b), pointer(2, c), pointer(3, d)) }
            }
        }
    }
}

/// What the waiting fetch gets when the plugin completes with `result`,
/// checked as the host checks a quote.
private func complete(_ request: PluginOutputRules.Request, with result: UnsafePointer<pb_fetch_result>) -> Result<Quote, FetchError>? {
    let pending = PendingFetches()
    let delivered = Mutex<FetchCallOutcome?>(nil)
    let token = pending.begin(plugin: request.plugin.name) { outcome in delivered.withLock { $0 = outcome } }
    pending.complete(token: token, with: result)
    return delivered.withLock { $0 }.map { PluginOutputRules.quote($0, for: request) }
}

/// The host's amount rule and the grammar agree both ways.
private func amount(_ text: String) throws(PropertyViolation) {
    let accepted = PluginOutputRules.isPlainDecimal(text)
    try expect(accepted == matchesDecimalGrammar(text, digitCap: PluginOutputRules.Limit.amountDigits), "an amount is accepted exactly when it is -?[0-9]+(.[0-9]+)? with at most \(PluginOutputRules.Limit.amountDigits) digits", "\(text.debugDescription) accepted: \(accepted)")
}

/// A descriptor's texts from a worker's frame stay within their limits.
private func descriptorTexts(_ input: inout FuzzInput) throws(PropertyViolation) {
    let name = input.countedText()
    let version = input.countedText()
    if let identity = try? PluginOutputRules.identity(name: name, version: version) {
        try expect(identity.name.utf8.count <= PluginOutputRules.Limit.name && identity.version.utf8.count <= PluginOutputRules.Limit.version, "an accepted name and version are within their limits", "\(identity)")
    }
    let display = input.countedText()
    if let shown = try? PluginOutputRules.displayName(display, symbol: "BTC") {
        try expect(shown.utf8.count <= PluginOutputRules.Limit.displayName && (shown == display || display.isEmpty && shown == "BTC"), "a display name is kept, or the symbol shown for an empty one", shown.debugDescription)
    }
    let metadata = PluginMetadata(
        abiVersion: input.integer(), descriptorSize: input.integer(), description: input.optionalText(), author: input.optionalText(),
        license: input.optionalText(), homepage: input.optionalText(), apiBaseURL: input.optionalText())
    if let checked = try? PluginOutputRules.metadata(metadata) {
        try expect(checked == metadata, "accepted metadata is kept as it is", "\(checked)")
        let credits = [checked.author, checked.license, checked.homepage].compactMap { $0 }
        try expect((checked.description?.utf8.count ?? 0) <= PluginOutputRules.Limit.description && credits.allSatisfy { $0.utf8.count <= PluginOutputRules.Limit.credit }
            && (checked.apiBaseURL?.utf8.count ?? 0) <= PluginOutputRules.Limit.apiBaseURL, "accepted metadata is within its limits", "\(checked)")
    }
}
#endif
