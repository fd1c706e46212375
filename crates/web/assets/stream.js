// Following a game live: GET /api/games/{id}/stream is NDJSON read with fetch and a
// ReadableStream, one JSON value per line. The first line of every connection is the full view,
// so after a drop the page reconnects (with growing pauses) and is whole again from that line.

import { streamPath } from './api.js';

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

// follow(id, token, {onLine(line, first), onStatus(status), afterEnd(), presence}) → {close()}.
// `line` is {type: 'view', game, plies?} for a connection's first line, else the server's
// {type, ply?, game} (a rematch line's `game` is the new game's id, not a view; a presence
// line, asked for with `presence`, has `seats` and no game).
// The status is 'connecting', 'live', 'reconnecting', 'ended' or 'failed'. After the end the
// stream is followed again only while afterEnd() says so (a rematch is awaited).
export function follow(id, token, { onLine, onStatus = () => {}, afterEnd = () => false, presence = false }) {
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
      const response = await fetch(streamPath(id, { presence }), { headers, signal: controller.signal, cache: 'no-store' });
      // A refusal (a malformed or unknown id, a wrong token) will not change by retrying.
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
        let message = `the game cannot be followed (${response.status})`;
        try { message = (await response.json()).error.message; } catch { /* keep the status */ }
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
