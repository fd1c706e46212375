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
import { title } from './result.js';

const LIST_EVERY = 8000; // the list read again
const TV_AGAIN = 3000; // no TV game: asked again
const TV_NEXT = 4000; // the end shown this long before the next TV game

const TEXT = {
  title: 'Watch',
  intro: 'The games being played now, the latest move first. Open one to watch it live: you see what any spectator sees (the players’ own DNA stays hidden).',
  tvTitle: 'GMO chess TV',
  tvIntro: 'The game most worth watching, live: rated games first, then the latest. When it ends, TV moves on to the next one.',
  tvLink: 'Watch TV',
  none: 'Nobody is playing right now. This list looks again every few seconds.',
  failed: (message) => `The live games could not be loaded: ${message}`,
  more: 'More games',
  watch: 'Watch',
  toMove: (color) => `${title(color)} to move`,
  moves: (n) => `${n} move${n === 1 ? '' : 's'} played`,
  rated: 'rated',
  tvNone: 'No game is being played right now. TV looks again every few seconds.',
  tvFailed: (message) => `TV cannot reach the server (${message}); trying again…`,
  tvOver: 'This game is over. The next TV game in a moment…',
  tvWatching: 'Live on TV.',
  tvLooking: 'Looking for a game to watch…',
};

// A side in words: the account's name and rating, else the colour.
function side(view, color) {
  const player = view.players && view.players[color];
  if (!player) return h('span', { class: 'who' }, title(color));
  return h('span', { class: 'who' }, playerName(player),
    h('span', { class: 'player-rating' }, ` ${ratingText(player.rating, player.provisional)}`));
}

// One live game: its players, a small read-only board, whose move; the link opens it.
function liveGame(view) {
  const href = `#/game/${encodeURIComponent(view.id)}`;
  const board = new Board({ label: `Game ${view.id}` });
  board.draw({ width: view.width, height: view.height, pieces: view.board || [] });
  board.el.inert = true; // a picture here: no focus stops, no clicks
  const players = [side(view, 'white'), ' – ', side(view, 'black')];
  const state = view.to_move ? TEXT.toMove(view.to_move) : '';
  return h('li', { class: 'live-game', 'data-game': view.id },
    h('a', { class: 'live-players', href },
      h('span', { class: 'dot white', 'aria-hidden': 'true' }), ...players,
      h('span', { class: 'dot black', 'aria-hidden': 'true' })),
    h('a', { class: 'live-board', href, 'aria-label': `${TEXT.watch}: game ${view.id}, ${state}` }, board.el),
    h('p', { class: 'live-state' },
      h('span', { class: 'live-to-move', 'data-to-move': view.to_move || '' }, state),
      ` · ${TEXT.moves(view.moves_played)}${view.rated ? ` · ${TEXT.rated}` : ''}`));
}

export function watchPage(root) {
  let gone = false;
  let timer = 0;
  let pages = 1; // how many pages are shown
  const list = h('ul', { class: 'live-games', id: 'live-games', 'aria-label': 'Live games' });
  const state = h('p', { class: 'hint', id: 'live-state', role: 'status' });
  const more = h('button', { type: 'button', id: 'live-more', hidden: true, onclick: () => { pages++; load(); } }, TEXT.more);
  root.replaceChildren(h('section', { class: 'panel watch', id: 'watch' },
    h('h1', {}, TEXT.title),
    h('p', { class: 'tv-line' }, h('a', { class: 'button primary', href: '#/tv', id: 'tv-link' }, TEXT.tvLink),
      ' ', h('span', { class: 'hint' }, TEXT.tvIntro)),
    h('p', { class: 'hint' }, TEXT.intro),
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
      state.textContent = TEXT.failed(error.message);
      timer = setTimeout(load, LIST_EVERY);
      return;
    }
    if (gone) return;
    state.textContent = views.length ? '' : TEXT.none;
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
  const state = h('p', { class: 'tv-state', id: 'tv-state', role: 'status' }, TEXT.tvLooking);
  const holder = h('div', { class: 'tv-game', id: 'tv-game' });
  root.replaceChildren(h('div', { class: 'tv-page', id: 'tv' },
    h('header', { class: 'tv-head' }, h('h1', {}, TEXT.tvTitle), state,
      h('a', { href: '#/watch', class: 'hint', id: 'tv-watch-link' }, 'All live games')),
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
      state.textContent = TEXT.tvFailed(error.message);
      timer = setTimeout(next, TV_AGAIN);
      return;
    }
    if (gone) return;
    const id = answer && typeof answer.game === 'string' ? answer.game : null;
    if (!id) {
      show(null);
      state.textContent = TEXT.tvNone;
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
    state.textContent = TEXT.tvWatching;
    const page = h('div', {});
    holder.replaceChildren(page);
    leaveGame = gamePage(page, id, null, {
      onOver: () => {
        if (gone || current !== id) return;
        state.textContent = TEXT.tvOver;
        clearTimeout(timer);
        timer = setTimeout(next, TV_NEXT);
      },
    });
  }
}
