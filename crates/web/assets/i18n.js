// The page's languages: a message catalogue per language (assets/i18n/{lang}.json, JSON keyed
// by message id), loaded before the first page is drawn. A message is a string with `{name}`
// placeholders, or, when it depends on a number, an object of Intl.PluralRules categories
// (one, few, many, other; `other` is required) chosen by the `count` parameter:
//   t('moves', { count: 3 })  → "3 moves" / "3 ťahy"
// The language is the one chosen with the switch (kept in localStorage), else the first of the
// browser's languages the page speaks, else English. English is also the fallback for a message
// a catalogue lacks (the Rust tests keep the catalogues' keys equal, so that is a safety net).

export const LANGUAGES = ['en', 'sk'];
const DEFAULT = 'en';
const KEY = 'gmo.language';

let current = DEFAULT;
let messages = {};
let fallback = {};
let plurals = new Intl.PluralRules(DEFAULT);
let loaded = false;
// Ids asked for that no catalogue has, kept where the browser tests can read them.
window.__i18nMissing = [];

// The language the page speaks now ('en' or 'sk').
export const language = () => current;

// The language to use: the stored choice, else the browser's, else English.
function choose() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { stored = null; }
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || '']) {
    const primary = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return DEFAULT;
}

async function catalogue(lang) {
  try {
    const response = await fetch(`/assets/i18n/${lang}.json`);
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

// Loads the chosen language's catalogue (and English's, the fallback); never fails.
export async function loadLanguage() {
  current = choose();
  const [base, own] = await Promise.all([catalogue(DEFAULT), current === DEFAULT ? null : catalogue(current)]);
  fallback = base;
  messages = own || base;
  plurals = new Intl.PluralRules(current);
  loaded = true;
  document.documentElement.lang = current;
  translateStatic();
  renderSwitch();
}

// Switches and remembers the language; the page is drawn again in it (a reload keeps the route).
export function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  try { localStorage.setItem(KEY, lang); } catch { /* not remembered, still switched */ }
  if (lang === current) return;
  location.reload();
}

// Whether a message exists.
export const has = (id) => id in messages || id in fallback;

// The message `id` in the current language, its placeholders filled from `params`.
export function t(id, params = {}) {
  let entry = id in messages ? messages[id] : fallback[id];
  if (entry === undefined) {
    // Before the catalogues are in (the header drawn early) an id is not missing, only early.
    if (!loaded) return '';
    window.__i18nMissing.push(id);
    console.warn('no message', id);
    return id;
  }
  if (typeof entry === 'object' && entry !== null) {
    const count = Number(params.count);
    entry = entry[plurals.select(Number.isFinite(count) ? count : 0)] ?? entry.other;
  }
  return String(entry).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A message with elements in it, as children for h(): `text` (a t() result, its element
// placeholders left unfilled) split on its `{name}` placeholders, each replaced by
// `elements[name]` — or by `fallback(name)` — so that every language puts the element where its
// word order wants it. An element the message uses twice is cloned; a placeholder with neither
// stays as written.
export function withElements(text, elements = {}, fallback = () => null) {
  const used = new Set();
  return text.split(/(\{\w+\})/).filter((piece) => piece !== '').map((piece) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    let node = name ? elements[name] ?? fallback(name) : null;
    if (!node) return piece;
    if (used.has(name)) node = node.cloneNode(true);
    used.add(name);
    return node;
  });
}

// An API failure in the current language: the message for its machine code when the catalogue
// has one (`error.{code}`; every code of the API's ErrorCode list has one), else the server's own
// (English) words. English keeps the server's words (they are English, and often more precise).
// The message may use the failure's details: `seconds` (a 429's Retry-After) and, for invalid
// DNA, `codon` and `offset` (counted from 1, as the lab shows them), `found` (the letter or
// codon in quotes, or "the end of the DNA") and `expected` (the server's English words). A
// message that needs a detail the failure lacks (discovery names none) gives way to the server's.
export function errorText(error) {
  if (!error) return '';
  if (current === DEFAULT && error.message) return error.message;
  const id = `error.${error.code}`;
  if (!error.code || !has(id)) return error.message;
  const params = { seconds: error.retryAfter ?? '' };
  const known = (value) => value !== undefined && value !== null;
  if (known(error.codon)) params.codon = Number(error.codon) + 1;
  if (known(error.offset)) params.offset = Number(error.offset) + 1;
  if (known(error.found)) params.found = error.found === '' ? t('error.found.end') : t('error.found.text', { found: error.found });
  if (known(error.expected)) params.expected = error.expected;
  const text = t(id, params);
  return /\{\w+\}/.test(text) && error.message ? error.message : text;
}

// Numbers, dates and times in the current language's conventions.
export const formatNumber = (n, options) => new Intl.NumberFormat(current, options).format(n);
export const formatDate = (when, options = { dateStyle: 'medium' }) => new Intl.DateTimeFormat(current, options).format(new Date(when));
export const formatDateTime = (when, options = { dateStyle: 'medium', timeStyle: 'short' }) =>
  new Intl.DateTimeFormat(current, options).format(new Date(when));
export const formatTime = (when, options = { timeStyle: 'short' }) => new Intl.DateTimeFormat(current, options).format(new Date(when));

// The static page (index.html): elements with data-i18n get their text, data-i18n-label their
// accessible name.
function translateStatic() {
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}

// The header's switch: one button per language, the current one pressed.
function renderSwitch() {
  const slot = document.getElementById('language-switch');
  if (!slot) return;
  slot.setAttribute('aria-label', t('lang.switch'));
  slot.replaceChildren(...LANGUAGES.map((lang) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small lang';
    button.id = `lang-${lang}`;
    button.lang = lang;
    button.textContent = lang.toUpperCase();
    button.setAttribute('aria-label', t(`lang.name.${lang}`));
    button.setAttribute('aria-pressed', String(lang === current));
    button.addEventListener('click', () => setLanguage(lang));
    return button;
  }));
}
