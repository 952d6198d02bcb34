"""What more than one area of tools/ uses: the small ONNX graph builder (onnx_graph), Warble's seeded
random numbers (splitmix) and the writer of binary goldens (goldens)."""
