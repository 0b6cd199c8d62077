// NB: `@_exported` so that a plugin's single `import PluginSDK` also brings
// in PriceKit (`CoinbaseSpotFetcher`, `PriceFetcher`, `Networking`, …),
// keeping a plugin's whole source to its entry point.
@_exported import PriceKit
