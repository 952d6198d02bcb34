import WarbleSpeech

extension ServerConfiguration {
    /// Checked at start against the installed recognition models: the model `whisper-1` means on
    /// `/v1/audio/translations`, when installed, must be multilingual (an English-only model cannot translate,
    /// so every translation request would fail). One that is not installed is left to each request's 404.
    public func checkTranslationModel(installed: [RecognitionModelDescription]) throws(ServerConfigurationError) {
        guard let model = installed.first(where: { $0.id == defaultTranslationModel }), !model.canTranslate else { return }
        let multilingual = installed.filter(\.canTranslate).map(\.id)
        throw ServerConfigurationError("--translation-model \(model.id) is English-only and cannot translate; "
            + (multilingual.isEmpty
                ? "no multilingual Whisper model is installed (install one with: \(ModelDefaults.pullCommand(\.recognition)))"
                : "use a multilingual one: \(multilingual.joined(separator: ", "))"))
    }
}
