// The promotion picker, shared by games and labs: the standard pieces plus any genome code.

import { h } from './dom.js';
import { PROMOTION_CHOICES, genomeSvg } from './pieces.js';

// promotionPicker({square, color, onPick(ref)}) → an element; onPick gets a name or a code.
export function promotionPicker({ square, color, onPick, extra = [] }) {
  const field = h('input', {
    type: 'text', class: 'code-input', placeholder: 'code, e.g. 3gbkd6', 'aria-label': 'Promote to the genome with this code',
    autocomplete: 'off', spellcheck: 'false', maxlength: 40,
  });
  const choices = [...extra, ...PROMOTION_CHOICES].map((name) =>
    h('button', {
      type: 'button', class: 'choice', 'data-genome': name, title: name,
      'aria-label': `Promote to ${name}`, onclick: () => onPick(name),
    }, genomeSvg(name, color), h('span', {}, name)));
  return h('section', { class: 'panel promotion', 'aria-label': 'Promotion' },
    h('h3', {}, `Promote the pawn on ${square}`),
    h('div', { class: 'choices' }, choices),
    h('form', {
      class: 'row', onsubmit: (event) => {
        event.preventDefault();
        if (field.value.trim()) onPick(field.value.trim());
      },
    }, field, h('button', { type: 'submit' }, 'Promote')));
}
