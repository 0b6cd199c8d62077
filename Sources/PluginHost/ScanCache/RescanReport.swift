/// What `host rescan` did.
package struct RescanReport: Sendable, Equatable {
    /// The cache file written.
    package let cachePath: String
    /// How many plugin files were scanned.
    package let scanned: Int
    /// How many of them loaded in their scan.
    package let loaded: Int
    /// Why the cache could not be written, if it could not.
    package let writeError: String?
}
