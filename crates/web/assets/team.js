// A team's page, #/events/{id}/team (and #/events/{id}/join?code=…, the link the organiser hands
// out): join with the team's code, which gives this browser the team's token (kept in
// localStorage for this event); set the lineup every following game of the team starts with (a
// preset and the king squares of its back rank, as White sees it); and once paired, "Play your
// game" opens the team's seat on the game page. A bye says so.

import { h, fill, toast } from './dom.js';
import * as api from './api.js';
import { remember } from './seats.js';
import { setupChoice, DEFAULT_PRESET } from './setup.js';
import {
  heldTeam, noteTeam, forgetTeam, followEvent, eventHref, teamHref, screenHref, gameHref, teamName, summary,
  STATUS, currentRound, pairingList, standingsTable, connectionText, resultText,
} from './events.js';

const FILES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const DEFAULT_KINGS = ['d1']; // the standard king's square in the default preset

const TEXT = {
  joinTitle: 'Join your team',
  joinIntro: 'Type the code your organiser gave your team. Everyone who joins with it acts for the team, on any browser.',
  joined: (name) => `You act for ${name}`,
  joinFailed: (message) => `That code does not open a team: ${message}`,
  lineupTitle: 'Your lineup',
  lineupIntro: 'Every following game of your team starts with it: a preset (default, or a code from the lab) and the squares of your kings on your back rank, as White sees it. When you play Black, the server mirrors it.',
  saved: 'Lineup saved',
  saveFailed: (message) => `The lineup was not saved: ${message}`,
  noKing: 'Mark at least one king.',
  notStarted: 'The event has not started: your game appears here once the organiser starts it.',
  bye: (n) => `Bye this round (round ${n}): your team scores a point without playing.`,
  notPaired: 'Your team is not in this round.',
  youPlay: (n, color, them) => `Round ${n}: you play ${color} against ${them}.`,
  result: (text) => `Result: ${text}.`,
  ready: 'The game starts when both teams press Ready on the game page, or by itself 60 s after the pairing.',
  gameFailed: (message) => `Your game could not be found: ${message}`,
  finished: 'The event is over: the final standings are below.',
  leave: 'Leave this team on this browser',
  left: 'This browser no longer acts for the team',
};

function lineupText({ preset, code, kings }) {
  return `Saved: preset ${preset}${code && code !== preset ? ` (${code})` : ''}, kings on ${kings.join(', ')}.`;
}

