// The home page: the games this browser holds a seat in (signed in: the account's games, on any
// browser, and this browser's others), start a game against a friend or a bot, join one from a
// link, open the lab, look up a genome or preset by its code.

import { h, fill, toast } from './dom.js';
import * as api from './api.js';
import { remember, forget, heldSeats } from './seats.js';
import { endText, opponentJoined, botName } from './result.js';
import { History, lastLoss } from './history.js';
import { lobbyPanel } from './lobby.js';
import { setupChoice, saveSetupChoice } from './setup.js';
import { signedIn } from './account.js';
import { colorOf, playerName, ratingText, diffText } from './players.js';
import { t, errorText } from './i18n.js';

// The bot the home page plays: the alpha-beta search of docs/bots.md.
export const BOT = 'bot:search';

const TEXT = {
  auto: (preset) => t('home.setup.auto', { preset }),
  against: (bot) => t('home.against', { name: botName(bot) }),
  opponent: (player) => t('home.against', { name: `${playerName(player)}${player ? ` (${ratingText(player.rating, player.provisional)})` : ''}` }),
};

// Creates a game (against the bot when `bot`), remembers the seat and opens it. `preset` sets
// this game's preset (else the player's own is used). Rejects with the server's ApiError.
export async function startGame({ bot = null, clock = { initial_ms: 300000, increment_ms: 0 }, side = 'white', preset = null } = {}) {
  const mine = side === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : side;
  const other = mine === 'white' ? 'black' : 'white';
  const body = { clock };
  if (bot) body[other] = bot;
  const created = await api.createGame(body);
  const token = created.seats[mine].token;
  const otherToken = created.seats[other]?.token;
  const facts = { token, color: mine, invite: otherToken ? gameLink(created.id, otherToken) : null, bot: bot || false };
  if (preset) facts.preset = preset;
  remember(created.id, facts);
  location.hash = `#/game/${encodeURIComponent(created.id)}?token=${encodeURIComponent(token)}`;
}

export function gameLink(id, token) {
  const base = `${location.origin}${location.pathname}#/game/${encodeURIComponent(id)}`;
  return token ? `${base}?token=${encodeURIComponent(token)}` : base;
}

export function homePage(root) {
  const notice = h('p', { class: 'notice', role: 'alert' });
  const minutes = h('select', { id: 'clock-minutes', 'aria-label': t('home.minutesLabel') },
    [1, 3, 5, 10, 15].map((m) => h('option', { value: m, selected: m === 5 }, t('home.minutes', { count: m }))));
  const increment = h('select', { id: 'clock-increment', 'aria-label': t('home.incrementLabel') },
    [0, 1, 2, 3, 5, 10].map((sec) => h('option', { value: sec, selected: sec === 0 }, `+${sec} s`)));
  const side = h('select', { id: 'my-side', 'aria-label': t('home.sideLabel') },
    h('option', { value: 'white' }, t('color.White')), h('option', { value: 'black' }, t('color.Black')),
    h('option', { value: 'random' }, t('home.random')));

  async function start(bot) {
    notice.textContent = '';
    try {
      await startGame({
        bot: bot ? BOT : null, side: side.value,
        clock: { initial_ms: Number(minutes.value) * 60000, increment_ms: Number(increment.value) * 1000 },
      });
    } catch (error) {
      notice.textContent = bot && error.status >= 400 && error.status < 500 ? t('home.noBot', { message: errorText(error) }) : t('home.notCreated', { message: errorText(error) });
    }
  }

  const joinField = h('input', {
    id: 'join-link', type: 'text', placeholder: t('home.join.placeholder'), autocomplete: 'off',
    'aria-label': t('home.join.label'),
  });
  function join(event) {
    event.preventDefault();
    const text = joinField.value.trim();
    if (!text) return;
    const fragment = text.includes('#') ? text.slice(text.indexOf('#')) : `#/game/${encodeURIComponent(text)}`;
    if (!fragment.startsWith('#/game/')) { toast(t('home.join.notLink')); return; }
    location.hash = fragment;
  }

  const codeField = h('input', {
    id: 'lookup-code', type: 'text', placeholder: t('home.lookup.placeholder'), autocomplete: 'off',
    spellcheck: 'false', 'aria-label': t('home.lookup.label'),
  });
  function lookup(event) {
    event.preventDefault();
    const code = codeField.value.trim();
    if (code) location.hash = `#/code/${encodeURIComponent(code)}`;
  }

  const mine = h('section', { class: 'panel my-games', id: 'my-games', hidden: true },
    h('h2', {}, t('home.myGames')), h('p', { class: 'hint' }, t('loading')));
  let gone = false;
  myGames(mine, () => gone);

  const lobby = lobbyPanel();
  root.replaceChildren(h('div', { class: 'home' },
    h('section', { class: 'panel hero' },
      h('h1', {}, t('brand')),
      h('p', {}, t('home.intro')),
      h('p', {}, h('a', { href: '#/rules', id: 'rules-link' }, t('home.rulesLink')), t('home.rulesAfter'))),
    mine,
    eventsPanel(),
    setupPanel(),
    lobby.element,
    h('section', { class: 'panel' },
      h('h2', {}, t('home.play')),
      h('div', { class: 'row' }, h('label', { for: 'clock-minutes' }, t('home.clock')), minutes, increment,
        h('label', { for: 'my-side' }, t('home.youPlay')), side),
      h('div', { class: 'row' },
        h('button', { id: 'new-friend-game', class: 'primary', type: 'button', onclick: () => start(false) }, t('home.playFriend')),
        h('button', { id: 'new-bot-game', type: 'button', onclick: () => start(true) }, t('home.playBot'))),
      h('p', { class: 'hint' }, t('home.friendHint')),
      notice),
    h('section', { class: 'panel' },
      h('h2', {}, t('home.join.title')),
      h('form', { class: 'row', onsubmit: join }, joinField, h('button', { type: 'submit' }, t('home.join.button')))),
    h('section', { class: 'panel' },
      h('h2', {}, t('home.design.title')),
      h('p', {}, t('home.design.text')),
      h('a', { class: 'button primary', href: '#/lab', id: 'open-lab' }, t('home.design.open'))),
    h('section', { class: 'panel' },
      h('h2', {}, t('home.lookup.title')),
      h('form', { class: 'row', onsubmit: lookup }, codeField, h('button', { type: 'submit' }, t('home.lookup.button'))))));
  return () => { gone = true; lobby.leave(); };
}

