// Voices: the voice list (GET /v1/audio/voices), a sample of any voice (POST /v1/audio/speech), deleting a
// library voice (DELETE /v1/audio/voices/{id}), and cloning one (POST /v1/audio/voices, multipart) from a clip
// recorded from the microphone (to 16-bit WAV in the page) or uploaded, with its length and loudness shown and
// the consent the CLI asks for; the clone's progress (a Kokoro search's rounds) comes as server-sent events.
import { events, fillVoices } from './speak.js';

const SAMPLE_SENTENCE = 'Hello. This is how I sound in Warble.';

/// 16-bit mono WAV bytes of `samples` (Float32Array) at `rate`.
export function wavBytes(samples, rate) {
  const data = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (offset, value) => { for (let i = 0; i < value.length; i++) data.setUint8(offset + i, value.charCodeAt(i)); };
  text(0, 'RIFF'); data.setUint32(4, 36 + samples.length * 2, true); text(8, 'WAVE');
  text(12, 'fmt '); data.setUint32(16, 16, true); data.setUint16(20, 1, true); data.setUint16(22, 1, true);
  data.setUint32(24, rate, true); data.setUint32(28, rate * 2, true); data.setUint16(32, 2, true); data.setUint16(34, 16, true);
  text(36, 'data'); data.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    data.setInt16(44 + i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return new Uint8Array(data.buffer);
}

/// Length, RMS and peak (dBFS) of an AudioBuffer's first channel.
export function measure(buffer) {
  const samples = buffer.getChannelData(0);
  let sum = 0, peak = 0;
  for (const s of samples) { sum += s * s; peak = Math.max(peak, Math.abs(s)); }
  const db = (x) => (x > 0 ? 20 * Math.log10(x) : -Infinity);
  return { seconds: buffer.duration, rms: db(Math.sqrt(sum / Math.max(1, samples.length))), peak: db(peak) };
}

export function mount(root, api) {
  root.innerHTML = `
    <h2>Voices</h2>
    <div class="row">
      <div><label for="voices-list">Voice</label><select id="voices-list"></select></div>
      <button id="voices-sample" type="button">Play a sample</button>
      <button id="voices-delete" type="button">Delete this voice</button>
    </div>
    <audio id="voices-audio" controls aria-label="Voice sample"></audio>
    <h3>Clone a voice</h3>
    <p class="meta">Clone only voices you have the right to use. The clip itself is not kept: the voice keeps its SHA-256 and your consent note.</p>
    <div class="row">
      <button id="voices-record" type="button" aria-pressed="false">Record from the microphone</button>
      <div><label for="voices-file">Or upload a clip</label><input id="voices-file" type="file" accept="audio/*,.wav,.flac,.mp3,.ogg"></div>
    </div>
    <p id="voices-clip-info" class="meta" aria-live="polite">No clip yet.</p>
    <audio id="voices-clip-audio" controls aria-label="The clip"></audio>
    <div class="row">
      <div><label for="voices-name">Name of the new voice</label><input id="voices-name" type="text" autocomplete="off"></div>
      <div><label for="voices-model">Model (empty: the first installed one that clones)</label><input id="voices-model" type="text" list="voices-models" autocomplete="off"><datalist id="voices-models"></datalist></div>
      <div><label for="voices-budget">Search budget (seconds, for models that search)</label><input id="voices-budget" type="number" min="1" max="3600" value="60"></div>
    </div>
    <div><input id="voices-keep-stock" type="checkbox"><label class="inline" for="voices-keep-stock">Keep the nearest stock voice if the search finds nothing better</label></div>
    <div><input id="voices-consent" type="checkbox"><label class="inline" for="voices-consent">The speaker agreed to have this voice cloned, and I have the right to use it</label></div>
    <label for="voices-consent-note">Consent note (kept with the voice)</label>
    <input id="voices-consent-note" type="text" autocomplete="off" value="recorded with the speaker's consent (Warble Studio)">
    <div class="row">
      <button id="voices-clone" type="button">Clone</button>
      <progress id="voices-progress" hidden aria-label="Cloning" max="1"></progress>
      <span id="voices-elapsed" class="meta"></span>
      <span id="voices-stage" class="meta" aria-live="polite"></span>
    </div>
    <p id="voices-message" class="message" role="alert"></p>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const list = $('voices-list'), sampleAudio = $('voices-audio'), record = $('voices-record'), file = $('voices-file');
  const info = $('voices-clip-info'), clipAudio = $('voices-clip-audio'), name = $('voices-name'), model = $('voices-model');
  const budget = $('voices-budget'), keepStock = $('voices-keep-stock'), consent = $('voices-consent');
  const consentNote = $('voices-consent-note'), clone = $('voices-clone'), progress = $('voices-progress');
  const stage = $('voices-stage');
  const elapsed = $('voices-elapsed'), message = $('voices-message');
  let clip = null;  // { blob, filename, seconds }
  let recorder = null;

  const say = (text, kind = 'info') => {
    message.textContent = text;
    message.className = kind === 'error' ? 'message error' : 'message';
    api.status(text, kind);
  };

  async function refresh(keep) {
    const voices = await fillVoices(api, list, { keep });
    // The models with voices; a model that clones but has no voice yet (Chatterbox, CosyVoice 3) is typed in.
    const models = [...new Set(voices.map((voice) => voice.model))].sort();
    root.querySelector('#voices-models').replaceChildren(...models.map((id) => new Option(id, id)));
    root.dataset.models = String(models.length);
    window.dispatchEvent(new CustomEvent('warble-voices-changed', { detail: { select: keep } }));
  }
  refresh().catch((error) => say(`The voices could not be listed: ${error.message}`, 'error'));

  $('voices-sample').addEventListener('click', async () => {
    if (!list.value) return say('Choose a voice first.', 'error');
    say(`Speaking a sample with ${list.value}…`);
    try {
      const response = await api.fetch('/v1/audio/speech', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'warble', input: SAMPLE_SENTENCE, voice: list.value, response_format: 'wav' }),
      });
      sampleAudio.src = URL.createObjectURL(await response.blob());
      await sampleAudio.play().catch(() => {});
      say(`Playing a sample of ${list.value}.`, 'ok');
    } catch (error) { say(`The sample could not be spoken: ${error.message}`, 'error'); }
  });

  $('voices-delete').addEventListener('click', async () => {
    const id = list.value;
    if (!id || !confirm(`Delete the voice ${id}? This cannot be undone.`)) return;
    try {
      await api.fetch(`/v1/audio/voices/${encodeURIComponent(id)}`, { method: 'DELETE' });
      await refresh();
      say(`Deleted ${id}.`, 'ok');
    } catch (error) { say(`${id} could not be deleted: ${error.message}`, 'error'); }
  });

  /// Reads a clip (Blob), shows its length and loudness; a file the browser cannot decode is refused here.
  async function useClip(blob, filename) {
    clip = null;
    let decoded;
    try {
      const context = new AudioContext();
      decoded = await context.decodeAudioData(await blob.arrayBuffer());
      context.close();
    } catch {
      info.textContent = 'No clip yet.';
      return say(`${filename} is not audio this page can read: use a WAV, FLAC, MP3 or Ogg recording of one speaker.`, 'error');
    }
    const { seconds, rms, peak } = measure(decoded);
    clip = { blob, filename, seconds };
    clipAudio.src = URL.createObjectURL(blob);
    info.dataset.seconds = seconds.toFixed(2);
    info.textContent = `${filename}: ${seconds.toFixed(1)} s, loudness ${rms.toFixed(1)} dBFS (RMS), peak ${peak.toFixed(1)} dBFS`
      + (seconds < 3 ? ' — shorter than the 3 s of speech cloning needs' : '')
      + (rms < -40 ? ' — very quiet: record closer to the microphone' : '')
      + (peak > -0.1 ? ' — it clips: record further from the microphone' : '');
    say(`Clip ready: ${seconds.toFixed(1)} s.`, 'ok');
  }

  file.addEventListener('change', () => { if (file.files[0]) useClip(file.files[0], file.files[0].name); });

  record.addEventListener('click', async () => {
    if (recorder) {
      const { stream, context, chunks, rate } = recorder;
      recorder = null;
      stream.getTracks().forEach((track) => track.stop());
      await context.close();
      record.textContent = 'Record from the microphone';
      record.setAttribute('aria-pressed', 'false');
      const samples = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
      let offset = 0;
      for (const chunk of chunks) { samples.set(chunk, offset); offset += chunk.length; }
      return useClip(new Blob([wavBytes(samples, rate)], { type: 'audio/wav' }), 'recording.wav');
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
    } catch (error) {
      return say(`The microphone cannot be used: ${error.message}`, 'error');
    }
    const context = new AudioContext();
    const input = context.createMediaStreamSource(stream);
    // A ScriptProcessor copies the microphone's samples; the page makes the WAV itself (no codec in between).
    const tap = context.createScriptProcessor(4096, 1, 1);
    const chunks = [];
    recorder = { stream, context, chunks, rate: context.sampleRate };
    tap.onaudioprocess = (event) => {
      chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
      const seconds = chunks.length * 4096 / context.sampleRate;
      info.dataset.recordingSeconds = seconds.toFixed(2);
      info.textContent = `Recording… ${seconds.toFixed(1)} s`;
    };
    input.connect(tap);
    tap.connect(context.destination);
    record.textContent = 'Stop recording';
    record.setAttribute('aria-pressed', 'true');
    say('Recording: speak now, then press Stop recording.');
  });

  clone.addEventListener('click', async () => {
    if (!clip) return say('Record or upload a clip first.', 'error');
    if (!name.value.trim()) { name.focus(); return say('Give the new voice a name.', 'error'); }
    if (!consent.checked) { consent.focus(); return say('Cloning needs the speaker’s consent: tick the consent box.', 'error'); }
    const seconds = Number(budget.value);
    if (!(seconds >= 1 && seconds <= 3600)) { budget.focus(); return say('The budget must be 1 to 3600 seconds.', 'error'); }
    const form = new FormData();
    form.append('name', name.value.trim());
    form.append('file', clip.blob, clip.filename);
    if (model.value.trim()) form.append('model', model.value.trim());
    form.append('budget', String(seconds));
    form.append('consent', consentNote.value.trim() || 'consent given in Warble Studio');
    if (keepStock.checked) form.append('keep_stock', 'true');
    clone.disabled = true;
    progress.removeAttribute('value');
    stage.textContent = '';
    progress.hidden = false;
    const started = performance.now();
    const timer = setInterval(() => {
      elapsed.textContent = `${((performance.now() - started) / 1000).toFixed(0)} s (budget ${seconds} s)`;
    }, 500);
    say(`Cloning ${name.value.trim()}… a search takes up to its budget.`);
    try {
      const response = await api.fetch('/v1/audio/voices', { method: 'POST', body: form, headers: { Accept: 'text/event-stream' } });
      let result = null;
      for await (const event of events(response)) {
        if (event.type === 'voice.progress') {
          stage.textContent = event.message;
          if (typeof event.fraction === 'number') progress.value = event.fraction; else progress.removeAttribute('value');
          root.dataset.progressEvents = String(Number(root.dataset.progressEvents || 0) + 1);
        } else if (event.type === 'voice.created') {
          result = event.voice;
        } else if (event.type === 'error') {
          throw new Error(event.error?.message || 'the server reported an error');
        }
      }
      if (!result) throw new Error('the server ended the answer before the voice was made');
      await refresh(result.id);
      const similarity = typeof result.similarity === 'number' ? `, similarity ${result.similarity.toFixed(3)}` : '';
      say(`Cloned ${result.id} (${result.model}${similarity}).`, 'ok');
      root.dataset.cloned = result.id;
    } catch (error) {
      say(`The voice could not be cloned: ${error.message}`, 'error');
    } finally {
      clearInterval(timer);
      clone.disabled = false;
      progress.hidden = true;
    }
  });
}
