// How a piece looks. The six standard genomes are drawn as chess pieces (paths drawn for this
// page, no font needed), for both sides: by the view's `name`, which every viewer gets (rules
// §5.6), or by the code where it is known. Every other genome gets an identicon made from its
// code, and an opponent's hidden piece one made from its species label — so equal genomes always
// look equal. The king flag is a gold crown on top of either; the pawn flag on a non-pawn genome a
// small badge.

import { s } from './dom.js';
import { has, t } from './i18n.js';

// Codes of rules.md §2.5 (checked with `gmo genome code`).
export const STANDARD = {
  '3gbkd6': 'rook',
  'yf459m': 'pawn',
  '1hapeh': 'queen',
  'zngq39': 'knight',
  '2zef2n': 'bishop',
  '25x67a': 'king',
};

// The promotion picker offers these first (names resolve on the server too).
export const PROMOTION_CHOICES = ['queen', 'rook', 'bishop', 'knight', 'king', 'pawn'];
export const CODE_OF = Object.fromEntries(Object.entries(STANDARD).map(([code, name]) => [name, code]));

const BASE = 'M24 90 V81 Q24 78 27 78 H73 Q76 78 76 81 V90 Z';
const SHAPES = {
  pawn: [BASE + ' M36 78 Q38 64 44 56 Q36 52 38 44 Q40 38 46 36 A12 12 0 1 1 54 36 Q60 38 62 44 Q64 52 56 56 Q62 64 64 78 Z'],
  rook: [BASE + ' M31 78 L34 44 H66 L69 78 Z M28 44 V20 H38 V28 H45 V20 H55 V28 H62 V20 H72 V44 Z'],
  knight: [
    'M28 90 V82 Q30 72 38 64 Q46 56 44 48 Q38 54 30 56 Q22 58 20 50 Q26 40 34 32 L38 22 L44 28 L50 16 L54 26 ' +
      'Q70 32 74 52 Q78 72 74 90 Z',
  ],
  bishop: [
    BASE + ' M36 78 Q40 66 44 60 H56 Q60 66 64 78 Z M50 18 Q68 32 63 50 Q58 60 50 60 Q42 60 37 50 Q32 32 50 18 Z ' +
      'M55 13 A5 5 0 1 1 45 13 A5 5 0 1 1 55 13 Z',
  ],
  queen: [
    BASE + ' M30 78 L20 36 L34 58 L36 28 L46 56 L50 22 L54 56 L64 28 L66 58 L80 36 L70 78 Z',
    'M25 34 A5 5 0 1 1 15 34 A5 5 0 1 1 25 34 Z M41 26 A5 5 0 1 1 31 26 A5 5 0 1 1 41 26 Z ' +
      'M55 19 A5 5 0 1 1 45 19 A5 5 0 1 1 55 19 Z M69 26 A5 5 0 1 1 59 26 A5 5 0 1 1 69 26 Z ' +
      'M85 34 A5 5 0 1 1 75 34 A5 5 0 1 1 85 34 Z',
  ],
  king: [
    BASE + ' M32 78 Q26 58 36 46 H64 Q74 58 68 78 Z M36 46 Q38 32 50 32 Q62 32 64 46 Z ' +
      'M46 6 H54 V14 H62 V22 H54 V32 H46 V22 H38 V14 H46 Z',
  ],
};
// Inner lines in the contrasting colour, so shapes read at small sizes.
const DETAILS = {
  bishop: 'M56 30 L46 42',
  knight: 'M40 34 A2.5 2.5 0 1 1 39.9 34 M28 48 L24 50',
  king: 'M36 60 H64',
  queen: 'M32 68 H68',
  rook: 'M34 52 H66',
  pawn: '',
};

const COLORS = {
  white: { fill: '#fbf8f0', line: '#1d1d1d', token: '#f6f1e4' },
  black: { fill: '#262626', line: '#f1ede4', token: '#232323' },
};

// The standard piece's name for a code, or null.
export function standardName(code) {
  return (code && STANDARD[code]) || null;
}

// The standard piece a piece on a board is, or null: the view's name (given to every viewer,
// the opponent's hidden pieces included), else its code's.
export function pieceName(piece) {
  if (!piece) return null;
  if (typeof piece.name === 'string' && SHAPES[piece.name]) return piece.name;
  return standardName(piece.code);
}

// A standard piece's name in the page's language ("queen", "dáma"), for pickers and lists; an
// unknown name (a code) comes back as it is.
export function pieceLabel(name) {
  return has(`pieces.name.${name}`) ? t(`pieces.name.${name}`) : name;
}

// A side's standard piece, its colour agreeing with it ("white queen", "biela dáma").
function namedPiece(color, name) {
  const named = color === 'black' ? {
    king: () => t('pieces.black.king'), queen: () => t('pieces.black.queen'), rook: () => t('pieces.black.rook'),
    bishop: () => t('pieces.black.bishop'), knight: () => t('pieces.black.knight'), pawn: () => t('pieces.black.pawn'),
  } : {
    king: () => t('pieces.white.king'), queen: () => t('pieces.white.queen'), rook: () => t('pieces.white.rook'),
    bishop: () => t('pieces.white.bishop'), knight: () => t('pieces.white.knight'), pawn: () => t('pieces.white.pawn'),
  };
  return named[name]();
}

