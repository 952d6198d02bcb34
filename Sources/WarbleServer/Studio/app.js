// The page's frame: the tab bar (arrow keys move between tabs, Enter or Space opens one), each screen's
// module loaded and mounted the first time it is shown, the API key dialog.
import { api } from './api.js';

const tabs = [...document.querySelectorAll('[role=tab]')];
const mounted = new Set();

async function mount(name) {
  if (mounted.has(name)) return;
  mounted.add(name);
  const root = document.getElementById(`screen-${name}`);
  try {
    const module = await import(`./${name}.js`);
    await module.mount(root, api);
  } catch (error) {
    root.insertAdjacentHTML('beforeend', '<p class="message error"></p>');
    root.lastElementChild.textContent = `This screen could not start: ${error.message}`;
    api.status(`The ${name} screen could not start: ${error.message}`, 'error');
  }
}

function select(tab, focus = true) {
  for (const other of tabs) {
    const chosen = other === tab;
    other.setAttribute('aria-selected', String(chosen));
    other.tabIndex = chosen ? 0 : -1;
    document.getElementById(other.getAttribute('aria-controls')).hidden = !chosen;
  }
  if (focus) tab.focus();
  const name = tab.id.replace('tab-', '');
  if (location.hash !== `#${name}`) history.replaceState(null, '', `#${name}`);
  mount(name);
}

for (const tab of tabs) {
  tab.addEventListener('click', () => select(tab));
  tab.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[(next + tabs.length) % tabs.length]);
  });
}

// The API key: asked for when a call is refused with 401, kept in sessionStorage.
const dialog = document.getElementById('key-dialog');
const input = document.getElementById('key-input');
function askForKey(reason) {
  return new Promise((resolve) => {
    input.value = '';
    dialog.querySelector('p').dataset.reason = reason || '';
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'save' && input.value ? input.value : null);
    }, { once: true });
    dialog.showModal();
    input.focus();
  });
}
api.onKeyNeeded(askForKey);
document.getElementById('key-change').addEventListener('click', async () => {
  const given = await askForKey('');
  if (given) { api.setKey(given); api.status('API key set for this tab.', 'ok'); }
});

const initial = tabs.find((tab) => `#${tab.id.replace('tab-', '')}` === location.hash) || tabs[0];
select(initial, false);
