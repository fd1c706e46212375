// The game page: the board from the player's side, setup (preset, kings, ready), moves by
// click, drag or typed text, clocks, freezes, promotions, the move list and the result, all
// kept current by the game's stream. Without a token the page is a spectator's, read-only.

import { h, fill, toast, copyButton } from './dom.js';
import * as api from './api.js';
import { Board, parseMoveText } from './board.js';
import { Clocks } from './clock.js';
import { follow, isOver } from './stream.js';
import { promotionPicker } from './promote.js';
import { standardName } from './pieces.js';
import { remembered } from './seats.js';
import { gameLink } from './home.js';

const REASONS = {
  king_lost: 'a king was lost',
  kings_lost: 'both sides lost a king',
  time: 'on time',
  no_legal_moves: 'no legal moves left',
  resigned: 'by resignation',
};

const other = (color) => (color === 'white' ? 'black' : 'white');
const title = (color) => color.charAt(0).toUpperCase() + color.slice(1);

export function resultText(view) {
  const reason = view.reason ? ` — ${REASONS[view.reason] || view.reason.replaceAll('_', ' ')}` : '';
  switch (view.status) {
    case 'white_won': return `White won${reason}`;
    case 'black_won': return `Black won${reason}`;
    case 'draw': return `Draw${reason}`;
    case 'aborted': return 'The game was aborted';
    default: return '';
  }
}

// "e2–e4", "e2–e4 → e5" after a deviation, "e8 = queen" for a promotion.
function plyText(ply) {
  if (ply.promotion) {
    const to = standardName(ply.genome) || ply.genome || ply.species || 'a piece';
    return `${ply.promotion} = ${to}`;
  }
  let text = `${ply.from}–${ply.to}`;
  if (ply.landed && ply.landed !== ply.to) text += ` → ${ply.landed}`;
  if (ply.mutated_to) text += ` (mutated to ${standardName(ply.mutated_to) || ply.mutated_to})`;
  return text;
}

