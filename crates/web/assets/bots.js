// The bots (#/bots): the bot accounts online now with their ratings (GET /api/bots/online, best
// first), the bots' leaderboard (GET /api/leaderboard?pool=bots: bots are rated apart from
// people), and a challenge to one of them — or to a friend by name —
// whose answer is followed on the account's event stream: declined (with the bot's reason), or
// the game's start, which opens the game with the seat's token.

import { h } from './dom.js';
import * as api from './api.js';
import { signedIn } from './account.js';
import { profileHref, ratingText } from './players.js';
import { ndjson } from './stream.js';
import { showLeaders } from './leaderboard.js';
import { t, errorText, formatNumber, has } from './i18n.js';

const CLOCKS = [[60_000, 0], [180_000, 2_000], [300_000, 0], [600_000, 0]];
const SIZES = [[8, 8], [5, 5]];

export function botsPage(root) {
  let gone = false;
  let waiting = null; // the AbortController of the event stream a challenge waits on
  const list = h('div', { id: 'bots-list' }, h('p', { class: 'loading' }, t('loading')));
  const leaders = h('div', { id: 'bots-leaders' }, h('p', { class: 'loading' }, t('loading')));
  const form = challengeForm();
  root.replaceChildren(h('section', { class: 'panel bots', id: 'bots' },
    h('h1', {}, t('bots.title')),
    h('p', { class: 'hint' }, t('bots.intro')),
    list,
    form.el,
    h('h2', {}, t('bots.leadersTitle')),
    leaders));
  load();
  loadLeaders();
  return () => { gone = true; waiting?.abort(); };

  async function load() {
    let bots;
    try {
      bots = await api.botsOnline();
    } catch (error) {
      if (!gone) list.replaceChildren(h('p', { class: 'notice', role: 'alert' }, t('bots.failed', { message: errorText(error) })));
      return;
    }
    if (gone) return;
    if (!Array.isArray(bots) || bots.length === 0) {
      list.replaceChildren(h('p', { class: 'empty', id: 'bots-empty' }, t('bots.none')));
      return;
    }
    list.replaceChildren(h('table', { class: 'leaderboard-table', id: 'bots-table' },
      h('caption', {}, t('bots.caption')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('bots.name')), h('th', { scope: 'col', class: 'num' }, t('bots.rating')),
        h('th', { scope: 'col', class: 'num' }, t('bots.games')), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('bots.challenge'))))),
      h('tbody', {}, bots.map((bot) => h('tr', { 'data-bot': bot.username },
        h('th', { scope: 'row' }, h('a', { href: profileHref(bot.username) }, bot.username), ' ', h('span', { class: 'bot-badge' }, t('bots.badge'))),
        h('td', { class: 'num' }, ratingText(bot.rating, bot.provisional)),
        h('td', { class: 'num' }, formatNumber(Number(bot.games) || 0)),
        h('td', {}, signedIn() ? h('button', {
          type: 'button', class: 'challenge-bot', 'aria-label': t('bots.challengeName', { name: bot.username }),
          onclick: () => form.choose(bot.username),
        }, t('bots.challenge')) : ''))))));
  }

  function loadLeaders() {
    showLeaders(leaders, {
      id: 'bots-leaders', attr: 'data-bot',
      failed: (message) => t('bots.failed', { message }), empty: t('bots.leadersNone'),
      caption: t('bots.leadersCaption'), name: t('bots.name'),
      rating: t('bots.rating'), games: t('bots.games'),
    }, () => gone, 'bots');
  }

  function challengeForm() {
    if (!signedIn()) {
      return { el: h('p', { class: 'hint', id: 'bots-sign-in' }, h('a', { href: '#/signin?then=%23%2Fbots' }, t('bots.signIn'))), choose() {} };
    }
    const name = h('input', { id: 'challenge-name', name: 'username', required: true, maxlength: 32, autocomplete: 'off' });
    const clock = h('select', { id: 'challenge-clock' }, CLOCKS.map(([initial, increment], i) =>
      h('option', { value: String(i) }, t('bots.clock', { minutes: initial / 60_000, seconds: increment / 1000 }))));
    clock.value = '1';
    const size = h('select', { id: 'challenge-size' }, SIZES.map(([w, hh], i) => h('option', { value: String(i) }, `${w} × ${hh}`)));
    const color = h('select', { id: 'challenge-color' }, ['random', 'white', 'black'].map((c) => h('option', { value: c }, t(`bots.color.${c}`))));
    const status = h('p', { id: 'challenge-status', role: 'status', 'aria-live': 'polite' });
    const send = h('button', { type: 'submit', id: 'challenge-send' }, t('bots.send'));
    const el = h('form', { id: 'challenge-form', class: 'challenge-form', onsubmit: (event) => { event.preventDefault(); submit(); } },
      h('h2', {}, t('bots.formTitle')),
      h('label', { for: 'challenge-name' }, t('bots.whom')), name,
      h('label', { for: 'challenge-clock' }, t('bots.clockLabel')), clock,
      h('label', { for: 'challenge-size' }, t('bots.size')), size,
      h('label', { for: 'challenge-color' }, t('bots.colorLabel')), color,
      send, status);

    async function submit() {
      waiting?.abort();
      const [initial, increment] = CLOCKS[Number(clock.value)] || CLOCKS[1];
      const [width, height] = SIZES[Number(size.value)] || SIZES[0];
      const body = { clock: { initial_ms: initial, increment_ms: increment }, color: color.value, width, height };
      const whom = name.value.trim();
      status.textContent = t('bots.sending', { name: whom });
      // The stream is opened first, so that the answer cannot come before it listens.
      const controller = new AbortController();
      waiting = controller;
      const seen = new Set();
      let mine = null;
      const answer = waitAnswer(controller, seen, () => mine);
      try {
        mine = (await api.challengeUser(whom, body)).id;
        status.textContent = t('bots.waiting', { name: whom });
      } catch (error) {
        controller.abort();
        status.textContent = errorText(error);
        return;
      }
      const line = await answer;
      if (gone || !line) return;
      if (line.type === 'game_start') {
        status.textContent = t('bots.accepted', { name: whom });
        location.hash = `#/game/${encodeURIComponent(line.game.id)}?token=${encodeURIComponent(line.game.token)}`;
      } else if (line.type === 'challenge_declined') {
        const reason = has(`bots.reason.${line.reason}`) ? t(`bots.reason.${line.reason}`) : line.reason;
        status.textContent = t('bots.declined', { name: whom, reason });
      } else {
        status.textContent = t('bots.expired', { name: whom });
      }
    }

    return { el, choose(username) { name.value = username; name.focus(); } };
  }

  // The first line on the event stream that answers our challenge: its decline or cancel, or a
  // game that starts after it was made (games already running come first and are set aside).
  async function waitAnswer(controller, seen, mine) {
    try {
      const response = await fetch(api.accountEventsPath, { headers: { Accept: 'application/x-ndjson' }, signal: controller.signal, cache: 'no-store' });
      if (!response.ok) return null;
      for await (const line of ndjson(response.body)) {
        if (line.type === 'game_start') {
          if (mine() && !seen.has(line.game.id)) { controller.abort(); return line; }
          seen.add(line.game.id);
        } else if ((line.type === 'challenge_declined' || line.type === 'challenge_canceled') && line.id === mine()) {
          controller.abort();
          return line;
        }
      }
    } catch { /* aborted, or the stream broke */ }
    return null;
  }
}
