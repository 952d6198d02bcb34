import Foundation
import Hummingbird
import WarbleBenchReport

/// `GET /v1/bench/report`: the newest `report.json` of `warble bench report` in the server's report folder
/// (`warble serve --bench-report`, default $WARBLE_HOME/bench): the folder's own report.json or one in a folder
/// directly inside it, whichever was written last. It is read as a `BenchReport` (a damaged file is a clear 500,
/// never passed on) and answered as JSON with the folder it came from and when it was written, the report in report.json's own keys. 404 when there is none.
struct BenchReportRoutes: Sendable {
    /// A report larger than this is not read (one row per model is a few hundred bytes).
    static let maximumBytes = 4 << 20

    let folder: URL?

    func report() throws -> Response {
        guard let folder else {
            throw APIError(.notFound, "this server serves no benchmark report (start it with --bench-report FOLDER)", code: "no_bench_report")
        }
        guard let newest = Self.newest(in: folder) else {
            throw APIError(.notFound, "no benchmark report in \(folder.path): make one with `warble bench report -o \(folder.path)` "
                + "(it measures the installed models and writes report.json there)", code: "no_bench_report")
        }
        guard newest.bytes <= Self.maximumBytes else {
            throw APIError(.internalServerError, "\(newest.file.path) is larger than \(Self.maximumBytes) bytes: not a report of warble bench report",
                           type: "server_error", code: "bad_bench_report")
        }
        let report: BenchReport
        do {
            report = try JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: newest.file))
        } catch {
            throw APIError(.internalServerError, "\(newest.file.path) is not a report of warble bench report (\(error.localizedDescription)); "
                + "make it again with warble bench report", type: "server_error", code: "bad_bench_report")
        }
        // The report in report.json's own keys (BenchReport's, as `warble bench report` writes it), inside the API's envelope.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let answer: [String: Any] = [
            "object": "bench.report",
            "folder": newest.file.deletingLastPathComponent().path,
            "modified": ISO8601DateFormatter().string(from: newest.modified),
            "report": try JSONSerialization.jsonObject(with: encoder.encode(report)),
        ]
        let body = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `folder/report.json` and `folder/*/report.json`, the one modified last (regular files only).
    static func newest(in folder: URL) -> (file: URL, modified: Date, bytes: Int)? {
        let fm = FileManager.default
        var candidates = [folder.appendingPathComponent("report.json")]
        let children = (try? fm.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])) ?? []
        for child in children where (try? child.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
            candidates.append(child.appendingPathComponent("report.json"))
        }
        var best: (file: URL, modified: Date, bytes: Int)?
        for file in candidates {
            guard let attributes = try? fm.attributesOfItem(atPath: file.path),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let modified = attributes[.modificationDate] as? Date else { continue }
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
            if best.map({ modified > $0.modified }) ?? true { best = (file, modified, bytes) }
        }
        return best
    }
}
