import PluginBoundary

extension APIBases {
    /// Reads the user's bases: each entry is `URL`, for every plugin, or
    /// `PLUGIN=URL`, for the plugin that ``PluginSelector`` `PLUGIN` names
    /// (a vouched plugin's name, or a path with a `/`). An entry is
    /// `PLUGIN=URL` when the text before its first `=` has no `:`, which a
    /// URL's scheme always has.
    /// - Parameters:
    ///   - entries: The entries, in the order given.
    ///   - fallback: The base of a plugin nothing else gives one.
    /// - Throws: ``APIBaseError`` for the first entry that is not a base the
    ///   host could fetch under, or that repeats a plugin or the base for all.
    package init(parsing entries: [String], fallback: String = APIBases.coinbase) throws(APIBaseError) {
        self.init(fallback: fallback)
        for entry in entries {
            var plugin: String?
            var url = entry
            if let equals = entry.firstIndex(of: "="), !entry[..<equals].contains(":") {
                plugin = String(entry[..<equals])
                url = String(entry[entry.index(after: equals)...])
                guard plugin?.isEmpty == false else { throw APIBaseError(entry: entry, .noPluginName) }
            }
            try Self.check(url, entry: entry)
            if let plugin {
                if let earlier = byPlugin[plugin] { throw APIBaseError(entry: entry, .repeated(plugin: plugin, earlier: earlier)) }
                byPlugin[plugin] = url
            } else {
                if let earlier = everyPlugin { throw APIBaseError(entry: entry, .repeated(plugin: nil, earlier: earlier)) }
                everyPlugin = url
            }
        }
    }

    /// The bases as they apply to the plugin file at `path`: the user's
    /// base for it by file, else by name when someone vouched for it; never
    /// a base the user gave another plugin's name.
    /// - Parameters:
    ///   - path: The plugin file, as found.
    ///   - name: Its descriptor's name; nil while unknown, as when a worker
    ///     is sent the bases before it reads the descriptor: a base given
    ///     by file then stands as the base for every plugin, of which the
    ///     worker has one.
    ///   - vouched: Whether someone vouched for the file.
    package func applying(toFile path: String, name: String?, vouched: Bool) -> APIBases {
        var applied = APIBases(everyPlugin: everyPlugin, fallback: fallback)
        var byFile: String?
        for (key, url) in byPlugin where key.contains("/") && PluginSelector(key).matches(name: name, path: path, vouched: vouched) {
            byFile = url
        }
        if let byFile {
            if let name { applied.byPlugin[name] = byFile } else { applied.everyPlugin = byFile }
        } else if vouched {
            applied.byPlugin = byPlugin.filter { !$0.key.contains("/") }
        }
        return applied
    }

    /// ``applying(toFile:name:vouched:)`` before the plugin's name is known.
    package func forFile(_ path: String, vouched: Bool) -> APIBases {
        applying(toFile: path, name: nil, vouched: vouched)
    }

    /// Refuses a URL the host could not fetch under as a base: one that is
    /// not http, https or file, or could not be a ``URLPrefix``.
    /// - Parameters:
    ///   - url: The URL.
    ///   - entry: The setting as given, for the error to repeat.
    package static func check(_ url: String, entry: String) throws(APIBaseError) {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        let rest = url.dropFirst(scheme.count)
        guard ["http", "https", "file"].contains(scheme), rest.hasPrefix("://"),
            scheme == "file" || !rest.dropFirst(3).prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }).isEmpty
        else {
            throw APIBaseError(entry: entry, .notAURL(url))
        }
        do {
            _ = try URLPrefix(url)
        } catch {
            throw APIBaseError(entry: entry, .notAPrefix(error))
        }
    }
}

/// Why a base the user gave cannot be one.
package struct APIBaseError: Error, Sendable, Equatable {
    /// The entry as given, e.g. `BitstampPlugin=ftp://x`.
    package let entry: String
    /// What is wrong with it.
    package let kind: Kind

    /// What is wrong with an entry.
    package enum Kind: Sendable, Equatable {
        /// Not an http, https or file URL with a host (file needs none).
        case notAURL(String)
        /// A URL the host would never fetch under as it is: a user name, a query…
        case notAPrefix(URLPrefixError)
        /// `=URL`, with nothing before the `=`.
        case noPluginName
        /// A second base for one plugin, or for every plugin (`plugin` nil).
        case repeated(plugin: String?, earlier: String)
    }

    init(entry: String, _ kind: Kind) {
        self.entry = entry
        self.kind = kind
    }

    /// One line that names the setting as the user gave it, and the fix.
    /// - Parameter source: What set it, e.g. `--api-base-url` or `HOST_API_BASE_URL`.
    package func message(naming source: String) -> String {
        switch kind {
        case .notAURL(let url):
            "\(source) '\(url)' is not an http, https or file URL; use e.g. https://api.coinbase.com or file://$PWD/Fixtures/coinbase"
        case .notAPrefix(let error):
            "\(source) \(error); plugins may fetch only under it, so give a plain base such as https://api.coinbase.com"
        case .noPluginName:
            "\(source) '\(entry)' names no plugin before '='; give PLUGIN=URL, e.g. BitstampPlugin=https://www.bitstamp.net, or a URL for every plugin"
        case .repeated(let plugin?, let earlier):
            "\(source) gives \(plugin) two bases, '\(earlier)' and '\(entry.dropFirst(plugin.count + 1))'; give it one"
        case .repeated(nil, let earlier):
            "\(source) gives every plugin two bases, '\(earlier)' and '\(entry)'; give one, and PLUGIN=URL for a plugin of its own"
        }
    }
}
