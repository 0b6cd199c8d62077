extension SandboxReport: FrameCodable {
    /// The level, the missing layers, then the cost when there is one.
    package func encode(to writer: inout FrameWriter) {
        writer.write(level)
        writer.write(missing)
        writer.write(cost)
    }

    /// The level, the missing layers, then the cost when there is one.
    package init(from reader: inout FrameReader) throws(FrameError) {
        self.init(level: try reader.read(), missing: try reader.readList(), cost: try reader.readOptional())
    }
}

extension SandboxReport.Level: FrameCodable {
    /// One byte: 1 full, 2 partial, 3 none.
    package func encode(to writer: inout FrameWriter) {
        switch self {
        case .full: writer.write(UInt8(1))
        case .partial: writer.write(UInt8(2))
        case .none: writer.write(UInt8(3))
        }
    }

    /// One byte naming a level.
    package init(from reader: inout FrameReader) throws(FrameError) {
        switch try reader.readByte() {
        case 1: self = .full
        case 2: self = .partial
        case 3: self = .none
        case let tag: throw .undecodable(.unknownTag(tag, of: "sandbox level"))
        }
    }
}

extension SandboxReport.Gap: FrameCodable {
    /// The layer, then the reason.
    package func encode(to writer: inout FrameWriter) {
        writer.write(layer)
        writer.write(reason)
    }

    /// The layer, then the reason.
    package init(from reader: inout FrameReader) throws(FrameError) {
        self.init(layer: try reader.read(), reason: try reader.read())
    }
}

extension SandboxReport.Cost: FrameCodable {
    /// The four costs in order.
    package func encode(to writer: inout FrameWriter) {
        writer.write(landlockMicroseconds)
        writer.write(seccompMicroseconds)
        writer.write(rlimitsMicroseconds)
        writer.write(totalMicroseconds)
    }

    /// The four costs in order.
    package init(from reader: inout FrameReader) throws(FrameError) {
        self.init(
            landlockMicroseconds: try reader.read(), seccompMicroseconds: try reader.read(), rlimitsMicroseconds: try reader.read(),
            totalMicroseconds: try reader.read())
    }
}
