// The lab: a sandbox board beside the DNA editor. Write DNA, place the piece for either side on
// any square, see where it moves, move anything any time, erase, toggle kings, promote, load a
// preset into a side and save a side's back rank as a preset, breed two genomes and place a
// child, and ask what the genome to place is worth. The lab's id and token stay in this browser (localStorage), so a reload keeps the board.
// In discovery (config.js) the lab is how players find the language out: everything above but
// the explanations, breeding and the value panel, which are neither shown nor asked for.

import { h, fill, toast, copyButton } from './dom.js';
import * as api from './api.js';
import { Board, parseMoveText } from './board.js';
import { dnaEditor, spaced, canonical } from './dna.js';
import { promotionPicker } from './promote.js';
import { genomeSvg, describePiece } from './pieces.js';
import { ndjson } from './stream.js';
import { discovery } from './config.js';

const KEY = 'gmo.lab';
const TOOLS = [
  ['move', 'Move', 'Click a piece to see its moves, then a highlighted square to move it. Dragging moves too.'],
  ['place', 'Place', 'Click any square to put the chosen genome there.'],
  ['erase', 'Erase', 'Click a piece to remove it.'],
  ['king', 'King', 'Click a piece to toggle its king mark.'],
];

async function openLab(fresh) {
  if (!fresh) {
    try {
      const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
      if (saved) return { ...saved, view: await api.lab(saved.id, saved.token) };
    } catch { /* gone or never made: make a new one */ }
  }
  const created = await api.createLab({});
  try { localStorage.setItem(KEY, JSON.stringify({ id: created.id, token: created.token })); } catch { /* private mode */ }
  return { id: created.id, token: created.token, view: created.lab };
}

