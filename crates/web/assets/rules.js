// How to play: GMO chess taught with the server's own diagrams (GET /api/genomes/{ref}/diagram.svg),
// the facts from docs/rules.md. The examples that are not standard pieces are stored first
// (POST /api/genomes is idempotent) so that they have a code to draw.
// In discovery (config.js) the page teaches play, not DNA (discoveryPage): the board, setting up,
// kings, promotion, the clock, the standard pieces and their DNA (players know it), and how to
// experiment in the lab — nothing of how DNA is read, and no diagrams (the server refuses them).
// The sections about play are shared by both pages.
// Every text is a message (`rules.…` in assets/i18n/*.json); a paragraph with markup is one
// message whose `{name}` parts are elements (rich), so a translation keeps its markup wherever
// the language puts it.

import { h } from './dom.js';
import * as api from './api.js';
import { differencesBox } from './differences.js';
import { discovery } from './config.js';
import { spaced } from './dna.js';
import { t, errorText, withElements } from './i18n.js';
import { pieceLabel } from './pieces.js';

// Examples beyond the standard set: key → DNA (their captions are messages, exampleCaption).
const EXAMPLES = {
  multiplier: 'AHH HAC HAA HHH AHA AHA HHA SAS SAS ACS AAC',
  charmer: 'AHH HSH HAA HHH CHS CHA HHA SAS AAA AAA AAA',
  wrapper: 'AHH HSH HAC HHH CHA CHA HHA CAC SAS AAC ACA',
};

// What an example shows (a function: the catalogue is loaded after this module is imported).
function exampleCaption(key) {
  return {
    multiplier: () => t('rules.example.multiplier'),
    charmer: () => t('rules.example.charmer'),
    wrapper: () => t('rules.example.wrapper'),
  }[key]();
}

const code = (text) => h('code', {}, text);

// A message with elements in it (i18n.js's withElements), where a placeholder written in DNA
// letters ({AHH}, {CHA}, {S}) is that codon as code, so the codons stay as they are in every
// language.
const rich = (text, parts = {}) => withElements(text, parts, (name) => (/^[SACH]+$/.test(name) ? code(name) : null));

// The two places a paragraph emphasises a word: <em> for a term, <strong> for what matters.
const em = (text) => h('em', {}, text);
const strong = (text) => h('strong', {}, text);

function figure(ref, caption, { width = 7, height = 7, color = 'white' } = {}) {
  const img = h('img', {
    class: 'diagram', src: api.diagramPath(ref, { width, height, color }), 'data-genome': ref,
    alt: t('rules.figure.alt', { caption, width, height }), width: 300,
  });
  return h('figure', { class: 'rule-figure' }, img, h('figcaption', {}, caption, ' (', h('a', { href: `#/code/${encodeURIComponent(ref)}` }, code(ref)), ')'));
}

