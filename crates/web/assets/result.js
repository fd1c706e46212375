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

// Whether the holder of `color`'s seat has opened the game. The view has no "opened" flag of
// its own (docs/service.md), so the first thing a seat does — load its preset — is the sign;
// a server that sends `opened` or `joined` per seat is believed instead.
export function opponentJoined(view, color) {
  const seat = view.seats && view.seats[color];
  if (!seat) return false;
  if (typeof seat.opened === 'boolean') return seat.opened;
  if (typeof seat.joined === 'boolean') return seat.joined;
  return !!(seat.preset || seat.ready) || view.status !== 'setup';
}
