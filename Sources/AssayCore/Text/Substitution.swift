extension String {
    /// This string with every occurrence of `target` replaced by `replacement`, compared byte for
    /// byte on the UTF-8: the standard library's `replacing(_:with:)` for the placeholders and
    /// escapes Assay substitutes, without its generic collection search (one scan of the bytes, and
    /// no copy when `target` does not occur).
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        var text = self
        return text.withUTF8 { bytes -> String in
            var target = target
            return target.withUTF8 { pattern -> String in
                guard let first = pattern.first, pattern.count <= bytes.count else { return self }
                var result: [UInt8] = []
                var copied = 0
                var index = 0
                while index + pattern.count <= bytes.count {
                    if bytes[index] == first
                        && (pattern.count == 1
                            || bytes[index..<index + pattern.count].elementsEqual(pattern))
                    {
                        result.append(contentsOf: bytes[copied..<index])
                        result.append(contentsOf: replacement.utf8)
                        index += pattern.count
                        copied = index
                    } else {
                        index += 1
                    }
                }
                guard copied > 0 else { return self }
                result.append(contentsOf: bytes[copied...])
                return String(decoding: result, as: UTF8.self)
            }
        }
    }
}
