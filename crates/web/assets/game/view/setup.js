// Setup. Unless the player customises it, the page sets the seat up by itself at once (the
// player's preset, its king, ready: setup.js). The panel is built once and updated in place, so
// what is typed in the preset field and the focus survive every new view. Returns {el,
// render(), maybeAuto()}; `rerender()` draws the whole page.

import { h } from '../../dom.js';
import * as api from '../../api.js';
import { remember, remembered } from '../../seats.js';
import { other } from '../../result.js';
import { discovery } from '../../config.js';
import { setupChoice, saveSetupChoice, autoSetup, kingSquare, DEFAULT_PRESET } from '../../setup.js';
import { t, errorText } from '../../i18n.js';

export function setupPanel(c, board, rerender) {
  const { id, token } = c;
  let setupPlan = null; // {customise, preset} for this game, decided once
  let autoState = null; // null, 'running', 'done' or 'failed'
  let autoError = '';
  const el = h('div', { id: 'setup', hidden: true });
  const presetField = h('input', {
    id: 'preset-code', type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-label': t('game.setup.presetCode'),
  });
  const loadButton = h('button', { type: 'submit', id: 'load-preset' }, t('game.setup.load'));
  const readyButton = h('button', { type: 'button', id: 'ready', class: 'primary', onclick: declareReady }, t('game.setup.ready'));
  const presetStep = h('li', {}, h('form', { class: 'row', onsubmit: loadPreset },
    h('label', { for: 'preset-code' }, t('game.setup.preset')), presetField, loadButton));
  const kingStep = h('li', {});
  const readyStep = h('li', {}, readyButton);
  const steps = h('ol', { class: 'steps', id: 'setup-steps' }, presetStep, kingStep, readyStep);
  const autoNote = h('p', { id: 'setup-auto', role: 'status' });
  const manualNote = h('p', { class: 'hint', id: 'setup-manual' }, t('game.customiseNote'));
  const autoButton = h('button', { type: 'button', id: 'auto-setup', class: 'small', onclick: () => runAutoSetup(true) }, t('game.setUpForMe'));
  const customiseBox = h('input', {
    type: 'checkbox', id: 'setup-customise',
    onchange: (event) => saveSetupChoice({ customise: event.currentTarget.checked }),
  });
  const opponentNote = h('p', { class: 'hint', id: 'setup-opponent' });
  el.append(h('section', { class: 'panel setup' },
    h('h3', {}, t('game.setup.title')),
    autoNote, manualNote, steps,
    h('div', { class: 'row' }, autoButton),
    opponentNote,
    h('p', { class: 'hint' }, h('label', {}, customiseBox, ' ', t('game.customiseNext'))),
    h('p', { class: 'hint' }, t('game.setup.new'), h('a', { href: '#/rules' }, t('nav.rules')),
      t(discovery() ? 'game.setup.explainsDiscovery' : 'game.setup.explains'))));

  // This game's setup: decided the first time the page sees its seat in setup, from the
  // player's choice (kept with the seat, so a reload keeps it).
  function plan() {
    if (setupPlan) return setupPlan;
    const saved = remembered(id);
    const choice = setupChoice();
    if (saved.setup === 'auto' || saved.setup === 'custom') {
      setupPlan = { customise: saved.setup === 'custom', preset: saved.preset || choice.preset };
    } else {
      setupPlan = { customise: choice.customise, preset: saved.preset || choice.preset };
      remember(id, { setup: setupPlan.customise ? 'custom' : 'auto', preset: setupPlan.preset }, { touch: false });
    }
    presetField.value = saved.presetLoaded || setupPlan.preset;
    return setupPlan;
  }

  function maybeAuto() {
    const view = c.view;
    if (!token || !view || !view.you || view.status !== 'setup' || c.gone) return;
    const seat = view.seats[view.you];
    if (seat.ready || autoState || plan().customise) return;
    runAutoSetup(false);
  }

  async function runAutoSetup(asked) {
    if (autoState === 'running' || !c.view || c.view.status !== 'setup') return;
    const preset = asked ? presetField.value.trim() || plan().preset : plan().preset;
    autoState = 'running';
    autoError = '';
    if (c.view) render();
    try {
      await autoSetup(id, token, c.view, preset, (game) => {
        if (game.seats[game.you].preset && !remembered(id).presetLoaded) remember(id, { presetLoaded: preset }, { touch: false });
        if (!c.live) c.apply(game);
      });
      autoState = 'done';
      if (!remembered(id).presetLoaded) remember(id, { presetLoaded: preset }, { touch: false });
      presetField.value = remembered(id).presetLoaded;
      if (asked) board.focus();
    } catch (error) {
      autoState = 'failed';
      autoError = t('game.autoFailed', { preset, message: errorText(error) });
    }
    if (c.view && !c.gone) rerender();
  }

  async function loadPreset(event) {
    event.preventDefault();
    const preset = presetField.value.trim() || DEFAULT_PRESET;
    const answer = await c.act(() => api.gamePreset(id, token, preset), t('game.setup.loadedToast'));
    if (!answer) return;
    remember(id, { presetLoaded: preset }, { touch: false });
    saveSetupChoice({ preset });
    presetField.value = preset;
    // The next step is on the board: marking a king (the focus goes where the king would be).
    board.focus(answer && Array.isArray(answer.board) && answer.you ? kingSquare(answer, answer.you) : null);
  }

  async function declareReady() {
    const answer = await c.act(() => api.gameReady(id, token), t('game.setup.ready'));
    if (answer) board.focus();
  }

  function render() {
    const view = c.view;
    const shown = !!(view.you && token && view.status === 'setup');
    el.hidden = !shown;
    if (!shown) return;
    const seat = view.seats[view.you];
    const them = view.seats[other(view.you)];
    const mine = view.board.filter((p) => p.color === view.you && p.king).map((p) => p.square);
    const manual = plan().customise || autoState === 'failed';
    const loaded = remembered(id).presetLoaded;
    if (seat.preset && loaded && presetField.value !== loaded && document.activeElement !== presetField) presetField.value = loaded;
    presetField.disabled = seat.preset;
    loadButton.disabled = seat.preset;
    loadButton.textContent = t(seat.preset ? 'game.setup.loaded' : 'game.setup.load');
    presetStep.className = seat.preset ? 'done' : '';
    kingStep.className = mine.length > 0 ? 'done' : '';
    kingStep.textContent = seat.preset ? t('game.setup.marked', { count: mine.length }) : t('game.setup.markKing');
    readyStep.className = seat.ready ? 'done' : '';
    readyButton.disabled = seat.ready || !seat.preset || mine.length === 0;
    readyButton.textContent = t(seat.ready ? 'game.setup.readyDone' : 'game.setup.ready');
    steps.hidden = !manual;
    manualNote.hidden = !manual || autoState === 'failed';
    autoButton.hidden = !manual || seat.ready;
    // After a reload the seat may be set up already: say so as if it had just been done.
    const done = autoState === 'done' || (!autoState && !manual && seat.ready);
    autoNote.hidden = !autoState && !done;
    autoNote.className = autoState === 'failed' ? 'notice' : 'joined';
    autoNote.textContent = autoState === 'running' ? t('game.autoRunning', { preset: plan().preset })
      : autoState === 'failed' ? autoError
        : done ? t('game.autoDone', { preset: loaded || plan().preset, kings: mine.join(', ') }) : '';
    customiseBox.checked = setupChoice().customise;
    opponentNote.textContent = t('game.setup.opponent', {
      preset: t(them.preset ? 'game.setup.theirPreset' : 'game.badge.noPreset'),
      ready: t(them.ready ? 'game.badge.ready' : 'game.setup.notReady'),
    });
  }

  return { el, render, maybeAuto };
}
