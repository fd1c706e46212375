// The piece library (docs/library.md). #/library searches the published pieces and armies
// (GET /api/library: words, kind, what a piece does, order; 50 a page) and shows each as a card
// with its diagram or its army, value, stars, games and wins; a signed-in player publishes from
// here. #/library/{id} is one entry: its actions ("Open in the lab", "Play the bot with this",
// "Use as my preset"), its star, and its family tree (the parents breeding recorded, and its
// published children). A profile lists its player's entries (`authorEntries`). In discovery the
// server refuses the library (it would give the language away) and the page says so.

import { h, s } from './dom.js';
import * as api from './api.js';
import { genomeSvg } from './pieces.js';
import { startGame, BOT } from './home.js';
import { saveSetupChoice } from './setup.js';
import { signedIn } from './account.js';
import { ask } from './confirm.js';
import { discovery } from './config.js';
import { t, errorText, formatNumber } from './i18n.js';

const DOES = ['leaps', 'slides', 'wraps', 'copies', 'debuff'];
// The default preset's files, with a published genome in place of the knights ("play with this").
const WITH_KNIGHTS = (code) => ['rook', code, 'bishop', 'king', 'queen', 'bishop', code, 'rook'];

// The messages of these pages (read when shown: the catalogue loads after this module).
const TEXT = {
  failed: (error) => t('library.failed', { message: errorText(error) }),
  value: (entry) => (entry.value === null || entry.value === undefined ? t('library.noValue')
    : t('library.value', { value: formatNumber(entry.value, { maximumFractionDigits: 2 }) })),
  counts: (entry) => t('library.counts', {
    stars: formatNumber(entry.stars), games: formatNumber(entry.games),
    share: entry.games ? formatNumber(Math.round((100 * entry.wins) / entry.games)) : '–',
  }),
  by: (author) => t('library.by', { author }),
};

// The page says the library is off in discovery, instead of asking a server that refuses.
function offInDiscovery(root) {
  root.replaceChildren(h('section', { class: 'panel', id: 'library-off' },
    h('h1', {}, t('library.title')), h('p', { class: 'notice' }, t('library.discovery'))));
  return () => {};
}

// A card: the picture (a genome's diagram, an army's pieces), name, author and numbers.
export function entryCard(entry) {
  const picture = entry.kind === 'genome'
    ? h('img', { class: 'diagram', src: api.diagramPath(entry.code, { width: 5, height: 5 }), width: 120, alt: t('library.diagram', { name: entry.name }) })
    : armyBoard(entry.code, { links: false });
  return h('li', { class: 'library-card', 'data-entry': entry.id },
    h('a', { href: `#/library/${encodeURIComponent(entry.id)}` }, picture,
      h('strong', { class: 'entry-name' }, entry.name)),
    h('p', { class: 'hint' }, TEXT.by(entry.author), ' · ', h('code', {}, entry.code)),
    h('p', { class: 'entry-numbers' }, h('span', { class: 'entry-value' }, TEXT.value(entry)), ' · ', TEXT.counts(entry)),
    entry.does && entry.does.length ? h('p', { class: 'hint entry-does' }, entry.does.map((d) => t(`library.does.${d}`)).join(', ')) : null);
}