// A figure for a DNA that may not be stored yet: stored first, then drawn by its code.
function exampleFigure(key) {
  const dna = EXAMPLES[key];
  const caption = exampleCaption(key);
  const slot = h('figure', { class: 'rule-figure pending', 'data-example': key }, h('figcaption', {}, caption));
  api.storeGenome(dna).then(
    (stored) => slot.replaceWith(figure(stored.code, caption)),
    (error) => slot.append(h('p', { class: 'notice' }, errorText(error))),
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
  return h('nav', { 'aria-label': t('rules.contents') }, h('ol', { class: 'contents' },
    contents.map(([id, text]) => h('li', {}, h('a', { href: `#rules-${id}`, onclick: (event) => jump(event, id) }, text)))));
}

// The page's top: the heading, what differs from chess, the game in a paragraph, then the
// page's own paragraph, its contents and its two ways on.
function hero(about, contents, lab) {
  return h('section', { class: 'panel hero' },
    h('h1', {}, t('rules.title')),
    differencesBox({ id: 'differences', more: false }),
    h('p', {}, rich(t('rules.intro'), { preset: em(t('rules.intro.preset')), loses: strong(t('rules.intro.loses')) })),
    h('p', {}, about),
    contentsNav(contents),
    h('p', {}, h('a', { class: 'button primary', href: '#/' }, t('nav.play')), ' ', h('a', { class: 'button', href: '#/lab' }, lab)));
}

// How a game is lost and the ways it ends: the same in both modes.
function kingsSection() {
  return section('kings', t('rules.h.kings'),
    h('p', {}, rich(t('rules.kings.text'), {
      losesAtOnce: strong(t('rules.kings.losesAtOnce')),
      inRed: h('span', { class: 'danger-sample' }, t('rules.kings.inRed')),
    })),
    table([t('rules.end.head'), t('rules.end.when')], [
      [t('rules.end.kingLost'), t('rules.end.kingLost.when')],
      [t('rules.end.kingsLost'), t('rules.end.kingsLost.when')],
      [t('rules.end.time'), t('rules.end.time.when')],
      [t('rules.end.noMoves'), t('rules.end.noMoves.when')],
      [t('rules.end.resignation'), t('rules.end.resignation.when')],
      [t('rules.end.agreement'), t('rules.end.agreement.when')],
      [t('rules.end.aborted'), t('rules.end.aborted.when')],
    ]));
}

function clockSection() {
  return section('clock', t('rules.h.clock'), h('p', {}, t('rules.clock.text')));
}

export function rulesPage(root) {
  if (discovery()) return discoveryPage(root);
  const contents = [
    ['dna', t('rules.h.dna')], ['walk', t('rules.h.walk')], ['copies', t('rules.h.copies')],
    ['debuffs', t('rules.h.debuffs')], ['edges', t('rules.h.edges')], ['kings', t('rules.h.kings')],
    ['promotion', t('rules.h.promotion')], ['clock', t('rules.h.clock')],
  ];
  root.replaceChildren(h('article', { class: 'rules', id: 'rules' },
    hero(t('rules.pictures'), contents, t('rules.designInLab')),

    section('dna', t('rules.h.dna'),
      h('p', {}, rich(t('rules.dna.letters'), { letters: code('S A C H'), codon: em(t('rules.dna.codon')), blocks: em(t('rules.dna.blocks')) })),
      table([t('rules.dna.head.codon'), t('rules.dna.head.says')], [
        ['1', rich(t('rules.dna.header1'))],
        ['2', t('rules.dna.header2')],
        ['3', t('rules.dna.header3')],
        ['4', t('rules.dna.header4')],
        ['5', t('rules.dna.header5')],
        ['6', t('rules.dna.header6')],
        ['7', rich(t('rules.dna.header7'))],
      ]),
      h('p', {}, rich(t('rules.dna.code'), { code: em(t('rules.dna.code.word')) })),
      h('div', { class: 'figures' },
        figure('rook', t('rules.figure.rook')), figure('knight', t('rules.figure.knight')),
        figure('bishop', t('rules.figure.bishop')), figure('queen', t('rules.figure.queen')),
        figure('king', t('rules.figure.king')), figure('pawn', t('rules.figure.pawn')))),

    section('walk', t('rules.h.walk'),
      h('p', {}, t('rules.walk.text')),
      table([t('rules.walk.head.step'), t('rules.walk.head.letter'), t('rules.whatItDoes')], [
        [t('rules.walk.marking'), code('S'), t('rules.walk.marking.does')],
        [t('rules.walk.plain'), code('C'), t('rules.walk.plain.does')],
        [t('rules.walk.still'), code('A'), t('rules.walk.still.does')],
      ]),
      h('p', {}, rich(t('rules.walk.length'), { steps: code('SAS AAA AAA AAA') }))),

    section('copies', t('rules.h.copies'),
      h('p', {}, rich(t('rules.copies.outcome'), { xHy: code('xHy'), x: code('x'), y: code('y') })),
      h('p', {}, rich(t('rules.copies.owners'))),
      table([t('rules.copies.head.outcome'), t('rules.whatItDoes')], [
        [code('CHA'), t('rules.copies.CHA')],
        [code('AHA'), t('rules.copies.AHA')],
        [code('SHA'), t('rules.copies.SHA')],
        [rich(t('rules.copies.CHS.ownerTo')), t('rules.copies.CHS')],
        [code('CHC'), t('rules.copies.CHC')],
      ]),
      h('p', {}, t('rules.copies.marks')),
      h('div', { class: 'figures' }, exampleFigure('multiplier'), exampleFigure('charmer'))),

    section('debuffs', t('rules.h.debuffs'),
      h('p', {}, t('rules.debuffs.text')),
      table([t('rules.debuffs.head.codon'), t('rules.debuffs.head.name'), t('rules.debuffs.head.effect')], [
        [code('HAS'), t('rules.debuff.HAS'), t('rules.debuff.HAS.effect')],
        [code('HAC'), t('rules.debuff.HAC'), t('rules.debuff.HAC.effect')],
        [code('HAA'), t('rules.debuff.HAA'), t('rules.debuff.HAA.effect')],
        [code('HCS'), t('rules.debuff.HCS'), t('rules.debuff.HCS.effect')],
        [code('HCA'), t('rules.debuff.HCA'), t('rules.debuff.HCA.effect')],
        [code('HSS'), t('rules.debuff.HSS'), t('rules.debuff.HSS.effect')],
        [code('HSC'), t('rules.debuff.HSC'), t('rules.debuff.HSC.effect')],
        [code('HCC'), t('rules.debuff.HCC'), t('rules.debuff.HCC.effect')],
        [code('HSA'), t('rules.debuff.HSA'), t('rules.debuff.HSA.effect')],
      ]),
      h('p', {}, rich(t('rules.debuffs.queen')))),

    section('edges', t('rules.h.edges'),
      h('p', {}, rich(t('rules.edges.text'), { joined: strong(t('rules.edges.joined')) })),
      h('div', { class: 'figures' }, exampleFigure('wrapper'))),

    kingsSection(),

    section('promotion', t('rules.h.promotion'),
      h('p', {}, rich(t('rules.promotion.text'), { must: strong(t('rules.promotion.must')) }))),

    clockSection()));
  return () => {};
}

// In-page links must not change the route (the address fragment is the route).
function jump(event, id) {
  event.preventDefault();
  document.getElementById(`rules-${id}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

// The standard pieces in discovery: their names (the API's), and for each its name, how it moves
// in a player's words and the name of its "try it" link. Their DNA comes from the server
// (GET /api/genomes/{name}: public, explanation or not).
const STANDARD_PIECES = ['rook', 'knight', 'bishop', 'queen', 'king', 'pawn'];

function standardText(name) {
  return {
    rook: () => [pieceLabel('rook'), t('rules.pieces.moves.rook'), t('rules.pieces.try.rook')],
    knight: () => [pieceLabel('knight'), t('rules.pieces.moves.knight'), t('rules.pieces.try.knight')],
    bishop: () => [pieceLabel('bishop'), t('rules.pieces.moves.bishop'), t('rules.pieces.try.bishop')],
    queen: () => [pieceLabel('queen'), t('rules.pieces.moves.queen'), t('rules.pieces.try.queen')],
    king: () => [pieceLabel('king'), t('rules.pieces.moves.king'), t('rules.pieces.try.king')],
    pawn: () => [pieceLabel('pawn'), t('rules.pieces.moves.pawn'), t('rules.pieces.try.pawn')],
  }[name]();
}

// A table row for a standard piece, its DNA filled in when the server answers.
function standardRow(name) {
  const [shown, moves, tryLabel] = standardText(name);
  const dna = h('code', { class: 'dna', 'data-standard': name }, '…');
  const codeCell = h('td', {}, h('a', { href: `#/code/${name}` }, name));
  api.genome(name).then((stored) => {
    dna.textContent = spaced(stored.dna);
    codeCell.replaceChildren(h('a', { href: `#/code/${encodeURIComponent(stored.code)}` }, h('code', {}, stored.code)));
  }, (error) => { dna.textContent = errorText(error); });
  return h('tr', {},
    h('th', { scope: 'row' }, shown), codeCell, h('td', {}, moves),
    h('td', {}, dna, ' ', h('a', { class: 'small-link', href: `#/lab?genome=${name}`, 'aria-label': tryLabel }, t('rules.pieces.tryIt'))));
}

// How to play in discovery: play, not DNA.
function discoveryPage(root) {
  const contents = [
    ['board', t('rules.h.board')], ['setup', t('rules.h.setup')],
    ['kings', t('rules.h.kings')], ['promotion', t('rules.h.promotion')], ['clock', t('rules.h.clock')],
    ['pieces', t('rules.h.pieces')], ['lab', t('rules.h.lab')],
  ];
  const step = (text, lead) => h('li', {}, rich(text, { lead: strong(lead) }));
  root.replaceChildren(h('article', { class: 'rules discovery-rules', id: 'rules' },
    hero(t('rules.discovery.intro'), contents, t('rules.discovery.experiment')),

    section('board', t('rules.h.board'),
      h('p', {}, t('rules.board.text')),
      h('p', {}, rich(t('rules.board.edges'), { joined: strong(t('rules.board.joined')) }))),

    section('setup', t('rules.h.setup'),
      h('p', {}, rich(t('rules.setup.text'), { preset: em(t('rules.setup.preset')), default: code('default') })),
      h('p', {}, t('rules.setup.kings', { button: t('game.setUpForMe') }))),

    kingsSection(),

    section('promotion', t('rules.h.promotion'),
      h('p', {}, rich(t('rules.discovery.promotion'), { must: strong(t('rules.promotion.must')) }))),

    clockSection(),

    section('pieces', t('rules.h.pieces'),
      h('p', {}, t('rules.pieces.text')),
      h('table', { class: 'rules-table', id: 'standard-pieces' },
        h('thead', {}, h('tr', {}, [t('rules.pieces.head.piece'), t('rules.pieces.head.code'), t('rules.pieces.head.moves'), t('rules.pieces.head.dna')]
          .map((cell) => h('th', { scope: 'col' }, cell)))),
        h('tbody', {}, STANDARD_PIECES.map((name) => standardRow(name))))),

    section('lab', t('rules.h.lab'),
      h('p', {}, t('rules.lab.text')),
      h('ol', { class: 'lab-steps' },
        step(t('rules.lab.write', { tryIt: t('rules.pieces.tryIt') }), t('rules.lab.write.lead')),
        step(t('rules.lab.place', { white: t('color.White'), black: t('color.Black') }), t('rules.lab.place.lead')),
        step(t('rules.lab.see'), t('rules.lab.see.lead')),
        step(t('rules.lab.save'), t('rules.lab.save.lead')),
        step(t('rules.lab.preset'), t('rules.lab.preset.lead'))),
      h('p', {}, h('a', { class: 'button primary', href: '#/lab', id: 'rules-open-lab' }, t('home.design.open'))))));
  return () => {};
}
