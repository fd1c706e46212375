// The leaderboard (#/leaderboard): the best established ratings, best first (GET
// /api/leaderboard: up to 100 players whose rating is no longer provisional).

import { h } from './dom.js';
import * as api from './api.js';
import { profileHref } from './players.js';

const TEXT = {
  title: 'Leaderboard',
  intro: 'The best ratings of players whose rating is established: no longer shown with ?, after enough rated games.',
  empty: 'Nobody is on the leaderboard yet: a player appears here once their rating is established (no longer provisional, after enough rated games).',
  failed: (message) => `The leaderboard could not be loaded: ${message}`,
  caption: 'The best players, best first',
};

export function leaderboardPage(root) {
  let gone = false;
  const body = h('div', {}, h('p', { class: 'loading' }, 'Loading…'));
  root.replaceChildren(h('section', { class: 'panel leaderboard', id: 'leaderboard' },
    h('h1', {}, TEXT.title),
    h('p', { class: 'hint' }, TEXT.intro),
    body));
  load();
  return () => { gone = true; };

  async function load() {
    let leaders;
    try {
      leaders = await api.leaderboard();
    } catch (error) {
      if (!gone) body.replaceChildren(h('p', { class: 'notice', role: 'alert' }, TEXT.failed(error.message)));
      return;
    }
    if (gone) return;
    if (!Array.isArray(leaders) || leaders.length === 0) {
      body.replaceChildren(h('p', { class: 'empty', id: 'leaderboard-empty' }, TEXT.empty));
      return;
    }
    body.replaceChildren(h('table', { class: 'leaderboard-table', id: 'leaderboard-table' },
      h('caption', { class: 'sr-only' }, TEXT.caption),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'),
        h('th', { scope: 'col', class: 'num' }, 'Rating'), h('th', { scope: 'col', class: 'num' }, 'Rated games'))),
      h('tbody', {}, leaders.map((leader, i) => h('tr', { 'data-player': leader.username },
        h('td', { class: 'rank' }, String(i + 1)),
        h('th', { scope: 'row' }, h('a', { href: profileHref(leader.username) }, leader.username)),
        h('td', { class: 'num' }, String(leader.rating)),
        h('td', { class: 'num' }, String(leader.games)))))));
  }
}
