// What this server is (GET /api/config), asked once before the first page is drawn. In discovery
// (`gmo serve --discovery`) the genome language is kept secret: the page neither shows nor asks
// for diagrams, breeding, strength estimates, explanations or traits, and teaches play, not DNA.

import { config } from './api.js';

let current = { discovery: false };
// The game on the page keeps the language secret (an event's discovery on an ordinary server).
let gameSecret = false;

// Asks the server once; never fails (no answer: the ordinary mode, whose tools the server
// would refuse anyway if it were in discovery).
export async function loadConfig() {
  try {
    const answer = await config();
    current = { discovery: Boolean(answer && answer.discovery) };
  } catch {
    current = { discovery: false };
  }
  document.body.classList.toggle('discovery', current.discovery);
  return current;
}

// True when the server, or the game on the page, keeps the genome language secret.
export const discovery = () => current.discovery || gameSecret;

// The game page says whether its game is in discovery (its view's `discovery`); leaving it says
// no more.
export function gameInDiscovery(secret) {
  gameSecret = Boolean(secret);
  document.body.classList.toggle('discovery', current.discovery || gameSecret);
}
