// Players in words: names, ratings ("1500?" while provisional), rating changes ("+12", "−12"),
// and a row of a player's games (a profile's list and, signed in, "My games").

import { h } from './dom.js';
import { endText, title } from './result.js';
import { heldSeats } from './seats.js';
import { isOver } from './stream.js';
import { t } from './i18n.js';

// A rating as players read it: rounded, `?` while provisional (deviation 110 or more).
export const ratingText = (value, provisional) => `${Math.round(Number(value) || 0)}${provisional ? '?' : ''}`;

// A change of rating with its sign: "+12", "−12" (a real minus sign), "±0".
export function diffText(diff) {
  const n = Math.round(Number(diff) || 0);
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '±0';
}

// The link to a player's profile.
export const profileHref = (name) => `#/@/${encodeURIComponent(name)}`;

// A game view's player of `color` ({username|null, rating, provisional, deleted} or null), in
// words: its name, "deleted player" once the account is gone, "Anonymous" for a seat without
// an account.
export function playerName(player) {
  if (!player) return t('players.anonymous');
  if (player.deleted || !player.username) return t('players.deleted');
  return player.username;
}

export const sameName = (a, b) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

// The side `name` plays in `view` (from its `players`), or null.
export function colorOf(view, name) {
  const players = view && view.players;
  if (!players) return null;
  for (const color of ['white', 'black']) {
    if (players[color] && sameName(players[color].username, name)) return color;
  }
  return null;
}

// A player with a link to their profile (a name only for an anonymous or deleted one) and the
// rating they had when the game began.
export function playerTag(player, { id } = {}) {
  const name = playerName(player);
  const named = player && !player.deleted && player.username;
  return h('span', { class: 'player-tag', id },
    named ? h('a', { href: profileHref(player.username), class: 'player-name' }, name) : h('span', { class: 'player-name anonymous' }, name),
    player ? h('span', { class: 'player-rating', title: t(player.provisional ? 'players.provisional' : 'players.rating') }, ` ${ratingText(player.rating, player.provisional)}`) : null);
}

// One of `name`'s games (a spectator's view from GET /api/users/{name}/games) as a row: the side,
// the opponent with the rating, the state or the end in words, rated or casual and the rating
// change, the moves. `own`: the signed-in player's own list ("You play White", "You won: …").
// The link opens the seat when this browser holds it, else the record of a finished game, else
// the game as a spectator.
export function accountGameRow(view, name, { own = false } = {}) {
  const color = colorOf(view, name) || 'white';
  const them = color === 'white' ? 'black' : 'white';
  const seat = heldSeats().find((held) => held.id === view.id && (!held.color || held.color === color));
  const over = isOver(view);
  const id = encodeURIComponent(view.id);
  const href = seat ? `#/game/${id}?token=${encodeURIComponent(seat.token)}`
    : over && view.status !== 'aborted' ? `#/record/${id}` : `#/game/${id}`;
  let state;
  let kind = 'over';
  if (view.status === 'setup') {
    kind = 'ongoing';
    state = t('players.setup');
  } else if (view.status === 'in_progress') {
    kind = own && view.to_move === color ? 'your-move' : 'ongoing';
    state = own ? t(view.to_move === color ? 'players.yourMove' : 'players.theirMove') : t('players.toMove', { color: title(view.to_move) });
  } else {
    // The end from this player's side when it is the reader's own game, else by colour.
    state = endText(own ? { ...view, you: color } : { ...view, you: null });
  }
  const diff = view.rating_diff ? view.rating_diff[color] : null;
  const opponent = view.players ? view.players[them] : null;
  return h('li', { class: `game-row ${kind}`, 'data-game': view.id, 'data-status': view.status, 'data-color': color },
    h('a', { href, class: 'game-link' },
      h('span', { class: `dot ${color}`, 'aria-hidden': 'true' }),
      // A game over is told in the past ("You played Black against …"), one going on in the present.
      h('span', { class: 'who' }, t(own ? (over ? 'players.youPlayed' : 'players.youPlay') : (over ? 'players.played' : 'players.plays'),
        { name, color: t(`players.with.${color}`), opponent: playerName(opponent) }),
        opponent ? ` (${ratingText(opponent.rating, opponent.provisional)})` : ''),
      h('span', { class: 'state' }, state),
      h('span', { class: `kind ${view.rated ? 'rated' : 'casual'}` }, t(view.rated ? 'rated' : 'casual')),
      diff !== null && diff !== undefined ? h('span', { class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : ''}` }, diffText(diff)) : null,
      h('span', { class: 'moves-played' }, t('moves', { count: Math.ceil((view.moves_played || 0) / 2) }))));
}
