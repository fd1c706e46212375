// A game's whole history as this browser can know it: every ply (from GET …/plies, the stream's
// first line, the stream itself or the record), and the position after each one. Positions
// come from the views the stream sent after each ply, or from GET …/positions when this browser
// was not there (a new browser opening a seat link, a ply made while the page was closed: the
// server's board as this seat sees it, hidden genomes hidden); until those arrive a position is
// worked out from the one before by the ply's own outcome (rules.md §4.1). Plies and positions
// are kept in localStorage, so a reload keeps the history.

import { standardName } from './pieces.js';
import { other } from './result.js';
import { t } from './i18n.js';

const INDEX = 'gmo.history';
const GAMES_KEPT = 6;
const PLIES_KEPT = 600;

// Only what the board draws: no DNA (it is long, and the board never shows it).
const slim = (board) => board.map(({ square, color, pawn, king, species, code, name }) => ({ square, color, pawn, king, species, code, name }));

const isPly = (ply) => ply && (ply.type === 'move' || ply.type === 'promotion' || ply.promotion || ply.from);
export const isMove = (ply) => !ply.promotion && ply.type !== 'promotion';

// What a pawn became: the standard genome the ply names (`name`, for every viewer), else a
// standard piece's name from its code or from the board after it, else the code its owner sees,
// else null (a hidden genome: never its species label, which means nothing to a reader).
export function promotedName(ply, after = null) {
  if (typeof ply.name === 'string' && ply.name) return ply.name;
  const piece = Array.isArray(after) ? after.find((p) => p.square === ply.promotion) : null;
  return standardName(ply.genome) || (piece && piece.name) || ply.genome || null;
}

// "e2–e4", "e2–e4 → e5" after a deviation, "c8 = queen" for a promotion (`after`: the board
// after the ply, when known).
export function plyText(ply, after = null) {
  if (!isMove(ply)) return `${ply.promotion} = ${promotedName(ply, after) || t('history.aPiece')}`;
  let text = `${ply.from}–${ply.to}`;
  if (ply.landed && ply.landed !== ply.to) text += ` → ${ply.landed}`;
  if (ply.mutated_to) text += t('history.mutated', { piece: standardName(ply.mutated_to) || ply.mutated_to });
  return text;
}

// The position after `ply`, from the position before it (null when the ply does not fit it).
export function applyPly(pieces, ply) {
  const at = new Map(pieces.map((piece) => [piece.square, piece]));
  if (!isMove(ply)) {
    const pawn = at.get(ply.promotion);
    if (!pawn) return null;
    at.set(ply.promotion, {
      ...pawn, pawn: false, code: ply.genome || undefined, species: ply.species || pawn.species, name: ply.name || standardName(ply.genome) || undefined,
    });
    return [...at.values()];
  }
  const mover = at.get(ply.from);
  if (!mover) return null;
  const moved = ply.mutated_to ? { ...mover, code: ply.mutated_to } : mover;
  const dest = ply.landed || ply.to;
  const target = at.get(dest) || null;
  const put = (after, square) => {
    if (!after) return null;
    const source = after.what === 'mover' ? moved : after.what === 'target' ? target : null;
    if (!source) return null;
    return { ...source, square, color: after.owner === 'opponent' ? other(mover.color) : mover.color };
  };
  const fromPiece = put(ply.from_after, ply.from);
  const toPiece = put(ply.to_after, dest);
  at.delete(ply.from);
  at.delete(dest);
  if (fromPiece) at.set(ply.from, fromPiece);
  if (toPiece) at.set(dest, toPiece); // over the from-outcome when both are one square
  return [...at.values()];
}

// The last move of `entries` ({ply} or {gap: n}): its index, its ply and its mover (a move is
// White's after an even number of moves); null when there is none or moves are missing.
function lastMoveIn(entries) {
  const count = entries.reduce((n, entry) => n + (entry.gap || (entry.ply && isMove(entry.ply) ? 1 : 0)), 0);
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.gap) return null;
    if (entry.ply && isMove(entry.ply)) return { index: i, ply: entry.ply, mover: (count - 1) % 2 === 0 ? 'white' : 'black' };
  }
  return null;
}

// What is known of the move that ended `view`, for the words at the end (result.js, endText):
// its mover and the square of the king it cost the losing side, from `list` — a History, or any
// {entries, boardAt(index)} (the record page's) — or null when moves are missing.
export function lastLoss(list, view) {
  const last = list && lastMoveIn(list.entries);
  if (!last) return null;
  const loser = view.status === 'white_won' ? 'black' : view.status === 'black_won' ? 'white' : null;
  const before = list.boardAt(last.index - 1);
  const after = last.index === list.entries.length - 1 && Array.isArray(view.board) ? view.board : list.boardAt(last.index);
  const dest = last.ply.landed || last.ply.to;
  let square = null;
  if (loser && before && after) {
    const kings = (board) => new Set(board.filter((p) => p.king && p.color === loser).map((p) => p.square));
    const was = kings(before);
    const is = kings(after);
    const lost = [...was].filter((sq) => !is.has(sq) && !(sq === last.ply.from && is.has(dest)));
    square = lost.includes(dest) ? dest : lost[0] || null;
  }
  return { mover: last.mover, square: square || dest };
}

