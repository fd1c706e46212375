// The leaderboard (#/leaderboard): the best established ratings, best first (GET
// /api/leaderboard: up to 100 players whose rating is no longer provisional).

import { h } from './dom.js';
import * as api from './api.js';
import { profileHref } from './players.js';
import { t, errorText, formatNumber } from './i18n.js';

// A rating or a count as a number of the language (a rating without grouping: 1500).
const number = (value) => formatNumber(Number(value) || 0, { useGrouping: false });

export function leaderboardPage(root) {
  let gone = false;
  const body = h('div', {}, h('p', { class: 'loading' }, t('loading')));
  root.replaceChildren(h('section', { class: 'panel leaderboard', id: 'leaderboard' },
    h('h1', {}, t('leaderboard.title')),
    h('p', { class: 'hint' }, t('leaderboard.intro')),
    body));
  load();
  return () => { gone = true; };

  async function load() {
    let leaders;
    try {
      leaders = await api.leaderboard();
    } catch (error) {
      if (!gone) body.replaceChildren(h('p', { class: 'notice', role: 'alert' }, t('leaderboard.failed', { message: errorText(error) })));
      return;
    }
    if (gone) return;
    if (!Array.isArray(leaders) || leaders.length === 0) {
      body.replaceChildren(h('p', { class: 'empty', id: 'leaderboard-empty' }, t('leaderboard.empty')));
      return;
    }
    body.replaceChildren(h('table', { class: 'leaderboard-table', id: 'leaderboard-table' },
      h('caption', { class: 'sr-only' }, t('leaderboard.caption')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('leaderboard.rank')), h('th', { scope: 'col' }, t('leaderboard.player')),
        h('th', { scope: 'col', class: 'num' }, t('leaderboard.rating')), h('th', { scope: 'col', class: 'num' }, t('leaderboard.games')))),
      h('tbody', {}, leaders.map((leader, i) => h('tr', { 'data-player': leader.username },
        h('td', { class: 'rank' }, number(i + 1)),
        h('th', { scope: 'row' }, h('a', { href: profileHref(leader.username) }, leader.username)),
        h('td', { class: 'num' }, number(leader.rating)),
        h('td', { class: 'num' }, formatNumber(leader.games)))))));
  }
}
