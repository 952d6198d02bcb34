/// The fixed inputs of `warble bench report`, the same for Warble and the reference engines.
enum BenchReportInputs {
    /// Spoken by every TTS model (time to first audio is measured on it, streamed).
    static let paragraph = """
        The library opens at nine in the morning and closes at six in the evening. Visitors may borrow up to five \
        books at a time, and each loan lasts three weeks. Quiet rooms on the second floor can be booked at the front \
        desk. Please return your books before the end of the month, so that others may enjoy them too.
        """

    /// Synthesised with the default Piper voice into the ~30 s clip every Whisper model transcribes;
    /// the word error rate is counted against it.
    static let speechClipText = """
        Every morning the small harbour wakes before the town. Fishing boats slip out past the lighthouse while the \
        bakers light their ovens and the first buses climb the hill. By eight the market is full of voices, the smell \
        of fresh bread and the colour of fruit from the valley. Children walk to school along the river, and old \
        friends meet for coffee in the square. In the afternoon the wind turns and the boats come home with their \
        catch. When the sun goes down behind the hills, the lights of the harbour shine on the quiet water.
        """

    /// Translated by every translation model, one request each (English for models from English;
    /// otherwise the model's own source language is used only if it is English, else the model is skipped).
    static let sentences = [
        "The weather is lovely today, so we are going for a walk in the park.",
        "Could you tell me where the nearest train station is?",
        "She has been reading the same book for three weeks.",
        "Our meeting was moved to Thursday afternoon because of the holiday.",
        "Please turn off the lights when you leave the room.",
        "The museum is free on the first Sunday of every month.",
        "He bought fresh vegetables at the market this morning.",
        "We hope to visit our friends in the mountains next summer.",
    ]

    static func words(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }
}
