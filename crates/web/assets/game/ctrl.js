// The game page's controller: one game's state as this browser knows it (the view, the history,
// the position shown, the selection, presence, rematch, ratings) and every action on it (the
// stream, moves, offers, the record). It draws nothing: it tells the page through `on`, whose
// views (game/view/*.js, view/*.js) draw from the state kept here — as lichess's round UI has a
// ctrl and its views.

import { toast } from '../dom.js';
import * as api from '../api.js';
import { follow, isOver, isCompact, applyCompact, unknownAfter } from '../stream.js';
import { remember, remembered } from '../seats.js';
import { opponentJoined, title, other, resultText } from '../result.js';
import { History, plyText, promotedName, lastLoss as lastLossIn } from '../history.js';
import { standardName } from '../pieces.js';
import { gameInDiscovery } from '../config.js';
import { ask } from '../confirm.js';
import { chime } from '../alert.js';
import { signedIn } from '../account.js';
import { t, errorText, formatNumber } from '../i18n.js';

// The server keeps a seat's stream of a finished game open 10 minutes for the rematch: the page
// follows it again for an hour in all, and for as long as it waits for its own rematch.
const FOLLOWS_AFTER_END = 6;

const side = (color) => t(color === 'white' ? 'color.White' : 'color.Black');

// The words the controller says itself (toasts and questions).
const TEXT = {
  youPromoted: (square, piece) => (piece ? t('game.youPromotedTo', { square, piece }) : t('game.youPromoted', { square })),
  theyPromoted: (color, square, piece) => (piece ? t('game.theyPromotedTo', { color: title(color), square, piece })
    : t('game.theyPromoted', { color: title(color), square })),
  played: (color, ply) => t('game.played', { color: title(color), ply }),
  losesText: (from, to, on) => (on ? t('game.losesTextOn', { from, to, square: on }) : t('game.losesText', { from, to })),
  exposesText: (from, to, them) => t('game.exposesText', { from, to, them: side(them) }),
};

