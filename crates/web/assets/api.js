// The client side of docs/service.md: one function per route the page uses, nothing else.
// Every failure becomes an ApiError carrying the server's machine code and message (and, for
// DNA, the codon and offset — except in discovery, where the server names neither), so pages can
// show the server's own words.

import { language, t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, body, text) {
    const error = body && body.error ? body.error : {};
    super(error.message || text || t('api.failed', { status }));
    this.status = status;
    this.code = error.code || 'http_' + status;
    this.codon = error.codon;
    this.offset = error.offset;
    this.found = error.found;
    this.expected = error.expected;
    // A refusal of a limit (429) says when to try again, in seconds.
    this.retryAfter = null;
  }
}

// A read answered 503 (the database away for a moment, Retry-After) is asked again quietly, a
// few times; a change is not (a full deployment is 503 too, and its words are for the reader).
const RETRIES = 3;

async function call(method, path, options = {}) {
  for (let retry = 0; ; retry += 1) {
    try {
      return await callOnce(method, path, options);
    } catch (error) {
      if (method !== 'GET' || error.status !== 503 || retry >= RETRIES) throw error;
      const seconds = Math.min(error.retryAfter || 1, 5);
      await new Promise((done) => setTimeout(done, seconds * 1000));
      if (options.signal?.aborted) throw error;
    }
  }
}

