// A form's refusal beside the field it is about, in the page's language. The server names the
// field of a 422 in English: an `invalid_field` message starts with it in backticks ("`password`:
// a password is 8 to 128 characters…", from its JSON reader), and the service's own codes are each
// about one field, which their words name (bad_settings: "the clock's initial time…"). A form
// lists its fields by those names; a field's `text` (a message id) says what to type there, so a
// short password reads "A password is 8 to 128 characters" in Slovak as in English. A refusal of
// no listed field goes to the form's own notice.

import { h } from './dom.js';
import { t, errorText } from './i18n.js';

// The field a refusal is about: the backticked path of `invalid_field`, else the one its code
// and words name, else null.
export function refusedField(error) {
  if (!error) return null;
  const message = String(error.message || '');
  const named = /^`([^`]+)`/.exec(message);
  if (error.code === 'invalid_field') return named ? named[1] : null;
  switch (error.code) {
    case 'username_taken': return 'username';
    case 'bad_team': case 'team_name_taken': return 'name';
    case 'bad_settings': case 'bad_clock':
      return /increment/.test(message) ? 'clock.increment_ms' : /initial/.test(message) ? 'clock.initial_ms' : 'clock';
    case 'bad_event':
      return /\bname\b/.test(message) ? 'name' : /`double`/.test(message) ? 'double' : /rounds/.test(message) ? 'rounds' : null;
    case 'bad_lineup': return /preset/.test(message) && !/king/.test(message) ? 'preset' : 'kings';
    default: return named ? named[1] : null;
  }
}

// Codes whose own words say more than the field's rule ("That username is taken").
const OWN_WORDS = new Set(['username_taken', 'team_name_taken', 'bad_credentials', 'not_found', 'rate_limited']);

// The slot of a field's refusal, for the field's aria-describedby.
export const fieldError = (id) => h('p', { class: 'field-error notice', id, role: 'alert' });

// A form's refusals: `fields` maps a field's name (a path such as `clock.initial_ms`, or its first
// part) to {input, slot, text?, words?(error) → words or null, codes?: the codes that are about
// this field in this form (a join code's `bad_credentials`)}; `notice` takes what no field is about.
export function formErrors(fields, notice, noticeText = errorText) {
  const all = Object.values(fields);
  function clear() {
    for (const field of all) {
      field.slot.textContent = '';
      field.input.removeAttribute('aria-invalid');
    }
    if (notice) notice.textContent = '';
  }
  // Shows `error` beside its field (focused; `known`: the field when the form knows it better)
  // → whether a field took it.
  function show(error, known = null) {
    clear();
    const name = known ?? Object.keys(fields).find((key) => fields[key].codes?.includes(error.code)) ?? refusedField(error);
    const field = name ? fields[name] ?? fields[name.split(/[.[]/)[0]] : null;
    if (!field) {
      if (notice) notice.textContent = noticeText(error);
      return false;
    }
    const own = field.words ? field.words(error) : null;
    field.slot.textContent = own ?? (field.text && !OWN_WORDS.has(error.code) ? t(field.text) : errorText(error));
    field.input.setAttribute('aria-invalid', 'true');
    field.input.focus();
    return true;
  }
  return { show, clear };
}
