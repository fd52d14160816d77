import AssayCore
import Testing

@testable import AssayJSON

@Suite struct AccessTests {
    let value: JSONValue = [
        "name": "Ann", "age": 35, "score": 22.5, "active": true, "tags": ["a", 1, "b", nil, 2.5, true],
        "address": ["city": "Oslo"], "ids": ["12", "x"],
    ]

    @Test func subscriptsNeverTrap() {
        #expect(value["name"] == "Ann")
        #expect(value["missing"] == nil)
        #expect(value["tags"]?[0] == "a")
        #expect(value["tags"]?[99] == nil)
        #expect(value["tags"]?[-1] == nil)
        #expect(value["name"]?[0] == nil)
        #expect(value[0] == nil)
        #expect(value["age"]?["x"] == nil)
        #expect(JSONValue.null["x"] == nil)
    }

    @Test func typedGettersAreStrict() {
        #expect(value["name"]?.string == "Ann")
        #expect(value["age"]?.int == 35)
        #expect(value["age"]?.string == nil)
        #expect(value["score"]?.int == nil)
        #expect(value["score"]?.double == 22.5)
        #expect(value["active"]?.bool == true)
        #expect(value["address"]?.object?["city"] == "Oslo")
        #expect(value["name"]?.int(default: -1) == -1)
        #expect(value["missing"]?.string(default: "none") ?? "none" == "none")
        #expect(value["active"]?.bool(default: false) == true)
    }

    @Test func typedIterationSkipsOtherTypes() {
        #expect(value["tags"]?.strings == ["a", "b"])
        #expect(value["tags"]?.ints == [1])
        #expect(value["tags"]?.doubles == [1, 2.5])
        #expect(value["tags"]?.bools == [true])
        #expect(value["name"]?.strings == [])
    }

