import Foundation

/// What went wrong talking to the Hub, said so that the user knows what to do.
public struct HubError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        case offline, gated, notFound, network, integrity, unexpected
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The error a Hub answer stands for (`X-Error-Code`, then the status), or nil for a success.
    static func from(status: Int, errorCode: String?, errorMessage: String?, repo: String, path: String?,
                     revision: String, environment: HubEnvironment) -> HubError? {
        guard status >= 400 else { return nil }
        let page = "\(environment.endpoint)/\(repo)"
        let what = path.map { "\(repo)/\($0)" } ?? repo
        switch errorCode {
        case "GatedRepo":
            if let origin = environment.tokenOrigin, status == 403 {
                return HubError(.gated, "\(repo) is a gated repository and the token from \(origin) has no access to it yet: "
                    + "request access on \(page) (the owners may have to approve it), then pull again")
            }
            return HubError(.gated, "\(repo) is a gated repository: request access on \(page), then set HF_TOKEN to an "
                + "access token of that account (https://huggingface.co/settings/tokens) and pull again")
        case "RepoNotFound":
            return HubError(.notFound, "repository \(repo) was not found on \(environment.endpoint)"
                + (environment.token == nil ? " (if it is private, set HF_TOKEN)" : ""))
        case "RevisionNotFound":
            return HubError(.notFound, "revision '\(revision)' of \(repo) was not found")
        case "EntryNotFound":
            return HubError(.notFound, "\(what) was not found at revision \(revision)")
        default:
            break
        }
        let detail = errorMessage.map { ": \($0)" } ?? ""
        switch status {
        case 401: return HubError(.notFound, "\(what): not found or private (HTTP 401\(detail)); set HF_TOKEN if it is private")
        case 403: return HubError(.gated, "\(what): access denied (HTTP 403\(detail))")
        case 404: return HubError(.notFound, "\(what) was not found (HTTP 404\(detail))")
        case 408, 429, 500...599: return HubError(.network, "\(what): the Hub answered HTTP \(status)\(detail); try again later")
        default: return HubError(.unexpected, "\(what): unexpected HTTP \(status)\(detail)")
        }
    }
}
