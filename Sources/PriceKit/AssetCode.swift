/// The codes a fetcher puts into a URL path as they are: an asset such as
/// `ETH` or a currency such as `USD`.
enum AssetCode {
    /// Whether `code` is 2 to 10 ASCII letters or digits, which covers ISO
    /// 4217 and every crypto ticker the bundled sources quote, and needs no
    /// escaping in a path.
    static func isValid(_ code: String) -> Bool {
        (2...10).contains(code.utf8.count) && code.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
