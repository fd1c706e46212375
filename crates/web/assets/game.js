// The game page: the board from the player's side (or flipped), setup (preset, kings, ready),
// moves by click, drag or typed text, clocks, freezes, promotions, the whole history with every
// position, kings in danger, draw offers, the result over the board and a rematch, all kept
// current by the game's stream. Without a token the page is a spectator's, read-only.

import { h, fill, toast, copyButton } from './dom.js';
import * as api from './api.js';
import { Board, parseMoveText } from './board.js';
import { Clocks, formatMs } from './clock.js';
import { follow, isOver, isCompact, applyCompact, unknownAfter } from './stream.js';
import { promotionPicker } from './promote.js';
import { remember, remembered, forget } from './seats.js';
import { gameLink } from './home.js';
import { resultText, endText, opponentJoined, title, ofSide, other, botName } from './result.js';
import { History, renderHistory, plyText, promotedName, lastLoss as lastLossIn } from './history.js';
import { showPiece } from './pieceinfo.js';
import { standardName } from './pieces.js';
import { discovery, gameInDiscovery } from './config.js';
import { ask } from './confirm.js';
import { chime, muted, setMuted } from './alert.js';
import { setupChoice, saveSetupChoice, autoSetup, kingSquare, DEFAULT_PRESET } from './setup.js';
import { differencesBox, followMode } from './differences.js';
import { signedIn } from './account.js';
import { playerTag, playerName, ratingText, diffText } from './players.js';
import { t, errorText, formatNumber } from './i18n.js';

export { resultText };

// The words of setup, notices and the moves (the others are where they are used). Functions and
// getters: the catalogue is loaded after this module.
const TEXT = {
  autoRunning: (preset) => t('game.autoRunning', { preset }),
  autoDone: (preset, kings) => t('game.autoDone', { preset, kings }),
  autoFailed: (preset, message) => t('game.autoFailed', { preset, message }),
  get customiseNext() { return t('game.customiseNext'); },
  get customiseNote() { return t('game.customiseNote'); },
  get setUpForMe() { return t('game.setUpForMe'); },
  get waiting() { return t('game.waiting'); },
  get setupSteps() { return t('game.setupSteps'); },
  youPromoted: (square, piece) => (piece ? t('game.youPromotedTo', { square, piece }) : t('game.youPromoted', { square })),
  theyPromoted: (color, square, piece) => (piece ? t('game.theyPromotedTo', { color: title(color), square, piece })
    : t('game.theyPromoted', { color: title(color), square })),
  played: (color, ply) => t('game.played', { color: title(color), ply }),
  firstMove: (color, left) => t('game.firstMove', { color: title(color), left }),
  get yourFirstMove() { return t('game.yourFirstMove'); },
  get losesTitle() { return t('game.losesTitle'); },
  losesText: (from, to, on) => (on ? t('game.losesTextOn', { from, to, square: on }) : t('game.losesText', { from, to })),
  get losesYes() { return t('game.losesYes'); },
  get exposesTitle() { return t('game.exposesTitle'); },
  exposesText: (from, to, them) => t('game.exposesText', { from, to, them: side(them) }),
  get exposesYes() { return t('game.exposesYes'); },
  get cancel() { return t('lobby.cancel'); },
  get opponentLeft() { return t('game.opponentLeft'); },
  claimIn: (seconds) => t('game.claimIn', { seconds }),
  get claimNow() { return t('game.claimNow'); },
  get claim() { return t('game.claim'); },
  sideLeft: (color) => t('game.sideLeft', { color: side(color) }),
  get opponentBack() { return t('game.opponentBack'); },
  get opponent() { return t('game.opponent'); },
  get you() { return t('game.you'); },
  get anonymous() { return t('players.anonymous'); },
  get youMark() { return t('game.youMark'); },
  get rated() { return t('game.rated'); },
  get ratingChange() { return t('game.ratingChange'); },
  ratingLine: (name, before, after, diff) => `${name}: ${before} → ${after} (${diff})`,
};
const DIFFERENCES_KEY = 'gmo.differences';
// The typed move's example, a move's notation in every language.
const MOVE_EXAMPLE = 'e2e4';
const soundText = () => t(muted() ? 'game.soundOff' : 'game.soundOn');
// White or Black, capitalised, in the page's language.
const side = (color) => t(color === 'white' ? 'color.White' : 'color.Black');

