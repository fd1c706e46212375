// The board: a CSS grid of focusable square buttons drawn from either side. It knows nothing of
// games or labs; it reports clicks and drags as square names and draws what it is told
// (pieces, the selection, legal targets — those that lose or expose the mover's king marked
// apart —, the last move, kings in danger, and an arrow: the analysis's better move).

import { h, s } from './dom.js';
import { pieceSvg, describePiece } from './pieces.js';
import { t } from './i18n.js';

export function squareName(x, y) {
  return String.fromCharCode(97 + x) + String(y + 1);
}

// 'e2' → {x: 4, y: 1}; null when it is not a square name.
export function parseSquare(name) {
  const match = /^([a-z])([1-9][0-9]?)$/.exec(String(name).trim().toLowerCase());
  if (!match) return null;
  return { x: match[1].charCodeAt(0) - 97, y: Number(match[2]) - 1 };
}

// 'e2e4', 'e2-e4', 'e2 e4' → ['e2', 'e4'].
export function parseMoveText(text) {
  const match = /^\s*([a-z][1-9][0-9]?)\s*[-x ]?\s*([a-z][1-9][0-9]?)\s*$/i.exec(text);
  return match ? [match[1].toLowerCase(), match[2].toLowerCase()] : null;
}

// A square's accessible name: its name, its piece, then what else holds for it (a king in danger,
// a legal destination — flagged apart when it loses or exposes the mover's king (the move views'
// loses_own_king and exposes_king) —, the selection), each a message of its own.
function squareLabel(name, piece, { inDanger, target, selected }) {
  const facts = [t('board.square', { square: name, piece: describePiece(piece) })];
  if (inDanger) facts.push(t('board.inDanger'));
  if (target) facts.push(target.loses_own_king ? t('board.legalLosesKing') : target.exposes_king ? t('board.legalExposes') : t('board.legal'));
  if (selected) facts.push(t('board.selected'));
  return facts.join(', ');
}

const DRAG_THRESHOLD = 6; // pixels before a press becomes a drag, so taps stay clicks

export class Board {
  // onSquare(square) for a click or Enter; onDrag(from, to) for a drag and drop.
  constructor({ label = t('board.label'), onSquare = () => {}, onDrag = () => {} } = {}) {
    this.onSquare = onSquare;
    this.onDrag = onDrag;
    this.el = h('div', { class: 'board', role: 'grid', 'aria-label': label });
    this.state = { width: 8, height: 8, pieces: [], flipped: false, selected: null, targets: [], last: [], due: null, danger: [], arrow: null };
    this.focusSquare = null;
    this.layout = null;
    this.cells = null;
    this.el.addEventListener('keydown', (event) => this.keydown(event));
    this.el.addEventListener('pointerdown', (event) => this.pointerdown(event));
    // Enter or Space on a focused square fires 'click' with no pointer press (detail 0); a
    // pointer click was already handled on pointerup.
    this.el.addEventListener('click', (event) => {
      const cell = event.target.closest('[data-square]');
      if (cell && event.detail === 0) this.onSquare(cell.dataset.square, { drag: false });
    });
  }

  // Redraws with the given changes to the state. Squares are built once per board shape and
  // then updated in place, so a redraw in the middle of a drag or while a square has the focus
  // keeps the very elements the pointer and the focus are on.
  draw(changes) {
    Object.assign(this.state, changes);
    const { width, height, pieces, flipped, selected, targets, last, due, danger = [] } = this.state;
    const layout = `${width}x${height}${flipped ? 'f' : ''}`;
    if (this.layout !== layout) this.build(layout);
    const at = new Map(pieces.map((piece) => [piece.square, piece]));
    const targetSet = new Map(targets.map((move) => [move.to, move]));
    for (const [name, cell] of this.cells) {
      const { x, y } = parseSquare(name);
      const piece = at.get(name);
      const target = targetSet.get(name);
      const classes = ['sq', (x + y) % 2 === 0 ? 'dark' : 'light'];
      if (piece) classes.push('has-piece');
      if (name === selected) classes.push('selected');
      if (target) classes.push(piece ? 'target capture' : 'target');
      // A move that costs the mover a king, or leaves one to be taken next: marked apart.
      if (target && target.loses_own_king) classes.push('loses-king');
      else if (target && target.exposes_king) classes.push('exposes');
      if (last.includes(name)) classes.push('last');
      if (name === due) classes.push('due');
      const inDanger = piece && piece.king && danger.includes(name);
      if (inDanger) classes.push('danger');
      if (cell.classList.contains('dragging')) classes.push('dragging');
      const className = classes.join(' ');
      if (cell.className !== className) cell.className = className;
      const label = squareLabel(name, piece, { inDanger, target, selected: name === selected });
      if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
      cell.setAttribute('aria-selected', name === selected ? 'true' : 'false');
      const key = piece ? `${piece.color}|${piece.code || piece.species}|${piece.name || ''}|${piece.king}|${piece.pawn}` : '';
      if (cell.dataset.piece !== key) {
        cell.dataset.piece = key;
        cell.querySelector('svg.piece')?.remove();
        if (piece) cell.prepend(pieceSvg(piece, { title: false }));
      }
    }
    this.drawArrow();
  }

