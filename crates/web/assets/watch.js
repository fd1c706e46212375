// Watching games. #/watch lists the live games (GET /api/games?status=in_progress: spectator
// views, the latest move first, 50 a page), each with its players, a small board and whose move
// it is, each opening the game as a spectator (#/game/{id}, no token); the list is read again
// every few seconds. #/tv shows the TV game (GET /api/tv) large, as a spectator's game page
// following its stream; once it is over the page moves on to the next TV game, and when there is
// none it says so and asks again every few seconds.

import { h, fill } from './dom.js';
import * as api from './api.js';
import { Board } from './board.js';
import { gamePage } from './game.js';
import { playerName, ratingText } from './players.js';
import { t, errorText } from './i18n.js';

const LIST_EVERY = 8000; // the list read again
const TV_AGAIN = 3000; // no TV game: asked again
const TV_NEXT = 4000; // the end shown this long before the next TV game

// The messages of these pages (read when shown: the catalogue loads after this module).
const TEXT = {
  side: (color) => t(color === 'white' ? 'color.White' : 'color.Black'),
  toMove: (color) => t('watch.toMove', { color: TEXT.side(color) }),
  failed: (error) => t('watch.failed', { message: errorText(error) }),
  tvFailed: (error) => t('watch.tvFailed', { message: errorText(error) }),
};

// A side in words: the account's name and rating, else the colour.
function side(view, color) {
  const player = view.players && view.players[color];
  if (!player) return h('span', { class: 'who' }, TEXT.side(color));
  return h('span', { class: 'who' }, playerName(player),
    h('span', { class: 'player-rating' }, ` ${ratingText(player.rating, player.provisional)}`));
}

// One live game: its players, a small read-only board, whose move; the link opens it.
function liveGame(view) {
  const href = `#/game/${encodeURIComponent(view.id)}`;
  const board = new Board({ label: t('watch.board', { id: view.id }) });
  board.draw({ width: view.width, height: view.height, pieces: view.board || [] });
  board.el.inert = true; // a picture here: no focus stops, no clicks
  const players = [side(view, 'white'), ' – ', side(view, 'black')];
  const state = view.to_move ? TEXT.toMove(view.to_move) : '';
  return h('li', { class: 'live-game', 'data-game': view.id },
    h('a', { class: 'live-players', href },
      h('span', { class: 'dot white', 'aria-hidden': 'true' }), ...players,
      h('span', { class: 'dot black', 'aria-hidden': 'true' })),
    h('a', { class: 'live-board', href, 'aria-label': t('watch.open', { id: view.id, state }) }, board.el),
    h('p', { class: 'live-state' },
      h('span', { class: 'live-to-move', 'data-to-move': view.to_move || '' }, state),
      ` · ${t('watch.moves', { count: view.moves_played })}${view.rated ? ` · ${t('rated')}` : ''}`));
}

export function watchPage(root) {
  let gone = false;
  let timer = 0;
  let pages = 1; // how many pages are shown
  const list = h('ul', { class: 'live-games', id: 'live-games', 'aria-label': t('watch.live') });
  const state = h('p', { class: 'hint', id: 'live-state', role: 'status' });
  const more = h('button', { type: 'button', id: 'live-more', hidden: true, onclick: () => { pages++; load(); } }, t('watch.more'));
  root.replaceChildren(h('section', { class: 'panel watch', id: 'watch' },
    h('h1', {}, t('watch.title')),
    h('p', { class: 'tv-line' }, h('a', { class: 'button primary', href: '#/tv', id: 'tv-link' }, t('watch.tvLink')),
      ' ', h('span', { class: 'hint' }, t('watch.tvIntro'))),
    h('p', { class: 'hint' }, t('watch.intro')),
    state, list, more));
  load();
  return () => { gone = true; clearTimeout(timer); };

  async function load() {
    clearTimeout(timer);
    const views = [];
    let full = false;
    try {
      for (let page = 1; page <= pages; page++) {
        const answer = await api.liveGames(page);
        if (!Array.isArray(answer)) break;
        views.push(...answer);
        full = answer.length >= 50;
        if (!full) break;
      }
    } catch (error) {
      if (gone) return;
      state.textContent = TEXT.failed(error);
      timer = setTimeout(load, LIST_EVERY);
      return;
    }
    if (gone) return;
    state.textContent = views.length ? '' : t('watch.none');
    list.dataset.count = String(views.length);
    fill(list, views.map(liveGame));
    more.hidden = !full || pages >= 20;
    timer = setTimeout(load, LIST_EVERY);
  }
}

// TV: the TV game as a spectator's game page, then the next one.
export function tvPage(root) {
  let gone = false;
  let timer = 0;
  let leaveGame = () => {};
  let current = null;
  const state = h('p', { class: 'tv-state', id: 'tv-state', role: 'status' }, t('watch.tvLooking'));
  const holder = h('div', { class: 'tv-game', id: 'tv-game' });
  root.replaceChildren(h('div', { class: 'tv-page', id: 'tv' },
    h('header', { class: 'tv-head' }, h('h1', {}, t('watch.tvTitle')), state,
      h('a', { href: '#/watch', class: 'hint', id: 'tv-watch-link' }, t('watch.all'))),
    holder));
  next();
  return () => {
    gone = true;
    clearTimeout(timer);
    leaveGame();
  };

  async function next() {
    clearTimeout(timer);
    if (gone) return;
    let answer;
    try {
      answer = await api.tv();
    } catch (error) {
      if (gone) return;
      state.textContent = TEXT.tvFailed(error);
      timer = setTimeout(next, TV_AGAIN);
      return;
    }
    if (gone) return;
    const id = answer && typeof answer.game === 'string' ? answer.game : null;
    if (!id) {
      show(null);
      state.textContent = t('watch.tvNone');
      timer = setTimeout(next, TV_AGAIN);
      return;
    }
    if (id === current) { timer = setTimeout(next, TV_AGAIN); return; } // still ending: ask again
    show(id);
  }

  function show(id) {
    leaveGame();
    leaveGame = () => {};
    current = id;
    holder.dataset.game = id || '';
    if (!id) { holder.replaceChildren(); return; }
    state.textContent = t('watch.tvWatching');
    const page = h('div', {});
    holder.replaceChildren(page);
    leaveGame = gamePage(page, id, null, {
      onOver: () => {
        if (gone || current !== id) return;
        state.textContent = t('watch.tvOver');
        clearTimeout(timer);
        timer = setTimeout(next, TV_NEXT);
      },
    });
  }
}
