import Foundation
import Hummingbird
import WarbleHTTPTesting
import Testing
import WarbleAudio
@testable import WarbleServer

/// Warble Studio's static routes: the embedded files with their types and the Content-Security-Policy, public
/// (no key) while the API they call still needs it, and nothing but the embedded files (no path reaches the disk).
@Suite(.timeLimit(.minutes(1))) struct StudioRouteTests {
    @Test func thePageAndItsFilesAreServedWithTheirTypesAndCSP() async throws {
        try await withServer(configuration: .init(apiKey: "sesame")) { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(decoding: Data(buffer: page.body), as: UTF8.self)
            #expect(html.contains("<title>Warble Studio</title>"))
            for name in ["speak", "voices", "live", "history", "models", "bench"] {
                #expect(html.contains(#"id="tab-\#(name)""#) && html.contains(#"id="screen-\#(name)""#))
            }
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("default-src 'self'") && csp.contains("object-src 'none'") && csp.contains("frame-ancestors 'none'"))
            #expect(!csp.contains("http:") && !csp.contains("https:") && !csp.contains("*"))
            #expect(page.headers[.init("X-Content-Type-Options")!] == "nosniff")
            for (name, type) in [("studio.css", "text/css; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8"),
                                 ("api.js", "text/javascript; charset=utf-8"), ("speak.js", "text/javascript; charset=utf-8"),
                                 ("voices.js", "text/javascript; charset=utf-8"), ("history.js", "text/javascript; charset=utf-8"),
                                 ("bench.js", "text/javascript; charset=utf-8"), ("index.html", "text/html; charset=utf-8")] {
                let response = try await client.execute(uri: "/studio/\(name)", method: .get)
                #expect(response.status == .ok, "\(name)")
                #expect(response.headers[.contentType] == type, "\(name)")
                #expect(response.headers[.contentSecurityPolicy] == csp, "\(name)")
                #expect(response.body.readableBytes > 100, "\(name)")
            }
            // Every file the page's modules import is served.
            let app = String(decoding: Data(buffer: try await client.execute(uri: "/studio/app.js", method: .get).body), as: UTF8.self)
            #expect(app.contains("./api.js"))
        }
    }

    @Test func theAPIStillNeedsTheKey() async throws {
        try await withServer(configuration: .init(apiKey: "sesame")) { client in
            #expect(try await client.execute(uri: "/", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/studio/api.js", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/audio/voices", method: .get).status == .unauthorized)
            let speech = try await client.speech(["model": "tts-1", "input": "Hi."])
            #expect(speech.status == .unauthorized)
            // The page keeps the key out of URLs: it sends the header, which works.
            let voices = try await client.execute(uri: "/v1/audio/voices", method: .get, headers: [.authorization: "Bearer sesame"])
            #expect(voices.status == .ok)
            // No asset carries the key's name in a query string.
            for name in StudioRoutes.assets.keys {
                let text = String(decoding: Data(buffer: try await client.execute(uri: "/studio/\(name)", method: .get).body), as: UTF8.self)
                #expect(!text.contains("?key=") && !text.contains("api_key="), "\(name)")
            }
        }
    }

    @Test(arguments: [
        "/studio/nothing.js", "/studio/", "/studio/..%2FPackage.swift", "/studio/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/studio/../Package.swift", "/studio/../../etc/passwd", "/studio/Studio/index.html", "/studio/StudioRoutes.swift",
        "/studio/.", "/studio/..", "/studio//etc/passwd", "/studio/app.js%00.html", "/index.html",
    ])
    func onlyTheEmbeddedFilesAreServed(path: String) async throws {
        try await withServer(configuration: .init(apiKey: "sesame")) { client in
            // With the key, so that nothing but the name decides (a path outside /studio/ needs it).
            let response = try await client.execute(uri: path, method: .get, headers: [.authorization: "Bearer sesame"])
            #expect(response.status == .notFound, "\(path): \(response.status)")
            let body = String(decoding: Data(buffer: response.body), as: UTF8.self)
            #expect(!body.contains("root:") && !body.contains("PackageDescription"), "\(path)")
        }
    }

    @Test func otherMethodsAreRefused() async throws {
        try await withServer { client in
            let post = try await client.execute(uri: "/studio/app.js", method: .post)
            #expect(post.status == .methodNotAllowed)
            #expect(try await client.execute(uri: "/", method: .delete).status == .methodNotAllowed)
        }
    }

    /// MP3 in the event stream is encoded as it comes, so a MediaSource can play it before the end.
    @Test func mp3EventStreamsCarryAudioBeforeTheEnd() async throws {
        try await withServer { client in
            let response = try await client.speech(["model": "tts-1", "input": "One two. Three four. Five six. Seven eight.",
                                                    "voice": "test-voice", "response_format": "mp3", "stream_format": "sse"])
            #expect(response.status == .ok)
            let events = String(decoding: Data(buffer: response.body), as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
            let types = events.compactMap { $0["type"] as? String }
            let deltas = types.enumerated().filter { $0.element == "speech.audio.delta" }.map(\.offset)
            let lastSentence = try #require(types.lastIndex(of: "speech.sentence"))
            #expect(deltas.count >= 3)
            #expect(try #require(deltas.first) < lastSentence, "audio came only after the last sentence: \(types)")
            let audio = events.compactMap { ($0["audio"] as? String).flatMap { Data(base64Encoded: $0) } }.reduce(Data(), +)
            let decoded = try SoundFile.load(data: audio).buffer
            #expect(abs(Double(decoded.frameCount) / 22050 - 0.8) < 0.11)
        }
    }
}
