// The analysis of a finished game on its record page (docs/analysis.md): "Request analysis"
// (POST /api/games/{id}/analysis), its progress (GET, asked again while it runs), the evaluation
// graph, each side's accuracy and, for the record page's move list and board, each ply's
// judgement and the better move. A game played in discovery has none (403 `discovery`).

import { h, fill } from './dom.js';
import * as api from './api.js';
import { evalGraph } from './view/graph.js';
import { t, errorText, formatNumber } from './i18n.js';

const POLL_MS = 700;

const side = (color) => t(color === 'white' ? 'color.White' : 'color.Black');

// An evaluation in words: "+0.4" (pawns, from White's side), "White mates in 3", "White won".
export function evalText(evaluation) {
  if (!evaluation) return '';
  if (typeof evaluation.mate === 'number') {
    if (evaluation.mate === 0) return evaluation.winner ? t('analysis.eval.won', { color: side(evaluation.winner) }) : t('analysis.eval.drawn');
    return t('analysis.eval.mate', { color: side(evaluation.mate > 0 ? 'white' : 'black'), moves: Math.abs(evaluation.mate) });
  }
  const pawns = (Number(evaluation.cp) || 0) / 100;
  return `${pawns > 0 ? '+' : ''}${formatNumber(pawns, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`;
}

// `describe(ply)`: the ply's move in words; `onPick(ply)`: go to the position after it;
// `onChange()`: the judgements or better moves changed (the page draws its list and board).
export function analysisPanel(id, { describe, onPick, onChange }) {
  let data = null; // the last GET answer
  let phase = 'loading'; // loading, none, asking, queued, running, done, failed, discovery, error
  let message = '';
  let total = 0;
  let at = 0;
  let timer = 0;
  let gone = false;
  let drawn = ''; // the judgements and better moves the page last drew

  const state = h('p', { class: 'hint', id: 'analysis-state', role: 'status' });
  const progress = h('progress', { id: 'analysis-progress', max: 1, value: 0, hidden: true, 'aria-label': t('analysis.progress') });
  const button = h('button', { type: 'button', class: 'primary', id: 'request-analysis', hidden: true, onclick: request }, t('analysis.request'));
  const graph = h('div', { class: 'graph-box', id: 'analysis-graph' });
  const accuracy = h('p', { class: 'accuracy', id: 'analysis-accuracy', hidden: true });
  const best = h('p', { class: 'hint', id: 'analysis-best', hidden: true });
  const el = h('section', { class: 'panel analysis', id: 'analysis', 'aria-label': t('analysis.title') },
    h('h3', {}, t('analysis.title')), state, progress, button, graph, accuracy, best);

  async function read() {
    clearTimeout(timer);
    try {
      data = await api.gameAnalysis(id);
      phase = data.state;
    } catch (error) {
      if (gone) return;
      if (error.status === 404) phase = 'none';
      else if (error.code === 'discovery') phase = 'discovery';
      else { phase = 'error'; message = errorText(error); }
    }
    if (gone) return;
    render();
    // The list and the board are drawn again only when a judgement or a better move came in
    // (a focus on a move stays while the analysis runs).
    const seen = JSON.stringify(plyList().map((p) => [p.judgement, p.best]));
    if (seen !== drawn) { drawn = seen; onChange(); }
    if (phase === 'queued' || phase === 'running') timer = setTimeout(read, POLL_MS);
  }

  async function request() {
    phase = 'asking';
    render();
    try {
      const answer = await api.analyseGame(id);
      phase = answer && answer.state ? answer.state : 'queued';
    } catch (error) {
      if (gone) return;
      phase = error.code === 'discovery' ? 'discovery' : 'error';
      message = errorText(error);
      render();
      return;
    }
    if (!gone) read();
  }

  function stateText() {
    const done = data && data.progress ? data.progress.done : 0;
    const of = data && data.progress ? data.progress.total : 0;
    switch (phase) {
      case 'loading': return t('analysis.loading');
      case 'none': return t('analysis.intro');
      case 'asking': case 'queued': return t('analysis.queued');
      case 'running': return t('analysis.running', { done, total: of });
      case 'done': return t('analysis.done', { total: of });
      case 'failed': return t('analysis.failed', { message: (data && data.error) || '' });
      case 'discovery': return t('analysis.discovery');
      default: return t('analysis.cannot', { message });
    }
  }

  // A point's name: the ply, its move, the evaluation after it and its judgement.
  function pointLabel(ply) {
    if (!ply) return t('analysis.graph');
    const words = { ply: ply.ply, move: describe(ply.ply), eval: evalText(ply.eval) };
    return ply.judgement ? t('analysis.pointJudged', { ...words, judgement: t(`analysis.judgement.${ply.judgement}`) }) : t('analysis.point', words);
  }

  function render() {
    state.textContent = stateText();
    button.hidden = phase !== 'none';
    const running = phase === 'queued' || phase === 'running' || phase === 'asking';
    progress.hidden = !running;
    if (running && data && data.progress && data.progress.total) {
      progress.max = data.progress.total;
      progress.value = data.progress.done;
    } else progress.removeAttribute('value');
    const plies = plyList();
    graph.hidden = plies.length === 0;
    // Drawn anew each time: a focus in the graph goes to its tab stop, the point shown.
    const focused = graph.contains(document.activeElement);
    fill(graph, plies.length ? evalGraph(plies, { total: Math.max(total, plies.length), at, label: pointLabel, onPick }) : null);
    if (focused) graph.querySelector('[tabindex="0"]')?.focus();
    const marks = data && data.accuracy;
    const known = marks && (typeof marks.white === 'number' || typeof marks.black === 'number');
    accuracy.hidden = !known;
    if (known) {
      fill(accuracy, h('strong', {}, t('analysis.accuracy')), ' ',
        ['white', 'black'].map((color) => h('span', { class: 'accuracy-side', id: `accuracy-${color}` },
          t('analysis.accuracyOf', { color: side(color), value: typeof marks[color] === 'number' ? formatNumber(marks[color], { maximumFractionDigits: 1 }) : '–' }))));
    }
    renderBest();
  }

  function plyList() {
    return data && Array.isArray(data.plies) ? data.plies : [];
  }

  function renderBest() {
    const move = betterAt(at);
    best.hidden = !move;
    best.textContent = move ? t('analysis.best', { move: `${move.from}–${move.to}` }) : '';
  }

  // The better move for ply `ply` (1 for the first), or null.
  function betterAt(ply) {
    const found = plyList().find((p) => p.ply === ply);
    return found && found.best ? found.best : null;
  }

  return {
    el,
    // The record is in: `plies` of them; the analysis is read (it may have been asked before).
    load(plies) { total = plies; read(); },
    // A game played in discovery: said at once, nothing asked (the server would refuse: 403).
    refuse() { phase = 'discovery'; render(); },
    // The position shown: after `ply` plies.
    show(ply) { at = ply; if (phase !== 'loading') render(); },
    // Each ply's judgement by entry index (0: the first ply), for the move list.
    marks() {
      const marks = [];
      for (const p of plyList()) if (p.judgement) marks[p.ply - 1] = p.judgement;
      return marks;
    },
    // The better move for ply `ply`, as the board's arrow.
    arrow(ply) {
      const move = betterAt(ply);
      return move ? { ...move, label: t('analysis.best', { move: `${move.from}–${move.to}` }) } : null;
    },
    close() { gone = true; clearTimeout(timer); },
  };
}
