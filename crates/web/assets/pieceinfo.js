// What a selected piece is: for one's own piece (and every piece once the game is over) its
// code, the server's diagram of its moves and the explanation of its DNA; for a hidden piece,
// what may be known of it: the same for a standard piece (named for everybody), else its legal
// squares only.

import { h, fill } from './dom.js';
import * as api from './api.js';
import { describePiece, standardName, CODE_OF } from './pieces.js';

const explained = new Map(); // code → explanation, asked once per page

async function explanation(code) {
  if (!explained.has(code)) explained.set(code, api.genome(code).then((g) => g.explanation));
  return explained.get(code);
}

// Fills `panel` for `piece` (or empties it for none); `size` is the board's {width, height}.
export function showPiece(panel, piece, size) {
  if (!piece) { panel.replaceChildren(); panel.hidden = true; return; }
  panel.hidden = false;
  // The six standard genomes are public: an opponent's queen is shown as any queen.
  const code = piece.code || (piece.name && CODE_OF[piece.name]) || null;
  if (!code) {
    fill(panel, h('h3', {}, 'Selected piece'),
      h('p', {}, `${piece.square}: ${describePiece(piece)}.`),
      h('p', { class: 'hint' }, 'Its DNA stays hidden until the game is over; the highlighted squares are its legal moves.'));
    return;
  }
  const name = standardName(code);
  const text = h('pre', { class: 'explanation small', id: 'piece-explanation' }, '…');
  const width = Math.max(5, Math.min(8, size.width || 7));
  const height = Math.max(5, Math.min(8, size.height || 7));
  fill(panel, h('h3', {}, 'Selected piece'),
    h('p', {}, `${piece.square}: ${describePiece(piece)}`),
    h('p', {}, 'Code ', h('a', { href: `#/code/${encodeURIComponent(code)}`, id: 'piece-code' }, h('code', {}, code)),
      name ? ` — the standard ${name}` : ''),
    h('img', {
      class: 'diagram', id: 'piece-diagram', src: api.diagramPath(code, { width, height, color: piece.color }),
      alt: `Where ${name || code} can move from the middle of an empty ${width}×${height} board`, width: 240, height: 240,
    }),
    h('h4', {}, 'What it does'), text);
  explanation(code).then((words) => { text.textContent = words; }, () => { text.textContent = ''; });
}
