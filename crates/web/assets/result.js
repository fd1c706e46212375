// Words for a game's state, shared by the game page and "My games".

const REASONS = {
  king_lost: 'a king was lost',
  kings_lost: 'both sides lost a king',
  time: 'on time',
  no_legal_moves: 'no legal moves left',
  resigned: 'by resignation',
  agreement: 'by agreement',
};

export const title = (color) => color.charAt(0).toUpperCase() + color.slice(1);

// A bot by its strength: 'bot:search' → "Bot (search)", 'bot:search:200ms' → "Bot (search, 200ms)";
// a bot this browser knows nothing more of is "Bot".
export function botName(spec) {
  const parts = typeof spec === 'string' ? spec.split(':').slice(1).filter(Boolean) : [];
  return parts.length ? `Bot (${parts.join(', ')})` : 'Bot';
}
export const other = (color) => (color === 'white' ? 'black' : 'white');

export function resultText(view) {
  const reason = view.reason ? ` — ${REASONS[view.reason] || view.reason.replaceAll('_', ' ')}` : '';
  switch (view.status) {
    case 'white_won': return `White won${reason}`;
    case 'black_won': return `Black won${reason}`;
    case 'draw': return `Draw${reason}`;
    case 'aborted': return 'The game was aborted';
    default: return '';
  }
}

// Whether `color`'s seat is taken: its holder has opened the game with the seat's token (the
// server notes the first request and says so in every view, `seats.{color}.joined`, and on the
// stream with a `joined` line), or a bot plays it.
export function opponentJoined(view, color) {
  const seat = view.seats && view.seats[color];
  return !!(seat && seat.joined);
}
