// The projector view for the room, #/events/{id}/screen: every board of the current round, large
// and live, the team names over each, its clocks and result, with the standings beside them.
// It follows the event's stream, so a new round's boards replace the old ones, and each game's
// stream as a spectator (the server hides from spectators what the players may not see). It
// stands without the site's header (style.css): a screen for the room, not a page to browse.

import { h, fill } from './dom.js';
import { Board } from './board.js';
import { Clocks } from './clock.js';
import { follow, isOver } from './stream.js';
import { resultText as gameResult } from './result.js';
import {
  followEventPage, eventHref, teamName, summaryAndStatus, currentRound, standingsTable, resultText,
} from './events.js';
import { t } from './i18n.js';

export function screenPage(root, id) {
  let view = null;
  let gone = false;
  let shownRound = null; // the number of the round whose boards are up
  let tiles = new Map(); // game id → {board, clocks, stream, el, state}

  const title = h('h1', { id: 'screen-title' }, t('events.event'));
  const about = h('p', { class: 'screen-summary', id: 'screen-summary' });
  const roundTitle = h('h2', { id: 'screen-round' });
  const boards = h('div', { class: 'screen-boards', id: 'screen-boards' });
  const byes = h('p', { class: 'screen-byes', id: 'screen-byes' });
  const standings = h('div', { id: 'screen-standings' });
  // A line under the boards: the link to the event and, while there is one, the connection's
  // state (the separator is the style sheet's, so nothing dangles when it says nothing).
  const connection = h('span', { class: 'connection', id: 'screen-connection' });

  root.replaceChildren(h('div', { class: 'screen-page' },
    h('header', { class: 'screen-head' }, title, about),
    h('div', { class: 'screen-cols' },
      h('section', { class: 'screen-games', 'aria-labelledby': 'screen-round' }, roundTitle, boards, byes),
      h('aside', { class: 'panel screen-side' }, h('h2', {}, t('events.standings')), standings)),
    h('p', { class: 'hint screen-foot', id: 'screen-foot' }, h('a', { href: eventHref(id) }, t('events.theEvent')), connection)));

  const stream = followEventPage(id, {
    gone: () => gone,
    connection,
    onView(next) {
      view = next;
      render();
    },
  });

  function render() {
    title.textContent = view.name;
    document.title = t('screen.title', { name: view.name });
    about.textContent = summaryAndStatus(view);
    fill(standings, standingsTable(view, { id: 'screen-standings-table' }));
    const round = currentRound(view);
    if (!round) {
      roundTitle.textContent = t('screen.waiting');
      closeTiles();
      fill(boards, h('p', { class: 'hint' }, t('screen.boardsSoon')));
      byes.textContent = '';
      return;
    }
    roundTitle.textContent = view.rounds_planned ? t('screen.roundOf', { number: round.number, planned: view.rounds_planned })
      : t('events.round', { number: round.number });
    if (shownRound !== round.number) {
      shownRound = round.number;
      closeTiles();
      boards.replaceChildren(...round.pairings.filter((p) => p.game).map((p) => tile(p)));
    }
    for (const pairing of round.pairings) {
      const one = pairing.game && tiles.get(pairing.game);
      if (one) one.result.textContent = pairing.result ? resultText(pairing) : '';
    }
    const bye = round.pairings.filter((p) => !p.black).map((p) => teamName(view, p.white));
    byes.textContent = bye.length ? t('screen.byes', { teams: bye.join(', ') }) : '';
  }

  // One game: "White team – Black team" over its board, the clocks, the state; followed live.
  function tile(pairing) {
    const board = new Board({ label: t('screen.board', { white: teamName(view, pairing.white), black: teamName(view, pairing.black) }) });
    const clocks = new Clocks();
    const state = h('p', { class: 'screen-state' }, t('events.connection.connecting'));
    const result = h('span', { class: 'screen-result' });
    const el = h('article', { class: 'screen-game', 'data-game': pairing.game },
      h('h3', { class: 'screen-teams' },
        h('span', { class: 'team white' }, h('span', { class: 'dot white', 'aria-hidden': 'true' }), teamName(view, pairing.white)),
        h('span', { class: 'versus' }, ' – '),
        h('span', { class: 'team black' }, h('span', { class: 'dot black', 'aria-hidden': 'true' }), teamName(view, pairing.black)),
        ' ', result),
      h('div', { class: 'screen-clocks' }, clocks.els.white, clocks.els.black),
      board.el, state);
    let last = [];
    const one = { board, clocks, el, result, state, stream: null };
    one.stream = follow(pairing.game, null, {
      onLine(line) {
        const game = line.game && typeof line.game === 'object' ? line.game : null;
        if (!game || gone) return;
        if (line.ply && line.type === 'move') last = [line.ply.from, line.ply.landed || line.ply.to];
        board.draw({ width: game.width, height: game.height, pieces: game.board || [], last });
        clocks.update(game.clocks, performance.now(), game.status === 'in_progress');
        el.dataset.status = game.status;
        // Each side by its team: "Orli won — by resignation", "Sokoly to move".
        const teams = { white: teamName(view, pairing.white), black: teamName(view, pairing.black) };
        state.textContent = isOver(game) ? gameResult(game, teams)
          : game.status === 'setup' ? t('screen.settingUp') : t('screen.toMove', { color: teams[game.to_move] || '' });
      },
      onStatus(status, message) {
        if (status === 'failed') state.textContent = t('screen.failed', { message });
      },
    });
    tiles.set(pairing.game, one);
    return el;
  }

  function closeTiles() {
    for (const one of tiles.values()) {
      one.stream.close();
      one.clocks.stop();
    }
    tiles = new Map();
  }

  return () => {
    gone = true;
    stream.close();
    closeTiles();
  };
}
