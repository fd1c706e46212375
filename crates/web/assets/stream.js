// Following a game live: GET /api/games/{id}/stream is NDJSON read with fetch and a
// ReadableStream, one JSON value per line. The first line of every connection is the full view,
// so after a drop the page reconnects (with growing pauses) and is whole again from that line.
// Asked with `compact` (?lines=compact), every later change line carries only what changed
// (the squares, clocks, side to move, status…), and applyCompact() turns it into the next view.

import { streamPath, ApiError } from './api.js';
import { parseSquare } from './board.js';
import { t, errorText } from './i18n.js';

const FIRST_PAUSE = 300;
const LONGEST_PAUSE = 8000;

// The JSON values of an NDJSON body, one per non-empty line, as they arrive (the game's stream
// and the lobby's seek stream both speak it).
export async function* ndjson(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (text) yield JSON.parse(text);
    }
  }
}

// follow(id, token, {onLine(line, first), onStatus(status), afterEnd(), presence, compact})
// → {close(), resume(), drop()}.
// `line` is {type: 'view', game, plies?} for a connection's first line, else the server's
// {type, ply?, game} (a rematch line's `game` is the new game's id, not a view; a presence
// line, asked for with `presence`, has `seats` and no game); with `compact`, a change line is
// {type, version, ply?, squares, clocks, to_move, status, …} with no game (applyCompact).
// The status is 'connecting', 'live', 'reconnecting', 'ended' or 'failed'. After the end the
// stream is followed again only while afterEnd() says so (a rematch is awaited).
export function follow(id, token, { onLine, onStatus = () => {}, afterEnd = () => false, presence = false, compact = false }) {
  let closed = false;
  let controller = null;
  let pause = FIRST_PAUSE;
  let timer = 0;

  let active = false; // a connection is open or about to be tried again

  async function connect() {
    active = true;
    controller = new AbortController();
    onStatus('connecting');
    let over = false;
    try {
      const headers = { Accept: 'application/x-ndjson' };
      if (token) headers.Authorization = `Bearer ${token}`;
      const response = await fetch(streamPath(id, { presence, compact }), { headers, signal: controller.signal, cache: 'no-store' });
      // A refusal (a malformed or unknown id, a wrong token) will not change by retrying.
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
        // The server's refusal in the page's language (its own words in English), else the status.
        let message = t('stream.cannotFollow', { status: response.status });
        try {
          const body = await response.json();
          if (body && body.error) message = errorText(new ApiError(response.status, body));
        } catch { /* keep the status */ }
        active = false;
        onStatus('failed', message);
        return;
      }
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      let first = true;
      for await (const parsed of ndjson(response.body)) {
        const line = first ? firstLine(parsed) : parsed;
        if (first) { onStatus('live'); pause = FIRST_PAUSE; }
        first = false;
        if (line.game && typeof line.game === 'object') over = isOver(line.game);
        else if (isCompact(line)) over = isOver(line);
        onLine(line, line.type === 'view');
      }
    } catch (failure) {
      if (closed) return;
      if (failure.name !== 'AbortError') console.warn('stream dropped', failure);
    }
    if (closed) return;
    // The server closes the stream after the end; any other close is a drop.
    if (over && !afterEnd()) { active = false; onStatus('ended'); return; }
    if (over) { timer = setTimeout(connect, 1000); return; }
    onStatus('reconnecting');
    timer = setTimeout(connect, pause);
    pause = Math.min(LONGEST_PAUSE, pause * 2);
  }

  connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      controller?.abort();
    },
    // Follow again after the end (when a rematch is asked for once the stream has closed).
    resume() {
      if (!closed && !active) connect();
    },
    // Drop the connection now (for tests and for "reconnect" buttons): it comes back by itself.
    drop() {
      controller?.abort();
    },
  };
}

// The first line is the view itself, possibly with the plies so far beside it.
function firstLine(parsed) {
  if (parsed && parsed.type === 'view' && parsed.game) return parsed;
  return { type: 'view', game: parsed, plies: Array.isArray(parsed.plies) ? parsed.plies : null };
}

export function isOver(game) {
  return !!game && game.status !== 'setup' && game.status !== 'in_progress';
}

// A compact change line (?lines=compact): what changed, and no game view.
export function isCompact(line) {
  return !!line && !line.game && Array.isArray(line.squares) && typeof line.status === 'string';
}

// The view after compact `line`, from `view`, the view before it: the line's squares go into the
// board and its other fields replace the view's (`draw_offer`, `promotion_due`, `frozen_until`
// and `reason` absent mean null; `seats` only when present). What a compact line does not carry
// and a change may alter is left unknown: `kings_in_danger` is null after a change of the board
// (empty outside play), `first_move_deadline` null when it may have moved (during the first two
// moves) — unless the line carries them. Null when the line cannot be applied.
export function applyCompact(view, line) {
  if (!view || !Array.isArray(view.board) || !isCompact(line)) return null;
  const at = new Map(view.board.map((piece) => [piece.square, piece]));
  for (const change of line.squares) {
    if (!change || typeof change.square !== 'string' || !parseSquare(change.square)) return null;
    if (change.piece && typeof change.piece === 'object') at.set(change.square, { ...change.piece, square: change.square });
    else if (change.piece === null || change.piece === undefined) at.delete(change.square);
    else return null;
  }
  // In square order, as the view's board (rank by rank from the first, file by file).
  const order = (square) => { const { x, y } = parseSquare(square); return y * 64 + x; };
  const board = [...at.values()].sort((a, b) => order(a.square) - order(b.square));
  const playing = line.status === 'in_progress';
  const next = {
    ...view,
    board,
    clocks: line.clocks && typeof line.clocks === 'object' ? line.clocks : view.clocks,
    to_move: line.to_move ?? null,
    status: line.status,
    reason: line.reason ?? null,
    moves_played: typeof line.moves_played === 'number' ? line.moves_played : view.moves_played,
    promotion_due: line.promotion_due ?? null,
    draw_offer: line.draw_offer ?? null,
    frozen_until: line.frozen_until ?? null,
  };
  if (line.seats && typeof line.seats === 'object') next.seats = line.seats;
  const same = line.squares.length === 0 && line.status === view.status && next.to_move === view.to_move;
  if ('kings_in_danger' in line) next.kings_in_danger = line.kings_in_danger;
  else if (!playing) next.kings_in_danger = { white: [], black: [] };
  else if (!same) next.kings_in_danger = null;
  if ('first_move_deadline' in line) next.first_move_deadline = line.first_move_deadline;
  else if (!playing || next.moves_played >= 2) next.first_move_deadline = null;
  else if (line.type === 'start' || next.moves_played !== view.moves_played) next.first_move_deadline = null;
  return next;
}

// Whether applying compact `line` to `before` left some of the view unknown (see applyCompact):
// `danger`, `deadline` (the first-move timer may run) or both.
export function unknownAfter(before, line, after) {
  return {
    danger: after.kings_in_danger === null,
    deadline: !('first_move_deadline' in line) && after.status === 'in_progress' && after.moves_played < 2
      && (line.type === 'start' || (!!before.first_move_deadline && after.moves_played !== before.moves_played)),
  };
}
