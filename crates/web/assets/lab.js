// The lab: a sandbox board beside the DNA editor. Write DNA, place the piece for either side on
// any square, see where it moves, move anything any time, erase, toggle kings, promote, load a
// preset into a side and save a side's back rank as a preset, breed two genomes and place a
// child, ask what the genome to place is worth, and ask the engine for its best lines
// (engine.js). `#/lab?game=ID&ply=N` opens a new lab holding a finished game's position. The lab's id and token stay in this browser (localStorage), so a reload keeps the board.
// In discovery (config.js) the lab is how players find the language out: everything above but
// the explanations, breeding and the value panel, which are neither shown nor asked for.

import { h, fill, toast, copyButton } from './dom.js';
import * as api from './api.js';
import { Board, parseMoveText } from './board.js';
import { dnaEditor, spaced, canonical, dnaErrorText } from './dna.js';
import { promotionPicker } from './promote.js';
import { genomeSvg, describePiece, pieceLabel } from './pieces.js';
import { ndjson } from './stream.js';
import { discovery } from './config.js';
import { t, errorText, formatNumber, withElements } from './i18n.js';
import { fieldError, formErrors } from './fields.js';
import { enginePanel } from './engine.js';

const KEY = 'gmo.lab';
// The tools; each one's name is `lab.tool.{tool}`, what a click does with it `lab.toolHint.{tool}`.
const TOOLS = ['move', 'place', 'erase', 'king'];
// The palette's standard genomes (names the server resolves; shown by `pieceLabel`).
const PALETTE = ['queen', 'rook', 'bishop', 'knight', 'king', 'pawn'];
// A move as it is typed: two square names, the same in every language.
const MOVE_EXAMPLE = 'e2e4';

// A new lab (of a game's position when `fromGame` is {game, ply}), or the one this browser kept.
async function openLab(fresh, fromGame) {
  if (!fresh && !fromGame) {
    try {
      const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
      if (saved) return { ...saved, view: await api.lab(saved.id, saved.token) };
    } catch { /* gone or never made: make a new one */ }
  }
  const created = await api.createLab(fromGame || {});
  keepLab(created);
  return { id: created.id, token: created.token, view: created.lab };
}

// The lab this browser opens at #/lab from now on (its id and token; the record page's
// "Explore from here" keeps the lab it made the same way).
export function keepLab({ id, token }) {
  try { localStorage.setItem(KEY, JSON.stringify({ id, token })); } catch { /* private mode */ }
}

