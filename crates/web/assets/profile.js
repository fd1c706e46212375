// A player's profile (#/@/{name}): the rating (`?` while provisional) and its deviation, the
// results, the rating after each rated game drawn as an SVG graph, and the games, newest first,
// 50 a page. From GET /api/users/{name}, …/rating-history and …/games?before=.

import { h, s } from './dom.js';
import * as api from './api.js';
import { signedIn } from './account.js';
import { accountGameRow, ratingText, sameName } from './players.js';

const PAGE = 50; // the server's page of games
const START = 1500; // a new player's rating

const TEXT = {
  noSuchPlayer: 'No such player',
  noSuchText: (name) => `Nobody is called “${name}” on this server (or the account was deleted).`,
  failed: (message) => `The profile could not be loaded: ${message}`,
  you: 'This is you.',
  provisional: 'provisional: it settles after more rated games',
  provisionalNote: 'The ? means the rating is provisional: it is still uncertain, and settles after more rated games.',
  deviation: (d) => `± ${d}`,
  rated: (n) => `${n} rated game${n === 1 ? '' : 's'}`,
  since: (date) => `Playing since ${date}`,
  graphTitle: (name) => `The rating of ${name} after each rated game`,
  graphDesc: (n, first, last, high, low) =>
    `${n} rated game${n === 1 ? '' : 's'}: from ${START} to ${last}${n > 1 ? `, after ${first} at first` : ''}; highest ${high}, lowest ${low}.`,
  noGraph: 'No rated games yet: the graph starts with the first one.',
  point: (i, value, deviation, date) => `After rated game ${i}${date ? ` (${date})` : ''}: ${value} ± ${deviation}`,
  noGames: 'No games yet.',
  older: 'Older games',
  olderFailed: (message) => `Older games could not be loaded: ${message}`,
};

const day = (rfc3339) => {
  const at = new Date(rfc3339);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
};

export function profilePage(root, name) {
  let gone = false;
  root.replaceChildren(h('section', { class: 'panel' }, h('p', { class: 'loading' }, 'Loading…')));
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
          h('h1', {}, TEXT.noSuchPlayer),
          h('p', { class: 'notice', role: 'alert' }, TEXT.noSuchText(name)),
          h('div', { class: 'row' },
            h('a', { class: 'button', href: '#/leaderboard' }, 'The leaderboard'),
            h('a', { class: 'button primary', href: '#/' }, 'Back to the home page'))));
        document.title = 'No such player — GMO chess';
      } else {
        root.replaceChildren(h('section', { class: 'panel' }, h('p', { class: 'notice', role: 'alert' }, TEXT.failed(error.message))));
      }
      return;
    }
    if (gone) return;
    render(profile, Array.isArray(points) ? points : [], Array.isArray(games) ? games : []);
  }

  function render(profile, points, games) {
    const me = signedIn();
    const own = !!(me && sameName(me.username, profile.username));
    const rating = profile.rating;
    const counts = profile.counts;
    const count = (key, label) => h('div', { class: 'count', 'data-count': key },
      h('dt', {}, label), h('dd', { id: `profile-${key}` }, String(counts[key])));
    const list = h('ul', { class: 'game-rows', id: 'profile-games' });
    const more = h('button', { type: 'button', id: 'profile-older', hidden: games.length < PAGE, onclick: older }, TEXT.older);
    const moreNote = h('p', { class: 'notice', role: 'alert' });
    let last = games.length ? games[games.length - 1].id : null;
    const add = (page) => list.append(...page.map((view) => accountGameRow(view, profile.username, { own })));
    if (games.length) add(games);
    else list.append(h('li', { class: 'empty hint', id: 'profile-no-games' }, TEXT.noGames));

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
        moreNote.textContent = TEXT.olderFailed(error.message);
      } finally {
        more.disabled = false;
      }
    }

    root.replaceChildren(h('div', { class: 'profile', id: 'profile' },
      h('section', { class: 'panel profile-head' },
        h('h1', { id: 'profile-name' }, profile.username),
        own ? h('p', { class: 'hint', id: 'profile-own' }, TEXT.you) : null,
        h('p', { class: 'rating-line' },
          h('span', { class: 'big-rating', id: 'profile-rating', title: rating.provisional ? TEXT.provisional : 'rating' },
            ratingText(rating.value, rating.provisional)),
          ' ', h('span', { class: 'deviation', id: 'profile-deviation', title: 'how uncertain the rating is' }, TEXT.deviation(rating.deviation)),
          ' · ', h('span', { id: 'profile-rated-games' }, TEXT.rated(rating.games))),
        rating.provisional ? h('p', { class: 'hint', id: 'profile-provisional' }, TEXT.provisionalNote) : null,
        h('dl', { class: 'counts', id: 'profile-counts' },
          count('games', 'Games'), count('wins', 'Wins'), count('draws', 'Draws'), count('losses', 'Losses')),
        profile.created_at ? h('p', { class: 'hint' }, TEXT.since(day(profile.created_at))) : null),
      h('section', { class: 'panel profile-graph' },
        h('h2', {}, 'Rating'),
        points.length ? ratingGraph(points, profile.username)
          : h('p', { class: 'hint', id: 'rating-graph-empty' }, TEXT.noGraph)),
      h('section', { class: 'panel profile-games' },
        h('h2', {}, own ? 'My games' : 'Games'),
        list, h('div', { class: 'row' }, more), moreNote)));
    document.title = `${profile.username} — GMO chess`;
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
      s('text', { class: 'tick', x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v)));
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
  s('text', { class: 'tick', x: left, y: H - 6 }, 'start'),
  s('text', { class: 'tick', x: W - right, y: H - 6, 'text-anchor': 'end' }, `game ${points.length}`),
  s('polyline', { class: 'line', points: line }),
  s('circle', { class: 'start', cx: x(0), cy: y(START), r: 4 }, s('title', {}, `Start: ${START}`)),
  points.map((p, i) => s('circle', {
    class: 'point', cx: x(i + 1), cy: y(p.value), r: 4.5, 'data-value': p.value,
  }, s('title', {}, TEXT.point(i + 1, p.value, p.deviation, day(p.at))))));
}
