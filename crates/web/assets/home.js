// The home page: start a game against a friend or a bot, join one from a link, open the lab,
// look up a genome or preset by its code.

import { h, toast } from './dom.js';
import * as api from './api.js';
import { remember } from './seats.js';

export function gameLink(id, token) {
  const base = `${location.origin}${location.pathname}#/game/${encodeURIComponent(id)}`;
  return token ? `${base}?token=${encodeURIComponent(token)}` : base;
}

export function homePage(root) {
  const notice = h('p', { class: 'notice', role: 'alert' });
  const minutes = h('select', { id: 'clock-minutes', 'aria-label': 'Minutes per side' },
    [1, 3, 5, 10, 15].map((m) => h('option', { value: m, selected: m === 5 }, `${m} min`)));
  const side = h('select', { id: 'my-side', 'aria-label': 'Your side' },
    h('option', { value: 'white' }, 'White'), h('option', { value: 'black' }, 'Black'),
    h('option', { value: 'random' }, 'Random'));

  function options(bot) {
    let mine = side.value;
    if (mine === 'random') mine = Math.random() < 0.5 ? 'white' : 'black';
    const body = { clock: { initial_ms: Number(minutes.value) * 60000 } };
    if (bot) body[mine === 'white' ? 'black' : 'white'] = 'bot:search';
    return { body, mine };
  }

  async function start(bot) {
    notice.textContent = '';
    const { body, mine } = options(bot);
    try {
      const created = await api.createGame(body);
      const token = created.seats[mine].token;
      const other = mine === 'white' ? 'black' : 'white';
      const otherToken = created.seats[other]?.token;
      remember(created.id, { invite: otherToken ? gameLink(created.id, otherToken) : null });
      location.hash = `#/game/${encodeURIComponent(created.id)}?token=${encodeURIComponent(token)}`;
    } catch (error) {
      notice.textContent = bot && error.status >= 400 && error.status < 500
        ? `This server has no bot to play against (${error.message}).`
        : `The game could not be created: ${error.message}`;
    }
  }

  const joinField = h('input', {
    id: 'join-link', type: 'text', placeholder: 'paste an invite link or a game id', autocomplete: 'off',
    'aria-label': 'Invite link or game id',
  });
  function join(event) {
    event.preventDefault();
    const text = joinField.value.trim();
    if (!text) return;
    const fragment = text.includes('#') ? text.slice(text.indexOf('#')) : `#/game/${encodeURIComponent(text)}`;
    if (!fragment.startsWith('#/game/')) { toast('That is not a game link'); return; }
    location.hash = fragment;
  }

  const codeField = h('input', {
    id: 'lookup-code', type: 'text', placeholder: 'a code (3gbkd6), a name (rook) or default', autocomplete: 'off',
    spellcheck: 'false', 'aria-label': 'Genome or preset code',
  });
  function lookup(event) {
    event.preventDefault();
    const code = codeField.value.trim();
    if (code) location.hash = `#/code/${encodeURIComponent(code)}`;
  }

  root.replaceChildren(h('div', { class: 'home' },
    h('section', { class: 'panel hero' },
      h('h1', {}, 'GMO chess'),
      h('p', {}, 'Chess where every piece carries DNA, and the DNA alone decides how it moves. ',
        'Design pieces in the lab, share them by their 6-character code, put eight on your back rank, mark a king, and play.')),
    h('section', { class: 'panel' },
      h('h2', {}, 'Play'),
      h('div', { class: 'row' }, h('label', { for: 'clock-minutes' }, 'Clock'), minutes,
        h('label', { for: 'my-side' }, 'You play'), side),
      h('div', { class: 'row' },
        h('button', { id: 'new-friend-game', class: 'primary', type: 'button', onclick: () => start(false) }, 'Play a friend'),
        h('button', { id: 'new-bot-game', type: 'button', onclick: () => start(true) }, 'Play the bot')),
      h('p', { class: 'hint' }, 'Playing a friend gives you a link to send them; it opens their seat.'),
      notice),
    h('section', { class: 'panel' },
      h('h2', {}, 'Join a game'),
      h('form', { class: 'row', onsubmit: join }, joinField, h('button', { type: 'submit' }, 'Join'))),
    h('section', { class: 'panel' },
      h('h2', {}, 'Design pieces'),
      h('p', {}, 'Write DNA and watch your piece move on a sandbox board.'),
      h('a', { class: 'button primary', href: '#/lab', id: 'open-lab' }, 'Open the lab')),
    h('section', { class: 'panel' },
      h('h2', {}, 'Look up a code'),
      h('form', { class: 'row', onsubmit: lookup }, codeField, h('button', { type: 'submit' }, 'Look up')))));
  return () => {};
}
