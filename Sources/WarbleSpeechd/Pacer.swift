/// Keeps the audio sent at most `lead` ahead of real-time playback, counted from the first frame.
/// A nil lead never waits (CHAR and KEY, which are short and cached). The clock is the continuous
/// clock in the module; tests give one whose time moves only when the pacer sleeps.
struct Pacer<C: Clock> where C.Duration == Duration {
    let lead: Duration?
    let clock: C
    private var start: C.Instant?
    private var sentSeconds = 0.0

    init(lead: Duration?, clock: C) {
        self.lead = lead
        self.clock = clock
    }

    mutating func sent(samples: Int, rate: Int) {
        if start == nil { start = clock.now }
        sentSeconds += Double(samples) / Double(max(rate, 1))
    }

    /// How far the audio sent is ahead of playback now.
    var ahead: Duration {
        guard let start else { return .zero }
        return Duration.seconds(sentSeconds) - start.duration(to: clock.now)
    }

    /// Sleeps while more than `lead` of audio has been sent beyond what has played.
    func wait() async throws {
        guard let lead, start != nil else { return }
        let ahead = self.ahead
        if ahead > lead { try await clock.sleep(for: ahead - lead) }
    }
}

extension Pacer where C == ContinuousClock {
    init(lead: Duration?) {
        self.init(lead: lead, clock: ContinuousClock())
    }
}
