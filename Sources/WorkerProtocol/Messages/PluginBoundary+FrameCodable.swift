import PluginBoundary

// The encodings of the plugin boundary's values that travel in frames.

extension PluginMetadata: FrameCodable {
    /// The ABI version and size, then the five optional texts.
    package func encode(to writer: inout FrameWriter) {
        writer.write(abiVersion)
        writer.write(descriptorSize)
        writer.write(description)
        writer.write(author)
        writer.write(license)
        writer.write(homepage)
        writer.write(apiBaseURL)
    }

    /// The ABI version and size, then the five optional texts.
    package init(from reader: inout FrameReader) throws(FrameError) {
        self.init(
            abiVersion: try reader.read(), descriptorSize: try reader.read(), description: try reader.readOptional(),
            author: try reader.readOptional(), license: try reader.readOptional(), homepage: try reader.readOptional(),
            apiBaseURL: try reader.readOptional())
    }
}

extension PluginOutputRules.Violation: FrameCodable {
    /// The field's name, then the rule.
    package func encode(to writer: inout FrameWriter) {
        writer.write(field.rawValue)
        writer.write(rule)
    }

    /// The field's name, which must be one of ``PluginOutputRules/Field``'s, then the rule.
    package init(from reader: inout FrameReader) throws(FrameError) {
        let name: String = try reader.read()
        guard let field = PluginOutputRules.Field(rawValue: name) else { throw .undecodable(.unknownName(name, of: "plugin input field")) }
        self.init(field: field, rule: try reader.read())
    }
}

extension PluginOutputRules.Answer: FrameCodable {
    /// The four optional texts.
    package func encode(to writer: inout FrameWriter) {
        writer.write(base)
        writer.write(currency)
        writer.write(amount)
        writer.write(error)
    }

    /// The four optional texts.
    package init(from reader: inout FrameReader) throws(FrameError) {
        self.init(base: try reader.readOptional(), currency: try reader.readOptional(), amount: try reader.readOptional(), error: try reader.readOptional())
    }
}

extension FetcherRegistrations.Duplicate: FrameCodable {
    /// The symbol, then its owner.
    package func encode(to writer: inout FrameWriter) {
        writer.write(symbol)
        writer.write(owner)
    }

    /// The symbol, then its owner.
    package init(from reader: inout FrameReader) throws(FrameError) {
        self.init(symbol: try reader.read(), owner: try reader.read())
    }
}

extension FetchCallOutcome: FrameCodable {
    /// A tag byte, then the case's fields.
    package func encode(to writer: inout FrameWriter) {
        switch self {
        case .answered(let answer): writer.write(UInt8(1)); writer.write(answer)
        case .unreadable(let violation): writer.write(UInt8(2)); writer.write(violation)
        case .malformed: writer.write(UInt8(3))
        }
    }

    /// A tag byte, then the case's fields.
    package init(from reader: inout FrameReader) throws(FrameError) {
        switch try reader.readByte() {
        case 1: self = .answered(try reader.read())
        case 2: self = .unreadable(try reader.read())
        case 3: self = .malformed
        case let tag: throw .undecodable(.unknownTag(tag, of: "fetch call outcome"))
        }
    }
}

extension PluginImageError: FrameCodable {
    /// A tag byte, then the case's fields.
    package func encode(to writer: inout FrameWriter) {
        switch self {
        case .notALibrary(let reason): writer.write(UInt8(1)); writer.write(reason)
        case .missingEntryPoint: writer.write(UInt8(2))
        case .nullDescriptor: writer.write(UInt8(3))
        case .badMagic(let found): writer.write(UInt8(4)); writer.write(found)
        case .abiMismatch(let plugin): writer.write(UInt8(5)); writer.write(plugin)
        case .descriptorTooSmall(let plugin): writer.write(UInt8(6)); writer.write(plugin)
        case .incompleteDescriptor(let field): writer.write(UInt8(7)); writer.write(field)
        case .invalidDescriptor(let violation): writer.write(UInt8(8)); writer.write(violation)
        }
    }

    /// A tag byte, then the case's fields.
    package init(from reader: inout FrameReader) throws(FrameError) {
        switch try reader.readByte() {
        case 1: self = .notALibrary(reason: try reader.read())
        case 2: self = .missingEntryPoint
        case 3: self = .nullDescriptor
        case 4: self = .badMagic(found: try reader.read())
        case 5: self = .abiMismatch(plugin: try reader.read())
        case 6: self = .descriptorTooSmall(plugin: try reader.read())
        case 7: self = .incompleteDescriptor(field: try reader.read())
        case 8: self = .invalidDescriptor(try reader.read())
        case let tag: throw .undecodable(.unknownTag(tag, of: "load failure"))
        }
    }
}
