/// Reads a `Retry-After` header: a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The delay `text` asks for, counted from `now`; nil when it is neither
    /// form. A date in the past asks for no delay.
    /// - Parameters:
    ///   - text: `120`, or an IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    ///   - now: Seconds since 1970, as the date is compared against.
    static func delay(_ text: String, now: Double) -> Duration? {
        let trimmed = text.trimmingWhitespace
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let seconds = Int64(trimmed) else { return .seconds(Int64.max / 1_000_000_000_000) }
            return .seconds(seconds)
        }
        guard let date = imfFixdate(String(trimmed)) else { return nil }
        let seconds = max(Double(date) - now, 0)
        return .milliseconds(Int64(seconds * 1000))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` as seconds since 1970 (RFC 9110,
    /// section 5.6.7); the obsolete forms are not read.
    static func imfFixdate(_ text: String) -> Int64? {
        let fields = text.split(separator: " ")
        // The year is 4DIGIT: a longer one overflowed the day count, and a
        // server's header crashed the host.
        guard fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT", fields[3].utf8.count == 4,
            let day = Int64(fields[1]), let monthIndex = months.firstIndex(of: fields[2].lowercased()), let year = Int64(fields[3])
        else { return nil }
        let time = fields[4].split(separator: ":")
        guard time.count == 3, let hour = Int64(time[0]), let minute = Int64(time[1]), let second = Int64(time[2]),
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return daysFromCivil(year: year, month: Int64(monthIndex + 1), day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// Days since 1970-01-01 of a Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}
