// "For chess players: what's different": the few rules a chess player would get wrong, in plain
// words — at the top of How to play, and beside a game's setup and first moves.

import { h } from './dom.js';
import { discovery } from './config.js';

const TITLE = 'For chess players: what’s different';
const POINTS = [
  ['Pawns move one square.', ' No double step.'],
  ['The king starts on d1 (d8 for Black).', ' The page marks it for you.'],
  ['There is no check: you win by taking the king.', ' A king that can be taken is shown in red.'],
  ['Some moves freeze the game:', ' the queen’s, for one — nobody moves for 5 seconds.'],
  ['You can capture your own pieces', ' (the rook can): look before you click.'],
  ['Your opponent’s DNA is hidden', ' until the game is over; you still see where each piece can move.'],
];
// In discovery the opponent's DNA stays hidden after the end too.
const HIDDEN_FOR_GOOD = ['Your opponent’s DNA is hidden', ' during the game and after; you still see where each piece can move.'];
const MORE = 'All the rules';
const HIDE = 'Got it';

// The box; `onHide` adds a button that puts it away (the game page), else it stays (the rules).
export function differencesBox({ id = 'differences', onHide = null, more = true } = {}) {
  const box = h('section', { class: 'panel differences', id, 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, TITLE),
    h('ul', {}, (discovery() ? [...POINTS.slice(0, -1), HIDDEN_FOR_GOOD] : POINTS).map(([lead, rest]) => h('li', {}, h('strong', {}, lead), rest))),
    h('div', { class: 'row' },
      more ? h('a', { href: '#/rules', class: 'small-link' }, MORE) : null,
      onHide ? h('button', { type: 'button', class: 'small', id: `${id}-hide`, onclick: onHide }, HIDE) : null));
  return box;
}
