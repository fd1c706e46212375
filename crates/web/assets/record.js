// The record of a finished game, replayed on a board (#/record/{id}): the plies from
// GET /api/games/{id}/record, the position after each from GET /api/games/{id}/positions (every
// genome open once the game is over); « ‹ › » and ← → Home End step through it, a click on a move
// jumps there. The board, the move list and the players' bars with their (final) clocks are the
// game page's views (view/); the analysis (analysis.js) adds the evaluation graph, marks beside
// the moves and the better move as an arrow. "Explore from here" opens the position in a lab.

import { h } from './dom.js';
import * as api from './api.js';
import { Board } from './board.js';
import { Clocks } from './clock.js';
import { plyText, lastLoss } from './history.js';
import { resultText, endText, title } from './result.js';
import { remembered } from './seats.js';
import { playerTag } from './players.js';
import { keepLab } from './lab.js';
import { analysisPanel } from './analysis.js';
import { drawPosition } from './view/board.js';
import { moveNav, moveList, renderMoves } from './view/moves.js';
import { playerBars, fillBars } from './view/players.js';
import { t, errorText, withElements } from './i18n.js';

export function recordPage(root, id) {
  const board = new Board({ label: t('record.board') });
  const clocks = new Clocks();
  const bars = playerBars();
  const where = h('p', { class: 'status', id: 'record-where', 'aria-live': 'polite' });
  const story = h('p', { class: 'result-story', id: 'record-story' });
  const result = h('p', { class: 'result-text', id: 'record-result' });
  const notice = h('p', { class: 'notice', role: 'alert', id: 'record-notice' }, t('record.loading'));
  const moves = moveList('record-moves', t('record.moves'));
  const seat = remembered(id);
  const gameHref = `#/game/${encodeURIComponent(id)}${seat.token ? `?token=${encodeURIComponent(seat.token)}` : ''}`;
  let flipped = seat.color === 'black';
  let record = null;
  let boards = []; // position k: the board after the first k plies (0: the start)
  let dangers = [];
  let at = -1; // the entry shown: -1 is the start
  let gone = false;

  const analysis = analysisPanel(id, {
    describe: (ply) => (record && record.plies[ply - 1] ? plyText(record.plies[ply - 1], boards[ply]) : ''),
    onPick: (ply) => showAt(ply - 1),
    onChange: () => { if (record) { draw(); renderList(); } },
  });
  const nav = moveNav('record', {
    group: 'record.steps', first: 'record.first', prev: 'record.prev', next: 'record.next', last: 'record.last',
  }, { first: () => showAt(-1), prev: () => showAt(at - 1), next: () => showAt(at + 1), last: () => showAt(entries().length - 1) });
  const exploreNote = h('p', { class: 'notice', role: 'alert', id: 'record-explore-notice' });
  const explore = h('button', { type: 'button', id: 'record-explore', title: t('record.exploreTitle'), onclick: exploreHere }, t('record.explore'));

  root.replaceChildren(h('div', { class: 'game-page record-page' },
    h('div', { class: 'board-col' }, bars.top, h('div', { class: 'board-wrap' }, board.el), bars.bottom, nav, where,
      h('div', { class: 'row' }, explore), exploreNote),
    h('aside', { class: 'side-col' },
      h('section', { class: 'panel' },
        h('h1', { class: 'game-title' }, withElements(t('record.heading'), { id: h('code', {}, id) })),
        story, result, notice,
        h('p', { class: 'hint keys-hint', id: 'record-keys' }, t('record.keys')),
        h('div', { class: 'row' },
          h('a', { class: 'button', href: gameHref, id: 'record-back' }, t('record.back')),
          h('button', { type: 'button', id: 'record-flip', onclick: () => { flipped = !flipped; draw(); } }, t('record.flip')),
          h('a', { class: 'small-link', href: api.recordPath(id), id: 'record-json' }, t('record.raw')))),
      analysis.el,
      h('section', { class: 'panel' }, h('h3', {}, t('record.moves')), moves))));

  document.addEventListener('keydown', keys);
  load();

  function entries() {
    return record ? record.plies.map((ply, i) => ({ ply, board: boards[i + 1] })) : [];
  }

  async function load() {
    try {
      record = await api.gameRecord(id, seat.token);
      let from = 0;
      while (from !== null && from !== undefined && !gone) {
        const page = await api.gamePositions(id, seat.token, from);
        if (!page || !Array.isArray(page.positions)) break;
        for (const position of page.positions) {
          boards[position.ply] = position.board;
          dangers[position.ply] = position.kings_in_danger;
        }
        from = typeof page.next === 'number' ? page.next : null;
      }
    } catch (error) {
      if (gone) return;
      notice.textContent = error.status === 409 ? t('record.notOver') : t('record.cannot', { message: errorText(error) });
      return;
    }
    if (gone) return;
    notice.textContent = '';
    // Only the moves and promotions are plies; the start is position 0.
    record.plies = (record.plies || []).filter((ply) => ply && (ply.type === 'move' || ply.type === 'promotion'));
    // The end in the result box's words: from this browser's seat, if it holds one.
    const ended = { ...(record.game || {}), status: record.status, reason: record.reason, you: seat.token ? seat.color || null : null };
    story.textContent = endText(ended, lastLoss({ entries: entries(), boardAt: (i) => boards[i + 1] || null }, ended));
    result.textContent = resultText(record);
    if (record.game && record.game.clocks) clocks.update(record.game.clocks, performance.now(), false);
    if (record.game && record.game.discovery) analysis.refuse();
    else analysis.load(record.plies.length);
    showAt(-1);
  }

  function showAt(index) {
    if (!record) return;
    at = Math.max(-1, Math.min(entries().length - 1, index));
    draw();
    renderList();
    analysis.show(at + 1);
  }

  function renderList() {
    renderMoves(moves, entries(), { viewing: at, onPick: (i) => showAt(i), marks: analysis.marks() });
  }

  function lastMove(index) {
    for (let i = index; i >= 0; i--) {
      const ply = record.plies[i];
      if (ply.type === 'move') return [ply.from, ply.landed || ply.to];
    }
    return [];
  }

  // Who played a side: the account's name (a link to its profile), else the colour.
  function playerLabel(color) {
    const players = (record.game && record.game.players) || {};
    const who = players[color] ? playerTag(players[color], { id: `record-player-${color}` }) : h('strong', {}, title(color));
    return h('div', { class: `player ${color}` }, h('span', { class: `dot ${color}`, 'aria-hidden': 'true' }), who,
      players[color] ? ` (${title(color)})` : null);
  }

  function draw() {
    if (!record) return;
    const pieces = boards[at + 1];
    fillBars(bars, flipped ? 'black' : 'white', playerLabel, record.game && record.game.clocks ? clocks : null);
    drawPosition(board, {
      width: record.game ? record.game.width : 8, height: record.game ? record.game.height : 8,
      pieces: pieces || [], flipped, last: lastMove(at), danger: dangers[at + 1],
      // The better move than the one just played, beside its highlight.
      arrow: at >= 0 ? analysis.arrow(at + 1) : null,
    });
    const of = record.plies.length;
    explore.disabled = !pieces;
    if (!pieces) where.textContent = t('record.unknown');
    else if (at < 0) where.textContent = t('record.start');
    else {
      const count = record.plies.slice(0, at + 1).filter((ply) => ply.type === 'move').length;
      where.textContent = t('record.after', {
        number: `${Math.ceil(count / 2)}.${count % 2 === 0 ? '..' : ''}`, ply: plyText(record.plies[at], boards[at + 1]), at: at + 1, of,
      });
    }
  }

  // The position shown, in a lab of its own (POST /api/labs {game, ply}), kept as this browser's
  // lab (as #/lab keeps the one it makes) and opened.
  async function exploreHere() {
    explore.disabled = true;
    exploreNote.textContent = '';
    try {
      const lab = await api.labFromGame(id, at + 1);
      keepLab(lab);
      if (!gone) location.hash = '#/lab';
    } catch (error) {
      if (gone) return;
      exploreNote.textContent = t('record.exploreFailed', { message: errorText(error) });
      explore.disabled = false;
    }
  }

  function keys(event) {
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, .board')) return;
    const steps = {
      ArrowLeft: () => showAt(at - 1), ArrowRight: () => showAt(at + 1),
      Home: () => showAt(-1), End: () => showAt(entries().length - 1),
    };
    if (steps[event.key] && record) { event.preventDefault(); steps[event.key](); }
  }

  return () => {
    gone = true;
    analysis.close();
    clocks.stop();
    document.removeEventListener('keydown', keys);
  };
}
