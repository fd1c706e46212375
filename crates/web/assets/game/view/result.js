// Over the board once the game is over: the result, a rematch (or the way back to an event), a
// new game and the record. The box can be put away to see the final position.

import { h, fill } from '../../dom.js';
import { isOver } from '../../stream.js';
import { resultText, endText, other } from '../../result.js';
import { ratingResult } from './players.js';
import { t } from '../../i18n.js';

export function renderResult(c, result) {
  const view = c.view;
  if (!isOver(view) || c.resultClosed) { result.hidden = true; result.replaceChildren(); return; }
  result.hidden = false;
  const controls = [];
  if (c.inEvent()) {
    const home = c.eventHome();
    controls.push(h('a', { class: 'button primary', href: home.href, id: 'back-to-event' }, home.text));
  } else if (view.you && view.status !== 'aborted') {
    const theyAsked = c.rematchAsked[other(view.you)];
    controls.push(h('button', {
      type: 'button', id: 'rematch', class: 'primary', disabled: c.wantRematch,
      onclick: c.askRematch,
    }, t(c.wantRematch ? 'game.rematch.asked' : theyAsked ? 'game.rematch.accept' : 'game.rematch.ask')));
  }
  if (!c.inEvent()) controls.push(h('a', { class: 'button', href: '#/', id: 'new-game' }, t('game.newGame')));
  if (view.status !== 'aborted') controls.push(h('a', { class: 'button', href: `#/record/${encodeURIComponent(c.id)}`, id: 'record-link' }, t('game.record')));
  fill(result,
    h('button', {
      type: 'button', class: 'close', id: 'result-close', 'aria-label': t('game.hideResult'), title: t('game.hide'),
      onclick: () => { c.resultClosed = true; renderResult(c, result); },
    }, '×'),
    h('p', { class: 'result-story', id: 'result-story' }, endText(view, c.lastLoss())),
    h('p', { class: 'result-text', id: 'result-text' }, resultText(view, c.teamNames())),
    ratingResult(c),
    c.wantRematch ? h('p', { class: 'hint', id: 'rematch-state' }, t('game.rematch.waiting'))
      : view.you && c.rematchAsked[other(view.you)] ? h('p', { class: 'hint', id: 'rematch-offered' }, t('game.rematch.offered')) : null,
    h('div', { class: 'row' }, controls));
}
