// The promotion picker, while this seat has a promotion due.

import { fill, toast } from '../../dom.js';
import * as api from '../../api.js';
import { isOver } from '../../stream.js';
import { promotionPicker } from '../../promote.js';

// `focus()`: the board takes the keyboard focus after the choice.
export function renderPromotion(c, promotion, focus) {
  const view = c.view;
  const due = view.promotion_due;
  if (!due || !view.you || view.to_move !== view.you || isOver(view)) { promotion.replaceChildren(); return; }
  if (promotion.dataset.square === due && promotion.firstChild) return; // keep what is being typed
  promotion.dataset.square = due;
  fill(promotion, promotionPicker({
    square: due, color: view.you,
    onPick: (ref) => c.act(() => api.gamePromote(c.id, c.token, ref)).then((answer) => {
      if (!answer) return;
      promotion.replaceChildren();
      // The stream's line says it; without the stream, the answer does.
      if (!c.live && answer.ply) toast(c.youPromoted(answer.ply, answer.game));
      focus();
    }),
  }));
}
