import PluginBoundary

// The encodings of the plugin boundary's values that travel in frames.

extension PluginMetadata: FrameRecord {
    /// The ABI version and size, then the five optional texts.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(
            abiVersion: try fields.field(\.abiVersion), descriptorSize: try fields.field(\.descriptorSize), description: try fields.field(\.description),
            author: try fields.field(\.author), license: try fields.field(\.license), homepage: try fields.field(\.homepage),
            apiBaseURL: try fields.field(\.apiBaseURL))
    }
}

extension PluginOutputRules.Field: FrameCodable {
    /// Its name.
    package func encode(to writer: inout FrameWriter) { writer.write(rawValue) }

    /// Its name, which must be one of the fields'.
    package init(from reader: inout FrameReader) throws(FrameError) {
        let name: String = try reader.read()
        guard let field = Self(rawValue: name) else { throw .undecodable(.unknownName(name, of: "plugin input field")) }
        self = field
    }
}

extension PluginOutputRules.Violation: FrameRecord {
    /// The field's name, then the rule.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(field: try fields.field(\.field), rule: try fields.field(\.rule))
    }
}

extension PluginOutputRules.Answer: FrameRecord {
    /// The four optional texts.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(base: try fields.field(\.base), currency: try fields.field(\.currency), amount: try fields.field(\.amount), error: try fields.field(\.error))
    }
}

extension FetcherRegistrations.Duplicate: FrameRecord {
    /// The symbol, then its owner.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(symbol: try fields.field(\.symbol), owner: try fields.field(\.owner))
    }
}

extension FetchCallOutcome: FrameRecord {
    /// A tag byte, then the case's fields.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        try fields.variant(1, Self.answered) { if case .answered(let answer) = $0 { answer } else { nil } }
        try fields.variant(2, Self.unreadable) { if case .unreadable(let violation) = $0 { violation } else { nil } }
        try fields.variant(3, .malformed) { if case .malformed = $0 { true } else { false } }
        return try fields.end("fetch call outcome")
    }
}

extension PluginImageError: FrameRecord {
    /// A tag byte, then the case's fields.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        try fields.variant(1, Self.notALibrary) { if case .notALibrary(let reason) = $0 { reason } else { nil } }
        try fields.variant(2, .missingEntryPoint) { if case .missingEntryPoint = $0 { true } else { false } }
        try fields.variant(3, .nullDescriptor) { if case .nullDescriptor = $0 { true } else { false } }
        try fields.variant(4, Self.badMagic) { if case .badMagic(let found) = $0 { found } else { nil } }
        try fields.variant(5, Self.abiMismatch) { if case .abiMismatch(let plugin) = $0 { plugin } else { nil } }
        try fields.variant(6, Self.descriptorTooSmall) { if case .descriptorTooSmall(let plugin) = $0 { plugin } else { nil } }
        try fields.variant(7, Self.incompleteDescriptor) { if case .incompleteDescriptor(let field) = $0 { field } else { nil } }
        try fields.variant(8, Self.invalidDescriptor) { if case .invalidDescriptor(let violation) = $0 { violation } else { nil } }
        try fields.variant(9, Self.missingLibrary) { if case .missingLibrary(let name, let directory) = $0 { (name, directory) } else { nil } }
        return try fields.end("load failure")
    }
}
