// The Live screen's captions need a streaming route the server does not have yet (issue #42): until then the
// screen says where live captions are today.
export function mount(root) {
  root.innerHTML = '<h2>Live</h2><p id="live-unavailable">Live captions are not on this page yet. In a terminal, '
    + '<code>warble transcribe --live</code> captions the microphone as you speak, and '
    + '<code>warble translate --live --to LANGUAGE</code> adds the translation.</p>';
}
