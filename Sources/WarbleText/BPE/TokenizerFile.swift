import Foundation

/// Reads the parts of a Hugging Face `tokenizer.json` that byte-level BPE tokenizers use.
struct TokenizerFile {
    var model: BPEModel
    var normalizer: TextNormalizer?
    var preTokenizer: PreTokenizer
    var postProcessor: PostProcessor
    var addedTokens: [AddedToken]
    var decodesBytes: Bool

    init(data: Data) throws {
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw TextError(.tokenizerFile, "tokenizer.json is not a JSON object")
            }
            root = object
        } catch let error as TextError {
            throw error
        } catch {
            throw TextError(.tokenizerFile, "tokenizer.json is not valid JSON: \(error)")
        }
        guard let model = root["model"] as? [String: Any] else {
            throw TextError(.tokenizerFile, "tokenizer.json has no \"model\" object")
        }
        let type = model["type"] as? String ?? "BPE"
        guard type == "BPE" else {
            throw TextError(.tokenizerFile, "model type \(type) is not supported; accepted: BPE")
        }
        for key in ["continuing_subword_prefix", "end_of_word_suffix"] {
            if let value = model[key] as? String, !value.isEmpty {
                throw TextError(.tokenizerFile, "BPE \(key) \"\(value)\" is not supported; accepted: empty or null")
            }
        }
        guard let vocabObject = model["vocab"] as? [String: Any] else {
            throw TextError(.tokenizerFile, "model has no \"vocab\" object")
        }
        var vocab: [String: Int32] = [:]
        vocab.reserveCapacity(vocabObject.count)
        for (token, value) in vocabObject {
            guard let id = value as? Int else {
                throw TextError(.tokenizerFile, "vocab entry \(token) has id \(value); accepted: an integer")
            }
            vocab[token] = Int32(id)
        }
        let merges = try Self.merges(model["merges"] ?? [Any]())
        self.model = try BPEModel(
            vocab: vocab, merges: merges, ignoreMerges: model["ignore_merges"] as? Bool ?? false,
            unknownToken: model["unk_token"] as? String)

        addedTokens = try (root["added_tokens"] as? [[String: Any]] ?? []).map { entry in
            guard let id = entry["id"] as? Int, let content = entry["content"] as? String else {
                throw TextError(.tokenizerFile, "added token \(entry) lacks an integer id or a content string")
            }
            return AddedToken(
                id: id, content: content, special: entry["special"] as? Bool ?? false,
                singleWord: entry["single_word"] as? Bool ?? false, leftStrip: entry["lstrip"] as? Bool ?? false,
                rightStrip: entry["rstrip"] as? Bool ?? false, normalized: entry["normalized"] as? Bool ?? false)
        }
        normalizer = try (root["normalizer"] as? [String: Any]).map(Self.normalizer)
        preTokenizer = try (root["pre_tokenizer"] as? [String: Any]).map(Self.preTokenizer) ?? .sequence([])
        guard preTokenizer.hasByteLevel else {
            throw TextError(.tokenizerFile, "pre_tokenizer has no ByteLevel step; only byte-level BPE is supported")
        }
        var tokenIDs = vocab
        for token in addedTokens { tokenIDs[token.content] = Int32(token.id) }
        postProcessor = try (root["post_processor"] as? [String: Any]).map { try Self.postProcessor($0, tokenIDs) } ?? .none
        let decoderType = (root["decoder"] as? [String: Any])?["type"] as? String
        decodesBytes = decoderType != nil
        if let decoderType, decoderType != "ByteLevel" {
            throw TextError(.tokenizerFile, "decoder \(decoderType) is not supported; accepted: ByteLevel or null")
        }
    }

    static func merges(_ value: Any) throws -> [(String, String)] {
        guard let list = value as? [Any] else {
            throw TextError(.tokenizerFile, "model merges is \(type(of: value)); accepted: a list")
        }
        return try list.enumerated().map { index, entry in
            if let pair = entry as? [String], pair.count == 2 { return (pair[0], pair[1]) }
            if let line = entry as? String, let pair = mergeLine(line) { return pair }
            throw TextError(.tokenizerFile, "merge \(index) is \(entry); accepted: \"a b\" or [\"a\", \"b\"]")
        }
    }

    static func mergeLine(_ line: some StringProtocol) -> (String, String)? {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    static func normalizer(_ object: [String: Any]) throws -> TextNormalizer {
        let type = object["type"] as? String ?? ""
        switch type {
        case "NFC": return .nfc
        case "NFD": return .nfd
        case "NFKC": return .nfkc
        case "NFKD": return .nfkd
        case "Lowercase": return .lowercase
        case "Strip": return .strip(left: object["strip_left"] as? Bool ?? true, right: object["strip_right"] as? Bool ?? true)
        case "Prepend": return .prepend(object["prepend"] as? String ?? "")
        case "Replace":
            guard let pattern = (object["pattern"] as? [String: Any])?["String"] as? String else {
                throw TextError(.tokenizerFile, "Replace normalizer pattern \(object["pattern"] ?? "nil") is not supported; accepted: {\"String\": ...}")
            }
            return .replace(pattern: pattern, content: object["content"] as? String ?? "")
        case "Sequence":
            return .sequence(try (object["normalizers"] as? [[String: Any]] ?? []).map(normalizer))
        default:
            throw TextError(.tokenizerFile, "normalizer \(type) is not supported; accepted: NFC, NFD, NFKC, NFKD, Lowercase, Strip, Prepend, Replace, Sequence")
        }
    }

    static func preTokenizer(_ object: [String: Any]) throws -> PreTokenizer {
        let type = object["type"] as? String ?? ""
        switch type {
        case "ByteLevel":
            return .byteLevel(addPrefixSpace: object["add_prefix_space"] as? Bool ?? false, useRegex: object["use_regex"] as? Bool ?? true)
        case "Split":
            let behaviorName = object["behavior"] as? String ?? "Isolated"
            guard let behavior = SplitBehavior(rawValue: behaviorName) else {
                throw TextError(.tokenizerFile, "Split behavior \(behaviorName) is not supported; accepted: Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous")
            }
            let pattern = object["pattern"] as? [String: Any] ?? [:]
            let matcher: any PatternMatcher
            if let regex = pattern["Regex"] as? String {
                matcher = try Self.matcher(regex)
            } else if let literal = pattern["String"] as? String {
                matcher = LiteralPattern(literal: Array(literal.utf8))
            } else {
                throw TextError(.tokenizerFile, "Split pattern \(pattern) is not supported; accepted: {\"Regex\": ...} or {\"String\": ...}")
            }
            return .split(matcher, behavior, invert: object["invert"] as? Bool ?? false)
        case "Digits":
            return .split(DigitsPattern(individual: object["individual_digits"] as? Bool ?? false), .isolated, invert: false)
        case "Sequence":
            return .sequence(try (object["pretokenizers"] as? [[String: Any]] ?? []).map(preTokenizer))
        default:
            throw TextError(.tokenizerFile, "pre-tokenizer \(type) is not supported; accepted: ByteLevel, Split, Digits, Sequence")
        }
    }

    static func matcher(_ regex: String) throws -> any PatternMatcher {
        switch regex {
        case GPT2Pattern.source: return GPT2Pattern()
        case QwenPattern.qwen2Source: return QwenPattern(maxDigits: 1)
        case QwenPattern.llama3Source: return QwenPattern(maxDigits: 3)
        default: return try RegexPattern(regex)
        }
    }

    static func postProcessor(_ object: [String: Any], _ tokenIDs: [String: Int32]) throws -> PostProcessor {
        let type = object["type"] as? String ?? ""
        switch type {
        case "ByteLevel":
            return .none
        case "TemplateProcessing":
            let special = object["special_tokens"] as? [String: [String: Any]] ?? [:]
            var prefix: [Int32] = []
            var suffix: [Int32] = []
            var seenSequence = false
            for item in object["single"] as? [[String: Any]] ?? [] {
                if item["Sequence"] != nil {
                    seenSequence = true
                } else if let token = item["SpecialToken"] as? [String: Any], let name = token["id"] as? String {
                    guard let ids = special[name]?["ids"] as? [Int] else {
                        throw TextError(.tokenizerFile, "template token \(name) is missing from special_tokens")
                    }
                    if seenSequence { suffix += ids.map(Int32.init) } else { prefix += ids.map(Int32.init) }
                }
            }
            return .template(prefix: prefix, suffix: suffix)
        case "RobertaProcessing", "BertProcessing":
            guard let cls = object["cls"] as? [Any], let sep = object["sep"] as? [Any],
                let clsID = cls.last as? Int, let sepID = sep.last as? Int
            else {
                throw TextError(.tokenizerFile, "\(type) lacks cls or sep as [token, id]")
            }
            return .template(prefix: [Int32(clsID)], suffix: [Int32(sepID)])
        case "Sequence":
            var result = PostProcessor.none
            for step in object["processors"] as? [[String: Any]] ?? [] {
                let processor = try postProcessor(step, tokenIDs)
                if case .template = processor { result = processor }
            }
            return result
        default:
            throw TextError(.tokenizerFile, "post-processor \(type) is not supported; accepted: TemplateProcessing, ByteLevel, RobertaProcessing, BertProcessing, Sequence")
        }
    }
}