// `onOver(game)`: called once the game is over (or cannot be followed: then with null), for a
// page that moves on (TV).
export function gamePage(root, id, token, { onOver = null } = {}) {
  let view = null;
  let arrivedAt = 0;
  let live = false;
  let selected = null;
  let targets = [];
  let frame = 0;
  let recordLoaded = false;
  let flip = false;
  let viewing = null; // the history entry shown, or null for the game as it is
  let wantRematch = false;
  let resultClosed = false; // the box over the board can be put away to see the final position
  let rematchAsked = { white: false, black: false }; // who asked for a rematch (stream, answer)
  let followsAfterEnd = 0; // reconnections after the end, to hear of a rematch: bounded
  // The server keeps a seat's stream of a finished game open 10 minutes for the rematch: the page
  // follows it again for an hour in all, and for as long as it waits for its own rematch.
  const FOLLOWS_AFTER_END = 6;
  let history = null;
  let askedPlies = false;
  let pliesRoute = true;
  let gone = false;
  // A rated game's rating changes, once over: in a view read after the end (the stream's lines
  // do not carry them), asked for once.
  let ratingDiff = null;
  let eventGame = null; // {id, name, round, board, teams} of an event's game
  let askedDiff = false;
  let askedLink = false;

  const board = new Board({ label: t('game.board'), onSquare: clickSquare, onDrag: dragMove });
  const clocks = new Clocks();
  const notice = h('p', { class: 'notice', id: 'game-notice', role: 'alert' });
  const status = h('p', { class: 'status', id: 'game-status', 'aria-live': 'polite' });
  const freeze = h('p', { class: 'freeze', id: 'freeze', hidden: true, role: 'timer' });
  // While the first moves are timed: whose first move, and how long is left (beside its clock).
  const firstMove = h('p', { class: 'first-move', id: 'first-move', hidden: true, role: 'timer' });
  let firstFrame = 0;
  // Who is there (the stream's presence lines): a player away is said in its bar — to the other
  // player with a countdown to when the victory may be claimed, then the button that claims it.
  let presence = null;
  let awayTimer = 0;
  const awayOf = (color) => h('div', { class: 'away', id: `away-${color}`, role: 'status', hidden: true });
  const away = { white: awayOf('white'), black: awayOf('black') };
  const connection = h('p', { class: 'connection', id: 'connection' });
  const timeControl = h('p', { class: 'hint', id: 'time-control' });
  const ratedLine = h('p', { class: 'hint', id: 'game-rated', hidden: true });
  const topBar = h('div', { class: 'player-bar top' });
  const bottomBar = h('div', { class: 'player-bar bottom' });
  const invite = h('div', { id: 'invite' });
  const setup = h('div', { id: 'setup', hidden: true });
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
  const moveList = h('ol', { id: 'move-list', class: 'moves', 'aria-label': t('game.moves') });
  const pastNote = h('p', { class: 'past-note', id: 'past-note', hidden: true });
  const actions = h('div', { class: 'row actions', id: 'actions' });
  const drawRow = h('div', { class: 'row', id: 'draw-row' });
  const result = h('div', { class: 'result-box', id: 'result-box', hidden: true, role: 'status' });
  const boardWrap = h('div', { class: 'board-wrap' }, board.el, result);
  const navButton = (name, label, text, onclick) =>
    h('button', { type: 'button', class: 'small', id: `history-${name}`, 'aria-label': label, title: label, onclick }, text);
  const nav = h('div', { class: 'row history-nav', role: 'group', 'aria-label': t('game.nav.label') },
    navButton('first', t('game.nav.first'), '«', () => showAt(-1)),
    navButton('prev', t('game.nav.prev'), '‹', () => step(-1)),
    navButton('next', t('game.nav.next'), '›', () => step(1)),
    navButton('last', t('game.nav.last'), '»', () => showAt(null)));
  const moveField = h('input', {
    id: 'move-text', type: 'text', placeholder: MOVE_EXAMPLE, autocomplete: 'off', spellcheck: 'false',
    'aria-label': t('game.moveField'), maxlength: 12,
  });
  const moveForm = h('form', { class: 'row move-form', onsubmit: typedMove },
    h('label', { for: 'move-text' }, t('game.move')), moveField, h('button', { type: 'submit' }, t('game.play')));

  root.replaceChildren(h('div', { class: 'game-page' },
    h('div', { class: 'board-col' }, topBar, boardWrap, bottomBar, h('div', { class: 'toast-slot' }), pastNote, moveForm),
    h('aside', { class: 'side-col' },
      h('section', { class: 'panel' },
        h('h1', { class: 'game-title' }, t('game.heading'), h('code', {}, id)), status, freeze, notice, timeControl, ratedLine, eventLine()),
      invite, setup, differences, promotion, pieceInfo,
      h('section', { class: 'panel' }, h('h3', {}, t('game.moves')), nav, moveList),
      h('section', { class: 'panel' }, drawRow, actions, connection,
        h('p', { class: 'hint' }, h('a', { href: '#/rules', id: 'rules-link' }, t('home.rulesLink')))))));

  // An event's game: its event, round, board and teams (GET …/event, asked once), else null.
  // Its page names the teams, and offers the way back to the event where other games offer an
  // abort, a rematch or a new game (the server refuses those: `event_game`).
  function eventLine() {
    const line = h('p', { class: 'hint', id: 'game-event', hidden: true });
    api.gameEvent(id).then((answer) => {
      eventGame = answer && answer.event ? answer.event : null;
      if (!gone && view) render();
    }, () => { /* an ordinary game's page, as before */ });
    return line;
  }

  // Whether this is an event's game: the server said so, or its team page opened it.
  const inEvent = () => !!eventGame || !!remembered(id).event;

  // The way back: a seat to its team's page, anybody else to the event's.
  function eventHome() {
    const event = eventGame ? eventGame.id : remembered(id).event;
    const team = view && view.you;
    return {
      href: `#/events/${encodeURIComponent(event)}${team ? '/team' : ''}`,
      text: t(team ? 'game.backToTeam' : 'game.backToEvent'),
    };
  }

  function renderEvent() {
    const line = document.getElementById('game-event');
    if (!line) return;
    line.hidden = !inEvent();
    if (line.hidden) return;
    const home = eventHome();
    const about = eventGame ? t('game.eventBoard', {
      event: eventGame.name, round: eventGame.round, board: eventGame.board,
      white: eventGame.teams.white.name, black: eventGame.teams.black.name,
    }) : null;
    fill(line, about, about ? ' ' : null, h('a', { href: home.href, id: 'game-event-link' }, home.text));
  }

  // The teams by colour, for the result's words (none outside an event).
  const teamNames = () => (eventGame ? { white: eventGame.teams.white.name, black: eventGame.teams.black.name } : null);

  // Dropping the connection on purpose shows (and lets the browser tests check) that the page
  // reconnects and catches up: window.dispatchEvent(new Event('gmo:drop-stream')).
  const dropStream = () => stream.drop();
  window.addEventListener('gmo:drop-stream', dropStream);
  document.addEventListener('keydown', keys);
  // Compact lines (?lines=compact): each change after the first line carries only what changed,
  // applied to the view the page keeps. `version` is the last change line's (the first line has
  // none); a version skipped, or a line the page cannot apply, reads the game again (refetch).
  let version = null;
  let changesSeen = 0;
  const stream = follow(id, token, {
    presence: true,
    compact: true,
    onLine(line, first) {
      if (line.type === 'presence') { notePresence(line.seats); return; }
      if (line.type === 'rematch') { if (line.token && line.game) goRematch(line.game, line.token); return; }
      if (line.type === 'rematch_offer') { noteRematch(line.color); return; }
      if (first) version = null;
      let game = line.game && typeof line.game === 'object' ? line.game : null;
      let unknown = null;
      let behind = false;
      if (!first) {
        changesSeen++;
        if (typeof line.version === 'number') {
          behind = version !== null && line.version > version + 1;
          version = version === null ? line.version : Math.max(version, line.version);
        }
      }
      if (!game && isCompact(line)) {
        game = applyCompact(view, line);
        if (game) unknown = unknownAfter(view, line, game);
      }
      if (!game) { refetch(); return; }
      // A server may also name this seat's next game in the view itself.
      if (game.rematch && typeof game.rematch === 'object' && game.rematch.game && game.rematch.token) {
        goRematch(game.rematch.game, game.rematch.token);
        return;
      }
      if (!history) history = new History(id, game.you);
      history.noteView(game);
      if (first) {
        if (line.plies) history.setPlies(line.plies);
        else { history.catchUp(game); askPlies(); }
        if (!isOver(game)) history.noteCurrent(game);
        if (history.lacksPositions()) askPositions();
      }
      const before = view;
      if (line.ply && (line.type === 'move' || line.type === 'promotion') && !first) {
        if (!hasPly(line.ply, game)) history.push(line.ply, game);
        notePly(line, before, game);
      }
      if (line.type === 'joined' && before && before.you && game.status === 'setup' && remembered(id).invite
        && !opponentJoined(before, other(before.you)) && opponentJoined(game, other(before.you))) {
        toast(t('game.friendOpened'));
      }
      if (before && before.draw_offer !== game.draw_offer && game.status === 'in_progress' && game.you) {
        if (game.draw_offer === other(game.you)) toast(t('game.draw.theyOffer'));
        else if (before.draw_offer === game.you && !game.draw_offer) toast(t('game.draw.declined'));
      }
      apply(game);
      if (behind || line.type === 'resync') refetch();
      else if (unknown) askDetails(unknown);
    },
    onStatus(state, message) {
      live = state === 'live';
      const known = ['connecting', 'live', 'reconnecting', 'ended', 'failed'];
      connection.textContent = known.includes(state) ? t(`game.connection.${state}`) : state;
      connection.dataset.state = state;
      if (state === 'failed' && !view) { cannotOpen(message); if (onOver) onOver(null); }
    },
    // A seat's stream after the end waits for the rematch (the server bounds the wait); the page
    // follows it again (FOLLOWS_AFTER_END), and for as long as it waits for its own rematch.
    afterEnd: () => !!(view && view.you && view.status !== 'aborted') && (wantRematch || followsAfterEnd++ < FOLLOWS_AFTER_END),
  });

  // Says what the other side did — never one's own move as the opponent's: the mover is the
  // owner of the piece that moved (a move that leaves a promotion due keeps its mover to move).
  function notePly(line, before, game) {
    if (!before || !before.you || isOver(game)) return;
    const ply = line.ply;
    const at = (square) => before.board.find((p) => p.square === square);
    if (line.type === 'promotion') {
      const square = ply.promotion;
      const mover = (at(square) && at(square).color) || before.to_move;
      const to = promotedTo(ply, game);
      toast(mover === before.you ? TEXT.youPromoted(square, to) : TEXT.theyPromoted(mover, square, to));
      return;
    }
    const mover = (at(ply.from) && at(ply.from).color) || before.to_move;
    if (mover && mover !== before.you) toast(TEXT.played(mover, plyText(ply)));
  }

  // Whether the history has `ply` already (a view read again after a gap brought it).
  function hasPly(ply, game) {
    const last = history.entries[history.entries.length - 1];
    if (ply.type === 'promotion' || ply.promotion) {
      return !!(last && last.ply && last.ply.promotion === ply.promotion && history.moves() === game.moves_played);
    }
    return history.moves() >= game.moves_played;
  }

  // What a compact line left unknown (stream.js, unknownAfter), read from GET /api/games/{id}: a
  // seat's kings in danger after each change of the board, and the first-move deadline while it
  // may run (for spectators too: at most at the start and after White's first move). A view that
  // no longer matches (a newer line is on its way) is not used: that line asks again.
  let detailsAsked = 0;
  async function askDetails({ danger, deadline }) {
    const seat = !!(token && view && view.you);
    if (!(deadline || (danger && seat)) || gone) return;
    const asked = ++detailsAsked;
    let fresh;
    try { fresh = await api.game(id, token); } catch { return; }
    if (gone || asked !== detailsAsked || !view || !fresh) return;
    if (fresh.moves_played !== view.moves_played || fresh.status !== view.status || fresh.to_move !== view.to_move) return;
    view = { ...view, kings_in_danger: fresh.kings_in_danger, first_move_deadline: fresh.first_move_deadline };
    if (history) history.noteDanger(view);
    render();
  }

  // The view read again (GET /api/games/{id}, and the plies for the history), after a version
  // gap, a resync line or a line the page cannot apply. Lines that arrive meanwhile are applied
  // as usual; if any did, the answer may be older than they are, so it is asked again (twice at
  // most, then the stream is opened again: its first line is the whole view).
  let refetching = false;
  async function refetch(tries = 0) {
    if (refetching || gone) return;
    refetching = true;
    const mark = changesSeen;
    let fresh = null;
    let plies = null;
    try {
      [fresh, plies] = await Promise.all([
        api.game(id, token),
        pliesRoute ? api.gamePlies(id, token).catch(() => null) : Promise.resolve(null),
      ]);
    } catch {
      fresh = null;
    }
    refetching = false;
    if (gone) return;
    if (!fresh || changesSeen !== mark) {
      if (tries < 2) refetch(tries + 1);
      else stream.drop();
      return;
    }
    if (!history) history = new History(id, fresh.you);
    const list = Array.isArray(plies) ? plies : plies && plies.plies;
    if (Array.isArray(list)) history.setPlies(list);
    if (!isOver(fresh)) history.noteCurrent(fresh);
    apply(fresh);
  }

  // What a pawn became, in words: a standard piece by name (the ply's `name`, for everybody; or
  // the view after it), another genome by its code; the opponent's hidden genome is not named.
  function promotedTo(ply, after) {
    const name = promotedName(ply, after && Array.isArray(after.board) ? after.board : null);
    if (!name) return '';
    return name === ply.genome && !standardName(name) ? t('game.promotedTo.code', { name }) : t('game.promotedTo.standard', { name });
  }

  function notePresence(seats) {
    if (!seats || typeof seats !== 'object') return;
    const before = presence;
    presence = seats;
    const them = view && view.you ? other(view.you) : null;
    if (them && before && before[them] && !before[them].present && before[them].away_since && seats[them] && seats[them].present
      && view.status === 'in_progress') {
      toast(TEXT.opponentBack);
    }
    if (view) renderAway();
  }

  // The bar of each side away (never one's own: this page is there), while the game is on. A
  // player away with no `away_since` was never there and the game had not started when the line
  // came (a friend yet to open the invite): not one who left, so nothing is said (the stream
  // says more at its next look, within 5 s).
  function renderAway() {
    const bottom = bottomColor();
    for (const color of ['white', 'black']) {
      const el = away[color];
      const seat = presence && presence[color];
      const shown = !!(seat && seat.present === false && seat.away_since && view.status === 'in_progress' && color !== view.you);
      el.hidden = !shown;
      if (!shown) { el.remove(); el.replaceChildren(); delete el.dataset.state; continue; }
      const bar = color === bottom ? bottomBar : topBar;
      if (el.parentNode !== bar) bar.append(el);
    }
    tickAway();
  }

  function tickAway() {
    clearTimeout(awayTimer);
    let again = false;
    for (const color of ['white', 'black']) {
      const el = away[color];
      if (el.hidden) continue;
      if (!view.you) { awayWords(el, 'watched', TEXT.sideLeft(color)); continue; }
      const at = Date.parse(presence[color].claimable_at || '');
      const left = at - Date.now();
      if (!Number.isFinite(at)) awayWords(el, 'away', TEXT.opponentLeft);
      else if (left > 0) {
        awayWords(el, 'counting', TEXT.opponentLeft + TEXT.claimIn(Math.ceil(left / 1000)));
        again = true;
      } else awayWords(el, 'claimable', TEXT.opponentLeft + TEXT.claimNow, true);
    }
    if (again) awayTimer = setTimeout(tickAway, 250);
  }

  // The words (changed in place, so that a screen reader hears the change once per state) and,
  // once the victory may be claimed, the button.
  function awayWords(el, state, words, button = false) {
    if (el.dataset.state !== state) {
      el.dataset.state = state;
      fill(el, h('span', { class: 'away-text' }),
        button ? h('button', { type: 'button', class: 'primary small', id: 'claim-victory', onclick: claimVictory }, TEXT.claim) : null);
    }
    const text = el.querySelector('.away-text');
    if (text.textContent !== words) text.textContent = words;
  }

  async function claimVictory(event) {
    const button = event.currentTarget;
    button.disabled = true;
    // The answer is the game as it ended (the stream's end line says the same).
    if (!(await act(() => api.gameClaim(id, token)))) button.disabled = false;
  }

  function noteRematch(color) {
    if (!view || !(color in rematchAsked) || rematchAsked[color]) return;
    rematchAsked[color] = true;
    if (color === view.you) wantRematch = true;
    else if (view.you) toast(t('game.rematch.theyWant'));
    renderResult();
  }

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

  function show(message) {
    notice.textContent = message || '';
  }

  function myTurn(game = view) {
    return !!(game && game.you && game.status === 'in_progress' && game.to_move === game.you);
  }

  function apply(game) {
    const wasOver = view && isOver(view);
    const wasMine = myTurn();
    view = game;
    gameInDiscovery(view.discovery);
    arrivedAt = performance.now();
    if (token && view.you) {
      remember(id, { token, color: view.you, status: view.status }, { touch: !remembered(id).token });
    }
    if (isOver(view) && !wasOver && !recordLoaded) loadRecord();
    if (isOver(view) && !wasOver && onOver) setTimeout(() => { if (!gone) onOver(view); });
    if (view.rating_diff) ratingDiff = view.rating_diff;
    if (isOver(view) && view.rated && !ratingDiff) askRatingDiff();
    maybeLink();
    maybeAutoSetup();
    if (myTurn() && !wasMine && view.moves_played > 0 && !gone) chime();
    document.title = isOver(view) ? t('title.named', { name: resultText(view, teamNames()) })
      : myTurn() ? t('game.title.yourMove') : t('title.game', { id });
    render();
  }

  // The rating changes of a rated game that has ended: a view read now carries them (the
  // server rates the game in the transaction that ends it).
  async function askRatingDiff() {
    if (askedDiff || gone) return;
    askedDiff = true;
    for (let tries = 0; tries < 3 && !gone; tries++) {
      try {
        const answer = await api.game(id, token);
        if (answer && answer.rating_diff) {
          ratingDiff = answer.rating_diff;
          if (view && !gone) render();
          return;
        }
      } catch { /* tried again below */ }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  // Signed in, a seat opened by its link becomes the account's: the server links it when the
  // seat's token and the session reach GET /api/games/{id} together (the stream alone does not).
  async function maybeLink() {
    if (askedLink || !token || !view || !view.you || isOver(view) || !signedIn()) return;
    if (view.players && view.players[view.you]) return;
    askedLink = true;
    try {
      const answer = await api.game(id, token);
      if (answer && answer.players && view && !gone) {
        view = { ...view, players: answer.players };
        render();
      }
    } catch { /* the seat stays anonymous */ }
  }

  async function askPlies() {
    if (!pliesRoute || askedPlies) return;
    askedPlies = true;
    try {
      const answer = await api.gamePlies(id, token);
      const plies = Array.isArray(answer) ? answer : answer && answer.plies;
      if (Array.isArray(plies) && history.setPlies(plies)) {
        if (view && !isOver(view)) history.noteCurrent(view);
        renderMoves();
      }
    } catch (error) {
      if (error.status === 404 || error.status === 405) pliesRoute = false;
    } finally {
      askedPlies = false;
    }
  }

  // The positions this browser did not see, from the server (as this seat sees them), page by
  // page; the history's boards are then the server's, not worked out here.
  let askingPositions = false;
  async function askPositions() {
    if (askingPositions || gone) return;
    askingPositions = true;
    try {
      let from = 0;
      while (from !== null && from !== undefined && !gone) {
        const page = await api.gamePositions(id, token, from);
        if (!page || !Array.isArray(page.positions)) break;
        for (const position of page.positions) history.setPosition(position.ply, position.board, position.kings_in_danger);
        from = typeof page.next === 'number' ? page.next : null;
      }
      history.save();
      if (!gone) { draw(); renderMoves(); }
    } catch { /* the positions worked out here stay */ } finally {
      askingPositions = false;
    }
  }

  function pieceAt(square) {
    return view && view.board.find((p) => p.square === square);
  }

  function mine(square) {
    const piece = pieceAt(square);
    return piece && view.you && piece.color === view.you ? piece : null;
  }

  function frozenFor() {
    const until = view && view.frozen_until ? Date.parse(view.frozen_until) : 0;
    return Math.max(0, until - Date.now());
  }

  function canMove() {
    return myTurn() && !view.promotion_due;
  }

  function deselect() {
    selected = null;
    targets = [];
    showPiece(pieceInfo, null);
    draw();
  }

  async function select(square) {
    selected = square;
    targets = [];
    const piece = pieceAt(square);
    showPiece(pieceInfo, piece ? { ...piece } : null, view);
    draw();
    try {
      const moves = await api.gameMoves(id, token, square);
      if (selected === square) { targets = moves; draw(); }
    } catch (error) {
      if (selected === square) show(errorText(error));
    }
  }

  function clickSquare(square, { drag }) {
    if (!view) return;
    if (viewing !== null) { showAt(null); return; } // a click on a past position returns to the game
    show('');
    if (view.status === 'setup') {
      const piece = mine(square);
      if (piece && !view.seats[view.you].ready) { toggleKing(square); return; }
    }
    if (!drag && selected && square !== selected && targets.some((m) => m.to === square) && mine(selected) && canMove()) {
      play(selected, square);
      return;
    }
    if (!drag && square === selected) { deselect(); return; }
    if (pieceAt(square)) select(square);
    else deselect();
  }

  function dragMove(from, to) {
    if (viewing !== null) { showAt(null); return; }
    if (mine(from) && canMove()) play(from, to);
  }

  function typedMove(event) {
    event.preventDefault();
    const move = parseMoveText(moveField.value);
    if (!move) { show(t('game.typeMove')); return; }
    play(move[0], move[1]).then((ok) => { if (ok) moveField.value = ''; });
  }

  async function play(from, to) {
    if (!view || !view.you) { show(t('game.spectatorsCannotMove')); return false; }
    const frozen = frozenFor();
    if (frozen > 0) { refuseFrozen(frozen); return false; }
    // A move that costs one's own king, or leaves one to be taken, is asked about first;
    // no changes nothing (the selection stays).
    const risky = await riskOf(from, to);
    if (risky && !(await confirmRisk(risky))) return false;
    try {
      const answer = await api.gameMove(id, token, from, to);
      show(''); // a refusal shown before is stale now
      selected = null;
      targets = [];
      showPiece(pieceInfo, null);
      // The stream brings the same change; use the answer only when the stream is down.
      if (!live) { history.push(answer.ply, answer.game); apply(answer.game); } else draw();
      return true;
    } catch (error) {
      if (error.code === 'frozen') refuseFrozen(frozenFor());
      else show(errorText(error));
      return false;
    }
  }

  // The move view of from–to when it loses or exposes the mover's king, else null: from the
  // selection's moves, or asked of the server (a drag or a typed move).
  async function riskOf(from, to) {
    let moves = selected === from && targets.length ? targets : null;
    if (!moves) {
      try { moves = await api.gameMoves(id, token, from); } catch { return null; }
    }
    const move = Array.isArray(moves) ? moves.find((m) => m.to === to) : null;
    return move && (move.loses_own_king || move.exposes_king) ? move : null;
  }

  function confirmRisk(move) {
    if (move.loses_own_king) {
      const target = pieceAt(move.to);
      const on = target && target.king && target.color === view.you ? move.to : '';
      return ask({
        id: 'confirm-move', tone: 'danger', title: TEXT.losesTitle,
        message: TEXT.losesText(move.from, move.to, on), yes: TEXT.losesYes, no: TEXT.cancel,
      });
    }
    return ask({
      id: 'confirm-move', tone: 'warning', title: TEXT.exposesTitle,
      message: TEXT.exposesText(move.from, move.to, other(view.you)), yes: TEXT.exposesYes, no: TEXT.cancel,
    });
  }

  function refuseFrozen(left) {
    const seconds = formatNumber(Math.max(0.1, left / 1000), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const words = t('game.frozenRefused', { seconds });
    show(words);
    // The refusal is true while the freeze lasts: it goes when the freeze ends.
    setTimeout(() => { if (notice.textContent === words) show(''); }, left + 50);
    boardWrap.classList.remove('refused');
    void boardWrap.offsetWidth; // restart the shake
    boardWrap.classList.add('refused');
  }

  async function act(call, okMessage) {
    show('');
    try {
      const answer = await call();
      if (okMessage) toast(okMessage);
      const game = answer && (answer.game && typeof answer.game === 'object' ? answer.game : (answer.status ? answer : null));
      if (game && !live) apply(game);
      return answer || true;
    } catch (error) {
      show(errorText(error));
      return false;
    }
  }

  const toggleKing = (square) => act(() => api.gameKing(id, token, square));

  async function loadRecord() {
    try {
      const record = await api.gameRecord(id, token);
      recordLoaded = true;
      if (history && history.setPlies(record.plies)) renderMoves();
      // The end shows every genome: the positions, codes and all, replace what this seat saw.
      if (history && !gone) askPositions();
    } catch { /* the list we have stays */ }
  }

  // ← → step through the plies, Home is the start, End the game now, Escape drops the selection.
  function keys(event) {
    if (event.target.closest && event.target.closest('dialog')) return; // a question's own keys
    if (event.key === 'Escape') {
      if (selected) { deselect(); event.preventDefault(); }
      return;
    }
    const target = event.target;
    if (target.closest && (target.closest('input, textarea, select, .board'))) return;
    const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => showAt(-1), End: () => showAt(null) };
    if (moves[event.key] && history && history.entries.length) { event.preventDefault(); moves[event.key](); }
  }

  function step(by) {
    if (!history) return;
    const lastIndex = history.entries.length - 1;
    const at = viewing === null ? lastIndex : viewing;
    const next = Math.max(-1, Math.min(lastIndex, at + by));
    showAt(next === lastIndex ? null : next);
  }

  function showAt(index) {
    if (!history) return;
    viewing = index !== null && index >= history.entries.length - 1 ? null : index;
    if (viewing !== null) { selected = null; targets = []; showPiece(pieceInfo, null); }
    draw();
    renderMoves();
  }

  function dangerSquares(danger) {
    return danger ? [...(danger.white || []), ...(danger.black || [])] : [];
  }

  function draw() {
    if (!view) return;
    const flipped = (view.you === 'black') !== flip;
    let pieces = view.board;
    let last = history ? history.lastMove() : [];
    let danger = dangerSquares(view.kings_in_danger);
    pastNote.hidden = viewing === null;
    boardWrap.classList.toggle('past', viewing !== null);
    if (viewing !== null) {
      const past = history.boardAt(viewing);
      pieces = past || [];
      last = history.lastMove(viewing);
      danger = dangerSquares(history.dangerAt(viewing));
      pastNote.textContent = viewing < 0 ? t('game.past.start')
        : t(past ? 'game.past.after' : 'game.past.unknown', { ply: plyText(history.entries[viewing].ply, past) });
    }
    board.draw({
      width: view.width, height: view.height, pieces, flipped,
      selected: viewing === null ? selected : null, targets: viewing === null ? targets : [],
      last, due: viewing === null ? view.promotion_due : null, danger,
    });
  }

  function bottomColor() {
    return (view.you === 'black') !== flip ? 'black' : 'white';
  }

  function render() {
    draw();
    const bottom = bottomColor();
    fill(topBar, playerLabel(other(bottom)), clocks.els[other(bottom)]);
    fill(bottomBar, playerLabel(bottom), clocks.els[bottom]);
    // The server's clock runs whether or not the stream is up: keep counting from the last view.
    clocks.update(view.clocks, arrivedAt, view.status === 'in_progress');
    status.textContent = statusText();
    const increment = view.clocks && view.clocks.increment_ms;
    timeControl.textContent = increment ? t('game.increment', { seconds: formatNumber(increment / 1000) }) : '';
    status.dataset.status = view.status;
    ratedLine.hidden = !view.rated;
    ratedLine.textContent = view.rated ? TEXT.rated : '';
    renderFreeze();
    renderFirstMove(bottom);
    renderAway();
    renderInvite();
    renderSetup();
    renderDifferences();
    renderPromotion();
    renderMoves();
    renderDraw();
    renderActions();
    renderEvent();
    renderResult();
    moveForm.hidden = !view.you || isOver(view);
  }

  // A side's bar: who plays it — the account's name (a link to the profile) and its rating as
  // the game began, "Anonymous" or "deleted player" in a game with an account in it, else "You",
  // "Opponent" or the bot — its colour, its state and, once a rated game is over, the change.
  function playerLabel(color) {
    const seat = view.seats[color];
    const bot = remembered(id).bot;
    const players = view.players || {};
    const accounts = !!(players.white || players.black);
    const player = players[color];
    let who;
    if (eventGame) who = h('strong', { class: 'team-name', id: `team-${color}` }, eventGame.teams[color].name);
    else if (player) who = playerTag(player, { id: `player-${color}` });
    else if (view.you === color) who = h('strong', {}, TEXT.you);
    else if (bot && view.you) who = h('strong', {}, botName(bot));
    else if (accounts) who = h('strong', { class: 'anonymous', id: `player-${color}` }, TEXT.anonymous);
    else who = h('strong', {}, view.you ? TEXT.opponent : title(color));
    const badges = [];
    if (view.status === 'setup') badges.push(t(seat.ready ? 'game.badge.ready' : seat.preset ? 'game.badge.settingUp' : 'game.badge.noPreset'));
    // While the first moves are timed the countdown beside the clock says who is to move.
    const counting = view.first_move_deadline && (view.moves_played > 0 ? 'black' : 'white') === color;
    if (view.status === 'in_progress' && view.to_move === color && !counting) badges.push(t('game.badge.toMove'));
    if (view.status === 'in_progress' && view.draw_offer === color) badges.push(t('game.badge.offersDraw'));
    const diff = ratingDiff && isOver(view) ? ratingDiff[color] : null;
    return h('div', { class: `player ${color}` },
      h('span', { class: `dot ${color}`, 'aria-hidden': 'true' }),
      who, (player || eventGame) && view.you === color ? ` (${TEXT.youMark}, ${title(color)})` : ` (${title(color)})`,
      diff !== null && diff !== undefined ? h('span', {
        class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : ''}`, id: `rating-diff-${color}`, title: TEXT.ratingChange,
      }, diffText(diff)) : null,
      badges.length ? h('span', { class: 'badge' }, badges.join(', ')) : null);
  }

  // Under the result of a rated game: each player's rating before and after.
  function ratingResult() {
    if (!ratingDiff || !view.players) return null;
    const lines = ['white', 'black'].filter((color) => view.players[color]).map((color) => {
      const player = view.players[color];
      const diff = ratingDiff[color] || 0;
      const name = view.you === color ? TEXT.you : playerName(player);
      return TEXT.ratingLine(name, ratingText(player.rating, player.provisional), Math.round(player.rating + diff), diffText(diff));
    });
    return lines.length ? h('p', { class: 'result-rating', id: 'result-rating' }, lines.join(' · ')) : null;
  }

  function statusText() {
    if (isOver(view)) {
      const story = endText(view, lastLoss());
      return view.status === 'aborted' ? story : t('game.status.over', { story, result: resultText(view, teamNames()) });
    }
    if (view.status === 'setup') {
      if (!view.you) return t('game.status.playersSetup');
      return view.seats[view.you].ready ? TEXT.waiting : TEXT.setupSteps;
    }
    if (view.promotion_due) {
      return view.to_move === view.you ? t('game.status.promoteYours', { square: view.promotion_due })
        : t('game.status.promoting', { color: side(view.to_move), square: view.promotion_due });
    }
    const danger = view.you && view.kings_in_danger && (view.kings_in_danger[view.you] || []).length
      ? t('game.status.danger', { squares: view.kings_in_danger[view.you].join(', ') }) : '';
    const first = view.first_move_deadline && view.to_move === view.you ? TEXT.yourFirstMove : '';
    if (view.you) return (view.to_move === view.you ? t('game.status.yourMove') : t('game.status.toMove', { color: side(view.to_move) })) + danger + first;
    return t('game.status.watching', { color: side(view.to_move) });
  }

  // A freeze counts down, and the board shows it takes no move until then.
  function renderFreeze() {
    cancelAnimationFrame(frame);
    const tick = () => {
      const left = frozenFor();
      const on = left > 0 && !isOver(view);
      boardWrap.classList.toggle('frozen', on);
      freeze.hidden = !on;
      if (!on) return;
      freeze.textContent = t('game.frozen', { seconds: formatNumber(left / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
      frame = requestAnimationFrame(tick);
    };
    tick();
  }

  // The first-move timer: while the first moves are timed the clocks stand still and this counts
  // down, in the bar of the side whose first move it is (White's until it has moved, then
  // Black's), from the view's first_move_deadline.
  function renderFirstMove(bottom) {
    cancelAnimationFrame(firstFrame);
    const until = view.first_move_deadline ? Date.parse(view.first_move_deadline) : NaN;
    const on = view.status === 'in_progress' && Number.isFinite(until);
    firstMove.hidden = !on;
    if (!on) { firstMove.remove(); return; }
    const side = view.moves_played > 0 ? 'black' : 'white';
    const bar = side === bottom ? bottomBar : topBar;
    if (firstMove.parentNode !== bar) bar.append(firstMove);
    firstMove.dataset.side = side;
    const tick = () => {
      const left = until - Date.now();
      const text = TEXT.firstMove(side, formatMs(left));
      if (firstMove.textContent !== text) firstMove.textContent = text;
      firstMove.classList.toggle('low', left < 10000);
      if (left > 0) firstFrame = requestAnimationFrame(tick);
    };
    tick();
  }

  // What the page knows of the last move, for the words at the end (history.js).
  function lastLoss() {
    return history ? lastLossIn(history, view) : null;
  }

  function renderInvite() {
    const link = remembered(id).invite;
    if (!view.you || view.status !== 'setup' || !link) { invite.replaceChildren(); return; }
    const them = other(view.you);
    const field = h('input', { id: 'invite-link', type: 'text', readonly: true, value: link, 'aria-label': t('game.invite.link') });
    const joined = opponentJoined(view, them);
    fill(invite, h('section', { class: 'panel invite' },
      h('h3', {}, t('game.invite.title')),
      h('p', {}, t('game.invite.send', { seat: ofSide(them) })),
      h('div', { class: 'row' }, field, copyButton(() => link)),
      h('p', { class: joined ? 'joined' : 'hint', id: 'invite-state' },
        joined ? t('game.invite.opened', { seat: ofSide(them) }) : t('game.invite.waiting', { seat: ofSide(them) })),
      h('p', { class: 'hint' }, t('game.invite.spectators'), h('a', { href: gameLink(id) }, t('game.invite.watchLink')))));
  }

  // Setup. Unless the player customises it, the page sets the seat up by itself at once (the
  // player's preset, its king, ready: setup.js). The panel is built once and updated in place,
  // so what is typed in the preset field and the focus survive every new view.
  let setupPlan = null; // {customise, preset} for this game, decided once
  let autoState = null; // null, 'running', 'done' or 'failed'
  let autoError = '';
  const presetField = h('input', {
    id: 'preset-code', type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-label': t('game.setup.presetCode'),
  });
  const loadButton = h('button', { type: 'submit', id: 'load-preset' }, t('game.setup.load'));
  const readyButton = h('button', { type: 'button', id: 'ready', class: 'primary', onclick: declareReady }, t('game.setup.ready'));
  const presetStep = h('li', {}, h('form', { class: 'row', onsubmit: loadPreset },
    h('label', { for: 'preset-code' }, t('game.setup.preset')), presetField, loadButton));
  const kingStep = h('li', {});
  const readyStep = h('li', {}, readyButton);
  const steps = h('ol', { class: 'steps', id: 'setup-steps' }, presetStep, kingStep, readyStep);
  const autoNote = h('p', { id: 'setup-auto', role: 'status' });
  const manualNote = h('p', { class: 'hint', id: 'setup-manual' }, TEXT.customiseNote);
  const autoButton = h('button', { type: 'button', id: 'auto-setup', class: 'small', onclick: () => runAutoSetup(true) }, TEXT.setUpForMe);
  const customiseBox = h('input', {
    type: 'checkbox', id: 'setup-customise',
    onchange: (event) => saveSetupChoice({ customise: event.currentTarget.checked }),
  });
  const opponentNote = h('p', { class: 'hint', id: 'setup-opponent' });
  setup.append(h('section', { class: 'panel setup' },
    h('h3', {}, t('game.setup.title')),
    autoNote, manualNote, steps,
    h('div', { class: 'row' }, autoButton),
    opponentNote,
    h('p', { class: 'hint' }, h('label', {}, customiseBox, ' ', TEXT.customiseNext)),
    h('p', { class: 'hint' }, t('game.setup.new'), h('a', { href: '#/rules' }, t('nav.rules')),
      t(discovery() ? 'game.setup.explainsDiscovery' : 'game.setup.explains'))));

  // This game's setup: decided the first time the page sees its seat in setup, from the
  // player's choice (kept with the seat, so a reload keeps it).
  function plan() {
    if (setupPlan) return setupPlan;
    const saved = remembered(id);
    const choice = setupChoice();
    if (saved.setup === 'auto' || saved.setup === 'custom') {
      setupPlan = { customise: saved.setup === 'custom', preset: saved.preset || choice.preset };
    } else {
      setupPlan = { customise: choice.customise, preset: saved.preset || choice.preset };
      remember(id, { setup: setupPlan.customise ? 'custom' : 'auto', preset: setupPlan.preset }, { touch: false });
    }
    presetField.value = saved.presetLoaded || setupPlan.preset;
    return setupPlan;
  }

  function maybeAutoSetup() {
    if (!token || !view || !view.you || view.status !== 'setup' || gone) return;
    const seat = view.seats[view.you];
    if (seat.ready || autoState || plan().customise) return;
    runAutoSetup(false);
  }

  async function runAutoSetup(asked) {
    if (autoState === 'running' || !view || view.status !== 'setup') return;
    const preset = asked ? presetField.value.trim() || plan().preset : plan().preset;
    autoState = 'running';
    autoError = '';
    if (view) renderSetup();
    try {
      await autoSetup(id, token, view, preset, (game) => {
        if (game.seats[game.you].preset && !remembered(id).presetLoaded) remember(id, { presetLoaded: preset }, { touch: false });
        if (!live) apply(game);
      });
      autoState = 'done';
      if (!remembered(id).presetLoaded) remember(id, { presetLoaded: preset }, { touch: false });
      presetField.value = remembered(id).presetLoaded;
      if (asked) board.focus();
    } catch (error) {
      autoState = 'failed';
      autoError = TEXT.autoFailed(preset, errorText(error));
    }
    if (view && !gone) render();
  }

  async function loadPreset(event) {
    event.preventDefault();
    const preset = presetField.value.trim() || DEFAULT_PRESET;
    const answer = await act(() => api.gamePreset(id, token, preset), t('game.setup.loadedToast'));
    if (!answer) return;
    remember(id, { presetLoaded: preset }, { touch: false });
    saveSetupChoice({ preset });
    presetField.value = preset;
    // The next step is on the board: marking a king (the focus goes where the king would be).
    board.focus(answer && Array.isArray(answer.board) && answer.you ? kingSquare(answer, answer.you) : null);
  }

  async function declareReady() {
    const answer = await act(() => api.gameReady(id, token), t('game.setup.ready'));
    if (answer) board.focus();
  }

  function renderSetup() {
    const shown = !!(view.you && token && view.status === 'setup');
    setup.hidden = !shown;
    if (!shown) return;
    const seat = view.seats[view.you];
    const them = view.seats[other(view.you)];
    const mine = view.board.filter((p) => p.color === view.you && p.king).map((p) => p.square);
    const manual = plan().customise || autoState === 'failed';
    const loaded = remembered(id).presetLoaded;
    if (seat.preset && loaded && presetField.value !== loaded && document.activeElement !== presetField) presetField.value = loaded;
    presetField.disabled = seat.preset;
    loadButton.disabled = seat.preset;
    loadButton.textContent = t(seat.preset ? 'game.setup.loaded' : 'game.setup.load');
    presetStep.className = seat.preset ? 'done' : '';
    kingStep.className = mine.length > 0 ? 'done' : '';
    kingStep.textContent = seat.preset ? t('game.setup.marked', { count: mine.length }) : t('game.setup.markKing');
    readyStep.className = seat.ready ? 'done' : '';
    readyButton.disabled = seat.ready || !seat.preset || mine.length === 0;
    readyButton.textContent = t(seat.ready ? 'game.setup.readyDone' : 'game.setup.ready');
    steps.hidden = !manual;
    manualNote.hidden = !manual || autoState === 'failed';
    autoButton.hidden = !manual || seat.ready;
    // After a reload the seat may be set up already: say so as if it had just been done.
    const done = autoState === 'done' || (!autoState && !manual && seat.ready);
    autoNote.hidden = !autoState && !done;
    autoNote.className = autoState === 'failed' ? 'notice' : 'joined';
    autoNote.textContent = autoState === 'running' ? TEXT.autoRunning(plan().preset)
      : autoState === 'failed' ? autoError
        : done ? TEXT.autoDone(loaded || plan().preset, mine.join(', ')) : '';
    customiseBox.checked = setupChoice().customise;
    opponentNote.textContent = t('game.setup.opponent', {
      preset: t(them.preset ? 'game.setup.theirPreset' : 'game.badge.noPreset'),
      ready: t(them.ready ? 'game.badge.ready' : 'game.setup.notReady'),
    });
  }

  function renderDifferences() {
    const early = view.status === 'setup' || (view.status === 'in_progress' && view.moves_played < 2);
    differences.hidden = differencesHidden || !view.you || !early;
    if (!differences.hidden) followMode(differences);
  }

  function renderPromotion() {
    const due = view.promotion_due;
    if (!due || !view.you || view.to_move !== view.you || isOver(view)) { promotion.replaceChildren(); return; }
    if (promotion.dataset.square === due && promotion.firstChild) return; // keep what is being typed
    promotion.dataset.square = due;
    fill(promotion, promotionPicker({
      square: due, color: view.you,
      onPick: (ref) => act(() => api.gamePromote(id, token, ref)).then((answer) => {
        if (!answer) return;
        promotion.replaceChildren();
        // The stream's line says it; without the stream, the answer does.
        if (!live && answer.ply) toast(TEXT.youPromoted(answer.ply.promotion, promotedTo(answer.ply, answer.game)));
        board.focus();
      }),
    }));
  }

  function renderMoves() {
    if (!history) return;
    renderHistory(moveList, history, { viewing, onPick: (index) => showAt(index) });
  }

  function renderDraw() {
    if (!view.you || view.status !== 'in_progress') { drawRow.replaceChildren(); return; }
    const offer = view.draw_offer;
    if (offer === other(view.you)) {
      fill(drawRow,
        h('span', { id: 'draw-offered' }, t('game.draw.offeredToYou')),
        h('button', { type: 'button', id: 'accept-draw', class: 'primary', onclick: () => act(() => api.gameDraw(id, token), t('game.draw.agreed')) }, t('game.draw.accept')),
        h('span', { class: 'hint' }, t('game.draw.orMove')));
    } else if (offer === view.you) {
      fill(drawRow, h('button', { type: 'button', id: 'offer-draw', disabled: true }, t('game.draw.offered')),
        h('span', { class: 'hint' }, t('game.draw.stands')));
    } else {
      fill(drawRow, h('button', { type: 'button', id: 'offer-draw', onclick: () => act(() => api.gameDraw(id, token), t('game.draw.offered')) }, t('game.draw.offer')));
    }
  }

  function renderActions() {
    const buttons = [];
    if (view.you && view.status === 'in_progress') buttons.push(confirmButton('resign', t('game.resign'), t('game.resignSure'), () => api.gameResign(id, token)));
    if (view.you && !inEvent() && (view.status === 'setup' || (view.status === 'in_progress' && view.moves_played === 0))) {
      buttons.push(confirmButton('abort', t('game.abort'), t('game.abortSure'), () => api.gameAbort(id, token)));
    }
    buttons.push(h('button', {
      type: 'button', id: 'flip', 'aria-pressed': String(flip), title: t('game.flipTitle'),
      onclick: () => { flip = !flip; render(); },
    }, t('game.flip')));
    if (view.you) {
      buttons.push(h('button', {
        type: 'button', id: 'mute', 'aria-pressed': String(muted()),
        onclick: (event) => { setMuted(!muted()); event.currentTarget.setAttribute('aria-pressed', String(muted())); event.currentTarget.textContent = soundText(); },
      }, soundText()));
    }
    if (!view.you) buttons.push(h('p', { class: 'hint' }, t('game.watching')));
    fill(actions, buttons);
  }

  // Over the board once it is over: the result, a rematch, a new game and the record.
  function renderResult() {
    if (!isOver(view) || resultClosed) { result.hidden = true; result.replaceChildren(); return; }
    result.hidden = false;
    const controls = [];
    if (inEvent()) {
      const home = eventHome();
      controls.push(h('a', { class: 'button primary', href: home.href, id: 'back-to-event' }, home.text));
    } else if (view.you && view.status !== 'aborted') {
      const theyAsked = rematchAsked[other(view.you)];
      controls.push(h('button', {
        type: 'button', id: 'rematch', class: 'primary', disabled: wantRematch,
        onclick: askRematch,
      }, t(wantRematch ? 'game.rematch.asked' : theyAsked ? 'game.rematch.accept' : 'game.rematch.ask')));
    }
    if (!inEvent()) controls.push(h('a', { class: 'button', href: '#/', id: 'new-game' }, t('game.newGame')));
    if (view.status !== 'aborted') controls.push(h('a', { class: 'button', href: `#/record/${encodeURIComponent(id)}`, id: 'record-link' }, t('game.record')));
    fill(result,
      h('button', {
        type: 'button', class: 'close', id: 'result-close', 'aria-label': t('game.hideResult'), title: t('game.hide'),
        onclick: () => { resultClosed = true; renderResult(); },
      }, '×'),
      h('p', { class: 'result-story', id: 'result-story' }, endText(view, lastLoss())),
      h('p', { class: 'result-text', id: 'result-text' }, resultText(view, teamNames())),
      ratingResult(),
      wantRematch ? h('p', { class: 'hint', id: 'rematch-state' }, t('game.rematch.waiting'))
        : view.you && rematchAsked[other(view.you)] ? h('p', { class: 'hint', id: 'rematch-offered' }, t('game.rematch.offered')) : null,
      h('div', { class: 'row' }, controls));
  }

  async function askRematch() {
    wantRematch = true;
    renderResult();
    stream.resume();
    const answer = await act(() => api.gameRematch(id, token));
    if (!answer) { wantRematch = false; renderResult(); return; }
    // The answer says who has asked and, once both have, the new game and this seat's token.
    if (answer.asked) for (const color of ['white', 'black']) if (answer.asked[color]) noteRematch(color);
    const line = answer.rematch && typeof answer.rematch === 'object' ? answer.rematch : answer;
    if (line && typeof line.game === 'string' && typeof line.token === 'string') goRematch(line.game, line.token);
  }

  function goRematch(newId, newToken) {
    if (gone) return;
    const before = remembered(id);
    // The rematch keeps the bot and the preset this game was set up with.
    remember(newId, {
      token: newToken, color: view && view.you ? other(view.you) : undefined, bot: before.bot || false, rematchOf: id,
      preset: before.presetLoaded || before.preset,
    });
    location.hash = `#/game/${encodeURIComponent(newId)}?token=${encodeURIComponent(newToken)}`;
  }

  // Two clicks, no dialog: the first arms the button for a few seconds (and asks `sure`).
  function confirmButton(name, label, sure, call) {
    const button = h('button', { type: 'button', id: name, class: 'danger' }, label);
    let armed = 0;
    button.addEventListener('click', () => {
      if (!armed) {
        button.textContent = sure;
        armed = setTimeout(() => { armed = 0; button.textContent = label; }, 4000);
        return;
      }
      clearTimeout(armed);
      act(call);
    });
    return button;
  }

  return () => {
    gone = true;
    window.removeEventListener('gmo:drop-stream', dropStream);
    document.removeEventListener('keydown', keys);
    stream.close();
    clocks.stop();
    cancelAnimationFrame(frame);
    cancelAnimationFrame(firstFrame);
    clearTimeout(awayTimer);
  };
}
