// The seats this browser holds: for every game it played, the seat token, the colour, the invite
// link it made for the other seat and the last state it saw. They live in this browser's
// localStorage and are sent nowhere but to this server (as the bearer of that game's requests),
// so closing the tab loses nothing: the home page lists them under "My games".

const KEY = 'gmo.games';
const KEEP = 50;

function all() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || '{}');
    return games && typeof games === 'object' ? games : {};
  } catch {
    return {};
  }
}

function save(games) {
  // Keep the most recent games only: every per-browser structure is bounded.
  const recent = Object.entries(games).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, KEEP);
  try { localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(recent))); } catch { /* private mode */ }
}

export function remembered(id) {
  return all()[id] || {};
}

// Merges `facts` into what is known of game `id`; `touch` (the default) makes it the most recent.
export function remember(id, facts, { touch = true } = {}) {
  const games = all();
  const before = games[id] || {};
  games[id] = { ...before, ...facts, at: touch ? Date.now() : before.at || Date.now() };
  save(games);
}

export function forget(id) {
  const games = all();
  delete games[id];
  save(games);
}

// Every game this browser holds a seat in, most recent first: [{id, token, color, …}].
export function heldSeats() {
  return Object.entries(all())
    .filter(([, facts]) => typeof facts.token === 'string' && facts.token)
    .map(([id, facts]) => ({ id, ...facts }))
    .sort((a, b) => (b.at || 0) - (a.at || 0));
}
