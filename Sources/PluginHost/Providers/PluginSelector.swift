import FoundationEssentials

/// How the user names a plugin in a setting (`HOST_RANKS`, `--source`,
/// `--api-base-url PLUGIN=URL`): by the name it declares, which reaches only
/// plugins someone vouched for, or by its file, which reaches any plugin.
///
/// A selector with a `/` is a file, resolved as the plugin search resolves
/// its directories (the directory's symbolic links and `..` followed,
/// relative to the working directory); any other is a name. A plugin nobody
/// vouched for may declare any name, so a name the user wrote for a vouched
/// plugin never reaches it.
///
/// ```swift
/// PluginSelector("BitstampPlugin")          // .name("BitstampPlugin")
/// PluginSelector("./plugins/libThief.so")   // .file("/home/me/prices/plugins/libThief.so")
/// ```
package enum PluginSelector: Sendable, Hashable {
    /// A descriptor name: vouched plugins of that name.
    case name(String)
    /// A file, resolved: the plugin loaded from it, whoever vouched.
    case file(String)

    /// Reads a selector as the user wrote it.
    /// - Parameters:
    ///   - text: A plugin's name, or a path with a `/`.
    ///   - workingDirectory: What a relative path is relative to.
    package init(_ text: String, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self = text.contains("/") ? .file(Self.resolved(text, workingDirectory: workingDirectory)) : .name(text)
    }

    /// Whether this selector names `plugin`.
    package func matches(_ plugin: PluginIdentity) -> Bool {
        matches(name: plugin.name, path: plugin.path, vouched: plugin.isVouched)
    }

    /// Whether this selector names the plugin of this name (nil while
    /// unknown) and file, vouched for or not.
    package func matches(name: String?, path: String, vouched: Bool) -> Bool {
        switch self {
        case .name(let selected): vouched && name == selected
        case .file(let selected): Self.resolved(path, workingDirectory: FileManager.default.currentDirectoryPath) == selected
        }
    }

    /// Whether this selector is a file.
    package var isFile: Bool {
        if case .file = self { true } else { false }
    }

    /// `path` made absolute, its directory resolved; the file itself is
    /// kept as named, as the search finds it.
    static func resolved(_ path: String, workingDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FilePaths.join(workingDirectory, path)
        return FilePaths.join(FilePaths.resolved(FilePaths.directory(of: absolute)), FilePaths.name(of: absolute))
    }
}
