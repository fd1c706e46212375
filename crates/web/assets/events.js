// What the event pages share (the organiser's page, a team's page and the projector view): the
// events and teams this browser holds, following an event's stream, and the event in words —
// team names, pairings with their results, the standings table.
//
// This browser keeps, in localStorage (`gmo.events`), the events it organises with the join
// codes it was given (the server shows a code once and keeps it hashed), and for each event the
// team it joined with that team's token. They are sent nowhere but to this server.

import { h } from './dom.js';
import * as api from './api.js';
import { ndjson } from './stream.js';
import { t, has, errorText, formatNumber, withElements } from './i18n.js';

const KEY = 'gmo.events';
const KEEP = 20; // events of each kind kept: every per-browser structure is bounded

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    return {
      organised: data.organised && typeof data.organised === 'object' ? data.organised : {},
      teams: data.teams && typeof data.teams === 'object' ? data.teams : {},
    };
  } catch {
    return { organised: {}, teams: {} };
  }
}

const recent = (table) => Object.fromEntries(Object.entries(table)
  .sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, KEEP));

function save(data) {
  const kept = { organised: recent(data.organised), teams: recent(data.teams) };
  try { localStorage.setItem(KEY, JSON.stringify(kept)); } catch { /* private mode: this page only */ }
}

// The events this browser organises, most recent first: [{id, name, at}].
export function organisedEvents() {
  return Object.entries(load().organised).map(([id, facts]) => ({ id, ...facts }))
    .sort((a, b) => (b.at || 0) - (a.at || 0));
}

// What this browser knows of event `id` as its organiser ({name, codes: {teamId: code}}), or null.
export function organisedEvent(id) {
  return load().organised[id] || null;
}

export function noteOrganised(id, facts) {
  const data = load();
  const before = data.organised[id] || { codes: {} };
  data.organised[id] = { ...before, ...facts, codes: { ...before.codes, ...(facts.codes || {}) }, at: Date.now() };
  save(data);
}

// The team this browser acts for in event `id`: {team, token, lineup?: {preset, kings}}, or null.
export function heldTeam(id) {
  const team = load().teams[id];
  return team && typeof team.token === 'string' && team.token ? team : null;
}

export function noteTeam(id, facts) {
  const data = load();
  data.teams[id] = { ...(data.teams[id] || {}), ...facts, at: Date.now() };
  save(data);
}

export function forgetTeam(id) {
  const data = load();
  delete data.teams[id];
  save(data);
}

// Links within the page.
export const eventHref = (id) => `#/events/${encodeURIComponent(id)}`;
export const teamHref = (id) => `${eventHref(id)}/team`;
export const screenHref = (id) => `${eventHref(id)}/screen`;
export const gameHref = (game, token) => `#/game/${encodeURIComponent(game)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;

// The link a team joins by: it carries the code, so it is as secret as the code.
export function joinLink(id, code) {
  return `${location.origin}${location.pathname}${eventHref(id)}/join?code=${encodeURIComponent(code)}`;
}

const FIRST_PAUSE = 300;
const LONGEST_PAUSE = 8000;

// followEvent(id, {onView(view), onStatus(status, message?)}) → {close()}: the event's view now and
// after every change. The stream's first line is the view; on each later line (a round paired, a
// result, the standings, the status) the view is read again, so the page always draws a whole
// view. A drop reconnects with growing pauses; the status is 'connecting', 'live',
// 'reconnecting', 'ended' (the event is finished and the server closed the stream) or 'failed'
// (a refusal that retrying will not change, such as an unknown event).
export function followEvent(id, { onView, onStatus = () => {} }) {
  let closed = false;
  let controller = null;
  let timer = 0;
  let pause = FIRST_PAUSE;
  let reading = null; // the read of the view under way
  let again = false; // another line came while it was under way

  async function reread() {
    if (reading) { again = true; return; }
    reading = (async () => {
      do {
        again = false;
        try {
          const view = await api.event(id);
          if (!closed) onView(view);
        } catch (error) {
          if (!closed) console.warn('the event could not be read again', error);
        }
      } while (again && !closed);
    })();
    await reading;
    reading = null;
  }

  async function connect() {
    controller = new AbortController();
    onStatus('connecting');
    let finished = false;
    try {
      const response = await fetch(api.eventStreamPath(id), {
        headers: { Accept: 'application/x-ndjson' }, signal: controller.signal, cache: 'no-store',
      });
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
        let message = t('events.refused', { status: response.status });
        try {
          const { error } = await response.json();
          message = errorText({ code: error.code, message: error.message, status: response.status }) || message;
        } catch { /* keep the status */ }
        onStatus('failed', message);
        return;
      }
      if (!response.ok || !response.body) throw new Error(`the event's stream answered ${response.status}`);
      let first = true;
      for await (const line of ndjson(response.body)) {
        const view = first ? (line && line.type === 'event' ? line.event : line) : null;
        if (view && typeof view === 'object' && view.id) {
          onStatus('live');
          pause = FIRST_PAUSE;
          finished = view.status === 'finished';
          onView(view);
        } else {
          if (line && line.type === 'status' && line.status === 'finished') finished = true;
          reread();
        }
        first = false;
      }
    } catch (failure) {
      if (closed) return;
      if (failure.name !== 'AbortError') console.warn('event stream dropped', failure);
    }
    if (closed) return;
    if (finished) {
      // The last lines may have come just before the close: the final view once more.
      await reread();
      if (!closed) onStatus('ended');
      return;
    }
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
    // Reads the view again now (after the page's own change, before the stream says it).
    refresh: () => reread(),
  };
}