// `code`: a join code from the link (#/events/{id}/join?code=…), joined at once.
export function teamPage(root, id, params) {
  let view = null;
  let gone = false;
  let team = heldTeam(id);
  let asked = null; // the round whose game was asked for: {number, answer | error}

  const notice = h('p', { class: 'notice', role: 'alert', id: 'team-notice' });
  const title = h('h1', { id: 'team-title' }, 'Team');
  const about = h('p', { class: 'hint', id: 'team-event-summary' });
  const connection = h('p', { class: 'connection', id: 'team-connection' });

  // Joining.
  const codeField = h('input', {
    id: 'join-code', type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'none',
    'aria-label': 'Team code', placeholder: 'the code your organiser gave you',
  });
  const joinButton = h('button', { type: 'submit', class: 'primary', id: 'join-team' }, 'Join');
  const joinPanel = h('section', { class: 'panel', id: 'join-panel' },
    h('h2', {}, TEXT.joinTitle), h('p', { class: 'hint' }, TEXT.joinIntro),
    h('form', { class: 'row', onsubmit: (event) => { event.preventDefault(); join(codeField.value.trim()); } },
      codeField, joinButton));

  // The lineup.
  const saved = (team && team.lineup) || {};
  const presetField = h('input', {
    id: 'lineup-preset', type: 'text', autocomplete: 'off', spellcheck: 'false',
    value: saved.preset || setupChoice().preset || DEFAULT_PRESET, placeholder: 'default, or a preset code',
  });
  const kings = new Set(Array.isArray(saved.kings) && saved.kings.length ? saved.kings : DEFAULT_KINGS);
  const kingBoxes = FILES.map((file) => {
    const square = `${file}1`;
    const box = h('input', { type: 'checkbox', id: `king-${square}`, value: square, checked: kings.has(square) });
    return h('label', { class: 'king-box', for: `king-${square}` }, box, square);
  });
  const saveButton = h('button', { type: 'submit', class: 'primary', id: 'save-lineup' }, 'Save the lineup');
  const lineupState = h('p', { class: 'hint', id: 'lineup-state' });
  const lineupPanel = h('section', { class: 'panel', id: 'lineup-panel' },
    h('h2', {}, TEXT.lineupTitle), h('p', { class: 'hint' }, TEXT.lineupIntro),
    h('form', { onsubmit: saveLineup },
      h('div', { class: 'row' }, h('label', { for: 'lineup-preset' }, 'Preset'), presetField,
        h('a', { href: '#/lab', class: 'hint' }, 'make one in the lab')),
      h('fieldset', { class: 'kings' }, h('legend', {}, 'Kings (back rank, as White sees it)'),
        h('div', { class: 'row' }, kingBoxes)),
      h('div', { class: 'row' }, saveButton)),
    lineupState);

  const gameBox = h('div', { id: 'team-game' });
  const gamePanel = h('section', { class: 'panel', id: 'team-game-panel' }, h('h2', {}, 'Your game'), gameBox);
  const roundBox = h('div', { id: 'team-round' });
  const standings = h('div', { id: 'team-standings' });
  const leaveButton = h('button', { type: 'button', class: 'small', id: 'leave-team', onclick: leave }, TEXT.leave);

  root.replaceChildren(h('div', { class: 'event-page team-page' },
    h('section', { class: 'panel event-head' }, title, about, notice,
      h('p', { class: 'row event-links' },
        h('a', { href: eventHref(id) }, 'The event'),
        h('a', { href: screenHref(id), id: 'team-screen-link' }, 'Projector view'))),
    joinPanel,
    h('div', { class: 'event-cols' },
      h('div', {}, gamePanel, lineupPanel),
      h('div', {},
        h('section', { class: 'panel' }, h('h2', {}, 'This round'), roundBox),
        h('section', { class: 'panel' }, h('h2', {}, 'Standings'), standings))),
    h('p', { class: 'row' }, leaveButton),
    connection));

  const stream = followEvent(id, {
    onView(next) {
      if (gone) return;
      view = next;
      render();
    },
    onStatus(status, message) {
      connection.textContent = connectionText(status, message);
      if (status === 'failed' && !view) notice.textContent = `The event could not be loaded: ${message}`;
    },
  });
  show();
  // A join link joins at once (again, or another team of the event: the link is the intent).
  const code = params.get('code');
  if (code) join(code);

  // Which panels show: joining until this browser acts for a team.
  function show() {
    joinPanel.hidden = !!team;
    lineupPanel.hidden = !team;
    gamePanel.hidden = !team;
    leaveButton.hidden = !team;
    if (!team) codeField.focus();
  }

  async function join(code) {
    if (!code) return;
    notice.textContent = '';
    joinButton.disabled = true;
    try {
      const answer = await api.joinEvent(id, code);
      noteTeam(id, { team: answer.team, token: answer.token });
      team = heldTeam(id);
      asked = null;
      show();
      if (view) render();
      toast(TEXT.joined(view ? teamName(view, answer.team) : 'your team'));
      if (params.get('code')) location.replace(teamHref(id));
    } catch (error) {
      notice.textContent = TEXT.joinFailed(error.message);
    } finally {
      joinButton.disabled = false;
    }
  }

  function leave() {
    forgetTeam(id);
    team = null;
    asked = null;
    toast(TEXT.left);
    show();
    if (view) render();
  }

  async function saveLineup(event) {
    event.preventDefault();
    if (!team) return;
    notice.textContent = '';
    const chosen = kingBoxes.map((label) => label.querySelector('input')).filter((box) => box.checked).map((box) => box.value);
    if (chosen.length === 0) { lineupState.textContent = TEXT.noKing; return; }
    const preset = presetField.value.trim() || DEFAULT_PRESET;
    saveButton.disabled = true;
    try {
      const answer = await api.setLineup(id, team.token, preset, chosen);
      // The server answers the preset's code: kept beside the name typed.
      const lineup = {
        preset, code: answer && answer.preset ? answer.preset : preset,
        kings: answer && Array.isArray(answer.kings) ? answer.kings : chosen,
      };
      noteTeam(id, { lineup });
      team = heldTeam(id);
      lineupState.textContent = lineupText(lineup);
      toast(TEXT.saved);
    } catch (error) {
      lineupState.textContent = TEXT.saveFailed(error.message);
    } finally {
      saveButton.disabled = false;
    }
  }

  function render() {
    const own = team ? team.team : null;
    title.textContent = own ? `${teamName(view, own)} — ${view.name}` : view.name;
    document.title = `${title.textContent} — GMO chess`;
    about.textContent = `${summary(view)} · ${STATUS[view.status] || view.status}`;
    if (team && team.lineup && !lineupState.textContent) {
      lineupState.textContent = lineupText(team.lineup);
    }
    const round = currentRound(view);
    fill(roundBox, round ? [h('h3', {}, `Round ${round.number}`), pairingList(view, round, { own, id: 'team-pairings' })]
      : h('p', { class: 'hint' }, 'No round yet.'));
    fill(standings, standingsTable(view, { own, id: 'team-standings-table' }));
    if (team) renderGame(round);
  }

  // The team's game of the round: its seat is asked for once per round (GET …/game with the
  // team's token), then kept with the page's other seats so "My games" lists it too.
  function renderGame(round) {
    const own = team.team;
    if (view.status === 'registration' || !round) { fill(gameBox, h('p', { id: 'team-game-state' }, TEXT.notStarted)); return; }
    const pairing = round.pairings.find((p) => p.white === own || p.black === own);
    const over = view.status === 'finished' ? h('p', { class: 'hint' }, TEXT.finished) : null;
    if (!pairing) { fill(gameBox, h('p', { id: 'team-game-state' }, TEXT.notPaired), over); return; }
    if (!pairing.black) {
      fill(gameBox, h('p', { id: 'team-game-state', class: 'bye', 'data-bye': 'true' }, TEXT.bye(round.number)), over);
      return;
    }
    const color = pairing.white === own ? 'White' : 'Black';
    const them = teamName(view, pairing.white === own ? pairing.black : pairing.white);
    const state = h('p', { id: 'team-game-state' }, TEXT.youPlay(round.number, color, them));
    const ended = pairing.result !== null && pairing.result !== undefined;
    if (!asked || asked.number !== round.number) {
      asked = { number: round.number };
      const mine = asked;
      api.teamGame(id, team.token).then((answer) => { mine.answer = answer; }, (error) => {
        mine.error = error;
        // A refusal stays (no game: a 404); anything else is asked again a little later.
        if (error.status !== 404 && error.status !== 401) {
          setTimeout(() => { if (asked === mine && !gone) { asked = null; if (view) render(); } }, 3000);
        }
      }).then(() => { if (!gone && view) render(); });
    }
    let action;
    if (asked.answer) {
      const { game, seat, token } = asked.answer;
      remember(game, { token, color: seat, event: id }, { touch: false });
      action = h('a', { href: gameHref(game, token), class: `button${ended ? '' : ' primary'}`, id: 'play-game', 'data-game': game },
        ended ? 'See your game' : 'Play your game');
    } else if (asked.error) {
      action = h('p', { class: 'notice' }, TEXT.gameFailed(asked.error.message));
    } else {
      action = h('p', { class: 'hint' }, 'Finding your game…');
    }
    fill(gameBox, state,
      ended ? h('p', { id: 'team-game-result' }, TEXT.result(resultText(pairing))) : h('p', { class: 'hint' }, TEXT.ready),
      h('div', { class: 'row' }, action), over);
  }

  return () => {
    gone = true;
    stream.close();
  };
}
