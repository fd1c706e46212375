// Following a game live: GET /api/games/{id}/stream is NDJSON read with fetch and a
// ReadableStream, one JSON value per line. The first line of every connection is the full view,
// so after a drop the page reconnects (with growing pauses) and is whole again from that line.

import { streamPath } from './api.js';

const FIRST_PAUSE = 300;
const LONGEST_PAUSE = 8000;

// follow(id, token, {onLine(line, first), onStatus(status)}) → {close()}. `line` is
// {type: 'view', game} for a connection's first line, else the server's {type, ply?, game}.
// The status is 'connecting', 'live', 'reconnecting', 'ended' or 'failed'.
export function follow(id, token, { onLine, onStatus = () => {} }) {
  let closed = false;
  let controller = null;
  let pause = FIRST_PAUSE;
  let timer = 0;

  async function connect() {
    controller = new AbortController();
    onStatus('connecting');
    let over = false;
    try {
      const headers = { Accept: 'application/x-ndjson' };
      if (token) headers.Authorization = `Bearer ${token}`;
      const response = await fetch(streamPath(id), { headers, signal: controller.signal, cache: 'no-store' });
      if (response.status === 404 || response.status === 401 || response.status === 403) {
        let message = `the game cannot be followed (${response.status})`;
        try { message = (await response.json()).error.message; } catch { /* keep the status */ }
        onStatus('failed', message);
        return;
      }
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let first = true;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const text = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (!text) continue;
          const parsed = JSON.parse(text);
          const line = first ? { type: 'view', game: parsed } : parsed;
          if (first) { onStatus('live'); pause = FIRST_PAUSE; }
          first = false;
          over = isOver(line.game);
          onLine(line, line.type === 'view');
        }
      }
    } catch (failure) {
      if (closed) return;
      if (failure.name !== 'AbortError') console.warn('stream dropped', failure);
    }
    if (closed) return;
    // The server closes the stream after the end; any other close is a drop.
    if (over) { onStatus('ended'); return; }
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
    // Drop the connection now (for tests and for "reconnect" buttons): it comes back by itself.
    drop() {
      controller?.abort();
    },
  };
}

export function isOver(game) {
  return !!game && game.status !== 'setup' && game.status !== 'in_progress';
}
