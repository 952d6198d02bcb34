// History: the sessions the server kept (GET /v1/history, a page at a time), one session's texts
// (GET /v1/history/{id}), its audio drawn as a waveform and played (from its ZIP, GET /v1/history/{id}/export,
// which is also what Export saves), delete (DELETE /v1/history/{id}), and search (GET /v1/history?q=: sessions
// whose texts hold every word, as `warble history search`).

/// The entries of a ZIP archive (stored or deflated), read through its central directory.
export async function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) { end = i; break; }
  }
  if (end < 0) throw new Error('not a ZIP archive');
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries = new Map();
  for (let n = 0; n < count; n++) {
    if (view.getUint32(offset, true) !== 0x02014b50) throw new Error('a damaged ZIP directory');
    const method = view.getUint16(offset + 10, true);
    const compressed = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extra = view.getUint16(offset + 30, true), comment = view.getUint16(offset + 32, true);
    const local = view.getUint32(offset + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.set(name, { method, compressed, local });
    offset += 46 + nameLength + extra + comment;
  }
  return {
    names: [...entries.keys()],
    async read(name) {
      const entry = entries.get(name);
      if (!entry) return null;
      const start = entry.local + 30 + view.getUint16(entry.local + 26, true) + view.getUint16(entry.local + 28, true);
      const data = bytes.subarray(start, start + entry.compressed);
      if (entry.method === 0) return data;
      if (entry.method !== 8) throw new Error(`${name} uses ZIP method ${entry.method}`);
      const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    },
  };
}

/// Draws the peaks of `buffer`'s first channel into `canvas`.
export function drawWave(canvas, buffer) {
  const width = canvas.width = canvas.clientWidth * devicePixelRatio || 600;
  const height = canvas.height = canvas.clientHeight * devicePixelRatio || 80;
  const g = canvas.getContext('2d');
  g.fillStyle = '#fafafa';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#0645ad';
  const samples = buffer.getChannelData(0);
  const step = Math.max(1, Math.floor(samples.length / width));
  for (let x = 0; x < width; x++) {
    let low = 0, high = 0;
    for (let i = x * step; i < Math.min(samples.length, (x + 1) * step); i++) {
      low = Math.min(low, samples[i]); high = Math.max(high, samples[i]);
    }
    g.fillRect(x, (1 - high) * height / 2, 1, Math.max(1, (high - low) * height / 2));
  }
}

const field = (session, snake, camel) => session[snake] ?? session[camel];

