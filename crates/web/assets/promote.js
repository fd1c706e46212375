// The promotion picker, shared by games and labs: the standard pieces plus any genome code.

import { h } from './dom.js';
import { PROMOTION_CHOICES, genomeSvg, pieceLabel } from './pieces.js';
import { t } from './i18n.js';

// "Promote to queen" for a standard piece (each its own message: Slovak declines the name), to
// a code otherwise.
function promoteTo(name) {
  const to = {
    king: () => t('promote.to.king'), queen: () => t('promote.to.queen'), rook: () => t('promote.to.rook'),
    bishop: () => t('promote.to.bishop'), knight: () => t('promote.to.knight'), pawn: () => t('promote.to.pawn'),
  };
  return Object.hasOwn(to, name) ? to[name]() : t('promote.toCode', { code: name });
}

// promotionPicker({square, color, onPick(ref)}) → an element; onPick gets a name or a code.
export function promotionPicker({ square, color, onPick, extra = [] }) {
  const field = h('input', {
    type: 'text', class: 'code-input', placeholder: t('promote.placeholder'), 'aria-label': t('promote.codeLabel'),
    autocomplete: 'off', spellcheck: 'false', maxlength: 40,
  });
  const choices = [...extra, ...PROMOTION_CHOICES].map((name) =>
    h('button', {
      type: 'button', class: 'choice', 'data-genome': name, title: pieceLabel(name),
      'aria-label': promoteTo(name), onclick: () => onPick(name),
    }, genomeSvg(name, color), h('span', {}, pieceLabel(name))));
  return h('section', { class: 'panel promotion', 'aria-label': t('promote.label') },
    h('h3', {}, t('promote.title', { square })),
    h('div', { class: 'choices' }, choices),
    h('form', {
      class: 'row', onsubmit: (event) => {
        event.preventDefault();
        if (field.value.trim()) onPick(field.value.trim());
      },
    }, field, h('button', { type: 'submit' }, t('promote.button'))));
}
