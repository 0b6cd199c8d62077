#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import PluginABI
import Synchronization

/// The plugin's one descriptor and the factory behind it.
///
/// Each plugin links its own copy of the SDK, and the host loads plugins
/// with `RTLD_LOCAL`, so this state is per plugin even when several share a
/// process. A C function pointer cannot capture anything, which is why
/// `register_plugin` finds the factory here.
enum PluginRegistration {
    /// NB: `@unchecked Sendable` because of the descriptor pointer. It is
    /// written once, under `state`'s lock, and never mutated or freed after.
    struct Exported: @unchecked Sendable {
        let descriptor: UnsafePointer<pb_plugin_descriptor>
        let name: String
        let rank: FetcherRank
        let makeFetchers: PluginExport.FetcherFactory
    }

    private static let state = Mutex<Exported?>(nil)

    static func descriptor(
        name: String, version: String, metadata: PluginExport.Metadata, rank: FetcherRank, makeFetchers: @escaping PluginExport.FetcherFactory
    ) -> UnsafeRawPointer {
        state.withLock { exported in
            if let exported { return UnsafeRawPointer(exported.descriptor) }
            // Allocated once and never freed: the header requires the
            // descriptor and its strings to live as long as the process.
            let descriptor = UnsafeMutablePointer<pb_plugin_descriptor>.allocate(capacity: 1)
            descriptor.initialize(to: pb_plugin_descriptor(
                magic: PB_PLUGIN_MAGIC,
                abi_version: PB_PLUGIN_ABI_VERSION,
                struct_size: UInt32(MemoryLayout<pb_plugin_descriptor>.size),
                name: UnsafePointer(strdup(name)),
                version: UnsafePointer(strdup(version)),
                register_plugin: { services in PluginRegistration.register(services) },
                description: metadata.description.flatMap { UnsafePointer(strdup($0)) },
                author: metadata.author.flatMap { UnsafePointer(strdup($0)) },
                license: metadata.license.flatMap { UnsafePointer(strdup($0)) },
                homepage: metadata.homepage.flatMap { UnsafePointer(strdup($0)) },
                api_base_url: metadata.apiBaseURL.flatMap { UnsafePointer(strdup($0)) }
            ))
            exported = Exported(descriptor: descriptor, name: name, rank: rank, makeFetchers: makeFetchers)
            return UnsafeRawPointer(descriptor)
        }
    }

    /// The body of `register_plugin`.
    static func register(_ services: UnsafePointer<pb_host_services>?) -> pb_status {
        guard let services else { return PB_ERR_INVALID_ARGUMENT }
        let host: HostServicesClient
        do {
            host = try HostServicesClient(validating: services)
        } catch {
            error.log?(PB_LOG_ERROR, error.message)
            return error.status
        }
        guard let exported = state.withLock({ $0 }) else {
            host.log(PB_LOG_ERROR, "register_plugin was called before the plugin's entry point returned its descriptor: call \(PB_PLUGIN_ENTRY_SYMBOL) first")
            return PB_ERR_PLUGIN_FAILED
        }
        guard let apiBaseURL = apiBaseURL(from: host, plugin: exported.name) else {
            return PB_ERR_PLUGIN_FAILED
        }
        let pluginServices = PluginServices(host: host, apiBaseURL: apiBaseURL)
        let fetchers: [any PriceFetcher]
        do {
            fetchers = try exported.makeFetchers(pluginServices)
        } catch {
            host.log(PB_LOG_ERROR, "\(exported.name) could not create its fetchers: \(error)")
            return PB_ERR_PLUGIN_FAILED
        }
        if fetchers.isEmpty {
            host.log(PB_LOG_WARNING, "\(exported.name) has no fetchers to register")
        }
        for fetcher in fetchers {
            register(fetcher, with: host, plugin: exported.name, rank: exported.rank)
        }
        return PB_OK
    }

    private static func apiBaseURL(from host: HostServicesClient, plugin: String) -> URL? {
        guard let text = host.configValue(forKey: "api_base_url"), !text.isEmpty else {
            host.log(PB_LOG_ERROR, "\(plugin) needs the configuration value api_base_url, and the host did not set it: set it to the API root, e.g. https://api.coinbase.com")
            return nil
        }
        guard let url = URL(string: text),
              let scheme = url.scheme?.lowercased(),
              scheme == "file" || ((scheme == "http" || scheme == "https") && !(url.host ?? "").isEmpty)
        else {
            host.log(PB_LOG_ERROR, "\(plugin) cannot use api_base_url \"\(text)\": it must be an http://, https:// or file:// URL, e.g. https://api.coinbase.com")
            return nil
        }
        return url
    }

    private static func register(_ fetcher: any PriceFetcher, with host: HostServicesClient, plugin: String, rank: FetcherRank) {
        let symbol = fetcher.symbol
        guard isValidSymbol(symbol) else {
            host.log(PB_LOG_ERROR, "\(plugin) skipped a fetcher with symbol \"\(symbol)\": a symbol must be 1 to \(PB_SYMBOL_MAX_LENGTH) upper-case ASCII letters or digits, e.g. ETH")
            return
        }
        // Retained for good: the host may call `fetch` with this context
        // until the process ends, and plugins are never unloaded. A
        // rejected registration leaks one small box, which is harmless.
        let context = Unmanaged.passRetained(FetcherBox(fetcher)).toOpaque()
        let status = symbol.withCString { symbolText in
            fetcher.displayName.withCString { displayName in
                // Zeroed, then set by name: Swift's memberwise initialiser
                // of a C struct takes every field, so it would break here
                // the day the header appends one (C's PB_FETCHER_INIT).
                var record = pb_fetcher()
                record.struct_size = UInt32(MemoryLayout<pb_fetcher>.size)
                record.symbol = symbolText
                record.display_name = displayName
                record.context = context
                record.fetch = fetchTrampoline
                record.rank = rank.value
                record.has_rank = true
                return host.registerFetcher(&record)
            }
        }
        switch status {
        case PB_OK:
            host.log(PB_LOG_DEBUG, "\(plugin) registered \(symbol) (\(fetcher.displayName))")
        case PB_ERR_DUPLICATE:
            host.log(PB_LOG_WARNING, "\(plugin) did not register \(symbol) twice: its first fetcher for it stays")
        case PB_ERR_TOO_LATE:
            host.log(PB_LOG_ERROR, "\(plugin) could not register \(symbol): the host says registration is over")
        case PB_ERR_INVALID_ARGUMENT:
            host.log(PB_LOG_ERROR, "\(plugin) could not register \(symbol): the host refused the fetcher as invalid")
        default:
            host.log(PB_LOG_ERROR, "\(plugin) could not register \(symbol): the host answered status \(status.rawValue)")
        }
    }

    /// The header's symbol rule, `pb_symbol_is_valid`: the one the host
    /// applies, so the SDK never sends a symbol the host would refuse.
    static func isValidSymbol(_ symbol: String) -> Bool {
        var symbol = symbol
        return symbol.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { pb_symbol_is_valid($0.baseAddress, $0.count) }
        }
    }
}
