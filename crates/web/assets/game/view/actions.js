// The draw offer's row and the buttons under it: resign, abort, flip, sound.

import { h, fill } from '../../dom.js';
import * as api from '../../api.js';
import { other } from '../../result.js';
import { muted, setMuted } from '../../alert.js';
import { t } from '../../i18n.js';

const soundText = () => t(muted() ? 'game.soundOff' : 'game.soundOn');

export function renderDraw(c, drawRow) {
  const view = c.view;
  if (!view.you || view.status !== 'in_progress') { drawRow.replaceChildren(); return; }
  const offer = view.draw_offer;
  const draw = (ok) => () => c.act(() => api.gameDraw(c.id, c.token), t(ok));
  if (offer === other(view.you)) {
    fill(drawRow,
      h('span', { id: 'draw-offered' }, t('game.draw.offeredToYou')),
      h('button', { type: 'button', id: 'accept-draw', class: 'primary', onclick: draw('game.draw.agreed') }, t('game.draw.accept')),
      h('span', { class: 'hint' }, t('game.draw.orMove')));
  } else if (offer === view.you) {
    fill(drawRow, h('button', { type: 'button', id: 'offer-draw', disabled: true }, t('game.draw.offered')),
      h('span', { class: 'hint' }, t('game.draw.stands')));
  } else {
    fill(drawRow, h('button', { type: 'button', id: 'offer-draw', onclick: draw('game.draw.offered') }, t('game.draw.offer')));
  }
}

// `onFlip()`: the board turned (the page draws it again).
export function renderActions(c, actions, onFlip) {
  const view = c.view;
  const { id, token } = c;
  const buttons = [];
  if (view.you && view.status === 'in_progress') buttons.push(confirmButton(c, 'resign', t('game.resign'), t('game.resignSure'), () => api.gameResign(id, token)));
  if (view.you && !c.inEvent() && (view.status === 'setup' || (view.status === 'in_progress' && view.moves_played === 0))) {
    buttons.push(confirmButton(c, 'abort', t('game.abort'), t('game.abortSure'), () => api.gameAbort(id, token)));
  }
  buttons.push(h('button', {
    type: 'button', id: 'flip', 'aria-pressed': String(c.flip), title: t('game.flipTitle'),
    onclick: () => { c.flip = !c.flip; onFlip(); },
  }, t('game.flip')));
  if (view.you) {
    buttons.push(h('button', {
      type: 'button', id: 'mute', 'aria-pressed': String(muted()),
      onclick: (event) => { setMuted(!muted()); event.currentTarget.setAttribute('aria-pressed', String(muted())); event.currentTarget.textContent = soundText(); },
    }, soundText()));
  }
  if (!view.you) buttons.push(h('p', { class: 'hint' }, t('game.watching')));
  fill(actions, buttons);
}

// Two clicks, no dialog: the first arms the button for a few seconds (and asks `sure`).
function confirmButton(c, name, label, sure, call) {
  const button = h('button', { type: 'button', id: name, class: 'danger' }, label);
  let armed = 0;
  button.addEventListener('click', () => {
    if (!armed) {
      button.textContent = sure;
      armed = setTimeout(() => { armed = 0; button.textContent = label; }, 4000);
      return;
    }
    clearTimeout(armed);
    c.act(call);
  });
  return button;
}
