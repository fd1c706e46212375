// The game page: the board from the player's side (or flipped), setup (preset, kings, ready),
// moves by click, drag or typed text, clocks, freezes, promotions, the whole history with every
// position, kings in danger, draw offers, the result over the board and a rematch, all kept
// current by the game's stream. Without a token the page is a spectator's, read-only.
//
// The game's state and actions are its controller's (game/ctrl.js); this module lays the page
// out and draws it with the views: the board, the move list and the players' bars with their
// clocks (view/, shared with the record page) and the game's own (game/view/).

import { h } from './dom.js';
import { Board, parseMoveText } from './board.js';
import { Clocks } from './clock.js';
import { isOver } from './stream.js';
import { forget, remembered } from './seats.js';
import { resultText } from './result.js';
import { plyText } from './history.js';
import { showPiece } from './pieceinfo.js';
import { differencesBox, followMode } from './differences.js';
import { gameCtrl } from './game/ctrl.js';
import { drawPosition } from './view/board.js';
import { moveNav, moveList, renderMoves } from './view/moves.js';
import { playerBars, fillBars } from './view/players.js';
import { playerLabel } from './game/view/players.js';
import { statusText, freezeView, firstMoveView } from './game/view/status.js';
import { renderResult } from './game/view/result.js';
import { renderDraw, renderActions } from './game/view/actions.js';
import { renderInvite, renderEvent } from './game/view/invite.js';
import { awayView } from './game/view/away.js';
import { setupPanel } from './game/view/setup.js';
import { renderPromotion } from './game/view/promotion.js';
import { t, formatNumber } from './i18n.js';

export { resultText };

const DIFFERENCES_KEY = 'gmo.differences';
// The typed move's example, a move's notation in every language.
const MOVE_EXAMPLE = 'e2e4';

