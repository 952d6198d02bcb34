"""Warble's SeededRandom.SplitMix64 (uniform = top 53 bits / 2^53), the draws the sampling goldens share
with the Swift samplers."""

MASK64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def uniform(self):
        return float(self.next() >> 11) / float(1 << 53)


def draws_for(seed):
    """A uniform source from SplitMix64(seed) and the list of what it has drawn."""
    rng = SplitMix64(seed)
    drawn = []

    def next_uniform():
        u = rng.uniform()
        drawn.append(u)
        return u
    return next_uniform, drawn
