/// How far a scan of plugin files has got, for a progress line.
///
/// The scanner reports when each file's scan starts and once when the last
/// one ends; what to show, and whether, is the caller's choice.
package struct ScanProgress: Sendable, Equatable {
    /// Scans finished so far.
    package let done: Int
    /// Files to scan in all.
    package let total: Int
    /// The file whose scan just started, or the last one at the end.
    package let path: String

    /// Receives progress from the scanner's task: it must be quick, and safe
    /// to call from any thread.
    package typealias Handler = @Sendable (ScanProgress) -> Void
}
