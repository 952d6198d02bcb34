// Speak: text or SSML to speech, streamed. POST /v1/audio/speech with stream_format "sse" sends base64 audio
// pieces with word, mark and sentence events carrying their times; MP3 pieces go into a MediaSource as they
// come, so the <audio> element plays while the rest is made, and the word being spoken is highlighted from
// the events against audio.currentTime. Other formats play once complete. Download saves the same bytes.
export const MAX_CHARACTERS = 4096;  // the server's limit on `input`
const FORMATS = [
  ['mp3', 'MP3 (plays as it is made)', 'audio/mpeg'],
  ['wav', 'WAV (plays when complete)', 'audio/wav'],
  ['flac', 'FLAC (plays when complete)', 'audio/flac'],
  ['opus', 'Ogg Opus (plays when complete)', 'audio/ogg'],
];

/// Voices grouped by model and language into <optgroup>s of `select` (GET /v1/audio/voices).
export async function fillVoices(api, select, { keep } = {}) {
  const response = await api.fetch('/v1/audio/voices');
  const { data } = await response.json();
  const previous = keep ?? select.value;
  select.replaceChildren();
  const groups = new Map();
  for (const voice of data) {
    const label = `${voice.model} · ${voice.language}`;
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push(voice);
  }
  let chosen = null;
  for (const [label, voices] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    const group = document.createElement('optgroup');
    group.label = label;
    for (const voice of voices) {
      const option = new Option(voice.name && voice.name !== voice.id ? `${voice.name} (${voice.id})` : voice.id, voice.id);
      option.dataset.model = voice.model;
      if (voice.default && !chosen) chosen = voice.id;
      group.append(option);
    }
    select.append(group);
  }
  if (previous && data.some((voice) => voice.id === previous)) select.value = previous;
  else if (chosen) select.value = chosen;
  return data;
}

/// Server-sent events of a fetch body, one parsed `data:` object at a time.
export async function* events(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
      if (data) yield JSON.parse(data);
    }
  }
}

