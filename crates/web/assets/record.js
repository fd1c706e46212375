// The record of a finished game, replayed on a board (#/record/{id}): the plies from
// GET /api/games/{id}/record, the position after each from GET /api/games/{id}/positions (every
// genome open once the game is over); « ‹ › » and ← → Home End step through it, a click on a move
// jumps there.

import { h } from './dom.js';
import * as api from './api.js';
import { Board } from './board.js';
import { renderHistory, plyText, lastLoss } from './history.js';
import { resultText, endText } from './result.js';
import { remembered } from './seats.js';
import { t, errorText, withElements } from './i18n.js';

export function recordPage(root, id) {
  const board = new Board({ label: t('record.board') });
  const where = h('p', { class: 'status', id: 'record-where', 'aria-live': 'polite' });
  const story = h('p', { class: 'result-story', id: 'record-story' });
  const result = h('p', { class: 'result-text', id: 'record-result' });
  const notice = h('p', { class: 'notice', role: 'alert', id: 'record-notice' }, t('record.loading'));
  const moveList = h('ol', { id: 'record-moves', class: 'moves', 'aria-label': t('record.moves') });
  const seat = remembered(id);
  const gameHref = `#/game/${encodeURIComponent(id)}${seat.token ? `?token=${encodeURIComponent(seat.token)}` : ''}`;
  let flipped = seat.color === 'black';
  let record = null;
  let boards = []; // position k: the board after the first k plies (0: the start)
  let dangers = [];
  let at = -1; // the entry shown: -1 is the start
  let gone = false;

  const navButton = (name, label, text, onclick) =>
    h('button', { type: 'button', class: 'small', id: `record-${name}`, 'aria-label': label, title: label, onclick }, text);
  const nav = h('div', { class: 'row history-nav', role: 'group', 'aria-label': t('record.steps') },
    navButton('first', t('record.first'), '«', () => showAt(-1)),
    navButton('prev', t('record.prev'), '‹', () => showAt(at - 1)),
    navButton('next', t('record.next'), '›', () => showAt(at + 1)),
    navButton('last', t('record.last'), '»', () => showAt(entries().length - 1)));

  root.replaceChildren(h('div', { class: 'game-page record-page' },
    h('div', { class: 'board-col' }, board.el, nav, where),
    h('aside', { class: 'side-col' },
      h('section', { class: 'panel' },
        h('h1', { class: 'game-title' }, withElements(t('record.heading'), { id: h('code', {}, id) })),
        story, result, notice,
        h('p', { class: 'hint keys-hint', id: 'record-keys' }, t('record.keys')),
        h('div', { class: 'row' },
          h('a', { class: 'button', href: gameHref, id: 'record-back' }, t('record.back')),
          h('button', { type: 'button', id: 'record-flip', onclick: () => { flipped = !flipped; draw(); } }, t('record.flip')),
          h('a', { class: 'small-link', href: api.recordPath(id), id: 'record-json' }, t('record.raw')))),
      h('section', { class: 'panel' }, h('h3', {}, t('record.moves')), moveList))));

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
    showAt(-1);
  }

  function showAt(index) {
    if (!record) return;
    at = Math.max(-1, Math.min(entries().length - 1, index));
    draw();
    renderHistory(moveList, { entries: entries() }, { viewing: at, onPick: (i) => showAt(i) });
  }

  function lastMove(index) {
    for (let i = index; i >= 0; i--) {
      const ply = record.plies[i];
      if (ply.type === 'move') return [ply.from, ply.landed || ply.to];
    }
    return [];
  }

  function draw() {
    if (!record) return;
    const pieces = boards[at + 1];
    const danger = dangers[at + 1];
    board.draw({
      width: record.game ? record.game.width : 8, height: record.game ? record.game.height : 8,
      pieces: pieces || [], flipped, selected: null, targets: [], last: lastMove(at), due: null,
      danger: danger ? [...(danger.white || []), ...(danger.black || [])] : [],
    });
    const of = record.plies.length;
    if (!pieces) where.textContent = t('record.unknown');
    else if (at < 0) where.textContent = t('record.start');
    else {
      const moves = record.plies.slice(0, at + 1).filter((ply) => ply.type === 'move').length;
      where.textContent = t('record.after', {
        number: `${Math.ceil(moves / 2)}.${moves % 2 === 0 ? '..' : ''}`, ply: plyText(record.plies[at], boards[at + 1]), at: at + 1, of,
      });
    }
  }

  function keys(event) {
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, .board')) return;
    const moves = {
      ArrowLeft: () => showAt(at - 1), ArrowRight: () => showAt(at + 1),
      Home: () => showAt(-1), End: () => showAt(entries().length - 1),
    };
    if (moves[event.key] && record) { event.preventDefault(); moves[event.key](); }
  }

  return () => {
    gone = true;
    document.removeEventListener('keydown', keys);
  };
}
