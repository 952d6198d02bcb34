// Benchmarks: the server does not serve `warble bench report`'s results yet, so the screen says how to make
// them and where they are shown (no data call).
export function mount(root) {
  root.innerHTML = `
    <h2>Benchmarks</h2>
    <p id="bench-unavailable">This server does not serve benchmark results yet. Run
      <code>warble bench report -o bench-report</code> on this machine: it measures every installed model on fixed
      inputs and writes <code>report.md</code>, <code>report.json</code> and SVG charts (real-time factor, time to
      first audio, memory) into that folder. The project's own figures are in <code>Docs/Benchmarks.md</code>.</p>`;
}
