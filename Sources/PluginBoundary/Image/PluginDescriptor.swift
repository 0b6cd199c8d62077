import PluginABI

/// The checked parts of a plugin's `pb_plugin_descriptor`: the one place,
/// for the host's own loader and for a worker's, where the descriptor is read.
///
/// A plugin built against another revision of `patchbay_plugin.h` has a
/// descriptor of another size, so the fixed-layout prefix (magic, ABI
/// version, `struct_size`) is read first, and each later field only when
/// `struct_size` covers it. Every text passes ``PluginOutputRules``'s rules before
/// anything else of the plugin's runs.
package struct PluginDescriptor: Sendable {
    /// The plugin's name, e.g. "EthereumPlugin".
    package let name: String
    /// The plugin's version, e.g. "1.0.0".
    package let version: String
    /// What the descriptor says beyond name and version.
    package let metadata: PluginMetadata
    /// The plugin's `register_plugin`.
    package let register: pb_register_plugin_fn

    /// Loads the library at `path` (a checked file's `/proc/self/fd/N`) and
    /// reads its descriptor, before any code of the plugin runs beyond its
    /// static initialisers, which `dlopen` runs.
    /// - Throws: ``PluginImageError`` naming the first check that failed.
    package static func load(_ path: String) throws(PluginImageError) -> PluginDescriptor {
        try read(from: DynamicLibrary.open(path))
    }

    /// Reads and checks the descriptor that `library`'s entry point returns.
    /// - Throws: ``PluginImageError`` naming the first check that failed.
    package static func read(from library: DynamicLibrary) throws(PluginImageError) -> PluginDescriptor {
        guard let symbol = library.symbol(named: PB_PLUGIN_ENTRY_SYMBOL) else { throw .missingEntryPoint }
        let entry = unsafeBitCast(symbol, to: pb_plugin_entry_fn.self)
        guard let pointer = entry() else { throw .nullDescriptor }
        return try read(UnsafeRawPointer(pointer))
    }

    /// Reads and checks the descriptor at `prefix`, which the plugin owns and
    /// which may be shorter than this header's `pb_plugin_descriptor`.
    /// - Throws: ``PluginImageError`` naming the first check that failed.
    static func read(_ prefix: UnsafeRawPointer) throws(PluginImageError) -> PluginDescriptor {
        // Read the fixed-layout prefix first: a plugin from another ABI may
        // have a smaller struct, and reading past it would be undefined.
        let magic = prefix.load(as: UInt32.self)
        guard magic == PB_PLUGIN_MAGIC else { throw .badMagic(found: magic) }
        let abiVersion = prefix.load(fromByteOffset: 4, as: UInt32.self)
        guard abiVersion == PB_PLUGIN_ABI_VERSION else { throw .abiMismatch(plugin: abiVersion) }
        let size = prefix.load(fromByteOffset: 8, as: UInt32.self)
        guard size >= minimumDescriptorSize else { throw .descriptorTooSmall(plugin: size) }

        // Not `pointer.pointee`: that copies this header's whole struct, and a
        // plugin built against an earlier revision has a smaller one.
        func field<Value>(_ field: KeyPath<pb_plugin_descriptor, Value?>) -> Value? {
            guard let offset = MemoryLayout<pb_plugin_descriptor>.offset(of: field),
                offset + MemoryLayout<Value?>.size <= Int(size)
            else { return nil }
            return prefix.load(fromByteOffset: offset, as: Value?.self)
        }
        let namePointer = field(\.name), versionPointer = field(\.version)
        guard namePointer != nil else { throw .incompleteDescriptor(field: "name") }
        guard versionPointer != nil else { throw .incompleteDescriptor(field: "version") }
        guard let register = field(\.register_plugin) else { throw .incompleteDescriptor(field: "register_plugin") }
        do throws(PluginOutputRules.Violation) {
            let text = try PluginOutputRules.requiredText(namePointer, .name, limit: PluginOutputRules.Limit.name)
            let version = try PluginOutputRules.requiredText(versionPointer, .version, limit: PluginOutputRules.Limit.version)
            let name = try PluginOutputRules.identity(name: text, version: version).name
            let metadata = try PluginOutputRules.metadata(
                abiVersion: abiVersion, descriptorSize: size, description: field(\.description), author: field(\.author),
                license: field(\.license), homepage: field(\.homepage), apiBaseURL: field(\.api_base_url))
            return PluginDescriptor(name: name, version: version, metadata: metadata, register: register)
        } catch {
            throw .invalidDescriptor(error)
        }
    }
}