  // The arrow ({from, to, label} or null) over the squares, in the board's own units (a square
  // is 1 × 1), so it scales with the board; it takes no clicks.
  drawArrow() {
    const { arrow, width, height, flipped } = this.state;
    const key = arrow ? `${arrow.from}-${arrow.to}-${this.layout}` : '';
    const old = this.el.querySelector(':scope > svg.arrow');
    if (old && old.dataset.key === key) return;
    old?.remove();
    if (!arrow || !this.inside(arrow.from) || !this.inside(arrow.to)) return;
    const centre = (name) => {
      const { x, y } = parseSquare(name);
      return [(flipped ? width - 1 - x : x) + 0.5, (flipped ? y : height - 1 - y) + 0.5];
    };
    const [x1, y1] = centre(arrow.from);
    const [x2, y2] = centre(arrow.to);
    // Stops short of the centre of the target square, so the head points at it.
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const short = 0.3 / length;
    const svg = s('svg', {
      class: 'arrow', viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: 'none', role: 'img',
      'aria-label': arrow.label || '', 'data-from': arrow.from, 'data-to': arrow.to, 'data-key': key,
    },
    s('defs', {}, s('marker', { id: 'arrow-head', viewBox: '0 0 4 4', refX: '2', refY: '2', markerWidth: '3', markerHeight: '3', orient: 'auto' },
      s('path', { d: 'M0,0 L4,2 L0,4 z' }))),
    s('line', { x1, y1, x2: x2 - (x2 - x1) * short, y2: y2 - (y2 - y1) * short, 'marker-end': 'url(#arrow-head)' }));
    this.el.append(svg);
  }

  // The squares for one board shape, in reading order from the viewer's side.
  build(layout) {
    const { width, height, flipped } = this.state;
    this.layout = layout;
    this.cells = new Map();
    this.el.style.setProperty('--files', width);
    this.el.style.setProperty('--ranks', height);
    this.el.classList.toggle('flipped', flipped);
    if (!this.focusSquare || !this.inside(this.focusSquare)) this.focusSquare = squareName(0, flipped ? height - 1 : 0);
    const rows = [];
    for (let row = 0; row < height; row++) {
      const y = flipped ? row : height - 1 - row;
      const cells = [];
      for (let col = 0; col < width; col++) {
        const x = flipped ? width - 1 - col : col;
        const name = squareName(x, y);
        const cell = h('button', {
          type: 'button', class: 'sq', role: 'gridcell', 'data-square': name,
          tabindex: name === this.focusSquare ? 0 : -1,
        });
        if (col === 0) cell.append(h('span', { class: 'coord rank', 'aria-hidden': 'true' }, String(y + 1)));
        if (row === height - 1) cell.append(h('span', { class: 'coord file', 'aria-hidden': 'true' }, String.fromCharCode(97 + x)));
        this.cells.set(name, cell);
        cells.push(cell);
      }
      rows.push(h('div', { class: 'rank-row', role: 'row' }, cells));
    }
    this.el.replaceChildren(...rows);
  }

  inside(name) {
    const sq = parseSquare(name);
    return sq && sq.x < this.state.width && sq.y < this.state.height;
  }

  cell(name) {
    return this.cells ? this.cells.get(name) : null;
  }

  // Arrow keys move the focus across squares (one tab stop for the whole board); Enter or
  // Space is a click, given by the button itself.
  keydown(event) {
    const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowRight: [1, 0], ArrowLeft: [-1, 0] };
    const step = steps[event.key];
    const from = event.target.closest('[data-square]');
    if (!step || !from) return;
    event.preventDefault();
    const flip = this.state.flipped ? -1 : 1;
    const sq = parseSquare(from.dataset.square);
    const x = Math.min(this.state.width - 1, Math.max(0, sq.x + step[0] * flip));
    const y = Math.min(this.state.height - 1, Math.max(0, sq.y + step[1] * flip));
    this.moveFocus(squareName(x, y));
  }

  // Puts the keyboard focus on the board: on `name`, or on the square that last had it.
  focus(name) {
    if (!this.cells) return;
    this.moveFocus(name && this.inside(name) ? name : this.focusSquare);
  }

  moveFocus(name) {
    this.cell(this.focusSquare)?.setAttribute('tabindex', '-1');
    this.focusSquare = name;
    const cell = this.cell(name);
    cell?.setAttribute('tabindex', '0');
    cell?.focus();
  }

  // A press on a square: a click if released without moving, a drag (with the piece following
  // the pointer) otherwise. Pointer events cover mouse, pen and touch alike.
  pointerdown(event) {
    const cell = event.target.closest('[data-square]');
    if (!cell || event.button > 0) return;
    const from = cell.dataset.square;
    const start = { x: event.clientX, y: event.clientY };
    const svg = cell.querySelector('svg.piece');
    let ghost = null;
    const move = (ev) => {
      if (!ghost && svg && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > DRAG_THRESHOLD) {
        ghost = svg.cloneNode(true);
        ghost.classList.add('ghost');
        const size = cell.getBoundingClientRect().width;
        ghost.style.width = ghost.style.height = `${size}px`;
        document.body.append(ghost);
        cell.classList.add('dragging');
        this.onSquare(from, { drag: true });
      }
      if (ghost) {
        const size = ghost.getBoundingClientRect().width;
        ghost.style.left = `${ev.clientX - size / 2}px`;
        ghost.style.top = `${ev.clientY - size / 2}px`;
      }
    };
    const up = (ev) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      if (!ghost) {
        if (ev.type === 'pointerup') {
          this.moveFocus(from);
          this.onSquare(from, { drag: false });
        }
        return;
      }
      ghost.remove();
      cell.classList.remove('dragging');
      const under = document.elementFromPoint(ev.clientX, ev.clientY)?.closest?.('[data-square]');
      if (under && this.el.contains(under) && under.dataset.square !== from) this.onDrag(from, under.dataset.square);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
    // No native focus or text selection on press: the focus is moved on release instead.
    event.preventDefault();
  }
}
