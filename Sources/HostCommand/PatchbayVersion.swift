/// The version of Patchbay this host was built from: what `host --version`
/// prints, and what a plugin project from `host new-plugin` depends on.
///
/// Bump it with each release tag; nothing else spells the version out.
enum PatchbayVersion {
    /// The release, in semantic versioning, e.g. "1.0.0".
    static let current = "1.0.0"
}
