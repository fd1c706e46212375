// The player's setup: by default a new game is set up by the page itself — the player's preset
// loaded, its king marked, ready — so that it starts at once; "Customise setup" leaves it to the
// player (load a preset, mark kings, ready). The choice and the preset are kept in this browser's
// localStorage (`gmo.setup`); a game may carry its own preset (`#/code/{preset}`'s "Play with
// this", a rematch keeps the last game's).

import * as api from './api.js';
import { CODE_OF } from './pieces.js';
import { squareName } from './board.js';

const KEY = 'gmo.setup';
export const DEFAULT_PRESET = 'default';

// {customise: bool, preset: 'default' | a code}
export function setupChoice() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    const preset = typeof saved.preset === 'string' && saved.preset.trim() ? saved.preset.trim() : DEFAULT_PRESET;
    return { customise: saved.customise === true, preset };
  } catch {
    return { customise: false, preset: DEFAULT_PRESET };
  }
}

export function saveSetupChoice(changes) {
  const next = { ...setupChoice(), ...changes };
  if (!next.preset || !String(next.preset).trim()) next.preset = DEFAULT_PRESET;
  try { localStorage.setItem(KEY, JSON.stringify(next)); } catch { /* private mode: for this page only */ }
  return next;
}

// The square of the king to mark on `color`'s back rank once a preset is loaded: the piece of
// the standard king's genome (d1 / d8 in the default preset), else the piece on the middle file,
// else any own piece on the back rank.
export function kingSquare(view, color) {
  const rank = color === 'white' ? 0 : view.height - 1;
  const back = view.board.filter((p) => p.color === color && Number(p.square.slice(1)) === rank + 1);
  const king = back.find((p) => p.code === CODE_OF.king);
  if (king) return king.square;
  const middle = squareName(Math.floor((view.width - 1) / 2), rank);
  if (back.some((p) => p.square === middle)) return middle;
  return back.length ? back[0].square : null;
}

// Plays the seat's setup to the end through the API: the preset (unless loaded), a king (unless
// one is marked), ready. `onView(view)` gets each answer; the promise resolves to the last view,
// or rejects with the ApiError of the step that failed (`error.step`: 'preset', 'king', 'ready').
export async function autoSetup(id, token, view, preset, onView = () => {}) {
  const step = async (name, call) => {
    try {
      const answer = await call();
      if (answer && answer.status) { view = answer; onView(view); }
    } catch (error) {
      error.step = name;
      throw error;
    }
  };
  const you = view.you;
  if (!view.seats[you].preset) await step('preset', () => api.gamePreset(id, token, preset));
  if (!view.board.some((p) => p.color === you && p.king)) {
    const square = kingSquare(view, you);
    if (square) await step('king', () => api.gameKing(id, token, square));
  }
  if (!view.seats[you].ready) await step('ready', () => api.gameReady(id, token));
  return view;
}
