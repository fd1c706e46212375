// Words for a game's state, shared by the game page and "My games".

const REASONS = {
  king_lost: 'a king was lost',
  kings_lost: 'both sides lost a king',
  time: 'on time',
  no_legal_moves: 'no legal moves left',
  resigned: 'by resignation',
  agreement: 'by agreement',
  no_first_move: 'no first move',
};
// A reason worded by the side that lost.
const LOSER_REASONS = {
  abandoned: (loser) => `${title(loser)} left`,
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
  const loser = view.status === 'white_won' ? 'black' : view.status === 'black_won' ? 'white' : null;
  const words = loser && LOSER_REASONS[view.reason] ? LOSER_REASONS[view.reason](loser)
    : REASONS[view.reason] || (view.reason ? view.reason.replaceAll('_', ' ') : '');
  const reason = view.reason ? ` — ${words}` : '';
  switch (view.status) {
    case 'white_won': return `White won${reason}`;
    case 'black_won': return `Black won${reason}`;
    case 'draw': return `Draw${reason}`;
    case 'aborted': return `The game was aborted${reason}`;
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

// What happened at the end, from the player's side, in plain words (a spectator's: by colour).
const END = {
  ownKing: (square) => `You took your own king on ${square}`,
  theirOwnKing: (winner, loser, square) => `You won: ${title(loser)} took its own king on ${square}`,
  anyOwnKing: (loser, square) => `${title(loser)} took its own king on ${square}`,
  kingTaken: (winner, square) => `You lost: ${title(winner)} took your king on ${square}`,
  youTook: (loser, square) => `You won: you took ${title(loser)}'s king on ${square}`,
  anyTook: (winner, loser, square) => `${title(winner)} took ${title(loser)}'s king on ${square}`,
  kingLost: 'You lost: your king was lost',
  theirKingLost: (loser) => `You won: ${title(loser)}'s king was lost`,
  anyKingLost: (loser) => `${title(loser)}'s king was lost`,
  kingsLost: 'Both sides lost a king: a draw',
  flag: 'Your flag fell',
  theirFlag: (loser) => `You won: ${title(loser)}'s flag fell`,
  anyFlag: (loser) => `${title(loser)}'s flag fell`,
  stuck: 'You lost: you had no legal move left',
  theirStuck: (loser) => `You won: ${title(loser)} had no legal move left`,
  anyStuck: (loser) => `${title(loser)} had no legal move left`,
  resigned: 'You resigned',
  theyResigned: (loser) => `You won: ${title(loser)} resigned`,
  anyResigned: (loser) => `${title(loser)} resigned`,
  agreed: 'Draw agreed',
  left: 'You lost: you left the game, and your opponent claimed the victory',
  theyLeft: 'You won: your opponent left',
  anyLeft: (winner, loser) => `${title(loser)} left: ${title(winner)} claimed the victory`,
  noFirstMove: 'You did not make your first move in time: the game is aborted',
  theirNoFirstMove: 'Your opponent did not make a first move: the game is aborted',
  anyNoFirstMove: (color) => `${title(color)} did not make a first move: the game is aborted`,
  aborted: 'The game was aborted',
};

// `last`: what the page knows of the last move — {mover, square} with the square of the king
// it cost (or null when it does not know).
export function endText(view, last = null) {
  const you = view.you;
  const winner = view.status === 'white_won' ? 'white' : view.status === 'black_won' ? 'black' : null;
  const loser = winner ? other(winner) : null;
  if (view.status === 'aborted') {
    if (view.reason !== 'no_first_move') return END.aborted;
    // White's first move was missing if no move was made, else Black's.
    const late = view.moves_played > 0 ? 'black' : 'white';
    if (!you) return END.anyNoFirstMove(late);
    return late === you ? END.noFirstMove : END.theirNoFirstMove;
  }
  if (view.status === 'draw') {
    if (view.reason === 'kings_lost') return END.kingsLost;
    if (view.reason === 'agreement') return END.agreed;
    return resultText(view);
  }
  if (!winner) return resultText(view);
  switch (view.reason) {
    case 'king_lost': {
      const square = last && last.square;
      if (!square || !last.mover) {
        if (!you) return END.anyKingLost(loser);
        return you === loser ? END.kingLost : END.theirKingLost(loser);
      }
      if (last.mover === loser) {
        if (!you) return END.anyOwnKing(loser, square);
        return you === loser ? END.ownKing(square) : END.theirOwnKing(winner, loser, square);
      }
      if (!you) return END.anyTook(winner, loser, square);
      return you === loser ? END.kingTaken(winner, square) : END.youTook(loser, square);
    }
    case 'time':
      if (!you) return END.anyFlag(loser);
      return you === loser ? END.flag : END.theirFlag(loser);
    case 'no_legal_moves':
      if (!you) return END.anyStuck(loser);
      return you === loser ? END.stuck : END.theirStuck(loser);
    case 'resigned':
      if (!you) return END.anyResigned(loser);
      return you === loser ? END.resigned : END.theyResigned(loser);
    case 'abandoned':
      if (!you) return END.anyLeft(winner, loser);
      return you === loser ? END.left : END.theyLeft;
    default:
      return resultText(view);
  }
}
