// A player's profile (#/@/{name}): the rating (`?` while provisional) and its deviation, the
// results, the rating after each rated game drawn as an SVG graph, and the games, newest first,
// 50 a page. From GET /api/users/{name}, …/rating-history and …/games?before=.

import { h, s } from './dom.js';
import * as api from './api.js';
import { signedIn } from './account.js';
import { accountGameRow, ratingText, sameName } from './players.js';
import { t, errorText, formatDate, formatNumber } from './i18n.js';
import { authorEntries } from './library.js';

const PAGE = 50; // the server's page of games
const START = 1500; // a new player's rating

// A rating or a deviation as a number of the language (no grouping: 1500, as players write it).
const rating = (value) => formatNumber(Math.round(Number(value) || 0), { useGrouping: false });

// The messages of this page (read when shown: the catalogue loads after this module).
const TEXT = {
  noSuchText: (name) => t('profile.noSuchText', { name }),
  failed: (error) => t('profile.failed', { message: errorText(error) }),
  deviation: (d) => t('profile.deviation', { deviation: rating(d) }),
  rated: (n) => t('profile.ratedGames', { count: n }),
  since: (date) => t('profile.since', { date }),
  graphTitle: (name) => t('profile.graphTitle', { name }),
  graphDesc: (n, first, last, high, low) => t(n > 1 ? 'profile.graphDescMany' : 'profile.graphDesc', {
    count: n, start: rating(START), first: rating(first), last: rating(last), high: rating(high), low: rating(low),
  }),
  point: (i, value, deviation, date) => t(date ? 'profile.pointOn' : 'profile.point', {
    number: i, value: rating(value), deviation: rating(deviation), date,
  }),
  olderFailed: (error) => t('profile.olderFailed', { message: errorText(error) }),
};

// A day in the language's words (an unreadable time: nothing).
const day = (rfc3339) => {
  const at = new Date(rfc3339);
  return Number.isNaN(at.getTime()) ? '' : formatDate(at, { year: 'numeric', month: 'short', day: 'numeric' });
};


export function profilePage(root, name) {
  let gone = false;
  root.replaceChildren(h('section', { class: 'panel' }, h('p', { class: 'loading' }, t('loading'))));
  load();
  return () => { gone = true; };

  async function load() {
    let profile;
    let points;
    let games;
    try {
      [profile, points, games] = await Promise.all([api.user(name), api.ratingHistory(name), api.userGames(name)]);
    } catch (error) {
      if (gone) return;
      if (error.status === 404) {
        root.replaceChildren(h('section', { class: 'panel cannot-open', id: 'no-such-player' },
          h('h1', {}, t('profile.noSuchPlayer')),
          h('p', { class: 'notice', role: 'alert' }, TEXT.noSuchText(name)),
          h('div', { class: 'row' },
            h('a', { class: 'button', href: '#/leaderboard' }, t('profile.leaderboard')),
            h('a', { class: 'button primary', href: '#/' }, t('profile.home')))));
        document.title = t('title.named', { name: t('profile.noSuchPlayer') });
      } else {
        root.replaceChildren(h('section', { class: 'panel' }, h('p', { class: 'notice', role: 'alert' }, TEXT.failed(error))));
      }
      return;
    }
    if (gone) return;
    render(profile, Array.isArray(points) ? points : [], Array.isArray(games) ? games : []);
  }

  function render(profile, points, games) {
    const me = signedIn();
    const own = !!(me && sameName(me.username, profile.username));
    const now = profile.rating;
    const counts = profile.counts;
    const count = (key, label) => h('div', { class: 'count', 'data-count': key },
      h('dt', {}, label), h('dd', { id: `profile-${key}` }, formatNumber(counts[key])));
    const list = h('ul', { class: 'game-rows', id: 'profile-games' });
    const more = h('button', { type: 'button', id: 'profile-older', hidden: games.length < PAGE, onclick: older }, t('profile.older'));
    const moreNote = h('p', { class: 'notice', role: 'alert' });
    let last = games.length ? games[games.length - 1].id : null;
    const add = (page) => list.append(...page.map((view) => accountGameRow(view, profile.username, { own })));
    if (games.length) add(games);
    else list.append(h('li', { class: 'empty hint', id: 'profile-no-games' }, t('profile.noGames')));

    async function older() {
      if (!last) return;
      more.disabled = true;
      moreNote.textContent = '';
      try {
        const page = await api.userGames(profile.username, last);
        if (gone) return;
        add(page);
        last = page.length ? page[page.length - 1].id : null;
        more.hidden = page.length < PAGE;
      } catch (error) {
        moreNote.textContent = TEXT.olderFailed(error);
      } finally {
        more.disabled = false;
      }
    }

    root.replaceChildren(h('div', { class: 'profile', id: 'profile' },
      h('section', { class: 'panel profile-head' },
        h('h1', { id: 'profile-name' }, profile.username),
        own ? h('p', { class: 'hint', id: 'profile-own' }, t('profile.you')) : null,
        h('p', { class: 'rating-line' },
          h('span', { class: 'big-rating', id: 'profile-rating', title: now.provisional ? t('profile.provisional') : t('profile.rating') },
            ratingText(now.value, now.provisional)),
          ' ', h('span', { class: 'deviation', id: 'profile-deviation', title: t('profile.deviationTitle') }, TEXT.deviation(now.deviation)),
          ' · ', h('span', { id: 'profile-rated-games' }, TEXT.rated(now.games))),
        now.provisional ? h('p', { class: 'hint', id: 'profile-provisional' }, t('profile.provisionalNote')) : null,
        h('dl', { class: 'counts', id: 'profile-counts' },
          count('games', t('profile.games')), count('wins', t('profile.wins')), count('draws', t('profile.draws')),
          count('losses', t('profile.losses'))),
        profile.created_at ? h('p', { class: 'hint' }, TEXT.since(day(profile.created_at))) : null),
      h('section', { class: 'panel profile-graph' },
        h('h2', {}, t('profile.ratingTitle')),
        points.length ? ratingGraph(points, profile.username)
          : h('p', { class: 'hint', id: 'rating-graph-empty' }, t('profile.noGraph'))),
      h('section', { class: 'panel profile-games' },
        h('h2', {}, own ? t('home.myGames') : t('profile.games')),
        list, h('div', { class: 'row' }, more), moreNote),
      authorEntries(profile.username)));
    document.title = t('title.named', { name: profile.username });
  }
}

