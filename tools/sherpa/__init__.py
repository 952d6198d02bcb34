"""What the proofs of the recognisers exported by sherpa-onnx share: seeded speech-like clips and the benchmark
against sherpa-onnx."""
