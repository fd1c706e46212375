// Who is signed in, the header's way in and out, and the pages to sign up and sign in
// (#/signup, #/signin). The session is the server's HttpOnly cookie: the page never reads it,
// it asks GET /api/account at start (401: signed out) and after each change.

import { h, fill, toast } from './dom.js';
import * as api from './api.js';
import { profileHref } from './players.js';
import { t, errorText } from './i18n.js';
import { fieldError, formErrors } from './fields.js';

let current = null; // {username, rating: {value, deviation, provisional, games}} or null
const listeners = new Set();


// The signed-in account, or null (known once loadAccount() has answered).
export const signedIn = () => current;

// Asks the server who this browser is; never fails (an error is "signed out").
export async function loadAccount() {
  try {
    current = await api.account();
  } catch {
    current = null;
  }
  changed();
  return current;
}

// Called with the account (or null) after every change.
export function onAccountChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  renderHeader();
  for (const listener of listeners) listener(current);
}

// The header's part: "Sign in" and "Sign up" when signed out (each coming back to the page it
// was pressed on), the name (a link to the profile) and "Sign out" when signed in.
export function renderHeader() {
  const slot = document.getElementById('account-nav');
  if (!slot) return;
  if (current) {
    fill(slot,
      h('span', { class: 'signed-in-as' }, h('span', { class: 'sr-only' }, `${t('account.signedInAs')} `),
        h('a', { href: profileHref(current.username), id: 'account-name' }, current.username)),
      h('button', { type: 'button', id: 'sign-out', class: 'small', onclick: signOut }, t('account.signOut')));
    return;
  }
  const then = returnTo();
  const query = then ? `?then=${encodeURIComponent(then)}` : '';
  fill(slot,
    h('a', { href: `#/signin${query}`, id: 'sign-in-link' }, t('account.signIn')),
    h('a', { href: `#/signup${query}`, id: 'sign-up-link', class: 'button small' }, t('account.signUp')));
}

// Where to come back to after signing in: the page shown now, unless it is a sign-in page.
function returnTo() {
  const hash = location.hash || '#/';
  if (/^#\/(signin|signup)\b/.test(hash)) return new URLSearchParams(hash.split('?')[1] || '').get('then') || '';
  return hash === '#/' ? '' : hash;
}

async function signOut() {
  try {
    await api.signOut();
  } catch (error) {
    toast(t('account.outFailed', { message: errorText(error) }));
    return;
  }
  current = null;
  toast(t('account.out'));
  changed();
}

// A refusal's words, with the wait of a 429 when the message does not give it.
function refusal(error) {
  let message = errorText(error);
  if (error.status === 429 && error.retryAfter && !/\d+ s\b/.test(message)) message += t('account.wait', { seconds: error.retryAfter });
  return message;
}

// The page to sign up (`mode` 'signup') or in ('signin'); `params.then` is where to go after.
export function accountPage(root, mode, params) {
  const up = mode === 'signup';
  const then = params.get('then');
  const next = then && then.startsWith('#/') && !/^#\/(signin|signup)\b/.test(then) ? then : '#/';
  const userError = fieldError('account-username-error');
  const passError = fieldError('account-password-error');
  const formError = h('p', { class: 'notice', id: 'account-error', role: 'alert' });
  const username = h('input', {
    id: 'account-username', type: 'text', name: 'username', autocomplete: 'username', spellcheck: 'false',
    autocapitalize: 'none', required: true, maxlength: 40, 'aria-describedby': 'account-username-hint account-username-error',
  });
  const password = h('input', {
    id: 'account-password', type: 'password', name: 'password', autocomplete: up ? 'new-password' : 'current-password',
    required: true, maxlength: 200, 'aria-describedby': 'account-password-hint account-password-error',
  });
  const submit = h('button', { type: 'submit', id: 'account-submit', class: 'primary' }, up ? t('account.signUp') : t('account.signIn'));

  // The server's refusal beside the field it is about, saying what to type there; a wrong
  // password (or a wait) under the form.
  const errors = formErrors({
    username: { input: username, slot: userError, text: 'field.username' },
    password: { input: password, slot: passError, text: 'field.password' },
  }, formError, refusal);

  async function send(event) {
    event.preventDefault();
    errors.clear();
    submit.disabled = true;
    try {
      const answer = up ? await api.signUp(username.value, password.value) : await api.signIn(username.value, password.value);
      await loadAccount();
      if (!current) current = { username: answer.username };
      toast(up ? t('account.welcome', { name: answer.username }) : t('account.back', { name: answer.username }));
      location.hash = next;
    } catch (error) {
      errors.show(error);
    } finally {
      submit.disabled = false;
    }
  }

  const query = then ? `?then=${encodeURIComponent(then)}` : '';
  const already = current ? h('p', { class: 'hint', id: 'account-already' }, t('account.already', { name: current.username })) : null;
  root.replaceChildren(h('section', { class: 'panel account-form', id: up ? 'sign-up' : 'sign-in' },
    h('h1', {}, up ? t('account.signUpTitle') : t('account.signInTitle')),
    already,
    up ? h('p', { class: 'hint' }, t('account.why')) : null,
    h('form', { onsubmit: send, novalidate: true },
      h('div', { class: 'field' },
        h('label', { for: 'account-username' }, t('account.username')), username,
        h('p', { class: 'hint', id: 'account-username-hint' }, up ? t('account.usernameHint') : ''), userError),
      h('div', { class: 'field' },
        h('label', { for: 'account-password' }, t('account.password')), password,
        h('p', { class: 'hint', id: 'account-password-hint' }, up ? t('account.passwordHint') : ''), passError),
      formError,
      h('div', { class: 'row' }, submit)),
    h('p', { class: 'hint' }, up ? t('account.haveOne') : t('account.needOne'), ' ',
      h('a', { href: `#/${up ? 'signin' : 'signup'}${query}`, id: up ? 'to-sign-in' : 'to-sign-up' }, up ? t('account.signIn') : t('account.signUp')))));
  username.focus();
  return () => {};
}
