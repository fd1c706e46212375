// The lab's engine panel: "Analyse" with a lines selector (1 to 5) asks the server for the
// engine's best lines from the lab's position (GET /api/labs/{id}/analysis, docs/analysis.md)
// and lists each line's evaluation (from White's side, in pawns, or a mate) and its plies; the
// best line's first ply is handed to the page to be drawn on the board. A change of the position
// clears the answer, which no longer holds.

import { h } from './dom.js';
import { t, errorText, formatNumber } from './i18n.js';

const MAX_LINES = 5;

// "+0.35" pawns, or who mates in how many moves.
export function evalText(evaluation) {
  if (evaluation.mate !== undefined && evaluation.mate !== 0) {
    const count = Math.abs(evaluation.mate);
    return evaluation.mate > 0 ? t('lab.engine.mateWhite', { count }) : t('lab.engine.mateBlack', { count });
  }
  const pawns = (evaluation.cp ?? 0) / 100;
  return formatNumber(pawns, { signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// A ply of a line as it is typed in the lab: `e2e4`, or `e7=<code>` for a promotion.
export function plyText(ply) {
  return ply.promotion ? `${ply.from}=${ply.promotion}` : `${ply.from}${ply.to}`;
}

// analyse(lines) → the server's answer; onBest({from, to} | null) draws the best ply.
export function enginePanel({ analyse, onBest }) {
  const count = h('select', { id: 'engine-lines', 'aria-label': t('lab.engine.lines') },
    ...Array.from({ length: MAX_LINES }, (_, i) => h('option', { value: String(i + 1) }, formatNumber(i + 1))));
  const go = h('button', { type: 'submit', id: 'engine-go' }, t('lab.engine.analyse'));
  const status = h('p', { class: 'hint', id: 'engine-status', 'aria-live': 'polite' });
  const list = h('ol', { class: 'engine-lines', id: 'engine-list' });
  let asked = 0; // the number of the last ask: an older answer is dropped

  async function submit(event) {
    event.preventDefault();
    const mine = ++asked;
    go.disabled = true;
    status.textContent = t('lab.engine.thinking');
    list.replaceChildren();
    onBest(null);
    try {
      const answer = await analyse(Number(count.value));
      if (mine === asked) show(answer);
    } catch (error) {
      if (mine === asked) status.textContent = errorText(error);
    } finally {
      if (mine === asked) go.disabled = false;
    }
  }

  function show(answer) {
    const reasons = { no_king: 'lab.engine.noKing', no_moves: 'lab.engine.noMoves' };
    status.textContent = answer.reason ? t(reasons[answer.reason] ?? 'lab.engine.noLine')
      : t('lab.engine.toMove', { color: answer.side_to_move === 'black' ? t('color.Black') : t('color.White') });
    list.replaceChildren(...answer.lines.map((line) => h('li', {
      class: 'engine-line', 'data-eval': JSON.stringify(line.eval),
    },
    h('span', { class: 'engine-eval' }, evalText(line.eval)), ' ',
    h('span', { class: 'engine-moves' }, line.moves.map(plyText).join(' ')), ' ',
    h('span', { class: 'hint engine-depth' }, t('lab.engine.depth', { depth: line.depth })))));
    const best = answer.lines[0]?.moves[0];
    onBest(best && !best.promotion ? { from: best.from, to: best.to } : best ? { from: best.from, to: best.from } : null);
  }

  function clear() {
    asked++;
    go.disabled = false;
    status.textContent = '';
    list.replaceChildren();
    onBest(null);
  }

  const el = h('section', { class: 'panel engine', id: 'engine', 'aria-labelledby': 'engine-title' },
    h('h3', { id: 'engine-title' }, t('lab.engine.title')),
    h('p', { class: 'hint' }, t('lab.engine.hint')),
    h('form', { class: 'row', onsubmit: submit }, h('label', { for: 'engine-lines' }, t('lab.engine.lines')), count, go),
    status, list);
  return { el, clear };
}