async function callOnce(method, path, { token, body, signal } = {}) {
  // The server explains genomes (explanation, traits) in the page's language.
  const headers = { Accept: 'application/json', 'Accept-Language': language() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (failure) {
    if (failure.name === 'AbortError') throw failure;
    throw new ApiError(0, null, t('api.unreachable'));
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = new ApiError(response.status, data, text);
    const wait = Number(response.headers.get('Retry-After'));
    if (Number.isFinite(wait) && wait > 0) error.retryAfter = wait;
    throw error;
  }
  return data;
}

const seg = encodeURIComponent;

// The server's modes (discovery), asked once at start.
export const config = () => call('GET', '/api/config');

// Genomes and presets
export const storeGenome = (dna, signal) => call('POST', '/api/genomes', { body: { dna }, signal });
export const genome = (ref) => call('GET', `/api/genomes/${seg(ref)}`);
export const breed = (request) => call('POST', '/api/genomes/breed', { body: request });
export const evaluateGenome = (ref) => call('POST', `/api/genomes/${seg(ref)}/value`);
export const genomeValue = (ref) => call('GET', `/api/genomes/${seg(ref)}/value`);
export const valueStreamPath = (ref) => `/api/genomes/${seg(ref)}/value/stream`;
export const storePreset = (genomes) => call('POST', '/api/presets', { body: { genomes } });
export const preset = (ref) => call('GET', `/api/presets/${seg(ref)}`);

// Labs: every call but creation carries the lab's token.
export const createLab = (size = {}) => call('POST', '/api/labs', { body: size });
// A lab holding a game's position after `ply` plies (0: the start): "Explore from here".
export const labFromGame = (game, ply) => call('POST', '/api/labs', { body: { game, ply } });
export const lab = (id, token) => call('GET', `/api/labs/${seg(id)}`, { token });
export const labPlace = (id, token, square, placement) =>
  call('PUT', `/api/labs/${seg(id)}/squares/${seg(square)}`, { token, body: placement });
export const labErase = (id, token, square) =>
  call('DELETE', `/api/labs/${seg(id)}/squares/${seg(square)}`, { token });
export const labKing = (id, token, square) =>
  call('POST', `/api/labs/${seg(id)}/squares/${seg(square)}/king`, { token });
export const labMoves = (id, token, square) =>
  call('GET', `/api/labs/${seg(id)}/moves/${seg(square)}`, { token });
export const labMove = (id, token, from, to) =>
  call('POST', `/api/labs/${seg(id)}/moves`, { token, body: { from, to } });
export const labPromote = (id, token, genomeRef) =>
  call('POST', `/api/labs/${seg(id)}/promotion`, { token, body: { genome: genomeRef } });
export const labPreset = (id, token, color, presetRef) =>
  call('POST', `/api/labs/${seg(id)}/preset`, { token, body: { color, preset: presetRef } });
export const labSavePreset = (id, token, color) =>
  call('POST', `/api/labs/${seg(id)}/preset/save`, { token, body: { color } });
export const labAnalysis = (id, token, lines) =>
  call('GET', `/api/labs/${seg(id)}/analysis?lines=${Number(lines) || 1}`, { token });

// Games: `token` is the seat's, or absent for a spectator.
export const createGame = (options) => call('POST', '/api/games', { body: options });
export const game = (id, token) => call('GET', `/api/games/${seg(id)}`, { token });
export const gamePreset = (id, token, presetRef) =>
  call('PUT', `/api/games/${seg(id)}/preset`, { token, body: { preset: presetRef } });
export const gameKing = (id, token, square) =>
  call('POST', `/api/games/${seg(id)}/kings/${seg(square)}`, { token });
export const gameReady = (id, token) => call('POST', `/api/games/${seg(id)}/ready`, { token });
export const gameMoves = (id, token, square) =>
  call('GET', `/api/games/${seg(id)}/moves/${seg(square)}`, { token });
export const gameMove = (id, token, from, to) =>
  call('POST', `/api/games/${seg(id)}/moves`, { token, body: { from, to } });
export const gamePromote = (id, token, genomeRef) =>
  call('POST', `/api/games/${seg(id)}/promotion`, { token, body: { genome: genomeRef } });
export const gameResign = (id, token) => call('POST', `/api/games/${seg(id)}/resign`, { token });
export const gameAbort = (id, token) => call('POST', `/api/games/${seg(id)}/abort`, { token });
export const gameEvent = (id) => call('GET', `/api/games/${seg(id)}/event`);
export const gameRecord = (id, token) => call('GET', `/api/games/${seg(id)}/record`, { token });
// With `presence`, the stream also says who is there (a seat's stream shows its player there);
// with `compact`, each change after the first line carries only what changed (?lines=compact).
export function streamPath(id, { presence = false, compact = false } = {}) {
  const query = [presence ? 'presence=true' : null, compact ? 'lines=compact' : null].filter(Boolean).join('&');
  return `/api/games/${seg(id)}/stream${query ? `?${query}` : ''}`;
}
// Watching: the live games (spectator views, the latest move first, 50 a page) and the TV game.
export const liveGames = (page = 1) => call('GET', `/api/games?status=in_progress${page > 1 ? `&page=${Number(page)}` : ''}`);
export const tv = () => call('GET', '/api/tv');
export const gamePlies = (id, token) => call('GET', `/api/games/${seg(id)}/plies`, { token });
export const gamePositions = (id, token, from = 0) => call('GET', `/api/games/${seg(id)}/positions?from=${Number(from) || 0}`, { token });
export const gameDraw = (id, token) => call('POST', `/api/games/${seg(id)}/draw`, { token });
export const gameRematch = (id, token) => call('POST', `/api/games/${seg(id)}/rematch`, { token });
export const gameClaim = (id, token) => call('POST', `/api/games/${seg(id)}/claim`, { token });
export const recordPath = (id) => `/api/games/${seg(id)}/record`;
// A finished game's analysis: asked for once (202 {state}), then read as it goes.
export const analyseGame = (id) => call('POST', `/api/games/${seg(id)}/analysis`);
export const gameAnalysis = (id) => call('GET', `/api/games/${seg(id)}/analysis`);

// The server's picture of a genome alone on an empty board, its moves and what they leave.
export function diagramPath(ref, { width = 7, height = 7, color = 'white' } = {}) {
  return `/api/genomes/${seg(ref)}/diagram.svg?width=${width}&height=${height}&color=${color}&lang=${language()}`;
}

// The lobby: seeks carry their own token (the seat token comes on the seek's stream).
export const createSeek = (options) => call('POST', '/api/seeks', { body: options });
export const seeks = () => call('GET', '/api/seeks');
export const withdrawSeek = (id, token) => call('DELETE', `/api/seeks/${seg(id)}`, { token });
export const acceptSeek = (id) => call('POST', `/api/seeks/${seg(id)}/accept`);
export const seekStreamPath = (id) => `/api/seeks/${seg(id)}/stream`;

// Accounts: the session is the server's HttpOnly cookie (gmo_session), which fetch sends on this
// origin by itself; the page never sees it. GET /api/account answers 401 when signed out.
export const account = () => call('GET', '/api/account');
export const signUp = (username, password) => call('POST', '/api/account', { body: { username, password } });
export const signIn = (username, password) => call('POST', '/api/session', { body: { username, password } });
export const signOut = () => call('DELETE', '/api/session');

// Players as anyone sees them.
export const user = (name) => call('GET', `/api/users/${seg(name)}`);
export const userGames = (name, before = null) =>
  call('GET', `/api/users/${seg(name)}/games${before ? `?before=${seg(before)}` : ''}`);
export const ratingHistory = (name) => call('GET', `/api/users/${seg(name)}/rating-history`);
// People's by default; bots are rated apart (`bots`).
export const leaderboard = (pool = 'people') => call('GET', pool === 'bots' ? '/api/leaderboard?pool=bots' : '/api/leaderboard');

// Bots and challenges (docs/agents.md): who is online, a challenge to a user, and the account's
// event stream, where the answer comes (declined, or the game's start with the seat's token).
export const botsOnline = () => call('GET', '/api/bots/online');
export const challengeUser = (username, body) => call('POST', `/api/challenges/${seg(username)}`, { body });
export const cancelChallenge = (id) => call('POST', `/api/challenges/${seg(id)}/cancel`);
export const accountEventsPath = '/api/stream/event';

// Events: the organiser acts with the session (the cookie), a team with its token (from joining
// with the team's code). Anyone may read an event, its standings and its stream.
// The piece library (docs/library.md); `query` is a URLSearchParams string.
export const library = (query = '') => call('GET', `/api/library${query ? `?${query}` : ''}`);
export const libraryEntry = (id) => call('GET', `/api/library/${seg(id)}`);
export const publishEntry = (entry) => call('POST', '/api/library', { body: entry });
export const editEntry = (id, change) => call('PATCH', `/api/library/${seg(id)}`, { body: change });
export const withdrawEntry = (id) => call('DELETE', `/api/library/${seg(id)}`);
export const starEntry = (id, star) => call(star ? 'PUT' : 'DELETE', `/api/library/${seg(id)}/star`);

export const createEvent = (options) => call('POST', '/api/events', { body: options });
export const event = (id) => call('GET', `/api/events/${seg(id)}`);
export const addTeam = (id, name) => call('POST', `/api/events/${seg(id)}/teams`, { body: { name } });
export const startEvent = (id) => call('POST', `/api/events/${seg(id)}/start`);
export const pairNextRound = (id) => call('POST', `/api/events/${seg(id)}/rounds`);
export const joinEvent = (id, code) => call('POST', `/api/events/${seg(id)}/join`, { body: { code } });
export const setLineup = (id, token, preset, kings) =>
  call('PUT', `/api/events/${seg(id)}/lineup`, { token, body: { preset, kings } });
export const teamGame = (id, token) => call('GET', `/api/events/${seg(id)}/game`, { token });
export const eventStreamPath = (id) => `/api/events/${seg(id)}/stream`;
export const standingsCsvPath = (id) => `/api/events/${seg(id)}/standings.csv`;