export class History {
  constructor(id, seat) {
    this.key = `gmo.history.${id}.${seat || 'spectator'}`;
    this.start = null; // the position before the first ply
    this.entries = []; // {ply, board?, danger?} or {gap: n}
    this.load();
  }

  load() {
    try {
      const saved = JSON.parse(localStorage.getItem(this.key) || 'null');
      if (saved && Array.isArray(saved.entries)) {
        this.start = saved.start || null;
        this.entries = saved.entries;
      }
    } catch { /* nothing kept */ }
  }

  save() {
    try {
      const entries = this.entries.slice(-PLIES_KEPT);
      localStorage.setItem(this.key, JSON.stringify({ start: this.start, entries }));
      const index = JSON.parse(localStorage.getItem(INDEX) || '[]').filter((key) => key !== this.key);
      index.unshift(this.key);
      for (const old of index.splice(GAMES_KEPT)) localStorage.removeItem(old);
      localStorage.setItem(INDEX, JSON.stringify(index));
    } catch { /* full or private: the history lives as long as the page */ }
  }

  moves() {
    return this.entries.reduce((count, entry) => count + (entry.gap || (entry.ply && isMove(entry.ply) ? 1 : 0)), 0);
  }

  // A view before any ply: the start position (setup's board is the start's).
  noteView(view) {
    if (view.moves_played === 0 && this.entries.length === 0 && (view.status === 'setup' || view.status === 'in_progress')) {
      this.start = slim(view.board);
      this.save();
    }
  }

  setStart(board) {
    this.start = slim(board);
    this.save();
  }

  // Whether some position is not known from the server (no start, or a ply whose board was only
  // worked out here or not at all): then GET …/positions fills them in.
  lacksPositions() {
    return !this.start || this.entries.some((entry) => entry.gap || (entry.ply && (!entry.board || entry.derived || !entry.danger)));
  }

  // Position `k` from the server (0: the start, k: after the k-th ply) → whether it fitted.
  setPosition(k, board, danger) {
    if (!Array.isArray(board)) return false;
    if (k === 0) { this.start = slim(board); return true; }
    const entry = this.entries[k - 1];
    if (!entry || !entry.ply || this.entries.some((e, i) => i < k && e.gap)) return false;
    entry.board = slim(board);
    entry.danger = danger || { white: [], black: [] };
    delete entry.derived;
    return true;
  }

  // A connection's first view is the position after the last ply, whatever came before.
  noteCurrent(view) {
    const last = this.entries[this.entries.length - 1];
    if (last && last.ply && view.moves_played === this.moves() && (!last.board || !last.danger)) {
      last.board = slim(view.board);
      last.danger = view.kings_in_danger || null;
      this.save();
    }
  }

  // The kings in danger after the last ply, learnt after it (a compact line does not carry them).
  noteDanger(view) {
    const last = this.entries[this.entries.length - 1];
    if (last && last.ply && view.moves_played === this.moves() && view.kings_in_danger) {
      last.danger = view.kings_in_danger;
      this.save();
    }
  }

  // A connection's first view: moves made while away are a gap until the whole list arrives.
  catchUp(view) {
    const behind = view.moves_played - this.moves();
    if (behind > 0) this.entries.push({ gap: behind });
    this.save();
  }

  // One new ply and, when known, the view after it.
  push(ply, view) {
    const entry = { ply };
    if (view) { entry.board = slim(view.board); entry.danger = view.kings_in_danger || null; }
    this.entries.push(entry);
    this.save();
  }

  // The whole list from the server: it replaces what we have when it is at least as long,
  // keeping the positions already known for the same plies.
  setPlies(plies) {
    const list = plies.filter(isPly);
    const known = this.entries.filter((entry) => entry.ply).length;
    const gaps = this.entries.some((entry) => entry.gap);
    if (list.length < known && !gaps) return false;
    const old = gaps ? [] : this.entries;
    this.entries = list.map((ply, i) => ({ ...(old[i] && old[i].ply ? old[i] : {}), ply }));
    this.save();
    return true;
  }

  // The position after entry `index` (-1: the start), or null when it cannot be known.
  boardAt(index) {
    if (index < 0) return this.start;
    const entry = this.entries[index];
    if (!entry || entry.gap) return null;
    if (entry.board) return entry.board;
    const before = this.boardAt(index - 1);
    const after = before ? applyPly(before, entry.ply) : null;
    if (after) { entry.board = after; entry.derived = true; }
    return after;
  }

  dangerAt(index) {
    const entry = this.entries[index];
    return (entry && entry.danger) || null;
  }

  // The last move: its entry's index, its ply and its mover (a move is White's after an even
  // number of moves); null when there is none or moves are missing.
  lastMoveEntry() {
    return lastMoveIn(this.entries);
  }

  // The squares of the last move before or at `index`: highlighted on the board.
  lastMove(index = this.entries.length - 1) {
    for (let i = index; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry.gap) return [];
      if (entry.ply && isMove(entry.ply)) return [entry.ply.from, entry.ply.landed || entry.ply.to];
    }
    return [];
  }
}