function base64Bytes(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function mount(root, api) {
  root.innerHTML = `
    <h2>Speak</h2>
    <label for="speak-text">Text or SSML</label>
    <textarea id="speak-text" aria-describedby="speak-text-help">Warble speaks on this machine. Every word you hear was made here, and the page highlights each one as it is spoken.</textarea>
    <p id="speak-text-help" class="meta">At most ${MAX_CHARACTERS.toLocaleString('en')} characters. SSML is recognised from a leading &lt;speak&gt;.</p>
    <div class="row">
      <div><label for="speak-voice">Voice</label><select id="speak-voice"></select></div>
      <div><label for="speak-speed">Rate (speed, 0.25–4)</label><input id="speak-speed" type="number" min="0.25" max="4" step="0.05" value="1"></div>
      <div><label for="speak-format">Format</label><select id="speak-format"></select></div>
      <div><input id="speak-ssml" type="checkbox"><label class="inline" for="speak-ssml">Always read as SSML</label></div>
    </div>
    <div class="row">
      <button id="speak-play" type="button">Speak</button>
      <button id="speak-stop" type="button" disabled>Stop</button>
      <button id="speak-download" type="button" disabled>Download</button>
    </div>
    <p id="speak-message" class="message" role="alert"></p>
    <audio id="speak-audio" controls aria-label="Speech"></audio>
    <p class="meta" id="speak-timing"></p>
    <h3 id="speak-words-title">Words as they are spoken</h3>
    <div id="speak-words" class="words" aria-labelledby="speak-words-title"></div>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const text = $('speak-text'), voice = $('speak-voice'), speed = $('speak-speed'), format = $('speak-format');
  const ssml = $('speak-ssml'), play = $('speak-play'), stop = $('speak-stop'), save = $('speak-download');
  const message = $('speak-message'), audio = $('speak-audio'), timing = $('speak-timing'), wordsView = $('speak-words');
  for (const [value, label] of FORMATS) format.append(new Option(label, value));

  let run = null;  // { controller, bytes, words, format, url }
  let download = null;
  let frame = 0;

  const fail = (text) => {
    message.textContent = text;
    message.className = 'message error';
    api.status(text, 'error');
  };

  fillVoices(api, voice).catch((error) => fail(`The voices could not be listed: ${error.message}`));
  // The Voices screen says when it added or deleted one.
  window.addEventListener('warble-voices-changed', (event) => {
    fillVoices(api, voice, { keep: event.detail?.select }).catch((error) => fail(`The voices could not be listed: ${error.message}`));
  });

  function highlight() {
    frame = 0;
    if (!run) return;
    const now = audio.currentTime;
    let index = -1;
    for (let i = 0; i < run.words.length && run.words[i].time <= now + 0.02; i++) index = i;
    if (index !== run.current) {
      wordsView.querySelector('span.current')?.classList.remove('current');
      if (index >= 0) run.words[index].span.classList.add('current');
      run.current = index;
      wordsView.dataset.changes = String(Number(wordsView.dataset.changes || 0) + 1);
      wordsView.dataset.current = String(index);
    }
    if (!audio.paused && !audio.ended) frame = requestAnimationFrame(highlight);
  }
  audio.addEventListener('playing', () => {
    if (run && run.firstAudio === undefined) {
      run.firstAudio = performance.now() - run.started;
      timing.dataset.firstAudioMs = run.firstAudio.toFixed(0);
      showTiming();
    }
    if (!frame) frame = requestAnimationFrame(highlight);
  });
  audio.addEventListener('seeked', highlight);
  audio.addEventListener('ended', () => { stop.disabled = true; api.status('Finished speaking.', 'ok'); });

  function showTiming() {
    const parts = [];
    if (run?.firstAudio !== undefined) parts.push(`first audio after ${run.firstAudio.toFixed(0)} ms`);
    if (run?.done !== undefined) parts.push(`synthesis ended after ${run.done.toFixed(0)} ms`);
    if (run?.duration !== undefined) parts.push(`${run.duration.toFixed(2)} s of speech`);
    timing.textContent = parts.join('; ');
  }

  function halt(said) {
    if (!run) return;
    run.controller.abort();
    audio.pause();
    run.stopped = true;
    stop.disabled = true;
    if (said) api.status(said);
  }

  async function speak() {
    halt();
    message.textContent = '';
    message.className = 'message';
    const input = text.value;
    if (!input.trim()) { fail('Nothing to say: type some text (or SSML) first.'); text.focus(); return; }
    if (input.length > MAX_CHARACTERS) {
      fail(`The text is ${input.length.toLocaleString('en')} characters long; the server speaks at most `
        + `${MAX_CHARACTERS.toLocaleString('en')} at once. Shorten it or split it.`);
      text.focus();
      return;
    }
    const rate = Number(speed.value);
    if (!(rate >= 0.25 && rate <= 4)) { fail('The rate must be a number from 0.25 to 4.'); speed.focus(); return; }
    const [chosen, , mime] = FORMATS.find(([value]) => value === format.value);
    const streamed = chosen === 'mp3' && window.MediaSource && MediaSource.isTypeSupported('audio/mpeg');
    const current = run = { controller: new AbortController(), bytes: [], words: [], current: -1, started: performance.now() };
    download = null;
    save.disabled = true;
    stop.disabled = false;
    wordsView.replaceChildren();
    wordsView.dataset.changes = '0';
    delete timing.dataset.firstAudioMs;
    delete timing.dataset.doneMs;
    timing.textContent = '';
    api.status('Speaking…');

    let source = null, buffer = null;
    const queue = [];
    const pump = () => {
      if (buffer && !buffer.updating && queue.length) buffer.appendBuffer(queue.shift());
      else if (buffer && !buffer.updating && current.done !== undefined && source.readyState === 'open') source.endOfStream();
    };
    if (streamed) {
      source = new MediaSource();
      audio.src = URL.createObjectURL(source);
      audio.play().catch(() => { /* starts once data comes; stopped runs reject */ });
      await new Promise((resolve) => source.addEventListener('sourceopen', resolve, { once: true }));
      buffer = source.addSourceBuffer('audio/mpeg');
      buffer.addEventListener('updateend', pump);
    }
    const body = { model: 'warble', input, voice: voice.value || undefined, speed: rate, response_format: chosen, stream_format: 'sse' };
    if (ssml.checked) body.ssml = true;
    try {
      const response = await api.fetch('/v1/audio/speech', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
        signal: current.controller.signal,
      });
      for await (const event of events(response)) {
        if (event.type === 'speech.audio.delta') {
          const bytes = base64Bytes(event.audio);
          current.bytes.push(bytes);
          if (streamed) { queue.push(bytes); pump(); }
        } else if (event.type === 'speech.word') {
          const span = document.createElement('span');
          span.textContent = event.text;
          wordsView.append(span, ' ');
          current.words.push({ time: event.time, span });
        } else if (event.type === 'speech.audio.done') {
          current.done = performance.now() - current.started;
          current.duration = event.duration;
          timing.dataset.doneMs = current.done.toFixed(0);
          showTiming();
        } else if (event.type === 'error') {
          throw new Error(event.error?.message || 'the synthesis failed');
        }
      }
      if (current.done === undefined) throw new Error('the stream ended before the speech was complete');
      download = { blob: new Blob(current.bytes, { type: mime }), name: `warble-speech.${chosen === 'opus' ? 'ogg' : chosen}` };
      save.disabled = false;
      if (streamed) pump();
      else {
        audio.src = URL.createObjectURL(download.blob);
        await audio.play().catch(() => {});
      }
      if (run === current) api.status(`Spoken: ${current.duration.toFixed(1)} s of speech.`, 'ok');
    } catch (error) {
      if (error.name === 'AbortError' || current.stopped) return;
      if (streamed && source.readyState === 'open') source.endOfStream();
      audio.pause();
      stop.disabled = true;
      fail(`Could not speak: ${error.message}`);
    }
  }

  play.addEventListener('click', speak);
  stop.addEventListener('click', () => halt('Stopped.'));
  save.addEventListener('click', () => {
    if (download) api.download(download.blob, download.name);
  });
}
