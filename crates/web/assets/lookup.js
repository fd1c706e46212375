// Looking up a code: a genome (its picture, DNA and explanation) or a preset (its back rank).
// Codes of both kinds look alike, so the genome is tried first, then the preset. In discovery a
// genome shows its DNA only: no diagram (the server refuses it) and no explanation (it has none).

import { h, copyButton } from './dom.js';
import * as api from './api.js';
import { genomeSvg, standardName } from './pieces.js';
import { startGame, BOT } from './home.js';
import { discovery } from './config.js';

const TEXT = {
  useInLab: 'Use in the lab',
  diagram: (name) => `Where ${name} can move from the middle of an empty 7×7 board, and what its moves leave behind`,
  tryIt: 'To see what it does, use it in the lab: place it and select it to see where it moves.',
  playWithThis: 'Play the bot with this',
  playHint: 'A 5-minute game against the bot, this preset on your back rank, its king marked for you.',
  notStarted: (message) => `The game could not be started: ${message}`,
};

export function lookupPage(root, code) {
  const body = h('div', { class: 'lookup' }, h('p', {}, `Looking up ${code}…`));
  root.replaceChildren(body);
  (async () => {
    try {
      const genome = await api.genome(code);
      body.replaceChildren(genomePanel(genome));
      return;
    } catch (error) {
      if (error.status !== 404) { body.replaceChildren(h('p', { class: 'notice' }, error.message)); return; }
    }
    try {
      const preset = await api.preset(code);
      body.replaceChildren(presetPanel(preset));
    } catch (error) {
      body.replaceChildren(h('section', { class: 'panel' },
        h('h2', {}, 'Not found'),
        h('p', { class: 'notice', role: 'alert' }, error.status === 404 ? `No genome or preset has the code ${code}.` : error.message),
        h('a', { class: 'button', href: '#/' }, 'Back')));
    }
  })();
  return () => {};
}

function genomePanel(genome) {
  const name = standardName(genome.code);
  const secret = discovery();
  return h('section', { class: 'panel genome-card', id: 'genome-card' },
    h('div', { class: 'pair' }, genomeSvg(genome.code, 'white'), genomeSvg(genome.code, 'black')),
    h('h2', {}, 'Genome ', h('code', {}, genome.code), name ? ` — the standard ${name}` : ''),
    h('div', { class: 'row' }, copyButton(() => genome.code, 'Copy code'),
      h('a', { class: 'button primary', id: 'use-in-lab', href: `#/lab?genome=${encodeURIComponent(genome.code)}` }, TEXT.useInLab)),
    secret ? null : h('img', {
      class: 'diagram', id: 'genome-diagram', src: api.diagramPath(genome.code), width: 300,
      alt: TEXT.diagram(name || genome.code),
    }),
    h('h3', {}, 'DNA'), h('pre', { class: 'dna' }, genome.dna.replace(/(...)/g, '$1 ').trim() || '(empty)'),
    secret ? h('p', { class: 'hint', id: 'genome-try' }, TEXT.tryIt)
      : [h('h3', {}, 'What it does'), h('pre', { class: 'explanation' }, genome.explanation)]);
}

function presetPanel(preset) {
  const notice = h('p', { class: 'notice', role: 'alert', id: 'preset-notice' });
  return h('section', { class: 'panel preset-card', id: 'preset-card' },
    h('h2', {}, 'Preset ', h('code', {}, preset.code)),
    h('p', {}, 'A back rank, file a first. Load it during a game’s setup or in the lab.'),
    h('ol', { class: 'rank' }, preset.genomes.map((code, i) => h('li', {},
      h('a', { href: `#/code/${code}`, 'aria-label': `file ${String.fromCharCode(97 + i)}: ${standardName(code) || code}` },
        genomeSvg(code, 'white'), h('span', {}, standardName(code) || code))))),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', id: 'play-preset', onclick: play }, TEXT.playWithThis),
      copyButton(() => preset.code, 'Copy code')),
    h('p', { class: 'hint' }, TEXT.playHint),
    notice);

  async function play() {
    notice.textContent = '';
    try {
      await startGame({ bot: BOT, preset: preset.code });
    } catch (error) {
      notice.textContent = TEXT.notStarted(error.message);
    }
  }
}
