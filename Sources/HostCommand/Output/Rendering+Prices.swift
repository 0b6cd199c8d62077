import PluginHost

extension Rendering {
    /// What `fetch` prints on stdout, one entry per symbol in the order asked.
    ///
    /// The table has a row per price: the source that answered; with
    /// `everySource`, every source that answered, then a row of their
    /// median and spread. The JSON shapes are a contract:
    /// - every `plugin` has its file beside it, `path`, and who vouched for
    ///   it, `vouchedBy` (as in `list-plugins`); the table shows a plugin
    ///   nobody vouched for as `NAME (unvouched, PATH)`;
    /// - a symbol that got a price: `{"symbol","currency","amount","plugin","attempts"?}`;
    ///   one that did not: `{"symbol","error","attempts"?}`; `attempts`, when
    ///   the symbol has several sources, is each one in the order asked,
    ///   `{"plugin","status","amount"?,"error"?}`, `status` being `answered`,
    ///   `failed`, `abandoned` (another source answered first) or `not asked`;
    /// - with every source: `{"symbol","currency"?,"sources","median"?,"spread"?,"medianOf"?,"error"?}`,
    ///   each source `{"plugin","counted","amount"}` or `{"plugin","counted","error"}`, `spread`
    ///   the percentage as decimal text, null when the amounts differ around a median of 0,
    ///   `medianOf` how many answers the median counts, `counted` whether this source's would.
    static func prices(_ fetches: [SymbolFetch], as format: OutputFormat, everySource: Bool) -> String {
        switch format {
        case .json:
            return everySource ? json(fetches.map(EverySourceRow.init)) : json(fetches.map(PriceRow.init))
        case .table:
            var table = TextTable("SYMBOL", "CURRENCY", "AMOUNT", "PLUGIN")
            for fetch in fetches {
                guard everySource else {
                    if case .success(let quote) = fetch.result { table.rows.append([quote.symbol, quote.currency, quote.amount, quote.plugin.label]) }
                    continue
                }
                for attempt in fetch.attempts {
                    guard case .answered(let quote) = attempt.outcome else { continue }
                    // A stranger's answer is shown, and said to be no part of the median below.
                    let plugin = attempt.counted ? quote.plugin.label : "\(quote.plugin.name) (unvouched, \(quote.plugin.path), not counted)"
                    table.rows.append([quote.symbol, quote.currency, quote.amount, plugin])
                }
                if case .success(let first) = fetch.result, let consensus = fetch.consensus {
                    table.rows.append([first.symbol, first.currency, consensus.median, consensusNote(consensus, of: consensus.count)])
                }
            }
            return table.rows.isEmpty ? "" : table.rendered
        }
    }

    /// `median of 2, spread 0.15%`, in the PLUGIN column of the median's row.
    private static func consensusNote(_ consensus: Consensus, of count: Int) -> String {
        "median of \(count), " + (consensus.spread.map { "spread \($0)%" } ?? "no spread: the amounts differ around 0")
    }

    /// The lines `fetch` writes on stderr for the symbols' failures, each
    /// `host: error: …` or, for a source that failed where another
    /// answered, `host: warning: …`.
    ///
    /// A symbol with one source keeps the line it always had,
    /// `SYMBOL: why`; with several, each source that failed gets its own,
    /// `SYMBOL: PLUGIN failed: why`.
    static func failureLines(_ fetch: SymbolFetch, hint: String?) -> [String] {
        let answered = (try? fetch.result.get()) != nil
        guard fetch.sourceCount > 1 else {
            guard case .failure(let error) = fetch.result else { return [] }
            var line = error.description(naming: .host)
            if error.isUnknownSymbol, let hint { line += "; \(hint)" }
            return ["host: error: \(TerminalText.escaped(line))"]
        }
        let level = answered ? "warning" : "error"
        var lines = fetch.attempts.compactMap { attempt -> String? in
            let name = attempt.plugin.label
            let line: String
            switch attempt.outcome {
            case .failed(let error): line = "\(fetch.symbol): \(name) failed: \(error.message(naming: .host))"
            case .notAsked where !answered: line = "\(fetch.symbol): \(name) was not asked: the time \(SettingNames.host.fetchTimeout) allows had run out"
            case .answered, .abandoned, .notAsked: return nil
            }
            return "host: \(level): \(TerminalText.escaped(line))"
        }
        if case .failure(let error) = fetch.result, error.isNoVouchedAnswer {
            // Strangers answered, shown above; what failed is the median, which no source's own line says.
            lines.append("host: error: \(TerminalText.escaped(error.description(naming: .host)))")
        }
        return lines
    }
}

