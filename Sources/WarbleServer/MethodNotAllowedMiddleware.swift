import Hummingbird

/// The routes' paths and methods, for answering a known path asked with another method: 405 with `Allow`
/// (RFC 9110) rather than the router's 404. Filled while the router is made, read-only after.
final class RouteTable: @unchecked Sendable {
    private var routes: [(segments: [String], method: HTTPRequest.Method)] = []

    func add(_ path: String, _ method: HTTPRequest.Method) {
        routes.append((path.split(separator: "/").map(String.init), method))
    }

    /// The methods of the routes whose path matches `path` (`:name` segments match any one segment).
    func methods(for path: String) -> [HTTPRequest.Method] {
        let asked = path.split(separator: "/")
        var found: [HTTPRequest.Method] = []
        for route in routes where route.segments.count == asked.count
            && zip(route.segments, asked).allSatisfy({ $0.hasPrefix(":") || $0 == $1 }) && !found.contains(route.method) {
            found.append(route.method)
        }
        return found
    }
}

struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let table: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = table.methods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            throw APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(list)",
                           code: "method_not_allowed", headers: [.allow: list])
        }
    }
}
