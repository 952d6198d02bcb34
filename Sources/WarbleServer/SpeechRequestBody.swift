import WarbleSpeech
import WarbleText
/// The body of `POST /v1/audio/speech`: OpenAI's fields plus Warble's extensions.
struct SpeechRequestBody: Decodable, Sendable {
    /// "tts-1", "tts-1-hd", "gpt-4o-mini-tts", "warble", or an installed model id.
    var model: String
    var input: String
    /// A Warble voice id; the default voice when absent (OpenAI requires it).
    var voice: String?
    var responseFormat: AudioResponseFormat?
    /// 0.25 to 4.
    var speed: Double?
    /// Style instructions: given to models that take them (CosyVoice 3's instruct mode, where they are
    /// checked); accepted and ignored for the others, as OpenAI's tts-1 ignores them.
    var instructions: String?
    /// "audio" (the default: the audio file itself) or "sse" (server-sent events with audio and timings).
    var streamFormat: StreamFormat?
    /// Extension: treat `input` as SSML (also detected from a leading `<speak`).
    var ssml: Bool?
    /// Extensions, as Piper's own HTTP server takes them: speaker (name or number) and sampling scales;
    /// and `seed` (CosyVoice 3: the same seed gives the same audio).
    var controls = VoiceControls()

    enum StreamFormat: String, Decodable, Sendable {
        case audio, sse
    }

    enum CodingKeys: String, CodingKey {
        case model, input, voice, speed, instructions, ssml, speaker, seed
        case responseFormat = "response_format"
        case noiseScale = "noise_scale"
        case lengthScale = "length_scale"
        case noiseW = "noise_w"
        case streamFormat = "stream_format"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        model = try container.decode(String.self, forKey: .model)
        input = try container.decode(String.self, forKey: .input)
        voice = try container.decodeIfPresent(String.self, forKey: .voice)
        speed = try container.decodeIfPresent(Double.self, forKey: .speed)
        instructions = try container.decodeIfPresent(String.self, forKey: .instructions)
        ssml = try container.decodeIfPresent(Bool.self, forKey: .ssml)
        let speaker: String?
        if let number = try? container.decodeIfPresent(Int.self, forKey: .speaker) {
            speaker = String(number)
        } else {
            speaker = try container.decodeIfPresent(String.self, forKey: .speaker)
        }
        controls = VoiceControls(speaker: speaker, noiseScale: try container.decodeIfPresent(Double.self, forKey: .noiseScale),
                                 lengthScale: try container.decodeIfPresent(Double.self, forKey: .lengthScale),
                                 noiseW: try container.decodeIfPresent(Double.self, forKey: .noiseW))
        if container.contains(.seed) {
            guard let seed = try? container.decode(UInt64.self, forKey: .seed) else {
                throw APIError.badRequest("seed must be a whole number from 0 to \(UInt64.max)", param: "seed", code: "invalid_value")
            }
            controls.seed = seed
        }
        do { try controls.validate() } catch {
            let field = [("noise scale", "noise_scale"), ("noise w", "noise_w"), ("length scale", "length_scale")]
                .first { error.message.contains($0.0) }?.1
            throw APIError.badRequest(error.message, param: field, code: "invalid_value")
        }
        if let format = try container.decodeIfPresent(String.self, forKey: .responseFormat) {
            guard let known = AudioResponseFormat(rawValue: format) else {
                throw APIError.badRequest("response_format '\(format)' is not supported; use one of "
                    + AudioResponseFormat.allCases.map(\.rawValue).joined(separator: ", "),
                    param: "response_format", code: "invalid_value")
            }
            responseFormat = known
        }
        if let format = try container.decodeIfPresent(String.self, forKey: .streamFormat) {
            guard let known = StreamFormat(rawValue: format) else {
                throw APIError.badRequest("stream_format '\(format)' is not supported; use audio or sse",
                                          param: "stream_format", code: "invalid_value")
            }
            streamFormat = known
        }
    }

    /// Whether the input is SSML: the flag, or a document whose first element is `<speak>`.
    var isSSML: Bool {
        ssml ?? SSMLParser.isSSML(input)
    }
}
