// The two players' bars around the board, each with its clock: the side at the bottom is the
// one the board is seen from. The game page's clocks run; the record page's show the end.

import { h, fill } from '../dom.js';

export function playerBars() {
  return { top: h('div', { class: 'player-bar top' }), bottom: h('div', { class: 'player-bar bottom' }) };
}

// `label(color)`: who plays that side; `clocks`: a Clocks (clock.js) or null for none.
export function fillBars(bars, bottom, label, clocks) {
  const top = bottom === 'white' ? 'black' : 'white';
  fill(bars.top, label(top), clocks ? clocks.els[top] : null);
  fill(bars.bottom, label(bottom), clocks ? clocks.els[bottom] : null);
}