// What a screen reader says for a piece: "white pawn", "black piece 7x3k2q, king", "an unknown
// piece of Black's".
export function describePiece(piece) {
  if (!piece) return t('pieces.empty');
  const name = pieceName(piece);
  const black = piece.color === 'black';
  const facts = [];
  if (name) facts.push(namedPiece(piece.color, name));
  else if (piece.code) facts.push(black ? t('pieces.blackCode', { code: piece.code }) : t('pieces.whiteCode', { code: piece.code }));
  // A hidden genome: its species label only tells equal genomes apart on the board's drawing,
  // and means nothing to a reader.
  else facts.push(black ? t('pieces.blackHidden') : t('pieces.whiteHidden'));
  if (piece.king && name !== 'king') facts.push(t('pieces.name.king'));
  else if (piece.king) facts.push(t('pieces.markedKing'));
  if (piece.pawn && name !== 'pawn') facts.push(t('pieces.name.pawn'));
  return facts.join(', ');
}

// 32-bit FNV-1a of a string: a stable source of bits for the identicon.
function hash32(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

// A second, independent stream of bits (xorshift32 seeded from the hash).
function bits(seed) {
  let x = seed || 0x9e3779b9;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

// The identicon: a round token in the side's colour holding a mirrored 5×5 pattern whose cells
// and hue come from the key (a code, or a species label). Two keys share a picture only if 15
// pattern bits, the hue and the accent all collide.
function identicon(svg, key, color) {
  const next = bits(hash32(key));
  const c = COLORS[color] || COLORS.white;
  const hue = next() % 360;
  const light = color === 'black';
  const ink = `hsl(${hue} ${light ? 75 : 70}% ${light ? 66 : 38}%)`;
  const accent = `hsl(${(hue + 150 + (next() % 60)) % 360} 70% ${light ? 72 : 45}%)`;
  svg.append(s('circle', { cx: 50, cy: 50, r: 44, fill: c.token, stroke: c.line, 'stroke-width': 4 }));
  let pattern = next() & 0x7fff;
  if (popcount(pattern) < 4) pattern ^= 0x5a5a; // never an almost empty token
  const accentCell = next() % 15;
  const size = 11;
  const left = 50 - size * 2.5;
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      const bit = row * 3 + col;
      if (!(pattern >> bit & 1)) continue;
      const fill = bit === accentCell ? accent : ink;
      for (const x of col === 2 ? [2] : [col, 4 - col]) {
        svg.append(s('rect', {
          x: left + x * size, y: left + row * size, width: size + 0.4, height: size + 0.4, fill,
        }));
      }
    }
  }
}

function popcount(n) {
  let count = 0;
  for (; n; n &= n - 1) count++;
  return count;
}

function chessPiece(svg, name, color) {
  const c = COLORS[color] || COLORS.white;
  for (const d of SHAPES[name]) {
    svg.append(s('path', {
      d, fill: c.fill, stroke: c.line, 'stroke-width': 3, 'stroke-linejoin': 'round', 'fill-rule': 'nonzero',
    }));
  }
  if (DETAILS[name]) {
    svg.append(s('path', { d: DETAILS[name], fill: 'none', stroke: c.line, 'stroke-width': 3, 'stroke-linecap': 'round' }));
  }
}

// The king flag: a crown in the top right corner, above everything else.
function crown(svg) {
  svg.append(s('path', {
    class: 'king-mark',
    d: 'M66 22 L63 6 L71 13 L78 3 L85 13 L93 6 L90 22 Z',
    fill: '#f2b705', stroke: '#5c4300', 'stroke-width': 2, 'stroke-linejoin': 'round',
  }));
}

// The pawn flag on a genome that is not the standard pawn: a small dot in the lower left.
function pawnBadge(svg, color) {
  const c = COLORS[color] || COLORS.white;
  svg.append(s('circle', { cx: 14, cy: 86, r: 8, fill: c.fill, stroke: c.line, 'stroke-width': 2.5 }));
  svg.append(s('text', {
    x: 14, y: 90, 'text-anchor': 'middle', 'font-size': 11, 'font-family': 'sans-serif', 'font-weight': 700, fill: c.line,
  }, 'p'));
}

// An SVG element for a piece `{color, code?, species?, king, pawn}`.
export function pieceSvg(piece, { title = true } = {}) {
  const svg = s('svg', { viewBox: '0 0 100 100', class: `piece ${piece.color}`, 'aria-hidden': 'true', focusable: 'false' });
  const name = pieceName(piece);
  if (name) {
    chessPiece(svg, name, piece.color);
    svg.dataset.figure = name;
  } else identicon(svg, piece.code || piece.species || '?', piece.color);
  if (piece.pawn && name !== 'pawn') pawnBadge(svg, piece.color);
  if (piece.king) crown(svg);
  if (title) svg.prepend(s('title', {}, describePiece(piece)));
  svg.dataset.key = piece.code || piece.species || '';
  return svg;
}

// A piece for a bare genome reference (palettes, pickers, look-ups).
export function genomeSvg(code, color = 'white') {
  return pieceSvg({ color, code: CODE_OF[code] || code, king: false, pawn: false }, { title: false });
}
