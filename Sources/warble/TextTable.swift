import Foundation
import WarbleText

/// Tables for people: columns padded to their widest cell, and the widest columns shortened (with
/// "…") until a row fits the terminal (or $COLUMNS, or 120 characters when neither is known). The
/// first column (the id people copy) and any in `keep` are never shortened.
enum TextTable {
    /// The narrowest a column is shortened to.
    static let minimumColumn = 10

    /// Every cell is shown with its control characters escaped (`PrintableText`): names and texts come from
    /// imported files and other people's requests, and a table must not become a terminal's instructions.
    static func render(header: [String], rows: [[String]], keep: Set<Int> = [0], width: Int = available()) -> [String] {
        let all = ([header] + rows).map { $0.map { PrintableText.escaped($0) } }
        var widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let separator = 2
        while widths.reduce(0, +) + separator * (widths.count - 1) > width,
              let widest = widths.indices.filter({ !keep.contains($0) }).max(by: { widths[$0] < widths[$1] }),
              widths[widest] > minimumColumn {
            widths[widest] -= 1
        }
        return all.map { row in
            row.enumerated().map { column, cell in
                let shown = cell.count > widths[column] ? String(cell.prefix(widths[column] - 1)) + "…" : cell
                return shown.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: String(repeating: " ", count: separator)).trimmingCharacters(in: .whitespaces)
        }
    }

    /// A long list in a cell: the first few and how many in all ("de-DE, en-GB, en-US … (49)").
    static func list(_ items: [String], showing count: Int = 3) -> String {
        items.count <= count + 1 ? items.joined(separator: ", ")
                                 : items.prefix(count).joined(separator: ", ") + " … (\(items.count))"
    }

    /// The terminal's width, else $COLUMNS, else 120.
    static func available() -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 120
    }
}

func printTable(header: [String], rows: [[String]], keep: Set<Int> = [0]) {
    for line in TextTable.render(header: header, rows: rows, keep: keep) { print(line) }
}
