/// A JSON object: key–value members in document order, with fast lookup by key.
///
/// Keys are unique, and compared code point for code point, as JSON and JSON Schema compare names:
/// `"é"` written as one code point (U+00E9) and as `e` with a combining accent are two keys, though
/// Swift's `String` calls them equal. Equality ignores order (JSON Schema's object equality);
/// iteration keeps it.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One member.
    public typealias Element = (key: String, value: JSONValue)

    private var members: [Element]
    /// Key → index, built only for objects large enough that a linear search costs more.
    private var index: [ExactKey: Int]?
    private static let indexThreshold = 12

    /// An empty object.
    public init() {
        members = []
        index = nil
    }

    /// An object from members; a repeated key keeps its last value, at its first position.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// Members already known to have unique keys (the parser's output).
    init(uniqueMembers: [Element]) {
        members = uniqueMembers
        index = nil
        if members.count > Self.indexThreshold { rebuildIndex() }
    }

    /// An object from a dictionary literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    private mutating func rebuildIndex() {
        var built: [ExactKey: Int] = [:]
        built.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { built[ExactKey(member.key)] = position }
        index = built
    }

    /// The position of the first member.
    public var startIndex: Int { members.startIndex }
    /// The position after the last member.
    public var endIndex: Int { members.endIndex }
    /// The member at `position`.
    public subscript(position: Int) -> Element { members[position] }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }
    /// The values in order.
    public var values: [JSONValue] { members.map(\.value) }

    /// Whether the object has a member named by each of `names`, compared as UTF-8 bytes (code
    /// point for code point, as JSON Schema compares names). Each search starts after the member
    /// found for the name before, so names in the members' order are found at the first try.
    package func containsMembers(_ names: UTF8Names) -> Bool {
        var next = 0
        for position in 0..<names.count {
            guard let found = memberPosition(utf8: names[position], from: next) else { return false }
            next = found + 1
        }
        return true
    }

    /// The position of the member whose key has exactly the bytes of `key`, searching from `start`
    /// to the end, then from the beginning.
    package func memberPosition(utf8 key: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let start = start < members.count ? start : 0
        func matches(_ position: Int) -> Bool {
            var name = members[position].key
            return name.utf8.count == key.count
                && name.withUTF8 { $0.count == 0 || sameBytes($0.baseAddress!, key.baseAddress!, $0.count) }
        }
        for position in start..<members.count where matches(position) { return position }
        for position in 0..<start where matches(position) { return position }
        return nil
    }

    /// The position of `key` (the same code points), if present.
    public func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        return members.firstIndex { ExactKey.same($0.key, key) }
    }

    /// The value for `key`, or `nil`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    if index != nil { rebuildIndex() }
                }
            } else if let newValue {
                members.append((key, newValue))
                if index != nil {
                    index![ExactKey(key)] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// Equal when both have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Hashes without depending on member order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}

/// A key compared code point for code point (its UTF-8 bytes), not by Swift's canonical equivalence.
/// Hashed as the `String` is: keys with the same code points are canonically equivalent too, so their
/// hashes agree.
private struct ExactKey: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func same(_ a: String, _ b: String) -> Bool {
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        // Native and small strings are contiguous UTF-8: compared where they are, not copied.
        let inPlace = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second in
                count == 0 || sameBytes(first.baseAddress!, second.baseAddress!, count)
            }
        }
        if let inPlace, let equal = inPlace { return equal }
        return a.utf8.elementsEqual(b.utf8)
    }

    static func == (lhs: ExactKey, rhs: ExactKey) -> Bool { same(lhs.text, rhs.text) }

    func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
