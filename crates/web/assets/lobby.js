// The lobby on the home page: quick pairing (1+0, 3+2, 5+0, 10+0, or a custom clock), the live
// list of open seeks (a click accepts one), and the waiting state with cancel. A seek is
// followed on its NDJSON stream; `paired` carries the game and this seat's token, and the page
// opens the game. The server withdraws a seek whose stream has been gone for 10 s, so leaving
// the page withdraws it too (and says so at once with DELETE). Signed in, a seek may be rated
// (8 × 8, no bot; the server pairs it only with another account); the list says which seeks are
// rated and who opened them.

import { h } from './dom.js';
import * as api from './api.js';
import { ndjson } from './stream.js';
import { signedIn } from './account.js';
import { ratingText } from './players.js';
import { t, errorText } from './i18n.js';
import { fieldError, formErrors } from './fields.js';

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
  const cancel = h('button', { id: 'seek-cancel', type: 'button', onclick: () => withdraw() }, t('lobby.cancel'));
  const waiting = h('div', { id: 'seek-waiting', class: 'row', hidden: true, role: 'status' }, waitingText, cancel);
  const list = h('ul', { id: 'seek-list', class: 'seek-list', 'aria-live': 'polite' });
  // The custom clock starts where the quick menu's middle does: 5 + 0.
  const minutes = h('input', { id: 'seek-minutes', type: 'number', min: 1, max: 180, value: 5, 'aria-label': t('home.minutesLabel') });
  const increment = h('input', { id: 'seek-increment', type: 'number', min: 0, max: 60, value: 0, 'aria-label': t('home.incrementLabel') });
  const buttons = QUICK.map(([m, s]) => h('button', {
    id: `seek-${m}-${s}`, type: 'button', class: 'seek-quick', onclick: () => seek(m * 60000, s * 1000),
  }, `${m}+${s}`));
  // The custom clock's refusal beside it (a quick button's clock is always allowed).
  const clockError = fieldError('seek-clock-error');
  for (const input of [minutes, increment]) input.setAttribute('aria-describedby', 'seek-clock-error');
  const errors = formErrors({
    'clock.initial_ms': { input: minutes, slot: clockError, text: 'field.minutes' },
    'clock.increment_ms': { input: increment, slot: clockError, text: 'field.increment' },
    clock: { input: minutes, slot: clockError, text: 'field.minutes' },
  }, notice, (error) => t('lobby.notOpened', { message: errorText(error) }));
  const custom = h('button', {
    id: 'seek-custom', type: 'button',
    onclick: () => seek(Number(minutes.value) * 60000, Number(increment.value) * 1000),
  }, t('lobby.seek'));

  const account = signedIn();
  const rated = h('input', { id: 'seek-rated', type: 'checkbox', disabled: !account, 'aria-describedby': 'seek-rated-note' });
  const ratedNote = h('p', { class: 'hint', id: 'seek-rated-note' });
  const showRated = () => {
    ratedNote.textContent = !account ? t('lobby.signInFirst') : rated.checked ? t('lobby.ratedOn') : t('lobby.ratedOff');
  };
  rated.addEventListener('change', showRated);
  showRated();

  let mine = null; // {id, token, clock}
  let controller = null;
  let gone = false;

  function show(seeking) {
    waiting.hidden = !seeking;
    for (const button of [...buttons, custom]) button.disabled = seeking;
    rated.disabled = seeking || !account;
  }

  async function seek(initialMs, incrementMs) {
    errors.clear();
    if (mine) return;
    try {
      const wantRated = !!(account && rated.checked);
      const request = { clock: { initial_ms: initialMs, increment_ms: incrementMs }, color: 'random' };
      if (wantRated) request.rated = true;
      const made = await api.createSeek(request);
      mine = { ...made, clock: wantRated ? t('lobby.clockRated', { clock: label(initialMs, incrementMs) }) : label(initialMs, incrementMs) };
      waitingText.textContent = t('lobby.waiting', { clock: mine.clock });
      show(true);
      follow(mine, RECONNECTS);
    } catch (error) {
      errors.show(error);
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
    finish(t('lobby.lost'));
  }

  // One line of the stream → whether it was the last.
  function take(seek, line) {
    if (line.type === 'waiting') {
      waitingText.textContent = t('lobby.waitingFor', { clock: seek.clock, seconds: Math.round(line.age_ms / 1000) });
      return false;
    }
    if (line.type === 'paired') {
      mine = null;
      show(false);
      openGame(line.game, line.token);
      return true;
    }
    finish(t('lobby.withdrawn'));
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
      if (error.code !== 'seek_paired') finish(t('lobby.notWithdrawn', { message: errorText(error) }));
    }
  }

  async function accept(id) {
    notice.textContent = '';
    try {
      const taken = await api.acceptSeek(id);
      openGame(taken.game, taken.token);
    } catch (error) {
      notice.textContent = t('lobby.gone', { message: errorText(error) });
      refresh();
    }
  }

  // The list is updated in place, row by row keyed by seek: a row's button stays the same
  // element while its seek is open, so the focus on it and a tap half made survive a refresh.
  const rows = new Map(); // seek id → {li, update(seek)}
  const none = h('li', { class: 'hint', id: 'seek-none' }, t('lobby.none'));

  async function refresh() {
    let open;
    try { open = await api.seeks(); } catch { return; }
    if (gone) return;
    const others = open.filter((s) => s.id !== mine?.id);
    const ids = new Set(others.map((s) => s.id));
    for (const [id, row] of rows) {
      if (!ids.has(id)) { row.li.remove(); rows.delete(id); }
    }
    if (!others.length) { if (!none.isConnected) list.replaceChildren(none); return; }
    none.remove();
    // Rows in the server's order, each moved only when it is out of place.
    let next = list.firstChild;
    for (const s of others) {
      let row = rows.get(s.id);
      if (row) row.update(s);
      else { row = seekRow(s); rows.set(s.id, row); }
      if (row.li === next) next = next.nextSibling;
      else list.insertBefore(row.li, next);
    }
  }

  // One open seek: its clock, board, colour, rated or casual, who opened it (when signed in, with
  // their rating) and its age; a click takes it (a rated one only when signed in) → {li, update}.
  function seekRow(first) {
    const button = h('button', { type: 'button', class: 'seek-accept', 'data-seek': first.id, onclick: () => accept(first.id) });
    const update = (s) => {
      const clock = label(s.clock.initial_ms, s.clock.increment_ms);
      const gets = s.color === 'random' ? t('lobby.randomColour') : t(s.color === 'white' ? 'color.black' : 'color.white');
      const blocked = s.rated && !account;
      const rating = s.rating == null ? '' : ` ${ratingText(s.rating, s.provisional)}`;
      const who = s.username ? ` · ${s.username}${rating}` : '';
      button.dataset.rated = String(!!s.rated);
      button.disabled = blocked;
      if (blocked) button.title = t('lobby.ratedNeedsAccount'); else button.removeAttribute('title');
      button.setAttribute('aria-label', t('lobby.accept', {
        clock, size: `${s.width}×${s.height}`, rated: s.rated ? t('lobby.ratedSuffix') : '',
        against: s.username ? t('home.against', { name: `${s.username}${rating}` }) : '', gets,
        blocked: blocked ? ` (${t('lobby.ratedNeedsAccount')})` : '',
      }));
      button.replaceChildren(`${clock} · ${s.width}×${s.height} · ${s.color === 'random' ? t('lobby.random') : t(`color.${s.color}`)} · `,
        h('span', { class: s.rated ? 'rated' : 'casual' }, s.rated ? t('rated') : t('casual')),
        `${who} · ${Math.round(s.age_ms / 1000)} s`);
    };
    update(first);
    return { li: h('li', { class: 'seek-row', 'data-seek': first.id }, button), update };
  }

  refresh();
  const timer = setInterval(refresh, LIST_EVERY);

  const element = h('section', { class: 'panel lobby', id: 'lobby' },
    h('h2', {}, t('lobby.title')),
    h('div', { class: 'row' }, ...buttons),
    h('div', { class: 'row' },
      h('label', { for: 'seek-minutes' }, t('lobby.minutes')), minutes,
      h('label', { for: 'seek-increment' }, t('lobby.seconds')), increment, custom),
    clockError,
    h('div', { class: 'row' }, h('label', { class: 'rated-switch', for: 'seek-rated' }, rated, t('lobby.rated'))),
    ratedNote,
    waiting,
    h('h3', {}, t('lobby.open')),
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
