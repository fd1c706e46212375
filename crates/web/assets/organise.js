// The organiser's pages. #/events (and #/events/new): create an event — a name, round robin
// (single or double) or Swiss (over a number of rounds), the clock — and the events this browser
// organises. #/events/{id}: the event, followed live; for its organiser the teams with their join
// codes (the server shows a code once: this page keeps it, in this browser, to hand out), "Start",
// "Pair the next round" once every game of the round has ended, and for everyone the rounds, the
// standings and their CSV.

import { h, fill, toast, copyButton } from './dom.js';
import * as api from './api.js';
import { signedIn } from './account.js';
import { sameName } from './players.js';
import {
  organisedEvents, organisedEvent, noteOrganised, followEventPage, joinLink, eventHref, teamHref, screenHref,
  gameHref, statusText, formatText, summary, currentRound, roundOver, pairingList, standingsTable,
} from './events.js';
import { t, errorText, withElements } from './i18n.js';
import { fieldError, formErrors } from './fields.js';

// The messages of these pages (read when shown: the catalogue loads after this module).
const TEXT = {
  created: (name) => t('organise.created', { name }),
  failed: (error) => t('organise.failed', { message: errorText(error) }),
  loadFailed: (message) => t('events.loadFailed', { message }),
  addFailed: (error) => t('organise.addFailed', { message: errorText(error) }),
  added: (name) => t('organise.added', { name }),
  paired: (n) => t('organise.paired', { number: n }),
};

export function organiserPage(root, id) {
  return id ? eventPage(root, id) : newEventPage(root);
}

// #/events: the form to create one, and this browser's events.
function newEventPage(root) {
  const account = signedIn();
  const list = organisedEvents();
  const yours = h('section', { class: 'panel', id: 'my-events' },
    h('h2', {}, t('organise.yours')),
    list.length ? h('ul', { class: 'event-list' }, list.map((one) => h('li', {},
      h('a', { href: eventHref(one.id) }, one.name || one.id))))
      : h('p', { class: 'hint' }, t('organise.noneYet')));
  if (!account) {
    root.replaceChildren(h('div', { class: 'events-page' },
      h('section', { class: 'panel' }, h('h1', {}, t('organise.title')), h('p', {}, t('organise.intro')),
        h('p', { id: 'events-sign-in' }, t('organise.signIn'), ' ',
          h('a', { href: `#/signin?then=${encodeURIComponent('#/events/new')}`, class: 'button primary' }, t('account.signIn')))),
      yours));
    return () => {};
  }
  const notice = h('p', { class: 'notice', role: 'alert', id: 'event-form-error' });
  const name = h('input', { id: 'event-name', type: 'text', maxlength: 80, required: true, autocomplete: 'off', placeholder: t('organise.namePlaceholder'), 'aria-describedby': 'event-name-error' });
  const format = h('select', { id: 'event-format' },
    h('option', { value: 'round_robin' }, formatText('round_robin')), h('option', { value: 'swiss' }, formatText('swiss')));
  const rounds = h('input', { id: 'event-rounds', type: 'number', min: 1, max: 20, value: 5 });
  const double = h('input', { id: 'event-double', type: 'checkbox' });
  const minutes = h('input', { id: 'event-minutes', type: 'number', min: 1, max: 180, value: 10 });
  const increment = h('input', { id: 'event-increment', type: 'number', min: 0, max: 60, value: 5 });
  const discovery = h('input', { id: 'event-discovery', type: 'checkbox' });
  const roundsRow = h('div', { class: 'row', id: 'event-rounds-row' },
    h('label', { for: 'event-rounds' }, t('organise.rounds')), rounds,
    h('span', { class: 'hint' }, t('organise.swissHint')));
  const doubleRow = h('div', { class: 'row', id: 'event-double-row' },
    h('label', { class: 'check' }, double, ' ', t('organise.double')));
  const showFormat = () => {
    roundsRow.hidden = format.value !== 'swiss';
    doubleRow.hidden = format.value !== 'round_robin';
  };
  format.addEventListener('change', showFormat);
  showFormat();
  const submit = h('button', { type: 'submit', class: 'primary', id: 'create-event' }, t('organise.create'));
  // A refusal beside its field: the name, the rounds, the clock's minutes or increment.
  const slots = Object.fromEntries(['name', 'rounds', 'minutes', 'increment'].map((key) => [key, fieldError(`event-${key}-error`)]));
  for (const [key, input] of [['rounds', rounds], ['minutes', minutes], ['increment', increment]]) input.setAttribute('aria-describedby', `event-${key}-error`);
  const errors = formErrors({
    name: { input: name, slot: slots.name, text: 'field.eventName' },
    rounds: { input: rounds, slot: slots.rounds, text: 'field.rounds' },
    double: { input: double, slot: slots.rounds },
    'clock.initial_ms': { input: minutes, slot: slots.minutes, text: 'field.minutes' },
    'clock.increment_ms': { input: increment, slot: slots.increment, text: 'field.increment' },
    clock: { input: minutes, slot: slots.minutes, text: 'field.minutes' },
  }, notice, TEXT.failed);

  async function create(event) {
    event.preventDefault();
    errors.clear();
    const request = {
      name: name.value.trim(),
      format: format.value,
      clock: { initial_ms: Math.round(Number(minutes.value) * 60000), increment_ms: Math.round(Number(increment.value) * 1000) },
    };
    if (format.value === 'swiss') request.rounds = Number(rounds.value);
    else request.double = double.checked;
    if (discovery.checked) request.discovery = true;
    submit.disabled = true;
    try {
      const created = await api.createEvent(request);
      noteOrganised(created.id, { name: request.name });
      toast(TEXT.created(request.name));
      location.hash = eventHref(created.id);
    } catch (error) {
      errors.show(error);
    } finally {
      submit.disabled = false;
    }
  }

  root.replaceChildren(h('div', { class: 'events-page' },
    h('section', { class: 'panel', id: 'new-event' },
      h('h1', {}, t('organise.title')),
      h('p', { class: 'hint' }, t('organise.intro')),
      h('form', { onsubmit: create, id: 'event-form' },
        h('div', { class: 'row' }, h('label', { for: 'event-name' }, t('organise.name')), name),
        slots.name,
        h('div', { class: 'row' }, h('label', { for: 'event-format' }, t('organise.format')), format),
        roundsRow, doubleRow, slots.rounds,
        h('div', { class: 'row' },
          h('label', { for: 'event-minutes' }, t('organise.minutes')), minutes,
          h('label', { for: 'event-increment' }, t('organise.increment')), increment),
        slots.minutes, slots.increment,
        h('div', { class: 'row' }, h('label', { class: 'check' }, discovery,
          ' ', t('organise.discovery'))),
        notice,
        h('div', { class: 'row' }, submit))),
    yours));
  name.focus();
  return () => {};
}