    @Test(arguments: [
        (JSONValue.string("12"), 12 as Int?, true), (.string("-3"), -3, true), (.string("12.0"), 12, true),
        (.number(12), 12, false), (.string("12abc"), nil, false), (.string(" 12"), nil, false),
        (.string("12.5"), nil, false), (.bool(true), nil, false), (.null, nil, false), (.array([1]), nil, false),
    ])
    func laxIntegers(_ input: JSONValue, _ expected: Int?, _ coerced: Bool) {
        var coercions: [ValidationIssue] = []
        #expect(input.int(.lax, at: ["n"], coercions: &coercions) == expected)
        #expect(coercions.count == (coerced ? 1 : 0))
        if input.int == nil { #expect(input.int(.strict) == nil, "strict never converts") }
    }

    @Test func laxTable() {
        var coercions: [ValidationIssue] = []
        #expect(JSONValue.string("true").bool(.lax, at: ["a"], coercions: &coercions) == true)
        #expect(JSONValue.string("false").bool(.lax, at: ["b"], coercions: &coercions) == false)
        #expect(JSONValue.number(1).bool(.lax, at: ["c"], coercions: &coercions) == true)
        #expect(JSONValue.number(0).bool(.lax, at: ["d"], coercions: &coercions) == false)
        #expect(JSONValue.number(2).bool(.lax) == nil)
        #expect(JSONValue.string("yes").bool(.lax) == nil)
        #expect(JSONValue.number(JSONNumber(text: "12.50")!).string(.lax, at: ["e"], coercions: &coercions) == "12.5")
        #expect(JSONValue.bool(true).string(.lax) == nil)
        #expect(JSONValue.string("1e3").double(.lax, at: ["f"], coercions: &coercions) == 1000)
        #expect(JSONValue.string("abc").double(.lax) == nil)
        #expect(JSONValue.null.isAbsent(.lax))
        #expect(!JSONValue.null.isAbsent(.strict))
        #expect(coercions.map(\.path.jsonPointer) == ["/a", "/b", "/c", "/d", "/e", "/f"])
        #expect(coercions[4].parameters["from"] == "number")
        #expect(coercions[0].message(in: .russian) == "Значение поля «a» преобразовано из string в boolean")
    }

    /// A pointer's tokens with `~0` and `~1` at every place, beside non-ASCII text, and the
    /// escapes that are not ones (a `~` last, or before anything but `0` and `1`).
    @Test func jsonPointerTokensUnescaped() throws {
        #expect(try JSONValue.tokens(of: "") == [])
        #expect(try JSONValue.tokens(of: "/") == [""])
        #expect(try JSONValue.tokens(of: "/a~1b/~0~1/x~01/~1~1/é~1ü/日本~0") == ["a/b", "~/", "x~1", "//", "é/ü", "日本~"])
        #expect(try JSONValue.tokens(of: "/paths/~1users~1{id}/get") == ["paths", "/users/{id}", "get"])
        for bad in ["/a~", "/~2", "/a~b", "/~", "/x/~~0", "no-slash"] {
            #expect(throws: JSONPointerError.self, "\(bad)") { try JSONValue.tokens(of: bad) }
        }
        let document: JSONValue = ["paths": ["/users/{id}": ["get": 1]], "é/ü": 2]
        #expect(document[pointer: "/paths/~1users~1{id}/get"] == 1)
        #expect(document[pointer: "/é~1ü"] == 2)
    }

    @Test func jsonPointerGetSetRemove() throws {
        var document: JSONValue = ["a": ["b": [10, 20]], "x/y": 1, "m~n": 2, "": 3]
        #expect(document[pointer: ""] == document)
        #expect(document[pointer: "/a/b/1"] == 20)
        #expect(document[pointer: "/x~1y"] == 1)
        #expect(document[pointer: "/m~0n"] == 2)
        #expect(document[pointer: "/"] == 3)
        #expect(document[pointer: "/a/b/01"] == nil)
        #expect(document[pointer: "/a/b/-"] == nil)
        #expect(document[pointer: "a"] == nil)
        #expect(document[pointer: "/a/b/5"] == nil)
        #expect(document[path: ["a", "b", 0]] == 10)

        try document.set(99, at: "/a/b/0")
        try document.set(30, at: "/a/b/-")
        try document.set(40, at: "/a/b/3")
        try document.set("new", at: "/a/c")
        #expect(document[pointer: "/a"] == ["b": [99, 20, 30, 40], "c": "new"])
        #expect(throws: JSONPointerError.self) { try document.set(1, at: "/missing/deep") }
        #expect(throws: JSONPointerError.self) { try document.set(1, at: "/a/b/9") }
        #expect(throws: JSONPointerError.self) { try document.set(1, at: "/x~1y/z") }
        #expect(throws: JSONPointerError.self) { try document.set(1, at: "no-slash") }
        #expect(throws: JSONPointerError.self) { try document.set(1, at: "/~2") }
        try document.set(["replaced": true], at: "")
        #expect(document == ["replaced": true])

        var list: JSONValue = ["a": [1, 2, 3]]
        #expect(list.remove(at: "/a/1") == 2)
        #expect(list == ["a": [1, 3]])
        #expect(list.remove(at: "/a/9") == nil)
        #expect(list.remove(at: "/a") == [1, 3])
        #expect(list == [:])
    }

    @Test func nodesReadInPlace() throws {
        let document = try JSONDocument(parsing: #"{"a":[1,"x",{"b":null}],"c":1.5,"d":"e\u00e9"}"#)
        let root = document.root
        #expect(root.kind == .object)
        #expect(root.count == 3)
        #expect(root["a"]?.count == 3)
        #expect(root["a"]?[1]?.string == "x")
        #expect(root["a"]?[2]?["b"]?.isNull == true)
        #expect(root["a"]?[3] == nil)
        #expect(root["c"]?.double == 1.5)
        #expect(root["c"]?.int == nil)
        #expect(root["d"]?.string == "eé")
        #expect(root["a"]?.elements.map(\.kind) == [.integer, .string, .object])
        #expect(root.members.map(\.key) == ["a", "c", "d"])
        #expect(root["zzz"] == nil)
        #expect(root["c"]?["x"] == nil)
        #expect(document.location(of: [.key("a"), .index(2), .key("b")])?.column == 18)
        #expect(document.location(of: [.key("nope")]) == nil)
    }
}

@Suite struct RFC3339Tests {
    @Test(arguments: [
        "2024-02-29T12:00:00Z", "1970-01-01T00:00:00z", "2023-12-31t23:59:59.999999+14:00", "1998-12-31T23:59:60Z",
        "1998-12-31T15:59:60-08:00", "0001-01-01T00:00:00Z", "2021-10-12T22:38:42+09:00",
    ])
    func validDateTimes(_ text: String) { #expect(RFC3339.dateTime(text) != nil) }

    @Test(arguments: [
        "2023-02-29T00:00:00Z", "2023-02-30T00:00:00Z", "2023-04-31T00:00:00Z", "2023-13-01T00:00:00Z",
        "2023-01-01T24:00:00Z", "2023-01-01T00:60:00Z", "2023-01-01T12:00:60Z", "2023-01-01 00:00:00Z",
        "2023-01-01T00:00:00", "2023-01-01T00:00:00+0100", "2023-01-01T00:00:00.Z", "23-01-01T00:00:00Z",
        "2023-1-01T00:00:00Z", "2023-01-01T00:00:00+24:00", "", "2023-01-01T00:00:00Z ",
    ])
    func invalidDateTimes(_ text: String) { #expect(RFC3339.dateTime(text) == nil) }

    @Test func computesTheInstant() {
        #expect(RFC3339.dateTime("1970-01-02T00:00:00Z")?.timeIntervalSince1970 == 86_400)
        #expect(RFC3339.dateTime("1970-01-01T01:00:00+01:00")?.timeIntervalSince1970 == 0)
        #expect(RFC3339.dateTime("2000-03-01T00:00:00Z")?.timeIntervalSince1970 == 951_868_800)
        let leapDay = RFC3339.date("2024-02-29")
        #expect(leapDay?.year == 2024 && leapDay?.month == 2 && leapDay?.day == 29)
        #expect(RFC3339.date("1900-02-29") == nil)
        #expect(RFC3339.date("2000-02-29") != nil)
        #expect(RFC3339.time("23:59:60Z") != nil)
        #expect(RFC3339.time("12:00:00") == nil)
    }
}
