/// Keeps the audio sent at most `lead` ahead of real-time playback, counted from the first frame.
/// A nil lead never waits (CHAR and KEY, which are short and cached).
struct Pacer {
    let lead: Duration?
    private var start: ContinuousClock.Instant?
    private var sentSeconds = 0.0

    init(lead: Duration?) {
        self.lead = lead
    }

    mutating func sent(samples: Int, rate: Int) {
        if start == nil { start = .now }
        sentSeconds += Double(samples) / Double(max(rate, 1))
    }

    /// Sleeps while more than `lead` of audio has been sent beyond what has played.
    func wait() async throws {
        guard let lead, let start else { return }
        let ahead = Duration.seconds(sentSeconds) - (ContinuousClock.now - start)
        if ahead > lead { try await Task.sleep(for: ahead - lead) }
    }
}
