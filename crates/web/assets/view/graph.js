// The evaluation graph of an analysis: an inline SVG, one point per ply, White's winning chances
// from the top (White winning) to the bottom (Black winning), the even line across the middle.
// Each point is a column the height of the graph (easy to hit), named for screen readers; a
// click or Enter goes to that ply. The graph is one tab stop (the point shown, else the first):
// ← → step through the plies as everywhere on the record page.

import { s } from '../dom.js';

const WIDTH = 600;
const HEIGHT = 150;

// White's winning chances, −1 to 1, as lichess works them out (docs/analysis.md): cp ceiled at
// ±1,000, a mate counted as the ceiling, a game ended by the ply as won or drawn.
export function winningChances(evaluation) {
  if (!evaluation) return 0;
  if (typeof evaluation.mate === 'number') {
    if (evaluation.mate !== 0) return Math.sign(evaluation.mate);
    return evaluation.winner === 'white' ? 1 : evaluation.winner === 'black' ? -1 : 0;
  }
  const cp = Math.max(-1000, Math.min(1000, Number(evaluation.cp) || 0));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

// `plies`: the analysis's ({ply, eval, judgement}); `total`: the game's plies (the graph's width
// is the whole game, so it fills in as the analysis goes); `at`: the ply shown (0: the start);
// `label(ply)`: a point's accessible name (`label(null)`: the graph's); `onPick(ply)`.
export function evalGraph(plies, { total, at, label, onPick }) {
  const n = Math.max(1, total);
  const x = (ply) => (ply / n) * WIDTH;
  const y = (evaluation) => (HEIGHT / 2) * (1 - winningChances(evaluation));
  const line = [`M${x(0)},${HEIGHT / 2}`, ...plies.map((p) => `L${x(p.ply).toFixed(1)},${y(p.eval).toFixed(1)}`)].join(' ');
  const last = plies.length ? plies[plies.length - 1].ply : 0;
  const area = `${line} L${x(last).toFixed(1)},${HEIGHT} L0,${HEIGHT} Z`;
  const column = WIDTH / n;
  const stop = plies.some((p) => p.ply === at) ? at : plies.length ? plies[0].ply : null;
  const points = plies.map((p) => s('g', {
    class: `point${p.ply === at ? ' current' : ''}${p.judgement ? ` ${p.judgement}` : ''}`,
    'data-ply': p.ply, tabindex: p.ply === stop ? 0 : -1, role: 'button', 'aria-label': label(p), 'aria-current': p.ply === at ? 'step' : null,
    onclick: () => onPick(p.ply),
    onkeydown: (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); onPick(p.ply); } },
  },
  s('rect', { class: 'hit', x: (x(p.ply) - column / 2).toFixed(1), y: 0, width: column.toFixed(2), height: HEIGHT }),
  s('circle', { cx: x(p.ply).toFixed(1), cy: y(p.eval).toFixed(1), r: p.judgement || p.ply === at ? 4 : 2.5 })));
  return s('svg', { class: 'eval-graph', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'group', 'aria-label': label(null) },
    s('rect', { class: 'black-side', x: 0, y: 0, width: WIDTH, height: HEIGHT }),
    s('path', { class: 'area', d: area }),
    s('line', { class: 'even', x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2 }),
    s('path', { class: 'curve', d: line }),
    at > 0 ? s('line', { class: 'at', x1: x(at), y1: 0, x2: x(at), y2: HEIGHT }) : null,
    points);
}