export function gamePage(root, id, token) {
  let view = null;
  let arrivedAt = 0;
  let live = false;
  let selected = null;
  let targets = [];
  let last = [];
  let plies = [];
  let frame = 0;
  let recordLoaded = false;

  const board = new Board({ label: 'Game board', onSquare: clickSquare, onDrag: dragMove });
  const clocks = new Clocks();
  const notice = h('p', { class: 'notice', id: 'game-notice', role: 'alert' });
  const status = h('p', { class: 'status', id: 'game-status', 'aria-live': 'polite' });
  const freeze = h('p', { class: 'freeze', id: 'freeze', hidden: true });
  const connection = h('p', { class: 'connection', id: 'connection' });
  const topBar = h('div', { class: 'player-bar top' });
  const bottomBar = h('div', { class: 'player-bar bottom' });
  const invite = h('div', { id: 'invite' });
  const setup = h('div', { id: 'setup' });
  const promotion = h('div', { id: 'promotion' });
  const moveList = h('ol', { id: 'move-list', class: 'moves', 'aria-label': 'Moves' });
  const actions = h('div', { class: 'row actions', id: 'actions' });
  const moveField = h('input', {
    id: 'move-text', type: 'text', placeholder: 'e2e4', autocomplete: 'off', spellcheck: 'false',
    'aria-label': 'Type a move, like e2e4', maxlength: 12,
  });
  const moveForm = h('form', { class: 'row move-form', onsubmit: typedMove },
    h('label', { for: 'move-text' }, 'Move'), moveField, h('button', { type: 'submit' }, 'Play'));

  root.replaceChildren(h('div', { class: 'game-page' },
    h('div', { class: 'board-col' }, topBar, board.el, bottomBar, moveForm),
    h('aside', { class: 'side-col' },
      h('section', { class: 'panel' }, h('h2', { class: 'game-title' }, 'Game ', h('code', {}, id)), status, freeze, notice),
      invite, setup, promotion,
      h('section', { class: 'panel' }, h('h3', {}, 'Moves'), moveList),
      h('section', { class: 'panel' }, actions, connection))));

  // Dropping the connection on purpose shows (and lets the browser tests check) that the page
  // reconnects and catches up: window.dispatchEvent(new Event('gmo:drop-stream')).
  const dropStream = () => stream.drop();
  window.addEventListener('gmo:drop-stream', dropStream);
  const stream = follow(id, token, {
    onLine(line, first) {
      // A (re)connection starts with the whole view: moves made while away are noted as a gap
      // (the full list comes from the record at the end).
      const behind = line.game.moves_played - (view ? view.moves_played : 0);
      if (first && behind > 0) plies.push({ gap: behind });
      if (line.ply && (line.type === 'move' || line.type === 'promotion')) {
        plies.push(line.ply);
        if (line.type === 'move') last = [line.ply.from, line.ply.landed || line.ply.to];
        if (view && view.you && line.game.to_move === view.you && line.type === 'move') {
          toast(`${title(other(view.you))} played ${plyText(line.ply)}`);
        }
      }
      apply(line.game);
    },
    onStatus(state, message) {
      live = state === 'live';
      const words = {
        connecting: 'Connecting…', live: 'Live', reconnecting: 'Connection lost; reconnecting…',
        ended: 'The game is over.', failed: message || 'The game cannot be followed.',
      };
      connection.textContent = words[state] || state;
      connection.dataset.state = state;
      if (state === 'failed') show(message);
    },
  });

  function show(message) {
    notice.textContent = message || '';
  }

  function apply(game) {
    const wasOver = view && isOver(view);
    view = game;
    arrivedAt = performance.now();
    if (isOver(view) && !wasOver && !recordLoaded) loadRecord();
    render();
  }

  function mine(square) {
    const piece = view && view.board.find((p) => p.square === square);
    return piece && view.you && piece.color === view.you ? piece : null;
  }

  function canMove() {
    return view && view.you && view.status === 'in_progress' && view.to_move === view.you && !view.promotion_due;
  }

  async function select(square) {
    selected = square;
    targets = [];
    draw();
    try {
      const moves = await api.gameMoves(id, token, square);
      if (selected === square) { targets = moves; draw(); }
    } catch (error) {
      if (selected === square) show(error.message);
    }
  }

  function clickSquare(square, { drag }) {
    if (!view) return;
    show('');
    if (view.status === 'setup') {
      const piece = mine(square);
      if (piece && !view.seats[view.you].ready) { toggleKing(square); return; }
    }
    if (!drag && selected && square !== selected && targets.some((m) => m.to === square) && mine(selected) && canMove()) {
      play(selected, square);
      return;
    }
    if (!drag && square === selected) { selected = null; targets = []; draw(); return; }
    if (view.board.some((p) => p.square === square)) select(square);
    else { selected = null; targets = []; draw(); }
  }

  function dragMove(from, to) {
    if (mine(from) && canMove()) play(from, to);
  }

  function typedMove(event) {
    event.preventDefault();
    const move = parseMoveText(moveField.value);
    if (!move) { show('Type a move as two squares, like e2e4.'); return; }
    play(move[0], move[1]).then((ok) => { if (ok) moveField.value = ''; });
  }

  async function play(from, to) {
    if (!view || !view.you) { show('Spectators cannot move.'); return false; }
    try {
      const answer = await api.gameMove(id, token, from, to);
      selected = null;
      targets = [];
      // The stream brings the same change; use the answer only when the stream is down.
      if (!live) { plies.push(answer.ply); last = [answer.ply.from, answer.ply.landed || answer.ply.to]; apply(answer.game); } else draw();
      return true;
    } catch (error) {
      show(error.message);
      return false;
    }
  }

  async function act(call, okMessage) {
    show('');
    try {
      const answer = await call();
      if (okMessage) toast(okMessage);
      const game = answer && (answer.game || (answer.status ? answer : null));
      if (game && !live) apply(game);
      return true;
    } catch (error) {
      show(error.message);
      return false;
    }
  }

  const toggleKing = (square) => act(() => api.gameKing(id, token, square));

  async function loadRecord() {
    try {
      const record = await api.gameRecord(id, token);
      recordLoaded = true;
      // Record plies have the ply shape of docs/service.md, as stream plies do.
      plies = record.plies.filter((ply) => ply.type === 'move' || ply.type === 'promotion');
      renderMoves();
    } catch { /* the list we have stays */ }
  }

  function draw() {
    if (!view) return;
    board.draw({
      width: view.width, height: view.height, pieces: view.board, flipped: view.you === 'black',
      selected, targets, last, due: view.promotion_due,
    });
  }

  function render() {
    draw();
    const bottom = view.you || 'white';
    fill(topBar, playerLabel(other(bottom)), clocks.els[other(bottom)]);
    fill(bottomBar, playerLabel(bottom), clocks.els[bottom]);
    // The server's clock runs whether or not the stream is up: keep counting from the last view.
    clocks.update(view.clocks, arrivedAt, view.status === 'in_progress');
    status.textContent = statusText();
    status.dataset.status = view.status;
    renderFreeze();
    renderInvite();
    renderSetup();
    renderPromotion();
    renderMoves();
    renderActions();
    moveForm.hidden = !view.you || isOver(view);
  }

  function playerLabel(color) {
    const seat = view.seats[color];
    const who = view.you === color ? 'You' : view.you ? 'Opponent' : title(color);
    const badges = [];
    if (view.status === 'setup') badges.push(seat.ready ? 'ready' : seat.preset ? 'setting up' : 'no preset yet');
    if (view.status === 'in_progress' && view.to_move === color) badges.push('to move');
    return h('div', { class: `player ${color}` },
      h('span', { class: `dot ${color}`, 'aria-hidden': 'true' }),
      h('strong', {}, who), ` (${title(color)})`,
      badges.length ? h('span', { class: 'badge' }, badges.join(', ')) : null);
  }

  function statusText() {
    if (isOver(view)) return resultText(view);
    if (view.status === 'setup') {
      return view.you ? 'Setting up: load a preset, mark your kings, then declare ready.' : 'The players are setting up.';
    }
    if (view.promotion_due) {
      return view.to_move === view.you ? `Promote your pawn on ${view.promotion_due}.` : `${title(view.to_move)} is promoting on ${view.promotion_due}.`;
    }
    if (view.you) return view.to_move === view.you ? 'Your move.' : `${title(view.to_move)} to move.`;
    return `${title(view.to_move)} to move. You are watching.`;
  }

  function renderFreeze() {
    cancelAnimationFrame(frame);
    const until = view.frozen_until ? Date.parse(view.frozen_until) : 0;
    const tick = () => {
      const left = until - Date.now();
      if (left <= 0 || isOver(view)) { freeze.hidden = true; return; }
      freeze.hidden = false;
      freeze.textContent = `Frozen: no move for ${(left / 1000).toFixed(1)} s`;
      frame = requestAnimationFrame(tick);
    };
    tick();
  }

  function renderInvite() {
    const link = remembered(id).invite;
    if (!view.you || view.status !== 'setup' || !link) { invite.replaceChildren(); return; }
    const field = h('input', { id: 'invite-link', type: 'text', readonly: true, value: link, 'aria-label': 'Invite link' });
    fill(invite, h('section', { class: 'panel invite' },
      h('h3', {}, 'Invite your opponent'),
      h('p', {}, `Send this link; it opens the ${title(other(view.you))} seat.`),
      h('div', { class: 'row' }, field, copyButton(() => link)),
      h('p', { class: 'hint' }, 'Spectators: ', h('a', { href: gameLink(id) }, 'watch link'))));
  }

  function renderSetup() {
    if (!view.you || view.status !== 'setup') { setup.replaceChildren(); return; }
    const seat = view.seats[view.you];
    const them = view.seats[other(view.you)];
    const kings = view.board.filter((p) => p.color === view.you && p.king).length;
    const presetField = h('input', {
      id: 'preset-code', type: 'text', value: 'default', autocomplete: 'off', spellcheck: 'false',
      'aria-label': 'Preset code', disabled: seat.preset,
    });
    const loadPreset = (event) => {
      event.preventDefault();
      act(() => api.gamePreset(id, token, presetField.value.trim() || 'default'), 'Preset loaded');
    };
    fill(setup, h('section', { class: 'panel setup' },
      h('h3', {}, 'Setup'),
      h('ol', { class: 'steps' },
        h('li', { class: seat.preset ? 'done' : '' },
          h('form', { class: 'row', onsubmit: loadPreset },
            h('label', { for: 'preset-code' }, 'Preset'), presetField,
            h('button', { type: 'submit', id: 'load-preset', disabled: seat.preset }, seat.preset ? 'Loaded' : 'Load'))),
        h('li', { class: kings > 0 ? 'done' : '' },
          seat.preset ? `Click your pieces to mark kings: ${kings} marked.` : 'Then mark at least one king by clicking it.'),
        h('li', { class: seat.ready ? 'done' : '' },
          h('button', {
            type: 'button', id: 'ready', class: 'primary', disabled: seat.ready || !seat.preset || kings === 0,
            onclick: () => act(() => api.gameReady(id, token), 'Ready'),
          }, seat.ready ? 'Ready ✓' : 'Ready'))),
      h('p', { class: 'hint' }, `Opponent: ${them.preset ? 'preset loaded' : 'no preset yet'}, ${them.ready ? 'ready' : 'not ready'}.`)));
  }

  function renderPromotion() {
    const due = view.promotion_due;
    if (!due || !view.you || view.to_move !== view.you || isOver(view)) { promotion.replaceChildren(); return; }
    if (promotion.dataset.square === due && promotion.firstChild) return; // keep what is being typed
    promotion.dataset.square = due;
    fill(promotion, promotionPicker({
      square: due, color: view.you,
      onPick: (ref) => act(() => api.gamePromote(id, token, ref), 'Promoted').then((ok) => { if (ok) promotion.replaceChildren(); }),
    }));
  }

  function renderMoves() {
    const items = [];
    let count = 0;
    for (const ply of plies) {
      if (ply.gap) {
        count += ply.gap;
        items.push(h('li', { class: 'missed' }, `… ${ply.gap} move${ply.gap > 1 ? 's' : ''} made while away`));
        continue;
      }
      const side = ply.promotion ? null : count++ % 2 === 0 ? 'white' : 'black';
      items.push(h('li', { class: ply.promotion ? 'promotion' : side },
        side ? h('span', { class: `side ${side}`, title: title(side) }) : null, plyText(ply)));
    }
    if (items.length === 0) items.push(h('li', { class: 'empty' }, 'No moves yet.'));
    moveList.replaceChildren(...items);
    moveList.scrollTop = moveList.scrollHeight;
  }

  function renderActions() {
    const buttons = [];
    if (view.you && view.status === 'in_progress') buttons.push(confirmButton('resign', 'Resign', () => api.gameResign(id, token)));
    if (view.you && (view.status === 'setup' || (view.status === 'in_progress' && view.moves_played === 0))) {
      buttons.push(confirmButton('abort', 'Abort', () => api.gameAbort(id, token)));
    }
    if (!view.you) buttons.push(h('p', { class: 'hint' }, 'You are watching: the board is read-only, but you can click any piece to see its moves.'));
    if (isOver(view)) buttons.push(h('a', { class: 'button', href: '#/' }, 'New game'));
    fill(actions, buttons);
  }

  // Two clicks, no dialog: the first arms the button for a few seconds.
  function confirmButton(name, label, call) {
    const button = h('button', { type: 'button', id: name, class: 'danger' }, label);
    let armed = 0;
    button.addEventListener('click', () => {
      if (!armed) {
        button.textContent = `Really ${label.toLowerCase()}?`;
        armed = setTimeout(() => { armed = 0; button.textContent = label; }, 4000);
        return;
      }
      clearTimeout(armed);
      act(call);
    });
    return button;
  }

  return () => {
    window.removeEventListener('gmo:drop-stream', dropStream);
    stream.close();
    clocks.stop();
    cancelAnimationFrame(frame);
  };
}
