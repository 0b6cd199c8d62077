import PluginHost

/// The version of Patchbay this host was built from: what `host --version`
/// prints, and what a plugin project from `host new-plugin` depends on.
///
/// Bump ``current`` with each release tag; nothing else spells the version
/// out. The commit and the Swift version come from the build
/// (``BuildInfo``, written by the BuildInfo build plugin).
enum PatchbayVersion {
    /// The release, in semantic versioning, e.g. "1.0.0".
    static let current = "1.0.0"

    /// `host --version`: the release, the plugin ABI it speaks, the Swift
    /// compiler that built it and the commit it was built from.
    static let report = """
        host \(current)
        plugin ABI version \(PluginABIVersion.current)
        Swift \(BuildInfo.swiftVersion)
        commit \(BuildInfo.commit)
        """
}
