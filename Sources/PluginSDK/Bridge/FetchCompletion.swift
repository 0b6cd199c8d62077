internal import PluginABI

/// The host's completion for one fetch.
///
/// NB: `@unchecked Sendable` because `context` is an opaque host token.
/// The SDK never dereferences it, only hands it back, once, to the host's
/// thread-safe completion.
struct FetchCompletion: @unchecked Sendable {
    let completion: pb_fetch_completion_fn
    let context: UnsafeMutableRawPointer?

    func succeed(_ price: Price) {
        price.base.withCString { base in
            price.currency.withCString { currency in
                price.amount.text.withCString { amount in
                    var result = pb_fetch_result(
                        struct_size: UInt32(MemoryLayout<pb_fetch_result>.size),
                        base: base, currency: currency, amount: amount, error: nil
                    )
                    completion(context, &result)
                }
            }
        }
    }

    func fail(_ message: String) {
        message.singleLine.withCString { error in
            var result = pb_fetch_result(
                struct_size: UInt32(MemoryLayout<pb_fetch_result>.size),
                base: nil, currency: nil, amount: nil, error: error
            )
            completion(context, &result)
        }
    }
}
