// The lobby on the home page: quick pairing (1+0, 3+2, 5+0, 10+0, or a custom clock), the live
// list of open seeks (a click accepts one), and the waiting state with cancel. A seek is
// followed on its NDJSON stream; `paired` carries the game and this seat's token, and the page
// opens the game. The server withdraws a seek whose stream has been gone for 10 s, so leaving
// the page withdraws it too (and says so at once with DELETE).

import { h } from './dom.js';
import * as api from './api.js';
import { ndjson } from './stream.js';

const QUICK = [[1, 0], [3, 2], [5, 0], [10, 0]];
const LIST_EVERY = 2000;
const RECONNECTS = 3;

const label = (initialMs, incrementMs) => `${initialMs / 60000}+${incrementMs / 1000}`;
const openGame = (game, token) => {
  location.hash = `#/game/${encodeURIComponent(game)}?token=${encodeURIComponent(token)}`;
};

// lobbyPanel() → {element, leave()}: the panel, and what to call when the page goes.
export function lobbyPanel() {
  const notice = h('p', { class: 'notice', role: 'alert', id: 'lobby-notice' });
  const waitingText = h('span', { id: 'seek-waiting-text' });
  const cancel = h('button', { id: 'seek-cancel', type: 'button', onclick: () => withdraw() }, 'Cancel');
  const waiting = h('div', { id: 'seek-waiting', class: 'row', hidden: true, role: 'status' }, waitingText, cancel);
  const list = h('ul', { id: 'seek-list', class: 'seek-list', 'aria-live': 'polite' });
  // The custom clock starts where the quick menu's middle does: 5 + 0.
  const minutes = h('input', { id: 'seek-minutes', type: 'number', min: 1, max: 180, value: 5, 'aria-label': 'Minutes per side' });
  const increment = h('input', { id: 'seek-increment', type: 'number', min: 0, max: 60, value: 0, 'aria-label': 'Seconds added per move' });
  const buttons = QUICK.map(([m, s]) => h('button', {
    id: `seek-${m}-${s}`, type: 'button', class: 'seek-quick', onclick: () => seek(m * 60000, s * 1000),
  }, `${m}+${s}`));
  const custom = h('button', {
    id: 'seek-custom', type: 'button',
    onclick: () => seek(Number(minutes.value) * 60000, Number(increment.value) * 1000),
  }, 'Seek');

  let mine = null; // {id, token, clock}
  let controller = null;
  let gone = false;

  function show(seeking) {
    waiting.hidden = !seeking;
    for (const button of [...buttons, custom]) button.disabled = seeking;
  }

  async function seek(initialMs, incrementMs) {
    notice.textContent = '';
    if (mine) return;
    try {
      const made = await api.createSeek({ clock: { initial_ms: initialMs, increment_ms: incrementMs }, color: 'random' });
      mine = { ...made, clock: label(initialMs, incrementMs) };
      waitingText.textContent = `Waiting for an opponent (${mine.clock})…`;
      show(true);
      follow(mine, RECONNECTS);
    } catch (error) {
      notice.textContent = `The seek could not be opened: ${error.message}`;
    }
  }

  // Reads the seek's stream until `paired` or `withdrawn`; a drop reconnects (within the
  // server's 10 s of grace) a few times.
  async function follow(seek, reconnects) {
    controller = new AbortController();
    try {
      const response = await fetch(api.seekStreamPath(seek.id), {
        headers: { Accept: 'application/x-ndjson', Authorization: `Bearer ${seek.token}` },
        signal: controller.signal, cache: 'no-store',
      });
      if (!response.ok || !response.body) throw new Error(`the seek's stream answered ${response.status}`);
      for await (const line of ndjson(response.body)) {
        if (take(seek, line)) return;
      }
    } catch (failure) {
      if (failure.name === 'AbortError' || gone || mine !== seek) return;
      console.warn('seek stream dropped', failure);
    }
    if (gone || mine !== seek) return;
    if (reconnects > 0) { setTimeout(() => follow(seek, reconnects - 1), 500); return; }
    finish('The connection to the lobby was lost.');
  }

  // One line of the stream → whether it was the last.
  function take(seek, line) {
    if (line.type === 'waiting') {
      waitingText.textContent = `Waiting for an opponent (${seek.clock})… ${Math.round(line.age_ms / 1000)} s`;
      return false;
    }
    if (line.type === 'paired') {
      mine = null;
      show(false);
      openGame(line.game, line.token);
      return true;
    }
    finish('The seek was withdrawn.');
    return true;
  }

  function finish(message) {
    mine = null;
    controller?.abort();
    show(false);
    notice.textContent = message;
  }

  async function withdraw() {
    const seek = mine;
    if (!seek) return;
    try {
      await api.withdrawSeek(seek.id, seek.token);
      finish('');
    } catch (error) {
      // Paired meanwhile: the stream's `paired` line opens the game.
      if (error.code !== 'seek_paired') finish(`The seek could not be withdrawn: ${error.message}`);
    }
  }

  async function accept(id) {
    notice.textContent = '';
    try {
      const taken = await api.acceptSeek(id);
      openGame(taken.game, taken.token);
    } catch (error) {
      notice.textContent = `That seek is gone: ${error.message}`;
      refresh();
    }
  }

  async function refresh() {
    let open;
    try { open = await api.seeks(); } catch { return; }
    if (gone) return;
    const others = open.filter((s) => s.id !== mine?.id);
    list.replaceChildren(...(others.length ? others.map((s) => h('li', { class: 'seek-row' },
      h('button', {
        type: 'button', class: 'seek-accept', 'data-seek': s.id, onclick: () => accept(s.id),
        'aria-label': `Play ${label(s.clock.initial_ms, s.clock.increment_ms)} on ${s.width}×${s.height}, you get ${s.color === 'random' ? 'a random colour' : (s.color === 'white' ? 'black' : 'white')}`,
      }, `${label(s.clock.initial_ms, s.clock.increment_ms)} · ${s.width}×${s.height} · ${s.color} · ${Math.round(s.age_ms / 1000)} s`)))
      : [h('li', { class: 'hint' }, 'No open seeks: press a clock above and wait for someone.')]));
  }

  refresh();
  const timer = setInterval(refresh, LIST_EVERY);

  const element = h('section', { class: 'panel lobby', id: 'lobby' },
    h('h2', {}, 'Play someone now'),
    h('div', { class: 'row' }, ...buttons),
    h('div', { class: 'row' },
      h('label', { for: 'seek-minutes' }, 'Minutes'), minutes,
      h('label', { for: 'seek-increment' }, '+ seconds'), increment, custom),
    waiting,
    h('h3', {}, 'Open seeks'),
    list,
    notice);

  return {
    element,
    leave() {
      gone = true;
      clearInterval(timer);
      controller?.abort();
      if (mine) api.withdrawSeek(mine.id, mine.token).catch(() => {});
    },
  };
}
