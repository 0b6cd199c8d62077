import PluginSDK

/// The plugin's entry point: the host finds it by the name `patchbay_plugin_entry` (`PB_PLUGIN_ENTRY_SYMBOL`).
///
/// A second source for the symbols the Coinbase plugins provide, asked after
/// them (`.secondary`), with an API base of its own.
@c(patchbay_plugin_entry)
public func patchbayPluginEntry() -> UnsafeRawPointer {
    PluginExport.descriptor(
        name: "BitstampPlugin", version: "1.0.0",
        defaultAPIBaseURL: "https://www.bitstamp.net", rank: .secondary
    ) { services in
        [
            BitstampTickerFetcher(base: "BTC", displayName: "Bitcoin", networking: services.networking, apiBaseURL: services.apiBaseURL),
            BitstampTickerFetcher(base: "ETH", displayName: "Ethereum", networking: services.networking, apiBaseURL: services.apiBaseURL),
        ]
    }
}
