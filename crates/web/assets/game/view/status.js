// The status line, the freeze countdown and the first-move timer of the game page.

import { isOver } from '../../stream.js';
import { resultText, endText, title } from '../../result.js';
import { formatMs } from '../../clock.js';
import { t, formatNumber } from '../../i18n.js';

const side = (color) => t(color === 'white' ? 'color.White' : 'color.Black');

export function statusText(c) {
  const view = c.view;
  if (isOver(view)) {
    const story = endText(view, c.lastLoss());
    return view.status === 'aborted' ? story : t('game.status.over', { story, result: resultText(view, c.teamNames()) });
  }
  if (view.status === 'setup') {
    if (!view.you) return t('game.status.playersSetup');
    return view.seats[view.you].ready ? t('game.waiting') : t('game.setupSteps');
  }
  if (view.promotion_due) {
    return view.to_move === view.you ? t('game.status.promoteYours', { square: view.promotion_due })
      : t('game.status.promoting', { color: side(view.to_move), square: view.promotion_due });
  }
  const danger = view.you && view.kings_in_danger && (view.kings_in_danger[view.you] || []).length
    ? t('game.status.danger', { squares: view.kings_in_danger[view.you].join(', ') }) : '';
  const first = view.first_move_deadline && view.to_move === view.you ? t('game.yourFirstMove') : '';
  if (view.you) return (view.to_move === view.you ? t('game.status.yourMove') : t('game.status.toMove', { color: side(view.to_move) })) + danger + first;
  return t('game.status.watching', { color: side(view.to_move) });
}

// A freeze counts down, and the board shows it takes no move until then. Returns
// {render(), stop()}.
export function freezeView(c, freeze, boardWrap) {
  let frame = 0;
  const render = () => {
    cancelAnimationFrame(frame);
    const tick = () => {
      const left = c.frozenFor();
      const on = left > 0 && !isOver(c.view);
      boardWrap.classList.toggle('frozen', on);
      freeze.hidden = !on;
      if (!on) return;
      freeze.textContent = t('game.frozen', { seconds: formatNumber(left / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
      frame = requestAnimationFrame(tick);
    };
    tick();
  };
  return { render, stop: () => cancelAnimationFrame(frame) };
}

// The first-move timer: while the first moves are timed the clocks stand still and this counts
// down, in the bar of the side whose first move it is (White's until it has moved, then
// Black's), from the view's first_move_deadline. Returns {render(bottom), stop()}.
export function firstMoveView(c, firstMove, bars) {
  let frame = 0;
  const render = (bottom) => {
    cancelAnimationFrame(frame);
    const view = c.view;
    const until = view.first_move_deadline ? Date.parse(view.first_move_deadline) : NaN;
    const on = view.status === 'in_progress' && Number.isFinite(until);
    firstMove.hidden = !on;
    if (!on) { firstMove.remove(); return; }
    const mover = view.moves_played > 0 ? 'black' : 'white';
    const bar = mover === bottom ? bars.bottom : bars.top;
    if (firstMove.parentNode !== bar) bar.append(firstMove);
    firstMove.dataset.side = mover;
    const tick = () => {
      const left = until - Date.now();
      const text = t('game.firstMove', { color: title(mover), left: formatMs(left) });
      if (firstMove.textContent !== text) firstMove.textContent = text;
      firstMove.classList.toggle('low', left < 10000);
      if (left > 0) frame = requestAnimationFrame(tick);
    };
    tick();
  };
  return { render, stop: () => cancelAnimationFrame(frame) };
}
