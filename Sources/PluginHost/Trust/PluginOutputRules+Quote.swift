import PluginBoundary

/// What a fetch answered, checked as a quote: the rules of ``PluginOutputRules``
/// that need the host's own types.
extension PluginOutputRules {
    /// Turns what a plugin answered for one fetch into a quote or an error.
    ///
    /// The answer must be either an error message or a quote for exactly the
    /// symbol and currency asked for, with an amount that is a plain decimal.
    /// Anything else becomes that symbol's error, naming the plugin.
    /// - Parameters:
    ///   - answer: The plugin's fields, already read into Swift strings.
    ///   - request: What was asked, and of whom.
    static func quote(_ answer: Answer, for request: Request) -> Result<Quote, FetchError> {
        let plugin = request.plugin.label
        func refused(_ violation: Violation) -> Result<Quote, FetchError> {
            .failure(FetchError(symbol: request.symbol, .invalidAnswer(plugin: plugin, violation: violation)))
        }
        if let error = answer.error {
            do throws(Violation) {
                let message = try text(error, .error, limit: Limit.error)
                return .failure(FetchError(symbol: request.symbol, .pluginFailed(plugin: plugin, message: message)))
            } catch {
                return refused(error)
            }
        }
        guard let amount = answer.amount, !amount.isEmpty else {
            return .failure(FetchError(symbol: request.symbol, .emptyResult(plugin: plugin)))
        }
        guard isPlainDecimal(amount) else {
            return refused(Violation(field: .amount, rule: "\(quoted(amount)) is not a plain decimal such as 1234.56 with at most \(Limit.amountDigits) digits"))
        }
        let base = answer.base ?? request.symbol
        guard base == request.symbol else {
            return refused(Violation(field: .base, rule: "\(quoted(base)) is not the symbol asked for, \(request.symbol)"))
        }
        let currency = answer.currency ?? request.currency
        guard currency == request.currency else {
            return refused(Violation(field: .currency, rule: "\(quoted(currency)) is not the currency asked for, \(request.currency)"))
        }
        return .success(Quote(symbol: request.symbol, base: base, currency: currency, amount: amount, plugin: request.plugin))
    }

    /// Turns what one call of a plugin's `fetch` produced, in this process
    /// or in a worker, into a quote or an error.
    static func quote(_ outcome: FetchCallOutcome, for request: Request) -> Result<Quote, FetchError> {
        switch outcome {
        case .answered(let answer):
            quote(answer, for: request)
        case .unreadable(let violation):
            // A worker's plugin can write this rule itself, as long as a frame: it is repeated cut, as any plugin text is.
            .failure(
                FetchError(
                    symbol: request.symbol,
                    .invalidAnswer(plugin: request.plugin.name, violation: Violation(field: violation.field, rule: echoed(violation.rule)))))
        case .malformed:
            .failure(FetchError(symbol: request.symbol, .malformedResult(plugin: request.plugin.name)))
        }
    }

    /// What the host asked for, and of which plugin.
    struct Request: Sendable {
        let symbol: String
        let currency: String
        let plugin: PluginIdentity
    }
}
