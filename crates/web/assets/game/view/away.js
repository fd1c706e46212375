// Who is away, in its bar (never one's own: this page is there), while the game is on: to the
// other player with a countdown to when the victory may be claimed, then the button that claims
// it; to a spectator, that the side left. Returns {render(bars, bottom), stop()}.

import { h, fill } from '../../dom.js';
import { t } from '../../i18n.js';

const side = (color) => t(color === 'white' ? 'color.White' : 'color.Black');

export function awayView(c) {
  const awayOf = (color) => h('div', { class: 'away', id: `away-${color}`, role: 'status', hidden: true });
  const away = { white: awayOf('white'), black: awayOf('black') };
  let timer = 0;

  // A player away with no `away_since` was never there and the game had not started when the
  // line came (a friend yet to open the invite): not one who left, so nothing is said (the
  // stream says more at its next look, within 5 s).
  function render(bars, bottom) {
    for (const color of ['white', 'black']) {
      const el = away[color];
      const seat = c.presence && c.presence[color];
      const shown = !!(seat && seat.present === false && seat.away_since && c.view.status === 'in_progress' && color !== c.view.you);
      el.hidden = !shown;
      if (!shown) { el.remove(); el.replaceChildren(); delete el.dataset.state; continue; }
      const bar = color === bottom ? bars.bottom : bars.top;
      if (el.parentNode !== bar) bar.append(el);
    }
    tick();
  }

  function tick() {
    clearTimeout(timer);
    let again = false;
    const left = t('game.opponentLeft');
    for (const color of ['white', 'black']) {
      const el = away[color];
      if (el.hidden) continue;
      if (!c.view.you) { words(el, 'watched', t('game.sideLeft', { color: side(color) })); continue; }
      const at = Date.parse(c.presence[color].claimable_at || '');
      const wait = at - Date.now();
      if (!Number.isFinite(at)) words(el, 'away', left);
      else if (wait > 0) {
        words(el, 'counting', left + t('game.claimIn', { seconds: Math.ceil(wait / 1000) }));
        again = true;
      } else words(el, 'claimable', left + t('game.claimNow'), true);
    }
    if (again) timer = setTimeout(tick, 250);
  }

  // The words (changed in place, so that a screen reader hears the change once per state) and,
  // once the victory may be claimed, the button.
  function words(el, state, text, button = false) {
    if (el.dataset.state !== state) {
      el.dataset.state = state;
      fill(el, h('span', { class: 'away-text' }),
        button ? h('button', { type: 'button', class: 'primary small', id: 'claim-victory', onclick: c.claimVictory }, t('game.claim')) : null);
    }
    const span = el.querySelector('.away-text');
    if (span.textContent !== text) span.textContent = text;
  }

  return { render, stop: () => clearTimeout(timer) };
}
