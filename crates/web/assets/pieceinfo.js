// What a selected piece in a game does, in plain words: for one's own piece (and every piece once
// the game is over, and an opponent's standard piece, whose genome is public) "It moves like a
// queen." for a standard piece and the genome's traits — what its debuffs mean for a player, one
// sentence each (GET /api/genomes/{ref}) — with its code and the server's diagram of its moves;
// the codon-by-codon explanation stays behind "Details". For a hidden piece, what may be known
// of it: its legal squares only.
// In discovery (config.js) only what is known is shown, and nothing is asked of the server: the
// piece, its code if it is one's own (or standard), "It moves like a queen." for a standard piece;
// no diagram, no traits, no explanation (the server would refuse the diagram and leaves out the
// rest), and a hidden piece stays hidden after the end too.

import { h, fill } from './dom.js';
import * as api from './api.js';
import { describePiece, standardName, CODE_OF } from './pieces.js';
import { discovery } from './config.js';

const TEXT = {
  heading: 'Selected piece',
  hidden: 'Its DNA stays hidden until the game is over; the highlighted squares are its legal moves.',
  hiddenForGood: 'Its DNA stays hidden, during the game and after; the highlighted squares are its legal moves.',
  ownSecret: 'A piece of your own: the highlighted squares are its legal moves. Try its DNA in the lab to see more.',
  does: 'What it does',
  movesLike: (name) => (name === 'pawn'
    ? 'It moves like a pawn, one square at a time (no double step).'
    : `It moves like a ${name}.`),
  own: 'A piece of its own: the diagram shows where it moves from the middle of an empty board.',
  plain: 'Nothing else to know: no freeze, no surprises.',
  loading: 'Looking it up…',
  failed: 'What it does could not be looked up.',
  details: 'Details: its DNA, codon by codon',
  code: 'Code ',
  standard: (name) => ` — the standard ${name}`,
  diagram: (what, width, height) => `Where ${what} can move from the middle of an empty ${width}×${height} board`,
};

const known = new Map(); // code → the genome's answer, asked once per page

function genome(code) {
  if (!known.has(code)) {
    const asked = api.genome(code);
    asked.catch(() => known.delete(code)); // asked again next time
    known.set(code, asked);
  }
  return known.get(code);
}

// Fills `panel` for `piece` (or empties it for none); `size` is the board's {width, height}.
export function showPiece(panel, piece, size) {
  if (!piece) { panel.replaceChildren(); panel.hidden = true; return; }
  panel.hidden = false;
  // The six standard genomes are public: an opponent's queen is shown as any queen.
  const code = piece.code || (piece.name && CODE_OF[piece.name]) || null;
  if (!code) {
    fill(panel, h('h3', {}, TEXT.heading),
      h('p', {}, `${piece.square}: ${describePiece(piece)}.`),
      h('p', { class: 'hint' }, discovery() ? TEXT.hiddenForGood : TEXT.hidden));
    return;
  }
  const name = standardName(code);
  if (discovery()) {
    fill(panel, h('h3', {}, TEXT.heading),
      h('p', {}, `${piece.square}: ${describePiece(piece)}`),
      h('h4', {}, TEXT.does),
      h('p', { class: 'moves-like', id: 'piece-moves-like' }, name ? TEXT.movesLike(name) : TEXT.ownSecret),
      h('p', { class: 'hint' }, TEXT.code, h('a', { href: `#/code/${encodeURIComponent(code)}`, id: 'piece-code' }, h('code', {}, code)),
        name ? TEXT.standard(name) : ''));
    return;
  }
  const words = h('ul', { class: 'traits', id: 'piece-traits' }, h('li', { class: 'hint' }, TEXT.loading));
  const text = h('pre', { class: 'explanation small', id: 'piece-explanation' }, '…');
  const width = Math.max(5, Math.min(8, size.width || 7));
  const height = Math.max(5, Math.min(8, size.height || 7));
  fill(panel, h('h3', {}, TEXT.heading),
    h('p', {}, `${piece.square}: ${describePiece(piece)}`),
    h('h4', {}, TEXT.does),
    h('p', { class: 'moves-like', id: 'piece-moves-like' }, name ? TEXT.movesLike(name) : TEXT.own),
    words,
    h('img', {
      class: 'diagram', id: 'piece-diagram', src: api.diagramPath(code, { width, height, color: piece.color }),
      alt: TEXT.diagram(name || code, width, height), width: 240, height: 240,
    }),
    h('p', { class: 'hint' }, TEXT.code, h('a', { href: `#/code/${encodeURIComponent(code)}`, id: 'piece-code' }, h('code', {}, code)),
      name ? TEXT.standard(name) : ''),
    h('details', { class: 'piece-details', id: 'piece-details' }, h('summary', {}, TEXT.details), text));
  genome(code).then((answer) => {
    const traits = Array.isArray(answer.traits) ? answer.traits : [];
    fill(words, traits.length ? traits.map((trait) => h('li', {}, trait)) : h('li', {}, TEXT.plain));
    text.textContent = answer.explanation || '';
  }, () => {
    fill(words, h('li', { class: 'hint' }, TEXT.failed));
    text.textContent = '';
  });
}
