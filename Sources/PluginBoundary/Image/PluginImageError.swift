import PluginABI

/// Why a file could not be loaded as a plugin: what the checks before
/// `dlopen` and those of its descriptor found, alike in the host and in a
/// worker.
///
/// The library only names what was found; the host words it
/// (`PluginLoadError`), for the user, whichever process found it.
package enum PluginImageError: Error, Sendable, Equatable {
    /// Not a complete shared library for this machine, or `dlopen` refused
    /// it; the reason is one phrase, e.g. "it is not an ELF file".
    case notALibrary(reason: String)
    /// It needs the library `name` (a file name), which neither the loader
    /// nor the running Swift runtime's directory, `runtimeDirectory` (empty
    /// when unknown), has.
    case missingLibrary(name: String, runtimeDirectory: String)
    /// It does not export `patchbay_plugin_entry`.
    case missingEntryPoint
    /// `patchbay_plugin_entry` returned NULL.
    case nullDescriptor
    /// The descriptor's magic is not `PB_PLUGIN_MAGIC`.
    case badMagic(found: UInt32)
    /// The descriptor's ABI version is not this host's.
    case abiMismatch(plugin: UInt32)
    /// The descriptor's `struct_size` is below the first revision's.
    case descriptorTooSmall(plugin: UInt32)
    /// A required descriptor field is NULL: "name", "version" or "register_plugin".
    case incompleteDescriptor(field: String)
    /// The descriptor's name, version or metadata broke a rule of ``PluginOutputRules``.
    case invalidDescriptor(PluginOutputRules.Violation)
}

/// The descriptor prefix every plugin must have: the first revision's,
/// which ends at `register_plugin` (`PB_PLUGIN_DESCRIPTOR_MIN_SIZE`, which
/// Swift cannot import). Fields after it are optional.
package let minimumDescriptorSize = UInt32(
    MemoryLayout<pb_plugin_descriptor>.offset(of: \pb_plugin_descriptor.register_plugin)! + MemoryLayout<pb_register_plugin_fn?>.size)
