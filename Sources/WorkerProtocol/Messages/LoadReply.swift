import PluginBoundary

/// What a worker found when it loaded its plugin: everything the plugin
/// registered, or why it failed. The worker decides nothing about other
/// plugins: which plugin keeps a symbol is the host's to decide.
package enum LoadReply: Sendable, Equatable, FrameCodable {
    /// `register_plugin` returned `PB_OK`.
    case registered(Descriptor, Registrations)
    /// `register_plugin` returned another status.
    case registrationFailed(Descriptor, status: Int32, lastError: String?)
    /// The file was refused before its plugin was asked to register.
    case refused(PluginImageError)

    /// What the plugin's descriptor says.
    package struct Descriptor: Sendable, Equatable, FrameCodable {
        /// The plugin's name.
        package var name: String
        /// The plugin's version.
        package var version: String
        /// Everything else it says.
        package var metadata: PluginMetadata

        /// The parts of a checked descriptor.
        package init(name: String, version: String, metadata: PluginMetadata) {
            self.name = name
            self.version = version
            self.metadata = metadata
        }

        /// The fields in order.
        package func encode(to writer: inout FrameWriter) {
            writer.write(name)
            writer.write(version)
            writer.write(metadata)
        }

        /// The fields in order.
        package init(from reader: inout FrameReader) throws(FrameError) {
            name = try reader.read()
            version = try reader.read()
            metadata = try reader.read()
        }
    }

    /// What `register_fetcher` took and refused.
    package struct Registrations: Sendable, Equatable, FrameCodable {
        /// Every fetcher taken, in registration order.
        package var fetchers: [Fetcher]
        /// Symbols the plugin registered twice, refused with `PB_ERR_DUPLICATE`.
        package var duplicates: [FetcherRegistrations.Duplicate]
        /// Why each invalid fetcher was refused.
        package var refused: [String]

        /// What registering left.
        package init(fetchers: [Fetcher], duplicates: [FetcherRegistrations.Duplicate], refused: [String]) {
            self.fetchers = fetchers
            self.duplicates = duplicates
            self.refused = refused
        }

        /// The three lists in order.
        package func encode(to writer: inout FrameWriter) {
            writer.write(fetchers)
            writer.write(duplicates)
            writer.write(refused)
        }

        /// The three lists in order.
        package init(from reader: inout FrameReader) throws(FrameError) {
            fetchers = try reader.readList()
            duplicates = try reader.readList()
            refused = try reader.readList()
        }
    }

    /// A fetcher the plugin registered.
    package struct Fetcher: Sendable, Equatable, FrameCodable {
        /// Its symbol.
        package var symbol: String
        /// Its display name.
        package var displayName: String
        /// The rank it declares (`pb_fetcher_rank`), before the host's cap and the user's overrides.
        package var rank: UInt32

        /// A fetcher for `symbol`.
        package init(symbol: String, displayName: String, rank: UInt32) {
            self.symbol = symbol
            self.displayName = displayName
            self.rank = rank
        }

        /// The fields in order.
        package func encode(to writer: inout FrameWriter) {
            writer.write(symbol)
            writer.write(displayName)
            writer.write(rank)
        }

        /// The fields in order.
        package init(from reader: inout FrameReader) throws(FrameError) {
            symbol = try reader.read()
            displayName = try reader.read()
            rank = try reader.read()
        }
    }

    /// A tag byte, then the case's fields.
    package func encode(to writer: inout FrameWriter) {
        switch self {
        case .registered(let descriptor, let registrations):
            writer.write(UInt8(1))
            writer.write(descriptor)
            writer.write(registrations)
        case .registrationFailed(let descriptor, let status, let lastError):
            writer.write(UInt8(2))
            writer.write(descriptor)
            writer.write(status)
            writer.write(lastError)
        case .refused(let error):
            writer.write(UInt8(3))
            writer.write(error)
        }
    }

    /// A tag byte, then the case's fields.
    package init(from reader: inout FrameReader) throws(FrameError) {
        switch try reader.readByte() {
        case 1: self = .registered(try reader.read(), try reader.read())
        case 2: self = .registrationFailed(try reader.read(), status: try reader.read(), lastError: try reader.readOptional())
        case 3: self = .refused(try reader.read())
        case let tag: throw .undecodable(.unknownTag(tag, of: "load reply"))
        }
    }
}
