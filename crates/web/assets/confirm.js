// A question before something that cannot be undone, made of the page's own elements: a modal
// <dialog> (the rest of the page inert behind it) with the question, a line of detail and two
// buttons. The focus starts on the safe answer; Escape, the safe button or a click beside the
// box answers no; Tab stays inside. Resolves to true only for the risky button.
//
// A question is often opened by a pointer's release (the board acts on pointerup): that tap's own
// click comes after, and on a touch screen it lands on whatever part of the box lies under the
// finger. So the box ignores every pointer click until a new press has begun inside the page;
// the keyboard (Enter, Space: clicks of detail 0) answers at once.

import { h } from './dom.js';

let open = null; // one question at a time

// Until the next press, swallows the pointer clicks that reach the page (before any of its own
// listeners): the click of the gesture that opened a question. Returns what stops it early.
function opening() {
  const swallow = (event) => {
    if (event.detail === 0) return; // a key's click
    event.preventDefault();
    event.stopPropagation();
  };
  const stop = () => {
    window.removeEventListener('click', swallow, true);
    window.removeEventListener('pointerdown', stop, true);
  };
  window.addEventListener('click', swallow, true);
  window.addEventListener('pointerdown', stop, true);
  return stop;
}

// ask({title, message, yes, no, tone}) → Promise<boolean>; tone 'danger' or 'warning'.
export function ask({ title, message, yes, no, tone = 'danger', id = 'confirm' }) {
  if (open) open(false);
  const before = document.activeElement;
  return new Promise((resolve) => {
    const titleId = `${id}-title`;
    const textId = `${id}-text`;
    const noButton = h('button', { type: 'button', id: `${id}-no`, class: 'primary' }, no);
    const yesButton = h('button', { type: 'button', id: `${id}-yes`, class: tone === 'danger' ? 'danger' : 'warning' }, yes);
    const dialog = h('dialog', {
      id, class: `confirm ${tone}`, role: 'alertdialog', 'aria-modal': 'true',
      'aria-labelledby': titleId, 'aria-describedby': textId,
    },
    h('h2', { id: titleId }, title),
    h('p', { id: textId }, message),
    h('div', { class: 'row' }, noButton, yesButton));
    let done = false;
    const disarm = opening();
    const finish = (answer) => {
      if (done) return;
      done = true;
      open = null;
      disarm();
      if (dialog.open) dialog.close();
      dialog.remove();
      if (before && before.isConnected && typeof before.focus === 'function') before.focus();
      resolve(answer);
    };
    open = finish;
    noButton.addEventListener('click', () => finish(false));
    yesButton.addEventListener('click', () => finish(true));
    // Escape: the browser's own 'cancel'; a click on the backdrop lands on the dialog itself.
    dialog.addEventListener('cancel', (event) => { event.preventDefault(); finish(false); });
    dialog.addEventListener('click', (event) => { if (event.target === dialog) finish(false); });
    dialog.addEventListener('keydown', (event) => {
      // The page's own keys (Escape drops the selection, arrows step the history) stay out.
      event.stopPropagation();
      if (event.key !== 'Tab') return;
      const buttons = [noButton, yesButton];
      const at = buttons.indexOf(document.activeElement);
      event.preventDefault();
      buttons[(at + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
    });
    document.body.append(dialog);
    dialog.showModal();
    noButton.focus();
  });
}
