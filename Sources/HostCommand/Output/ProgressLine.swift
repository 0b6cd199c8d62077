import Glibc
import PluginHost
import Synchronization

/// One updating line on stderr while plugins are scanned: `scanning plugins
/// 12/1000: libFooPlugin.so`, redrawn in place, and erased when the scan ends.
///
/// Shown only when stderr is a terminal, the scan has more than
/// ``threshold`` files, and `-q` was not given: a pipe or a log file gets
/// nothing. Redraws are at most ``interval`` apart, so a thousand fast scans
/// do not flood the terminal. Log lines written meanwhile first erase it
/// (``interrupt()``), so they never land in the middle of it.
final class ProgressLine: Sendable {
    /// A scan of this many files or fewer is quick: no line.
    static let threshold = 4
    /// The least time between two redraws.
    static let interval: Duration = .milliseconds(100)

    private struct State {
        var shown = false
        var lastDrawn: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let columns: Int

    private init(columns: Int) {
        self.columns = columns
    }

    /// The line of this process, once a scan asked for one.
    private static let current = Mutex<ProgressLine?>(nil)

    /// A handler that draws the line, or nil when it must not be shown:
    /// `quiet`, or stderr is not a terminal.
    static func forScan(quiet: Bool) -> ScanProgress.Handler? {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return nil }
        var size = winsize()
        let columns = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        let line = ProgressLine(columns: columns)
        current.withLock { $0 = line }
        return { progress in line.show(progress) }
    }

    /// Erases the line, if one is shown, before another line is written to stderr.
    static func interrupt() {
        current.withLock { $0 }?.erase()
    }

    /// Draws `progress`, or erases the line at the end of the scan.
    func show(_ progress: ScanProgress) {
        guard progress.total > Self.threshold else { return }
        state.withLock { state in
            if progress.done == progress.total {
                if state.shown { StandardError.write("\r\u{1B}[K") }
                state.shown = false
                return
            }
            let now = ContinuousClock.now
            if let last = state.lastDrawn, now - last < Self.interval { return }
            state.lastDrawn = now
            state.shown = true
            StandardError.write("\r\u{1B}[K" + Self.text(progress, columns: columns))
        }
    }

    private func erase() {
        state.withLock { state in
            guard state.shown else { return }
            state.shown = false
            state.lastDrawn = nil
            StandardError.write("\r\u{1B}[K")
        }
    }

    /// `scanning plugins 12/1000: libFooPlugin.so`, cut to fit `columns`
    /// (by display width: a wide name takes two columns a Character) so
    /// that it stays one line.
    static func text(_ progress: ScanProgress, columns: Int) -> String {
        let name = TerminalText.escaped(String(progress.path.split(separator: "/").last ?? Substring(progress.path)))
        let line = "scanning plugins \(progress.done)/\(progress.total): \(name)"
        let width = max(columns - 1, 20)
        return DisplayWidth.truncated(line, to: width)
    }
}
