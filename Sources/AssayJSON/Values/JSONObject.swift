/// A JSON object: key–value members in document order, with fast lookup by key.
///
/// Keys are unique. Equality ignores order (JSON Schema's object equality); iteration keeps it.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One member.
    public typealias Element = (key: String, value: JSONValue)

    private var members: [Element]
    /// Key → index, built only for objects large enough that a linear search costs more.
    private var index: [String: Int]?
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
        var built: [String: Int] = [:]
        built.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { built[member.key] = position }
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

    /// The position of `key`, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
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
                    index![key] = members.count - 1
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