// A step for the value axis: about four lines across the range.
function tickStep(range) {
  for (const step of [10, 20, 25, 50, 100, 200, 250, 500]) if (range / step <= 5) return step;
  return 1000;
}

// The rating after each rated game as an SVG line: a point per game (its value, deviation and
// day in its tooltip), from the start at 1500 (a hollow mark). Accessible as one image with a
// title and a description that says the numbers.
export function ratingGraph(points, name) {
  // Narrower on a phone, so that its words keep a readable size once the picture is scaled.
  const W = window.matchMedia('(max-width: 520px)').matches ? 360 : 640;
  const H = 220;
  const left = 48;
  const right = 14;
  const top = 14;
  const bottom = 26;
  const values = [START, ...points.map((p) => p.value)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const step = tickStep(Math.max(40, high - low));
  const yMin = Math.floor((low - step / 4) / step) * step;
  const yMax = Math.ceil((high + step / 4) / step) * step;
  const x = (i) => left + (i * (W - left - right)) / Math.max(1, points.length);
  const y = (v) => top + ((yMax - v) * (H - top - bottom)) / Math.max(1, yMax - yMin);
  const grid = [];
  for (let v = yMin; v <= yMax; v += step) {
    grid.push(s('line', { class: 'grid', x1: left, x2: W - right, y1: y(v), y2: y(v) }),
      s('text', { class: 'tick', x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, rating(v)));
  }
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const ratings = points.map((p) => p.value);
  return s('svg', {
    id: 'rating-graph', class: 'rating-graph', role: 'img', viewBox: `0 0 ${W} ${H}`,
    'aria-labelledby': 'rating-graph-title rating-graph-desc', 'data-points': points.length,
  },
  s('title', { id: 'rating-graph-title' }, TEXT.graphTitle(name)),
  s('desc', { id: 'rating-graph-desc' },
    TEXT.graphDesc(points.length, ratings[0], ratings[ratings.length - 1], Math.max(...ratings), Math.min(...ratings))),
  grid,
  s('line', { class: 'axis', x1: left, x2: left, y1: top, y2: H - bottom }),
  s('text', { class: 'tick', x: left, y: H - 6 }, t('profile.graphStart')),
  s('text', { class: 'tick', x: W - right, y: H - 6, 'text-anchor': 'end' }, t('profile.graphGame', { number: points.length })),
  s('polyline', { class: 'line', points: line }),
  s('circle', { class: 'start', cx: x(0), cy: y(START), r: 4 }, s('title', {}, t('profile.startPoint', { value: rating(START) }))),
  points.map((p, i) => s('circle', {
    class: 'point', cx: x(i + 1), cy: y(p.value), r: 4.5, 'data-value': p.value,
  }, s('title', {}, TEXT.point(i + 1, p.value, p.deviation, day(p.at))))));
}
