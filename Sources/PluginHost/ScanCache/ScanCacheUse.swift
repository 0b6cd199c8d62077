/// Whether and how a run uses the scan cache.
package enum ScanCacheUse: Sendable, Equatable {
    /// Neither read nor write it: load every plugin, as `--no-cache` asks.
    case off
    /// Read it from `cacheHome`/patchbay, scan what is new or changed, and
    /// write it back.
    case use(cacheHome: String)
    /// Scan every plugin again and write it, as `host rescan` asks.
    case rebuild(cacheHome: String)

    /// `$XDG_CACHE_HOME`, or `$HOME/.cache`, as the XDG base directory
    /// specification defines the user's cache directory; nil without either.
    package static func cacheHome(xdgCacheHome: String?, home: String?) -> String? {
        ScanCacheStore.cacheHome(xdgCacheHome: xdgCacheHome, home: home)
    }
}
