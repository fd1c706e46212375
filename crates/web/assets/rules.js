// How to play: GMO chess taught with the server's own diagrams (GET /api/genomes/{ref}/diagram.svg),
// the facts from docs/rules.md. The examples that are not standard pieces are stored first
// (POST /api/genomes is idempotent) so that they have a code to draw.
// In discovery (config.js) the page teaches play, not DNA (discoveryPage): the board, setting up,
// kings, promotion, the clock, the standard pieces and their DNA (players know it), and how to
// experiment in the lab — nothing of how DNA is read, and no diagrams (the server refuses them).
// The sections about play are shared by both pages.

import { h } from './dom.js';
import * as api from './api.js';
import { differencesBox } from './differences.js';
import { discovery } from './config.js';
import { spaced } from './dna.js';

// Examples beyond the standard set: [key, DNA, what it shows].
const EXAMPLES = {
  multiplier: ['AHH HAC HAA HHH AHA AHA HHA SAS SAS ACS AAC', 'a king-stepper that leaves a copy of itself behind (outcome AHA, both owners the mover)'],
  charmer: ['AHH HSH HAA HHH CHS CHA HHA SAS AAA AAA AAA', 'a rook that converts what it captures (outcome CHS onto an opponent, owner-to the mover)'],
  wrapper: ['AHH HSH HAC HHH CHA CHA HHA CAC SAS AAC ACA', 'the knight without “no wrap”: it crosses the side edges'],
};

const code = (text) => h('code', {}, text);

function figure(ref, caption, { width = 7, height = 7, color = 'white' } = {}) {
  const img = h('img', {
    class: 'diagram', src: api.diagramPath(ref, { width, height, color }), 'data-genome': ref,
    alt: `${caption}: where it can move from the middle of an empty ${width}×${height} board`, width: 300,
  });
  return h('figure', { class: 'rule-figure' }, img, h('figcaption', {}, caption, ' (', h('a', { href: `#/code/${encodeURIComponent(ref)}` }, ref), ')'));
}

// A figure for a DNA that may not be stored yet: stored first, then drawn by its code.
function exampleFigure(key) {
  const [dna, caption] = EXAMPLES[key];
  const slot = h('figure', { class: 'rule-figure pending', 'data-example': key }, h('figcaption', {}, caption));
  api.storeGenome(dna).then(
    (stored) => slot.replaceWith(figure(stored.code, caption)),
    (error) => slot.append(h('p', { class: 'notice' }, error.message)),
  );
  return slot;
}

