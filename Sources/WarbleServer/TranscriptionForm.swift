import Foundation
import WarbleAudio
import WarbleSpeech

/// The fields of a `POST /v1/audio/transcriptions` (or `/translations`) form, checked: OpenAI's
/// `file`, `model`, `language` (transcriptions only), `prompt`, `temperature`, `response_format`,
/// `timestamp_granularities[]` (word needs verbose_json), `stream`. Other fields are ignored, as OpenAI's newer options are.
struct TranscriptionForm: Sendable {
    var file: MultipartForm.Part
    var model: String
    /// Lowercased ISO code; nil to detect (checked against the model later).
    var language: String?
    var prompt: String?
    var temperature: Double?
    var responseFormat: TranscriptResponseFormat
    /// Server-sent events, a segment at a time (`transcript.text.delta`, then `transcript.text.done`).
    var stream = false
    /// What `verbose_json` times: segments unless the form asks otherwise.
    var granularities: Set<TimestampGranularity> = [.segment]

    init(_ form: MultipartForm, task: TranscriptionOptions.Task) throws {
        guard let file = form.part("file") else {
            let found = form.parts.map(\.name)
            throw APIError.badRequest("the form has no 'file' field with the audio (found: "
                + (found.isEmpty ? "no fields" : found.joined(separator: ", ")) + ")",
                param: "file", code: "missing_required_parameter")
        }
        self.file = file
        guard let model = try form.text("model")?.trimmingCharacters(in: .whitespacesAndNewlines), !model.isEmpty else {
            throw APIError.badRequest("the form has no 'model' field: give whisper-1 or an installed model id",
                                      param: "model", code: "missing_required_parameter")
        }
        self.model = model
        if task == .transcribe, let language = try form.text("language")?.trimmingCharacters(in: .whitespacesAndNewlines),
           !language.isEmpty {
            self.language = language.lowercased()
        }
        prompt = try form.text("prompt")
        if let text = try form.text("temperature")?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let temperature = Double(text), (0...1).contains(temperature) else {
                throw APIError.badRequest("temperature '\(text)' is not a number in 0...1", param: "temperature",
                                          code: "invalid_value")
            }
            self.temperature = temperature
        }
        responseFormat = .json
        if let text = try form.text("response_format")?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let format = TranscriptResponseFormat(rawValue: text) else {
                throw APIError.badRequest("response_format '\(text)' is not supported; use one of "
                    + TranscriptResponseFormat.allCases.map(\.rawValue).joined(separator: ", "),
                    param: "response_format", code: "invalid_value")
            }
            responseFormat = format
        }
        var granularities: Set<TimestampGranularity> = []
        for part in form.parts("timestamp_granularities[]") + form.parts("timestamp_granularities") {
            let value = String(decoding: part.body, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard let granularity = TimestampGranularity(rawValue: value) else {
                throw APIError.badRequest("timestamp_granularities '\(value)' is not one of word, segment",
                                          param: "timestamp_granularities", code: "invalid_value")
            }
            granularities.insert(granularity)
        }
        if !granularities.isEmpty { self.granularities = granularities }
        if self.granularities.contains(.word), responseFormat != .verboseJSON {
            throw APIError.badRequest("word timestamps come only in response_format verbose_json (asked for "
                + "\(responseFormat.rawValue)): add response_format=verbose_json", param: "timestamp_granularities",
                code: "invalid_value")
        }
        if let text = try form.text("stream")?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty {
            guard text == "true" || text == "false" else {
                throw APIError.badRequest("stream '\(text)' is not true or false", param: "stream", code: "invalid_value")
            }
            stream = text == "true"
            if stream, granularities.contains(.word) {
                throw APIError.badRequest("word timestamps are not streamed: leave out stream to get verbose_json "
                    + "with words, or timestamp_granularities to stream the text", param: "stream", code: "invalid_value")
            }
            if stream, task == .translate {
                throw APIError.badRequest("stream is not supported for translations (as on OpenAI's API); "
                    + "leave it out to get the translation whole", param: "stream", code: "invalid_value")
            }
        }
    }

    /// The uploaded audio, decoded (any format libsndfile reads); 400 with what was found otherwise.
    func audio(limits: DecodeLimits) throws -> AudioBuffer {
        let name = file.filename.map { "'\($0)'" } ?? "in field 'file'"
        guard !file.body.isEmpty else {
            throw APIError.badRequest("the uploaded file \(name) is empty (0 bytes)", param: "file", code: "audio_too_short")
        }
        let audio: AudioBuffer
        do {
            let decoded = try SoundFile.load(data: file.body, limits: limits)
            guard !decoded.isTruncated else {
                throw APIError.badRequest("the uploaded file \(name) is incomplete: \(decoded.truncationDescription); "
                    + "send the whole file", param: "file", code: "invalid_file")
            }
            audio = decoded.buffer
        } catch let error as APIError {
            throw error
        } catch let error as SoundFileError where error.isLimit {
            throw APIError.badRequest("the uploaded file \(name) cannot be used: \(error)"
                + (error.isTooLong ? limits.maximumSeconds.map { " (this server's limit: warble serve --max-upload-seconds \(Int($0)))" } ?? "" : ""),
                param: "file", code: "invalid_file")
        } catch {
            throw APIError.badRequest("the uploaded file \(name) is not audio this server can read (\(describeFile())): "
                + "\(error); send WAV, FLAC, Ogg (Vorbis or Opus), MP3 or AAC (ADTS)", param: "file", code: "invalid_file_format")
        }
        guard audio.channelCount > 0, !audio.isEmpty else {
            throw APIError.badRequest("the uploaded file \(name) holds no audio (0 samples)", param: "file",
                                      code: "audio_too_short")
        }
        return audio
    }

    /// Size, declared type and first bytes of the upload, for error messages.
    private func describeFile() -> String {
        let head = file.body.prefix(12).map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
        return "\(file.body.count) bytes" + (file.contentType.map { ", sent as \($0)" } ?? "") + ", starting '\(head)'"
    }
}

/// OpenAI's `timestamp_granularities[]`: which times `verbose_json` carries.
enum TimestampGranularity: String, Sendable, Hashable {
    case word, segment
}
