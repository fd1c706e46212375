// The invite panel (a game against a friend, in setup) and the line naming an event's game.

import { h, fill, copyButton } from '../../dom.js';
import { remembered } from '../../seats.js';
import { gameLink } from '../../home.js';
import { opponentJoined, ofSide, other } from '../../result.js';
import { t } from '../../i18n.js';

export function renderInvite(c, invite) {
  const view = c.view;
  const link = remembered(c.id).invite;
  if (!view.you || view.status !== 'setup' || !link) { invite.replaceChildren(); return; }
  const them = other(view.you);
  const field = h('input', { id: 'invite-link', type: 'text', readonly: true, value: link, 'aria-label': t('game.invite.link') });
  const joined = opponentJoined(view, them);
  fill(invite, h('section', { class: 'panel invite' },
    h('h3', {}, t('game.invite.title')),
    h('p', {}, t('game.invite.send', { seat: ofSide(them) })),
    h('div', { class: 'row' }, field, copyButton(() => link)),
    h('p', { class: joined ? 'joined' : 'hint', id: 'invite-state' },
      joined ? t('game.invite.opened', { seat: ofSide(them) }) : t('game.invite.waiting', { seat: ofSide(them) })),
    h('p', { class: 'hint' }, t('game.invite.spectators'), h('a', { href: gameLink(c.id) }, t('game.invite.watchLink')))));
}

// An event's game names its event, round, board and teams, and offers the way back to the event
// where other games offer an abort, a rematch or a new game (the server refuses those:
// `event_game`).
export function renderEvent(c, line) {
  line.hidden = !c.inEvent();
  if (line.hidden) return;
  const home = c.eventHome();
  const game = c.eventGame;
  const about = game ? t('game.eventBoard', {
    event: game.name, round: game.round, board: game.board,
    white: game.teams.white.name, black: game.teams.black.name,
  }) : null;
  fill(line, about, about ? ' ' : null, h('a', { href: home.href, id: 'game-event-link' }, home.text));
}