// The event in words.
// A format ('round_robin', 'swiss') or a status ('registration', 'running', 'finished') in words
// (an unknown one as it is).
export const formatText = (format) => (has(`events.format.${format}`) ? t(`events.format.${format}`) : format);
export const statusText = (status) => (has(`events.status.${status}`) ? t(`events.status.${status}`) : status);

export function teamName(view, teamId) {
  const team = (view.teams || []).find((one) => one.id === teamId);
  return team ? team.name : teamId ? t('events.unknownTeam', { id: teamId }) : '';
}

export function clockText(clock) {
  if (!clock) return '';
  const minutes = (clock.initial_ms || 0) / 60000;
  const seconds = (clock.increment_ms || 0) / 1000;
  return t('events.clock', { minutes: formatNumber(minutes, { maximumFractionDigits: 1 }), seconds: formatNumber(seconds) });
}

export function summary(view) {
  const parts = [formatText(view.format)];
  if (view.rounds_planned) parts.push(t('events.rounds', { count: view.rounds_planned }));
  parts.push(clockText(view.clock));
  if (view.discovery) parts.push(t('events.discovery'));
  return parts.filter(Boolean).join(' · ');
}

// The summary and the status, for a page's head line.
export const summaryAndStatus = (view) => [summary(view), statusText(view.status)].filter(Boolean).join(' · ');

// The round being played (or the last one played), or null before round 1.
export function currentRound(view) {
  const rounds = Array.isArray(view.rounds) ? view.rounds : [];
  return rounds.length ? rounds.reduce((a, b) => (b.number > a.number ? b : a)) : null;
}

// Whether every game of `round` has ended (a bye has none).
export function roundOver(round) {
  return !!round && round.pairings.every((p) => !p.game || (p.result !== null && p.result !== undefined));
}

