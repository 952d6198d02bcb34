// Pulling and removing models needs routes the server does not have yet (issue #42): until then the screen
// says how to do it from a terminal; GET /v1/models lists what this server offers.
export function mount(root) {
  root.innerHTML = '<h2>Models</h2><p id="models-unavailable">Pulling and removing models is not on this page yet. '
    + 'In a terminal, <code>warble models available</code> lists what can be pulled, <code>warble models pull ID</code> '
    + 'pulls one with a progress bar, and <code>warble models remove ID</code> removes it.</p>';
}
