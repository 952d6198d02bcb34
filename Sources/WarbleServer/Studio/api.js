// The page's one way to the server: the API key (asked for once, kept in this tab's sessionStorage, sent in
// the Authorization header and never in a URL), errors in OpenAI's shape turned into Errors with their message,
// and the page's status line (an aria-live region).
const KEY_NAME = 'warble-api-key';
let askForKey = async () => null;
let pendingAsk = null;

function key() {
  return sessionStorage.getItem(KEY_NAME) || '';
}

function setKey(value) {
  if (value) sessionStorage.setItem(KEY_NAME, value);
  else sessionStorage.removeItem(KEY_NAME);
}

/// app.js hands in how to ask for the key (its dialog); concurrent 401s share one question.
function onKeyNeeded(ask) {
  askForKey = ask;
}

function ask(reason) {
  if (!pendingAsk) pendingAsk = askForKey(reason).finally(() => { pendingAsk = null; });
  return pendingAsk;
}

/// The message of an error answer ({"error":{"message":…}}), else the status line.
async function errorMessage(response) {
  let text = '';
  try { text = await response.text(); } catch { /* the body went away */ }
  try {
    const body = JSON.parse(text);
    if (body && body.error && body.error.message) return body.error.message;
  } catch { /* not JSON */ }
  return `the server answered ${response.status} ${response.statusText}`.trim();
}

/// fetch(path, init) with the key; a 401 asks for the key and tries once more; any other error answer throws
/// an Error carrying the server's message (error.status holds the status code).
async function apiFetch(path, init = {}) {
  for (let attempt = 0; ; attempt++) {
    const headers = new Headers(init.headers || {});
    const current = key();
    if (current) headers.set('Authorization', `Bearer ${current}`);
    let response;
    try {
      response = await fetch(path, { ...init, headers });
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw new Error(`the server cannot be reached (${error.message})`);
    }
    if (response.status === 401 && attempt < 2) {
      const message = await errorMessage(response);
      const given = await ask(message);
      if (given) { setKey(given); continue; }
      const error = new Error(`${message} (no key given: use “API key…” at the top)`);
      error.status = 401;
      throw error;
    }
    if (!response.ok) {
      const error = new Error(await errorMessage(response));
      error.status = response.status;
      throw error;
    }
    return response;
  }
}

/// Shows `message` in the status region (kind: "info", "ok" or "error"); screen readers announce it.
function status(message, kind = 'info') {
  const line = document.getElementById('status');
  if (!line) return;
  line.className = `status ${kind}`;
  line.dataset.kind = kind;
  line.textContent = message;
}

/// A Blob saved as a file through a temporary link (the browser's download).
function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const api = { fetch: apiFetch, key, setKey, onKeyNeeded, status, download };
export default api;
