// The DNA editor: validates while you type by storing the DNA (POST /api/genomes is idempotent,
// and there is no validate-only route), shows the canonical DNA as codons with the offending one
// marked and the server's message right under it, and hands the code on once the DNA is valid.
// In discovery (config.js) the server names no codon and says only that the DNA is not a valid
// genome: the editor shows that sentence and nothing more — no codon strip, no marks, no blocks.

import { h, fill, debounce, copyButton } from './dom.js';
import { storeGenome } from './api.js';
import { discovery } from './config.js';
import { t, has, language, errorText, withElements } from './i18n.js';

const HEADER_MARKS = new Set(['AHH', 'HHA']);
const WAIT_MS = 300;
// The placeholder's example: a genome, written the same in every language.
const EXAMPLE = 'AHH HSH HAA CHA CHA CHA HHA SAS AAA AAA AAA';

// What the server parses: upper case, white space removed (rules.md §2.1).
export function canonical(text) {
  return text.replace(/\s+/g, '').toUpperCase();
}

// Canonical DNA as people write it: codons apart, each block on its own line (in discovery only
// threes apart, as the standard pieces are written: where a block starts is for players to find).
export function spaced(dna) {
  const codons = canonical(dna).match(/.{1,3}/g) || [];
  const lines = !discovery();
  return codons.map((codon, i) => (lines && i > 0 && codon === 'AHH' ? '\n' : i > 0 ? ' ' : '') + codon).join('');
}

// The server's words without its own position prefix (it counts codons from 0; people, and
// this page, from 1).
function reason(message) {
  return message.replace(/^invalid DNA: (codon \d+ \(offset \d+\): )?/, '');
}

// Why a DNA is not a genome, in the page's language. In English the server's own words; in
// another language the catalogue's, built from the error's machine code (`dna.problem.{code}`,
// `dna.expected.{code}`) and what stood there. A code the catalogue does not know keeps the
// server's words.
function why(failure) {
  const code = failure.code;
  if (language() === 'en' || !has(`dna.problem.${code}`)) return reason(failure.message);
  const found = failure.found ? t('dna.found', { text: failure.found }) : t('dna.foundEnd');
  return t('dna.reason', { problem: t(`dna.problem.${code}`), found, expected: t(`dna.expected.${code}`) });
}

// Whether an API failure points at a codon of the DNA sent.
const pointed = (failure) => failure.codon !== undefined && failure.codon !== null;

// An API failure about DNA as the editor says it under the field ("Codon 3, letter 7: …"),
// numbered from 1; any other failure as errorText says it.
function located(failure) {
  if (!pointed(failure)) return errorText(failure);
  return t('dna.errorAt', { codon: failure.codon + 1, letter: failure.offset + 1, reason: why(failure) });
}

// An API failure that may be about DNA (breeding a typed parent), for other panels: as errorText
// says it — in English the server's own words — but a DNA's fault in the page's language.
export function dnaErrorText(failure) {
  return language() === 'en' ? errorText(failure) : located(failure);
}

// dnaEditor({onValid(stored), onInvalid(error)}) → {el, set(dna), code()}.
export function dnaEditor({ onValid = () => {}, onInvalid = () => {}, initial = '' } = {}) {
  const field = h('textarea', {
    id: 'dna-input', rows: 4, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'characters',
    placeholder: t('dna.placeholder', { dna: EXAMPLE }), 'aria-describedby': 'dna-state dna-error',
    'aria-label': t('dna.label'),
  });
  const strip = h('div', { class: 'codons', id: 'codons', 'aria-hidden': 'true' });
  const state = h('p', { class: 'dna-state', id: 'dna-state', 'aria-live': 'polite' });
  const error = h('p', { class: 'dna-error', id: 'dna-error', role: 'alert' });
  const codeOut = h('output', { id: 'dna-code', class: 'code' });
  const copy = copyButton(() => current?.code || '', t('dna.copyCode'));
  copy.id = 'copy-code';
  const codeRow = h('div', { class: 'row code-row', hidden: true }, withElements(t('dna.code'), { code: codeOut }), copy);
  let current = null; // the last valid stored genome
  let asked = 0; // request counter: only the latest answer counts
  let controller = null;

  async function check() {
    const text = field.value;
    const mine = ++asked;
    controller?.abort();
    controller = new AbortController();
    state.textContent = t('dna.checking');
    try {
      const stored = await storeGenome(text, controller.signal);
      if (mine !== asked) return;
      current = stored;
      drawStrip(canonical(text), null);
      error.textContent = '';
      state.textContent = stored.dna === '' ? t('dna.validEmpty') : t('dna.valid');
      codeOut.textContent = stored.code;
      codeRow.hidden = false;
      field.setAttribute('aria-invalid', 'false');
      onValid(stored);
    } catch (failure) {
      if (failure.name === 'AbortError' || mine !== asked) return;
      current = null;
      codeRow.hidden = true;
      field.setAttribute('aria-invalid', 'true');
      state.textContent = pointed(failure) ? t('dna.invalidAt', { codon: failure.codon + 1 })
        : failure.code === 'invalid_genome' ? t('dna.invalid') : t('dna.notChecked');
      // The same number for everyone: the screen reader's text says what the screen shows.
      error.textContent = located(failure);
      drawStrip(canonical(text), failure);
      onInvalid(failure);
    }
  }
  const later = debounce(check, WAIT_MS);
  field.addEventListener('input', later);

  // The codons as chips; the one the error names is marked, with the message beneath it.
  function drawStrip(dna, failure) {
    if (discovery()) { strip.replaceChildren(); strip.hidden = true; return; }
    const chips = [];
    const count = Math.max(Math.ceil(dna.length / 3), failure && failure.codon !== undefined ? failure.codon + 1 : 0);
    for (let i = 0; i < count; i++) {
      const codon = dna.slice(i * 3, i * 3 + 3);
      const bad = failure && failure.codon === i;
      const classes = ['codon'];
      if (HEADER_MARKS.has(codon)) classes.push('mark');
      if (bad) classes.push('error');
      if (codon.length < 3) classes.push('short');
      const letters = [];
      for (let j = 0; j < Math.max(codon.length, 1); j++) {
        const letter = codon[j] || '∅';
        // Only a bad letter is marked as a letter; other errors name the whole codon.
        const offBy = failure && String(failure.found || '').length === 1 && failure.offset === i * 3 + j;
        letters.push(h('span', { class: offBy ? 'letter bad' : 'letter' }, letter));
      }
      const chip = h('span', { class: classes.join(' '), 'data-codon': i, title: t('dna.codon', { codon: i + 1 }) }, letters);
      if (bad) chip.append(h('span', { class: 'under', 'data-codon-error': i }, t('dna.codonError', { codon: i + 1, reason: why(failure) })));
      chips.push(chip);
    }
    fill(strip, chips);
  }

  const el = h('div', { class: 'dna-editor' },
    h('label', { for: 'dna-input' }, t('dna.labelBefore'), h('span', { class: 'hint' }, t('dna.letters'))),
    field, state, strip, error, codeRow);

  function set(dna) {
    field.value = dna;
    check();
  }
  if (initial) set(initial);

  return { el, set, code: () => current?.code || null, stored: () => current, field };
}
