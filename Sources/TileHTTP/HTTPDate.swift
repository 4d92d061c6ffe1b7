#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP-date formatting and parsing (RFC 9110 §5.6.7), in whole seconds since 1970 UTC.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
    public static func format(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Parses IMF-fixdate and the two obsolete forms a recipient must accept:
    /// "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994".
    public static func parse(_ text: String) -> Int? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ":" || $0 == "-" })
        guard tokens.count >= 7 else { return nil }
        let numbers: [Substring]
        let monthName: Substring
        if let month = months.firstIndex(of: String(tokens[1])), tokens.count == 7 {
            // asctime: day-name month day hh mm ss year
            monthName = months[month][...]
            numbers = [tokens[2], tokens[6], tokens[3], tokens[4], tokens[5]]
        } else {
            guard tokens.count == 8, tokens[7] == "GMT" else { return nil }
            monthName = tokens[2]
            numbers = [tokens[1], tokens[3], tokens[4], tokens[5], tokens[6]]
        }
        guard let month = months.firstIndex(of: String(monthName)) else { return nil }
        let values = numbers.compactMap { Int($0) }
        guard values.count == 5 else { return nil }
        var (day, year, hour, minute, second) = (values[0], values[1], values[2], values[3], values[4])
        // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is in the past century.
        if numbers[1].count == 2 { year += year < 70 ? 2000 : 1900 }
        guard (1 ... 31).contains(day), (0 ... 23).contains(hour), (0 ... 59).contains(minute),
              (0 ... 60).contains(second), year >= 1970 else { return nil }
        return daysSince1970(year: year, month: month + 1, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// Days from 1970-01-01 to a civil date (proleptic Gregorian; H. Hinnant's algorithm).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// Seconds since 1970 now.
    public static var now: Int { Int(time(nil)) }
}
