import AssayCore
import GRDB

/// The names of the columns of encoded rows, shared by the rows that encode the same columns.
final class ColumnList {
    let names: [String]
    let positions: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() { positions[name] = position }
        self.positions = positions
    }

    /// The position of `column` (SQLite's column names ignore case).
    func position(of column: String) -> Int? {
        if let position = positions[column] { return position }
        return StorePlan.sameColumn(as: column, in: names).flatMap { positions[$0] }
    }
}

/// A record's encoded columns: values in the order of a shared column list.
struct EncodedRow {
    let columns: ColumnList
    let values: [DatabaseValue]

    /// Takes the values of `dictionary` in the order of `shared` when it names the same columns, else
    /// in a new order (sorted by name), which becomes the shared one.
    init(_ dictionary: [String: DatabaseValue], sharing shared: inout ColumnList?) {
        if let list = shared, list.names.count == dictionary.count {
            var values: [DatabaseValue] = []
            values.reserveCapacity(list.names.count)
            for name in list.names {
                guard let value = dictionary[name] else { break }
                values.append(value)
            }
            if values.count == list.names.count {
                self.columns = list
                self.values = values
                return
            }
        }
        let list = ColumnList(dictionary.keys.sorted())
        shared = list
        self.columns = list
        self.values = list.names.map { dictionary[$0] ?? .null }
    }

    /// The value of `column`, if the row has it.
    subscript(column: String) -> DatabaseValue? {
        columns.position(of: column).map { values[$0] }
    }

    /// The values of the key `columns`, or `nil` when one is missing or `NULL`.
    func key(_ columns: [String]) -> [DatabaseValue]? {
        var key: [DatabaseValue] = []
        key.reserveCapacity(columns.count)
        for column in columns {
            guard let value = self[column], !value.isNull else { return nil }
            key.append(value)
        }
        return key
    }
}