/// One symbol of `fetch --format json`.
private struct PriceRow: Encodable {
    let fetch: SymbolFetch

    init(_ fetch: SymbolFetch) { self.fetch = fetch }

    private enum Key: String, CodingKey { case symbol, currency, amount, plugin, path, vouchedBy, error, attempts }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch fetch.result {
        case .success(let quote):
            try container.encode(quote.symbol, forKey: .symbol)
            try container.encode(quote.currency, forKey: .currency)
            try container.encode(quote.amount, forKey: .amount)
            try container.encode(quote.plugin.name, forKey: .plugin)
            try container.encode(quote.plugin.path, forKey: .path)
            try container.encode(quote.plugin.voucher.name, forKey: .vouchedBy)
        case .failure(let error):
            try container.encode(error.symbol, forKey: .symbol)
            try container.encode(error.message(naming: .host), forKey: .error)
        }
        // A symbol with one source keeps the shape it always had.
        if fetch.sourceCount > 1 { try container.encode(fetch.attempts.map(AttemptRow.init), forKey: .attempts) }
    }
}

/// One source asked, in `fetch --format json`.
private struct AttemptRow: Encodable {
    let plugin: String
    let path: String
    let vouchedBy: String
    let status: String
    let amount: String?
    let error: String?

    init(_ attempt: SymbolFetch.Attempt) {
        plugin = attempt.plugin.name
        path = attempt.plugin.path
        vouchedBy = attempt.plugin.voucher.name
        switch attempt.outcome {
        case .answered(let quote): (status, amount, error) = ("answered", quote.amount, nil)
        case .failed(let failure): (status, amount, error) = ("failed", nil, failure.message(naming: .host))
        case .abandoned: (status, amount, error) = ("abandoned", nil, nil)
        case .notAsked: (status, amount, error) = ("not asked", nil, nil)
        }
    }
}

/// One symbol of `fetch --all-sources --format json`.
private struct EverySourceRow: Encodable {
    let fetch: SymbolFetch

    init(_ fetch: SymbolFetch) { self.fetch = fetch }

    private enum Key: String, CodingKey { case symbol, currency, sources, median, spread, medianOf, error }

    private struct Source: Encodable {
        let plugin: String
        let path: String
        let vouchedBy: String
        let counted: Bool
        let amount: String?
        let error: String?

        init(_ plugin: PluginIdentity, counted: Bool, amount: String?, error: String?) {
            (self.plugin, path, vouchedBy, self.counted, self.amount, self.error) = (plugin.name, plugin.path, plugin.voucher.name, counted, amount, error)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(fetch.symbol, forKey: .symbol)
        let sources = fetch.attempts.map { attempt in
            switch attempt.outcome {
            case .answered(let quote): Source(attempt.plugin, counted: attempt.counted, amount: quote.amount, error: nil)
            case .failed(let error): Source(attempt.plugin, counted: attempt.counted, amount: nil, error: error.message(naming: .host))
            case .abandoned, .notAsked: Source(attempt.plugin, counted: attempt.counted, amount: nil, error: "it did not answer")
            }
        }
        try container.encode(sources, forKey: .sources)
        switch fetch.result {
        case .success(let quote):
            try container.encode(quote.currency, forKey: .currency)
            if let consensus = fetch.consensus {
                try container.encode(consensus.median, forKey: .median)
                try container.encode(consensus.spread, forKey: .spread)
                try container.encode(consensus.count, forKey: .medianOf)
            }
        case .failure(let error):
            try container.encode(error.message(naming: .host), forKey: .error)
        }
    }
}
