// Models: the installed models (remove, with confirmation) and the ones that can be pulled (size, licence,
// pull with a progress bar fed by the server-sent events of POST /v1/models/pull).
// Routes: GET /v1/models/available, POST /v1/models/pull, DELETE /v1/models/{id}, GET /v1/models.

import { events } from './speak.js';

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

function formatBytes(bytes) {
  if (bytes === null || bytes === undefined) return '';
  let value = Number(bytes);
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) { value /= 1000; unit += 1; }
  return `${value.toFixed(value < 10 && unit > 0 ? 1 : 0)} ${SIZE_UNITS[unit]}`;
}

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/// The licence's first words (the catalogue's licences carry a note after them), the whole one as a tooltip.
function licenceCell(licence, gated) {
  const td = cell(licence.split(/[;(]/)[0].trim() + (gated ? ' (gated)' : ''));
  td.title = licence;
  return td;
}

export function mount(root, api) {
  root.innerHTML = `
    <h2>Models</h2>
    <h3 id="models-installed-heading">Installed</h3>
    <table class="models-table" aria-labelledby="models-installed-heading">
      <thead><tr><th scope="col">Model</th><th scope="col">Language</th><th scope="col">Size</th><th scope="col">Licence</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody id="models-installed"></tbody>
    </table>
    <p id="models-served" class="meta"></p>
    <h3 id="models-available-heading">Can be pulled</h3>
    <p>
      <label for="models-filter">Filter</label>
      <input id="models-filter" type="search" placeholder="language, family or name" autocomplete="off">
      <button id="models-refresh" type="button">Refresh</button>
    </p>
    <table class="models-table" aria-labelledby="models-available-heading">
      <thead><tr><th scope="col">Pull as</th><th scope="col">Language</th><th scope="col">Size</th><th scope="col">Licence</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody id="models-available"></tbody>
    </table>`;
  const installedRows = root.querySelector('#models-installed');
  const availableRows = root.querySelector('#models-available');
  const filter = root.querySelector('#models-filter');
  const served = root.querySelector('#models-served');
  let entries = [];
  const pulling = new Set();

  function matches(entry) {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const haystack = `${entry.reference} ${entry.id} ${entry.family} ${entry.language} ${entry.quality || ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  }

  function render() {
    installedRows.replaceChildren();
    availableRows.replaceChildren();
    // One row per installed id (the catalogue can offer one model two ways: from the Hub and as a PyPI wheel).
    const installed = new Map();
    for (const entry of entries.filter((e) => e.installed)) {
      if (!installed.has(entry.id) || (entry.bytes && !installed.get(entry.id).bytes)) installed.set(entry.id, entry);
    }
    for (const entry of installed.values()) {
      const row = document.createElement('tr');
      row.append(cell(entry.id), cell(entry.language), cell(formatBytes(entry.bytes)), licenceCell(entry.licence, entry.gated));
      const actions = document.createElement('td');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.id = `models-remove-${entry.id}`;
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove ${entry.id}`);
      remove.addEventListener('click', () => removeModel(entry.id));
      actions.append(remove);
      row.append(actions);
      installedRows.append(row);
    }
    for (const entry of entries.filter((e) => !e.installed && matches(e))) {
      const row = document.createElement('tr');
      row.append(cell(entry.reference), cell(entry.language), cell(formatBytes(entry.bytes)), licenceCell(entry.licence, entry.gated));
      const actions = document.createElement('td');
      const pull = document.createElement('button');
      pull.type = 'button';
      pull.id = `models-pull-${entry.id}`;
      pull.textContent = entry.runs ? 'Pull' : 'Pull (cannot run yet)';
      pull.setAttribute('aria-label', `Pull ${entry.reference}`);
      pull.disabled = pulling.has(entry.id);
      const progress = document.createElement('progress');
      progress.id = `models-progress-${entry.id}`;
      progress.max = 1;
      progress.value = 0;
      progress.hidden = !pulling.has(entry.id);
      progress.setAttribute('aria-label', `Download of ${entry.reference}`);
      pull.addEventListener('click', () => pullModel(entry, pull, progress));
      actions.append(pull, ' ', progress);
      row.append(actions);
      availableRows.append(row);
    }
    root.dataset.loaded = String(entries.length);
  }

  async function load() {
    try {
      const [available, listed] = await Promise.all([
        api.fetch('/v1/models/available').then((r) => r.json()),
        api.fetch('/v1/models').then((r) => r.json()),
      ]);
      entries = available.data;
      const known = new Set(entries.filter((e) => e.installed).map((e) => e.id));
      const others = listed.data.map((m) => m.id).filter((id) => !known.has(id));
      served.textContent = others.length ? `Also served (aliases and models outside the catalogue): ${others.join(', ')}` : '';
      render();
    } catch (error) {
      api.status(`Models: ${error.message}`, 'error');
    }
  }

  async function pullModel(entry, button, progress) {
    pulling.add(entry.id);
    button.disabled = true;
    progress.hidden = false;
    progress.removeAttribute('value'); // indeterminate until the first bytes
    api.status(`Pulling ${entry.reference}…`);
    try {
      const response = await api.fetch('/v1/models/pull', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ model: entry.reference }),
      });
      let outcome = null;
      for await (const event of events(response)) {
        if (event.type === 'model.pull.progress' && event.total > 0) {
          progress.max = event.total;
          progress.value = event.bytes;
          progress.dataset.bytes = String(event.bytes);
          api.status(`Pulling ${entry.reference}: ${formatBytes(event.bytes)} of ${formatBytes(event.total)} (${event.file})`);
        } else if (event.type === 'model.pull.done') {
          outcome = event;
        } else if (event.error) {
          throw new Error(event.error.message);
        }
      }
      if (!outcome) throw new Error('the pull ended before it was done');
      progress.max = 1;
      progress.value = 1;
      progress.dataset.done = 'true';
      api.status(outcome.already_installed ? `${outcome.id} was already installed` : `Installed ${outcome.id} (${formatBytes(outcome.bytes)})`, 'ok');
      pulling.delete(entry.id);
      await load();
    } catch (error) {
      pulling.delete(entry.id);
      button.disabled = false;
      progress.hidden = true;
      api.status(`Pull of ${entry.reference} failed: ${error.message}`, 'error');
    }
  }

  async function removeModel(id) {
    if (!window.confirm(`Remove ${id}? Its files are deleted; it can be pulled again.`)) return;
    try {
      await api.fetch(`/v1/models/${encodeURIComponent(id)}`, { method: 'DELETE' });
      api.status(`Removed ${id}`, 'ok');
      await load();
    } catch (error) {
      api.status(`Could not remove ${id}: ${error.message}`, 'error');
    }
  }

  filter.addEventListener('input', render);
  root.querySelector('#models-refresh').addEventListener('click', load);
  load();
}
