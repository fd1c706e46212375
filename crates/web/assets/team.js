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
  heldTeam, noteTeam, forgetTeam, followEventPage, eventHref, teamHref, screenHref, gameHref, teamName, summaryAndStatus,
  currentRound, pairingList, standingsTable, resultText,
} from './events.js';
import { t, errorText } from './i18n.js';
import { fieldError, formErrors } from './fields.js';
import { pieceSvg, standardName, pieceLabel } from './pieces.js';

const FILES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const DEFAULT_KINGS = ['d1']; // the standard king's square in the default preset

// The messages of this page (read when shown: the catalogue loads after this module).
const TEXT = {
  joined: (name) => (name ? t('team.joined', { name }) : t('team.joinedYours')),
  joinFailed: (error) => t('team.joinFailed', { message: errorText(error) }),
  saveFailed: (error) => t('team.saveFailed', { message: errorText(error) }),
  bye: (n) => t('team.bye', { number: n }),
  youPlay: (n, color, them) => t(color === 'white' ? 'team.youPlayWhite' : 'team.youPlayBlack', { number: n, them }),
  result: (text) => t('team.result', { result: text }),
  // The team's own result, with the score: "Your team won: 1–0."
  outcome: (pairing, color) => {
    const score = resultText(pairing);
    if (pairing.result === 'draw') return t('team.drew', { result: score });
    if (pairing.result === color) return t('team.won', { result: score });
    if (pairing.result === 'white' || pairing.result === 'black') return t('team.lost', { result: score });
    return t('team.result', { result: score });
  },
  gameFailed: (error) => t('team.gameFailed', { message: errorText(error) }),
};

// A join code as people type it, made the code it was (the server reads it the same way): codes
// are lower case, and one read aloud or off a projector comes in capitals or in groups.
export const joinCode = (typed) => String(typed || '').replace(/[\s-]+/g, '').toLowerCase();

// The lineup saved, in words: the preset (and the code the server made of it), the kings.
function lineupText({ preset, code, kings }) {
  const params = { preset, code, kings: kings.join(', '), count: kings.length };
  return code && code !== preset ? t('team.savedWithCode', params) : t('team.saved', params);
}