function table(head, rows) {
  return h('table', { class: 'rules-table' },
    h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col' }, cell)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell))))));
}

function section(id, heading, ...body) {
  return h('section', { class: 'panel rules-section', id: `rules-${id}`, 'aria-labelledby': `rules-${id}-h` },
    h('h2', { id: `rules-${id}-h` }, heading), ...body);
}

function contentsNav(contents) {
  return h('nav', { 'aria-label': 'Contents' }, h('ol', { class: 'contents' },
    contents.map(([id, text]) => h('li', {}, h('a', { href: `#rules-${id}`, onclick: (event) => jump(event, id) }, text)))));
}

// How a game is lost and the ways it ends: the same in both modes.
function kingsSection() {
  return section('kings', 'Kings, and how a game is lost',
    h('p', {}, 'A king is any piece with the king mark: during setup you click your own pieces to mark at least one (a pawn, even several pieces). A side that loses a king — taken, converted or replaced — ',
      h('strong', {}, 'loses at once'), '; if both sides lose one in the same move it is a draw. There is no check: nothing stops you from leaving a king where it can be taken, so the board marks ',
      h('span', { class: 'danger-sample' }, 'in red'), ' every king the other side could take with its next move.'),
    table(['the game ends', 'when'], [
      ['won, king lost', 'the other side lost a king'],
      ['draw, kings lost', 'both sides lost a king in the same move'],
      ['won on time', 'the other side’s clock reached zero'],
      ['won, no legal moves', 'the side to move has no legal move and no promotion due'],
      ['won by resignation', 'the other side resigned'],
      ['draw by agreement', 'one side offered a draw and the other accepted (a move declines it)'],
      ['aborted', 'a side called the game off before White’s first move'],
    ]));
}

function clockSection() {
  return section('clock', 'The clock',
    h('p', {}, 'Each side has a time budget (5 minutes unless the game says otherwise), and may get an increment: after each of its moves the mover’s clock gains it (3+2 is three minutes and two seconds a move). The clock of the side to move runs — also while it promotes and during a freeze. The server keeps the time: a side whose clock reaches zero loses, even if nobody sends anything.'));
}

export function rulesPage(root) {
  if (discovery()) return discoveryPage(root);
  const contents = [
    ['dna', 'DNA and codes'], ['walk', 'How a piece walks'], ['copies', 'Copies and owners'],
    ['debuffs', 'The nine debuffs'], ['edges', 'Wrapping edges'], ['kings', 'Kings, and how a game is lost'],
    ['promotion', 'Promotion'], ['clock', 'The clock'],
  ];
  root.replaceChildren(h('article', { class: 'rules', id: 'rules' },
    h('section', { class: 'panel hero' },
      h('h1', {}, 'How to play GMO chess'),
      differencesBox({ id: 'differences', more: false }),
      h('p', {}, 'Every piece carries DNA, and the DNA alone decides where it may go and what a move leaves behind: ',
        'there are no built-in piece types. You line up eight pieces on your back rank (a ', h('em', {}, 'preset'),
        '), get a rank of pawns in front, mark at least one of your pieces as a king, and play on a clock. ',
        h('strong', {}, 'A side that loses a king loses.')),
      h('p', {}, 'The pictures are drawn by this server: the piece alone in the middle of an empty board, every square it may move to marked, and a legend of what its moves leave behind.'),
      contentsNav(contents),
      h('p', {}, h('a', { class: 'button primary', href: '#/' }, 'Play'), ' ', h('a', { class: 'button', href: '#/lab' }, 'Design a piece in the lab'))),

    section('dna', 'DNA and codes',
      h('p', {}, 'DNA is written with four letters, ', code('S A C H'), ', read three at a time: each triple is a ', h('em', {}, 'codon'),
        '. Spaces and lower case do not matter. A genome is one or more ', h('em', {}, 'blocks'), ': a header of seven codons, then one to four step codons.'),
      table(['header codon', 'what it says'], [
        ['1', [code('AHH'), ' starts a block']],
        ['2', 'who owns what the move leaves on the square it came from'],
        ['3', 'who owns what the move leaves on the square it went to'],
        ['4', 'what happens when it moves onto one of its own pieces'],
        ['5', 'what happens when it moves onto an opponent’s piece'],
        ['6', 'what happens when it moves onto an empty square'],
        ['7', [code('HHA'), ' ends the header']],
      ]),
      h('p', {}, 'Every genome has a six-character ', h('em', {}, 'code'), ' made from its DNA (the first 30 bits of its SHA-256): equal DNA, equal code. ',
        'Codes are how pieces are shared; a preset (a back rank) has a code too. The six standard pieces are stored from the start and answer to their names:'),
      h('div', { class: 'figures' },
        figure('rook', 'The rook, 3gbkd6 — it may even capture its own pieces'), figure('knight', 'The knight, zngq39'),
        figure('bishop', 'The bishop, 2zef2n'), figure('queen', 'The queen, 1hapeh — it freezes the game when it moves'),
        figure('king', 'The king, 25x67a'), figure('pawn', 'The pawn, yf459m — no double step'))),

    section('walk', 'How a piece walks',
      h('p', {}, 'Each block is walked eight times: turning clockwise, then counter-clockwise, starting north, east, south and west. A walk does its steps in order, turning 90° after each, and starts the steps again after the last.'),
      table(['step', 'first letter', 'what it does'], [
        ['marking', code('S'), 'moves 0–2 squares; the square it ends on may be a destination. It stops at the first piece it meets.'],
        ['plain', code('C'), 'moves 0–4 squares, jumping over anything in the way (a knight’s leap).'],
        ['still', code('A'), 'only turns.'],
      ]),
      h('p', {}, 'The last two letters of a step are its length, a number in base 3 (', code('A'), '=0, ', code('S'), '=1, ', code('C'),
        '=2), taken mod 3 for a marking step and mod 5 for a plain one. The rook’s ', code('SAS AAA AAA AAA'),
        ' marks one square, turns four times to face the same way, and repeats: a slide. There is no check, no castling, no en passant: a piece’s moves are exactly what its DNA generates, and anyone may list the moves of any piece, the opponent’s too.')),

    section('copies', 'Copies and owners',
      h('p', {}, 'An outcome codon ', code('xHy'), ' says what the from square (', code('x'), ') and the to square (', code('y'), ') hold after the move: ',
        code('A'), ' a copy of the mover, ', code('S'), ' a copy of the piece that stood on the to square, ', code('C'), ' nothing. ',
        code('HHH'), ' forbids the move. The usual “move or capture” is ', code('CHA'), '.'),
      h('p', {}, 'The owner codons decide whose each left piece is: ', code('HSH'), ' means the opponent; any of the nine debuff codons means the mover — and puts that debuff into the genome. Designers spend debuffs to keep what their moves leave.'),
      table(['outcome', 'what it does'], [
        [code('CHA'), 'an ordinary move or capture'],
        [code('AHA'), 'moves and leaves a copy of itself behind: a piece that multiplies'],
        [code('SHA'), 'swaps with the target'],
        [[code('CHS'), ' with owner-to the mover'], 'converts the captured piece to the mover’s side'],
        [code('CHC'), 'both squares end empty: the mover disappears with its target'],
      ]),
      h('p', {}, 'A copy keeps its source’s genome and its pawn and king marks — so a copy of a king is a king.'),
      h('div', { class: 'figures' }, exampleFigure('multiplier'), exampleFigure('charmer'))),

    section('debuffs', 'The nine debuffs',
      h('p', {}, 'A debuff enters a genome through an owner codon, at most once, and then applies to every block of the genome.'),
      table(['codon', 'name', 'effect'], [
        [code('HAS'), 'forward only', 'keeps only destinations ahead of the piece'],
        [code('HAC'), 'one lap', 'each walk ends after one pass through its steps'],
        [code('HAA'), 'no wrap', 'the left and right edges are not joined for this piece'],
        [code('HCS'), 'same shade', 'keeps only squares of the piece’s own shade (the bishop)'],
        [code('HCA'), 'other shade', 'keeps only squares of the other shade'],
        [code('HSS'), 'adjacent only', 'keeps only the eight neighbouring squares'],
        [code('HSC'), 'freeze', 'a move of this piece freezes the game: the mover’s clock loses 5 seconds (if that empties it, the mover loses on time), the opponent’s clock gains 5 seconds, and for 5 seconds no move and no promotion is accepted — while the clock of the side to move keeps running'],
        [code('HCC'), 'mutation', 'a move of this piece first changes one random letter of its DNA (if the result is a valid genome)'],
        [code('HSA'), 'deviation', 'a move of this piece may land on a square next to the one aimed at (each neighbour or the square itself, 1 in 9)'],
      ]),
      h('p', {}, 'The standard queen is a bishop block plus a rook block; it ran out of harmless debuffs, carries ', code('HSC'), ', and so freezes the game every time it moves.')),

    section('edges', 'Wrapping edges',
      h('p', {}, h('strong', {}, 'The left and right edges of the board are joined.'), ' A step west from the a-file arrives on the last file, unless the piece has “no wrap” (', code('HAA'),
        '), as every standard piece does. The top and bottom edges are never joined.'),
      h('div', { class: 'figures' }, exampleFigure('wrapper'))),

    kingsSection(),

    section('promotion', 'Promotion',
      h('p', {}, 'A pawn is a piece with the pawn mark; the standard pawn steps one square forward onto empty squares and captures one square diagonally forward, with no double step. A pawn on its owner’s last rank ',
        h('strong', {}, 'must be promoted'), ' before anything else moves: its owner replaces it with a piece of any genome — a queen, or any code at all. The new piece keeps the king mark and loses the pawn mark. A promotion is not a move.')),

    clockSection()));
  return () => {};
}

// In-page links must not change the route (the address fragment is the route).
function jump(event, id) {
  event.preventDefault();
  document.getElementById(`rules-${id}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

// The standard pieces in discovery: [name, how it moves, in a player's words]. Their DNA comes
// from the server (GET /api/genomes/{name}: public, explanation or not).
const STANDARD_PIECES = [
  ['rook', 'Like a chess rook, any number of squares along a rank or a file. It may even capture your own pieces.'],
  ['knight', 'Like a chess knight, jumping over whatever is in the way.'],
  ['bishop', 'Like a chess bishop, any number of squares diagonally.'],
  ['queen', 'Like a chess queen — and every move of it freezes the game: the mover’s clock loses 5 seconds, the opponent’s gains 5, and for 5 seconds nobody may move.'],
  ['king', 'Like a chess king, one square any way; no castling. Being a king is a mark, not this piece: any piece can be your king.'],
  ['pawn', 'One square forward onto an empty square, capturing one square diagonally forward; no double step, no en passant.'],
];

// A table row for a standard piece, its DNA filled in when the server answers.
function standardRow(name, moves) {
  const dna = h('code', { class: 'dna', 'data-standard': name }, '…');
  const codeCell = h('td', {}, h('a', { href: `#/code/${name}` }, name));
  api.genome(name).then((stored) => {
    dna.textContent = spaced(stored.dna);
    codeCell.replaceChildren(h('a', { href: `#/code/${encodeURIComponent(stored.code)}` }, h('code', {}, stored.code)));
  }, (error) => { dna.textContent = error.message; });
  return h('tr', {},
    h('th', { scope: 'row' }, name), codeCell, h('td', {}, moves),
    h('td', {}, dna, ' ', h('a', { class: 'small-link', href: `#/lab?genome=${name}`, 'aria-label': `Try the ${name}’s DNA in the lab` }, 'try it')));
}

// How to play in discovery: play, not DNA.
function discoveryPage(root) {
  const contents = [
    ['board', 'The board and its edges'], ['setup', 'Setting up: presets and kings'],
    ['kings', 'Kings, and how a game is lost'], ['promotion', 'Promotion'], ['clock', 'The clock'],
    ['pieces', 'The standard pieces and their DNA'], ['lab', 'Find out the rest in the lab'],
  ];
  root.replaceChildren(h('article', { class: 'rules discovery-rules', id: 'rules' },
    h('section', { class: 'panel hero' },
      h('h1', {}, 'How to play GMO chess'),
      differencesBox({ id: 'differences', more: false }),
      h('p', {}, 'Every piece carries DNA, and the DNA alone decides where it may go and what a move leaves behind: ',
        'there are no built-in piece types. You line up eight pieces on your back rank (a ', h('em', {}, 'preset'),
        '), get a rank of pawns in front, mark at least one of your pieces as a king, and play on a clock. ',
        h('strong', {}, 'A side that loses a king loses.')),
      h('p', {}, 'On this server nobody tells you how DNA works. You know the DNA of the six standard pieces; the rest is yours to find out in the lab, by writing DNA and watching where it moves.'),
      contentsNav(contents),
      h('p', {}, h('a', { class: 'button primary', href: '#/' }, 'Play'), ' ', h('a', { class: 'button', href: '#/lab' }, 'Experiment in the lab'))),

    section('board', 'The board and its edges',
      h('p', {}, 'The board has 8 × 8 squares unless the game says otherwise. White’s back rank is rank 1 with its pawns on rank 2; Black’s back rank is the last rank with its pawns in front of it. White moves first, then the sides take turns.'),
      h('p', {}, h('strong', {}, 'The left and right edges of the board are joined:'),
        ' a step west from the a-file arrives on the last file, and a step east from the last file on the a-file — for pieces whose DNA lets them cross; none of the standard pieces does. The top and bottom edges are never joined.')),

    section('setup', 'Setting up: presets and kings',
      h('p', {}, 'Before a game each side loads one ', h('em', {}, 'preset'), ': the eight pieces of its back rank, file a first, named by a six-character code. Its pawn rank is filled with standard pawns. ',
        'The preset ', h('code', {}, 'default'), ' is the chess line-up with the king on d1 (d8 for Black): rook, knight, bishop, king, queen, bishop, knight, rook. ',
        'Any other preset is typed in by its code; you build your own in the lab (see below).'),
      h('p', {}, 'Then each side clicks its own pieces to mark at least one king, and says it is ready. “Set up for me” loads the default and marks the king on d1 or d8. The game starts when both sides are ready.')),

    kingsSection(),

    section('promotion', 'Promotion',
      h('p', {}, 'A pawn is a piece with the pawn mark. A pawn that reaches the last rank (rank 8 for White, rank 1 for Black) ',
        h('strong', {}, 'must be promoted'), ' before anything else moves: its player replaces it with a piece of any DNA — a queen, or any code at all, your own pieces too. The new piece keeps the king mark and loses the pawn mark. A promotion is not a move.')),

    clockSection(),

    section('pieces', 'The standard pieces and their DNA',
      h('p', {}, 'Six pieces are known to everyone, by name and by DNA; an opponent’s standard piece is shown as itself, while any other piece of the opponent’s shows only its pattern and where it can move. Every piece has a six-character code made from its DNA: equal DNA, equal code.'),
      h('table', { class: 'rules-table', id: 'standard-pieces' },
        h('thead', {}, h('tr', {}, ['piece', 'code', 'how it moves', 'DNA'].map((cell) => h('th', { scope: 'col' }, cell)))),
        h('tbody', {}, STANDARD_PIECES.map(([name, moves]) => standardRow(name, moves))))),

    section('lab', 'Find out the rest in the lab',
      h('p', {}, 'The lab is a board of your own, with no clock and no turns: any piece may move at any time. It is where you discover what DNA does.'),
      h('ol', { class: 'lab-steps' },
        h('li', {}, h('strong', {}, 'Write DNA'), ' in the box: the letters S, A, C and H (spaces and lower case do not matter). Start from a standard piece’s DNA (“try it” above) and change a letter or two. The lab says at once whether it is a valid genome — and nothing more.'),
        h('li', {}, h('strong', {}, 'Place it:'), ' once it is valid it gets a code and is ready to place. Choose White or Black and click a square; put other pieces around it, your own and the other side’s, from the palette.'),
        h('li', {}, h('strong', {}, 'See where it moves:'), ' choose Move and click the piece. The highlighted squares are where it can go; move it and see what the move leaves behind. Try it near the edges, among pieces, as a king, as a pawn.'),
        h('li', {}, h('strong', {}, 'Save it:'), ' a valid DNA is kept by the server under its code. Copy the code and share it; anyone can place it, look it up, or promote to it.'),
        h('li', {}, h('strong', {}, 'Build a preset:'), ' fill a side’s back rank with eight pieces and press “Save White’s back rank” (or Black’s): you get a preset code to load during a game’s setup, or back into the lab with “Load”.')),
      h('p', {}, h('a', { class: 'button primary', href: '#/lab', id: 'rules-open-lab' }, 'Open the lab')))));
  return () => {};
}
