import Foundation

extension MonoSamples {
    /// Keeps every sample within ±`ceiling` (just under full scale) and leaves those below `knee` as they
    /// are: above the knee, the excess is bent smoothly (tanh) into the room left below the ceiling. A
    /// model's overshoot (Kokoro sped up, a voice made louder) is then never cut flat at full scale by an
    /// encoder, nor refused by one (libsndfile's FLAC writer fails on samples past full scale). Continuous,
    /// with slope 1 at the knee; NaN becomes 0.
    public static func limitPeaks(_ samples: inout [Float], knee: Float = 0.98, ceiling: Float = 0.999) {
        let room = ceiling - knee
        for i in samples.indices {
            let x = samples[i]
            if x.isNaN {
                samples[i] = 0
                continue
            }
            let magnitude = abs(x)
            if magnitude <= knee { continue }
            let bent = min(ceiling, knee + room * Float(tanh(Double((magnitude - knee) / room))))
            samples[i] = x < 0 ? -bent : bent
        }
    }
}
