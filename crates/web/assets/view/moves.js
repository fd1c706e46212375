// The move list and its « ‹ › » steps, drawn the same on the game page and the record page (and
// with the analysis's marks on the record page). It draws what it is given: entries
// ({ply, board?} or {gap: n}), the entry shown, and what a click on a ply does.

import { h } from '../dom.js';
import { pieceSvg } from '../pieces.js';
import { isMove, plyText, promotedName } from '../history.js';
import { t } from '../i18n.js';

// The symbol beside a judged ply (lichess's): ?! inaccuracy, ? mistake, ?? blunder.
export const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// The four steps: buttons `{prefix}-first` … `{prefix}-last`, named by `labels` ({group, first,
// prev, next, last}: message ids), doing `go` ({first, prev, next, last}).
export function moveNav(prefix, labels, go) {
  const button = (name, text) => h('button', {
    type: 'button', class: 'small', id: `${prefix}-${name}`, 'aria-label': t(labels[name]), title: t(labels[name]), onclick: go[name],
  }, text);
  return h('div', { class: 'row history-nav', role: 'group', 'aria-label': t(labels.group) },
    button('first', '«'), button('prev', '‹'), button('next', '›'), button('last', '»'));
}

export function moveList(id, label) {
  return h('ol', { id, class: 'moves', 'aria-label': label });
}

// A judged ply's mark: its symbol, named for screen readers and on hover.
export function markOf(judgement) {
  const name = t(`analysis.judgement.${judgement}`);
  return h('span', { class: `mark ${judgement}`, role: 'img', 'aria-label': name, title: name }, MARKS[judgement]);
}

// Numbered pairs ("1. e2–e3 e7–e6"), every ply a button that shows its position. A row is the
// number and one cell per side, always three columns: a promotion goes into the cell of the move
// that made it, under it, so the other side's move keeps its column. `marks[index]`: a
// judgement shown beside that ply.
export function renderMoves(list, entries, { viewing, onPick, marks = [] }) {
  const rows = [];
  let count = 0;
  let row = null;
  let cells = null;
  const newRow = (number, blackFirst) => {
    cells = { white: h('span', { class: 'cell white' }), black: h('span', { class: 'cell black' }) };
    row = h('li', { class: 'pair' }, h('span', { class: 'num' }, `${number}.${blackFirst ? '..' : ''}`), cells.white, cells.black);
    rows.push(row);
  };
  entries.forEach((entry, index) => {
    if (entry.gap) {
      count += entry.gap;
      rows.push(h('li', { class: 'missed' }, t('history.missed', { count: entry.gap })));
      row = null;
      return;
    }
    const ply = entry.ply;
    const unnamed = !isMove(ply) && !promotedName(ply, entry.board);
    let side;
    if (isMove(ply)) {
      side = count % 2 === 0 ? 'white' : 'black';
      if (side === 'white' || !row) newRow(Math.floor(count / 2) + 1, side === 'black');
      count += 1;
    } else {
      // The side of the move before it: the pawn's owner.
      side = (count - 1) % 2 === 0 ? 'white' : 'black';
      if (!row) newRow(Math.max(1, Math.ceil(count / 2)), side === 'black');
    }
    // A hidden genome's promotion shows the new piece's pattern beside "a piece".
    const pattern = unnamed && entry.board ? entry.board.find((p) => p.square === ply.promotion) : null;
    const button = h('button', {
      type: 'button', class: `ply ${isMove(ply) ? side : 'promotion'}${index === viewing ? ' current' : ''}`,
      'data-index': index, 'aria-current': index === viewing ? 'step' : null,
      onclick: () => onPick(index),
    }, plyText(ply, entry.board), pattern ? pieceSvg({ ...pattern, king: false }, { title: false }) : null);
    const mark = marks[index];
    cells[side].append(mark ? h('span', { class: 'ply-line', 'data-index': index }, button, markOf(mark)) : button);
  });
  if (rows.length === 0) rows.push(h('li', { class: 'empty' }, t('history.empty')));
  list.replaceChildren(...rows);
  const current = list.querySelector('.ply.current');
  // Scrolls the list only, never the page (on a phone the board stays in view).
  if (current) {
    const box = list.getBoundingClientRect();
    const at = current.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  } else list.scrollTop = list.scrollHeight;
}