// #/events/{id}: the event, live; the organiser's controls when this browser organises it.
function eventPage(root, id) {
  let view = null;
  let gone = false;
  const notice = h('p', { class: 'notice', role: 'alert', id: 'event-notice' });
  const title = h('h1', { id: 'event-title' }, t('events.event'));
  const about = h('p', { class: 'hint', id: 'event-summary' });
  const state = h('p', { class: 'event-status', id: 'event-status' });
  const links = h('p', { class: 'row event-links' },
    h('a', { href: teamHref(id), id: 'team-page-link' }, t('organise.teamPage')),
    h('a', { href: screenHref(id), id: 'screen-link' }, t('events.projector')),
    h('a', { href: api.standingsCsvPath(id), id: 'standings-csv', download: `event-${id}-standings.csv` }, t('organise.csv')));
  const connection = h('p', { class: 'connection', id: 'event-connection' });

  const teams = h('div', { id: 'event-teams' });
  const teamField = h('input', { id: 'team-name', type: 'text', maxlength: 60, autocomplete: 'off', placeholder: t('organise.teamPlaceholder'), 'aria-label': t('organise.teamName') });
  const addButton = h('button', { type: 'submit', id: 'add-team' }, t('organise.addTeam'));
  teamField.setAttribute('aria-describedby', 'team-name-error');
  const teamError = fieldError('team-name-error');
  const addForm = h('form', { id: 'add-team-form', onsubmit: addTeam }, h('div', { class: 'row' }, teamField, addButton), teamError);
  const addErrors = formErrors({ name: { input: teamField, slot: teamError, text: 'field.teamName' } }, notice, TEXT.addFailed);
  const codesNote = h('p', { class: 'hint', id: 'codes-note' }, t('organise.codesNote'));

  const startButton = h('button', { type: 'button', class: 'primary', id: 'start-event', onclick: start }, t('organise.start'));
  const pairButton = h('button', { type: 'button', class: 'primary', id: 'pair-round', onclick: pair }, t('organise.pair'));
  const controlsNote = h('p', { class: 'hint', id: 'controls-note' });
  const controls = h('div', { class: 'row', id: 'event-controls' }, startButton, pairButton);

  const roundBox = h('div', { id: 'event-round' });
  const earlier = h('div', { id: 'event-earlier' });
  const standings = h('div', { id: 'event-standings' });

  root.replaceChildren(h('div', { class: 'event-page' },
    h('section', { class: 'panel event-head' }, title, about, state, links, notice),
    h('div', { class: 'event-cols' },
      h('div', {},
        h('section', { class: 'panel', id: 'teams-panel' }, h('h2', {}, t('organise.teams')), codesNote, teams, addForm),
        h('section', { class: 'panel', id: 'rounds-panel' }, h('h2', {}, t('organise.rounds')), controls, controlsNote, roundBox, earlier)),
      h('section', { class: 'panel', id: 'standings-panel' }, h('h2', {}, t('events.standings')), standings,
        h('p', { class: 'hint' }, t('organise.sbNote')))),
    connection));

  const stream = followEventPage(id, {
    gone: () => gone,
    connection,
    onView(next) {
      view = next;
      render();
    },
    onFailed(message) {
      if (!view) notice.textContent = TEXT.loadFailed(message);
    },
  });

  function organiser() {
    if (organisedEvent(id)) return true;
    const account = signedIn();
    const named = view && (typeof view.organiser === 'string' ? view.organiser : view.organiser && view.organiser.username);
    return !!(account && named && sameName(named, account.username));
  }

  function render() {
    const mine = organiser();
    if (mine && view.name && organisedEvent(id)?.name !== view.name) noteOrganised(id, { name: view.name });
    title.textContent = view.name;
    document.title = t('title.named', { name: view.name });
    about.textContent = summary(view);
    const round = currentRound(view);
    const status = statusText(view.status);
    state.textContent = !round ? status
      : view.rounds_planned ? t('organise.stateRoundOf', { status, number: round.number, planned: view.rounds_planned })
        : t('organise.stateRound', { status, number: round.number });
    state.dataset.status = view.status;
    renderTeams(mine);
    // The organiser's controls.
    const open = view.status === 'registration';
    addForm.hidden = !mine || !open;
    codesNote.hidden = !mine;
    controls.hidden = !mine || view.status === 'finished';
    startButton.hidden = !open;
    startButton.disabled = (view.teams || []).length < 2;
    pairButton.hidden = view.status !== 'running';
    const over = roundOver(round);
    const last = !!(view.rounds_planned && round && round.number >= view.rounds_planned);
    pairButton.disabled = !over || last;
    controlsNote.textContent = !mine ? t('organise.notOrganiser')
      : open ? ((view.teams || []).length < 2 ? t('organise.needTeams') : t('organise.startHint'))
        : view.status === 'running' ? (last && over ? t('organise.lastRound') : over ? '' : t('organise.roundOn')) : '';
    // The rounds: the current one, then the earlier ones.
    const rounds = [...(view.rounds || [])].sort((a, b) => b.number - a.number);
    if (round) {
      fill(roundBox, h('h3', {}, t('events.round', { number: round.number })),
        pairingList(view, round, { id: 'current-pairings', href: (p) => gameHref(p.game) }));
    } else {
      fill(roundBox, h('p', { class: 'hint' }, t('events.noRound')));
    }
    fill(earlier, rounds.slice(1).map((r) => h('details', { class: 'earlier-round' },
      h('summary', {}, t('events.round', { number: r.number })), pairingList(view, r, { href: (p) => gameHref(p.game) }))));
    fill(standings, standingsTable(view));
  }

  function renderTeams(mine) {
    const codes = (organisedEvent(id) || {}).codes || {};
    const list = view.teams || [];
    if (list.length === 0) { fill(teams, h('p', { class: 'hint' }, t('events.noTeams'))); return; }
    fill(teams, h('ul', { class: 'team-list', id: 'team-list' }, list.map((team) => {
      const code = codes[team.id];
      return h('li', { class: 'team-row', 'data-team': team.id },
        h('span', { class: 'team-name' }, team.name),
        mine ? (code ? h('span', { class: 'team-code-box' },
          ' ', ...withElements(t('organise.code'), { code: h('code', { class: 'team-code' }, code) }), ' ',
          copyButton(() => code, t('organise.copyCode')), ' ',
          copyButton(() => joinLink(id, code), t('organise.copyLink')))
          : h('span', { class: 'hint' }, t('organise.noCode'))) : null);
    })));
  }

  async function addTeam(event) {
    event.preventDefault();
    const name = teamField.value.trim();
    if (!name) return;
    addErrors.clear();
    addButton.disabled = true;
    try {
      const team = await api.addTeam(id, name);
      noteOrganised(id, { codes: { [team.id]: team.code } });
      teamField.value = '';
      toast(TEXT.added(team.name));
      // The team shows at once, with its code; the stream brings the rest.
      if (view && !(view.teams || []).some((one) => one.id === team.id)) {
        view = { ...view, teams: [...(view.teams || []), { id: team.id, name: team.name }] };
        render();
      }
      stream.refresh();
      teamField.focus();
    } catch (error) {
      addErrors.show(error);
    } finally {
      addButton.disabled = false;
    }
  }

  async function act(call, done) {
    notice.textContent = '';
    try {
      const answer = await call();
      if (answer && answer.id && !gone) { view = answer; render(); }
      toast(done(answer));
    } catch (error) {
      notice.textContent = errorText(error);
    }
    stream.refresh();
  }

  function start() {
    act(() => api.startEvent(id), () => t('organise.started'));
  }

  function pair() {
    act(() => api.pairNextRound(id), (answer) => TEXT.paired(answer && answer.rounds ? currentRound(answer).number : ''));
  }

  return () => {
    gone = true;
    stream.close();
  };
}
