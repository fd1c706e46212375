// What this browser remembers about games it created: the invite link for the other seat, to
// show it again on the game page. Seat tokens themselves live only in the page's address (the
// fragment, which browsers never send to the server), so two windows of one browser can hold
// the two seats of one game.

const KEY = 'gmo.games';

function all() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}'); } catch { return {}; }
}

export function remembered(id) {
  return all()[id] || {};
}

export function remember(id, facts) {
  const games = all();
  games[id] = { ...games[id], ...facts, at: Date.now() };
  // Keep the 50 most recent games only.
  const recent = Object.entries(games).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  try { localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(recent))); } catch { /* private mode */ }
}
