extension SandboxReport: FrameRecord {
    /// The level, the missing layers, then the cost when there is one.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(level: try fields.field(\.level), missing: try fields.field(\.missing), cost: try fields.field(\.cost))
    }
}

extension SandboxReport.Level: FrameRecord {
    /// One byte: 1 full, 2 partial, 3 none.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        try fields.variant(1, .full) { $0 == .full }
        try fields.variant(2, .partial) { $0 == .partial }
        try fields.variant(3, .none) { $0 == .none }
        return try fields.end("sandbox level")
    }
}

extension SandboxReport.Gap: FrameRecord {
    /// The layer, then the reason.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(layer: try fields.field(\.layer), reason: try fields.field(\.reason))
    }
}

extension SandboxReport.Cost: FrameRecord {
    /// The four costs in order.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(
            landlockMicroseconds: try fields.field(\.landlockMicroseconds), seccompMicroseconds: try fields.field(\.seccompMicroseconds),
            rlimitsMicroseconds: try fields.field(\.rlimitsMicroseconds), totalMicroseconds: try fields.field(\.totalMicroseconds))
    }
}
