import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleBenchReport
import WarbleServer

/// `GET /v1/bench/report` over report.json files written with `warble bench report`'s own types and encoder settings.
struct BenchReportRouteTests {
    static let key = "sekret"
    static var authorised: HTTPFields { [.authorization: "Bearer \(key)"] }

    static func report(model: String, rtf: Double) -> BenchReport {
        BenchReport(machine: BenchMachine(cpu: "Test CPU", cores: 2, onnxRuntime: "1.0", date: "2026-11-29", build: "release"), runs: 1,
                    rows: [BenchReportRow(kind: .tts, model: model, engine: "warble", realTimeFactor: rtf, wordsPerSecond: 30,
                                          firstAudioSeconds: 0.12, peakMemoryMiB: 80)],
                    skipped: ["translation: no translation model installed"])
    }

    /// As `warble bench report` writes it (BenchReportCommand.write).
    static func write(_ report: BenchReport, to folder: URL, modified: Date) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let file = folder.appendingPathComponent("report.json")
        try encoder.encode(report).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
    }

    func withFolder<Value>(_ body: (URL) async throws -> Value) async throws -> Value {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-route-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    func get(_ folder: URL?, headers: HTTPFields = Self.authorised) async throws -> (HTTPResponse.Status, [String: Any]) {
        let server = SpeechServer(backend: FakeSpeechBackend(), benchReports: folder, configuration: ServerConfiguration(apiKey: Self.key))
        return try await Application(router: server.makeRouter()).test { client in
            let response = try await client.execute(uri: "/v1/bench/report", method: .get, headers: headers)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any] ?? [:]
            return (response.status, json)
        }
    }

    @Test func theNewestReportOfTheFolderOrItsSubfoldersIsServed() async throws {
        try await withFolder { folder in
            try Self.write(Self.report(model: "old-voice", rtf: 5), to: folder, modified: Date(timeIntervalSince1970: 1_000_000))
            try Self.write(Self.report(model: "new-voice", rtf: 9.5), to: folder.appendingPathComponent("2026-11-29"),
                           modified: Date(timeIntervalSince1970: 2_000_000))
            let (status, json) = try await get(folder)
            #expect(status == .ok)
            #expect(json["object"] as? String == "bench.report" && (json["modified"] as? String)?.hasPrefix("1970-01-24") == true)
            #expect((json["folder"] as? String)?.hasSuffix("2026-11-29") == true)
            let report = try #require(json["report"] as? [String: Any])
            let row = try #require((report["rows"] as? [[String: Any]])?.first)
            #expect(row["model"] as? String == "new-voice" && row["realTimeFactor"] as? Double == 9.5)
            #expect(row["firstAudioSeconds"] as? Double == 0.12 && row["peakMemoryMiB"] as? Double == 80 && row["kind"] as? String == "tts")
            #expect((report["machine"] as? [String: Any])?["cpu"] as? String == "Test CPU")
            #expect((report["skipped"] as? [String])?.count == 1)
        }
    }

    @Test func noReportIsA404SayingHowToMakeOne() async throws {
        try await withFolder { folder in
            let (status, json) = try await get(folder)
            #expect(status == .notFound)
            let error = try #require(json["error"] as? [String: Any])
            #expect((error["message"] as? String)?.contains("warble bench report -o \(folder.path)") == true)
            #expect(error["code"] as? String == "no_bench_report")
        }
        let (status, json) = try await get(nil)
        #expect(status == .notFound && ((json["error"] as? [String: Any])?["message"] as? String)?.contains("--bench-report") == true)
    }

    @Test func aDamagedReportIsAClear500AndTheKeyIsNeeded() async throws {
        try await withFolder { folder in
            try Data(#"{"rows": "nope"}"#.utf8).write(to: folder.appendingPathComponent("report.json"))
            let (status, json) = try await get(folder)
            #expect(status == .internalServerError)
            #expect(((json["error"] as? [String: Any])?["message"] as? String)?.contains("is not a report of warble bench report") == true)
            #expect(try await get(folder, headers: [:]).0 == .unauthorized)
        }
    }
}
