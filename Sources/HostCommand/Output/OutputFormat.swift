import ArgumentParser

/// How a listing or a fetch is printed.
enum OutputFormat: String, Sendable, CaseIterable, ExpressibleByArgument {
    /// Aligned columns for people.
    case table
    /// A JSON array for programs.
    case json
}
