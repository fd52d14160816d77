/// Punycode (RFC 3492), the encoding of IDNA A-labels (`xn--…`).
package enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// Decodes the part of an A-label after `xn--`; `nil` when it is not valid Punycode.
    package static func decode(_ input: String) -> String? {
        let scalars = Array(input.unicodeScalars)
        guard scalars.allSatisfy(\.isASCII) else { return nil }
        var output: [UInt32] = []
        var basicEnd = 0
        if let lastDelimiter = scalars.lastIndex(of: "-") {
            output = scalars[..<lastDelimiter].map(\.value)
            basicEnd = lastDelimiter + 1
        }
        var n = initialN, i = 0, bias = initialBias
        var position = basicEnd
        while position < scalars.count {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard position < scalars.count, let digit = digitValue(scalars[position]) else { return nil }
                position += 1
                let (product, overflow1) = digit.multipliedReportingOverflow(by: weight)
                guard !overflow1 else { return nil }
                let (sum, overflow2) = i.addingReportingOverflow(product)
                guard !overflow2, sum < 0x7FFF_FFFF else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (nextWeight, overflow3) = weight.multipliedReportingOverflow(by: base - t)
                guard !overflow3, nextWeight < 0x7FFF_FFFF else { return nil }
                weight = nextWeight
                k += base
            }
            bias = adapt(delta: i - oldI, count: output.count + 1, first: oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var result = ""
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Encodes a label as Punycode (without the `xn--` prefix).
    package static func encode(_ input: String) -> String {
        let values = input.unicodeScalars.map { Int($0.value) }
        var output = values.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        if basicCount > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias, handled = basicCount
        while handled < values.count {
            let m = values.filter { $0 >= n }.min()!
            delta += (m - n) * (handled + 1)
            n = m
            for value in values {
                if value < n { delta += 1 }
                if value == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digitCharacter(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digitCharacter(q))
                    bias = adapt(delta: delta, count: handled + 1, first: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func adapt(delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "a"..."z": return Int(scalar.value - 97)
        case "A"..."Z": return Int(scalar.value - 65)
        case "0"..."9": return Int(scalar.value - 48 + 26)
        default: return nil
        }
    }

    private static func digitCharacter(_ digit: Int) -> Character {
        Character(Unicode.Scalar(UInt8(digit < 26 ? digit + 97 : digit - 26 + 48)))
    }
}
