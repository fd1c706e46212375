// A side's words in its bar (who plays it, its colour, its state, the rating change) and the
// ratings under the result of a rated game.

import { h } from '../../dom.js';
import { remembered } from '../../seats.js';
import { isOver } from '../../stream.js';
import { title, botName } from '../../result.js';
import { playerTag, playerName, ratingText, diffText } from '../../players.js';
import { t } from '../../i18n.js';

// Who plays `color` — the account's name (a link to the profile) and its rating as the game
// began, "Anonymous" or "deleted player" in a game with an account in it, else "You",
// "Opponent" or the bot — its colour, its state and, once a rated game is over, the change.
export function playerLabel(c, color) {
  const view = c.view;
  const seat = view.seats[color];
  const bot = remembered(c.id).bot;
  const players = view.players || {};
  const accounts = !!(players.white || players.black);
  const player = players[color];
  let who;
  if (c.eventGame) who = h('strong', { class: 'team-name', id: `team-${color}` }, c.eventGame.teams[color].name);
  else if (player) who = playerTag(player, { id: `player-${color}` });
  else if (view.you === color) who = h('strong', {}, t('game.you'));
  else if (bot && view.you) who = h('strong', {}, botName(bot));
  else if (accounts) who = h('strong', { class: 'anonymous', id: `player-${color}` }, t('players.anonymous'));
  else who = h('strong', {}, view.you ? t('game.opponent') : title(color));
  const badges = [];
  if (view.status === 'setup') badges.push(t(seat.ready ? 'game.badge.ready' : seat.preset ? 'game.badge.settingUp' : 'game.badge.noPreset'));
  // While the first moves are timed the countdown beside the clock says who is to move.
  const counting = view.first_move_deadline && (view.moves_played > 0 ? 'black' : 'white') === color;
  if (view.status === 'in_progress' && view.to_move === color && !counting) badges.push(t('game.badge.toMove'));
  if (view.status === 'in_progress' && view.draw_offer === color) badges.push(t('game.badge.offersDraw'));
  const diff = c.ratingDiff && isOver(view) ? c.ratingDiff[color] : null;
  return h('div', { class: `player ${color}` },
    h('span', { class: `dot ${color}`, 'aria-hidden': 'true' }),
    who, (player || c.eventGame) && view.you === color ? ` (${t('game.youMark')}, ${title(color)})` : ` (${title(color)})`,
    diff !== null && diff !== undefined ? h('span', {
      class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : ''}`, id: `rating-diff-${color}`, title: t('game.ratingChange'),
    }, diffText(diff)) : null,
    badges.length ? h('span', { class: 'badge' }, badges.join(', ')) : null);
}

// Under the result of a rated game: each player's rating before and after.
export function ratingResult(c) {
  const view = c.view;
  if (!c.ratingDiff || !view.players) return null;
  const lines = ['white', 'black'].filter((color) => view.players[color]).map((color) => {
    const player = view.players[color];
    const diff = c.ratingDiff[color] || 0;
    const name = view.you === color ? t('game.you') : playerName(player);
    return `${name}: ${ratingText(player.rating, player.provisional)} → ${Math.round(player.rating + diff)} (${diffText(diff)})`;
  });
  return lines.length ? h('p', { class: 'result-rating', id: 'result-rating' }, lines.join(' · ')) : null;
}
