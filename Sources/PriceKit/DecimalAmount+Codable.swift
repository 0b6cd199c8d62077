extension DecimalAmount: Codable {
    /// Decodes an amount from a JSON string such as `"15840.01"`.
    ///
    /// A JSON number (`15840.01` without quotes) is rejected rather than
    /// converted: decoders read numbers through binary floating point or
    /// normalize them, so the exact text would already be lost.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` for a JSON number or for text
    ///   that is not a decimal number; `DecodingError.typeMismatch` for any
    ///   other non-string value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        do {
            text = try container.decode(String.self)
        } catch let DecodingError.typeMismatch(_, context) {
            if (try? container.decode(Double.self)) != nil {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: context.codingPath,
                    debugDescription: "is a JSON number, but an exact amount must be sent as a decimal string"
                ))
            }
            throw DecodingError.typeMismatch(String.self, DecodingError.Context(
                codingPath: context.codingPath,
                debugDescription: "must be a decimal string"
            ))
        }
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath,
                debugDescription: "is \"\(text)\", which is not a decimal number"
            ))
        }
    }

    /// Encodes the amount as a JSON string holding ``text``.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
