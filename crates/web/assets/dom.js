// Small DOM helpers, so the pages build elements without innerHTML (no markup injection from
// server strings, and the page's Content-Security-Policy allows no inline styles).

import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// h('button', {class: 'x', onclick: f, 'aria-label': '…'}, 'text', child…)
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

// The same for SVG elements, which need their namespace.
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      el.setAttribute('class', value);
    } else if (key === 'value' && 'value' in el) {
      el.value = value;
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Replaces everything inside `el`.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let toastTimer = 0;
let toastEl = null;

// A short message in the polite live region (read out by screen readers too). It floats at the
// bottom of the window, except where the page keeps it a place of its own in its flow (a shown
// `.toast-slot`: under the game page's board and the team page's lineup, on a phone), so that it
// covers no text there.
export function toast(message) {
  toastEl = toastEl || document.getElementById('toast');
  const el = toastEl;
  if (!el) return;
  // A slot shown (no rectangles: it or a part of the page around it is hidden).
  const slot = [...document.querySelectorAll('.toast-slot')].find((one) => one.getClientRects().length > 0);
  const home = slot || document.body;
  if (el.parentElement !== home) home.append(el);
  el.classList.toggle('in-flow', !!slot);
  el.textContent = message;
  el.classList.add('shown');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('shown'), 2600);
}

// Hides the message (a notice belongs to the page that showed it) and brings it back to the
// body from a page's slot, which goes with its page.
export function hideToast() {
  toastEl = toastEl || document.getElementById('toast');
  if (!toastEl) return;
  toastEl.classList.remove('shown', 'in-flow');
  if (toastEl.parentElement !== document.body) document.body.append(toastEl);
}

// Copies text; falls back to selecting a hidden field where the Clipboard API is not allowed
// (plain http on another host than localhost is not a "secure context").
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const field = h('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
    field.value = text;
    document.body.append(field);
    field.select();
    try { document.execCommand('copy'); } catch { /* nothing more to try */ }
    field.remove();
  }
  toast(text.length > 40 ? t('dom.copiedLink') : t('dom.copied', { text }));
}

// A "Copy" button for a value that may change later (read when clicked).
export function copyButton(valueOf, label = t('dom.copy')) {
  return h('button', { type: 'button', class: 'small', onclick: () => copyText(valueOf()) }, label);
}

// Runs `fn` once the calls stop for `ms` (typing, resizing).
export function debounce(fn, ms) {
  let timer = 0;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}
