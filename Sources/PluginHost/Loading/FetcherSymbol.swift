/// How a user's symbol is matched against the ones plugins registered.
///
/// What a plugin may register is the header's rule, checked in
/// ``PluginOutputRules/symbol(_:)``; this is only about what a user types.
enum FetcherSymbol {
    /// The form a user's input is matched in: `eth` finds `ETH`.
    static func normalized(_ input: String) -> String {
        input.uppercased()
    }
}
