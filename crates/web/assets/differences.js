// "For chess players: what's different": the few rules a chess player would get wrong, in plain
// words — at the top of How to play, and beside a game's setup and first moves.

import { h } from './dom.js';
import { discovery } from './config.js';
import { t } from './i18n.js';

// Each point: its lead in bold, then the rest (read when drawn: the catalogue loads after import).
const points = () => [
  [t('differences.pawns.lead'), t('differences.pawns.rest')],
  [t('differences.king.lead'), t('differences.king.rest')],
  [t('differences.check.lead'), t('differences.check.rest')],
  [t('differences.freeze.lead'), t('differences.freeze.rest')],
  [t('differences.own.lead'), t('differences.own.rest')],
];

// How long the opponent's DNA stays hidden: in discovery (the server's, or the game's own, which
// the game page learns only from its view) after the end too.
const hiddenPoint = () => [t('differences.hidden.lead'), t(discovery() ? 'differences.hidden.forGood' : 'differences.hidden.rest')];

const item = ([lead, rest]) => [h('strong', {}, lead), rest];

// The box; `onHide` adds a button that puts it away (the game page), else it stays (the rules).
export function differencesBox({ id = 'differences', onHide = null, more = true } = {}) {
  const box = h('section', { class: 'panel differences', id, 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, t('differences.title')),
    h('ul', {}, points().map((point) => h('li', {}, item(point))),
      h('li', { class: 'differences-hidden' }, item(hiddenPoint()))),
    h('div', { class: 'row' },
      more ? h('a', { href: '#/rules', class: 'small-link' }, t('differences.more')) : null,
      onHide ? h('button', { type: 'button', class: 'small', id: `${id}-hide`, onclick: onHide }, t('differences.hide')) : null));
  return box;
}

// Says again how long the opponent's DNA stays hidden, once the mode is known (the game page,
// after each view).
export function followMode(box) {
  const line = box.querySelector('.differences-hidden');
  if (line) line.replaceChildren(...item(hiddenPoint()));
}
