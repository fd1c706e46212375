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
import { describePiece, standardName, CODE_OF, pieceLabel } from './pieces.js';
import { discovery } from './config.js';
import { t, withElements } from './i18n.js';

// A standard piece's sentences are one message per piece (`pieceinfo.movesLike.{name}`,
// `pieceinfo.standard.{name}`): each language says the name in the case and gender it needs.

// "Code 1hapeh — the standard queen", the code a link to its page.
function codeLine(code, name) {
  const link = h('a', { href: `#/code/${encodeURIComponent(code)}`, id: 'piece-code' }, h('code', {}, code));
  return h('p', { class: 'hint' }, withElements(t('pieceinfo.code'), { code: link }), name ? t(`pieceinfo.standard.${name}`) : null);
}

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
    fill(panel, h('h3', {}, t('pieceinfo.heading')),
      h('p', {}, t('pieceinfo.hiddenPiece', { square: piece.square, piece: describePiece(piece) })),
      h('p', { class: 'hint' }, discovery() ? t('pieceinfo.hiddenForGood') : t('pieceinfo.hidden')));
    return;
  }
  const name = standardName(code);
  if (discovery()) {
    fill(panel, h('h3', {}, t('pieceinfo.heading')),
      h('p', {}, t('pieceinfo.piece', { square: piece.square, piece: describePiece(piece) })),
      h('h4', {}, t('pieceinfo.does')),
      h('p', { class: 'moves-like', id: 'piece-moves-like' }, name ? t(`pieceinfo.movesLike.${name}`) : t('pieceinfo.ownSecret')),
      codeLine(code, name));
    return;
  }
  const words = h('ul', { class: 'traits', id: 'piece-traits' }, h('li', { class: 'hint' }, t('pieceinfo.loading')));
  const text = h('pre', { class: 'explanation small', id: 'piece-explanation' }, '…');
  const width = Math.max(5, Math.min(8, size.width || 7));
  const height = Math.max(5, Math.min(8, size.height || 7));
  fill(panel, h('h3', {}, t('pieceinfo.heading')),
    h('p', {}, t('pieceinfo.piece', { square: piece.square, piece: describePiece(piece) })),
    h('h4', {}, t('pieceinfo.does')),
    h('p', { class: 'moves-like', id: 'piece-moves-like' }, name ? t(`pieceinfo.movesLike.${name}`) : t('pieceinfo.own')),
    words,
    h('img', {
      class: 'diagram', id: 'piece-diagram', src: api.diagramPath(code, { width, height, color: piece.color }),
      alt: t('pieceinfo.diagram', { what: name ? pieceLabel(name) : code, width, height }), width: 240, height: 240,
    }),
    codeLine(code, name),
    h('details', { class: 'piece-details', id: 'piece-details' }, h('summary', {}, t('pieceinfo.details')), text));
  genome(code).then((answer) => {
    const traits = Array.isArray(answer.traits) ? answer.traits : [];
    fill(words, traits.length ? traits.map((trait) => h('li', {}, trait)) : h('li', {}, t('pieceinfo.plain')));
    text.textContent = answer.explanation || '';
  }, () => {
    fill(words, h('li', { class: 'hint' }, t('pieceinfo.failed')));
    text.textContent = '';
  });
}