// Events: teams play each other in rounds. Signed in, the way to run one; for everyone, how a
// team gets in (the organiser's join link or code).
function eventsPanel() {
  const account = signedIn();
  return h('section', { class: 'panel', id: 'events-panel' },
    h('h2', {}, t('home.events.title')),
    h('p', {}, t('home.events.text')),
    account ? h('div', { class: 'row' }, h('a', { class: 'button primary', href: '#/events/new', id: 'run-event' }, t('home.events.run')))
      : h('p', { class: 'hint' }, h('a', { href: `#/signin?then=${encodeURIComponent('#/events/new')}` }, t('account.signIn')), t('home.events.signInAfter')),
    h('p', { class: 'hint' }, t('home.events.join')));
}

// The player's setup for new games (setup.js): at once with their preset, or by hand.
function setupPanel() {
  const choice = setupChoice();
  const note = h('p', { class: 'hint', id: 'my-setup-note' });
  const box = h('input', { type: 'checkbox', id: 'customise-setup', checked: choice.customise });
  const field = h('input', {
    id: 'my-preset', type: 'text', value: choice.preset, autocomplete: 'off', spellcheck: 'false',
    'aria-label': t('home.setup.preset'), placeholder: t('home.setup.presetHint'),
  });
  const show = () => {
    const now = setupChoice();
    note.textContent = now.customise ? t('home.setup.custom') : TEXT.auto(now.preset);
  };
  box.addEventListener('change', () => { saveSetupChoice({ customise: box.checked }); show(); });
  field.addEventListener('input', () => { saveSetupChoice({ preset: field.value.trim() }); show(); });
  show();
  return h('section', { class: 'panel my-setup', id: 'my-setup' },
    h('h2', {}, t('home.setup.title')),
    h('div', { class: 'row' },
      h('label', { for: 'my-preset' }, t('home.setup.preset')), field,
      h('label', { class: 'check' }, box, ' ', t('home.setup.customise'))),
    note);
}

const SHOWN = 20; // the most recent seats asked about on each visit

