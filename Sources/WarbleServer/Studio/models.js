// Placeholder until the Models screen lands (issue #42): it is written beside this page, to the same contract.
export function mount(root) {
  root.innerHTML = '<h2>Models</h2><p id="models-unavailable">This screen is not part of this build yet.</p>';
}