// `onOver(game)`: called once the game is over (or cannot be followed: then with null), for a
// page that moves on (TV).
export function gamePage(root, id, token, { onOver = null } = {}) {
  const board = new Board({ label: t('game.board'), onSquare: (square, how) => c.clickSquare(square, how), onDrag: (from, to) => c.dragMove(from, to) });
  const clocks = new Clocks();
  const notice = h('p', { class: 'notice', id: 'game-notice', role: 'alert' });
  const status = h('p', { class: 'status', id: 'game-status', 'aria-live': 'polite' });
  const freeze = h('p', { class: 'freeze', id: 'freeze', hidden: true, role: 'timer' });
  // While the first moves are timed: whose first move, and how long is left (beside its clock).
  const firstMove = h('p', { class: 'first-move', id: 'first-move', hidden: true, role: 'timer' });
  const connection = h('p', { class: 'connection', id: 'connection' });
  const timeControl = h('p', { class: 'hint', id: 'time-control' });
  const ratedLine = h('p', { class: 'hint', id: 'game-rated', hidden: true });
  const eventLine = h('p', { class: 'hint', id: 'game-event', hidden: true });
  const bars = playerBars();
  const invite = h('div', { id: 'invite' });
  let differencesHidden = false;
  try { differencesHidden = localStorage.getItem(DIFFERENCES_KEY) === 'hidden'; } catch { /* shown */ }
  const differences = differencesBox({
    id: 'differences',
    onHide: () => {
      differencesHidden = true;
      try { localStorage.setItem(DIFFERENCES_KEY, 'hidden'); } catch { /* for this page only */ }
      differences.hidden = true;
      board.focus();
    },
  });
  differences.hidden = true;
  const promotion = h('div', { id: 'promotion' });
  const pieceInfo = h('section', { class: 'panel piece-info', id: 'piece-info', 'aria-live': 'polite', hidden: true });
  const moves = moveList('move-list', t('game.moves'));
  const pastNote = h('p', { class: 'past-note', id: 'past-note', hidden: true });
  const actions = h('div', { class: 'row actions', id: 'actions' });
  const drawRow = h('div', { class: 'row', id: 'draw-row' });
  const result = h('div', { class: 'result-box', id: 'result-box', hidden: true, role: 'status' });
  const boardWrap = h('div', { class: 'board-wrap' }, board.el, result);
  const nav = moveNav('history', {
    group: 'game.nav.label', first: 'game.nav.first', prev: 'game.nav.prev', next: 'game.nav.next', last: 'game.nav.last',
  }, { first: () => c.showAt(-1), prev: () => c.step(-1), next: () => c.step(1), last: () => c.showAt(null) });
  const moveField = h('input', {
    id: 'move-text', type: 'text', placeholder: MOVE_EXAMPLE, autocomplete: 'off', spellcheck: 'false',
    'aria-label': t('game.moveField'), maxlength: 12,
  });
  const moveForm = h('form', { class: 'row move-form', onsubmit: typedMove },
    h('label', { for: 'move-text' }, t('game.move')), moveField, h('button', { type: 'submit' }, t('game.play')));

  // What the controller tells the page.
  const on = {
    render, draw, moves: renderList,
    notice: (text) => { notice.textContent = text || ''; },
    unnotice: (text) => { if (notice.textContent === text) notice.textContent = ''; },
    connection(state) {
      const known = ['connecting', 'live', 'reconnecting', 'ended', 'failed'];
      connection.textContent = known.includes(state) ? t(`game.connection.${state}`) : state;
      connection.dataset.state = state;
    },
    cannotOpen,
    refused() {
      boardWrap.classList.remove('refused');
      void boardWrap.offsetWidth; // restart the shake
      boardWrap.classList.add('refused');
    },
    pieceInfo: (piece) => showPiece(pieceInfo, piece, piece ? c.view : undefined),
    result: () => renderResult(c, result),
    away: () => away.render(bars, c.bottomColor()),
    applied: () => setup.maybeAuto(),
  };
  const c = gameCtrl(id, token, on, { onOver });
  const setup = setupPanel(c, board, render);
  const away = awayView(c);
  const freezing = freezeView(c, freeze, boardWrap);
  const firstMoving = firstMoveView(c, firstMove, bars);

  root.replaceChildren(h('div', { class: 'game-page' },
    h('div', { class: 'board-col' }, bars.top, boardWrap, bars.bottom, h('div', { class: 'toast-slot' }), pastNote, moveForm),
    h('aside', { class: 'side-col' },
      h('section', { class: 'panel' },
        h('h1', { class: 'game-title' }, t('game.heading'), h('code', {}, id)), status, freeze, notice, timeControl, ratedLine, eventLine),
      invite, setup.el, differences, promotion, pieceInfo,
      h('section', { class: 'panel' }, h('h3', {}, t('game.moves')), nav, moves),
      h('section', { class: 'panel' }, drawRow, actions, connection,
        h('p', { class: 'hint' }, h('a', { href: '#/rules', id: 'rules-link' }, t('home.rulesLink')))))));

  window.addEventListener('gmo:drop-stream', c.dropStream);
  document.addEventListener('keydown', c.keys);

  // A link to a game that does not exist (or a token it never issued): say so once, plainly,
  // with the way back, instead of an empty board.
  function cannotOpen(message) {
    const held = remembered(id).token === token && token;
    root.replaceChildren(h('section', { class: 'panel cannot-open', id: 'cannot-open' },
      h('h2', {}, t('game.cannotOpen.title')),
      h('p', { class: 'notice', role: 'alert' }, message || t('game.cannotOpen.unknown')),
      h('p', {}, t('game.cannotOpen.check')),
      h('div', { class: 'row' },
        h('a', { class: 'button primary', href: '#/', id: 'back-home' }, t('game.cannotOpen.home')),
        held ? h('button', { type: 'button', onclick: () => { forget(id); location.hash = '#/'; } }, t('game.cannotOpen.forget')) : null)));
    document.title = t('game.title.notFound');
  }

  function typedMove(event) {
    event.preventDefault();
    const move = parseMoveText(moveField.value);
    if (!move) { on.notice(t('game.typeMove')); return; }
    c.play(move[0], move[1]).then((ok) => { if (ok) moveField.value = ''; });
  }

  function renderList() {
    if (!c.history) return;
    renderMoves(moves, c.history.entries, { viewing: c.viewing, onPick: (index) => c.showAt(index) });
  }

  function draw() {
    const { view, history, viewing } = c;
    if (!view) return;
    const flipped = (view.you === 'black') !== c.flip;
    pastNote.hidden = viewing === null;
    boardWrap.classList.toggle('past', viewing !== null);
    if (viewing === null) {
      drawPosition(board, {
        width: view.width, height: view.height, pieces: view.board, flipped, selected: c.selected, targets: c.targets,
        last: history ? history.lastMove() : [], due: view.promotion_due, danger: view.kings_in_danger,
      });
      return;
    }
    const past = history.boardAt(viewing);
    pastNote.textContent = viewing < 0 ? t('game.past.start')
      : t(past ? 'game.past.after' : 'game.past.unknown', { ply: plyText(history.entries[viewing].ply, past) });
    drawPosition(board, {
      width: view.width, height: view.height, pieces: past || [], flipped,
      last: history.lastMove(viewing), danger: history.dangerAt(viewing),
    });
  }

  function renderDifferences() {
    const view = c.view;
    const early = view.status === 'setup' || (view.status === 'in_progress' && view.moves_played < 2);
    differences.hidden = differencesHidden || !view.you || !early;
    if (!differences.hidden) followMode(differences);
  }

  function render() {
    const view = c.view;
    draw();
    const bottom = c.bottomColor();
    fillBars(bars, bottom, (color) => playerLabel(c, color), clocks);
    // The server's clock runs whether or not the stream is up: keep counting from the last view.
    clocks.update(view.clocks, c.arrivedAt, view.status === 'in_progress');
    status.textContent = statusText(c);
    const increment = view.clocks && view.clocks.increment_ms;
    timeControl.textContent = increment ? t('game.increment', { seconds: formatNumber(increment / 1000) }) : '';
    status.dataset.status = view.status;
    ratedLine.hidden = !view.rated;
    ratedLine.textContent = view.rated ? t('game.rated') : '';
    freezing.render();
    firstMoving.render(bottom);
    away.render(bars, bottom);
    renderInvite(c, invite);
    setup.render();
    renderDifferences();
    renderPromotion(c, promotion, () => board.focus());
    renderList();
    renderDraw(c, drawRow);
    renderActions(c, actions, render);
    renderEvent(c, eventLine);
    renderResult(c, result);
    moveForm.hidden = !view.you || isOver(view);
  }

  return () => {
    c.close();
    window.removeEventListener('gmo:drop-stream', c.dropStream);
    document.removeEventListener('keydown', c.keys);
    clocks.stop();
    freezing.stop();
    firstMoving.stop();
    away.stop();
  };
}