export function labPage(root, params) {
  let lab = null;
  let tool = 'move';
  let side = 'white';
  let genomeRef = 'queen'; // what Place puts down: a name or a code
  let selected = null;
  let targets = [];
  let last = [];

  const secret = discovery();
  const board = new Board({ label: 'Lab board', onSquare: clickSquare, onDrag: (from, to) => move(from, to) });
  const notice = h('p', { class: 'notice', id: 'lab-notice', role: 'alert' });
  const explanation = secret
    ? h('p', { class: 'hint', id: 'lab-try' }, 'Type DNA, place the piece on the board, then select it: the highlighted squares are where it can move. Change a letter and look again.')
    : h('pre', { class: 'explanation', id: 'explanation', tabindex: 0, 'aria-label': 'Explanation' }, 'Type DNA to see what it does.');
  const editor = dnaEditor({
    onValid(stored) {
      if (!secret) explanation.textContent = stored.explanation;
      currentChip.replaceChildren(genomeSvg(stored.code, side), h('span', {}, 'yours'));
      currentChip.disabled = false;
      currentChip.dataset.genome = stored.code;
      currentChip.title = stored.code;
      // What was just written is what the designer wants to place next: whatever tool was
      // active, a click now places it (and the hint says so).
      const was = genomeRef;
      chooseGenome(stored.code, true);
      if (was !== stored.code) toolHint.textContent = `Your piece ${stored.code} is ready: click a square to place it.`;
    },
    onInvalid() {
      if (!secret) explanation.textContent = 'Fix the DNA to see what it does.';
      currentChip.disabled = true;
    },
  });
  const currentChip = h('button', {
    type: 'button', class: 'choice', id: 'palette-current', disabled: true, 'aria-label': 'Place the genome from the editor',
    onclick: () => { if (editor.code()) chooseGenome(editor.code(), true); },
  }, h('span', {}, 'yours'));
  const palette = h('div', { class: 'choices palette', role: 'group', 'aria-label': 'Genome to place' },
    currentChip,
    ...['queen', 'rook', 'bishop', 'knight', 'king', 'pawn'].map((name) => h('button', {
      type: 'button', class: 'choice', id: `palette-${name}`, 'data-genome': name, 'aria-label': `Place ${name}s`,
      onclick: () => chooseGenome(name, true),
    }, genomeSvg(name, side), h('span', {}, name))));
  const pawnBox = h('input', { type: 'checkbox', id: 'place-pawn' });
  const kingBox = h('input', { type: 'checkbox', id: 'place-king' });
  const toolHint = h('p', { class: 'hint', id: 'tool-hint' });
  const toolButtons = TOOLS.map(([name, label]) => h('button', {
    type: 'button', class: 'tool', id: `tool-${name}`, 'aria-pressed': 'false', onclick: () => chooseTool(name),
  }, label));
  const sideButtons = ['white', 'black'].map((color) => h('button', {
    type: 'button', class: 'tool', id: `side-${color}`, 'aria-pressed': 'false', onclick: () => chooseSide(color),
  }, color === 'white' ? 'White' : 'Black'));
  const moveField = h('input', {
    id: 'lab-move-text', type: 'text', placeholder: 'e2e4', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Type a move, like e2e4',
  });
  const info = h('div', { id: 'piece-info', class: 'piece-info', 'aria-live': 'polite' });
  const promotion = h('div', { id: 'lab-promotion' });
  const presetField = h('input', { id: 'lab-preset-code', type: 'text', value: 'default', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Preset code' });
  const presetSide = h('select', { id: 'lab-preset-side', 'aria-label': 'Side' }, h('option', { value: 'white' }, 'White'), h('option', { value: 'black' }, 'Black'));
  const savedPreset = h('div', { id: 'saved-preset' });
  // Breeding: two parents (code, name or DNA), a seed (empty: drawn by the server), the children
  // with their pictures. The first parent follows the piece selected or chosen for placing until
  // it is typed in.
  let breedTyped = false;
  const breedA = h('input', {
    id: 'breed-a', type: 'text', value: 'knight', autocomplete: 'off', spellcheck: 'false',
    'aria-label': 'First parent: a code, a name or DNA', oninput: () => { breedTyped = true; },
  });
  const breedB = h('input', {
    id: 'breed-b', type: 'text', value: 'queen', autocomplete: 'off', spellcheck: 'false',
    'aria-label': 'Second parent: a code, a name or DNA',
  });
  const breedSeed = h('input', {
    id: 'breed-seed', type: 'text', placeholder: 'random', inputmode: 'numeric', autocomplete: 'off',
    'aria-label': 'Seed (empty: random)',
  });
  const breedNote = h('p', { class: 'hint', id: 'breed-note', 'aria-live': 'polite' });
  const breedOut = h('div', { class: 'bred', id: 'breed-children' });
  // Value: what the genome to place is worth (docs/workbench.md, "Piece value"), evaluated once by
  // the server and kept with the genome; an evaluation under way is followed on its stream.
  const valueName = h('code', { id: 'value-genome' });
  const valueResult = h('p', { id: 'value-result', 'aria-live': 'polite' });
  const valueBar = h('progress', { id: 'value-progress', max: '1', value: '0', hidden: true });
  const valueGo = h('button', { type: 'button', id: 'value-go', onclick: evaluate }, 'Evaluate');
  let valueRef = null; // the genome the panel shows
  let valueStream = null; // the AbortController of the stream followed
  // Wiping the board asks first: the first click arms the button, the second wipes.
  let armed = 0;
  const newLab = h('button', { type: 'button', id: 'new-lab', class: 'danger' }, 'New empty lab');
  newLab.addEventListener('click', () => {
    if (!armed) {
      newLab.textContent = 'Really wipe this board?';
      armed = setTimeout(() => { armed = 0; newLab.textContent = 'New empty lab'; }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = 0;
    newLab.textContent = 'New empty lab';
    start(true);
  });
  const escape = (event) => { if (event.key === 'Escape' && selected) { event.preventDefault(); deselect(); } };
  document.addEventListener('keydown', escape);

  root.replaceChildren(h('div', { class: 'lab-page' },
    h('section', { class: 'panel editor-col', 'aria-label': 'Genome editor' },
      h('h1', { class: 'page-title' }, 'The lab'),
      h('h2', {}, 'DNA'), editor.el, h('h3', {}, secret ? 'What it does: find out' : 'What it does'), explanation,
      secret ? null : h('section', { class: 'breed', id: 'breed', 'aria-labelledby': 'breed-title' },
        h('h2', { id: 'breed-title' }, 'Breed'),
        h('p', { class: 'hint' }, 'Children of two genomes: their blocks crossed, now and then a letter mutated.'),
        h('form', { class: 'breed-form', onsubmit: breed },
          h('label', {}, 'Parent 1', breedA),
          h('label', {}, 'Parent 2', breedB),
          h('label', {}, 'Seed', breedSeed),
          h('button', { type: 'submit', id: 'breed-go' }, 'Breed')),
        breedNote, breedOut)),
    h('div', { class: 'board-col' },
      h('div', { class: 'row toolbar', role: 'toolbar', 'aria-label': 'Click does' }, toolButtons),
      board.el,
      h('form', { class: 'row move-form', onsubmit: typedMove }, h('label', { for: 'lab-move-text' }, 'Move'), moveField, h('button', { type: 'submit' }, 'Play')),
      notice),
    h('aside', { class: 'side-col' },
      h('section', { class: 'panel' },
        h('h3', {}, 'Place'),
        h('div', { class: 'row', role: 'group', 'aria-label': 'Side' }, sideButtons),
        palette,
        h('div', { class: 'row' }, h('label', {}, pawnBox, ' pawn'), h('label', {}, kingBox, ' king')),
        toolHint),
      promotion,
      h('section', { class: 'panel' }, h('h3', {}, 'Selected piece'), info),
      secret ? null : h('section', { class: 'panel value', id: 'value', 'aria-labelledby': 'value-title' },
        h('h3', { id: 'value-title' }, 'Value'),
        h('p', { class: 'hint' }, 'What ', valueName, ' is worth, in pawns: bot games with it in place of the knights.'),
        valueResult, valueBar, valueGo),

      h('section', { class: 'panel' },
        h('h3', {}, 'Presets'),
        h('form', { class: 'row', onsubmit: loadPreset }, presetSide, presetField, h('button', { type: 'submit', id: 'lab-load-preset' }, 'Load')),
        h('div', { class: 'row' },
          h('button', { type: 'button', id: 'save-white', onclick: () => savePreset('white') }, 'Save White’s back rank'),
          h('button', { type: 'button', id: 'save-black', onclick: () => savePreset('black') }, 'Save Black’s back rank')),
        savedPreset),
      h('section', { class: 'panel' },
        newLab))));

  function show(message) { notice.textContent = message || ''; }

  function deselect() {
    selected = null; targets = []; draw();
    info.replaceChildren(h('p', { class: 'hint' }, 'Nothing selected.'));
  }

  function chooseTool(name) {
    tool = name;
    toolButtons.forEach((button) => button.setAttribute('aria-pressed', String(button.id === `tool-${name}`)));
    toolHint.textContent = TOOLS.find(([t]) => t === name)[2];
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
    draw();
    renderPromotion();
  }

  function draw() {
    if (!lab) return;
    const view = lab.view;
    board.draw({ width: view.width, height: view.height, pieces: view.board, flipped: false, selected, targets, last, due: view.promotion_due });
  }

  async function run(call) {
    show('');
    try {
      const answer = await call();
      const view = answer && (answer.lab || (answer.board ? answer : null));
      if (view) apply(view);
      return answer;
    } catch (error) {
      show(error.message);
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
    if (!piece) { info.replaceChildren(h('p', { class: 'hint' }, 'Nothing selected.')); return; }
    if (piece.code) followParent(piece.code);
    const text = secret ? null : h('pre', { class: 'explanation small' }, '…');
    fill(info, h('p', {}, describePiece(piece)),
      h('div', { class: 'row' }, 'Code ', h('code', {}, piece.code), copyButton(() => piece.code, 'Copy')),
      h('div', { class: 'row' }, h('button', { type: 'button', class: 'small', id: 'edit-dna', onclick: () => editor.set(spaced(piece.dna)) }, 'Edit its DNA')),
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
    if (!parsed) { show('Type a move as two squares, like e2e4.'); return; }
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
    run(() => api.labPreset(lab.id, lab.token, presetSide.value, presetField.value.trim() || 'default'));
  }

  async function savePreset(color) {
    const saved = await run(() => api.labSavePreset(lab.id, lab.token, color));
    if (!saved) return;
    fill(savedPreset, h('p', {}, `${color === 'white' ? 'White' : 'Black'}’s back rank is preset `,
      h('code', { id: 'saved-preset-code' }, saved.code), ' ', copyButton(() => saved.code, 'Copy'), ' ',
      h('a', { href: `#/code/${saved.code}` }, 'view')));
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
    breedNote.textContent = 'Breeding…';
    try {
      const request = { a: await parentRef(breedA.value), b: await parentRef(breedB.value) };
      // A whole number goes as a number; anything else as typed, for the server to refuse.
      const seed = breedSeed.value.trim();
      if (seed !== '') request.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
      const bred = await api.breed(request);
      breedNote.textContent = bred.children.length
        ? `${bred.children.length} children of ${bred.a} × ${bred.b}, seed ${bred.seed} (the same seed breeds them again).`
        : `${bred.a} × ${bred.b} have no children that differ from them.`;
      fill(breedOut, bred.children.map((child, i) => h('figure', { class: 'child', 'data-code': child.code },
        h('img', { class: 'diagram', src: child.diagram, alt: `Moves of ${child.code} on an empty board` }),
        h('figcaption', {},
          h('a', { href: `#/code/${child.code}` }, h('code', {}, child.code)), ' ',
          h('button', {
            type: 'button', class: 'small', id: `breed-use-${i + 1}`, 'aria-label': `Place child ${child.code}`,
            onclick: () => useChild(child),
          }, 'Use')),
        h('details', {}, h('summary', {}, 'What it does'), h('pre', { class: 'explanation small' }, child.explanation)))));
    } catch (error) {
      breedNote.textContent = error.message;
      breedOut.replaceChildren();
    }
  }

  // "≈ 3.1 pawns ± 0.4 (200 games)", or where the evaluation stands.
  function valueText(value) {
    if (value.state === 'failed') return `The evaluation failed: ${value.error || 'no reason given'}`;
    const e = value.estimate;
    const estimate = e ? `≈ ${e.pawns.toFixed(1)} pawns ± ${e.margin.toFixed(1)} (${value.played} games)` : '';
    if (value.state === 'done') return estimate;
    if (value.state === 'queued') return 'Waiting for the server to start…';
    return `Evaluating: ${value.played} of ${value.games} games${e ? `; so far ${estimate}` : ''}`;
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
    valueName.textContent = ref;
    valueBar.hidden = true;
    valueGo.disabled = false;
    valueResult.textContent = '';
    try {
      const value = await api.genomeValue(ref);
      if (valueRef === ref && showValue(value)) followValue(ref);
    } catch (error) {
      if (valueRef !== ref) return;
      valueResult.textContent = error.status === 404 ? 'Not evaluated yet.' : error.message;
    }
  }

  async function evaluate() {
    if (secret) return;
    const ref = valueRef;
    valueGo.disabled = true;
    valueResult.textContent = 'Starting…';
    try {
      const value = await api.evaluateGenome(ref);
      if (valueRef === ref && showValue(value)) followValue(ref);
    } catch (error) {
      if (valueRef !== ref) return;
      valueResult.textContent = error.message;
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
      if (!response.ok || !response.body) throw new Error(`the evaluation cannot be followed (${response.status})`);
      for await (const line of ndjson(response.body)) {
        if (valueRef !== ref) return;
        showValue(line.value);
      }
    } catch (error) {
      if (error.name !== 'AbortError' && valueRef === ref) valueResult.textContent = error.message;
    }
  }

  // A child becomes the genome to place, as DNA written in the editor does: the next click on a
  // square places it (and the editor shows its DNA, ready for changes).
  function useChild(child) {
    chooseGenome(child.code, true);
    editor.set(spaced(child.dna));
    toolHint.textContent = `Child ${child.code} is ready: click a square to place it.`;
  }

  async function start(fresh) {
    show('');
    try {
      lab = await openLab(fresh);
      selected = null; targets = []; last = [];
      apply(lab.view);
      if (fresh) toast('A new empty lab');
    } catch (error) {
      show(`The lab could not be opened: ${error.message}`);
    }
  }

  chooseTool('move');
  chooseSide('white');
  chooseGenome('queen', false);
  info.replaceChildren(h('p', { class: 'hint' }, 'Nothing selected.'));
  start(params.get('new') === '1');
  // Once made, a reload should keep this lab, not make yet another one.
  if (params.get('new') === '1') history.replaceState(null, '', '#/lab');
  if (params.get('dna')) editor.set(params.get('dna'));
  else if (params.get('genome')) {
    api.genome(params.get('genome')).then((g) => editor.set(spaced(g.dna))).catch((error) => show(error.message));
  }
  return () => { document.removeEventListener('keydown', escape); clearTimeout(armed); stopValueStream(); };
}

