/// A time limit given in seconds on the command line, such as `--timeout 2.5`:
/// what `--timeout` and `--load-timeout` take, parsed and checked here only.
///
/// The range is 1 ms to an hour. The C ABI passes a limit in whole
/// milliseconds and reads 0 as "no limit", so a value under 1 ms is refused
/// rather than rounded down to no limit at all.
///
/// NB: not `ExpressibleByArgument`: its failable `init?(argument:)` cannot say
/// why a value is refused, while an `@Option(transform:)` that throws puts the
/// reason on the parser's one error line.
struct TimeLimit: Sendable, Equatable, CustomStringConvertible {
    /// The shortest and the longest limit, in seconds.
    static let range: ClosedRange<Double> = 0.001...3600

    /// The limit.
    let duration: Duration
    /// The seconds as given, e.g. "2.5", for help and messages.
    let description: String

    /// Parses a number of seconds.
    /// - Parameter text: The option's value, e.g. "2.5".
    /// - Throws: ``ParseError`` when `text` is not a number, or not within ``range``.
    init(parsing text: String) throws(ParseError) {
        guard let seconds = Double(text), seconds.isFinite else { throw ParseError(reason: "not a number of seconds") }
        guard Self.range.contains(seconds) else { throw ParseError(reason: "out of range") }
        self.duration = .seconds(seconds)
        self.description = text
    }

    /// A limit written in the code, such as a default.
    private init(seconds: Int) {
        self.duration = .seconds(seconds)
        self.description = "\(seconds)"
    }

    /// What `--timeout` and `--load-timeout` wait without the option.
    static let standard = TimeLimit(seconds: 10)

    /// Why a value is not a time limit; the parser prints it after the value and the option.
    struct ParseError: Error, CustomStringConvertible {
        /// "not a number of seconds" or "out of range".
        let reason: String

        var description: String {
            "\(reason); give seconds from \(TimeLimit.range.lowerBound) to \(Int(TimeLimit.range.upperBound)), e.g. 5"
        }
    }
}