export function labPage(root, params) {
  let lab = null;
  let tool = 'move';
  let side = 'white';
  let genomeRef = 'queen'; // what Place puts down: a name or a code
  let selected = null;
  let targets = [];
  let last = [];
  let engineBest = null; // the engine's best move, marked on the board

  const secret = discovery();
  const board = new Board({ label: t('lab.board'), onSquare: clickSquare, onDrag: (from, to) => move(from, to) });
  const notice = h('p', { class: 'notice', id: 'lab-notice', role: 'alert' });
  const explanation = secret
    ? h('p', { class: 'hint', id: 'lab-try' }, t('lab.try'))
    : h('pre', { class: 'explanation', id: 'explanation', tabindex: 0, 'aria-label': t('lab.explanation') }, t('lab.typeDna'));
  const editor = dnaEditor({
    onValid(stored) {
      if (!secret) explanation.textContent = stored.explanation;
      currentChip.replaceChildren(genomeSvg(stored.code, side), h('span', {}, t('lab.yours')));
      currentChip.disabled = false;
      currentChip.dataset.genome = stored.code;
      currentChip.title = stored.code;
      // What was just written is what the designer wants to place next: whatever tool was
      // active, a click now places it (and the hint says so).
      const was = genomeRef;
      chooseGenome(stored.code, true);
      if (was !== stored.code) toolHint.textContent = t('lab.pieceReady', { code: stored.code });
    },
    onInvalid() {
      if (!secret) explanation.textContent = t('lab.fixDna');
      currentChip.disabled = true;
    },
  });
  const currentChip = h('button', {
    type: 'button', class: 'choice', id: 'palette-current', disabled: true, 'aria-label': t('lab.placeYours'),
    onclick: () => { if (editor.code()) chooseGenome(editor.code(), true); },
  }, h('span', {}, t('lab.yours')));
  const palette = h('div', { class: 'choices palette', role: 'group', 'aria-label': t('lab.palette') },
    currentChip,
    ...PALETTE.map((name) => h('button', {
      type: 'button', class: 'choice', id: `palette-${name}`, 'data-genome': name, 'aria-label': t(`lab.placeMany.${name}`),
      onclick: () => chooseGenome(name, true),
    }, genomeSvg(name, side), h('span', {}, pieceLabel(name)))));
  const pawnBox = h('input', { type: 'checkbox', id: 'place-pawn' });
  const kingBox = h('input', { type: 'checkbox', id: 'place-king' });
  const toolHint = h('p', { class: 'hint', id: 'tool-hint' });
  const toolButtons = TOOLS.map((name) => h('button', {
    type: 'button', class: 'tool', id: `tool-${name}`, 'aria-pressed': 'false', onclick: () => chooseTool(name),
  }, t(`lab.tool.${name}`)));
  const sideButtons = ['white', 'black'].map((color) => h('button', {
    type: 'button', class: 'tool', id: `side-${color}`, 'aria-pressed': 'false', onclick: () => chooseSide(color),
  }, color === 'white' ? t('color.White') : t('color.Black')));
  const moveField = h('input', {
    id: 'lab-move-text', type: 'text', placeholder: MOVE_EXAMPLE, autocomplete: 'off', spellcheck: 'false', 'aria-label': t('lab.moveLabel', { move: MOVE_EXAMPLE }),
  });
  const info = h('div', { id: 'piece-info', class: 'piece-info', 'aria-live': 'polite' });
  const engine = enginePanel({
    analyse: (lines) => api.labAnalysis(lab.id, lab.token, lines),
    onBest: (best) => { engineBest = best; draw(); },
  });
  const promotion = h('div', { id: 'lab-promotion' });
  const presetField = h('input', {
    id: 'lab-preset-code', type: 'text', value: 'default', autocomplete: 'off', spellcheck: 'false', 'aria-label': t('lab.presetCode'),
    'aria-describedby': 'lab-preset-error',
  });
  // A preset refused is said under its field: no such code or name, not a name at all, too wide.
  const presetError = fieldError('lab-preset-error');
  const presetSide = h('select', { id: 'lab-preset-side', 'aria-label': t('lab.side') },
    h('option', { value: 'white' }, t('color.White')), h('option', { value: 'black' }, t('color.Black')));
  const savedPreset = h('div', { id: 'saved-preset' });
  // Breeding: two parents (code, name or DNA), a seed (empty: drawn by the server), the children
  // with their pictures. The first parent follows the piece selected or chosen for placing until
  // it is typed in.
  let breedTyped = false;
  const breedA = h('input', {
    id: 'breed-a', type: 'text', value: 'knight', autocomplete: 'off', spellcheck: 'false',
    'aria-label': t('lab.breed.firstLabel'), oninput: () => { breedTyped = true; },
  });
  const breedB = h('input', {
    id: 'breed-b', type: 'text', value: 'queen', autocomplete: 'off', spellcheck: 'false',
    'aria-label': t('lab.breed.secondLabel'),
  });
  const breedSeed = h('input', {
    id: 'breed-seed', type: 'text', placeholder: t('lab.breed.seedPlaceholder'), inputmode: 'numeric', autocomplete: 'off',
    'aria-label': t('lab.breed.seedLabel'),
  });
  const breedNote = h('p', { class: 'hint', id: 'breed-note', 'aria-live': 'polite' });
  // A refusal beside the parent or seed it is about: a parent that is no genome (its DNA's error,
  // or no such code or name), a seed that is no whole number.
  const breedSlots = { a: fieldError('breed-a-error'), b: fieldError('breed-b-error'), seed: fieldError('breed-seed-error') };
  for (const [key, input] of [['a', breedA], ['b', breedB], ['seed', breedSeed]]) input.setAttribute('aria-describedby', `breed-${key}-error`);
  const parentWords = (input) => (error) => (error.code === 'not_found' ? t('field.noSuchGenome', { ref: input.value.trim() })
    : error.code === 'invalid_field' ? null : dnaErrorText(error));
  const breedErrors = formErrors({
    a: { input: breedA, slot: breedSlots.a, text: 'field.parent', words: parentWords(breedA) },
    b: { input: breedB, slot: breedSlots.b, text: 'field.parent', words: parentWords(breedB) },
    seed: { input: breedSeed, slot: breedSlots.seed, text: 'field.seed' },
  }, breedNote, dnaErrorText);
  const presetErrors = formErrors({
    preset: {
      input: presetField, slot: presetError, text: 'field.preset', codes: ['not_found', 'preset_length'],
      words: (error) => (error.code === 'not_found' ? t('field.noSuchPreset', { ref: presetField.value.trim() || 'default' })
        : error.code === 'preset_length' ? errorText(error) : null),
    },
  }, notice);
  const breedOut = h('div', { class: 'bred', id: 'breed-children' });
  // Value: what the genome to place is worth (docs/workbench.md, "Piece value"), evaluated once by
  // the server and kept with the genome; an evaluation under way is followed on its stream.
  const valueName = h('code', { id: 'value-genome' });
  const valueResult = h('p', { id: 'value-result', 'aria-live': 'polite' });
  const valueBar = h('progress', { id: 'value-progress', max: '1', value: '0', hidden: true });
  const valueGo = h('button', { type: 'button', id: 'value-go', onclick: evaluate }, t('lab.value.evaluate'));
  let valueRef = null; // the genome the panel shows
  let valueStream = null; // the AbortController of the stream followed
  // Wiping the board asks first: the first click arms the button, the second wipes.
  let armed = 0;
  const newLab = h('button', { type: 'button', id: 'new-lab', class: 'danger' }, t('lab.new'));
  newLab.addEventListener('click', () => {
    if (!armed) {
      newLab.textContent = t('lab.newConfirm');
      armed = setTimeout(() => { armed = 0; newLab.textContent = t('lab.new'); }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = 0;
    newLab.textContent = t('lab.new');
    start(true);
  });
  const escape = (event) => { if (event.key === 'Escape' && selected) { event.preventDefault(); deselect(); } };
  document.addEventListener('keydown', escape);

  // On a phone the board comes right after the DNA box; what the DNA does, the tools and
  // breeding follow it (wider screens place them in columns: style.css, .lab-page).
  root.replaceChildren(h('div', { class: 'lab-page' },
    h('section', { class: 'panel editor-col', 'aria-label': t('lab.editor') },
      h('h1', { class: 'page-title' }, t('lab.title')),
      h('h2', {}, t('lab.dna')), editor.el),
    h('div', { class: 'board-col' },
      h('div', { class: 'row toolbar', role: 'toolbar', 'aria-label': t('lab.toolbar') }, toolButtons),
      board.el,
      h('form', { class: 'row move-form', onsubmit: typedMove }, h('label', { for: 'lab-move-text' }, t('lab.move')), moveField,
        h('button', { type: 'submit' }, t('lab.play'))),
      notice),
    h('section', { class: 'panel explain-col', id: 'lab-explain' },
      h('h3', {}, secret ? t('lab.whatItDoesSecret') : t('lab.whatItDoes')), explanation),
    h('aside', { class: 'side-col' },
      h('section', { class: 'panel' },
        h('h3', {}, t('lab.place')),
        h('div', { class: 'row', role: 'group', 'aria-label': t('lab.side') }, sideButtons),
        palette,
        h('div', { class: 'row' }, h('label', {}, pawnBox, t('lab.pawnFlag')), h('label', {}, kingBox, t('lab.kingFlag'))),
        toolHint),
      promotion,
      h('section', { class: 'panel' }, h('h3', {}, t('lab.selected')), info),
      engine.el,
      secret ? null : h('section', { class: 'panel value', id: 'value', 'aria-labelledby': 'value-title' },
        h('h3', { id: 'value-title' }, t('lab.value.title')),
        h('p', { class: 'hint' }, withElements(t('lab.value.hint'), { genome: valueName })),
        valueResult, valueBar, valueGo),

      h('section', { class: 'panel' },
        h('h3', {}, t('lab.presets')),
        h('form', { class: 'row', onsubmit: loadPreset }, presetSide, presetField,
          h('button', { type: 'submit', id: 'lab-load-preset' }, t('lab.load'))),
        presetError,
        h('div', { class: 'row' },
          h('button', { type: 'button', id: 'save-white', onclick: () => savePreset('white') }, t('lab.saveWhite')),
          h('button', { type: 'button', id: 'save-black', onclick: () => savePreset('black') }, t('lab.saveBlack'))),
        savedPreset),
      h('section', { class: 'panel' },
        newLab)),
    secret ? null : h('section', { class: 'panel breed breed-col', id: 'breed', 'aria-labelledby': 'breed-title' },
      h('h2', { id: 'breed-title' }, t('lab.breed.title')),
      h('p', { class: 'hint' }, t('lab.breed.hint')),
      h('form', { class: 'breed-form', onsubmit: breed },
        h('label', {}, t('lab.breed.first'), breedA), breedSlots.a,
        h('label', {}, t('lab.breed.second'), breedB), breedSlots.b,
        h('label', {}, t('lab.breed.seed'), breedSeed), breedSlots.seed,
        h('button', { type: 'submit', id: 'breed-go' }, t('lab.breed.go'))),
      breedNote, breedOut)));

  function show(message) { notice.textContent = message || ''; }

  function deselect() {
    selected = null; targets = []; draw();
    info.replaceChildren(h('p', { class: 'hint' }, t('lab.nothingSelected')));
  }

  function chooseTool(name) {
    tool = name;
    toolButtons.forEach((button) => button.setAttribute('aria-pressed', String(button.id === `tool-${name}`)));
    toolHint.textContent = t(`lab.toolHint.${name}`);
    if (name !== 'move') { selected = null; targets = []; draw(); }
  }

  function chooseSide(color) {
    side = color;
    sideButtons.forEach((button) => button.setAttribute('aria-pressed', String(button.id === `side-${color}`)));
    for (const chip of palette.querySelectorAll('[data-genome]')) {
      chip.querySelector('svg')?.replaceWith(genomeSvg(chip.dataset.genome, side));
    }
  }

  function chooseGenome(ref, switchTool) {
    genomeRef = ref;
    lookValue(ref);
    if (switchTool) followParent(ref);
    for (const chip of palette.querySelectorAll('.choice')) {
      chip.classList.toggle('chosen', chip.dataset.genome === ref);
      chip.setAttribute('aria-pressed', String(chip.dataset.genome === ref));
    }
    // The palette's pawn is a pawn: it gets the pawn flag (and can promote); the others do not.
    if (switchTool) { pawnBox.checked = ref === 'pawn'; chooseTool('place'); }
  }

  function apply(view) {
    lab.view = view;
    // The engine's lines were for the position before.
    engine.clear();
    draw();
    renderPromotion();
  }

  function draw() {
    if (!lab) return;
    const view = lab.view;
    board.draw({ width: view.width, height: view.height, pieces: view.board, flipped: false, selected, targets, last, due: view.promotion_due });
    // The board sets each square's classes afresh on every draw: the engine's marks go on after.
    if (engineBest) {
      board.cell(engineBest.from)?.classList.add('engine-from');
      board.cell(engineBest.to)?.classList.add('engine-to');
    }
  }

  // A call that changes the lab → its answer (the lab drawn again), or null when refused
  // (`refused` says so: under the board, unless a form says it beside its field).
  async function run(call, refused = (error) => show(errorText(error))) {
    show('');
    try {
      const answer = await call();
      const view = answer && (answer.lab || (answer.board ? answer : null));
      if (view) apply(view);
      return answer;
    } catch (error) {
      refused(error);
      return null;
    }
  }

  async function select(square) {
    selected = square;
    targets = [];
    draw();
    describe(square);
    const moves = await run(() => api.labMoves(lab.id, lab.token, square));
    if (moves && selected === square) { targets = moves; draw(); }
  }

  // Shows the selected piece's code and explanation (none in discovery), with a button to edit a
  // copy of its DNA.
  async function describe(square) {
    const piece = lab.view.board.find((p) => p.square === square);
    if (!piece) { info.replaceChildren(h('p', { class: 'hint' }, t('lab.nothingSelected'))); return; }
    if (piece.code) followParent(piece.code);
    const text = secret ? null : h('pre', { class: 'explanation small' }, '…');
    fill(info, h('p', {}, describePiece(piece)),
      h('div', { class: 'row' }, withElements(t('lab.code'), { code: h('code', {}, piece.code) }), copyButton(() => piece.code, t('lab.copy'))),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'small', id: 'edit-dna', onclick: () => editor.set(spaced(piece.dna)) }, t('lab.editDna'))),
      text);
    if (secret) return;
    try { text.textContent = (await api.genome(piece.code)).explanation; } catch { text.textContent = ''; }
  }

  function clickSquare(square, { drag }) {
    if (!lab) return;
    const piece = lab.view.board.find((p) => p.square === square);
    if (drag) { select(square); return; }
    if (tool === 'place') {
      const placement = { genome: genomeRef, color: side, pawn: pawnBox.checked, king: kingBox.checked };
      run(() => api.labPlace(lab.id, lab.token, square, placement));
    } else if (tool === 'erase') {
      if (piece) run(() => api.labErase(lab.id, lab.token, square));
    } else if (tool === 'king') {
      if (piece) run(() => api.labKing(lab.id, lab.token, square));
    } else if (selected && square !== selected && targets.some((m) => m.to === square)) {
      move(selected, square);
    } else if (square === selected) {
      deselect();
    } else if (piece) {
      select(square);
    } else {
      deselect();
    }
  }

  async function move(from, to) {
    const answer = await run(() => api.labMove(lab.id, lab.token, from, to));
    if (!answer) return false;
    last = [from, answer.ply?.landed || to];
    selected = null;
    targets = [];
    draw();
    return true;
  }

  function typedMove(event) {
    event.preventDefault();
    const parsed = parseMoveText(moveField.value);
    if (!parsed) { show(t('lab.moveHelp', { move: MOVE_EXAMPLE })); return; }
    move(parsed[0], parsed[1]).then((ok) => { if (ok) moveField.value = ''; });
  }

  function renderPromotion() {
    const due = lab.view.promotion_due;
    if (!due) { promotion.replaceChildren(); delete promotion.dataset.square; return; }
    if (promotion.dataset.square === due) return;
    promotion.dataset.square = due;
    const pawn = lab.view.board.find((p) => p.square === due);
    const extra = editor.code() ? [editor.code()] : [];
    fill(promotion, promotionPicker({
      square: due, color: pawn ? pawn.color : 'white', extra,
      onPick: (ref) => run(() => api.labPromote(lab.id, lab.token, ref)),
    }));
  }

  function loadPreset(event) {
    event.preventDefault();
    presetErrors.clear();
    run(() => api.labPreset(lab.id, lab.token, presetSide.value, presetField.value.trim() || 'default'), presetErrors.show);
  }

  async function savePreset(color) {
    const saved = await run(() => api.labSavePreset(lab.id, lab.token, color));
    if (!saved) return;
    fill(savedPreset, h('p', {},
      withElements(color === 'white' ? t('lab.savedWhite') : t('lab.savedBlack'), { code: h('code', { id: 'saved-preset-code' }, saved.code) }),
      ' ', copyButton(() => saved.code, t('lab.copy')), ' ',
      h('a', { href: `#/code/${saved.code}` }, t('lab.view'))));
  }

  function followParent(ref) {
    if (!breedTyped) breedA.value = ref;
  }

  // A parent as typed: DNA (only S, A, C, H and spaces, longer than a code) is stored first for
  // its code; anything else is a code or a name.
  async function parentRef(text) {
    const trimmed = text.trim();
    if (/^[SACHsach\s]+$/.test(trimmed) && canonical(trimmed).length > 6) {
      return (await api.storeGenome(trimmed)).code;
    }
    return trimmed;
  }

  async function breed(event) {
    event.preventDefault();
    if (secret) return;
    breedErrors.clear();
    breedNote.textContent = t('lab.breed.breeding');
    // The parent being read: a DNA parent refused while stored is that parent's refusal.
    let reading = 'a';
    let request = null;
    try {
      const a = await parentRef(breedA.value);
      reading = 'b';
      request = { a, b: await parentRef(breedB.value) };
      reading = null;
      // A whole number goes as a number; anything else as typed, for the server to refuse.
      const seed = breedSeed.value.trim();
      if (seed !== '') request.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
      const bred = await api.breed(request);
      const parents = { a: bred.a, b: bred.b };
      breedNote.textContent = bred.children.length
        ? t('lab.breed.children', { count: bred.children.length, ...parents, seed: bred.seed })
        : t('lab.breed.none', parents);
      fill(breedOut, bred.children.map((child, i) => h('figure', { class: 'child', 'data-code': child.code },
        h('img', { class: 'diagram', src: child.diagram, alt: t('lab.breed.childDiagram', { code: child.code }) }),
        h('figcaption', {},
          h('a', { href: `#/code/${child.code}` }, h('code', {}, child.code)), ' ',
          h('button', {
            type: 'button', class: 'small', id: `breed-use-${i + 1}`, 'aria-label': t('lab.breed.placeChild', { code: child.code }),
            onclick: () => useChild(child),
          }, t('lab.breed.use'))),
        h('details', {}, h('summary', {}, t('lab.whatItDoes')), h('pre', { class: 'explanation small' }, child.explanation)))));
    } catch (error) {
      // A code or name no genome has: the parent the server names (`no genome "…"`).
      const missing = error.code === 'not_found' && request
        ? (String(error.message).includes(JSON.stringify(request.a)) ? 'a' : 'b') : null;
      breedErrors.show(error, reading ?? missing);
      breedOut.replaceChildren();
    }
  }

  // "≈ 3.1 pawns ± 0.4 (200 games)", or where the evaluation stands. The pawns are always shown
  // with one decimal, so their word is the one for fractions (English "pawns", Slovak "pešiaka"):
  // a text, not a plural message.
  function valueText(value) {
    if (value.state === 'failed') return t('lab.value.failed', { reason: value.error || t('lab.value.noReason') });
    const e = value.estimate;
    const tenths = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
    const estimate = e
      ? t('lab.value.estimate', { count: value.played, pawns: formatNumber(e.pawns, tenths), margin: formatNumber(e.margin, tenths) })
      : '';
    if (value.state === 'done') return estimate;
    if (value.state === 'queued') return t('lab.value.queued');
    const progress = { count: value.games, played: value.played };
    return e ? t('lab.value.runningSoFar', { ...progress, estimate }) : t('lab.value.running', progress);
  }

  function showValue(value) {
    valueResult.textContent = valueText(value);
    const going = value.state === 'queued' || value.state === 'running';
    valueBar.hidden = !going;
    valueBar.max = value.games;
    valueBar.value = value.played;
    valueGo.disabled = true;
    return going;
  }

  function stopValueStream() {
    if (valueStream) valueStream.abort();
    valueStream = null;
  }

  // The panel follows the genome to place: its value if known, else the button.
  async function lookValue(ref) {
    if (secret || ref === valueRef) return;
    valueRef = ref;
    stopValueStream();
    valueName.textContent = PALETTE.includes(ref) ? pieceLabel(ref) : ref;
    valueBar.hidden = true;
    valueGo.disabled = false;
    valueResult.textContent = '';
    try {
      const value = await api.genomeValue(ref);
      if (valueRef === ref && showValue(value)) followValue(ref);
    } catch (error) {
      if (valueRef !== ref) return;
      valueResult.textContent = error.status === 404 ? t('lab.value.notYet') : errorText(error);
    }
  }

  async function evaluate() {
    if (secret) return;
    const ref = valueRef;
    valueGo.disabled = true;
    valueResult.textContent = t('lab.value.starting');
    try {
      const value = await api.evaluateGenome(ref);
      if (valueRef === ref && showValue(value)) followValue(ref);
    } catch (error) {
      if (valueRef !== ref) return;
      valueResult.textContent = errorText(error);
      valueGo.disabled = false;
    }
  }

  async function followValue(ref) {
    stopValueStream();
    const controller = new AbortController();
    valueStream = controller;
    try {
      const response = await fetch(api.valueStreamPath(ref), {
        headers: { Accept: 'application/x-ndjson' }, signal: controller.signal, cache: 'no-store',
      });
      if (!response.ok || !response.body) throw new Error(t('lab.value.cannotFollow', { status: response.status }));
      for await (const line of ndjson(response.body)) {
        if (valueRef !== ref) return;
        showValue(line.value);
      }
    } catch (error) {
      if (error.name !== 'AbortError' && valueRef === ref) valueResult.textContent = errorText(error);
    }
  }

  // A child becomes the genome to place, as DNA written in the editor does: the next click on a
  // square places it (and the editor shows its DNA, ready for changes).
  function useChild(child) {
    chooseGenome(child.code, true);
    editor.set(spaced(child.dna));
    toolHint.textContent = t('lab.childReady', { code: child.code });
  }

  async function start(fresh, fromGame = null) {
    show('');
    try {
      lab = await openLab(fresh, fromGame);
      selected = null; targets = []; last = [];
      apply(lab.view);
      if (fromGame) toast(t('lab.fromGame', { ply: fromGame.ply }));
      else if (fresh) toast(t('lab.newToast'));
    } catch (error) {
      show(t('lab.notOpened', { message: errorText(error) }));
    }
  }

  chooseTool('move');
  chooseSide('white');
  chooseGenome('queen', false);
  info.replaceChildren(h('p', { class: 'hint' }, t('lab.nothingSelected')));
  const ply = Number(params.get('ply'));
  const fromGame = params.get('game') && Number.isInteger(ply) ? { game: params.get('game'), ply } : null;
  start(params.get('new') === '1', fromGame);
  // Once made, a reload should keep this lab, not make yet another one.
  if (params.get('new') === '1' || fromGame) history.replaceState(null, '', '#/lab');
  if (params.get('dna')) editor.set(params.get('dna'));
  else if (params.get('genome')) {
    api.genome(params.get('genome')).then((g) => editor.set(spaced(g.dna))).catch((error) => show(errorText(error)));
  }
  return () => { document.removeEventListener('keydown', escape); clearTimeout(armed); stopValueStream(); };
}

