import Foundation

/// Where the Hub is and who we are to it, read as huggingface_hub reads it: `HF_ENDPOINT` (default
/// https://huggingface.co), the token from `HF_TOKEN`, then `HUGGING_FACE_HUB_TOKEN`, then the file
/// `$HF_TOKEN_PATH` or `$HF_HOME/token` (`HF_HOME` defaulting to `$XDG_CACHE_HOME/huggingface` or
/// `~/.cache/huggingface`), and `HF_HUB_OFFLINE` (or `TRANSFORMERS_OFFLINE`) for no network at all.
public struct HubEnvironment: Sendable, Equatable {
    public var endpoint: String
    public var token: String?
    /// Where the token came from, for messages ("HF_TOKEN", "/root/.cache/huggingface/token").
    public var tokenOrigin: String?
    public var offline: Bool

    public init(endpoint: String = "https://huggingface.co", token: String? = nil, tokenOrigin: String? = nil, offline: Bool = false) {
        self.endpoint = endpoint
        self.token = token
        self.tokenOrigin = tokenOrigin
        self.offline = offline
    }

    public init(environment env: [String: String] = ProcessInfo.processInfo.environment) {
        var endpoint = env["HF_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://huggingface.co"
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        self.endpoint = endpoint
        offline = Self.truthy(env["HF_HUB_OFFLINE"]) || Self.truthy(env["TRANSFORMERS_OFFLINE"])
        token = nil
        tokenOrigin = nil
        for name in ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"] {
            if let value = env[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
                token = value
                tokenOrigin = name
                return
            }
        }
        let home = env["HF_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.cache"))
                + "/huggingface")
        let path = env["HF_TOKEN_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/token"
        if let data = FileManager.default.contents(atPath: path),
           let value = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
            token = value
            tokenOrigin = path
        }
    }

    static func truthy(_ value: String?) -> Bool {
        guard let value = value?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return ["1", "on", "yes", "true"].contains(value)
    }

    /// `{endpoint}/{repo}/resolve/{revision}/{path}`: the revision percent-encoded with its `/`, the path
    /// keeping its `/`.
    public func resolveURL(repo: String, revision: String, path: String) -> String {
        "\(endpoint)/\(repo)/resolve/\(Self.encode(revision, keepSlash: false))/\(Self.encode(path, keepSlash: true))"
    }

    static func encode(_ text: String, keepSlash: Bool) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~" + (keepSlash ? "/" : ""))
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
