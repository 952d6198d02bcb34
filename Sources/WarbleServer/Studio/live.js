// Live: captions of the microphone as they come, and their translation. A session (POST /v1/audio/live) takes
// the microphone's audio as 16 kHz 16-bit PCM chunks (POST /v1/audio/live/{id}/audio, one at a time, in order)
// and answers server-sent events (GET /v1/audio/live/{id}/events, read through fetch so the key stays in a
// header): a `partial` line shown greyed until its `final` replaces it, a `translation` under each final line.
// Stop ends the input (DELETE /v1/audio/live/{id}): what was still being said is recognised, then `done`.
// "Speak the translation" says each translated line through POST /v1/audio/speech.
import { events } from './speak.js';

const RATE = 16_000;
const LANGUAGES = [['', 'no translation'], ['pt', 'Portuguese (pt)'], ['de', 'German (de)'], ['fr', 'French (fr)'],
  ['es', 'Spanish (es)'], ['it', 'Italian (it)'], ['nl', 'Dutch (nl)'], ['ja', 'Japanese (ja)'], ['zh', 'Chinese (zh)'],
  ['en', 'English (en)']];

/// Float samples at the context's rate → 16 kHz 16-bit little-endian PCM (linear interpolation when the
/// browser would not give a 16 kHz context).
function pcm16(samples, rate) {
  const step = rate / RATE;
  const count = Math.floor(samples.length / step);
  const out = new DataView(new ArrayBuffer(count * 2));
  for (let i = 0; i < count; i++) {
    const at = i * step;
    const low = Math.floor(at);
    const high = Math.min(low + 1, samples.length - 1);
    const value = samples[low] + (samples[high] - samples[low]) * (at - low);
    out.setInt16(i * 2, Math.max(-32768, Math.min(32767, Math.round(value * 32767))), true);
  }
  return out.buffer;
}

