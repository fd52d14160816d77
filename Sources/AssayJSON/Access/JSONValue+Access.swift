extension JSONValue {
    /// The value of `key` when this is an object that has it; `nil` otherwise. Never traps.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array that long; `nil` otherwise (negative indices
    /// included). Never traps.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, index >= 0, index < elements.count else { return nil }
        return elements[index]
    }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// The string, when the value is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when the value is a number.
    public var number: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when the value is an integer in range (`12` and `12.0`; not `12.5`).
    public var int: Int? { number?.int }

    /// The number as the nearest `Double`, when the value is a number in range.
    public var double: Double? { number?.double }

    /// The Boolean, when the value is one.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when the value is an array.
    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when the value is an object.
    public var object: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The string, or `fallback` when the value is not a string.
    public func string(default fallback: String) -> String { string ?? fallback }
    /// The integer, or `fallback` when the value is not an integer in range.
    public func int(default fallback: Int) -> Int { int ?? fallback }
    /// The number as a `Double`, or `fallback`.
    public func double(default fallback: Double) -> Double { double ?? fallback }
    /// The Boolean, or `fallback`.
    public func bool(default fallback: Bool) -> Bool { bool ?? fallback }
    /// The elements, or `fallback`.
    public func array(default fallback: [JSONValue]) -> [JSONValue] { array ?? fallback }

    /// The string elements of an array, skipping elements of other types (empty for non-arrays).
    public var strings: [String] { (array ?? []).compactMap(\.string) }
    /// The integer elements of an array, skipping others.
    public var ints: [Int] { (array ?? []).compactMap(\.int) }
    /// The numeric elements of an array as `Double`s, skipping others.
    public var doubles: [Double] { (array ?? []).compactMap(\.double) }
    /// The Boolean elements of an array, skipping others.
    public var bools: [Bool] { (array ?? []).compactMap(\.bool) }
    /// The object elements of an array, skipping others.
    public var objects: [JSONObject] { (array ?? []).compactMap(\.object) }
}
