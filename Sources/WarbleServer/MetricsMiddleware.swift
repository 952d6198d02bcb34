import Hummingbird

/// Counts every answered request by route, method and status, and times it to the end of its body (a
/// streamed speech answer counts when its last byte is written).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let method = request.method.rawValue
        do {
            var response = try await next(request, context)
            let status = response.status.code
            let route = context.endpointPath ?? "unmatched"
            let metrics = self.metrics
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { metrics.request(route: route, method: method, status: status, duration: ContinuousClock.now - started) }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.request(route: context.endpointPath ?? "unmatched", method: method, status: status,
                            duration: ContinuousClock.now - started)
            throw error
        }
    }
}
