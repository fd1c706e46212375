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
  showLeaders(body, {
    id: 'leaderboard', attr: 'data-player',
    failed: (message) => t('leaderboard.failed', { message }), empty: t('leaderboard.empty'),
    caption: t('leaderboard.caption'), name: t('leaderboard.player'),
    rating: t('leaderboard.rating'), games: t('leaderboard.games'),
  }, () => gone);
  return () => { gone = true; };
}

// Loads the leaderboard of `pool` (people's when absent) into `target`: a table `#{id}-table`
// whose rows carry the name in `attr`, or a note `#{id}-empty`, or the failure. `words` are the
// page's texts; nothing is drawn once `gone()`.
export async function showLeaders(target, words, gone, pool) {
  let leaders;
  try {
    leaders = await api.leaderboard(pool);
  } catch (error) {
    if (!gone()) target.replaceChildren(h('p', { class: 'notice', role: 'alert' }, words.failed(errorText(error))));
    return;
  }
  if (gone()) return;
  if (!Array.isArray(leaders) || leaders.length === 0) {
    target.replaceChildren(h('p', { class: 'empty', id: `${words.id}-empty` }, words.empty));
    return;
  }
  target.replaceChildren(h('table', { class: 'leaderboard-table', id: `${words.id}-table` },
    h('caption', { class: 'sr-only' }, words.caption),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('leaderboard.rank')), h('th', { scope: 'col' }, words.name),
      h('th', { scope: 'col', class: 'num' }, words.rating), h('th', { scope: 'col', class: 'num' }, words.games))),
    h('tbody', {}, leaders.map((leader, i) => h('tr', { [words.attr]: leader.username },
      h('td', { class: 'rank' }, number(i + 1)),
      h('th', { scope: 'row' }, h('a', { href: profileHref(leader.username) }, leader.username)),
      h('td', { class: 'num' }, number(leader.rating)),
      h('td', { class: 'num' }, formatNumber(Number(leader.games) || 0)))))));
}
