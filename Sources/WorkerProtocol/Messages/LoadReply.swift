import PluginBoundary

/// What a worker found when it loaded its plugin: everything the plugin
/// registered, or why it failed. The worker decides nothing about other
/// plugins: which plugin keeps a symbol is the host's to decide.
package enum LoadReply: Sendable, Equatable, FrameRecord {
    /// `register_plugin` returned `PB_OK`.
    case registered(Descriptor, Registrations)
    /// `register_plugin` returned another status.
    case registrationFailed(Descriptor, status: Int32, lastError: String?)
    /// The file was refused before its plugin was asked to register.
    case refused(PluginImageError)

    /// What the plugin's descriptor says.
    package struct Descriptor: Sendable, Equatable, FrameRecord {
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
        package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
            Self(name: try fields.field(\.name), version: try fields.field(\.version), metadata: try fields.field(\.metadata))
        }
    }

    /// What `register_fetcher` took and refused.
    package struct Registrations: Sendable, Equatable, FrameRecord {
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
        package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
            Self(fetchers: try fields.field(\.fetchers), duplicates: try fields.field(\.duplicates), refused: try fields.field(\.refused))
        }
    }

    /// A fetcher the plugin registered.
    package struct Fetcher: Sendable, Equatable, FrameRecord {
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
        package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
            Self(symbol: try fields.field(\.symbol), displayName: try fields.field(\.displayName), rank: try fields.field(\.rank))
        }
    }

    /// A tag byte, then the case's fields.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        try fields.variant(1, Self.registered) { if case .registered(let descriptor, let registrations) = $0 { (descriptor, registrations) } else { nil } }
        try fields.variant(2, Self.registrationFailed) {
            if case .registrationFailed(let descriptor, let status, let lastError) = $0 { (descriptor, status, lastError) } else { nil }
        }
        try fields.variant(3, Self.refused) { if case .refused(let error) = $0 { error } else { nil } }
        return try fields.end("load reply")
    }
}
