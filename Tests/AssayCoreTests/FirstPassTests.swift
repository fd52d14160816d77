import Testing

@testable import AssayCore

// A model is first checked without locating issues; only one with an issue is checked again,
// locating them. These tests pin that the second pass finds exactly what one locating pass finds:
// warnings alone, issues deep in elements, alternatives of `or`, object checks.

private struct Order: Validatable {
    var reference: String
    var lines: [String]
    var quantity: Int
    var note: String?

    static let validation: Validation<Order> = [
        .property(\.reference, "reference", label: "Reference", .length(3...10)),
        .property(\.lines, "lines", .each(.length(1...5))),
        .property(\.quantity, "quantity", .range(1...9).or(.range(100...109))),
        .property(\.note, "note", Rule<String>.length(...3).severity(.warning)),
        .check("quantityPerLine") { order, context in
            if order.quantity > 10 * order.lines.count { context.report(.custom("tooManyItems"), at: "quantity") }
        },
    ]
}

@Suite("Validation: the first pass without locations")
struct FirstPassTests {
    @Test("a valid model has no issue")
    func validModel() {
        let order = Order(reference: "A-17", lines: ["a", "b"], quantity: 3, note: nil)
        #expect(order.issues().isEmpty)
    }

    @Test("a warning alone is located: path, label and rule location")
    func warningAlone() {
        let order = Order(reference: "A-17", lines: ["a"], quantity: 3, note: "a long note")
        let issues = order.issues()
        #expect(issues.map(\.path.jsonPointer) == ["/note"])
        #expect(issues.map(\.severity) == [.warning])
        #expect(issues.first?.ruleLocation == "Order.note: length")
    }

    @Test("issues of elements, alternatives and the object check keep their places and order")
    func everyKind() {
        let order = Order(reference: "A", lines: ["abc", "toolong", "", "x"], quantity: 50, note: nil)
        let issues = order.issues()
        #expect(
            issues.map(\.path.jsonPointer) == ["/reference", "/lines/1", "/lines/2", "/quantity", "/quantity"])
        #expect(issues.map(\.code) == [.tooShort, .tooLong, .tooShort, .noMatch, .custom("tooManyItems")])
        #expect(issues[0].label == "Reference")
        #expect(issues[1].label == nil, "an element is not labelled with its array's label")
        #expect(issues.last?.ruleLocation == "quantityPerLine")
    }

    @Test("the same issues when the model is one of many checked at a path")
    func atAPath() {
        let order = Order(reference: "A-17", lines: ["fine", "far too long"], quantity: 3, note: nil)
        let issues = Order.validation.issues(of: order, operation: nil, path: ["orders", 4])
        #expect(issues.map(\.path.jsonPointer) == ["/orders/4/lines/1"])
    }

    @Test("an unlocated context extends no path and sets no label, yet reports")
    func unlocatedContext() {
        var context = RuleContext(unlocatedIn: .property)
        context.check(["a", "bb"], with: Rule<[String]>.each(.length(...1)), at: .key("tags"))
        #expect(context.path.isRoot)
        #expect(context.issues.count == 1)
    }
}
