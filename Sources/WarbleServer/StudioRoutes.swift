import Hummingbird

/// Warble Studio, the web page (`GET /` and `GET /studio/<file>`): static files compiled into the binary
/// (`Sources/WarbleServer/Studio`, SwiftPM's `embedInCode`), served with a Content-Security-Policy that allows
/// this origin alone. The page holds no data: both routes are public, and every call it makes goes to the API
/// with the key in an `Authorization` header. Only the files in `assets` are served: any other name is a 404,
/// and no name reaches the file system.
struct StudioRoutes: Sendable {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// The page's files by name (the names `index.html` links).
    static let assets: [String: Asset] = {
        let files: [(String, [UInt8])] = [
            ("index.html", PackageResources.index_html),
            ("studio.css", PackageResources.studio_css),
            ("app.js", PackageResources.app_js),
            ("api.js", PackageResources.api_js),
            ("speak.js", PackageResources.speak_js),
            ("voices.js", PackageResources.voices_js),
            ("live.js", PackageResources.live_js),
            ("history.js", PackageResources.history_js),
            ("models.js", PackageResources.models_js),
            ("bench.js", PackageResources.bench_js),
        ]
        return Dictionary(uniqueKeysWithValues: files.map { ($0.0, Asset(bytes: $0.1, contentType: contentType(of: $0.0))) })
    }()

    /// This origin only: no remote script, style, image, media or connection; blob: for the audio the page
    /// streams (MediaSource) and the images it draws; no plugins, no framing, no form posts.
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; "
        + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        return "application/octet-stream"
    }

    /// Whether `path` is one of the page's public routes (no API key).
    static func isPublic(_ path: String) -> Bool { path == "/" || path.hasPrefix("/studio/") }

    func page() throws -> Response { try asset("index.html") }

    func asset(_ name: String) throws -> Response {
        guard let asset = Self.assets[name] else {
            throw APIError(.notFound, "the studio has no file '\(name.prefix(100))'", code: "not_found")
        }
        let headers: HTTPFields = [
            .contentType: asset.contentType,
            .contentSecurityPolicy: Self.contentSecurityPolicy,
            .init("X-Content-Type-Options")!: "nosniff",
            .init("Referrer-Policy")!: "no-referrer",
            .cacheControl: "no-cache",
        ]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
