#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Strict RFC 3339 dates and times (section 5.6), as JSON Schema's `date`, `time` and `date-time`
/// formats use them.
///
/// Days are checked against their month, leap years included (`2023-02-30` and `2023-02-29` are
/// rejected; `2024-02-29` is accepted), hours run 00–23, minutes 00–59, seconds 00–60 (a leap
/// second only at 23:59:60 UTC, after applying the offset), the separator is `T` or `t`, and the
/// offset is `Z`, `z` or `±HH:MM`. Foundation's ISO 8601 parsers are both slower and laxer.
package enum RFC3339 {
    /// A parsed `full-date`: year, month and day.
    package struct DateParts: Hashable, Sendable {
        /// The year, 0000–9999.
        package var year: Int
        /// The month, 1–12.
        package var month: Int
        /// The day of the month.
        package var day: Int
    }

    /// A parsed `full-time` (a time with an offset): the time in seconds since midnight (with the
    /// fraction), and the offset from UTC in seconds.
    package struct TimeParts: Hashable, Sendable {
        /// Hours, minutes and seconds since midnight, local to the offset, with the fraction.
        package var secondsSinceMidnight: Double
        /// The offset from UTC, in seconds east.
        package var offsetSeconds: Int
    }

    /// Parses `YYYY-MM-DD`; `nil` when malformed or not a real day.
    package static func date<S: StringProtocol>(_ text: S) -> DateParts? {
        var text = String(text)
        return text.withUTF8(date(utf8:))
    }

    /// Parses `HH:MM:SS[.frac](Z|±HH:MM)`; `nil` when malformed.
    package static func time<S: StringProtocol>(_ text: S) -> TimeParts? {
        var text = String(text)
        return text.withUTF8(time(utf8:))
    }

    /// Parses `full-date "T" full-time` into a `Date`; `nil` when malformed or not a real moment.
    package static func dateTime<S: StringProtocol>(_ text: S) -> Date? {
        var text = String(text)
        guard let (date, time) = text.withUTF8(dateTime(utf8:)) else { return nil }
        let days = daysFromCivil(year: date.year, month: date.month, day: date.day)
        let seconds = Double(days) * 86_400 + time.secondsSinceMidnight - Double(time.offsetSeconds)
        return Date(timeIntervalSince1970: seconds)
    }

    /// ``date(_:)`` on UTF-8 bytes.
    package static func date(utf8 buffer: UnsafeBufferPointer<UInt8>) -> DateParts? {
        buffer.count == 10 ? parseDate(buffer, 0) : nil
    }

    /// ``time(_:)`` on UTF-8 bytes.
    package static func time(utf8 buffer: UnsafeBufferPointer<UInt8>) -> TimeParts? {
        guard let (time, end) = parseTime(buffer, 0), end == buffer.count else { return nil }
        return time
    }

    /// The parts of a `date-time` given as UTF-8 bytes; `nil` when malformed or not a real moment.
    package static func dateTime(utf8 buffer: UnsafeBufferPointer<UInt8>) -> (DateParts, TimeParts)? {
        guard buffer.count >= 20, let date = parseDate(buffer, 0), buffer[10] | 0x20 == UInt8(ascii: "t"),
            let (time, end) = parseTime(buffer, 11), end == buffer.count
        else { return nil }
        return (date, time)
    }

    /// Whether `year` is a leap year in the proleptic Gregorian calendar.
    package static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// The number of days in `month` of `year`.
    package static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for index in start..<start + count {
            let byte = bytes[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func parseDate(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> DateParts? {
        guard let year = digits(bytes, start, 4), bytes.count > start + 9, bytes[start + 4] == UInt8(ascii: "-"),
            let month = digits(bytes, start + 5, 2), bytes[start + 7] == UInt8(ascii: "-"),
            let day = digits(bytes, start + 8, 2), (1...12).contains(month), day >= 1,
            day <= daysInMonth(month, year: year)
        else { return nil }
        return DateParts(year: year, month: month, day: day)
    }

    private static func parseTime(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> (TimeParts, Int)? {
        guard let hour = digits(bytes, start, 2), bytes.count > start + 7, bytes[start + 2] == UInt8(ascii: ":"),
            let minute = digits(bytes, start + 3, 2), bytes[start + 5] == UInt8(ascii: ":"),
            let second = digits(bytes, start + 6, 2), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var index = start + 8
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let fractionStart = index
            while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHour = digits(bytes, index + 1, 2), index + 3 < bytes.count,
                bytes[index + 3] == UInt8(ascii: ":"), let offsetMinute = digits(bytes, index + 4, 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offset = sign * (offsetHour * 3600 + offsetMinute * 60)
            index += 6
        default:
            return nil
        }
        if second == 60 {
            // A leap second happens at 23:59:60 UTC only.
            let utcMinutes = ((hour * 60 + minute - offset / 60) % 1440 + 1440) % 1440
            guard utcMinutes == 23 * 60 + 59 else { return nil }
        }
        let seconds = Double(hour * 3600 + minute * 60 + second) + fraction
        return (TimeParts(secondsSinceMidnight: seconds, offsetSeconds: offset), index)
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