export function libraryPage(root) {
  if (discovery()) return offInDiscovery(root);
  let gone = false;
  let page = 1;
  const words = h('input', { id: 'library-q', type: 'search', 'aria-label': t('library.search'), placeholder: t('library.search') });
  const kind = h('select', { id: 'library-kind', 'aria-label': t('library.kind') },
    h('option', { value: '' }, t('library.kind.any')), h('option', { value: 'genome' }, t('library.kind.genome')),
    h('option', { value: 'preset' }, t('library.kind.preset')));
  const sort = h('select', { id: 'library-sort', 'aria-label': t('library.sort') },
    ['popular', 'new', 'stars', 'value'].map((key) => h('option', { value: key }, t(`library.sort.${key}`))));
  const does = DOES.map((key) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', value: key, 'data-does': key }), ` ${t(`library.does.${key}`)}`));
  const list = h('ul', { class: 'library-cards', id: 'library-cards', 'aria-label': t('library.results') });
  const state = h('p', { class: 'hint', id: 'library-state', role: 'status' });
  const more = h('button', { type: 'button', id: 'library-more', hidden: true, onclick: () => { page++; load(false); } }, t('library.more'));
  const form = h('form', { class: 'library-filters', id: 'library-filters', onsubmit: (event) => { event.preventDefault(); page = 1; load(true); } },
    words, kind, sort, h('span', { class: 'does' }, does), h('button', { type: 'submit', class: 'primary' }, t('library.find')));
  root.replaceChildren(h('section', { class: 'panel library', id: 'library' },
    h('h1', {}, t('library.title')), h('p', { class: 'hint' }, t('library.intro')),
    form, state, list, more), publishPanel());
  load(true);
  return () => { gone = true; };

  async function load(fresh) {
    const query = new URLSearchParams();
    if (words.value.trim()) query.set('q', words.value.trim().slice(0, 100));
    if (kind.value) query.set('kind', kind.value);
    query.set('sort', sort.value);
    const ticked = does.map((label) => label.querySelector('input')).filter((box) => box.checked).map((box) => box.value);
    if (ticked.length) query.set('does', ticked.join(','));
    if (page > 1) query.set('page', String(page));
    try {
      const answer = await api.library(query.toString());
      if (gone) return;
      if (fresh) list.replaceChildren();
      list.append(...answer.entries.map(entryCard));
      more.hidden = !answer.more;
      state.textContent = list.children.length ? '' : t('library.none');
    } catch (error) {
      if (!gone) state.textContent = TEXT.failed(error);
    }
  }
}

// Publishing, for a signed-in player: a stored genome's or preset's code, a name, a description.
function publishPanel() {
  if (!signedIn()) return h('section', { class: 'panel' }, h('p', { class: 'hint' }, h('a', { href: '#/signin?then=%23%2Flibrary' }, t('library.signInToPublish'))));
  const notice = h('p', { class: 'notice', role: 'alert', id: 'publish-notice' });
  const kind = h('select', { id: 'publish-kind', 'aria-label': t('library.kind') },
    h('option', { value: 'genome' }, t('library.kind.genome')), h('option', { value: 'preset' }, t('library.kind.preset')));
  const code = h('input', { id: 'publish-code', required: true, maxlength: 40, 'aria-label': t('library.code'), placeholder: t('library.code') });
  const name = h('input', { id: 'publish-name', required: true, minlength: 3, maxlength: 40, 'aria-label': t('library.name'), placeholder: t('library.name') });
  const description = h('input', { id: 'publish-description', maxlength: 500, 'aria-label': t('library.description'), placeholder: t('library.description') });
  return h('section', { class: 'panel', id: 'publish' }, h('h2', {}, t('library.publish')),
    h('form', { class: 'row', onsubmit: publish }, kind, code, name, description,
      h('button', { type: 'submit', class: 'primary', id: 'publish-button' }, t('library.publishButton'))), notice);

  async function publish(event) {
    event.preventDefault();
    notice.textContent = '';
    try {
      const entry = await api.publishEntry({ kind: kind.value, code: code.value.trim(), name: name.value, description: description.value });
      location.hash = `#/library/${encodeURIComponent(entry.id)}`;
    } catch (error) {
      notice.textContent = TEXT.failed(error);
    }
  }
}

export function entryPage(root, id) {
  if (discovery()) return offInDiscovery(root);
  let gone = false;
  root.replaceChildren(h('section', { class: 'panel' }, h('p', { class: 'loading' }, t('loading'))));
  load();
  return () => { gone = true; };

  async function load() {
    try {
      const entry = await api.libraryEntry(id);
      if (!gone) render(entry);
    } catch (error) {
      if (gone) return;
      root.replaceChildren(h('section', { class: 'panel', id: 'no-such-entry' },
        h('p', { class: 'notice', role: 'alert' }, error.status === 404 ? t('library.noSuchEntry') : TEXT.failed(error)),
        h('a', { class: 'button', href: '#/library' }, t('library.back'))));
    }
  }

  function render(entry) {
    const notice = h('p', { class: 'notice', role: 'alert', id: 'entry-notice' });
    const genome = entry.kind === 'genome';
    // A genome plays in place of the knights of the default army; a preset is the army.
    const presetOf = async () => (genome ? (await api.storePreset(WITH_KNIGHTS(entry.code))).code : entry.code);
    const act = (job) => async () => {
      notice.textContent = '';
      try { await job(); } catch (error) { notice.textContent = TEXT.failed(error); }
    };
    const lab = genome ? `#/lab?genome=${encodeURIComponent(entry.code)}` : `#/code/${encodeURIComponent(entry.code)}`;
    const me = signedIn();
    const star = me ? h('button', {
      type: 'button', id: 'entry-star', 'aria-pressed': String(entry.starred),
      onclick: act(async () => render(await api.starEntry(entry.id, !entry.starred))),
    }, t(entry.starred ? 'library.unstar' : 'library.star')) : null;
    root.replaceChildren(h('div', { class: 'library-entry', id: 'library-entry', 'data-entry': entry.id },
      h('section', { class: 'panel' },
        h('h1', { id: 'entry-name' }, entry.name),
        h('p', { class: 'hint' }, h('a', { href: `#/@/${encodeURIComponent(entry.author)}` }, TEXT.by(entry.author)), ' · ', h('code', {}, entry.code)),
        genome ? h('img', { class: 'diagram', id: 'entry-diagram', src: api.diagramPath(entry.code), width: 300, alt: t('library.diagram', { name: entry.name }) })
          : armyBoard(entry.code, { id: 'entry-army' }),
        entry.description ? h('p', { id: 'entry-description' }, entry.description) : null,
        h('p', { id: 'entry-numbers' }, TEXT.value(entry), ' · ', TEXT.counts(entry)),
        h('div', { class: 'row' },
          h('a', { class: 'button', id: 'entry-lab', href: lab }, t('library.openInLab')),
          h('button', { type: 'button', class: 'primary', id: 'entry-play', onclick: act(async () => startGame({ bot: BOT, preset: await presetOf() })) }, t('library.playBot')),
          h('button', { type: 'button', id: 'entry-use', onclick: act(async () => { saveSetupChoice({ preset: await presetOf() }); notice.textContent = t('library.used'); }) }, t('library.usePreset')),
          star),
        notice,
        me && me.username === entry.author ? authorTools(entry, { reload: load, act }) : null),
      genome ? familyTree(entry) : null));
    document.title = t('title.named', { name: entry.name });
  }
}

// The author's own tools: Edit (name and description, in place) and Withdraw (asked first; the
// code keeps working, the entry leaves the library, so the page goes back to the search).
function authorTools(entry, { reload, act }) {
  const name = h('input', { id: 'edit-name', required: true, minlength: 3, maxlength: 40, value: entry.name, 'aria-label': t('library.name') });
  const description = h('textarea', { id: 'edit-description', maxlength: 500, rows: 3, 'aria-label': t('library.description') });
  description.value = entry.description || '';
  const form = h('form', { id: 'entry-edit-form', class: 'edit-entry', hidden: true, onsubmit: (event) => {
    event.preventDefault();
    act(async () => {
      await api.editEntry(entry.id, { name: name.value, description: description.value });
      await reload();
      const saved = document.querySelector('#entry-notice');
      if (saved) saved.textContent = t('library.saved');
    })();
  } },
  name, description, h('div', { class: 'row' },
    h('button', { type: 'submit', class: 'primary', id: 'edit-save' }, t('library.save')),
    h('button', { type: 'button', id: 'edit-cancel', onclick: () => { form.hidden = true; } }, t('library.cancel'))));
  const withdraw = act(async () => {
    const sure = await ask({
      id: 'withdraw-confirm', title: t('library.withdrawTitle', { name: entry.name }),
      message: t('library.withdrawText'), yes: t('library.withdrawYes'), no: t('library.withdrawNo'),
    });
    if (!sure) return;
    await api.withdrawEntry(entry.id);
    location.hash = '#/library';
  });
  return h('div', { class: 'author-tools', id: 'author-tools' },
    h('div', { class: 'row' },
      h('button', { type: 'button', id: 'entry-edit', onclick: () => { form.hidden = !form.hidden; if (!form.hidden) name.focus(); } }, t('library.edit')),
      h('button', { type: 'button', class: 'danger', id: 'entry-withdraw', onclick: withdraw }, t('library.withdraw'))),
    form);
}

// An army on a board: its back rank as White sees it (a1 dark), drawn with the page's own
// pieces, each opening its genome where the board is not itself inside a link (a card).
function armyBoard(code, { id, links = true } = {}) {
  const rank = h('ol', { class: 'rank army-board', id, 'aria-label': t('library.army') });
  api.preset(code).then((preset) => rank.append(...preset.genomes.map((genome, file) => {
    const piece = genomeSvg(genome, 'white');
    const square = h('li', { class: file % 2 ? 'light' : 'dark', title: genome },
      links ? h('a', { href: `#/code/${encodeURIComponent(genome)}`, 'aria-label': genome }, piece) : piece);
    return square;
  }))).catch(() => rank.append(h('li', { class: 'hint' }, t('library.army'))));
  return rank;
}

// The family tree, drawn: the two parents above (their published entries, else their codes),
// this entry, its published children below (at most 50: the drawing scrolls sideways), each a
// box that links to its page, joined by a line down from each parent and to each child.
const NODE = { width: 150, height: 34, gap: 16, row: 70 };

function familyTree(entry) {
  const entryNode = (e, kind) => ({ href: `#/library/${encodeURIComponent(e.id)}`, label: e.name, kind });
  const parents = entry.lineage.parents.map((parent) => (parent.entries.length ? entryNode(parent.entries[0], 'parent')
    : { href: `#/code/${encodeURIComponent(parent.code)}`, label: parent.code, kind: 'parent code' }));
  const children = entry.lineage.children.map((child) => entryNode(child, 'child'));
  // The rows, each named for screen readers (the parents, the children).
  const rows = [[parents, t('library.parents')], [[entryNode(entry, 'self')], null], [children, t('library.children')]]
    .filter(([row]) => row.length);
  const widest = Math.max(...rows.map(([row]) => row.length));
  const width = widest * NODE.width + (widest - 1) * NODE.gap;
  const height = (rows.length - 1) * NODE.row + NODE.height;
  const svg = s('svg', {
    class: 'tree-drawing', id: 'tree-drawing', width, height, viewBox: `0 0 ${width} ${height}`,
    role: 'group', 'aria-label': t('library.family'),
  });
  const placed = rows.map(([row], r) => placeRow(row, r, width));
  const self = placed[parents.length ? 1 : 0][0];
  if (parents.length) placed[0].forEach((parent) => svg.append(elbow(parent, self)));
  if (children.length) placed[placed.length - 1].forEach((child) => svg.append(elbow(self, child)));
  placed.forEach((row, r) => svg.append(s('g', { role: rows[r][1] ? 'group' : null, 'aria-label': rows[r][1] }, row.map(box))));
  return h('section', { class: 'panel family-tree', id: 'family-tree' }, h('h2', {}, t('library.family')),
    h('div', { class: 'tree-scroll' }, svg),
    parents.length ? null : h('p', { class: 'hint' }, t('library.notBred')),
    children.length ? null : h('p', { class: 'hint' }, t('library.noChildren')));
}

// A row's nodes with their boxes' corners, centred across the drawing.
function placeRow(row, r, width) {
  const span = row.length * NODE.width + (row.length - 1) * NODE.gap;
  const left = (width - span) / 2;
  return row.map((node, i) => ({ ...node, x: left + i * (NODE.width + NODE.gap), y: r * NODE.row }));
}

// The line from the bottom of `upper` to the top of `lower`: down, across, down.
function elbow(upper, lower) {
  const [x1, y1] = [upper.x + NODE.width / 2, upper.y + NODE.height];
  const [x2, y2] = [lower.x + NODE.width / 2, lower.y];
  const middle = (y1 + y2) / 2;
  return s('path', { class: 'tree-line', d: `M${x1} ${y1}V${middle}H${x2}V${y2}` });
}

// A node: a linked box with its name (shortened to fit, whole in its tooltip).
function box(node) {
  const label = node.label.length > 18 ? `${node.label.slice(0, 17)}…` : node.label;
  return s('a', { href: node.href, class: `tree-node ${node.kind}`, 'aria-label': node.label },
    s('title', {}, node.label),
    s('rect', { x: node.x, y: node.y, width: NODE.width, height: NODE.height, rx: 6 }),
    s('text', { x: node.x + NODE.width / 2, y: node.y + NODE.height / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, label));
}

// A player's entries, newest first, for their profile (nothing in discovery).
export function authorEntries(name) {
  if (discovery()) return null;
  const list = h('ul', { class: 'library-cards', id: 'profile-entries' });
  const section = h('section', { class: 'panel profile-entries' }, h('h2', {}, t('library.entriesOf')), list);
  api.library(`author=${encodeURIComponent(name)}&sort=new`).then((answer) => {
    list.append(...answer.entries.map(entryCard));
    if (!answer.entries.length) list.append(h('li', { class: 'hint' }, t('library.none')));
  }).catch((error) => list.append(h('li', { class: 'notice' }, TEXT.failed(error))));
  return section;
}

