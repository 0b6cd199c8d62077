import PluginSDK

/// The plugin's entry point: the host finds it by the name `patchbay_plugin_entry` (`PB_PLUGIN_ENTRY_SYMBOL`).
@c(patchbay_plugin_entry)
public func patchbayPluginEntry() -> UnsafeRawPointer {
    PluginExport.descriptor(
        name: "BitcoinPlugin", version: "1.0.0",
        defaultAPIBaseURL: "https://api.coinbase.com", rank: .primary
    ) { services in
        [CoinbaseSpotFetcher(base: "BTC", displayName: "Bitcoin", networking: services.networking, apiBaseURL: services.apiBaseURL)]
    }
}