// `on`: the page's hooks — render() (everything), draw() (the board), moves() (the move list),
// notice(text), unnotice(text) (clears the notice if it still says so), connection(state), cannotOpen(message), refused() (a move refused while frozen),
// pieceInfo(piece) (the selected piece's panel), result() (the box over the board), away()
// (presence), applied() (after each new view). `onOver(game)`: once the game is over
// (or cannot be followed: then with null).
export function gameCtrl(id, token, on, { onOver = null } = {}) {
  const c = {
    id, token,
    view: null, // the game as the server last told it
    arrivedAt: 0,
    live: false,
    selected: null,
    targets: [],
    flip: false,
    viewing: null, // the history entry shown, or null for the game as it is
    wantRematch: false,
    resultClosed: false, // the box over the board can be put away to see the final position
    rematchAsked: { white: false, black: false }, // who asked for a rematch (stream, answer)
    history: null,
    gone: false,
    // A rated game's rating changes, once over: in a view read after the end (the stream's lines
    // do not carry them), asked for once.
    ratingDiff: null,
    eventGame: null, // {id, name, round, board, teams} of an event's game
    presence: null, // who is there (the stream's presence lines)
  };
  let followsAfterEnd = 0; // reconnections after the end, to hear of a rematch: bounded
  let recordLoaded = false;
  let askedPlies = false;
  let pliesRoute = true;
  let askedDiff = false;
  let askedLink = false;

  // An event's game: its event, round, board and teams (GET …/event, asked once), else null.
  api.gameEvent(id).then((answer) => {
    c.eventGame = answer && answer.event ? answer.event : null;
    if (!c.gone && c.view) on.render();
  }, () => { /* an ordinary game's page, as before */ });

  // Whether this is an event's game: the server said so, or its team page opened it.
  c.inEvent = () => !!c.eventGame || !!remembered(id).event;

  // The way back: a seat to its team's page, anybody else to the event's.
  c.eventHome = () => {
    const event = c.eventGame ? c.eventGame.id : remembered(id).event;
    const team = c.view && c.view.you;
    return {
      href: `#/events/${encodeURIComponent(event)}${team ? '/team' : ''}`,
      text: t(team ? 'game.backToTeam' : 'game.backToEvent'),
    };
  };

  // The teams by colour, for the result's words (none outside an event).
  c.teamNames = () => (c.eventGame ? { white: c.eventGame.teams.white.name, black: c.eventGame.teams.black.name } : null);

  // What the page knows of the last move, for the words at the end (history.js).
  c.lastLoss = () => (c.history ? lastLossIn(c.history, c.view) : null);

  c.myTurn = (game = c.view) => !!(game && game.you && game.status === 'in_progress' && game.to_move === game.you);

  c.bottomColor = () => ((c.view.you === 'black') !== c.flip ? 'black' : 'white');

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
      if (line.type === 'rematch') { if (line.token && line.game) c.goRematch(line.game, line.token); return; }
      if (line.type === 'rematch_offer') { c.noteRematch(line.color); return; }
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
        game = applyCompact(c.view, line);
        if (game) unknown = unknownAfter(c.view, line, game);
      }
      if (!game) { refetch(); return; }
      // A server may also name this seat's next game in the view itself.
      if (game.rematch && typeof game.rematch === 'object' && game.rematch.game && game.rematch.token) {
        c.goRematch(game.rematch.game, game.rematch.token);
        return;
      }
      if (!c.history) c.history = new History(id, game.you);
      c.history.noteView(game);
      if (first) {
        if (line.plies) c.history.setPlies(line.plies);
        else { c.history.catchUp(game); askPlies(); }
        if (!isOver(game)) c.history.noteCurrent(game);
        if (c.history.lacksPositions()) askPositions();
      }
      const before = c.view;
      if (line.ply && (line.type === 'move' || line.type === 'promotion') && !first) {
        if (!hasPly(line.ply, game)) c.history.push(line.ply, game);
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
      c.apply(game);
      if (behind || line.type === 'resync') refetch();
      else if (unknown) askDetails(unknown);
    },
    onStatus(state, message) {
      c.live = state === 'live';
      on.connection(state);
      if (state === 'failed' && !c.view) { on.cannotOpen(message); if (onOver) onOver(null); }
    },
    // A seat's stream after the end waits for the rematch (the server bounds the wait); the page
    // follows it again (FOLLOWS_AFTER_END), and for as long as it waits for its own rematch.
    afterEnd: () => !!(c.view && c.view.you && c.view.status !== 'aborted') && (c.wantRematch || followsAfterEnd++ < FOLLOWS_AFTER_END),
  });

  // Dropping the connection on purpose shows (and lets the browser tests check) that the page
  // reconnects and catches up: window.dispatchEvent(new Event('gmo:drop-stream')).
  c.dropStream = () => stream.drop();

  // Says what the other side did — never one's own move as the opponent's: the mover is the
  // owner of the piece that moved (a move that leaves a promotion due keeps its mover to move).
  function notePly(line, before, game) {
    if (!before || !before.you || isOver(game)) return;
    const ply = line.ply;
    const at = (square) => before.board.find((p) => p.square === square);
    if (line.type === 'promotion') {
      const square = ply.promotion;
      const mover = (at(square) && at(square).color) || before.to_move;
      const to = c.promotedTo(ply, game);
      toast(mover === before.you ? TEXT.youPromoted(square, to) : TEXT.theyPromoted(mover, square, to));
      return;
    }
    const mover = (at(ply.from) && at(ply.from).color) || before.to_move;
    if (mover && mover !== before.you) toast(TEXT.played(mover, plyText(ply)));
  }

  // Whether the history has `ply` already (a view read again after a gap brought it).
  function hasPly(ply, game) {
    const last = c.history.entries[c.history.entries.length - 1];
    if (ply.type === 'promotion' || ply.promotion) {
      return !!(last && last.ply && last.ply.promotion === ply.promotion && c.history.moves() === game.moves_played);
    }
    return c.history.moves() >= game.moves_played;
  }

  // What a compact line left unknown (stream.js, unknownAfter), read from GET /api/games/{id}: a
  // seat's kings in danger after each change of the board, and the first-move deadline while it
  // may run (for spectators too: at most at the start and after White's first move). A view that
  // no longer matches (a newer line is on its way) is not used: that line asks again.
  let detailsAsked = 0;
  async function askDetails({ danger, deadline }) {
    const seat = !!(token && c.view && c.view.you);
    if (!(deadline || (danger && seat)) || c.gone) return;
    const asked = ++detailsAsked;
    let fresh;
    try { fresh = await api.game(id, token); } catch { return; }
    if (c.gone || asked !== detailsAsked || !c.view || !fresh) return;
    if (fresh.moves_played !== c.view.moves_played || fresh.status !== c.view.status || fresh.to_move !== c.view.to_move) return;
    c.view = { ...c.view, kings_in_danger: fresh.kings_in_danger, first_move_deadline: fresh.first_move_deadline };
    if (c.history) c.history.noteDanger(c.view);
    on.render();
  }

  // The view read again (GET /api/games/{id}, and the plies for the history), after a version
  // gap, a resync line or a line the page cannot apply. Lines that arrive meanwhile are applied
  // as usual; if any did, the answer may be older than they are, so it is asked again (twice at
  // most, then the stream is opened again: its first line is the whole view).
  let refetching = false;
  async function refetch(tries = 0) {
    if (refetching || c.gone) return;
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
    if (c.gone) return;
    if (!fresh || changesSeen !== mark) {
      if (tries < 2) refetch(tries + 1);
      else stream.drop();
      return;
    }
    if (!c.history) c.history = new History(id, fresh.you);
    const list = Array.isArray(plies) ? plies : plies && plies.plies;
    if (Array.isArray(list)) c.history.setPlies(list);
    if (!isOver(fresh)) c.history.noteCurrent(fresh);
    c.apply(fresh);
  }

  // What a pawn became, in words: a standard piece by name (the ply's `name`, for everybody; or
  // the view after it), another genome by its code; the opponent's hidden genome is not named.
  c.promotedTo = (ply, after) => {
    const name = promotedName(ply, after && Array.isArray(after.board) ? after.board : null);
    if (!name) return '';
    return name === ply.genome && !standardName(name) ? t('game.promotedTo.code', { name }) : t('game.promotedTo.standard', { name });
  };
  c.youPromoted = (ply, game) => TEXT.youPromoted(ply.promotion, c.promotedTo(ply, game));

  function notePresence(seats) {
    if (!seats || typeof seats !== 'object') return;
    const before = c.presence;
    c.presence = seats;
    const them = c.view && c.view.you ? other(c.view.you) : null;
    if (them && before && before[them] && !before[them].present && before[them].away_since && seats[them] && seats[them].present
      && c.view.status === 'in_progress') {
      toast(t('game.opponentBack'));
    }
    if (c.view) on.away();
  }

  c.noteRematch = (color) => {
    if (!c.view || !(color in c.rematchAsked) || c.rematchAsked[color]) return;
    c.rematchAsked[color] = true;
    if (color === c.view.you) c.wantRematch = true;
    else if (c.view.you) toast(t('game.rematch.theyWant'));
    on.result();
  };

  c.apply = (game) => {
    const wasOver = c.view && isOver(c.view);
    const wasMine = c.myTurn();
    c.view = game;
    gameInDiscovery(c.view.discovery);
    c.arrivedAt = performance.now();
    if (token && c.view.you) {
      remember(id, { token, color: c.view.you, status: c.view.status }, { touch: !remembered(id).token });
    }
    if (isOver(c.view) && !wasOver && !recordLoaded) loadRecord();
    if (isOver(c.view) && !wasOver && onOver) setTimeout(() => { if (!c.gone) onOver(c.view); });
    if (c.view.rating_diff) c.ratingDiff = c.view.rating_diff;
    if (isOver(c.view) && c.view.rated && !c.ratingDiff) askRatingDiff();
    maybeLink();
    on.applied();
    if (c.myTurn() && !wasMine && c.view.moves_played > 0 && !c.gone) chime();
    document.title = isOver(c.view) ? t('title.named', { name: resultText(c.view, c.teamNames()) })
      : c.myTurn() ? t('game.title.yourMove') : t('title.game', { id });
    on.render();
  };

  // The rating changes of a rated game that has ended: a view read now carries them (the
  // server rates the game in the transaction that ends it).
  async function askRatingDiff() {
    if (askedDiff || c.gone) return;
    askedDiff = true;
    for (let tries = 0; tries < 3 && !c.gone; tries++) {
      try {
        const answer = await api.game(id, token);
        if (answer && answer.rating_diff) {
          c.ratingDiff = answer.rating_diff;
          if (c.view && !c.gone) on.render();
          return;
        }
      } catch { /* tried again below */ }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  // Signed in, a seat opened by its link becomes the account's: the server links it when the
  // seat's token and the session reach GET /api/games/{id} together (the stream alone does not).
  async function maybeLink() {
    if (askedLink || !token || !c.view || !c.view.you || isOver(c.view) || !signedIn()) return;
    if (c.view.players && c.view.players[c.view.you]) return;
    askedLink = true;
    try {
      const answer = await api.game(id, token);
      if (answer && answer.players && c.view && !c.gone) {
        c.view = { ...c.view, players: answer.players };
        on.render();
      }
    } catch { /* the seat stays anonymous */ }
  }

  async function askPlies() {
    if (!pliesRoute || askedPlies) return;
    askedPlies = true;
    try {
      const answer = await api.gamePlies(id, token);
      const plies = Array.isArray(answer) ? answer : answer && answer.plies;
      if (Array.isArray(plies) && c.history.setPlies(plies)) {
        if (c.view && !isOver(c.view)) c.history.noteCurrent(c.view);
        on.moves();
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
    if (askingPositions || c.gone) return;
    askingPositions = true;
    try {
      let from = 0;
      while (from !== null && from !== undefined && !c.gone) {
        const page = await api.gamePositions(id, token, from);
        if (!page || !Array.isArray(page.positions)) break;
        for (const position of page.positions) c.history.setPosition(position.ply, position.board, position.kings_in_danger);
        from = typeof page.next === 'number' ? page.next : null;
      }
      c.history.save();
      if (!c.gone) { on.draw(); on.moves(); }
    } catch { /* the positions worked out here stay */ } finally {
      askingPositions = false;
    }
  }

  async function loadRecord() {
    try {
      const record = await api.gameRecord(id, token);
      recordLoaded = true;
      if (c.history && c.history.setPlies(record.plies)) on.moves();
      // The end shows every genome: the positions, codes and all, replace what this seat saw.
      if (c.history && !c.gone) askPositions();
    } catch { /* the list we have stays */ }
  }

  c.pieceAt = (square) => c.view && c.view.board.find((p) => p.square === square);

  const mine = (square) => {
    const piece = c.pieceAt(square);
    return piece && c.view.you && piece.color === c.view.you ? piece : null;
  };

  c.frozenFor = () => {
    const until = c.view && c.view.frozen_until ? Date.parse(c.view.frozen_until) : 0;
    return Math.max(0, until - Date.now());
  };

  const canMove = () => c.myTurn() && !c.view.promotion_due;

  c.deselect = () => {
    c.selected = null;
    c.targets = [];
    on.pieceInfo(null);
    on.draw();
  };

  async function select(square) {
    c.selected = square;
    c.targets = [];
    const piece = c.pieceAt(square);
    on.pieceInfo(piece ? { ...piece } : null);
    on.draw();
    try {
      const moves = await api.gameMoves(id, token, square);
      if (c.selected === square) { c.targets = moves; on.draw(); }
    } catch (error) {
      if (c.selected === square) on.notice(errorText(error));
    }
  }

  c.clickSquare = (square, { drag }) => {
    if (!c.view) return;
    if (c.viewing !== null) { c.showAt(null); return; } // a click on a past position returns to the game
    on.notice('');
    if (c.view.status === 'setup') {
      const piece = mine(square);
      if (piece && !c.view.seats[c.view.you].ready) { c.act(() => api.gameKing(id, token, square)); return; }
    }
    if (!drag && c.selected && square !== c.selected && c.targets.some((m) => m.to === square) && mine(c.selected) && canMove()) {
      c.play(c.selected, square);
      return;
    }
    if (!drag && square === c.selected) { c.deselect(); return; }
    if (c.pieceAt(square)) select(square);
    else c.deselect();
  };

  c.dragMove = (from, to) => {
    if (c.viewing !== null) { c.showAt(null); return; }
    if (mine(from) && canMove()) c.play(from, to);
  };

  c.play = async (from, to) => {
    if (!c.view || !c.view.you) { on.notice(t('game.spectatorsCannotMove')); return false; }
    const frozen = c.frozenFor();
    if (frozen > 0) { refuseFrozen(frozen); return false; }
    // A move that costs one's own king, or leaves one to be taken, is asked about first;
    // no changes nothing (the selection stays).
    const risky = await riskOf(from, to);
    if (risky && !(await confirmRisk(risky))) return false;
    try {
      const answer = await api.gameMove(id, token, from, to);
      on.notice(''); // a refusal shown before is stale now
      c.selected = null;
      c.targets = [];
      on.pieceInfo(null);
      // The stream brings the same change; use the answer only when the stream is down.
      if (!c.live) { c.history.push(answer.ply, answer.game); c.apply(answer.game); } else on.draw();
      return true;
    } catch (error) {
      if (error.code === 'frozen') refuseFrozen(c.frozenFor());
      else on.notice(errorText(error));
      return false;
    }
  };

  // The move view of from–to when it loses or exposes the mover's king, else null: from the
  // selection's moves, or asked of the server (a drag or a typed move).
  async function riskOf(from, to) {
    let moves = c.selected === from && c.targets.length ? c.targets : null;
    if (!moves) {
      try { moves = await api.gameMoves(id, token, from); } catch { return null; }
    }
    const move = Array.isArray(moves) ? moves.find((m) => m.to === to) : null;
    return move && (move.loses_own_king || move.exposes_king) ? move : null;
  }

  function confirmRisk(move) {
    const cancel = t('lobby.cancel');
    if (move.loses_own_king) {
      const target = c.pieceAt(move.to);
      const on = target && target.king && target.color === c.view.you ? move.to : '';
      return ask({
        id: 'confirm-move', tone: 'danger', title: t('game.losesTitle'),
        message: TEXT.losesText(move.from, move.to, on), yes: t('game.losesYes'), no: cancel,
      });
    }
    return ask({
      id: 'confirm-move', tone: 'warning', title: t('game.exposesTitle'),
      message: TEXT.exposesText(move.from, move.to, other(c.view.you)), yes: t('game.exposesYes'), no: cancel,
    });
  }

  function refuseFrozen(left) {
    const seconds = formatNumber(Math.max(0.1, left / 1000), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const words = t('game.frozenRefused', { seconds });
    on.notice(words);
    // The refusal is true while the freeze lasts: it goes when the freeze ends.
    setTimeout(() => on.unnotice(words), left + 50);
    on.refused();
  }

  // Runs a call on the game; its answer's view is applied when the stream is down. The answer
  // (or true), or false with the server's words in the notice.
  c.act = async (call, okMessage) => {
    on.notice('');
    try {
      const answer = await call();
      if (okMessage) toast(okMessage);
      const game = answer && (answer.game && typeof answer.game === 'object' ? answer.game : (answer.status ? answer : null));
      if (game && !c.live) c.apply(game);
      return answer || true;
    } catch (error) {
      on.notice(errorText(error));
      return false;
    }
  };

  c.step = (by) => {
    if (!c.history) return;
    const lastIndex = c.history.entries.length - 1;
    const at = c.viewing === null ? lastIndex : c.viewing;
    const next = Math.max(-1, Math.min(lastIndex, at + by));
    c.showAt(next === lastIndex ? null : next);
  };

  c.showAt = (index) => {
    if (!c.history) return;
    c.viewing = index !== null && index >= c.history.entries.length - 1 ? null : index;
    if (c.viewing !== null) { c.selected = null; c.targets = []; on.pieceInfo(null); }
    on.draw();
    on.moves();
  };

  // ← → step through the plies, Home is the start, End the game now, Escape drops the selection.
  c.keys = (event) => {
    if (event.target.closest && event.target.closest('dialog')) return; // a question's own keys
    if (event.key === 'Escape') {
      if (c.selected) { c.deselect(); event.preventDefault(); }
      return;
    }
    const target = event.target;
    if (target.closest && (target.closest('input, textarea, select, .board'))) return;
    const moves = { ArrowLeft: () => c.step(-1), ArrowRight: () => c.step(1), Home: () => c.showAt(-1), End: () => c.showAt(null) };
    if (moves[event.key] && c.history && c.history.entries.length) { event.preventDefault(); moves[event.key](); }
  };

  c.claimVictory = async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    // The answer is the game as it ended (the stream's end line says the same).
    if (!(await c.act(() => api.gameClaim(id, token)))) button.disabled = false;
  };

  c.askRematch = async () => {
    c.wantRematch = true;
    on.result();
    stream.resume();
    const answer = await c.act(() => api.gameRematch(id, token));
    if (!answer) { c.wantRematch = false; on.result(); return; }
    // The answer says who has asked and, once both have, the new game and this seat's token.
    if (answer.asked) for (const color of ['white', 'black']) if (answer.asked[color]) c.noteRematch(color);
    const line = answer.rematch && typeof answer.rematch === 'object' ? answer.rematch : answer;
    if (line && typeof line.game === 'string' && typeof line.token === 'string') c.goRematch(line.game, line.token);
  };

  c.goRematch = (newId, newToken) => {
    if (c.gone) return;
    const before = remembered(id);
    // The rematch keeps the bot and the preset this game was set up with.
    remember(newId, {
      token: newToken, color: c.view && c.view.you ? other(c.view.you) : undefined, bot: before.bot || false, rematchOf: id,
      preset: before.presetLoaded || before.preset,
    });
    location.hash = `#/game/${encodeURIComponent(newId)}?token=${encodeURIComponent(newToken)}`;
  };

  c.close = () => {
    c.gone = true;
    stream.close();
  };

  return c;
}