// "My games": every seat this browser holds, asked of the server as that seat, ongoing games
// first (yours to move before the others), then the recent results; one click back into each.
// Signed in, the account's games come first from the server (GET /api/users/{name}/games, the
// newest 50), so another browser shows them too; a game of theirs this browser holds no seat of
// opens as the record (finished) or as a spectator (live).
async function myGames(panel, isGone) {
  const account = signedIn();
  let mine = [];
  let failed = null;
  if (account) {
    try {
      mine = await api.userGames(account.username);
    } catch (error) {
      failed = error;
    }
  }
  if (isGone()) return;
  const held = heldSeats();
  const fromAccount = (Array.isArray(mine) ? mine : []).map((view) => {
    const color = colorOf(view, account.username) || 'white';
    const seat = held.find((one) => one.id === view.id && (!one.color || one.color === color));
    return { seat: seat || { id: view.id, color, token: null }, view: { ...view, you: color }, account: true };
  });
  const known = new Set(fromAccount.map((answer) => answer.seat.id));
  const seats = held.filter((seat) => !known.has(seat.id)).slice(0, SHOWN);
  if (seats.length === 0 && fromAccount.length === 0 && !failed) return;
  panel.hidden = false;
  const answers = await Promise.all(seats.map(async (seat) => {
    try {
      return { seat, view: await api.game(seat.id, seat.token) };
    } catch (error) {
      return { seat, error };
    }
  }));
  if (isGone()) return;
  const rank = ({ view }) => {
    if (!view) return 3;
    if (view.status === 'in_progress' || view.status === 'setup') return view.to_move === view.you && view.status === 'in_progress' ? 0 : 1;
    return 2;
  };
  // The account's games are newest first: they keep that order within each rank.
  const all = [...fromAccount, ...answers].map((answer, order) => ({ ...answer, order }));
  const rows = all
    .sort((a, b) => rank(a) - rank(b) || (a.account && b.account ? a.order - b.order : (b.seat.at || 0) - (a.seat.at || 0)))
    .map((answer) => gameRow(answer));
  fill(panel, h('h2', {}, t('home.myGames')),
    account ? h('p', { class: 'hint', id: 'my-games-source' }, failed ? t('home.accountFailed', { message: errorText(failed) }) : t('home.accountGames', { name: account.username })) : null,
    h('ul', { class: 'game-rows', id: 'my-games-list' }, rows));
}

function gameRow({ seat, view, error }) {
  const id = encodeURIComponent(seat.id);
  // Without a seat here (an account's game played on another browser): the record of a finished
  // game, else the game as a spectator.
  const href = seat.token ? `#/game/${id}?token=${encodeURIComponent(seat.token)}`
    : view && view.status !== 'setup' && view.status !== 'in_progress' && view.status !== 'aborted' ? `#/record/${id}` : `#/game/${id}`;
  if (!view) {
    const why = error && error.status === 404 ? t('home.row.gone') : t('home.row.unreachable', { message: error ? errorText(error) : '?' });
    return h('li', { class: 'game-row gone', 'data-game': seat.id },
      h('span', {}, t('home.row.game', { id: seat.id, why })), ' ',
      h('button', { type: 'button', class: 'small', onclick: (event) => { forget(seat.id); event.target.closest('li').remove(); } }, t('home.row.forget')));
  }
  const color = view.you || seat.color || 'white';
  const side = color === 'white' ? t('color.White') : t('color.Black');
  const other = color === 'white' ? 'black' : 'white';
  let state;
  let kind = 'over';
  if (view.status === 'setup') {
    kind = 'ongoing';
    state = t('home.row.setup');
    if (seat.invite) state += opponentJoined(view, other) ? t('home.row.friendOpened') : t('home.row.friendWaiting');
  } else if (view.status === 'in_progress') {
    kind = view.to_move === color ? 'your-move' : 'ongoing';
    state = view.to_move === color ? t('home.row.yourMove') : t('home.row.theirMove');
  } else {
    state = outcome(view, seat);
  }
  const players = view.players || {};
  const named = players.white || players.black;
  const diff = view.rating_diff ? view.rating_diff[color] : null;
  return h('li', { class: `game-row ${kind}`, 'data-game': seat.id, 'data-status': view.status },
    h('a', { href, class: 'game-link' },
      h('span', { class: `dot ${color}`, 'aria-hidden': 'true' }),
      // A game over is told in the past ("You played Black against …").
      h('span', { class: 'who' }, t(kind === 'over' ? 'home.row.youPlayed' : 'home.row.youPlay', { side, against: seat.bot ? TEXT.against(seat.bot) : named ? TEXT.opponent(players[other]) : '' })),
      h('span', { class: 'state' }, state),
      view.rated ? h('span', { class: 'kind rated' }, t('rated')) : null,
      diff !== null && diff !== undefined ? h('span', { class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : ''}` }, diffText(diff)) : null,
      // Moves as chess players count them: a move is White's and Black's (1. e3 e6 is one).
      h('span', { class: 'moves-played' }, t('moves', { count: Math.ceil(view.moves_played / 2) }))));
}

// The end in the result box's words, from the player's side ("You won: Black resigned"), with
// the last move this browser kept (history.js) for the king it cost.
function outcome(view, seat) {
  const known = view.you ? lastLoss(new History(seat.id, view.you), view) : null;
  return endText(view, known);
}