// Points as chess players write them: 1½, ½, 2 (other fractions in the language's decimals:
// 2.25, 2,25).
export function points(value) {
  const n = Number(value) || 0;
  const whole = Math.floor(n);
  const half = Math.abs(n - whole - 0.5) < 1e-9;
  if (half) return whole === 0 ? '½' : `${formatNumber(whole)}½`;
  return Number.isInteger(n) ? formatNumber(n) : formatNumber(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function resultText(pairing) {
  if (!pairing.black) return t('events.result.bye');
  switch (pairing.result) {
    case 'white': return '1–0';
    case 'black': return '0–1';
    case 'draw': return '½–½';
    default: return pairing.game ? t('events.result.playing') : t('events.result.notStarted');
  }
}

// One round's pairings: its boards as a numbered list, "White team – Black team  1–0", and the
// bye under it, not numbered like a board; `own` is a team to mark, `href(pairing)` an optional
// link for each game.
export function pairingList(view, round, { own = null, href = null, id } = {}) {
  const games = round.pairings.filter((pairing) => pairing.black);
  const byes = round.pairings.filter((pairing) => !pairing.black);
  return h('div', { class: 'round-pairings' },
    h('ol', { class: 'pairings', id }, games.map((pairing) => pairingItem(view, pairing, { own, href, tag: 'li' }))),
    byes.map((pairing) => pairingItem(view, pairing, { own, href, tag: 'p' })));
}

// One pairing: a board (`li`), or a bye (`p`, beside the list).
function pairingItem(view, pairing, { own, href, tag }) {
  const mine = own && (pairing.white === own || pairing.black === own);
  const link = href && pairing.game ? href(pairing) : null;
  const result = h('span', { class: 'pairing-result' }, resultText(pairing));
  return h(tag, {
    class: `pairing${mine ? ' own' : ''}${pairing.black ? '' : ' bye'}`,
    'data-white': pairing.white, 'data-black': pairing.black || null,
    'data-game': pairing.game || null, 'data-result': pairing.result || null,
  },
  h('span', { class: 'dot white', 'aria-hidden': 'true' }),
  pairing.black ? [h('span', { class: 'team white' }, teamName(view, pairing.white)), ' – ',
    h('span', { class: 'dot black', 'aria-hidden': 'true' }), h('span', { class: 'team black' }, teamName(view, pairing.black))]
    : withElements(t('events.hasBye'), { team: h('span', { class: 'team white' }, teamName(view, pairing.white)) }),
  pairing.black ? [' ', link ? h('a', { href: link, class: 'pairing-link' }, result) : result] : null);
}

// The standings table: rank, team, points, Sonneborn–Berger, games played.
export function standingsTable(view, { own = null, id = 'standings' } = {}) {
  const rows = Array.isArray(view.standings) ? view.standings : [];
  if (rows.length === 0) {
    return h('p', { class: 'hint', id }, (view.teams || []).length ? t('events.noGames') : t('events.noTeams'));
  }
  return h('table', { class: 'standings-table', id },
    h('caption', { class: 'sr-only' }, t('events.standings.caption')),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', class: 'num' }, t('events.standings.rank')), h('th', { scope: 'col' }, t('events.standings.team')),
      h('th', { scope: 'col', class: 'num' }, t('events.standings.points')),
      h('th', { scope: 'col', class: 'num', title: t('events.standings.sbTitle') }, t('events.standings.sb')),
      h('th', { scope: 'col', class: 'num' }, t('events.standings.played')))),
    h('tbody', {}, rows.map((row, i) => h('tr', {
      'data-team': row.team, 'data-points': String(row.points), class: own === row.team ? 'own' : null,
    },
    h('td', { class: 'num' }, formatNumber(i + 1)),
    h('th', { scope: 'row' }, teamName(view, row.team)),
    h('td', { class: 'num points' }, points(row.points)),
    h('td', { class: 'num' }, points(row.tiebreak)),
    h('td', { class: 'num' }, formatNumber(row.played))))));
}

// An event page's follow: each view to `onView` until the page has gone (`gone()`), the
// connection's state in words into `connection`, and `onFailed(message)` when the stream fails
// before any view came (the organiser's and the team's page then say why).
export function followEventPage(id, { gone, connection, onView, onFailed = () => {} }) {
  let seen = false;
  return followEvent(id, {
    onView(view) {
      if (gone()) return;
      seen = true;
      onView(view);
    },
    onStatus(status, message) {
      connection.textContent = connectionText(status, message);
      if (status === 'failed' && !seen) onFailed(message);
    },
  });
}

// The connection in words, for a small line under the page.
export function connectionText(status, message) {
  switch (status) {
    case 'live': return t('events.connection.live');
    case 'connecting': return t('events.connection.connecting');
    case 'reconnecting': return t('events.connection.reconnecting');
    case 'ended': return t('events.connection.ended');
    case 'failed': return t('events.connection.failed', { message });
    default: return '';
  }
}
