// A widget's state is one plain object that round-trips through the URL, so a
// shared link reproduces the view. The widget's declarative `controls` say
// which keys exist and what is valid:
//   { key, type: 'range', min, max, step }           a number in [min, max], on the step grid
//   { key, type: 'choice', options: [{ value }] }    one of the option values (also 'select')
//   { key, type: 'toggle' }                          true or false ("1" / "0")
//   { key, type: 'text', maxLength }                 a string
// Anything missing or invalid falls back to the widget's default. On the full
// page each key is prefixed with the widget's name (?kv-query.q=172); in an
// embed the widget is alone and keys are bare (?q=172).

// Parses one URL value for a control; undefined when it is not valid.
function parseValue(control, text) {
  if (text === null) return undefined;
  switch (control.type) {
    case 'choice':
    case 'select':
      return control.options.some((o) => o.value === text) ? text : undefined;
    case 'toggle':
      return text === '1' ? true : text === '0' ? false : undefined;
    case 'text':
      return text.length <= (control.maxLength ?? 2000) ? text : undefined;
    case 'range': {
      if (text.trim() === '') return undefined;
      const x = Number(text);
      if (!Number.isFinite(x) || x < control.min || x > control.max) return undefined;
      // snap to the slider's grid, as the slider itself would
      const steps = Math.round((x - control.min) / control.step);
      return Number((control.min + steps * control.step).toFixed(6));
    }
    default:
      return undefined;
  }
}

// What a control accepts, in words, for an error message.
function accepted(control) {
  switch (control.type) {
    case 'choice':
    case 'select':
      return `one of ${control.options.map((o) => JSON.stringify(o.value)).join(', ')}`;
    case 'toggle':
      return 'true or false';
    case 'text':
      return `a string of at most ${control.maxLength ?? 2000} characters`;
    case 'range':
      return `a number from ${control.min} to ${control.max}`;
    default:
      return 'nothing';
  }
}

// A value as an error message shows it: a string quoted (its first 40
// characters), a number, boolean or BigInt as written, an array's entries one
// level deep, anything else by its kind. It never throws and reads nothing
// but an array's entries (JSON.stringify throws on a BigInt or a cycle, and
// would call a host's toJSON).
export function shown(value, depth = 0) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    case 'number': case 'boolean': case 'undefined': return String(value);
    case 'bigint': return `${value}n`;
    case 'object':
      if (!Array.isArray(value)) return 'an object';
      if (depth > 0) return '[…]';
      try {
        const first = Array.from(value.slice(0, 8), (v) => shown(v, depth + 1));
        return `[${first.join(',')}${value.length > 8 ? ',…' : ''}]`;
      } catch {
        return 'an array';
      }
    default: return `a ${typeof value}`;
  }
}

// A widget's defaults in a language: its own defaults, then its own
// languageDefaults for that language (own properties only: nothing a page's
// script added to Object.prototype).
export function widgetDefaults(def, lang) {
  const own = (object, key) => (object && typeof object === 'object' && Object.hasOwn(object, key) ? object[key] : undefined);
  return { ...def.defaults, ...own(own(def, 'languageDefaults'), lang) };
}

// A partial state given by a program (the embed's API): each key must be a
// control's and each value valid for it (a URL's text form, or a number or a
// boolean where the control holds one). Returns the values as the widget keeps
// them; throws an Error naming the first bad key or value.
export function checkState(partial, controls, widget) {
  if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) {
    throw new Error(`the state of "${widget}" must be an object of its keys, got ${partial === null ? 'null' : typeof partial}`);
  }
  const out = {};
  for (const key of Object.keys(partial)) {
    const control = controls.find((c) => c.key === key);
    if (!control) {
      throw new Error(`"${widget}" has no state key "${key}"; its keys are ${controls.map((c) => c.key).join(', ')}`);
    }
    const given = partial[key];
    const text = control.type === 'toggle' && typeof given === 'boolean' ? (given ? '1' : '0')
      : typeof given === 'string' || (typeof given === 'number' && control.type !== 'text') ? String(given) : null;
    const value = parseValue(control, text);
    if (value === undefined) {
      throw new Error(`bad value for "${key}" of "${widget}": ${shown(given)} (it takes ${accepted(control)})`);
    }
    out[key] = value;
  }
  return out;
}

// The state as its controls hold it: the keys a URL or the embed's API knows.
export function publicState(state, controls) {
  return Object.fromEntries(controls.map((c) => [c.key, state[c.key]]));
}

function formatValue(control, value) {
  return control.type === 'toggle' ? (value ? '1' : '0') : String(value);
}

// search string -> state: every key of defaults, each valid.
export function parseState(search, controls, defaults, prefix = '') {
  const params = new URLSearchParams(search);
  const state = { ...defaults };
  for (const control of controls) {
    const value = parseValue(control, params.get(prefix + control.key));
    if (value !== undefined) state[control.key] = value;
  }
  return state;
}

// state -> search string; parameters that belong to no control are kept.
export function serialiseState(state, controls, search = '', prefix = '') {
  const params = new URLSearchParams(search);
  for (const control of controls) params.set(prefix + control.key, formatValue(control, state[control.key]));
  return `?${params}`;
}

// Writes into the URL are rationed: Chromium ignores history changes beyond
// 200 in 10 s (and says so in the console), which a dragged slider reaches in
// a few seconds, leaving a stale state in the address. Up to WRITE_BURST
// writes go through at once; beyond, one per WRITE_EVERY ms, and the last
// state always lands. (At most 20 + 100 writes in 10 s.)
const WRITE_BURST = 20;
const WRITE_EVERY = 100;  // ms
const pending = new Map();  // prefix -> { state, controls }: not yet in the URL
let credit = WRITE_BURST, refilled = 0, timer = 0;

// Writes every pending state into the URL now (before reading the URL).
export function flushState() {
  clearTimeout(timer);
  timer = 0;
  if (pending.size === 0) return;
  const { pathname, search, hash } = window.location;
  let next = search;
  for (const [prefix, { state, controls }] of pending) next = serialiseState(state, controls, next, prefix);
  pending.clear();
  credit -= 1;
  try {
    window.history.replaceState(window.history.state, '', pathname + next + hash);
  } catch {
    // some hosts (sandboxed iframes, file: URLs) refuse; the widget works without it
  }
}

// Writes the state into the page's URL without adding a history entry.
export function writeState(state, controls, prefix = '') {
  pending.set(prefix, { state, controls });
  const now = performance.now();
  credit = Math.min(WRITE_BURST, credit + (now - refilled) / WRITE_EVERY);
  refilled = now;
  if (timer) return;  // a write is due: it takes this state too
  if (credit >= 1) flushState();
  else timer = setTimeout(flushState, (1 - credit) * WRITE_EVERY);
}

// Only the widget's own parameters, bare: for embed URLs and snippets.
export function stateQuery(state, controls) {
  return serialiseState(state, controls, '').slice(1);
}