export function mount(root, api) {
  root.innerHTML = `
    <h2>Live</h2>
    <p class="meta">Captions of the microphone as you speak; a grey line is still being heard and settles into the final text.</p>
    <div class="row">
      <div><label for="live-model">Recognition model</label><select id="live-model"></select></div>
      <div><label for="live-target">Translate into</label><select id="live-target"></select></div>
      <div><label class="inline" for="live-speak">Speak the translation</label><input type="checkbox" id="live-speak"></div>
    </div>
    <div class="row">
      <button id="live-start">Start</button>
      <button id="live-stop" disabled>Stop</button>
    </div>
    <p id="live-message" class="message" role="alert"></p>
    <h3 id="live-captions-title">Captions</h3>
    <ol id="live-captions" class="captions" aria-labelledby="live-captions-title" aria-live="polite"></ol>
    <p id="live-partial" class="partial" aria-hidden="true"></p>
    <audio id="live-audio" controls aria-label="The spoken translation" hidden></audio>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const model = $('live-model'), target = $('live-target'), speak = $('live-speak');
  const start = $('live-start'), stop = $('live-stop'), message = $('live-message');
  const captions = $('live-captions'), partial = $('live-partial'), audio = $('live-audio');
  for (const [code, name] of LANGUAGES) target.append(new Option(name, code));
  speak.addEventListener('change', () => { audio.hidden = !speak.checked; });
  let session = null;

  const say = (text, kind = 'info') => {
    message.textContent = text;
    message.className = `message ${kind}`;
    api.status(text, kind);
  };

  api.fetch('/v1/audio/live').then((response) => response.json()).then((offer) => {
    for (const item of offer.models) {
      const languages = item.languages.length > 4 ? `${item.languages.length} languages` : item.languages.join(', ');
      model.append(new Option(`${item.id} (${languages})`, item.id));
    }
    if (!offer.models.length) say('No speech recognition model is installed: install one with warble models pull.', 'error');
  }).catch((error) => say(`Live captions are not available: ${error.message}`, 'error'));

  // Spoken translations play one after another.
  let spoken = Promise.resolve();
  async function speakLine(text, language) {
    let voice;
    try {
      const voices = (await (await api.fetch('/v1/audio/voices')).json()).data;
      voice = voices.find((v) => (v.language || '').toLowerCase().startsWith(language))?.id;
    } catch { /* the default voice */ }
    const response = await api.fetch('/v1/audio/speech', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'warble', input: text, response_format: 'wav', ...(voice ? { voice } : {}) }),
    });
    audio.src = URL.createObjectURL(await response.blob());
    await audio.play().catch(() => {});
    await new Promise((done) => { audio.onended = done; audio.onerror = done; });
  }

  function show(event) {
    if (event.type === 'partial') {
      partial.textContent = event.text;
      partial.dataset.text = event.text;
    } else if (event.type === 'final') {
      partial.textContent = '';
      const item = document.createElement('li');
      item.id = `live-line-${event.id}`;
      item.className = 'live-final';
      const line = document.createElement('span');
      line.className = 'live-text';
      line.textContent = event.text;
      item.append(line);
      captions.append(item);
    } else if (event.type === 'translation') {
      const item = $(`live-line-${event.id}`) || captions.appendChild(document.createElement('li'));
      const line = document.createElement('span');
      line.className = 'live-translation';
      line.lang = event.target;
      line.textContent = event.text;
      item.append(line);
      if (speak.checked) spoken = spoken.then(() => speakLine(event.text, event.target)).catch((error) => say(`The translation could not be spoken: ${error.message}`, 'error'));
    } else if (event.type === 'error') {
      say(event.error?.message || 'live captions stopped', 'error');
    } else if (event.type === 'done') {
      root.dataset.finals = String(event.finals);
    }
  }

  async function read(current) {
    try {
      const response = await api.fetch(`/v1/audio/live/${current.id}/events`, { signal: current.abort.signal });
      for await (const event of events(response)) show(event);
      root.dataset.done = 'true';
      if (session === current) say('Live captions ended.', 'ok');
    } catch (error) {
      if (error.name !== 'AbortError') say(`Live captions stopped: ${error.message}`, 'error');
    } finally {
      if (session === current) finish(current);
    }
  }

  function release(current) {
    current.stream?.getTracks().forEach((track) => track.stop());
    current.context?.close().catch(() => {});
    current.stream = null;
    current.context = null;
  }

  function finish(current) {
    release(current);
    session = null;
    start.disabled = false;
    stop.disabled = true;
  }

  start.addEventListener('click', async () => {
    if (session) return;
    start.disabled = true;
    delete root.dataset.done;
    say('Opening a live session…');
    let opened;
    try {
      const response = await api.fetch('/v1/audio/live', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...(model.value ? { model: model.value } : {}), ...(target.value ? { translate_to: target.value } : {}) }),
      });
      opened = await response.json();
    } catch (error) {
      start.disabled = false;
      return say(`The live session could not start: ${error.message}`, 'error');
    }
    const current = { id: opened.id, abort: new AbortController(), sending: Promise.resolve(), failed: false };
    session = current;
    root.dataset.session = current.id;
    read(current);
    try {
      current.stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
    } catch (error) {
      say(`The microphone cannot be used: ${error.message}`, 'error');
      current.abort.abort();
      api.fetch(`/v1/audio/live/${current.id}`, { method: 'DELETE' }).catch(() => {});
      return finish(current);
    }
    // A 16 kHz context lets the browser resample the microphone; pcm16 resamples when it did not.
    current.context = new AudioContext({ sampleRate: RATE });
    const source = current.context.createMediaStreamSource(current.stream);
    const tap = current.context.createScriptProcessor(4096, 1, 1);
    const rate = current.context.sampleRate;
    tap.onaudioprocess = (event) => {
      if (session !== current || current.failed || current.stopping) return;
      const chunk = pcm16(event.inputBuffer.getChannelData(0), rate);
      // One chunk at a time, in order; a refused chunk stops the session with the server's message.
      current.sending = current.sending.then(() => api.fetch(`/v1/audio/live/${current.id}/audio`, {
        method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: chunk,
      })).catch((error) => {
        if (current.failed) return;
        current.failed = true;
        say(`The audio was refused: ${error.message}`, 'error');
        stop.click();
      });
    };
    source.connect(tap);
    tap.connect(current.context.destination);
    stop.disabled = false;
    say(`Listening (${opened.model}${opened.translate_to ? `, translated into ${opened.translate_to}` : ''}): speak now.`, 'ok');
  });

  stop.addEventListener('click', async () => {
    const current = session;
    if (!current) return;
    stop.disabled = true;
    // No chunk is sent after this (the context closes asynchronously and may still deliver one), so none can
    // reach the server after the input ends; the chunks already queued go first.
    current.stopping = true;
    release(current);
    say('Stopping: recognising what was still being said…');
    await current.sending;
    try {
      await api.fetch(`/v1/audio/live/${current.id}`, { method: 'DELETE' });
    } catch (error) {
      say(`The session could not be ended: ${error.message}`, 'error');
      current.abort.abort();
      finish(current);
    }
  });
}
