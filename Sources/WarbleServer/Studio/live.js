// Placeholder until the Live screen lands (issue #42): it is written beside this page, to the same contract.
export function mount(root) {
  root.innerHTML = '<h2>Live</h2><p id="live-unavailable">This screen is not part of this build yet.</p>';
}
