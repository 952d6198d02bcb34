import WarbleSpeech

/// Whisper's special tokens and how prompts are put together (as faster-whisper does).
public struct WhisperTokens: Sendable, Hashable {
    public let configuration: WhisperConfiguration

    public var special: WhisperConfiguration.SpecialTokens { configuration.specialTokens }

    /// The language token of `code`, or nil when the model has no such language.
    public func languageToken(_ code: String) -> Int? {
        guard configuration.multilingual, let index = configuration.languageCodes.firstIndex(of: code) else { return nil }
        return configuration.languageIDs[index]
    }

    /// `[sot]` for English-only models; `[sot, <|lang|>, <|task|>]` for multilingual ones.
    public func startSequence(language: String, task: TranscriptionOptions.Task) -> [Int] {
        guard configuration.multilingual, let lang = languageToken(language) else { return [special.sot] }
        return [special.sot, lang, task == .translate ? special.translate : special.transcribe]
    }

    /// faster-whisper's `get_prompt`: `[<|startofprev|>, previous…]` (the last 223 previous tokens),
    /// the start sequence, then `<|notimestamps|>` when timestamps are off.
    public func prompt(previous: [Int], language: String, task: TranscriptionOptions.Task, timestamps: Bool) -> [Int] {
        var prompt: [Int] = []
        if !previous.isEmpty {
            prompt.append(special.sotPrevious)
            prompt += previous.suffix(configuration.textContext / 2 - 1)
        }
        prompt += startSequence(language: language, task: task)
        if !timestamps { prompt.append(special.noTimestamps) }
        return prompt
    }
}
