// Words for a game's state, shared by the game page and "My games".

import { has, t } from './i18n.js';

// Why a game ended, in words (lazy: the catalogue is loaded after this module).
const REASONS = ['king_lost', 'kings_lost', 'time', 'no_legal_moves', 'resigned', 'agreement', 'no_first_move',
  'agent_error', 'bot_failed'];
const reasonText = (reason) => (REASONS.includes(reason) ? t(`result.reason.${reason}`) : null);
// A reason worded by the side that lost.
const LOSER_REASONS = {
  abandoned: (loser) => t('result.reason.abandoned', { color: title(loser) }),
};

// White or Black, capitalised, in the page's language (anything else as it is, capitalised).
export const title = (color) => {
  if (color === 'white') return t('color.White');
  if (color === 'black') return t('color.Black');
  return color.charAt(0).toUpperCase() + color.slice(1);
};
// White's or Black's: the side as the owner of something ("Black's king", "the Black seat"),
// the form a language needs there (Slovak: "čierneho").
export const ofSide = (color) => t(color === 'black' ? 'result.of.black' : 'result.of.white');

// A bot by its strength: 'bot:search' → "Bot (search)", 'bot:search:200ms' → "Bot (search, 200ms)";
// a bot this browser knows nothing more of is "Bot".
export function botName(spec) {
  const parts = typeof spec === 'string' ? spec.split(':').slice(1).filter(Boolean) : [];
  if (!parts.length) return t('result.bot');
  // The kind is a machine word (random, greedy, search); a search's time stays as written (200ms).
  const [kind, ...rest] = parts;
  const named = has(`result.botKind.${kind}`) ? t(`result.botKind.${kind}`) : kind;
  return t('result.botWith', { strength: [named, ...rest].join(', ') });
}
export const other = (color) => (color === 'white' ? 'black' : 'white');

// The result in words: "White won — by resignation"; with `teams` ({white, black}: an event's
// game) the winner is its team: "Orli won — by resignation".
export function resultText(view, teams = null) {
  const loser = view.status === 'white_won' ? 'black' : view.status === 'black_won' ? 'white' : null;
  const words = loser && LOSER_REASONS[view.reason] ? LOSER_REASONS[view.reason](loser)
    : reasonText(view.reason) || (view.reason ? view.reason.replaceAll('_', ' ') : '');
  const won = (color) => (teams && teams[color] ? t('result.teamWon', { team: teams[color] }) : t('result.won', { color: title(color) }));
  let outcome;
  switch (view.status) {
    case 'white_won': outcome = won('white'); break;
    case 'black_won': outcome = won('black'); break;
    case 'draw': outcome = t('result.draw'); break;
    case 'aborted': outcome = t('result.aborted'); break;
    default: return '';
  }
  return view.reason ? t('result.because', { result: outcome, reason: words }) : outcome;
}

// Whether `color`'s seat is taken: its holder has opened the game with the seat's token (the
// server notes the first request and says so in every view, `seats.{color}.joined`, and on the
// stream with a `joined` line), or a bot plays it.
export function opponentJoined(view, color) {
  const seat = view.seats && view.seats[color];
  return !!(seat && seat.joined);
}

// What happened at the end, from the player's side, in plain words (a spectator's: by colour).
// Functions, so that the words are read when asked for (the catalogue is loaded after this).
const END = {
  ownKing: (square) => t('result.end.ownKing', { square }),
  theirOwnKing: (winner, loser, square) => t('result.end.theirOwnKing', { loser: title(loser), square }),
  anyOwnKing: (loser, square) => t('result.end.anyOwnKing', { loser: title(loser), square }),
  kingTaken: (winner, square) => t('result.end.kingTaken', { winner: title(winner), square }),
  youTook: (loser, square) => t('result.end.youTook', { loser: ofSide(loser), square }),
  anyTook: (winner, loser, square) => t('result.end.anyTook', { winner: title(winner), loser: ofSide(loser), square }),
  kingLost: () => t('result.end.kingLost'),
  theirKingLost: (loser) => t('result.end.theirKingLost', { loser: title(loser) }),
  anyKingLost: (loser) => t('result.end.anyKingLost', { loser: title(loser) }),
  kingsLost: () => t('result.end.kingsLost'),
  flag: () => t('result.end.flag'),
  theirFlag: (loser) => t('result.end.theirFlag', { loser: title(loser) }),
  anyFlag: (loser) => t('result.end.anyFlag', { loser: title(loser) }),
  stuck: () => t('result.end.stuck'),
  theirStuck: (loser) => t('result.end.theirStuck', { loser: title(loser) }),
  anyStuck: (loser) => t('result.end.anyStuck', { loser: title(loser) }),
  resigned: () => t('result.end.resigned'),
  theyResigned: (loser) => t('result.end.theyResigned', { loser: title(loser) }),
  anyResigned: (loser) => t('result.end.anyResigned', { loser: title(loser) }),
  agreed: () => t('result.end.agreed'),
  left: () => t('result.end.left'),
  theyLeft: () => t('result.end.theyLeft'),
  anyLeft: (winner, loser) => t('result.end.anyLeft', { winner: title(winner), loser: title(loser) }),
  noFirstMove: () => t('result.end.noFirstMove'),
  theirNoFirstMove: () => t('result.end.theirNoFirstMove'),
  anyNoFirstMove: (color) => t('result.end.anyNoFirstMove', { color: title(color) }),
  aborted: () => t('result.aborted'),
  botFailed: () => t('result.end.botFailed'),
};

// `last`: what the page knows of the last move — {mover, square} with the square of the king
// it cost (or null when it does not know).
export function endText(view, last = null) {
  const you = view.you;
  const winner = view.status === 'white_won' ? 'white' : view.status === 'black_won' ? 'black' : null;
  const loser = winner ? other(winner) : null;
  if (view.status === 'aborted') {
    if (view.reason === 'bot_failed') return END.botFailed();
    if (view.reason !== 'no_first_move') return END.aborted();
    // White's first move was missing if no move was made, else Black's.
    const late = view.moves_played > 0 ? 'black' : 'white';
    if (!you) return END.anyNoFirstMove(late);
    return late === you ? END.noFirstMove() : END.theirNoFirstMove();
  }
  if (view.status === 'draw') {
    if (view.reason === 'kings_lost') return END.kingsLost();
    if (view.reason === 'agreement') return END.agreed();
    return resultText(view);
  }
  if (!winner) return resultText(view);
  switch (view.reason) {
    case 'king_lost': {
      const square = last && last.square;
      if (!square || !last.mover) {
        if (!you) return END.anyKingLost(loser);
        return you === loser ? END.kingLost() : END.theirKingLost(loser);
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
      return you === loser ? END.flag() : END.theirFlag(loser);
    case 'no_legal_moves':
      if (!you) return END.anyStuck(loser);
      return you === loser ? END.stuck() : END.theirStuck(loser);
    case 'resigned':
      if (!you) return END.anyResigned(loser);
      return you === loser ? END.resigned() : END.theyResigned(loser);
    case 'abandoned':
      if (!you) return END.anyLeft(winner, loser);
      return you === loser ? END.left() : END.theyLeft();
    default:
      return resultText(view);
  }
}
