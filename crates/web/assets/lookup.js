// Looking up a code: a genome (its picture, DNA and explanation) or a preset (its back rank).
// Codes of both kinds look alike, so the genome is tried first, then the preset. In discovery a
// genome shows its DNA only: no diagram (the server refuses it) and no explanation (it has none).

import { h, copyButton } from './dom.js';
import * as api from './api.js';
import { genomeSvg, standardName, pieceLabel } from './pieces.js';
import { startGame, BOT } from './home.js';
import { discovery } from './config.js';
import { t, errorText, withElements } from './i18n.js';

// A genome's name as shown: the standard piece's name in the page's language, else its code.
const nameOf = (code) => {
  const name = standardName(code);
  return name ? pieceLabel(name) : code;
};

export function lookupPage(root, code) {
  const body = h('div', { class: 'lookup' }, h('p', {}, t('lookup.looking', { code })));
  root.replaceChildren(body);
  (async () => {
    try {
      const genome = await api.genome(code);
      body.replaceChildren(genomePanel(genome));
      return;
    } catch (error) {
      if (error.status !== 404) { body.replaceChildren(h('p', { class: 'notice' }, errorText(error))); return; }
    }
    try {
      const preset = await api.preset(code);
      body.replaceChildren(presetPanel(preset));
    } catch (error) {
      body.replaceChildren(h('section', { class: 'panel' },
        h('h2', {}, t('lookup.notFound')),
        h('p', { class: 'notice', role: 'alert' }, error.status === 404 ? t('lookup.noSuchCode', { code }) : errorText(error)),
        h('a', { class: 'button', href: '#/' }, t('lookup.back'))));
    }
  })();
  return () => {};
}

function genomePanel(genome) {
  const name = standardName(genome.code);
  const secret = discovery();
  return h('section', { class: 'panel genome-card', id: 'genome-card' },
    h('div', { class: 'pair' }, genomeSvg(genome.code, 'white'), genomeSvg(genome.code, 'black')),
    h('h2', {}, withElements(t('lookup.genome'), { code: h('code', {}, genome.code) }), name ? t(`pieceinfo.standard.${name}`) : null),
    h('div', { class: 'row' }, copyButton(() => genome.code, t('lookup.copyCode')),
      h('a', { class: 'button primary', id: 'use-in-lab', href: `#/lab?genome=${encodeURIComponent(genome.code)}` }, t('lookup.useInLab'))),
    secret ? null : h('img', {
      class: 'diagram', id: 'genome-diagram', src: api.diagramPath(genome.code), width: 300,
      alt: t('lookup.diagram', { name: nameOf(genome.code) }),
    }),
    h('h3', {}, t('lookup.dna')), h('pre', { class: 'dna' }, genome.dna.replace(/(...)/g, '$1 ').trim() || t('lookup.empty')),
    secret ? h('p', { class: 'hint', id: 'genome-try' }, t('lookup.tryIt'))
      : [h('h3', {}, t('lookup.does')), h('pre', { class: 'explanation' }, genome.explanation)]);
}

function presetPanel(preset) {
  const notice = h('p', { class: 'notice', role: 'alert', id: 'preset-notice' });
  return h('section', { class: 'panel preset-card', id: 'preset-card' },
    h('h2', {}, withElements(t('lookup.preset'), { code: h('code', {}, preset.code) })),
    h('p', {}, t('lookup.rank')),
    h('ol', { class: 'rank' }, preset.genomes.map((code, i) => h('li', {},
      h('a', { href: `#/code/${code}`, 'aria-label': t('lookup.file', { file: String.fromCharCode(97 + i), name: nameOf(code) }) },
        genomeSvg(code, 'white'), h('span', {}, nameOf(code)))))),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', id: 'play-preset', onclick: play }, t('lookup.playWithThis')),
      copyButton(() => preset.code, t('lookup.copyCode'))),
    h('p', { class: 'hint' }, t('lookup.playHint')),
    notice);

  async function play() {
    notice.textContent = '';
    try {
      await startGame({ bot: BOT, preset: preset.code });
    } catch (error) {
      notice.textContent = t('lookup.notStarted', { message: errorText(error) });
    }
  }
}