// `code`: a join code from the link (#/events/{id}/join?code=…), joined at once.
export function teamPage(root, id, params) {
  let view = null;
  let gone = false;
  let team = heldTeam(id);
  let asked = null; // the round whose game was asked for: {number, answer | error}

  const notice = h('p', { class: 'notice', role: 'alert', id: 'team-notice' });
  const title = h('h1', { id: 'team-title' }, t('team.team'));
  const about = h('p', { class: 'hint', id: 'team-event-summary' });
  const connection = h('p', { class: 'connection', id: 'team-connection' });

  // Joining.
  const codeField = h('input', {
    id: 'join-code', type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'none',
    'aria-label': t('team.code'), placeholder: t('team.codePlaceholder'), 'aria-describedby': 'join-code-error',
  });
  const codeError = fieldError('join-code-error');
  const joinButton = h('button', { type: 'submit', class: 'primary', id: 'join-team' }, t('team.join'));
  const joinPanel = h('section', { class: 'panel', id: 'join-panel' },
    h('h2', {}, t('team.joinTitle')), h('p', { class: 'hint' }, t('team.joinIntro')),
    h('form', { class: 'row', onsubmit: (event) => { event.preventDefault(); join(codeField.value); } },
      codeField, joinButton),
    codeError);
  // A refused code is said under the field: its rule, or (`bad_credentials`, whose general words
  // are about a password) that no team has it.
  const joinErrors = formErrors({
    code: {
      input: codeField, slot: codeError, text: 'field.code', codes: ['bad_credentials'],
      words: (error) => (error.code === 'bad_credentials' ? t('field.noSuchCode') : null),
    },
  }, notice, TEXT.joinFailed);

  // The lineup.
  const saved = (team && team.lineup) || {};
  const presetField = h('input', {
    id: 'lineup-preset', type: 'text', autocomplete: 'off', spellcheck: 'false',
    value: saved.preset || setupChoice().preset || DEFAULT_PRESET, placeholder: t('team.presetPlaceholder'),
  });
  const kings = new Set(Array.isArray(saved.kings) && saved.kings.length ? saved.kings : DEFAULT_KINGS);
  const kingBoxes = FILES.map((file) => {
    const square = `${file}1`;
    const box = h('input', { type: 'checkbox', id: `king-${square}`, value: square, checked: kings.has(square) });
    return h('label', { class: 'king-box', for: `king-${square}` }, box, square);
  });
  const saveButton = h('button', { type: 'submit', class: 'primary', id: 'save-lineup' }, t('team.save'));
  const lineupState = h('p', { class: 'hint', id: 'lineup-state' });
  const presetError = fieldError('lineup-preset-error');
  const kingsError = fieldError('lineup-kings-error');
  const kingsBox = h('fieldset', { class: 'kings', 'aria-describedby': 'lineup-kings-error' }, h('legend', {}, t('team.kings')),
    h('div', { class: 'row' }, kingBoxes));
  presetField.setAttribute('aria-describedby', 'lineup-preset-error');
  // The army the saved lineup sets up: its back rank as White sees it, the kings crowned.
  const army = h('div', { id: 'lineup-army' });
  const lineupPanel = h('section', { class: 'panel', id: 'lineup-panel' },
    h('h2', {}, t('team.lineupTitle')), h('p', { class: 'hint' }, t('team.lineupIntro')),
    h('form', { onsubmit: saveLineup },
      h('div', { class: 'row' }, h('label', { for: 'lineup-preset' }, t('team.preset')), presetField,
        h('a', { href: '#/lab', class: 'hint' }, t('team.makeOne'))),
      presetError,
      kingsBox, kingsError,
      h('div', { class: 'row' }, saveButton),
      h('div', { class: 'toast-slot' })),
    lineupState, army);
  const lineupErrors = formErrors({
    preset: { input: presetField, slot: presetError, codes: ['not_found'], words: (error) => (error.code === 'not_found' ? t('team.noSuchPreset') : null) },
    kings: { input: kingsBox, slot: kingsError },
  }, lineupState, TEXT.saveFailed);

  const gameBox = h('div', { id: 'team-game' });
  const gamePanel = h('section', { class: 'panel', id: 'team-game-panel' }, h('h2', {}, t('team.yourGame')), gameBox);
  const roundBox = h('div', { id: 'team-round' });
  const standings = h('div', { id: 'team-standings' });
  const leaveButton = h('button', { type: 'button', class: 'small', id: 'leave-team', onclick: leave }, t('team.leave'));

  root.replaceChildren(h('div', { class: 'event-page team-page' },
    h('section', { class: 'panel event-head' }, title, about, notice,
      h('p', { class: 'row event-links' },
        h('a', { href: eventHref(id) }, t('events.theEvent')),
        h('a', { href: screenHref(id), id: 'team-screen-link' }, t('events.projector')))),
    joinPanel,
    h('div', { class: 'event-cols' },
      h('div', {}, gamePanel, lineupPanel),
      h('div', {},
        h('section', { class: 'panel' }, h('h2', {}, t('team.thisRound')), roundBox),
        h('section', { class: 'panel' }, h('h2', {}, t('events.standings')), standings))),
    h('p', { class: 'row' }, leaveButton),
    connection));

  const stream = followEventPage(id, {
    gone: () => gone,
    connection,
    onView(next) {
      view = next;
      render();
    },
    onFailed(message) {
      if (!view) notice.textContent = t('events.loadFailed', { message });
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

  async function join(typed) {
    const code = joinCode(typed);
    if (!code) return;
    joinErrors.clear();
    joinButton.disabled = true;
    try {
      const answer = await api.joinEvent(id, code);
      noteTeam(id, { team: answer.team, token: answer.token });
      team = heldTeam(id);
      asked = null;
      show();
      if (view) render();
      toast(TEXT.joined(view ? teamName(view, answer.team) : null));
      if (params.get('code')) location.replace(teamHref(id));
    } catch (error) {
      joinErrors.show(error);
    } finally {
      joinButton.disabled = false;
    }
  }

  function leave() {
    forgetTeam(id);
    team = null;
    asked = null;
    toast(t('team.left'));
    show();
    if (view) render();
  }

  async function saveLineup(event) {
    event.preventDefault();
    if (!team) return;
    notice.textContent = '';
    lineupErrors.clear();
    const chosen = kingBoxes.map((label) => label.querySelector('input')).filter((box) => box.checked).map((box) => box.value);
    if (chosen.length === 0) { kingsError.textContent = t('team.noKing'); return; }
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
      showArmy(lineup);
      toast(t('team.savedToast'));
    } catch (error) {
      lineupErrors.show(error);
    } finally {
      saveButton.disabled = false;
    }
  }

  // Draws the lineup's back rank (the preset asked for by its code; nothing drawn if it cannot be).
  let armyShown = null;
  async function showArmy(lineup) {
    armyShown = lineup;
    let preset;
    try { preset = await api.preset(lineup.code || lineup.preset); } catch { return; }
    if (armyShown !== lineup || gone) return;
    const kingSet = new Set(lineup.kings);
    fill(army, h('p', {}, t('team.army')),
      h('ol', { class: 'rank army', 'aria-label': t('team.army') }, preset.genomes.map((code, i) => {
        const square = `${FILES[i]}1`;
        const king = kingSet.has(square);
        const name = standardName(code) ? pieceLabel(standardName(code)) : code;
        return h('li', { 'data-square': square, 'data-code': code, 'data-king': String(king),
          'aria-label': t(king ? 'team.armyKing' : 'team.armyPiece', { square, name }) },
        pieceSvg({ color: 'white', code, king, pawn: false }, { title: false }), h('span', {}, `${square} ${name}`));
      })));
  }

  function render() {
    const own = team ? team.team : null;
    title.textContent = own ? t('team.title', { team: teamName(view, own), event: view.name }) : view.name;
    document.title = t('title.named', { name: title.textContent });
    about.textContent = summaryAndStatus(view);
    if (team && team.lineup && !lineupState.textContent) {
      lineupState.textContent = lineupText(team.lineup);
      showArmy(team.lineup);
    }
    const round = currentRound(view);
    fill(roundBox, round ? [h('h3', {}, t('events.round', { number: round.number })), pairingList(view, round, { own, id: 'team-pairings' })]
      : h('p', { class: 'hint' }, t('events.noRound')));
    fill(standings, standingsTable(view, { own, id: 'team-standings-table' }));
    if (team) renderGame(round);
  }

  // The team's game of the round: its seat is asked for once per round (GET …/game with the
  // team's token), then kept with the page's other seats so "My games" lists it too.
  function renderGame(round) {
    const own = team.team;
    if (view.status === 'registration' || !round) { fill(gameBox, h('p', { id: 'team-game-state' }, t('team.notStarted'))); return; }
    const pairing = round.pairings.find((p) => p.white === own || p.black === own);
    const over = view.status === 'finished' ? h('p', { class: 'hint' }, t('team.finished')) : null;
    if (!pairing) { fill(gameBox, h('p', { id: 'team-game-state' }, t('team.notPaired')), over); return; }
    if (!pairing.black) {
      fill(gameBox, h('p', { id: 'team-game-state', class: 'bye', 'data-bye': 'true' }, TEXT.bye(round.number)), over);
      return;
    }
    const color = pairing.white === own ? 'white' : 'black';
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
        ended ? t('team.seeGame') : t('team.playGame'));
    } else if (asked.error) {
      action = h('p', { class: 'notice' }, TEXT.gameFailed(asked.error));
    } else {
      action = h('p', { class: 'hint' }, t('team.finding'));
    }
    fill(gameBox, state,
      ended ? h('p', { id: 'team-game-result', 'data-outcome': pairing.result === 'draw' ? 'draw' : pairing.result === color ? 'won' : 'lost' }, TEXT.outcome(pairing, color))
        : h('p', { class: 'hint' }, t('team.ready')),
      h('div', { class: 'row' }, action), over);
  }

  return () => {
    gone = true;
    stream.close();
  };
}