export function mount(root, api) {
  root.innerHTML = `
    <h2>History</h2>
    <form class="row" id="history-search-form" role="search">
      <div><label for="history-search">Search the texts (every word; fli* for a prefix)</label><input id="history-search" type="search" autocomplete="off"></div>
      <button id="history-search-go" type="submit">Search</button>
      <button id="history-refresh" type="button">Show all</button>
    </form>
    <table aria-describedby="history-count">
      <thead><tr><th scope="col">Id</th><th scope="col">Kind</th><th scope="col">When</th><th scope="col">Model or voice</th><th scope="col">Text</th><th scope="col"><span class="sr-only">Open</span></th></tr></thead>
      <tbody id="history-rows"></tbody>
    </table>
    <p id="history-count" class="meta"></p>
    <button id="history-more" type="button" hidden>Older sessions</button>
    <div id="history-detail" hidden>
      <h3 id="history-title">Session</h3>
      <p id="history-texts"></p>
      <canvas id="history-wave" class="wave" role="img" aria-label="Waveform of the session's audio"></canvas>
      <audio id="history-audio" controls aria-label="The session's audio"></audio>
      <div class="row">
        <button id="history-play" type="button">Play</button>
        <button id="history-export" type="button">Export as ZIP</button>
        <button id="history-delete" type="button">Delete</button>
      </div>
    </div>
    <p id="history-message" class="message" role="alert"></p>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const rows = $('history-rows'), search = $('history-search'), count = $('history-count'), more = $('history-more');
  const detail = $('history-detail'), title = $('history-title'), texts = $('history-texts'), wave = $('history-wave');
  const audio = $('history-audio'), message = $('history-message');
  let sessions = [];
  let lastID = null;
  let open = null;  // { id, zip: Blob }
  let query = '';

  const say = (text, kind = 'info') => {
    message.textContent = text;
    message.className = kind === 'error' ? 'message error' : 'message';
    api.status(text, kind);
  };

  function render() {
    rows.replaceChildren();
    const shown = sessions;
    for (const s of shown) {
      const row = document.createElement('tr');
      row.id = `history-row-${s.id}`;
      if (open?.id === s.id) row.className = 'selected';
      const created = field(s, 'created_at', 'createdAt');
      for (const value of [s.id, s.kind, created ? new Date(created).toLocaleString() : '', [s.model, s.voice].filter(Boolean).join(' · '), s.preview ?? '']) {
        const cell = document.createElement('td');
        cell.textContent = String(value);
        row.append(cell);
      }
      const cell = document.createElement('td');
      const button = document.createElement('button');
      button.type = 'button';
      button.id = `history-open-${s.id}`;
      button.textContent = 'Open';
      button.setAttribute('aria-label', `Open session ${s.id}`);
      button.addEventListener('click', () => show(s.id));
      cell.append(button);
      row.append(cell);
      rows.append(row);
    }
    count.textContent = `${shown.length} sessions listed` + (query ? ` whose texts hold “${query}”` : '');
  }

  async function load(next = false) {
    try {
      // encodeURIComponent: spaces as %20 (URLSearchParams would write +, which a query string need not mean as one).
      let params = 'limit=50';
      if (query) params += `&q=${encodeURIComponent(query)}`;
      else if (next && lastID) params += `&after=${lastID}`;
      const page = await (await api.fetch(`/v1/history?${params}`)).json();
      sessions = next ? sessions.concat(page.data) : page.data;
      lastID = page.last_id;
      more.hidden = !page.has_more;
      render();
      root.dataset.loaded = String(sessions.length);
    } catch (error) { say(`The history could not be read: ${error.message}`, 'error'); }
  }

  async function show(id) {
    say(`Opening session ${id}…`);
    try {
      const session = await (await api.fetch(`/v1/history/${id}`)).json();
      const summary = session.summary ?? session;
      title.textContent = `Session ${id}: ${summary.kind ?? ''}`;
      texts.textContent = (session.texts ?? []).map((t) => `${t.role}: ${t.text}`).join('\n');
      const zip = await (await api.fetch(`/v1/history/${id}/export`)).blob();
      open = { id, zip };
      detail.hidden = false;
      render();
      const archive = await unzip(new Uint8Array(await zip.arrayBuffer()));
      const name = archive.names.find((n) => n.endsWith('/output.wav')) ?? archive.names.find((n) => n.endsWith('.wav'));
      if (!name) { audio.removeAttribute('src'); wave.getContext('2d').clearRect(0, 0, wave.width, wave.height); return say(`Session ${id} has no audio.`); }
      const wav = await archive.read(name);
      const context = new AudioContext();
      const decoded = await context.decodeAudioData(wav.slice().buffer);
      context.close();
      drawWave(wave, decoded);
      wave.dataset.drawn = String(id);
      audio.src = URL.createObjectURL(new Blob([wav], { type: 'audio/wav' }));
      say(`Session ${id}: ${decoded.duration.toFixed(1)} s of audio.`, 'ok');
    } catch (error) { say(`Session ${id} could not be opened: ${error.message}`, 'error'); }
  }

  $('history-search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    query = search.value.trim();
    load();
  });
  $('history-refresh').addEventListener('click', () => { query = ''; search.value = ''; load(); });
  more.addEventListener('click', () => load(true));
  $('history-play').addEventListener('click', () => audio.play().catch((error) => say(`Cannot play: ${error.message}`, 'error')));
  $('history-export').addEventListener('click', () => { if (open) api.download(open.zip, `warble-session-${open.id}.zip`); });
  $('history-delete').addEventListener('click', async () => {
    if (!open || !confirm(`Delete session ${open.id} and its audio?`)) return;
    try {
      await api.fetch(`/v1/history/${open.id}`, { method: 'DELETE' });
      say(`Deleted session ${open.id}.`, 'ok');
      open = null;
      detail.hidden = true;
      await load();
    } catch (error) { say(`The session could not be deleted: ${error.message}`, 'error'); }
  });
  load();
}
