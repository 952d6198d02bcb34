import Hummingbird

/// Requires `Authorization: Bearer <key>` on every route except the health checks, the Studio page's static
/// files (`/`, `/studio/…`: they hold no data) and `/metrics` when it is public.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let key: String
    let openPaths: Set<String>

    init(key: String, metricsPublic: Bool = false) {
        self.key = key
        openPaths = Set(["/health", "/health/live", "/health/ready"] + (metricsPublic ? ["/metrics"] : []))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard !openPaths.contains(path), !StudioRoutes.isPublic(path) else { return try await next(request, context) }
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("missing API key: send 'Authorization: Bearer <key>'")
        }
        let prefix = "Bearer "
        guard header.hasPrefix(prefix), Self.constantTimeEqual(Array(header.utf8.dropFirst(prefix.utf8.count)), Array(key.utf8)) else {
            throw APIError.unauthorized("incorrect API key provided")
        }
        return try await next(request, context)
    }

    /// Compares without an early exit, so timing does not reveal how much of the key matched.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
