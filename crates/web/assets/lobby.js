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

const QUICK = [[1, 0], [3, 2], [5, 0], [10, 0]];
const LIST_EVERY = 2000;
const RECONNECTS = 3;

const label = (initialMs, incrementMs) => `${initialMs / 60000}+${incrementMs / 1000}`;
const TEXT = {
  rated: 'Rated',
  ratedOn: 'Rated: your rating moves with the result. Rated games are 8×8 and never against the bot; only another signed-in player can take the seek.',
  ratedOff: 'Casual: no rating changes.',
  signInFirst: 'Sign in to play rated games (8×8, no bot).',
  ratedNeedsAccount: 'sign in to take a rated seek',
};
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

  const account = signedIn();
  const rated = h('input', { id: 'seek-rated', type: 'checkbox', disabled: !account, 'aria-describedby': 'seek-rated-note' });
  const ratedNote = h('p', { class: 'hint', id: 'seek-rated-note' });
  const showRated = () => {
    ratedNote.textContent = !account ? TEXT.signInFirst : rated.checked ? TEXT.ratedOn : TEXT.ratedOff;
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
    notice.textContent = '';
    if (mine) return;
    try {
      const wantRated = !!(account && rated.checked);
      const request = { clock: { initial_ms: initialMs, increment_ms: incrementMs }, color: 'random' };
      if (wantRated) request.rated = true;
      const made = await api.createSeek(request);
      mine = { ...made, clock: `${label(initialMs, incrementMs)}${wantRated ? ', rated' : ''}` };
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
    list.replaceChildren(...(others.length ? others.map((s) => seekRow(s))
      : [h('li', { class: 'hint' }, 'No open seeks: press a clock above and wait for someone.')]));
  }

  // One open seek: its clock, board, colour, rated or casual, who opened it (when signed in, with
  // their rating) and its age; a click takes it (a rated one only when signed in).
  function seekRow(s) {
    const clock = label(s.clock.initial_ms, s.clock.increment_ms);
    const gets = s.color === 'random' ? 'a random colour' : (s.color === 'white' ? 'black' : 'white');
    const blocked = s.rated && !account;
    const rating = s.rating == null ? '' : ` ${ratingText(s.rating, s.provisional)}`;
    const who = s.username ? ` · ${s.username}${rating}` : '';
    return h('li', { class: 'seek-row' },
      h('button', {
        type: 'button', class: 'seek-accept', 'data-seek': s.id, 'data-rated': String(!!s.rated), onclick: () => accept(s.id),
        disabled: blocked, title: blocked ? TEXT.ratedNeedsAccount : null,
        'aria-label': `Play ${clock} on ${s.width}×${s.height}${s.rated ? ', rated' : ''}${s.username ? ` against ${s.username}${rating}` : ''}, you get ${gets}${blocked ? ` (${TEXT.ratedNeedsAccount})` : ''}`,
      }, `${clock} · ${s.width}×${s.height} · ${s.color} · `,
      h('span', { class: s.rated ? 'rated' : 'casual' }, s.rated ? 'rated' : 'casual'),
      `${who} · ${Math.round(s.age_ms / 1000)} s`));
  }

  refresh();
  const timer = setInterval(refresh, LIST_EVERY);

  const element = h('section', { class: 'panel lobby', id: 'lobby' },
    h('h2', {}, 'Play someone now'),
    h('div', { class: 'row' }, ...buttons),
    h('div', { class: 'row' },
      h('label', { for: 'seek-minutes' }, 'Minutes'), minutes,
      h('label', { for: 'seek-increment' }, '+ seconds'), increment, custom),
    h('div', { class: 'row' }, h('label', { class: 'rated-switch', for: 'seek-rated' }, rated, TEXT.rated)),
    ratedNote,
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
