extension ContinuousClock.Instant {
    /// Whole milliseconds from this instant to now (for log lines).
    var millisecondsElapsed: Int {
        let elapsed = ContinuousClock.now - self
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
